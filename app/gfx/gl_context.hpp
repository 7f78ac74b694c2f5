// gl_context.hpp — the few GL calls the window's frame needs, so ui/ and main.cpp call no GL.
#pragma once

namespace poslab::gfx {

using GlProc = void (*)();                          // what a platform's GL lookup returns
using GlProcLoader = GlProc (*)(const char* name);  // glfwGetProcAddress

bool loadGlFunctions(GlProcLoader loader);  // OpenGL 3.3 core through glad; false: missing
void clearFramebuffer(int width, int height, float red, float green, float blue);  // viewport too
void finishGl();  // waits for the GPU (frame timing in benchmarks)

}  // namespace poslab::gfx
