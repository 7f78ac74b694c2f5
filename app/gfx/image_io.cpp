#include "gfx/image_io.hpp"

#include <stb/stb_image_write.h>  // implementation provided by Debian's libstb

#include <cstdio>
#include <cstring>
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

Status savePng(const ImageRgba& image, const std::string& path) {
    if (image.width <= 0 || image.height <= 0) return Error{"cannot write an empty image to " + path};
    return writeFileAtomically(path, [&](std::FILE* file) -> Status {
        struct Sink {
            std::FILE* file;
            bool failed = false;
        } sink{file};
        auto write = [](void* context, void* data, int size) {
            auto* s = static_cast<Sink*>(context);
            if (std::fwrite(data, 1, std::size_t(size), s->file) != std::size_t(size)) s->failed = true;
        };
        const int ok = stbi_write_png_to_func(write, &sink, image.width, image.height, 4,
                                              image.pixels.data(), image.width * 4);
        if (!ok || sink.failed) return Error{"write failed"};
        return success();
    });
}

}  // namespace poslab::gfx
