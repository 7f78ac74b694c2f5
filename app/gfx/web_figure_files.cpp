// web_figure_files.cpp — cairo_renderer.hpp in the web build, where there is no Cairo.
//
// The page writes figures from the screen's own renderer (the canvas read back: web_main.cpp's
// PNG download) and numbers through io/matrix_export; vector figures (PDF, SVG) and Cairo's
// raster PNG at any scale stay with the desktop app and `poslab render`, and say so here, which
// is what the export dialog shows. The desktop build compiles cairo_renderer.cpp instead.
#include <string>

#include "gfx/cairo_renderer.hpp"
#include "gfx/image_io.hpp"

// Debian's libstb provides stb_image_write's implementation as a native library; here it is
// compiled in (image_io.cpp includes the declarations only).
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace poslab::gfx {

namespace {

Error desktopOnly(const char* what) {
    return Error{std::string(what) +
                 " files are made by the desktop app and `poslab render`; the page downloads "
                 "the figure as drawn on screen (File > Download figure PNG)"};
}

}  // namespace

Status writeFigurePdf(const Figure&, const std::string&) {
    return desktopOnly("PDF");
}

Status writeFigureSvg(const Figure&, const std::string&) {
    return desktopOnly("SVG");
}

std::string figureToSvg(const Figure&) {
    return {};
}

Result<ImageRgba> rasterizeFigure(const Figure&, float) {
    return desktopOnly("Scaled PNG");
}

}  // namespace poslab::gfx
