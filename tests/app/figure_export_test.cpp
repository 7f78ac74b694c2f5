// Figure files: SVG and PDF from `poslab render`, PNG with and without a background, and the
// Cairo renderer's primitives drawn in-process. Truth comes from outside the renderer: XML's
// grammar, pdftoppm (poppler) rasterising the PDF, the PNG from the screen's EGL/ImGui path
// (--renderer gl), alpha compositing, and geometry (where a shape must and must not put ink).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "commands/commands.hpp"
#include "gfx/cairo_renderer.hpp"
#include "panels/registry.hpp"
#include "poslab/encodings/learned.hpp"
#include "poslab/figure/plot.hpp"
#include "process.hpp"
#include "state/app_state.hpp"
#include "ui/export_dialog.hpp"

namespace poslab::test {
namespace {

// ---- A minimal XML well-formedness check (no DTDs; what SVG files need)
struct XmlSummary {
    std::string problem;                  // empty: well-formed
    std::map<std::string, int> elements;  // element name -> count
    std::vector<std::string> texts;       // character data of each <text> element
    std::map<std::string, std::string> rootAttributes;
};

bool isNameChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '-' ||
           c == '.';
}

// Checks entity references in character data or attribute values.
bool entitiesOk(const std::string& text) {
    for (std::size_t i = text.find('&'); i != std::string::npos; i = text.find('&', i + 1)) {
        const std::size_t semicolon = text.find(';', i);
        if (semicolon == std::string::npos) return false;
        const std::string name = text.substr(i + 1, semicolon - i - 1);
        static const std::set<std::string> known = {"amp", "lt", "gt", "quot", "apos"};
        const bool numeric = name.size() > 1 && name[0] == '#' &&
                             std::all_of(name.begin() + 1, name.end(), [](char c) {
                                 return std::isxdigit(static_cast<unsigned char>(c)) || c == 'x';
                             });
        if (!known.count(name) && !numeric) return false;
    }
    return true;
}

XmlSummary checkXml(const std::string& xml) {
    XmlSummary summary;
    std::vector<std::string> open;
    bool rootSeen = false;
    std::string* currentText = nullptr;
    std::size_t i = 0;
    auto fail = [&](const std::string& why) {
        summary.problem = why + " at byte " + std::to_string(i);
        return summary;
    };
    while (i < xml.size()) {
        const std::size_t lt = xml.find('<', i);
        const std::string data = xml.substr(i, (lt == std::string::npos ? xml.size() : lt) - i);
        if (!entitiesOk(data)) return fail("bad entity in text");
        if (open.empty() && data.find_first_not_of(" \t\r\n") != std::string::npos)
            return fail("text outside the root");
        if (currentText) *currentText += data;
        if (lt == std::string::npos) break;
        i = lt;
        if (xml.compare(i, 4, "<!--") == 0) {
            const std::size_t end = xml.find("-->", i);
            if (end == std::string::npos) return fail("unclosed comment");
            i = end + 3;
            continue;
        }
        if (xml.compare(i, 2, "<?") == 0) {
            const std::size_t end = xml.find("?>", i);
            if (end == std::string::npos || rootSeen) return fail("bad processing instruction");
            i = end + 2;
            continue;
        }
        if (xml.compare(i, 2, "</") == 0) {
            std::size_t j = i + 2;
            while (j < xml.size() && isNameChar(xml[j])) ++j;
            const std::string name = xml.substr(i + 2, j - i - 2);
            while (j < xml.size() && std::isspace(static_cast<unsigned char>(xml[j]))) ++j;
            if (j >= xml.size() || xml[j] != '>') return fail("bad end tag");
            if (open.empty() || open.back() != name) return fail("</" + name + "> does not match");
            open.pop_back();
            if (name == "text") currentText = nullptr;
            i = j + 1;
            continue;
        }
        // Start tag or empty-element tag.
        std::size_t j = i + 1;
        while (j < xml.size() && isNameChar(xml[j])) ++j;
        const std::string name = xml.substr(i + 1, j - i - 1);
        if (name.empty()) return fail("empty element name");
        if (open.empty() && rootSeen) return fail("a second root element");
        std::set<std::string> attributeNames;
        std::map<std::string, std::string> attributes;
        bool selfClosing = false;
        while (true) {
            while (j < xml.size() && std::isspace(static_cast<unsigned char>(xml[j]))) ++j;
            if (j >= xml.size()) return fail("unclosed tag <" + name);
            if (xml[j] == '>') break;
            if (xml.compare(j, 2, "/>") == 0) {
                selfClosing = true;
                ++j;
                break;
            }
            std::size_t k = j;
            while (k < xml.size() && isNameChar(xml[k])) ++k;
            const std::string attribute = xml.substr(j, k - j);
            if (attribute.empty() || k >= xml.size() || xml[k] != '=')
                return fail("bad attribute in <" + name);
            const char quote = xml[k + 1];
            if (quote != '"' && quote != '\'') return fail("unquoted attribute " + attribute);
            const std::size_t close = xml.find(quote, k + 2);
            if (close == std::string::npos) return fail("unclosed attribute " + attribute);
            const std::string value = xml.substr(k + 2, close - k - 2);
            if (value.find('<') != std::string::npos || !entitiesOk(value))
                return fail("bad attribute value " + attribute);
            if (!attributeNames.insert(attribute).second)
                return fail("duplicate attribute " + attribute);
            attributes[attribute] = value;
            j = close + 1;
        }
        if (!rootSeen) summary.rootAttributes = attributes;
        rootSeen = true;
        ++summary.elements[name];
        if (name == "text" && !selfClosing) {
            summary.texts.emplace_back();
            currentText = &summary.texts.back();
        }
        if (!selfClosing) open.push_back(name);
        i = j + 1;
    }
    if (!rootSeen) return fail("no root element");
    if (!open.empty()) return fail("<" + open.back() + "> is never closed");
    return summary;
}

TEST(XmlCheckTest, CatchesWhatIsNotWellFormed) {  // the checker itself, on known cases
    EXPECT_EQ(checkXml("<a x=\"1\"><b/>t &amp; u<text>hi</text></a>").problem, "");
    EXPECT_NE(checkXml("<a><b></a></b>").problem, "");
    EXPECT_NE(checkXml("<a x=1/>").problem, "");
    EXPECT_NE(checkXml("<a>x & y</a>").problem, "");
    EXPECT_NE(checkXml("<a></a><b/>").problem, "");
    EXPECT_NE(checkXml("<a x=\"1\" x=\"2\"/>").problem, "");
    EXPECT_NE(checkXml("<a>").problem, "");
}

// ---- Pixels
const std::uint8_t* pixel(const ImageRgba& image, int x, int y) {
    return &image.pixels[(std::size_t(y) * image.width + x) * 4];
}

// Mean of each channel over a box.
std::array<double, 4> meanColour(const ImageRgba& image, int x0, int y0, int x1, int y1) {
    std::array<double, 4> sum{};
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
            for (int c = 0; c < 4; ++c) sum[c] += pixel(image, x, y)[c];
    const double n = double(x1 - x0) * (y1 - y0);
    for (double& s : sum) s /= n;
    return sum;
}

bool hasInk(const ImageRgba& image, int x, int y) {
    return pixel(image, x, y)[3] > 0;
}

// Bounding box of the pixels with any alpha: {x0, y0, x1, y1} (x1, y1 exclusive), or all -1.
std::array<int, 4> inkBox(const ImageRgba& image) {
    std::array<int, 4> box{image.width, image.height, -1, -1};
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            if (!hasInk(image, x, y)) continue;
            box[0] = std::min(box[0], x), box[1] = std::min(box[1], y);
            box[2] = std::max(box[2], x + 1), box[3] = std::max(box[3], y + 1);
        }
    }
    if (box[2] < 0) return {-1, -1, -1, -1};
    return box;
}

bool toolAvailable(const std::string& tool) {
    return runShell("command -v " + tool).exitCode == 0;
}

class FigureExportTest : public ::testing::Test {
  protected:
    std::string dir =
        temporaryDirectory(std::string("figure-export-") +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path(const std::string& name) const { return dir + "/" + name; }
};

// ---- SVG
TEST_F(FigureExportTest, SvgIsWellFormedWithTextAsText) {
    auto result = runPoslab({"render", "sinusoidal", "--d-model", "32", "--seq-len", "100",
                             "--width", "900", "--height", "600", "--out", path("pe.svg")},
                            "env -u DISPLAY");
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const std::string svg = readFile(path("pe.svg"));
    const XmlSummary xml = checkXml(svg);
    ASSERT_EQ(xml.problem, "");
    EXPECT_EQ(xml.rootAttributes.at("xmlns"), "http://www.w3.org/2000/svg");
    EXPECT_EQ(xml.rootAttributes.at("width"), "900");
    EXPECT_EQ(xml.rootAttributes.at("height"), "600");
    // Title, axis labels and tick labels are <text> elements with their words inside.
    ASSERT_GE(xml.elements.at("text"), 10);
    auto hasText = [&](const std::string& wanted) {
        return std::any_of(xml.texts.begin(), xml.texts.end(), [&](const std::string& t) {
            return t.find(wanted) != std::string::npos;
        });
    };
    EXPECT_TRUE(hasText("Sinusoidal encoding"));
    EXPECT_TRUE(hasText("dmodel = 32"));  // $d_{model}$: the subscript is a <tspan> of its own
    EXPECT_TRUE(hasText("position"));
    EXPECT_TRUE(hasText("dimension"));
    // The heatmap and colour bar are embedded PNG images; the plot area is clipped.
    EXPECT_GE(xml.elements.at("image"), 2);
    EXPECT_NE(svg.find("data:image/png;base64,iVBORw0KGgo"), std::string::npos);  // PNG signature
    EXPECT_GE(xml.elements.at("clipPath"), 1);
    // The rotated axis label reads bottom to top.
    EXPECT_NE(svg.find("rotate(-90)"), std::string::npos);

    // Python's own XML parser agrees, when Debian's python3 is there.
    if (toolAvailable("/usr/bin/python3")) {
        auto parsed = runShell(
            "/usr/bin/python3 -c \"import sys, xml.etree.ElementTree as E; "
            "r = E.parse(sys.argv[1]).getroot(); "
            "print(len(r.findall('.//{http://www.w3.org/2000/svg}text')))\" " +
            shellQuote(path("pe.svg")));
        ASSERT_EQ(parsed.exitCode, 0) << parsed.err;
        EXPECT_EQ(std::stoi(parsed.out), xml.elements.at("text"));
    }
}

// ---- PDF
TEST_F(FigureExportTest, PdfRasterisesLikeTheScreenPng) {
    const std::vector<std::string> common = {"render",    "sinusoidal", "--d-model",  "16",
                                             "--seq-len", "64",         "--colormap", "viridis",
                                             "--width",   "900",        "--height",   "600"};
    auto withOut = [&](const std::string& name) {
        std::vector<std::string> a = common;
        a.push_back("--out");
        a.push_back(path(name));
        return a;
    };
    auto pdf = runPoslab(withOut("pe.pdf"), "env -u DISPLAY");
    ASSERT_EQ(pdf.exitCode, 0) << pdf.err;
    std::vector<std::string> screenPng = withOut("pe.png");
    screenPng.insert(screenPng.end(), {"--renderer", "gl"});  // the screen's EGL/ImGui raster
    auto png = runPoslab(screenPng, "env -u DISPLAY");
    ASSERT_EQ(png.exitCode, 0) << png.err;
    const std::string bytes = readFile(path("pe.pdf"));
    ASSERT_EQ(bytes.substr(0, 5), "%PDF-");
    EXPECT_NE(bytes.find("%%EOF", bytes.size() - 16), std::string::npos);

    if (!toolAvailable("pdftoppm")) GTEST_SKIP() << "poppler-utils not installed";
    // 900 figure pixels = 675 pt; at 96 dpi that is 900 device pixels again.
    auto raster = runShell("pdftoppm -r 96 -png -singlefile " + shellQuote(path("pe.pdf")) + " " +
                           shellQuote(path("poppler")));
    ASSERT_EQ(raster.exitCode, 0) << raster.err;
    const ImageRgba fromPdf = loadPng(path("poppler.png"));
    const ImageRgba fromScreen = loadPng(path("pe.png"));
    ASSERT_EQ(fromPdf.width, 900);
    ASSERT_EQ(fromPdf.height, 600);
    ASSERT_EQ(fromScreen.width, 900);

    // Whole figures: the same mean colour (text, axes and heatmap in the same places).
    const auto a = meanColour(fromPdf, 0, 0, 900, 600), b = meanColour(fromScreen, 0, 0, 900, 600);
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(a[c], b[c], 3.0) << "channel " << c;
    // Inside the heatmap, 20 x 20 blocks agree: cells are 40+ pixels wide and 8 tall, so a wrong
    // colour, cell or order would differ by 50..200; two rasterisers may place a cell edge one
    // pixel apart, which moves a block's mean by at most 255 / 20.
    double worst = 0, sum = 0;
    int blocks = 0;
    for (int y = 150; y < 450; y += 20) {
        for (int x = 225; x < 675; x += 20) {
            const auto p = meanColour(fromPdf, x, y, x + 20, y + 20),
                       q = meanColour(fromScreen, x, y, x + 20, y + 20);
            for (int c = 0; c < 3; ++c) {
                worst = std::max(worst, std::abs(p[c] - q[c]));
                sum += std::abs(p[c] - q[c]);
            }
            ++blocks;
        }
    }
    EXPECT_LT(worst, 255.0 / 20 + 2);
    EXPECT_LT(sum / (3 * blocks), 2.0);

    // Text in the PDF is text: poppler extracts the title.
    if (toolAvailable("pdftotext")) {
        auto text = runShell("pdftotext " + shellQuote(path("pe.pdf")) + " -");
        EXPECT_NE(text.out.find("Sinusoidal encoding (interleaved)"), std::string::npos)
            << text.out;
        EXPECT_NE(text.out.find("model = 16"), std::string::npos) << text.out;  // d, subscript
        EXPECT_EQ(text.out.find("$d_"), std::string::npos) << text.out;         // no markup source
    }
}

// The Cairo raster (the GUI's PNG export, `poslab render`'s default) and the EGL/ImGui raster
// (--renderer gl) draw the same figure alike.
TEST_F(FigureExportTest, CairoPngMatchesTheScreenPng) {
    auto png = runPoslab(
        {"render", "sinusoidal", "--d-model", "16", "--seq-len", "64", "--colormap", "magma",
         "--width", "800", "--height", "500", "--renderer", "gl", "--out", path("screen.png")},
        "env -u DISPLAY");
    ASSERT_EQ(png.exitCode, 0) << png.err;
    const commands::CommandRegistry registry = commands::buildRegistry();
    auto view = std::find_if(registry.renders.begin(), registry.renders.end(),
                             [](const commands::RenderView& v) { return v.name == "sinusoidal"; });
    ASSERT_NE(view, registry.renders.end());
    commands::ArgMap args;
    for (auto [k, v] : {std::pair{"d-model", "16"},
                        {"seq-len", "64"},
                        {"colormap", "magma"},
                        {"width", "800"},
                        {"height", "500"}})
        args.set(k, v);
    auto settings = commands::readRenderSettings(args);
    ASSERT_TRUE(settings.ok());
    auto figure = view->build(args, *settings);
    ASSERT_TRUE(figure.ok());
    auto cairo = gfx::rasterizeFigure(*figure, 1.0f);
    ASSERT_TRUE(cairo.ok()) << cairo.error().message;
    const ImageRgba screen = loadPng(path("screen.png"));
    ASSERT_EQ(cairo->width, screen.width);
    double worst = 0;
    for (int y = 100; y < 400; y += 20) {
        for (int x = 150; x < 600; x += 20) {
            const auto p = meanColour(*cairo, x, y, x + 20, y + 20),
                       q = meanColour(screen, x, y, x + 20, y + 20);
            for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(p[c] - q[c]));
        }
    }
    EXPECT_LT(worst, 255.0 / 20 + 2);  // as above: at most a one-pixel shift of a cell edge
}

// ---- Transparent PNG: composited over the theme's background it is the opaque PNG, with
// either renderer.
class TransparentPngTest : public FigureExportTest,
                           public ::testing::WithParamInterface<const char*> {};

TEST_P(TransparentPngTest, ComposesToTheOpaqueOne) {
    const std::vector<std::string> base = {
        "render", "sinusoidal-curves", "--d-model", "32",         "--width",
        "500",    "--height",          "300",       "--renderer", GetParam()};
    auto opaqueArgs = base, clearArgs = base;
    opaqueArgs.insert(opaqueArgs.end(), {"--out", path("opaque.png")});
    clearArgs.insert(clearArgs.end(), {"--transparent", "--out", path("clear.png")});
    auto opaqueRun = runPoslab(opaqueArgs, "env -u DISPLAY");
    auto clearRun = runPoslab(clearArgs, "env -u DISPLAY");
    ASSERT_EQ(opaqueRun.exitCode, 0) << opaqueRun.err;
    ASSERT_EQ(clearRun.exitCode, 0) << clearRun.err;
    const ImageRgba opaque = loadPng(path("opaque.png")), clear = loadPng(path("clear.png"));
    ASSERT_EQ(clear.width, opaque.width);
    EXPECT_EQ(pixel(clear, 0, 0)[3], 0);  // the margin is see-through
    EXPECT_EQ(pixel(opaque, 0, 0)[3], 255);
    int translucent = 0;
    double worst = 0, total = 0;
    const Rgba background = paperTheme().background;  // the default theme for files
    for (int y = 0; y < clear.height; ++y) {
        for (int x = 0; x < clear.width; ++x) {
            const std::uint8_t* p = pixel(clear, x, y);
            const double a = p[3] / 255.0;
            if (p[3] > 0 && p[3] < 255) ++translucent;
            const std::uint8_t bg[3] = {background.r, background.g, background.b};
            for (int c = 0; c < 3; ++c) {
                const double over = p[c] * a + bg[c] * (1 - a);  // "over", straight alpha
                const double d = std::abs(over - pixel(opaque, x, y)[c]);
                worst = std::max(worst, d);
                total += d;
            }
        }
    }
    EXPECT_GT(translucent, 100);  // anti-aliased text edges really are partly transparent
    EXPECT_LE(worst, 3.0);
    EXPECT_LT(total / (3.0 * clear.width * clear.height), 0.2);
}

INSTANTIATE_TEST_SUITE_P(Renderers, TransparentPngTest, ::testing::Values("cairo", "gl"));

TEST_F(FigureExportTest, VectorFormatsAndBadExtensions) {
    for (const std::string name : {"a.svg", "b.PDF", "c.png"}) {
        auto result =
            runPoslab({"render", "sinusoidal-curves", "--d-model", "8", "--out", path(name)},
                      "env -u DISPLAY");
        EXPECT_EQ(result.exitCode, 0) << name << ": " << result.err;
        EXPECT_NE(result.out.find("wrote " + path(name)), std::string::npos);
    }
    auto bad = runPoslab({"render", "sinusoidal", "--out", path("d.eps")});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("--out must end in .png, .svg or .pdf"), std::string::npos) << bad.err;
    EXPECT_FALSE(fileExists(path("d.eps")));
    auto invalid = runPoslab({"render", "sinusoidal", "--d-model", "0", "--out", path("e.pdf")});
    EXPECT_EQ(invalid.exitCode, 2);
    EXPECT_NE(invalid.err.find("--d-model must be 1..8192 (got 0)"), std::string::npos)
        << invalid.err;
    EXPECT_FALSE(fileExists(path("e.pdf")));
}

// The same command gives the same bytes: SVG always, PDF with SOURCE_DATE_EPOCH pinning the date.
TEST_F(FigureExportTest, VectorFilesAreReproducible) {
    for (const std::string extension : {".svg", ".pdf"}) {
        std::string first;
        for (int run = 0; run < 2; ++run) {
            const std::string out = path("r" + std::to_string(run) + extension);
            auto result = runPoslab(
                {"render", "sinusoidal", "--d-model", "12", "--seq-len", "30", "--out", out},
                "env -u DISPLAY SOURCE_DATE_EPOCH=1700000000");
            ASSERT_EQ(result.exitCode, 0) << result.err;
            if (run == 0)
                first = readFile(out);
            else
                EXPECT_TRUE(first == readFile(out)) << extension << " differs between runs";
        }
    }
}

// ---- The Cairo renderer's primitives, in-process, on a transparent canvas
Figure canvas(float width = 200, float height = 100) {
    Figure figure;
    figure.width = width;
    figure.height = height;  // background alpha 0: ink is whatever has alpha
    return figure;
}

constexpr Rgba kRed{255, 0, 0, 255};

TEST(CairoRendererTest, HeatmapCellsAreNearestNeighbourAndMaskedShowsThrough) {
    Figure figure = canvas(200, 100);
    const Rgba masked{200, 200, 200, 255};
    figure.add(RectItem{{0, 0, 200, 100}, masked});
    auto values = std::make_shared<Matrix>(2, 2);
    (*values)(0, 0) = 0;          // low end of the range: the table's first colour
    (*values)(0, 1) = 1;          // high end: the last colour
    (*values)(1, 0) = -INFINITY;  // masked: transparent, the grey beneath shows
    (*values)(1, 1) = NAN;        // missing: magenta
    HeatmapItem heatmap;
    heatmap.box = {0, 0, 200, 100};
    heatmap.values = values;
    heatmap.colormap = ColormapId::Viridis;
    heatmap.range = {0, 1};
    figure.add(heatmap);
    for (float scale : {1.0f, 2.0f}) {
        auto image = gfx::rasterizeFigure(figure, scale);
        ASSERT_TRUE(image.ok());
        const auto& table = colormapTable(ColormapId::Viridis);
        auto expect = [&](int x, int y, Rgba want) {
            const std::uint8_t* p = pixel(*image, int(x * scale), int(y * scale));
            EXPECT_EQ(p[0], want.r) << x << "," << y << " at scale " << scale;
            EXPECT_EQ(p[1], want.g) << x << "," << y;
            EXPECT_EQ(p[2], want.b) << x << "," << y;
        };
        // Right up to the cell boundary (x = 100, y = 50) the colours stay pure: no smoothing.
        for (int x : {1, 50, 98}) expect(x, 25, table.front());
        for (int x : {101, 150, 198}) expect(x, 25, table.back());
        expect(50, 75, masked);
        expect(99, 98, masked);
        expect(150, 75, kMissingColor);
    }
}

TEST(CairoRendererTest, DashedLinesHaveGapsAndClipsCut) {
    Figure figure = canvas(200, 100);
    figure.add(LineItem{{0, 10}, {200, 10}, kRed, 2, true});  // 6 on, 4 off, from x = 0
    figure.add(LineItem{{0, 30}, {200, 30}, kRed, 2, false});
    figure.add(ClipPush{{0, 50, 100, 50}});
    figure.add(RectItem{{0, 50, 200, 50}, kRed});
    figure.add(ClipPop{});
    auto image = gfx::rasterizeFigure(figure, 1.0f);
    ASSERT_TRUE(image.ok());
    for (int period = 0; period < 5; ++period) {
        EXPECT_TRUE(hasInk(*image, period * 10 + 3, 10)) << period;   // inside a dash
        EXPECT_FALSE(hasInk(*image, period * 10 + 8, 10)) << period;  // inside a gap
    }
    for (int x = 0; x < 200; x += 7) EXPECT_TRUE(hasInk(*image, x, 30)) << x;  // solid
    EXPECT_TRUE(hasInk(*image, 50, 75));
    EXPECT_FALSE(hasInk(*image, 150, 75));  // clipped away
}

TEST(CairoRendererTest, ShapesLandWhereTheyAre) {
    Figure figure = canvas(200, 100);
    figure.add(CircleItem{{50, 50}, 20, kRed});
    figure.add(PolygonItem{{{120, 20}, {180, 20}, {150, 80}}, kRed});
    PolylineItem line;
    line.points = {{10, 90}, {190, 90}};
    line.color = kRed;
    line.width = 3;
    figure.add(line);
    RectItem outline;
    outline.box = {100, 0, 100, 100};
    outline.stroke = kRed;
    figure.add(outline);
    auto image = gfx::rasterizeFigure(figure, 1.0f);
    ASSERT_TRUE(image.ok());
    EXPECT_TRUE(hasInk(*image, 50, 50));
    EXPECT_TRUE(hasInk(*image, 50, 32));
    EXPECT_FALSE(hasInk(*image, 50, 25));  // outside the radius
    EXPECT_TRUE(hasInk(*image, 150, 40));
    EXPECT_FALSE(hasInk(*image, 125, 70));  // beside the triangle's slanted edge
    EXPECT_TRUE(hasInk(*image, 60, 90));
    EXPECT_FALSE(hasInk(*image, 60, 86));  // the 3-pixel line covers y = 88.5..91.5
    // A 1-pixel outline sits on the box's first and last pixel rows, as ImGui draws it.
    EXPECT_EQ(pixel(*image, 150, 0)[3], 255);
    EXPECT_EQ(pixel(*image, 150, 99)[3], 255);
    EXPECT_EQ(pixel(*image, 100, 50)[3], 255);
    EXPECT_EQ(pixel(*image, 150, 1)[3], 0);
}

TEST(CairoRendererTest, TextAlignsSizesAndTurns) {
    // DejaVu Sans: capitals are 1493 font units tall, ascent + descent (ImGui's size) 2384 units.
    const float size = 40;
    const double capHeight = size * 1493.0 / 2384.0;
    auto ink = [&](TextItem item) {
        Figure figure = canvas(400, 400);
        item.text = "HHH";
        item.size = size;
        item.color = kRed;
        figure.add(item);
        auto image = gfx::rasterizeFigure(figure, 1.0f);
        EXPECT_TRUE(image.ok());
        return inkBox(*image);
    };
    TextItem left;
    left.anchor = {200, 200};
    const auto l = ink(left);
    EXPECT_GE(l[0], 200);
    EXPECT_NEAR(l[3] - l[1], capHeight, 2.0);
    // Top alignment: the capitals' top is at the anchor plus (ascent - cap height).
    EXPECT_NEAR(l[1], 200 + size * (1901.0 - 1493.0) / 2384.0, 2.0);
    TextItem right = left;
    right.horizontal = HorizontalAlign::Right;
    const auto r = ink(right);
    EXPECT_LE(r[2], 200);
    EXPECT_NEAR(r[2] - r[0], l[2] - l[0], 1.0);
    TextItem centre = left;
    centre.horizontal = HorizontalAlign::Center;
    centre.vertical = VerticalAlign::Middle;
    const auto c = ink(centre);
    EXPECT_NEAR((c[0] + c[2]) / 2.0, 200, 2.0);
    TextItem turned = centre;
    turned.vertical90 = true;
    const auto t = ink(turned);
    EXPECT_NEAR(t[3] - t[1], l[2] - l[0], 1.0);  // the run of text now goes up the page
    EXPECT_NEAR(t[2] - t[0], capHeight, 2.0);
    EXPECT_NEAR((t[1] + t[3]) / 2.0, 200, 2.0);
}

TEST(CairoRendererTest, SvgPrimitivesAndEscaping) {
    Figure figure = canvas(300, 200);
    figure.background = {255, 255, 255, 255};
    TextItem label;
    label.anchor = {150, 20};
    label.text = "a & b < c";
    label.horizontal = HorizontalAlign::Right;
    label.color = {10, 20, 30, 128};
    figure.add(label);
    label.vertical90 = true;
    figure.add(label);
    figure.add(LineItem{{0, 50}, {300, 50}, kRed, 1, true});
    figure.add(ClipPush{{10, 10, 100, 100}});
    figure.add(ClipPush{{20, 20, 100, 100}});
    figure.add(CircleItem{{50, 50}, 5, kRed});
    figure.add(ClipPop{});
    // One ClipPop missing: the writer closes the group itself.
    const std::string svg = gfx::figureToSvg(figure);
    const XmlSummary xml = checkXml(svg);
    ASSERT_EQ(xml.problem, "") << svg;
    ASSERT_EQ(xml.texts.size(), 2u);
    EXPECT_EQ(xml.texts[0], "a &amp; b &lt; c");  // escaped in the file, the original when read
    EXPECT_NE(svg.find("text-anchor=\"end\""), std::string::npos);
    EXPECT_NE(svg.find("fill=\"#0a141e\" fill-opacity=\"0.5\""), std::string::npos);
    EXPECT_NE(svg.find("rotate(-90)"), std::string::npos);
    EXPECT_NE(svg.find("stroke-dasharray=\"6 4\""), std::string::npos);
    EXPECT_EQ(xml.elements.at("clipPath"), 2);
    EXPECT_EQ(xml.elements.at("g"), 2);
}

TEST(CairoRendererTest, PngWriterKeepsPixelsAndAlpha) {
    const std::string dir = temporaryDirectory("png-writer");
    ImageRgba image;
    image.width = 3;
    image.height = 2;
    image.pixels = {255, 0,  0,  255, 0,  255, 0,  255, 0,  0,  255, 255,
                    10,  20, 30, 255, 40, 50,  60, 255, 70, 80, 90,  255};
    ASSERT_TRUE(gfx::writePng(image, dir + "/rgb.png").ok());
    EXPECT_EQ(loadPng(dir + "/rgb.png").pixels, image.pixels);
    EXPECT_EQ(readFile(dir + "/rgb.png")[25], 2);  // IHDR colour type 2: RGB, no alpha channel
    image.pixels[3] = 0;                           // fully transparent
    image.pixels[7] = 128;                         // half
    ASSERT_TRUE(gfx::writePng(image, dir + "/rgba.png").ok());
    EXPECT_EQ(readFile(dir + "/rgba.png")[25], 6);  // RGBA
    const ImageRgba back = loadPng(dir + "/rgba.png");
    EXPECT_EQ(back.pixels[3], 0);
    EXPECT_EQ(back.pixels[7], 128);
    EXPECT_NEAR(back.pixels[5], 255, 1);
    EXPECT_EQ(back.pixels[8], 0);
    EXPECT_EQ(back.pixels[10], 255);
}

TEST(CairoRendererTest, UnpremultiplyDividesByAlpha) {
    ImageRgba image;
    image.width = 3;
    image.height = 1;
    image.pixels = {64, 32, 0, 128, 9, 9, 9, 0, 200, 100, 50, 255};
    gfx::unpremultiply(image);
    const std::vector<std::uint8_t> expected = {128, 64, 0, 128, 0, 0, 0, 0, 200, 100, 50, 255};
    EXPECT_EQ(image.pixels, expected);
}

// The page's "Download figure PNG" crops the figure area out of the window: each pixel (x, y)
// of a 4x3 image holds the value 10 * y + x, so every copied pixel names where it came from.
TEST(CairoRendererTest, CropImageKeepsTheRectangleClampedToTheImage) {
    ImageRgba image;
    image.width = 4;
    image.height = 3;
    for (int y = 0; y < 3; ++y) {
        for (int x = 0; x < 4; ++x) {
            const auto v = std::uint8_t(10 * y + x);
            image.pixels.insert(image.pixels.end(), {v, v, v, 255});
        }
    }
    auto firstChannels = [](const ImageRgba& crop) {
        std::vector<int> values;
        for (std::size_t i = 0; i < crop.pixels.size(); i += 4) values.push_back(crop.pixels[i]);
        return values;
    };
    const ImageRgba inner = gfx::cropImage(image, 1, 1, 2, 2);
    EXPECT_EQ(inner.width, 2);
    EXPECT_EQ(inner.height, 2);
    EXPECT_EQ(firstChannels(inner), (std::vector<int>{11, 12, 21, 22}));
    // Past the right and bottom edges: clamped; above and left of the image: clamped at 0.
    const ImageRgba corner = gfx::cropImage(image, 2, 1, 10, 10);
    EXPECT_EQ(firstChannels(corner), (std::vector<int>{12, 13, 22, 23}));
    const ImageRgba topLeft = gfx::cropImage(image, -5, -5, 6, 6);
    EXPECT_EQ(firstChannels(topLeft), (std::vector<int>{0}));
    // Outside, or of no size: empty.
    EXPECT_EQ(gfx::cropImage(image, 4, 0, 2, 2).pixels.size(), 0u);
    EXPECT_EQ(gfx::cropImage(image, 0, 0, 0, 3).width, 0);
}

// ---- Vector files keep every cell (#28)
// A table with more cells than its plot has pixels (1024 positions on a one-column page) is
// embedded in PDF and SVG as an image of exactly rows x cols pixels, each the colormap's colour
// of its cell, and no map's "mean of" note is left: a reader zooms into the whole table.
std::array<int, 3> expectedCellColour(const Matrix& table, double largest, int row, int col) {
    const double t = (table(std::size_t(row), std::size_t(col)) + largest) / (2 * largest);
    const Rgba c = sampleColormap(ColormapId::BlueWhiteRed, t);
    return {c.r, c.g, c.b};
}

TEST_F(FigureExportTest, VectorFilesEmbedTablesAtOneImagePixelPerCell) {
    if (!toolAvailable("pdfimages") || !toolAvailable("pdftotext"))
        GTEST_SKIP() << "poppler-utils not installed";
    constexpr int kRows = 1024, kCols = 64;  // cosine map too: every pair (up to 1024)
    LearnedParams params;
    params.seqLen = kRows;
    params.dModel = kCols;
    const Matrix table = learnedTable(params).value();
    double largest = 0;
    for (double v : table.values) largest = std::max(largest, std::abs(v));
    const int picked[][2] = {{0, 0}, {1, 63}, {777, 5}, {512, 31}, {1023, 0}, {1022, 62}};
    for (const std::string extension : {".pdf", ".svg"}) {
        SCOPED_TRACE(extension);
        const std::string out = path("table" + extension);
        auto result =
            runPoslab({"render", "learned", "--seq-len", std::to_string(kRows), "--d-model",
                       std::to_string(kCols), "--width", "600", "--out", out},
                      "env -u DISPLAY");
        ASSERT_EQ(result.exitCode, 0) << result.err;
        std::string text;               // the figure's words
        std::vector<std::uint8_t> rgb;  // the table's image, row-major RGB
        int width = 0, height = 0;
        if (extension == ".pdf") {
            text = runShell("pdftotext " + shellQuote(out) + " -").out;
            // pdfimages writes RGB images as binary PPM (P6): the images exactly as embedded.
            ASSERT_EQ(
                runShell("pdfimages " + shellQuote(out) + " " + shellQuote(path("img"))).exitCode,
                0);
            for (const auto& entry : std::filesystem::directory_iterator(dir)) {
                if (entry.path().extension() != ".ppm") continue;
                std::ifstream in(entry.path(), std::ios::binary);
                std::string magic;
                int w = 0, h = 0, maxValue = 0;
                in >> magic >> w >> h >> maxValue;
                in.get();
                if (magic != "P6" || w != kCols || h != kRows || maxValue != 255) continue;
                width = w, height = h;
                rgb.resize(std::size_t(w) * h * 3);
                in.read(reinterpret_cast<char*>(rgb.data()), std::streamsize(rgb.size()));
            }
        } else {
            const std::string svg = readFile(out);
            text = svg;
            // Every embedded PNG: its size from the IHDR chunk, its pixels decoded by Python's
            // zlib (filters undone) when Debian's python3 is there.
            const std::string script = path("png.py");
            std::ofstream(script) << R"(import base64, re, sys, zlib
svg = open(sys.argv[1]).read()
for data in re.findall(r'base64,([A-Za-z0-9+/=]+)', svg):
    png = base64.b64decode(data)
    w, h = int.from_bytes(png[16:20], 'big'), int.from_bytes(png[20:24], 'big')
    if (w, h) != (int(sys.argv[2]), int(sys.argv[3])): continue
    bpp = 4 if png[25] == 6 else 3
    raw, at = b'', 8
    while at < len(png):
        n = int.from_bytes(png[at:at + 4], 'big')
        if png[at + 4:at + 8] == b'IDAT': raw += png[at + 8:at + 8 + n]
        at += 12 + n
    raw = zlib.decompress(raw)
    stride, prev, out = w * bpp, bytearray(w * bpp), bytearray()
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            p = a + b - c
            pred = [0, a, b, (a + b) // 2,
                    a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c)
                    else b if abs(p - b) <= abs(p - c) else c][f]
            line[i] = (line[i] + pred) & 255
        out += bytes(v for i, v in enumerate(line) if i % bpp < 3)
        prev = line
    sys.stdout.buffer.write(out)
    break
)";
            if (!toolAvailable("/usr/bin/python3")) GTEST_SKIP() << "python3 not installed";
            const ProcessResult decoded =
                runShell("/usr/bin/python3 " + shellQuote(script) + " " + shellQuote(out) + " " +
                         std::to_string(kCols) + " " + std::to_string(kRows));
            ASSERT_EQ(decoded.exitCode, 0) << decoded.err;
            if (decoded.out.size() == std::size_t(kRows) * kCols * 3) {
                width = kCols, height = kRows;
                rgb.assign(decoded.out.begin(), decoded.out.end());
            }
        }
        ASSERT_EQ(width, kCols) << "no image of exactly " << kRows << " x " << kCols << " pixels";
        ASSERT_EQ(height, kRows);
        for (const auto& [row, col] : picked) {
            const std::array<int, 3> want = expectedCellColour(table, largest, row, col);
            const std::uint8_t* got = &rgb[(std::size_t(row) * kCols + col) * 3];
            for (int c = 0; c < 3; ++c)  // the 256-entry lookup table against the exact ramp
                EXPECT_NEAR(int(got[c]), want[std::size_t(c)], 4)
                    << "cell " << row << ", " << col << " channel " << c;
        }
        // No map's note ("each pixel: mean of 9×1 cells", "… of 2×2 pairs"); the curves'
        // "(each point: mean of 2 positions)" is about their points, one per pixel column.
        EXPECT_EQ(text.find("each pixel"), std::string::npos);
        EXPECT_EQ(text.find(" pairs"), std::string::npos);
    }
}

// The export dialog writes the same vector file as `poslab render --out F.svg`: every cell of
// the table embedded (it kept the screen's one texel per pixel, "each pixel: mean of …"), while
// its PNG of the same request still samples per pixel.
std::vector<std::pair<int, int>> embeddedImageSizes(const std::string& svg) {
    auto sextet = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        return c == '+' ? 62 : 63;
    };
    std::vector<std::pair<int, int>> sizes;
    for (std::size_t at = svg.find("base64,"); at != std::string::npos;
         at = svg.find("base64,", at + 1)) {
        std::vector<std::uint8_t> bytes;  // the PNG's first 24 bytes: signature, IHDR's size
        for (std::size_t i = at + 7; bytes.size() < 24 && i + 3 < svg.size(); i += 4) {
            const int v = sextet(svg[i]) << 18 | sextet(svg[i + 1]) << 12 |
                          sextet(svg[i + 2]) << 6 | sextet(svg[i + 3]);
            for (int shift : {16, 8, 0}) bytes.push_back(std::uint8_t(v >> shift));
        }
        if (bytes.size() < 24) continue;
        auto big = [&](int from) {
            return int(bytes[from]) << 24 | int(bytes[from + 1]) << 16 | int(bytes[from + 2]) << 8 |
                   int(bytes[from + 3]);
        };
        sizes.emplace_back(big(16), big(20));
    }
    return sizes;
}

TEST_F(FigureExportTest, ExportDialogVectorFilesKeepEveryCellAsRenderDoes) {
    const auto panels = panels::makePanels();
    const auto learned = std::find_if(panels.begin(), panels.end(), [](const auto& panel) {
        return std::string(panel->title()) == "Learned";
    });
    ASSERT_NE(learned, panels.end());
    state::AppState state;
    state.learned.seqLen = 1024;
    state.learned.dModel = 64;
    state.learned.positionsShown = 1024;  // the whole table (the panel shows 640 rows first)
    ui::ExportRequest request;
    request.folder = dir;
    request.baseName = "table";
    request.png = true, request.svg = true, request.pdf = false;
    request.width = 600, request.height = 400;
    std::string status;
    {
        ui::ExportDialog dialog;  // its destructor waits for the files
        dialog.exportNow(**learned, state, request, &status);
        ASSERT_EQ(status.rfind("Export failed", 0), std::string::npos) << status;
    }
    const std::string svg = readFile(path("table.svg"));
    EXPECT_EQ(svg.find("mean of"), std::string::npos) << "the SVG averages cells";
    const auto sizes = embeddedImageSizes(svg);
    EXPECT_NE(std::find(sizes.begin(), sizes.end(), std::pair<int, int>{64, 1024}), sizes.end())
        << "no image of exactly 1024 x 64 cells in the dialog's SVG";
    EXPECT_TRUE(std::filesystem::exists(path("table.png")));
}

}  // namespace
}  // namespace poslab::test
