// The Cairo back end: PDF pages and PNG rasters replayed from a Figure (the SVG writer is
// svg_writer.cpp; what both share, cairo_parts.hpp).
#include "gfx/cairo_renderer.hpp"

#include <cairo-pdf.h>
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <numbers>
#include <string>
#include <variant>
#include <vector>

#include "gfx/cairo_parts.hpp"
#include "gfx/image_io.hpp"
#include "poslab/figure/polyline.hpp"
#include "poslab/io/output_file.hpp"

namespace poslab::gfx {

namespace {

constexpr double kPointsPerPixel = 0.75;  // CSS pixels: 96 per inch, 72 points per inch
constexpr std::size_t kBandTurns = 2048;  // more reversals: a wide band, bevel joins
constexpr std::size_t kBandPiece = 64;    // a band's segments per stroked sub-path

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

cairo_status_t writeToFile(void* closure, const unsigned char* data, unsigned int length) {
    return std::fwrite(data, 1, length, static_cast<std::FILE*>(closure)) == length
               ? CAIRO_STATUS_SUCCESS
               : CAIRO_STATUS_WRITE_ERROR;
}

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
