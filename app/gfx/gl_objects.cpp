#include "gfx/gl_objects.hpp"

#include <vector>

namespace poslab::gfx {

void deleteTexture(GLuint name) { glDeleteTextures(1, &name); }
void deleteFramebuffer(GLuint name) { glDeleteFramebuffers(1, &name); }
void deleteProgram(GLuint name) { glDeleteProgram(name); }
void deleteVertexArray(GLuint name) { glDeleteVertexArrays(1, &name); }
void deleteRenderbuffer(GLuint name) { glDeleteRenderbuffers(1, &name); }

namespace {

Result<GLuint> compile(GLenum stage, std::string_view fileName) {
    const std::string_view source = embeddedShader(fileName);
    if (source.empty()) return Error{"shader '" + std::string(fileName) + "' is not embedded"};
    const GLuint shader = glCreateShader(stage);
    const GLchar* text = source.data();
    const GLint length = GLint(source.size());
    glShaderSource(shader, 1, &text, &length);
    glCompileShader(shader);
    GLint compiled = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
    if (!compiled) {
        GLint logLength = 0;
        glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &logLength);
        std::vector<char> log(std::size_t(std::max(logLength, 1)));
        glGetShaderInfoLog(shader, GLsizei(log.size()), nullptr, log.data());
        glDeleteShader(shader);
        return Error{"shader '" + std::string(fileName) + "' failed to compile: " + log.data()};
    }
    return shader;
}

}  // namespace

Result<Program> buildProgram(std::string_view vertexFile, std::string_view fragmentFile) {
    auto vertex = compile(GL_VERTEX_SHADER, vertexFile);
    if (!vertex) return vertex.error();
    auto fragment = compile(GL_FRAGMENT_SHADER, fragmentFile);
    if (!fragment) {
        glDeleteShader(*vertex);
        return fragment.error();
    }
    Program program(glCreateProgram());
    glAttachShader(program.get(), *vertex);
    glAttachShader(program.get(), *fragment);
    glLinkProgram(program.get());
    glDeleteShader(*vertex);
    glDeleteShader(*fragment);
    GLint linked = 0;
    glGetProgramiv(program.get(), GL_LINK_STATUS, &linked);
    if (!linked) {
        char log[1024] = {};
        glGetProgramInfoLog(program.get(), sizeof log, nullptr, log);
        return Error{"shader program failed to link: " + std::string(log)};
    }
    return program;
}

Texture createTexture2D(int width, int height, GLenum internalFormat, GLenum format, GLenum type,
                        const void* pixels, GLint minFilter, GLint magFilter) {
    GLuint name = 0;
    glGenTextures(1, &name);
    glBindTexture(GL_TEXTURE_2D, name);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, minFilter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, magFilter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexImage2D(GL_TEXTURE_2D, 0, GLint(internalFormat), width, height, 0, format, type, pixels);
    return Texture(name);
}

}  // namespace poslab::gfx
