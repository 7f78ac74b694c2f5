// PosLab — start-up in Dear ImGui's example order: error callback, GL hints, window, context,
// style, backends, fonts, state, loop, teardown in reverse. Everything else lives elsewhere.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "cli/cli.hpp"
#include "cli/manual.hpp"
#include "commands/spec_format.hpp"
#include "gfx/cairo_renderer.hpp"
#include "gfx/fonts.hpp"
#include "gfx/gl_context.hpp"
#include "gfx/sanitizer_support.hpp"
#include "panels/registry.hpp"
#include "poslab/base/format.hpp"
#include "poslab/views/icon_figures.hpp"
#include "ui/application.hpp"
#include "ui/frame_loop.hpp"
#include "ui/session.hpp"

namespace {

void reportGlfwError(int code, const char* description) {
    std::fprintf(stderr, "poslab: GLFW error %d: %s\n", code, description);
}

// The first window (no --window-size): the default size, meant at 100% scale, times the
// monitor's content scale (Xft.dpi / 96 on X11), within the monitor's work area less the window
// frame, centred in it. X11 and Windows size windows in pixels; where the framebuffer is already
// larger than the window (Wayland, macOS) the system scales it and only the work area applies.
void fitFirstWindow(GLFWwindow* window, int defaultWidth, int defaultHeight) {
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    if (!monitor) return;
    int areaX = 0, areaY = 0, areaWidth = 0, areaHeight = 0;
    glfwGetMonitorWorkarea(monitor, &areaX, &areaY, &areaWidth, &areaHeight);
    if (areaWidth <= 0 || areaHeight <= 0) return;
    float scaleX = 1, scaleY = 1;
    glfwGetMonitorContentScale(monitor, &scaleX, &scaleY);
    int windowWidth = 0, windowHeight = 0, pixelWidth = 0, pixelHeight = 0;
    glfwGetWindowSize(window, &windowWidth, &windowHeight);
    glfwGetFramebufferSize(window, &pixelWidth, &pixelHeight);
    const bool systemScales = windowWidth > 0 && pixelWidth > windowWidth;
    const float scale = systemScales ? 1.0f : std::clamp(std::max(scaleX, scaleY), 1.0f, 4.0f);
    int left = 0, top = 0, right = 0, bottom = 0;  // the window manager's frame (0 until mapped on
    glfwGetWindowFrameSize(window, &left, &top, &right, &bottom);  // some; then a guess of 0)
    const int roomWidth = std::max(320, areaWidth - left - right);
    const int roomHeight = std::max(240, areaHeight - top - bottom);
    const int width = std::clamp(int(std::lround(float(defaultWidth) * scale)), 320, roomWidth);
    const int height = std::clamp(int(std::lround(float(defaultHeight) * scale)), 240, roomHeight);
    glfwSetWindowSize(window, width, height);
    glfwSetWindowPos(window, areaX + left + (roomWidth - width) / 2,
                     areaY + top + (roomHeight - height) / 2);
}

// The window's own icon (_NET_WM_ICON on X11: task bars and Alt+Tab show it before the desktop
// file is matched, and when PosLab runs uninstalled), drawn by the figure the installed icons
// are made from.
void setWindowIcon(GLFWwindow* window) {
#ifndef __APPLE__  // macOS takes the icon from the bundle; GLFW refuses to set one
    std::vector<poslab::ImageRgba> images;
    for (int size : {16, 32, 48, 64, 128}) {
        auto figure = poslab::iconFigure(float(size));
        if (!figure) continue;
        auto image = poslab::gfx::rasterizeFigure(*figure);
        if (image && image->width == size && image->height == size)
            images.push_back(std::move(image).value());
    }
    std::vector<GLFWimage> icons;
    for (poslab::ImageRgba& image : images)
        icons.push_back({image.width, image.height, image.pixels.data()});
    if (!icons.empty()) glfwSetWindowIcon(window, int(icons.size()), icons.data());
#else
    (void)window;
#endif
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> arguments(argv + 1, argv + argc);
    // The command line loads no GL driver unless it draws with GL, and OffscreenRenderer pins
    // them itself then: pinning here cost every export, Cairo render, --help and refusal about
    // 40 ms of CPU under ASan (dlopen of swrast_dri.so and its LLVM), most of such a process.
    if (poslab::cli::wantsCommandLine(arguments)) {
        // The completions offer --view's names: the panels' titles, as --view takes them.
        if (!arguments.empty() && arguments.front() == "--completions") {
            std::vector<std::string> views;
            for (const auto& panel : poslab::panels::makePanels()) {
                std::string name = panel->title();
                for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
                views.push_back(std::move(name));
            }
            poslab::cli::setViewNames(std::move(views));
        }
        return poslab::cli::runCommandLine(arguments);
    }
    auto launch = poslab::ui::parseLaunchOptions(arguments);
    if (!launch) {
        std::fprintf(
            stderr, "poslab: %s\n",
            poslab::escapeForMessage(launch.error().message, poslab::commands::kMessageLineLength)
                .c_str());
        return poslab::kExitBadInput;
    }

    // 1. Error callback and platform (the drivers GLFW's context loads kept mapped for
    //    LeakSanitizer).
    poslab::gfx::pinDriverLibrariesForLeakChecks();
    glfwSetErrorCallback(reportGlfwError);
    if (!glfwInit()) {
        std::fprintf(stderr,
                     "poslab: no display to open a window on; figures can still be made with "
                     "`poslab render` (see poslab render --help)\n");
        return 1;
    }
    // 2. GL hints: 3.3 core, as the shaders are written.
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    // 3. Window and context: --window-size exactly, else fitted to the monitor (fitFirstWindow),
    //    hidden until it has its size and place so it does not jump.
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    GLFWwindow* window =
        glfwCreateWindow(launch->windowWidth, launch->windowHeight, "PosLab", nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "poslab: could not open an OpenGL 3.3 window\n");
        glfwTerminate();
        return 1;
    }
    if (!launch->windowSizeGiven) fitFirstWindow(window, launch->windowWidth, launch->windowHeight);
    setWindowIcon(window);
    glfwShowWindow(window);
    glfwMakeContextCurrent(window);
    glfwSwapInterval(1);
    if (!poslab::gfx::loadGlFunctions(glfwGetProcAddress)) {
        std::fprintf(stderr, "poslab: could not load OpenGL 3.3 functions\n");
        return 1;
    }
    // 4. Dear ImGui context and style.
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // the layout is fixed; nothing to remember in imgui.ini
    ImGui::StyleColorsDark();
    ImGui::GetStyle().FrameRounding = 3.0f;
    ImGui::GetStyle().WindowRounding = 0.0f;
    // 5. Platform and renderer backends.
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    // 6. Fonts.
    poslab::gfx::FontSet fonts;
    fonts.load(16.0f);
    int exitCode = 0;
    {
        // 7. Application state (scoped: its GL textures go before the context does).
        poslab::ui::Application application(poslab::panels::makePanels());
        if (auto status = application.initialize(window, &fonts); !status) {
            std::fprintf(stderr, "poslab: %s\n",
                         poslab::escapeForMessage(status.error().message,
                                                  poslab::commands::kMessageLineLength)
                             .c_str());
            return 1;
        }
        // The session: --session FILE, else the one remembered from the last interactive run
        // (scripted runs leave it alone unless --remember). Problems are reported, never fatal.
        const bool scripted = !launch->screenshotPath.empty() || launch->benchFrames > 0 ||
                              launch->soakFrames > 0 || launch->tourCheck || launch->checkLayout;
        const std::string remembered = launch->fresh || (scripted && !launch->remember)
                                           ? ""
                                           : poslab::state::rememberedSessionPath();
        application.keepWindowSize = launch->windowSizeGiven;  // --window-size wins
        if (!launch->sessionPath.empty()) {
            if (auto status = poslab::ui::openSession(application, launch->sessionPath); !status) {
                std::fprintf(stderr, "poslab: ignored the session: %s\n",
                             poslab::escapeForMessage(status.error().message,
                                                      poslab::commands::kMessageLineLength)
                                 .c_str());
                application.setStatus("Ignored the session: " + status.error().message);
            }
        } else if (!remembered.empty()) {
            poslab::ui::restoreRememberedSession(application, remembered);
        }
        // A bad lessons file is reported in one line; the built-in lessons remain (--tour-check,
        // which exists to check the file, fails instead).
        if (!launch->lessonsPath.empty()) {
            if (auto status = application.tour().openFile(launch->lessonsPath, application.state());
                !status) {
                std::fprintf(stderr, "poslab: ignored the lessons: %s\n",
                             poslab::escapeForMessage(status.error().message,
                                                      poslab::commands::kMessageLineLength)
                                 .c_str());
                if (launch->tourCheck) return poslab::kExitBadInput;
                application.setStatus("Ignored the lessons: " + status.error().message);
            }
        }
        if (launch->lesson > 0) {
            if (auto status = application.startLesson(launch->lesson); !status) {
                std::fprintf(stderr, "poslab: %s\n",
                             poslab::escapeForMessage(status.error().message,
                                                      poslab::commands::kMessageLineLength)
                                 .c_str());
                return poslab::kExitBadInput;
            }
        }
        if (launch->presentation) application.tour().setPresentation(application.state(), true);
        if (launch->zoom > 0) application.setZoom(launch->zoom);
        // A file PosLab cannot use (an empty JSON, a package.json, a folder) still opens the
        // window, with the reason in its status line: from a file manager there is no terminal
        // to read it in. Scripted runs finish, then exit 2.
        bool openFailed = false;
        if (!launch->openPath.empty()) {
            if (auto status = application.openFile(launch->openPath); !status) {
                std::fprintf(stderr, "poslab: %s\n",
                             poslab::escapeForMessage(status.error().message,
                                                      poslab::commands::kMessageLineLength)
                                 .c_str());
                application.setStatus(status.error().message);
                openFailed = true;
            }
        }
        application.keepWindowSize = false;  // File > Open session later sets the window
        if (launch->sessionPath.empty()) poslab::ui::showFirstStartHint(application);
        if (!launch->initialView.empty()) {
            if (auto status = application.selectView(launch->initialView); !status) {
                std::fprintf(stderr, "poslab: %s\n",
                             poslab::escapeForMessage(status.error().message,
                                                      poslab::commands::kMessageLineLength)
                                 .c_str());
                return poslab::kExitBadInput;
            }
        }
        if (launch->exportDialog) application.openExportDialog();  // after the view is chosen
        // 8. Main loop.
        // The GUI boundary: an exception ends the run with one line, not std::terminate.
        try {
            exitCode = poslab::ui::runFrameLoop(window, application, *launch);
        } catch (const std::exception& error) {
            std::fprintf(
                stderr, "poslab: unexpected error: %s\n",
                poslab::escapeForMessage(error.what(), poslab::commands::kMessageLineLength)
                    .c_str());
            exitCode = 1;
        }
        // A file the view refused once it read it (a config.json that is not JSON) is only in
        // the status line's pixels: a script is told as for a file refused before.
        if (!openFailed && scripted && !launch->openPath.empty()) {
            if (const std::string problem = application.openedFileProblem(launch->openPath);
                !problem.empty()) {
                std::fprintf(stderr, "poslab: %s\n",
                             poslab::escapeForMessage(problem, poslab::commands::kMessageLineLength)
                                 .c_str());
                openFailed = true;
            }
        }
        if (openFailed && scripted && exitCode == 0) exitCode = poslab::kExitBadInput;
        for (const std::string& path : {remembered, launch->saveSessionPath}) {
            if (path.empty()) continue;
            if (auto status = poslab::ui::saveSession(application, path); !status) {
                std::fprintf(stderr, "poslab: could not save the session: %s\n",
                             poslab::escapeForMessage(status.error().message,
                                                      poslab::commands::kMessageLineLength)
                                 .c_str());
            }
        }
    }
    // 9. Teardown in reverse.
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return exitCode;
}
