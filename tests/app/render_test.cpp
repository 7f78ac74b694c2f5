// Headless rendering and the GUI under Xvfb, checked by looking at pixels. `poslab render` draws
// PNGs with Cairo by default (--renderer cairo) or with the screen's Dear ImGui renderer over EGL
// (--renderer gl); both run with no display, and both must draw the same figure in the same place.
// Truth comes from outside each renderer: the colormap's table, the theme's colours, the other
// renderer, and the in-process Cairo raster of the same figure.
#include <gtest/gtest.h>

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <set>

#include "commands/commands.hpp"
#include "gfx/cairo_renderer.hpp"
#include "gfx/fonts.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/figure/plot.hpp"
#include "process.hpp"

namespace poslab::test {
namespace {

const std::uint8_t* pixel(const ImageRgba& image, int x, int y) {
    return &image.pixels[(std::size_t(y) * image.width + x) * 4];
}

std::array<double, 3> meanColour(const ImageRgba& image, int x0, int y0, int x1, int y1) {
    std::array<double, 3> sum{};
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
            for (int c = 0; c < 3; ++c) sum[c] += pixel(image, x, y)[c];
    for (double& s : sum) s /= double(x1 - x0) * (y1 - y0);
    return sum;
}

// The longest run of consecutive indices whose flag is set: {first, one past the last}.
std::array<int, 2> longestRun(const std::vector<bool>& flags) {
    std::array<int, 2> best{0, 0};
    for (int i = 0, start = -1; i <= int(flags.size()); ++i) {
        const bool on = i < int(flags.size()) && flags[i];
        if (on && start < 0) start = i;
        if (!on && start >= 0) {
            if (i - start > best[1] - best[0]) best = {start, i};
            start = -1;
        }
    }
    return best;
}

// Where the heatmap is: the widest band of columns that are mostly colormap colours (the colour
// bar is a narrower band of its own), then the rows inside that band that are. {x0, y0, x1, y1}.
std::array<int, 4> heatmapBox(const ImageRgba& image, ColormapId id) {
    const ColormapColours colours(id);
    std::vector<bool> columns(image.width);
    for (int x = 0; x < image.width; ++x) {
        int hits = 0;
        for (int y = 0; y < image.height; ++y) hits += colours.contains(pixel(image, x, y));
        columns[x] = hits > image.height / 2;
    }
    const auto [x0, x1] = longestRun(columns);
    std::vector<bool> rows(image.height);
    for (int y = 0; y < image.height && x1 > x0; ++y) {
        int hits = 0;
        for (int x = x0; x < x1; ++x) hits += colours.contains(pixel(image, x, y));
        rows[y] = hits > (x1 - x0) / 2;
    }
    const auto [y0, y1] = longestRun(rows);
    return {x0, y0, x1, y1};
}

// Bounding box of pixels that differ from `background` by more than 40 in a channel, inside
// the band y0..y1: where the text and lines of that band are.
std::array<int, 4> inkBox(const ImageRgba& image, Rgba background, int y0, int y1) {
    std::array<int, 4> box{image.width, image.height, -1, -1};
    for (int y = y0; y < y1; ++y) {
        for (int x = 0; x < image.width; ++x) {
            const std::uint8_t* p = pixel(image, x, y);
            if (std::abs(p[0] - background.r) <= 40 && std::abs(p[1] - background.g) <= 40 &&
                std::abs(p[2] - background.b) <= 40)
                continue;
            box = {std::min(box[0], x), std::min(box[1], y), std::max(box[2], x + 1),
                   std::max(box[3], y + 1)};
        }
    }
    return box;
}

std::vector<std::string> sinusoidal(const std::string& out, std::vector<std::string> more = {}) {
    std::vector<std::string> a = {"render",    "sinusoidal", "--d-model",  "64",
                                  "--seq-len", "128",        "--colormap", "viridis",
                                  "--width",   "900",        "--height",   "600"};
    a.insert(a.end(), more.begin(), more.end());
    a.insert(a.end(), {"--out", out});
    return a;
}

int lineCount(const std::string& text) {
    return int(std::count(text.begin(), text.end(), '\n'));
}

// ---- Both renderers, with no display at all
class HeadlessRenderTest : public ::testing::TestWithParam<const char*> {
  protected:
    std::string dir = temporaryDirectory(std::string("render-headless-") + GetParam());
    std::vector<std::string> rendererOption() const {
        return std::string(GetParam()) == "default"
                   ? std::vector<std::string>{}
                   : std::vector<std::string>{"--renderer", GetParam()};
    }
};

TEST_P(HeadlessRenderTest, HeatmapInColormapColoursOnAWhitePage) {
    const std::string out = dir + "/sinusoidal.png";
    auto result = runPoslab(sinusoidal(out, rendererOption()), "env -u DISPLAY -u WAYLAND_DISPLAY");
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(result.err, "");
    const ImageRgba image = loadPng(out);
    ASSERT_EQ(image.width, 900);
    ASSERT_EQ(image.height, 600);
    // The middle of the figure is the heatmap: viridis colours, and many of them.
    EXPECT_GT(fractionFromColormap(image, ColormapId::Viridis, 300, 200, 600, 400), 0.9);
    EXPECT_GT(distinctColours(image, 300, 200, 600, 400), 40);
    // The paper theme's margins are white and opaque.
    const std::uint8_t* corner = pixel(image, 0, 0);
    EXPECT_EQ(corner[0], 255);
    EXPECT_EQ(corner[1], 255);
    EXPECT_EQ(corner[2], 255);
    EXPECT_EQ(corner[3], 255);
}

TEST_P(HeadlessRenderTest, ScaleThemeAndTransparency) {
    // --scale 2: twice the pixels, the heatmap twice as far in and twice as large.
    auto one = runPoslab(sinusoidal(dir + "/one.png", rendererOption()), "env -u DISPLAY");
    std::vector<std::string> twice = rendererOption();
    twice.insert(twice.end(), {"--scale", "2"});
    auto two = runPoslab(sinusoidal(dir + "/two.png", twice), "env -u DISPLAY");
    ASSERT_EQ(one.exitCode, 0) << one.err;
    ASSERT_EQ(two.exitCode, 0) << two.err;
    const ImageRgba small = loadPng(dir + "/one.png"), large = loadPng(dir + "/two.png");
    ASSERT_EQ(large.width, 1800);
    ASSERT_EQ(large.height, 1200);
    const auto a = heatmapBox(small, ColormapId::Viridis),
               b = heatmapBox(large, ColormapId::Viridis);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(b[i], 2 * a[i], 3) << "edge " << i;

    // --theme dark: the margins take the dark theme's background.
    std::vector<std::string> dark = rendererOption();
    dark.insert(dark.end(), {"--theme", "dark"});
    auto darkRun = runPoslab(sinusoidal(dir + "/dark.png", dark), "env -u DISPLAY");
    ASSERT_EQ(darkRun.exitCode, 0) << darkRun.err;
    const ImageRgba darkImage = loadPng(dir + "/dark.png");
    const Rgba background = darkTheme().background;
    EXPECT_NEAR(pixel(darkImage, 2, 2)[0], background.r, 1);
    EXPECT_NEAR(pixel(darkImage, 2, 2)[1], background.g, 1);
    EXPECT_NEAR(pixel(darkImage, 2, 2)[2], background.b, 1);

    // --transparent: the margin has no alpha, the heatmap is opaque and keeps its colours.
    std::vector<std::string> clear = rendererOption();
    clear.push_back("--transparent");
    auto clearRun = runPoslab(sinusoidal(dir + "/clear.png", clear), "env -u DISPLAY");
    ASSERT_EQ(clearRun.exitCode, 0) << clearRun.err;
    const ImageRgba clearImage = loadPng(dir + "/clear.png");
    EXPECT_EQ(pixel(clearImage, 0, 0)[3], 0);
    EXPECT_EQ(pixel(clearImage, 450, 300)[3], 255);
    EXPECT_GT(fractionFromColormap(clearImage, ColormapId::Viridis, 300, 200, 600, 400), 0.9);
}

INSTANTIATE_TEST_SUITE_P(Renderers, HeadlessRenderTest,
                         ::testing::Values("default", "cairo", "gl"));

// ---- Which renderer draws what
class RendererChoiceTest : public ::testing::Test {
  protected:
    std::string dir = temporaryDirectory(
        std::string("renderer-") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path(const std::string& name) const { return dir + "/" + name; }
};

// The default PNG is Cairo's: the same pixels as the Cairo raster of the same figure made
// in-process, and not the GL renderer's (their text anti-aliasing differs).
TEST_F(RendererChoiceTest, DefaultPngIsTheCairoRaster) {
    auto byDefault = runPoslab(sinusoidal(path("default.png")), "env -u DISPLAY");
    auto gl = runPoslab(sinusoidal(path("gl.png"), {"--renderer", "gl"}), "env -u DISPLAY");
    ASSERT_EQ(byDefault.exitCode, 0) << byDefault.err;
    ASSERT_EQ(gl.exitCode, 0) << gl.err;

    const commands::CommandRegistry registry = commands::buildRegistry();
    auto view = std::find_if(registry.renders.begin(), registry.renders.end(),
                             [](const commands::RenderView& v) { return v.name == "sinusoidal"; });
    ASSERT_NE(view, registry.renders.end());
    commands::ArgMap args;
    for (auto [k, v] : {std::pair{"d-model", "64"},
                        {"seq-len", "128"},
                        {"colormap", "viridis"},
                        {"width", "900"},
                        {"height", "600"}})
        args.set(k, v);
    auto settings = commands::readRenderSettings(args);
    ASSERT_TRUE(settings.ok());
    auto figure = view->build(args, *settings);
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    auto cairo = gfx::rasterizeFigure(*figure, 1.0f);
    ASSERT_TRUE(cairo.ok()) << cairo.error().message;

    const ImageRgba fromDefault = loadPng(path("default.png")), fromGl = loadPng(path("gl.png"));
    ASSERT_EQ(fromDefault.width, cairo->width);
    ASSERT_EQ(fromDefault.height, cairo->height);
    std::size_t differentFromCairo = 0, differentFromGl = 0;
    for (std::size_t i = 0; i < cairo->pixels.size(); ++i) {
        differentFromCairo += fromDefault.pixels[i] != cairo->pixels[i];
        differentFromGl += fromDefault.pixels[i] != fromGl.pixels[i];
    }
    EXPECT_EQ(differentFromCairo, 0u);
    EXPECT_GT(differentFromGl, 100u);
}

// Cairo and GL draw the same layout: the heatmap in the same box with the same colours, the
// title and axis labels over the same extents. At scale 1 and at scale 2 (HiDPI).
TEST_F(RendererChoiceTest, BothRenderersAgreeOnTheLayout) {
    for (const std::string scale : {"1", "2"}) {
        SCOPED_TRACE("--scale " + scale);
        auto cairoRun = runPoslab(
            sinusoidal(path("cairo" + scale + ".png"), {"--renderer", "cairo", "--scale", scale}),
            "env -u DISPLAY");
        auto glRun = runPoslab(
            sinusoidal(path("gl" + scale + ".png"), {"--renderer", "gl", "--scale", scale}),
            "env -u DISPLAY");
        ASSERT_EQ(cairoRun.exitCode, 0) << cairoRun.err;
        ASSERT_EQ(glRun.exitCode, 0) << glRun.err;
        const ImageRgba cairo = loadPng(path("cairo" + scale + ".png"));
        const ImageRgba gl = loadPng(path("gl" + scale + ".png"));
        const int s = std::stoi(scale);
        ASSERT_EQ(cairo.width, 900 * s);
        ASSERT_EQ(gl.width, 900 * s);
        ASSERT_EQ(cairo.height, gl.height);

        // The heatmap: a large box, in the same place to a pixel per figure pixel.
        const auto a = heatmapBox(cairo, ColormapId::Viridis),
                   b = heatmapBox(gl, ColormapId::Viridis);
        EXPECT_GT(a[2] - a[0], 500 * s);
        EXPECT_GT(a[3] - a[1], 400 * s);
        for (int i = 0; i < 4; ++i) EXPECT_NEAR(a[i], b[i], s) << "edge " << i;

        // Its colours: 20 x 20 blocks agree (cells are 14 figure pixels wide; a cell edge one
        // pixel apart moves a block's mean by at most 255 / 20).
        double worst = 0;
        const int block = 20 * s;
        for (int y = a[1] + 2; y + block < a[3] - 2; y += block) {
            for (int x = a[0] + 2; x + block < a[2] - 2; x += block) {
                const auto p = meanColour(cairo, x, y, x + block, y + block),
                           q = meanColour(gl, x, y, x + block, y + block);
                for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(p[c] - q[c]));
            }
        }
        EXPECT_LT(worst, 255.0 / 20 + 2);

        // The title above the heatmap and the axis labels below it cover the same extents.
        const Rgba white{255, 255, 255, 255};
        const auto titleA = inkBox(cairo, white, 0, a[1] - 2 * s);
        const auto titleB = inkBox(gl, white, 0, b[1] - 2 * s);
        ASSERT_GE(titleA[2], 0);
        ASSERT_GE(titleB[2], 0);
        for (int i = 0; i < 4; ++i) EXPECT_NEAR(titleA[i], titleB[i], 3 * s) << "title edge " << i;
        const auto belowA = inkBox(cairo, white, a[3] + 2 * s, cairo.height);
        const auto belowB = inkBox(gl, white, b[3] + 2 * s, gl.height);
        for (int i = 0; i < 4; ++i) EXPECT_NEAR(belowA[i], belowB[i], 3 * s) << "x axis edge " << i;
    }
}

TEST_F(RendererChoiceTest, BadRendererIsOneLineExitTwoAndNoFile) {
    struct Case {
        std::vector<std::string> extra;
        std::string out, message;
    };
    const std::vector<Case> cases = {
        {{"--renderer", "vulkan"}, "a.png", "--renderer must be cairo or gl (got 'vulkan')"},
        {{"--renderer", "GL"}, "b.png", "--renderer must be cairo or gl (got 'GL')"},
        {{"--renderer="}, "c.png", "--renderer must be cairo or gl (got '')"},
        {{"--renderer"}, "d.png", "--renderer needs a value"},
        {{"--renderer", "gl"},
         "e.svg",
         "--renderer gl draws PNG only; SVG is always drawn with Cairo"},
        {{"--renderer", "gl"},
         "f.pdf",
         "--renderer gl draws PNG only; PDF is always drawn with Cairo"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.out);
        std::vector<std::string> arguments = {"render", "sinusoidal", "--d-model",
                                              "16",     "--out",      path(c.out)};
        arguments.insert(arguments.end(), c.extra.begin(), c.extra.end());
        auto result = runPoslab(arguments, "env -u DISPLAY");
        EXPECT_EQ(result.exitCode, 2);
        EXPECT_EQ(lineCount(result.err), 1) << result.err;
        EXPECT_NE(result.err.find(c.message), std::string::npos) << result.err;
        EXPECT_EQ(result.out, "");
        EXPECT_FALSE(fileExists(path(c.out)));
    }
    // Cairo is fine for every format; the help says which renderer does what.
    for (const std::string name : {"g.svg", "h.pdf", "i.png"}) {
        auto result = runPoslab({"render", "sinusoidal", "--d-model", "16", "--renderer", "cairo",
                                 "--out", path(name)});
        EXPECT_EQ(result.exitCode, 0) << name << ": " << result.err;
        EXPECT_TRUE(fileExists(path(name)));
    }
    auto help = runPoslab({"render", "--help"});
    EXPECT_NE(help.out.find("--renderer cairo (default)"), std::string::npos) << help.out;
    EXPECT_NE(help.out.find("--renderer gl"), std::string::npos);
}

TEST_F(RendererChoiceTest, SpecRendererFieldChoosesAndIsChecked) {
    std::ofstream(path("figures.json")) << R"([
        {"view": "sinusoidal", "d_model": 32, "seq_len": 64, "width": 400, "height": 300,
         "colormap": "viridis", "renderer": "gl", "out": "gl.png"},
        {"view": "sinusoidal", "d_model": 32, "seq_len": 64, "width": 400, "height": 300,
         "colormap": "viridis", "renderer": "cairo", "out": "cairo.png"},
        {"view": "sinusoidal", "d_model": 32, "seq_len": 64, "width": 400, "height": 300,
         "colormap": "viridis", "out": "default.png"},
        {"view": "sinusoidal", "d_model": 32, "renderer": "metal", "out": "bad.png"},
        {"view": "sinusoidal", "d_model": 32, "renderer": "gl", "out": "bad.pdf"},
        {"view": "sinusoidal", "d_model": 32, "renderer": true, "out": "bad2.png"}
    ])";
    auto result = runPoslab({"render", "--spec", path("figures.json")}, "env -u DISPLAY");
    EXPECT_EQ(result.exitCode, 2);
    for (const char* name : {"gl.png", "cairo.png", "default.png"})
        EXPECT_TRUE(fileExists(path(name))) << name;
    for (const char* name : {"bad.png", "bad.pdf", "bad2.png"})
        EXPECT_FALSE(fileExists(path(name))) << name;
    EXPECT_NE(result.err.find("figure 4: --renderer must be cairo or gl (got 'metal')"),
              std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("figure 5: --renderer gl draws PNG only"), std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("figure 6: field 'renderer'"), std::string::npos) << result.err;
    EXPECT_EQ(lineCount(result.err), 4) << result.err;  // three figures and the summary

    // The default is Cairo's pixels exactly; GL's are the same figure, not the same pixels.
    const ImageRgba gl = loadPng(path("gl.png")), cairo = loadPng(path("cairo.png")),
                    byDefault = loadPng(path("default.png"));
    ASSERT_EQ(gl.width, 400);
    ASSERT_EQ(cairo.width, 400);
    EXPECT_TRUE(byDefault.pixels == cairo.pixels);
    EXPECT_FALSE(gl.pixels == cairo.pixels);
    const auto a = heatmapBox(cairo, ColormapId::Viridis), b = heatmapBox(gl, ColormapId::Viridis);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(a[i], b[i], 1) << "edge " << i;
}

// A GL batch bakes fonts per figure and re-bakes when a later figure needs more (new sizes,
// new characters such as θ and ×): each figure is the same image a process of its own draws.
TEST_F(RendererChoiceTest, GlBatchRebakesFontsAndDrawsWhatASingleRenderDraws) {
    std::ofstream(path("figures.json")) << R"([
        {"view": "sinusoidal", "d_model": 16, "seq_len": 32, "width": 500, "height": 300,
         "renderer": "gl", "out": "first.png"},
        {"view": "rope-rotation", "head_dim": 8, "width": 900, "height": 600, "scale": 1.5,
         "renderer": "gl", "out": "second.png"}
    ])";
    auto batch = runPoslab({"render", "--spec", path("figures.json")}, "env -u DISPLAY");
    ASSERT_EQ(batch.exitCode, 0) << batch.err;
    auto single =
        runPoslab({"render", "rope-rotation", "--head-dim", "8", "--width", "900", "--height",
                   "600", "--scale", "1.5", "--renderer", "gl", "--out", path("single.png")},
                  "env -u DISPLAY");
    ASSERT_EQ(single.exitCode, 0) << single.err;
    const ImageRgba fromBatch = loadPng(path("second.png")), alone = loadPng(path("single.png"));
    ASSERT_EQ(fromBatch.width, 1350);
    ASSERT_EQ(alone.width, 1350);
    // The same glyphs in a differently packed atlas: texture coordinates may round apart by a
    // hair, moving a few edge pixels by a level; a missing or wrong glyph would change hundreds.
    int worst = 0, different = 0;
    for (std::size_t i = 0; i < alone.pixels.size(); i += 4) {
        int d = 0;
        for (int c = 0; c < 4; ++c)
            d = std::max(d, std::abs(fromBatch.pixels[i + c] - alone.pixels[i + c]));
        worst = std::max(worst, d);
        different += d > 0;
    }
    EXPECT_LE(worst, 2);
    EXPECT_LT(different, 50);
}

// ---- Fonts for one render: only what the figure needs, the same glyphs as the full set
TEST(FontSetTest, LoadOnlyBakesTheNeededSizesWithTheScreensGlyphs) {
    ImGuiContext* full = ImGui::CreateContext();
    gfx::FontSet screen;
    screen.load(16.0f);
    ImGui::GetIO().Fonts->Build();
    if (screen.usingFallback()) {
        ImGui::DestroyContext(full);
        GTEST_SKIP() << "DejaVu Sans is not installed";
    }
    ImGuiContext* only = ImGui::CreateContext();
    ImGui::SetCurrentContext(only);
    gfx::FontSet figure;
    // 13 px picks the 14 px font, 28 px the 30 px one; θ is in the screen's ranges.
    EXPECT_TRUE(figure.loadOnly({13.0f, 28.0f, 14.0f}, "θ = 0.5"));
    ImFontAtlas* atlas = ImGui::GetIO().Fonts;
    ASSERT_EQ(atlas->Fonts.Size, 2);
    EXPECT_EQ(atlas->Fonts[0]->FontSize, 14.0f);
    EXPECT_EQ(atlas->Fonts[1]->FontSize, 30.0f);
    // Asking again for less changes nothing; a new character or size rebuilds.
    EXPECT_FALSE(figure.loadOnly({14.0f}, "0.5"));
    EXPECT_TRUE(figure.loadOnly({14.0f}, "π"));
    EXPECT_TRUE(figure.loadOnly({40.0f}, ""));
    ASSERT_EQ(atlas->Fonts.Size, 3);

    // Every size a figure draws at picks a font of the same size as the screen's FontSet would,
    // and its glyphs have the same metrics and the same coverage bitmaps.
    unsigned char *onlyPixels = nullptr, *fullPixels = nullptr;
    int onlyWidth = 0, onlyHeight = 0, fullWidth = 0, fullHeight = 0;
    atlas->GetTexDataAsAlpha8(&onlyPixels, &onlyWidth, &onlyHeight);
    ImGui::SetCurrentContext(full);
    ImGui::GetIO().Fonts->GetTexDataAsAlpha8(&fullPixels, &fullWidth, &fullHeight);
    int compared = 0;
    for (float size : {13.0f, 14.0f, 28.0f, 40.0f}) {
        ImFont* a = figure.forSize(size);
        ImFont* b = screen.forSize(size);
        ASSERT_EQ(a->FontSize, b->FontSize) << size;
        for (ImWchar c : {ImWchar('0'), ImWchar('.'), ImWchar('5'), ImWchar('='), ImWchar(0x03B8),
                          ImWchar(0x03C0), ImWchar('W')}) {
            const ImFontGlyph* g = a->FindGlyphNoFallback(c);
            const ImFontGlyph* h = b->FindGlyphNoFallback(c);
            ASSERT_NE(h, nullptr);
            ASSERT_NE(g, nullptr) << int(c);  // every size holds every character asked for
            EXPECT_EQ(g->AdvanceX, h->AdvanceX);
            EXPECT_EQ(g->X0, h->X0);
            EXPECT_EQ(g->Y1, h->Y1);
            const int w = int(std::lround((g->U1 - g->U0) * onlyWidth));
            const int hgt = int(std::lround((g->V1 - g->V0) * onlyHeight));
            ASSERT_EQ(w, int(std::lround((h->U1 - h->U0) * fullWidth)));
            const int gx = int(std::lround(g->U0 * onlyWidth)),
                      gy = int(std::lround(g->V0 * onlyHeight));
            const int hx = int(std::lround(h->U0 * fullWidth)),
                      hy = int(std::lround(h->V0 * fullHeight));
            for (int y = 0; y < hgt; ++y)
                for (int x = 0; x < w; ++x)
                    ASSERT_EQ(onlyPixels[(gy + y) * onlyWidth + gx + x],
                              fullPixels[(hy + y) * fullWidth + hx + x]);
            ++compared;
        }
    }
    EXPECT_GE(compared, 20);
    // Characters nobody asked for are not baked (the screen has ∑; this figure does not).
    EXPECT_EQ(figure.forSize(14.0f)->FindGlyphNoFallback(ImWchar(0x2211)), nullptr);
    EXPECT_NE(screen.forSize(14.0f)->FindGlyphNoFallback(ImWchar(0x2211)), nullptr);
    ImGui::DestroyContext(only);
    ImGui::DestroyContext(full);
}

// ---- The GUI
TEST(GuiTest, WindowUnderXvfbShowsTheHeatmap) {
    if (runShell("command -v xvfb-run").exitCode != 0) GTEST_SKIP() << "xvfb-run not installed";
    const std::string dir = temporaryDirectory("gui-smoke");
    const std::string shot = dir + "/window.png";
    auto result = runShell("xvfb-run -a -s '-noreset -screen 0 1440x900x24' " +
                           shellQuote(POSLAB_BINARY) + " --screenshot " + shellQuote(shot));
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const ImageRgba image = loadPng(shot);
    ASSERT_EQ(image.width, 1440);
    ASSERT_EQ(image.height, 900);
    // The heatmap fills the upper right of the window with the default blue-white-red map.
    EXPECT_GT(fractionFromColormap(image, ColormapId::BlueWhiteRed, 700, 250, 1100, 450), 0.9);
    EXPECT_GT(distinctColours(image, 700, 250, 1100, 450), 40);
}

}  // namespace
}  // namespace poslab::test
