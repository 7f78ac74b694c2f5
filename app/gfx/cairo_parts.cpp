#include "gfx/cairo_parts.hpp"

#include <cairo-ft.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <utility>

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/figure/text_markup.hpp"

namespace poslab::gfx {

namespace {

constexpr const char* kFontFamily = "DejaVu Sans";  // the font the screen bakes (fonts.cpp)
constexpr int kMaxHeatmapTexels = 8192;             // as the GPU path: average larger matrices down
constexpr int kMaxVectorImageSide = 4096;           // cells enlarged into blocks up to this size

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

}  // namespace

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

double baselineOffset(const TextItem& item, const TextMetrics& metrics) {
    double top = 0;
    if (item.vertical == VerticalAlign::Middle) top = -item.size / 2;
    if (item.vertical == VerticalAlign::Bottom) top = -item.size;
    return top + item.size * metrics.ascentPerLineHeight;
}

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
    // A table with more cells than figure pixels on either side (a vector file samples its
    // heatmaps at their cells: Theme::cellResolution) is embedded at exactly one image pixel per
    // cell, drawn nearest-neighbour: a reader zooms into the whole table (#28).
    const bool moreCellsThanPixels =
        double(cells.width) > item.box.width || double(cells.height) > item.box.height;
    auto blockSize = [&](float pixels, int count) {
        if (!vector || moreCellsThanPixels) return 1;
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

Status checkFigureSize(const Figure& figure) {
    if (!(figure.width >= 1 && figure.height >= 1 && figure.width <= 16384 &&
          figure.height <= 16384)) {
        return Error{"figure size must be 1..16384 pixels a side (got " +
                     std::to_string(int(figure.width)) + " x " +
                     std::to_string(int(figure.height)) + ")"};
    }
    return success();
}

Error cairoError(cairo_status_t status, const std::string& what) {
    return Error{what + ": " + cairo_status_to_string(status)};
}

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

}  // namespace poslab::gfx
