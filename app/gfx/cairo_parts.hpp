// cairo_parts.hpp — the pieces the Cairo renderer (PDF, PNG: cairo_renderer.cpp) and the SVG
// writer (svg_writer.cpp) share: Cairo handles, DejaVu Sans and its metrics, markup runs laid out
// along a line, heatmaps as images, and the size and error checks. Private to app/gfx.
#pragma once

#include <cairo.h>

#include <memory>
#include <string>
#include <vector>

#include "gfx/image_io.hpp"
#include "poslab/base/result.hpp"
#include "poslab/figure/figure.hpp"

namespace poslab::gfx {

inline constexpr double kDash = 6, kDashGap = 4;  // figure pixels, as figure_renderer.cpp

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

// ---- Text
// DejaVu Sans (the screen's font), unhinted, grey anti-aliasing: the same shapes at every scale,
// and the same advances as stb_truetype gives ImGui on screen.
void setFontOptions(cairo_t* cr);
// ImGui sizes fonts by line height (ascent + descent = size); Cairo and SVG by the em.
struct TextMetrics {
    double emPerLineHeight = 0.859;      // DejaVu Sans: 2048 / (1901 + 483)
    double ascentPerLineHeight = 0.797;  // 1901 / (1901 + 483)
};
TextMetrics measureFont();  // from the font itself, the defaults above when Cairo cannot
// Baseline of a text item relative to its anchor, in the text's own (possibly rotated) frame.
double baselineOffset(const TextItem& item, const TextMetrics& metrics);
// A markup run (figure/text_markup) laid out along the line: where it starts, how far it
// advances, its em size, how far its baseline is raised and whether it is slanted. Cairo, the
// PDF and the SVG place runs alike, so all three set sub/superscripts in the same places.
struct PlacedRun {
    std::string text;
    double x = 0, advance = 0, em = 0, rise = 0;
    bool italic = false;
};
void setRunFont(cairo_t* cr, const PlacedRun& run);  // the run's em size, slanted when italic
std::vector<PlacedRun> layoutRuns(cairo_t* cr, const TextItem& item, const TextMetrics& metrics);

// ---- Heatmaps
// A heatmap's cells as an image (straight RGBA), reduced to at most 8192 a side by block means,
// as the GPU path does for oversized matrices. `vector`: each cell a block of pixels, about one
// pixel per figure pixel (crisp cells in viewers that smooth images).
ImageRgba heatmapImage(const HeatmapItem& item, bool vector);
// The image as a Cairo surface (premultiplied ARGB32); nullptr if Cairo cannot allocate it.
SurfacePtr surfaceFromImage(const ImageRgba& image);

// ---- Checks and numbers
Status checkFigureSize(const Figure& figure);                      // 1..16384 pixels a side
Error cairoError(cairo_status_t status, const std::string& what);  // "what: Cairo's reason"
std::string number(double value);  // at most 2 decimals, no trailing zeros, "0" for -0 and NaN

}  // namespace poslab::gfx
