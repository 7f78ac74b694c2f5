#include "gfx/cairo_renderer.hpp"

#include "gfx/image_io.hpp"

#include <cairo-ft.h>
#include <cairo-pdf.h>
#include <cairo.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <numbers>
#include <vector>

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/figure/polyline.hpp"
#include "poslab/figure/text_markup.hpp"
#include "poslab/io/output_file.hpp"

namespace poslab::gfx {

namespace {

constexpr const char* kFontFamily = "DejaVu Sans";  // the font the screen bakes (fonts.cpp)
constexpr double kPointsPerPixel = 0.75;            // CSS pixels: 96 per inch, 72 points per inch
constexpr int kMaxHeatmapTexels = 8192;             // as the GPU path: average larger matrices down
constexpr int kMaxVectorImageSide = 4096;           // cells enlarged into blocks up to this size
constexpr std::size_t kBandTurns = 2048;            // more reversals: a wide band, bevel joins
constexpr std::size_t kBandPiece = 64;              // a band's segments per stroked sub-path
constexpr double kDash = 6, kDashGap = 4;           // figure pixels, as figure_renderer.cpp

// ---- Cairo handles with their destroy functions
struct SurfaceDeleter {
    void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
struct ContextDeleter {
    void operator()(cairo_t* c) const { cairo_destroy(c); }
};
struct PatternDeleter {
    void operator()(cairo_pattern_t* p) const { cairo_pattern_destroy(p); }
};
using SurfacePtr = std::unique_ptr<cairo_surface_t, SurfaceDeleter>;
using ContextPtr = std::unique_ptr<cairo_t, ContextDeleter>;
using PatternPtr = std::unique_ptr<cairo_pattern_t, PatternDeleter>;

// DejaVuSans.ttf, the file the screen bakes (fonts.cpp), opened with FreeType directly.
// Cairo's toy API would find it through fontconfig, whose start-up (parsing /etc/fonts, loading
// the caches) takes longer than drawing a whole figure. Made once, kept for the process
// (thread-safe: GUI exports run in the background); nullptr when the file is missing or
// unreadable, and then the toy API is used.
cairo_font_face_t* dejaVuSansFace() {
    static cairo_font_face_t* const face = []() -> cairo_font_face_t* {
        FT_Library library = nullptr;
        if (FT_Init_FreeType(&library) != 0) return nullptr;
        FT_Face fontFace = nullptr;
        const std::string path = std::string(POSLAB_FONT_DIR) + "/DejaVuSans.ttf";
        if (FT_New_Face(library, path.c_str(), 0, &fontFace) == 0) {
            cairo_font_face_t* cairoFace = cairo_ft_font_face_create_for_ft_face(fontFace, 0);
            // Face and library live as long as the process.
            if (cairo_font_face_status(cairoFace) == CAIRO_STATUS_SUCCESS) return cairoFace;
            cairo_font_face_destroy(cairoFace);
        }
        FT_Done_FreeType(library);  // also closes the face
        return nullptr;
    }();
    return face;
}

// Unhinted outlines and advances, grey anti-aliasing: the same shapes at every scale, and the
// same advances as stb_truetype gives ImGui on screen.
void setFontOptions(cairo_t* cr) {
    cairo_font_options_t* options = cairo_font_options_create();
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    cairo_set_font_options(cr, options);
    cairo_font_options_destroy(options);
    if (cairo_font_face_t* face = dejaVuSansFace())
        cairo_set_font_face(cr, face);
    else
        cairo_select_font_face(cr, kFontFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
}

// ImGui sizes fonts by line height (ascent + descent = size); Cairo and SVG by the em.
struct TextMetrics {
    double emPerLineHeight = 0.859;      // DejaVu Sans: 2048 / (1901 + 483)
    double ascentPerLineHeight = 0.797;  // 1901 / (1901 + 483)
};

TextMetrics measureFont() {
    TextMetrics metrics;
    SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1));
    ContextPtr cr(cairo_create(surface.get()));
    setFontOptions(cr.get());
    cairo_set_font_size(cr.get(), 1000);
    cairo_font_extents_t extents;
    cairo_font_extents(cr.get(), &extents);
    const double line = extents.ascent + extents.descent;
    if (cairo_status(cr.get()) == CAIRO_STATUS_SUCCESS && line > 0) {
        metrics.emPerLineHeight = 1000 / line;
        metrics.ascentPerLineHeight = extents.ascent / line;
    }
    return metrics;
}

// Baseline of a text item relative to its anchor, in the text's own (possibly rotated) frame.
double baselineOffset(const TextItem& item, const TextMetrics& metrics) {
    double top = 0;
    if (item.vertical == VerticalAlign::Middle) top = -item.size / 2;
    if (item.vertical == VerticalAlign::Bottom) top = -item.size;
    return top + item.size * metrics.ascentPerLineHeight;
}

// A markup run (figure/text_markup) laid out along the line: where it starts, how far it
// advances, its em size, how far its baseline is raised and whether it is slanted. Cairo, the
// PDF and the SVG place runs alike, so all three set sub/superscripts in the same places.
struct PlacedRun {
    std::string text;
    double x = 0, advance = 0, em = 0, rise = 0;
    bool italic = false;
};

void setRunFont(cairo_t* cr, const PlacedRun& run) {
    // Synthetic oblique, as the screen slants italic runs: the font matrix shears x by y.
    cairo_matrix_t matrix;
    cairo_matrix_init(&matrix, run.em, 0, run.italic ? -kItalicSlant * run.em : 0, run.em, 0, 0);
    cairo_set_font_matrix(cr, &matrix);
}

std::vector<PlacedRun> layoutRuns(cairo_t* cr, const TextItem& item, const TextMetrics& metrics) {
    std::vector<PlacedRun> placed;
    double x = 0;
    for (const TextRun& run : parseMarkup(item.text)) {
        PlacedRun p;
        p.text = run.text;
        p.x = x;
        p.em = item.size * run.scale * metrics.emPerLineHeight;
        p.rise = item.size * run.shift;
        p.italic = run.style == TextStyle::Italic;
        setRunFont(cr, p);
        cairo_text_extents_t extents;
        cairo_text_extents(cr, p.text.c_str(), &extents);
        p.advance = extents.x_advance;
        x += p.advance;
        placed.push_back(std::move(p));
    }
    return placed;
}

// Masked cells are transparent black. PDF and PNG keep colour and alpha apart, and a viewer that
// smooths or anti-aliases the image edge mixes that black into its coloured neighbours: a dark
// seam along every mask boundary. Giving transparent pixels the mean colour of their opaque
// neighbours (alpha stays 0) removes the seam and changes nothing else.
void bleedIntoTransparent(ImageRgba& image) {
    const ImageRgba original = image;
    auto offset = [&](int x, int y) { return (std::size_t(y) * image.width + x) * 4; };
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            if (original.pixels[offset(x, y) + 3] != 0) continue;
            int sum[3] = {0, 0, 0}, count = 0;
            for (auto [dx, dy] : {std::pair{-1, 0}, {1, 0}, {0, -1}, {0, 1}}) {
                const int nx = x + dx, ny = y + dy;
                if (nx < 0 || ny < 0 || nx >= image.width || ny >= image.height) continue;
                const std::uint8_t* n = &original.pixels[offset(nx, ny)];
                if (n[3] == 0) continue;
                for (int c = 0; c < 3; ++c) sum[c] += n[c];
                ++count;
            }
            if (count == 0) continue;
            std::uint8_t* p = &image.pixels[offset(x, y)];
            for (int c = 0; c < 3; ++c) p[c] = std::uint8_t(sum[c] / count);
        }
    }
}

// A heatmap's cells as an image (straight RGBA), reduced to at most kMaxHeatmapTexels a side by
// block means, as the GPU path does for oversized matrices. `vector`: each cell becomes a block
// of pixels, so that the image has about one pixel per figure pixel. Viewers that ignore the
// nearest-neighbour hints (librsvg ignores SVG's image-rendering; some PDF viewers smooth despite
// /Interpolate false) then still show crisp cells at 100 %; the blocks cost little once deflated.
ImageRgba heatmapImage(const HeatmapItem& item, bool vector) {
    const Matrix* source = item.values.get();
    Matrix reduced;
    if (source->rows > std::size_t(kMaxHeatmapTexels) ||
        source->cols > std::size_t(kMaxHeatmapTexels)) {
        reduced = averageBlocks(*source, cellsPerTexel(source->rows, kMaxHeatmapTexels),
                                cellsPerTexel(source->cols, kMaxHeatmapTexels));
        source = &reduced;
    }
    ImageRgba cells = colorize(*source, item.colormap, item.range, item.masked);
    bleedIntoTransparent(cells);
    auto blockSize = [&](float pixels, int count) {
        if (!vector) return 1;
        const int wanted = int(std::lround(double(pixels) / count));
        return std::clamp(wanted, 1, std::max(1, kMaxVectorImageSide / count));
    };
    const int blockX = blockSize(item.box.width, cells.width);
    const int blockY = blockSize(item.box.height, cells.height);
    if (blockX == 1 && blockY == 1) return cells;
    ImageRgba blocks;
    blocks.width = cells.width * blockX;
    blocks.height = cells.height * blockY;
    blocks.pixels.resize(std::size_t(blocks.width) * blocks.height * 4);
    const std::size_t stride = std::size_t(blocks.width) * 4;
    for (int y = 0; y < cells.height; ++y) {
        std::uint8_t* row = &blocks.pixels[std::size_t(y) * blockY * stride];
        for (int x = 0; x < cells.width; ++x) {
            const std::uint8_t* cell = &cells.pixels[(std::size_t(y) * cells.width + x) * 4];
            for (int i = 0; i < blockX; ++i)
                std::memcpy(row + (std::size_t(x) * blockX + i) * 4, cell, 4);
        }
        for (int copy = 1; copy < blockY; ++copy) std::memcpy(row + copy * stride, row, stride);
    }
    return blocks;
}

// The image as a Cairo surface (premultiplied ARGB32); nullptr if Cairo cannot allocate it.
SurfacePtr surfaceFromImage(const ImageRgba& image) {
    SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, image.width, image.height));
    if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS) return nullptr;
    cairo_surface_flush(surface.get());
    unsigned char* data = cairo_image_surface_get_data(surface.get());
    const int stride = cairo_image_surface_get_stride(surface.get());
    for (int y = 0; y < image.height; ++y) {
        auto* row = reinterpret_cast<std::uint32_t*>(data + std::size_t(y) * stride);
        const std::uint8_t* p = &image.pixels[std::size_t(y) * image.width * 4];
        for (int x = 0; x < image.width; ++x, p += 4) {
            const std::uint32_t a = p[3];
            row[x] = a << 24 | (p[0] * a + 127) / 255 << 16 | (p[1] * a + 127) / 255 << 8 |
                     (p[2] * a + 127) / 255;
        }
    }
    cairo_surface_mark_dirty(surface.get());
    return surface;
}

// ---- Cairo back end (PDF and PNG)
struct CairoReplay {
    cairo_t* cr;
    TextMetrics metrics;
    float deviceScale = 1;  // device pixels per figure pixel (1 for vector output)
    bool raster = false;
    int clipDepth = 0;

    // ImGui puts 1-pixel strokes on the pixel grid by offsetting lines and insetting rectangle
    // outlines by half a device pixel; doing the same keeps thin rules crisp and in place.
    double half() const { return 0.5 / deviceScale; }

    void source(Rgba c) const {
        cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, c.a / 255.0);
    }

    void operator()(const TextItem& item) const {
        if (item.text.empty() || item.color.a == 0 || !(item.size > 0)) return;
        const std::vector<PlacedRun> runs = layoutRuns(cr, item, metrics);
        double width = 0;
        for (const PlacedRun& run : runs) width = std::max(width, run.x + run.advance);
        double dx = 0;
        if (item.horizontal == HorizontalAlign::Center) dx = -width / 2;
        if (item.horizontal == HorizontalAlign::Right) dx = -width;
        cairo_save(cr);
        cairo_translate(cr, item.anchor.x, item.anchor.y);
        if (item.vertical90)
            cairo_rotate(cr, -std::numbers::pi / 2);  // counter-clockwise on a y-down page
        source(item.color);
        const double baseline = baselineOffset(item, metrics);
        for (const PlacedRun& run : runs) {
            setRunFont(cr, run);
            cairo_move_to(cr, dx + run.x, baseline - run.rise);
            cairo_show_text(cr, run.text.c_str());
        }
        cairo_new_path(cr);
        cairo_restore(cr);
    }
    void operator()(const LineItem& item) const {
        if (item.color.a == 0) return;
        cairo_move_to(cr, item.from.x + half(), item.from.y + half());
        cairo_line_to(cr, item.to.x + half(), item.to.y + half());
        cairo_set_line_width(cr, item.width);
        if (item.dashed) {
            const double dashes[] = {kDash, kDashGap};
            cairo_set_dash(cr, dashes, 2, 0);
        }
        source(item.color);
        cairo_stroke(cr);
        cairo_set_dash(cr, nullptr, 0, 0);
    }
    void operator()(const PolylineItem& item) const {
        if (item.points.size() < 2 || item.color.a == 0) return;
        const bool band = splitAtSharpTurns(item.points).size() > kBandTurns;
        cairo_set_line_width(cr, item.width);
        // Round joins, except on a wide band of oscillations (an envelope that turns back on
        // itself at every pixel column of a large export): there round joins multiply the
        // outline Cairo must tessellate, superlinearly (linear-shift, 8192 dims, 8192 px wide:
        // 30 s, 7 s with bevels). Bevels leave one-pixel scallops on the band's edges, which
        // is why figures of ordinary size keep round joins.
        cairo_set_line_join(cr, band ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_ROUND);
        source(item.color);
        // A rasterised band is stroked in pieces of kBandPiece segments: one path that crosses
        // itself at every column costs Cairo more than linearly. Opaque colours show no seam
        // where pieces meet; vector files keep one path per line.
        const bool pieces = band && raster && item.color.a == 255;
        std::size_t segments = 0;
        bool drawing = false;
        for (Point p : item.points) {
            if (!std::isfinite(p.x) || !std::isfinite(p.y)) {
                drawing = false;  // a gap, as LineSeries promises for non-finite points
                continue;
            }
            if (!drawing) {
                cairo_move_to(cr, p.x, p.y);
                drawing = true;
                continue;
            }
            cairo_line_to(cr, p.x, p.y);
            if (pieces && ++segments % kBandPiece == 0) {
                cairo_stroke(cr);
                cairo_move_to(cr, p.x, p.y);  // the next piece starts where this one ended
            }
        }
        cairo_stroke(cr);
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
    }
    void operator()(const RectItem& item) const {
        const Box& b = item.box;
        if (item.fill.a) {
            cairo_rectangle(cr, b.x, b.y, b.width, b.height);
            source(item.fill);
            cairo_fill(cr);
        }
        if (item.stroke.a) {
            cairo_rectangle(cr, b.x + half(), b.y + half(), std::max(0.0, b.width - 2 * half()),
                            std::max(0.0, b.height - 2 * half()));
            cairo_set_line_width(cr, item.strokeWidth);
            source(item.stroke);
            cairo_stroke(cr);
        }
    }
    void operator()(const CircleItem& item) const {
        if (item.fill.a) {
            cairo_new_sub_path(cr);
            cairo_arc(cr, item.center.x, item.center.y, item.radius, 0, 2 * std::numbers::pi);
            source(item.fill);
            cairo_fill(cr);
        }
        if (item.stroke.a) {
            cairo_new_sub_path(cr);
            cairo_arc(cr, item.center.x, item.center.y, std::max(0.0, item.radius - half()), 0,
                      2 * std::numbers::pi);
            cairo_set_line_width(cr, item.strokeWidth);
            source(item.stroke);
            cairo_stroke(cr);
        }
    }
    void operator()(const PolygonItem& item) const {
        if (item.points.size() < 3 || item.fill.a == 0) return;
        cairo_move_to(cr, item.points[0].x, item.points[0].y);
        for (std::size_t i = 1; i < item.points.size(); ++i)
            cairo_line_to(cr, item.points[i].x, item.points[i].y);
        cairo_close_path(cr);
        source(item.fill);
        cairo_fill(cr);
    }
    void operator()(const HeatmapItem& item) const {
        if (!item.values || item.values->empty() || !(item.box.width > 0) || !(item.box.height > 0))
            return;
        SurfacePtr image = surfaceFromImage(heatmapImage(item, !raster));
        if (!image) return;
        const int columns = cairo_image_surface_get_width(image.get());
        const int rows = cairo_image_surface_get_height(image.get());
        cairo_save(cr);
        cairo_rectangle(cr, item.box.x, item.box.y, item.box.width, item.box.height);
        cairo_clip(cr);
        cairo_translate(cr, item.box.x, item.box.y);
        cairo_scale(cr, item.box.width / columns, item.box.height / rows);
        cairo_set_source_surface(cr, image.get(), 0, 0);
        cairo_pattern_t* pattern = cairo_get_source(cr);
        // Cells are cells: nearest-neighbour when enlarged (and always in vector files, which
        // viewers enlarge). Shrunk in a PNG, bilinear like the GPU texture, so no cell vanishes.
        const bool shrunk =
            item.box.width * deviceScale < columns || item.box.height * deviceScale < rows;
        cairo_pattern_set_filter(pattern,
                                 raster && shrunk ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_NEAREST);
        cairo_pattern_set_extend(pattern, raster ? CAIRO_EXTEND_PAD : CAIRO_EXTEND_NONE);
        cairo_rectangle(cr, 0, 0, columns, rows);
        cairo_fill(cr);
        cairo_restore(cr);
    }
    void operator()(const ClipPush& item) {
        cairo_save(cr);
        cairo_rectangle(cr, item.box.x, item.box.y, item.box.width, item.box.height);
        cairo_clip(cr);  // intersects with the current clip, as ImGui's PushClipRect does
        ++clipDepth;
    }
    void operator()(const ClipPop&) {
        if (clipDepth == 0) return;
        cairo_restore(cr);
        --clipDepth;
    }
};

void replayWithCairo(cairo_t* cr, const Figure& figure, float deviceScale, bool raster) {
    setFontOptions(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    if (figure.background.a) {
        cairo_rectangle(cr, 0, 0, figure.width, figure.height);
        cairo_set_source_rgba(cr, figure.background.r / 255.0, figure.background.g / 255.0,
                              figure.background.b / 255.0, figure.background.a / 255.0);
        cairo_fill(cr);
    }
    CairoReplay replay{cr, measureFont(), deviceScale, raster};
    for (const FigureItem& item : figure.items) std::visit(replay, item);
    while (replay.clipDepth > 0) replay(ClipPop{});
}

Status checkFigureSize(const Figure& figure) {
    if (!(figure.width >= 1 && figure.height >= 1 && figure.width <= 16384 &&
          figure.height <= 16384)) {
        return Error{"figure size must be 1..16384 pixels a side (got " +
                     std::to_string(int(figure.width)) + " x " +
                     std::to_string(int(figure.height)) + ")"};
    }
    return success();
}

cairo_status_t writeToFile(void* closure, const unsigned char* data, unsigned int length) {
    return std::fwrite(data, 1, length, static_cast<std::FILE*>(closure)) == length
               ? CAIRO_STATUS_SUCCESS
               : CAIRO_STATUS_WRITE_ERROR;
}

Error cairoError(cairo_status_t status, const std::string& what) {
    return Error{what + ": " + cairo_status_to_string(status)};
}

// ---- SVG writer
std::string number(double value) {
    if (!std::isfinite(value)) value = 0;
    char buffer[32];
    auto [end, error] =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 2);
    std::string text(buffer, error == std::errc() ? end : buffer);
    if (text.find('.') != std::string::npos) {
        while (text.back() == '0') text.pop_back();
        if (text.back() == '.') text.pop_back();
    }
    return text == "-0" ? "0" : text;
}

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
            out += ">" + escapeXml(run.text) + "</tspan>";
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

Status writeFigurePdf(const Figure& figure, const std::string& path) {
    if (auto status = checkFigureSize(figure); !status) return status;
    return writeFileAtomically(path, [&](std::FILE* file) -> Status {
        SurfacePtr surface(cairo_pdf_surface_create_for_stream(
            writeToFile, file, figure.width * kPointsPerPixel, figure.height * kPointsPerPixel));
        if (auto s = cairo_surface_status(surface.get()); s != CAIRO_STATUS_SUCCESS) {
            return cairoError(s, "cannot start a PDF");
        }
        cairo_pdf_surface_set_metadata(surface.get(), CAIRO_PDF_METADATA_CREATOR, "PosLab");
        // Cairo stamps the current time; SOURCE_DATE_EPOCH (the reproducible-builds convention)
        // pins it, so a spec rendered twice gives byte-identical PDFs.
        if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH")) {
            char* end = nullptr;
            const long long seconds = std::strtoll(epoch, &end, 10);
            std::tm utc{};
            const std::time_t time = std::time_t(seconds);
            if (end != epoch && *end == 0 && seconds >= 0 && gmtime_r(&time, &utc)) {
                char date[32];
                std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &utc);
                cairo_pdf_surface_set_metadata(surface.get(), CAIRO_PDF_METADATA_CREATE_DATE, date);
            }
        }
        {
            ContextPtr cr(cairo_create(surface.get()));
            cairo_scale(cr.get(), kPointsPerPixel, kPointsPerPixel);
            replayWithCairo(cr.get(), figure, 1.0f, false);
            if (auto s = cairo_status(cr.get()); s != CAIRO_STATUS_SUCCESS)
                return cairoError(s, "drawing failed");
        }
        cairo_surface_finish(surface.get());
        if (auto s = cairo_surface_status(surface.get()); s != CAIRO_STATUS_SUCCESS) {
            return cairoError(s, "write failed");
        }
        return success();
    });
}

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

Result<ImageRgba> rasterizeFigure(const Figure& figure, float scale) {
    if (!(scale >= 0.25f && scale <= 8))
        return Error{"scale must be 0.25..8 (got " + number(scale) + ")"};
    const int width = int(std::lround(figure.width * scale));
    const int height = int(std::lround(figure.height * scale));
    if (width < 1 || height < 1 || width > 16384 || height > 16384) {
        return Error{"image size " + std::to_string(width) + " x " + std::to_string(height) +
                     " must be 1..16384 pixels a side"};
    }
    // Cairo draws straight into the image's pixels (ARGB32 rows of width * 4 bytes are a valid
    // Cairo stride), which are then turned in place into straight-alpha RGBA: no second buffer.
    ImageRgba image;
    image.width = width;
    image.height = height;
    image.pixels.resize(std::size_t(width) * height * 4);
    SurfacePtr surface(cairo_image_surface_create_for_data(image.pixels.data(), CAIRO_FORMAT_ARGB32,
                                                           width, height, width * 4));
    if (auto s = cairo_surface_status(surface.get()); s != CAIRO_STATUS_SUCCESS) {
        return cairoError(s, "cannot make a " + std::to_string(width) + " x " +
                                 std::to_string(height) + " image");
    }
    {
        ContextPtr cr(cairo_create(surface.get()));
        cairo_scale(cr.get(), scale, scale);
        replayWithCairo(cr.get(), figure, scale, true);
        if (auto s = cairo_status(cr.get()); s != CAIRO_STATUS_SUCCESS)
            return cairoError(s, "drawing failed");
    }
    cairo_surface_finish(surface.get());
    // Native-endian premultiplied 0xAARRGGBB words to R, G, B, A bytes with straight alpha.
    for (std::size_t i = 0; i < image.pixels.size(); i += 4) {
        std::uint8_t* p = &image.pixels[i];
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        const std::uint32_t a = v >> 24;
        std::uint32_t r = v >> 16 & 0xff, g = v >> 8 & 0xff, b = v & 0xff;
        if (a == 0) {
            r = g = b = 0;
        } else if (a != 255) {
            r = std::min(255u, (r * 255 + a / 2) / a);
            g = std::min(255u, (g * 255 + a / 2) / a);
            b = std::min(255u, (b * 255 + a / 2) / a);
        }
        p[0] = std::uint8_t(r), p[1] = std::uint8_t(g), p[2] = std::uint8_t(b),
        p[3] = std::uint8_t(a);
    }
    return image;
}

}  // namespace poslab::gfx
