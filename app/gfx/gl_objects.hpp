// gl_objects.hpp — move-only owners of GL objects. Only app/gfx includes GL headers.
#pragma once

#include <glad/gl.h>

#include <string>
#include <string_view>
#include <utility>

#include "poslab/base/result.hpp"

namespace poslab::gfx {

// A GL name plus the function that deletes it; move-only.
template <void (*Delete)(GLuint)>
class GlHandle {
public:
    GlHandle() = default;
    explicit GlHandle(GLuint name) : name_(name) {}
    GlHandle(GlHandle&& other) noexcept : name_(std::exchange(other.name_, 0)) {}
    GlHandle& operator=(GlHandle&& other) noexcept {
        if (this != &other) {
            reset();
            name_ = std::exchange(other.name_, 0);
        }
        return *this;
    }
    GlHandle(const GlHandle&) = delete;
    GlHandle& operator=(const GlHandle&) = delete;
    ~GlHandle() { reset(); }

    GLuint get() const { return name_; }
    explicit operator bool() const { return name_ != 0; }
    void reset() {
        if (name_ != 0) Delete(name_);
        name_ = 0;
    }

private:
    GLuint name_ = 0;
};

void deleteTexture(GLuint name);
void deleteFramebuffer(GLuint name);
void deleteProgram(GLuint name);
void deleteVertexArray(GLuint name);
void deleteRenderbuffer(GLuint name);

using Texture = GlHandle<deleteTexture>;
using Framebuffer = GlHandle<deleteFramebuffer>;
using Program = GlHandle<deleteProgram>;
using VertexArray = GlHandle<deleteVertexArray>;
using Renderbuffer = GlHandle<deleteRenderbuffer>;

std::string_view embeddedShader(std::string_view fileName);  // shaders/ contents (generated)

// Compiles and links two embedded shader files; the error carries the GL info log.
Result<Program> buildProgram(std::string_view vertexFile, std::string_view fragmentFile);

Texture createTexture2D(int width, int height, GLenum internalFormat, GLenum format, GLenum type,
                        const void* pixels, GLint minFilter, GLint magFilter);

}  // namespace poslab::gfx
