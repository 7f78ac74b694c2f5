// frame_loop.hpp — the GUI's main loop: frame pacing, benchmarks and scripted screenshots.
//
// Frames are drawn only when something happens (input, an animation, a pending screenshot) and
// never faster than 60 per second, so an idle PosLab uses no CPU even where vsync is ignored
// (Xvfb, some remote desktops).
#pragma once

#include <string>
#include <vector>

#include "poslab/base/result.hpp"
#include "ui/application.hpp"

struct GLFWwindow;

namespace poslab::ui {

Result<LaunchOptions> parseLaunchOptions(const std::vector<std::string>& arguments);
int runFrameLoop(GLFWwindow* window, Application& application, const LaunchOptions& options);
// One frame with the real input: the web page's loop (web_main.cpp) calls it once per
// animation frame, since a browser tab cannot block in a loop of its own.
void renderInteractiveFrame(GLFWwindow* window, Application& application);

}  // namespace poslab::ui
