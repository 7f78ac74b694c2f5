// glad/gl.h for the web build: WebGL2 is OpenGL ES 3.0, whose functions emscripten links
// directly, so there is nothing to load. gfx/ includes <glad/gl.h> on both targets; this header
// stands in for the generated desktop loader (app/CMakeLists.txt) and nothing else.
#pragma once

#include <GLES3/gl3.h>

typedef void (*GLADapiproc)(void);
typedef GLADapiproc (*GLADloadfunc)(const char* name);

// Every ES 3.0 entry point is present once the WebGL2 context exists (glfwCreateWindow).
static inline int gladLoadGL(GLADloadfunc) {
    return 1;
}
