// PosLab — start-up in Dear ImGui's example order: error callback, GL hints, window, context,
// style, backends, fonts, state, loop, teardown in reverse. Everything else lives elsewhere.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "cli/cli.hpp"
#include "commands/spec_format.hpp"
#include "gfx/fonts.hpp"
#include "gfx/gl_context.hpp"
#include "gfx/sanitizer_support.hpp"
#include "panels/registry.hpp"
#include "poslab/base/format.hpp"
#include "ui/application.hpp"
#include "ui/frame_loop.hpp"
#include "ui/session.hpp"

namespace {

void reportGlfwError(int code, const char* description) {
    std::fprintf(stderr, "poslab: GLFW error %d: %s\n", code, description);
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> arguments(argv + 1, argv + argc);
    poslab::gfx::pinDriverLibrariesForLeakChecks();  // GUI and `poslab render` both load drivers
    if (poslab::cli::wantsCommandLine(arguments)) return poslab::cli::runCommandLine(arguments);
    auto launch = poslab::ui::parseLaunchOptions(arguments);
    if (!launch) {
        std::fprintf(
            stderr, "poslab: %s\n",
            poslab::escapeForMessage(launch.error().message, poslab::cli::kMessageLineLength)
                .c_str());
        return poslab::cli::kExitBadInput;
    }

    // 1. Error callback and platform.
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
    // 3. Window and context: --window-size, else 1440x900 or the screen when it is smaller (a
    //    1024x768 projector).
    int windowWidth = launch->windowWidth, windowHeight = launch->windowHeight;
    if (!launch->windowSizeGiven) {
        if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
            if (const GLFWvidmode* mode = glfwGetVideoMode(monitor)) {
                windowWidth = std::clamp(mode->width, 320, windowWidth);
                windowHeight = std::clamp(mode->height, 240, windowHeight);
            }
        }
    }
    GLFWwindow* window = glfwCreateWindow(windowWidth, windowHeight, "PosLab", nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "poslab: could not open an OpenGL 3.3 window\n");
        glfwTerminate();
        return 1;
    }
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
        poslab::ui::Application application(poslab::ui::makePanels());
        if (auto status = application.initialize(window, &fonts); !status) {
            std::fprintf(
                stderr, "poslab: %s\n",
                poslab::escapeForMessage(status.error().message, poslab::cli::kMessageLineLength)
                    .c_str());
            return 1;
        }
        // The session: --session FILE, else the one remembered from the last interactive run
        // (scripted runs leave it alone unless --remember). Problems are reported, never fatal.
        const bool scripted = !launch->screenshotPath.empty() || launch->benchFrames > 0 ||
                              launch->soakFrames > 0 || launch->tourCheck || launch->checkLayout;
        const std::string remembered =
            launch->fresh || (scripted && !launch->remember) ? "" : poslab::ui::rememberedSessionPath();
        if (!launch->sessionPath.empty()) {
            if (auto status = poslab::ui::openSession(application, launch->sessionPath); !status) {
                std::fprintf(stderr, "poslab: ignored the session: %s\n",
                             poslab::escapeForMessage(status.error().message,
                                                      poslab::cli::kMessageLineLength)
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
                                                      poslab::cli::kMessageLineLength)
                                 .c_str());
                if (launch->tourCheck) return poslab::cli::kExitBadInput;
                application.setStatus("Ignored the lessons: " + status.error().message);
            }
        }
        if (launch->lesson > 0) {
            if (auto status = application.startLesson(launch->lesson); !status) {
                std::fprintf(stderr, "poslab: %s\n",
                             poslab::escapeForMessage(status.error().message,
                                                      poslab::cli::kMessageLineLength)
                                 .c_str());
                return poslab::cli::kExitBadInput;
            }
        }
        if (launch->presentation) application.tour().setPresentation(application.state(), true);
        if (launch->zoom > 0) application.setZoom(launch->zoom);
        if (!launch->openPath.empty()) {
            if (auto status = application.openFile(launch->openPath); !status) {
                std::fprintf(stderr, "poslab: %s\n",
                             poslab::escapeForMessage(status.error().message,
                                                      poslab::cli::kMessageLineLength)
                                 .c_str());
                return poslab::cli::kExitBadInput;
            }
        }
        if (!launch->initialView.empty()) {
            if (auto status = application.selectView(launch->initialView); !status) {
                std::fprintf(stderr, "poslab: %s\n",
                             poslab::escapeForMessage(status.error().message,
                                                      poslab::cli::kMessageLineLength)
                                 .c_str());
                return poslab::cli::kExitBadInput;
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
                poslab::escapeForMessage(error.what(), poslab::cli::kMessageLineLength).c_str());
            exitCode = 1;
        }
        for (const std::string& path : {remembered, launch->saveSessionPath}) {
            if (path.empty()) continue;
            if (auto status = poslab::ui::saveSession(application, path); !status) {
                std::fprintf(stderr, "poslab: could not save the session: %s\n",
                             poslab::escapeForMessage(status.error().message,
                                                      poslab::cli::kMessageLineLength)
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
