// GLFW/glfw3.h for the web build: emscripten's GLFW port implements the 3.2 API, and PosLab
// calls three functions GLFW 3.3 added. They are declared here after emscripten's own header and
// implemented for the browser in web/glfw33_compat.cpp, so app/ compiles unchanged.
#pragma once

#include_next <GLFW/glfw3.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*GLFWwindowcontentscalefun)(GLFWwindow* window, float xscale, float yscale);

// The page's canvas is sized in CSS pixels and drawn at that size: the scale is 1.
void glfwGetWindowContentScale(GLFWwindow* window, float* xscale, float* yscale);
GLFWwindowcontentscalefun glfwSetWindowContentScaleCallback(GLFWwindow* window,
                                                            GLFWwindowcontentscalefun callback);
// Full screen (F11): the canvas through the Fullscreen API; a null monitor leaves it.
void glfwSetWindowMonitor(GLFWwindow* window, GLFWmonitor* monitor, int xpos, int ypos, int width,
                          int height, int refreshRate);

#ifdef __cplusplus
}
#endif
