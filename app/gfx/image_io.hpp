// image_io.hpp — pixels out of GL and into PNG files.
#pragma once

#include <string>

#include "poslab/base/result.hpp"
#include "poslab/figure/colormap.hpp"

namespace poslab::gfx {

ImageRgba readFramebuffer(int width, int height);  // the bound framebuffer, top row first
Status savePng(const ImageRgba& image, const std::string& path);  // atomically (temp + rename)

}  // namespace poslab::gfx
