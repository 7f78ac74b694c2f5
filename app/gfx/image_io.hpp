// image_io.hpp — pixels out of GL, and PNG encoding for every PNG PosLab writes (screenshots,
// figure files, the heatmaps embedded in SVG).
#pragma once

#include <string>

#include "poslab/base/result.hpp"
#include "poslab/figure/colormap.hpp"

namespace poslab::gfx {

ImageRgba readFramebuffer(int width, int height);  // the bound framebuffer, top row first

// ---- PNG: the one encoder (stb_image_write; Debian's libstb provides its implementation)
// The PNG bytes of `image`: RGBA, or RGB (alpha dropped) when alpha is false.
Result<std::string> encodePng(const ImageRgba& image, bool alpha);
// encodePng into `path` atomically (temp + rename); an empty image is an error.
Status writePngFile(const ImageRgba& image, const std::string& path, bool alpha);
Status savePng(const ImageRgba& image, const std::string& path);  // screenshots: RGBA

}  // namespace poslab::gfx
