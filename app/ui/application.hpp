// application.hpp — the GUI's frame: menu bar, view tabs, shortcuts, status line, screenshots.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gfx/fonts.hpp"
#include "gfx/heatmap_textures.hpp"
#include "ui/app_state.hpp"
#include "ui/panel.hpp"

struct GLFWwindow;

namespace poslab::ui {

struct LaunchOptions {
    int benchFrames = 0;          // > 0: drive the base slider for N frames, print timings, quit
    std::string screenshotPath;   // non-empty: save a screenshot after a few frames, quit
    std::string initialView;      // tab to open first
};

class Application {
public:
    Application();
    ~Application();
    Status initialize(GLFWwindow* window, gfx::FontSet* fonts);  // after the ImGui backends
    Status selectView(const std::string& name);  // by tab title, case-insensitive (--view)
    void frame();                     // build one frame's UI (between NewFrame and Render)
    void afterRender(int framebufferWidth, int framebufferHeight);  // screenshots, cache upkeep
    bool wantsAnimation() const { return animating_; }  // keep drawing even without input
    bool quitRequested() const { return quit_; }
    AppState& state() { return state_; }

    std::string requestedScreenshot;  // set by F12 or --screenshot; written after the frame
    std::vector<std::string> droppedFiles;  // from GLFW's drop callback, for the next frame

private:
    void drawMenuBar();
    void handleShortcuts();

    AppState state_;
    std::vector<std::unique_ptr<Panel>> panels_;
    gfx::FontSet* fonts_ = nullptr;
    gfx::HeatmapTextures heatmaps_;
    GLFWwindow* window_ = nullptr;
    std::string status_;
    int viewToSelect_ = -1;  // a tab to bring forward on the next frame
    bool animating_ = false;
    bool quit_ = false;
};

}  // namespace poslab::ui
