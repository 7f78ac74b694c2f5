// The GLFW 3.3 functions web/include/GLFW/glfw3.h declares, for emscripten's GLFW 3.2 port.
#include <GLFW/glfw3.h>
#include <emscripten/html5.h>

extern "C" {

void glfwGetWindowContentScale(GLFWwindow*, float* xscale, float* yscale) {
    if (xscale) *xscale = 1.0f;
    if (yscale) *yscale = 1.0f;
}

GLFWwindowcontentscalefun glfwSetWindowContentScaleCallback(GLFWwindow*,
                                                            GLFWwindowcontentscalefun) {
    return nullptr;  // the scale never changes (see above)
}

void glfwSetWindowMonitor(GLFWwindow*, GLFWmonitor* monitor, int, int, int, int, int) {
    if (monitor) {
        emscripten_request_fullscreen("#canvas", false);
    } else {
        emscripten_exit_fullscreen();
    }
}

}  // extern "C"
