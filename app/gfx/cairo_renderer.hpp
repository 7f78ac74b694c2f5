// cairo_renderer.hpp — poslab::Figure as files: PDF and PNG drawn with Cairo, SVG as plain XML.
//
// The same Figure the screen shows drives every file, with the screen's geometry: text measured
// as Dear ImGui sizes it (TextItem::size is the line height, ascent + descent, not the em size),
// 1-pixel lines on the pixel grid as ImGui draws them, dashes of 6 on 4 off. Fonts: DejaVu Sans
// through Cairo's toy text API (fontconfig; no Pango).
//
//   PDF  vector; text is real text (an embedded DejaVu subset: selectable, searchable);
//        heatmaps are images drawn nearest-neighbour (/Interpolate false), -inf cells transparent
//        so the masked colour beneath shows through. 1 figure pixel = 0.75 pt (96 dpi).
//   SVG  vector; text as <text> elements (Cairo's SVG surface would turn glyphs into paths, so
//        this file writes the SVG itself with Cairo's font metrics); heatmaps as embedded PNG
//        <image>s with pixelated rendering; clips as <clipPath>. width/height in CSS pixels.
//   PNG  raster through a Cairo image surface at any scale, with real alpha for transparent
//        backgrounds: the GUI's export and `poslab render`'s default (--renderer cairo; with
//        --renderer gl it draws with the EGL/ImGui path and uses only writePng() from here).
#pragma once

#include <string>

#include "gfx/image_io.hpp"  // writePng, unpremultiply
#include "poslab/base/result.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/figure/figure.hpp"

namespace poslab::gfx {

enum class FigureFormat { Png, Svg, Pdf };

// ---- Formats
Result<FigureFormat> figureFormatFor(const std::string& path);  // by extension (any case)
const char* figureFormatName(FigureFormat format);              // "PNG", "SVG", "PDF"

// ---- Vector files (written atomically: temporary file + rename)
Status writeFigurePdf(const Figure& figure, const std::string& path);
Status writeFigureSvg(const Figure& figure, const std::string& path);
std::string figureToSvg(const Figure& figure);  // the SVG document as text

// ---- Raster
// The figure at `scale` device pixels per figure pixel (0.25..8, at most 16384 pixels a side),
// straight (not premultiplied) alpha; transparent where the figure has no background.
Result<ImageRgba> rasterizeFigure(const Figure& figure, float scale = 1.0f);
// PNG files of a rasterised figure: writePng in image_io.hpp (the one encoder, shared with the
// page, which has no Cairo).

}  // namespace poslab::gfx
