#include "gfx/image_io.hpp"

#include <stb/stb_image_write.h>  // implementation provided by Debian's libstb

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gfx/gl_objects.hpp"
#include "poslab/io/output_file.hpp"

namespace poslab::gfx {

ImageRgba readFramebuffer(int width, int height) {
    ImageRgba image;
    image.width = width;
    image.height = height;
    image.pixels.resize(std::size_t(width) * height * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());
    // GL's first row is the bottom one; images start at the top.
    const std::size_t stride = std::size_t(width) * 4;
    std::vector<std::uint8_t> swap(stride);
    for (int y = 0; y < height / 2; ++y) {
        std::uint8_t* top = &image.pixels[std::size_t(y) * stride];
        std::uint8_t* bottom = &image.pixels[std::size_t(height - 1 - y) * stride];
        std::memcpy(swap.data(), top, stride);
        std::memcpy(top, bottom, stride);
        std::memcpy(bottom, swap.data(), stride);
    }
    return image;
}

Result<std::string> encodePng(const ImageRgba& image, bool alpha) {
    if (image.width <= 0 || image.height <= 0) return Error{"cannot encode an empty image"};
    const int channels = alpha ? 4 : 3;
    std::vector<std::uint8_t> rgb;
    const std::uint8_t* pixels = image.pixels.data();
    if (!alpha) {
        rgb.resize(std::size_t(image.width) * std::size_t(image.height) * 3);
        for (std::size_t i = 0, n = rgb.size() / 3; i < n; ++i)
            std::memcpy(&rgb[i * 3], &image.pixels[i * 4], 3);
        pixels = rgb.data();
    }
    std::string png;
    auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                                   std::size_t(size));
    };
    if (!stbi_write_png_to_func(append, &png, image.width, image.height, channels, pixels,
                                image.width * channels)) {
        return Error{"PNG encoding failed"};
    }
    return png;
}

Status writePngFile(const ImageRgba& image, const std::string& path, bool alpha) {
    if (image.width <= 0 || image.height <= 0)
        return Error{"cannot write an empty image to " + path};
    auto png = encodePng(image, alpha);
    if (!png) return png.error();
    return writeFileAtomically(path, [&](std::FILE* file) -> Status {
        if (std::fwrite(png->data(), 1, png->size(), file) != png->size())
            return Error{"write failed"};
        return success();
    });
}

Status savePng(const ImageRgba& image, const std::string& path) {
    return writePngFile(image, path, true);
}

bool isOpaque(const ImageRgba& image) {
    for (std::size_t i = 3; i < image.pixels.size(); i += 4) {
        if (image.pixels[i] != 255) return false;
    }
    return true;
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

ImageRgba cropImage(const ImageRgba& image, int x, int y, int width, int height) {
    const int x0 = std::clamp(x, 0, image.width), y0 = std::clamp(y, 0, image.height);
    const int x1 = std::clamp(x + std::max(0, width), x0, image.width);
    const int y1 = std::clamp(y + std::max(0, height), y0, image.height);
    ImageRgba crop;
    crop.width = x1 - x0;
    crop.height = y1 - y0;
    if (crop.width == 0 || crop.height == 0) return ImageRgba{};
    crop.pixels.resize(std::size_t(crop.width) * std::size_t(crop.height) * 4);
    for (int row = 0; row < crop.height; ++row) {
        const auto first = image.pixels.begin() + (std::ptrdiff_t(y0 + row) * image.width + x0) * 4;
        std::copy(first, first + std::ptrdiff_t(crop.width) * 4,
                  crop.pixels.begin() + std::ptrdiff_t(row) * crop.width * 4);
    }
    return crop;
}

}  // namespace poslab::gfx
