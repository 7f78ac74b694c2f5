#include "gfx/gl_context.hpp"

#include <glad/gl.h>

namespace poslab::gfx {

bool loadGlFunctions(GlProcLoader loader) {
    return gladLoadGL(reinterpret_cast<GLADloadfunc>(loader)) != 0;
}

void clearFramebuffer(int width, int height, float red, float green, float blue) {
    glViewport(0, 0, width, height);
    glClearColor(red, green, blue, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

void finishGl() {
    glFinish();
}

}  // namespace poslab::gfx
