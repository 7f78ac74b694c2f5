// The SVG writer: poslab::Figure as SVG text, written by hand (Cairo's SVG surface would turn
// glyphs into paths) with Cairo's font metrics, so every label stays a <text> element.
#include "gfx/cairo_renderer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <variant>
#include <vector>

#include "gfx/cairo_parts.hpp"
#include "poslab/figure/text_markup.hpp"
#include "poslab/io/output_file.hpp"

namespace poslab::gfx {

namespace {

std::string hexColor(Rgba c) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x", c.r, c.g, c.b);
    return buffer;
}

// fill="#rrggbb" plus fill-opacity when translucent (attribute is "fill" or "stroke").
std::string paint(const char* attribute, Rgba c) {
    std::string text = std::string(" ") + attribute + "=\"" + hexColor(c) + "\"";
    if (c.a != 255)
        text += std::string(" ") + attribute + "-opacity=\"" + number(c.a / 255.0) + "\"";
    return text;
}

std::string escapeXml(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '&')
            out += "&amp;";
        else if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else if (c == '"')
            out += "&quot;";
        else if (c < 0x20 && c != '\t' && c != '\n')
            continue;  // not allowed in XML 1.0
        else
            out += ch;
    }
    return out;
}

std::string base64(const std::string& bytes) {
    static constexpr char kDigits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const std::uint32_t n = std::uint32_t(std::uint8_t(bytes[i])) << 16 |
                                std::uint32_t(std::uint8_t(bytes[i + 1])) << 8 |
                                std::uint8_t(bytes[i + 2]);
        out += kDigits[n >> 18 & 63];
        out += kDigits[n >> 12 & 63];
        out += kDigits[n >> 6 & 63];
        out += kDigits[n & 63];
    }
    if (i < bytes.size()) {
        const bool two = i + 1 < bytes.size();
        const std::uint32_t n = std::uint32_t(std::uint8_t(bytes[i])) << 16 |
                                (two ? std::uint32_t(std::uint8_t(bytes[i + 1])) << 8 : 0);
        out += kDigits[n >> 18 & 63];
        out += kDigits[n >> 12 & 63];
        out += two ? kDigits[n >> 6 & 63] : '=';
        out += '=';
    }
    return out;
}

struct SvgReplay {
    std::string& out;
    TextMetrics metrics;
    int clipDepth = 0;
    int nextClipId = 1;
    cairo_t* measure = nullptr;  // measures markup runs as the PDF sets them

    static constexpr double kHalf = 0.5;  // the pixel-grid offset of CairoReplay at scale 1

    void operator()(const TextItem& item) {
        if (item.text.empty() || item.color.a == 0 || !(item.size > 0)) return;
        if (hasMarkup(item.text) && measure) return markupText(item);
        const char* anchor = item.horizontal == HorizontalAlign::Center  ? "middle"
                             : item.horizontal == HorizontalAlign::Right ? "end"
                                                                         : "start";
        out += "<text";
        if (item.vertical90) {
            // Laid out horizontally at the anchor, then turned about it, as on screen.
            out += " transform=\"translate(" + number(item.anchor.x) + " " + number(item.anchor.y) +
                   ") rotate(-90)\" x=\"0\" y=\"" + number(baselineOffset(item, metrics)) + "\"";
        } else {
            out += " x=\"" + number(item.anchor.x) + "\" y=\"" +
                   number(item.anchor.y + baselineOffset(item, metrics)) + "\"";
        }
        out += " font-size=\"" + number(item.size * metrics.emPerLineHeight) + "\"";
        if (item.horizontal != HorizontalAlign::Left)
            out += std::string(" text-anchor=\"") + anchor + "\"";
        out += paint("fill", item.color) + ">" + escapeXml(item.text) + "</text>\n";
    }
    // Markup: one <tspan> per run, placed where the PDF puts it (sub/superscripts, oblique).
    void markupText(const TextItem& item) {
        const std::vector<PlacedRun> runs = layoutRuns(measure, item, metrics);
        double width = 0;
        for (const PlacedRun& run : runs) width = std::max(width, run.x + run.advance);
        const double dx = item.horizontal == HorizontalAlign::Center  ? -width / 2
                          : item.horizontal == HorizontalAlign::Right ? -width
                                                                      : 0;
        const double baseline = baselineOffset(item, metrics);
        out += "<text";
        if (item.vertical90) {
            out += " transform=\"translate(" + number(item.anchor.x) + " " + number(item.anchor.y) +
                   ") rotate(-90)\"";
        } else {
            out += " transform=\"translate(" + number(item.anchor.x) + " " + number(item.anchor.y) +
                   ")\"";
        }
        out += paint("fill", item.color) + ">";
        for (const PlacedRun& run : runs) {
            out += "<tspan x=\"" + number(dx + run.x) + "\" y=\"" + number(baseline - run.rise) +
                   "\" font-size=\"" + number(run.em) + "\"";
            if (run.italic) out += " font-style=\"oblique\"";
            // Appended piece by piece: `">" + std::string&&` trips GCC 12's -Wrestrict false
            // positive (an insert at the front of a temporary it cannot prove does not alias).
            out += '>';
            out += escapeXml(run.text);
            out += "</tspan>";
        }
        out += "</text>\n";
    }
    void operator()(const LineItem& item) {
        if (item.color.a == 0) return;
        out += "<line x1=\"" + number(item.from.x + kHalf) + "\" y1=\"" +
               number(item.from.y + kHalf) + "\" x2=\"" + number(item.to.x + kHalf) + "\" y2=\"" +
               number(item.to.y + kHalf) + "\"" + paint("stroke", item.color) + " stroke-width=\"" +
               number(item.width) + "\"";
        if (item.dashed)
            out += " stroke-dasharray=\"" + number(kDash) + " " + number(kDashGap) + "\"";
        out += "/>\n";
    }
    void operator()(const PolylineItem& item) {
        if (item.points.size() < 2 || item.color.a == 0) return;
        std::string d;
        bool drawing = false;
        for (Point p : item.points) {
            if (!std::isfinite(p.x) || !std::isfinite(p.y)) {
                drawing = false;
                continue;
            }
            d += (drawing ? " L" : (d.empty() ? "M" : " M")) + number(p.x) + " " + number(p.y);
            drawing = true;
        }
        if (d.empty()) return;
        out += "<path d=\"" + d + "\" fill=\"none\"" + paint("stroke", item.color) +
               " stroke-width=\"" + number(item.width) + "\" stroke-linejoin=\"round\"/>\n";
    }
    void operator()(const RectItem& item) {
        const Box& b = item.box;
        if (item.fill.a) {
            out += "<rect x=\"" + number(b.x) + "\" y=\"" + number(b.y) + "\" width=\"" +
                   number(b.width) + "\" height=\"" + number(b.height) + "\"" +
                   paint("fill", item.fill) + "/>\n";
        }
        if (item.stroke.a) {
            out += "<rect x=\"" + number(b.x + kHalf) + "\" y=\"" + number(b.y + kHalf) +
                   "\" width=\"" + number(std::max(0.0, b.width - 2 * kHalf)) + "\" height=\"" +
                   number(std::max(0.0, b.height - 2 * kHalf)) + "\" fill=\"none\"" +
                   paint("stroke", item.stroke) + " stroke-width=\"" + number(item.strokeWidth) +
                   "\"/>\n";
        }
    }
    void operator()(const CircleItem& item) {
        const std::string centre =
            "<circle cx=\"" + number(item.center.x) + "\" cy=\"" + number(item.center.y) + "\"";
        if (item.fill.a)
            out +=
                centre + " r=\"" + number(item.radius) + "\"" + paint("fill", item.fill) + "/>\n";
        if (item.stroke.a) {
            out += centre + " r=\"" + number(std::max(0.0, item.radius - kHalf)) +
                   "\" fill=\"none\"" + paint("stroke", item.stroke) + " stroke-width=\"" +
                   number(item.strokeWidth) + "\"/>\n";
        }
    }
    void operator()(const PolygonItem& item) {
        if (item.points.size() < 3 || item.fill.a == 0) return;
        out += "<polygon points=\"";
        for (std::size_t i = 0; i < item.points.size(); ++i) {
            if (i) out += ' ';
            out += number(item.points[i].x);
            out += ',';
            out += number(item.points[i].y);
        }
        out += '"';
        out += paint("fill", item.fill);
        out += "/>\n";
    }
    void operator()(const HeatmapItem& item) {
        if (!item.values || item.values->empty() || !(item.box.width > 0) || !(item.box.height > 0))
            return;
        const ImageRgba image = heatmapImage(item, true);
        const Result<std::string> png = encodePng(image, !isOpaque(image));
        if (!png) return;
        // One PNG pixel per cell, stretched over the box without smoothing: SVG 1.1's
        // image-rendering attribute for Inkscape and librsvg, the CSS property for browsers.
        out += "<image x=\"" + number(item.box.x) + "\" y=\"" + number(item.box.y) + "\" width=\"" +
               number(item.box.width) + "\" height=\"" + number(item.box.height) +
               "\" preserveAspectRatio=\"none\" image-rendering=\"optimizeSpeed\" "
               "style=\"image-rendering:pixelated\" xlink:href=\"data:image/png;base64," +
               base64(*png) + "\"/>\n";
    }
    void operator()(const ClipPush& item) {
        const std::string id = "clip" + std::to_string(nextClipId++);
        out += "<clipPath id=\"" + id + "\"><rect x=\"" + number(item.box.x) + "\" y=\"" +
               number(item.box.y) + "\" width=\"" + number(item.box.width) + "\" height=\"" +
               number(item.box.height) + "\"/></clipPath>\n<g clip-path=\"url(#" + id + ")\">\n";
        ++clipDepth;
    }
    void operator()(const ClipPop&) {
        if (clipDepth == 0) return;
        out += "</g>\n";
        --clipDepth;
    }
};

}  // namespace

std::string figureToSvg(const Figure& figure) {
    std::string out;
    out.reserve(1 << 16);
    const std::string w = number(figure.width), h = number(figure.height);
    out +=
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
        "version=\"1.1\" width=\"" +
        w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h +
        "\" font-family=\"'DejaVu Sans', Verdana, sans-serif\" xml:space=\"preserve\">\n"
        "<!-- PosLab figure: 1 unit = 1 CSS pixel; text is text, heatmap cells are image pixels "
        "-->\n";
    if (figure.background.a) {
        out += "<rect width=\"" + w + "\" height=\"" + h + "\"" + paint("fill", figure.background) +
               "/>\n";
    }
    SurfacePtr measureSurface(cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1));
    ContextPtr measure(cairo_create(measureSurface.get()));
    setFontOptions(measure.get());
    SvgReplay replay{out, measureFont(), 0, 1, measure.get()};
    for (const FigureItem& item : figure.items) std::visit(replay, item);
    while (replay.clipDepth > 0) replay(ClipPop{});
    out += "</svg>\n";
    return out;
}

Status writeFigureSvg(const Figure& figure, const std::string& path) {
    if (auto status = checkFigureSize(figure); !status) return status;
    const std::string text = figureToSvg(figure);
    return writeFileAtomically(path, [&](std::FILE* file) -> Status {
        if (std::fwrite(text.data(), 1, text.size(), file) != text.size())
            return Error{"write failed"};
        return success();
    });
}

}  // namespace poslab::gfx
