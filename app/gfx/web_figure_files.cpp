// web_figure_files.cpp — cairo_renderer.hpp in the web build, where there is no Cairo.
//
// The page writes figures from the screen's own renderer (the canvas read back: web_main.cpp's
// PNG download) and numbers through io/matrix_export; vector figures (PDF, SVG) and Cairo's
// raster PNG at any scale stay with the desktop app and `poslab render`, and say so here, which
// is what the export dialog shows. The desktop build compiles cairo_renderer.cpp instead.
#include <algorithm>
#include <cstdint>
#include <string>

#include "gfx/cairo_renderer.hpp"
#include "gfx/image_io.hpp"
#include "poslab/io/output_file.hpp"

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

bool isOpaque(const ImageRgba& image) {
    for (std::size_t i = 3; i < image.pixels.size(); i += 4) {
        if (image.pixels[i] != 255) return false;
    }
    return true;
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

void unpremultiply(ImageRgba& image) {
    for (std::size_t i = 0; i + 3 < image.pixels.size(); i += 4) {
        std::uint8_t* p = &image.pixels[i];
        const unsigned a = p[3];
        if (a == 255) continue;
        if (a == 0) {
            p[0] = p[1] = p[2] = 0;
            continue;
        }
        for (int c = 0; c < 3; ++c) p[c] = std::uint8_t(std::min(255u, (p[c] * 255u + a / 2) / a));
    }
}

Status writePng(const ImageRgba& image, const std::string& path) {
    return writePngFile(image, path, !isOpaque(image));
}

}  // namespace poslab::gfx
