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
// Figure files: RGB when every pixel is opaque, RGBA otherwise. Atomically.
Status writePng(const ImageRgba& image, const std::string& path);
bool isOpaque(const ImageRgba& image);  // every alpha 255

// ---- Pixels
// GL framebuffers cleared to transparent and drawn with ImGui's blending hold premultiplied
// colour with correct alpha; this turns them into the straight alpha PNG files expect.
void unpremultiply(ImageRgba& image);
// The pixels of [x, x + width) x [y, y + height), clamped to the image (empty when outside it).
ImageRgba cropImage(const ImageRgba& image, int x, int y, int width, int height);

}  // namespace poslab::gfx
