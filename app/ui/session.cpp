#include "ui/session.hpp"

#include "ui/application.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "poslab/base/format.hpp"
#include "state/session_files.hpp"
#include "ui/key_help.hpp"
#include "ui/widgets.hpp"

namespace poslab::ui {

// ---------------------------------------------------------------------------------------------
// The window
// ---------------------------------------------------------------------------------------------

state::SessionLayout captureLayout(GLFWwindow* window, const std::string& view, bool fullScreen) {
    state::SessionLayout layout;
    layout.view = view;
    layout.fullScreen = fullScreen;
    if (window && !fullScreen) {
        glfwGetWindowPos(window, &layout.windowX, &layout.windowY);
        glfwGetWindowSize(window, &layout.windowWidth, &layout.windowHeight);
    }
    return layout;
}

void applyWindowLayout(GLFWwindow* window, const state::SessionLayout& layout) {
    if (!window || layout.windowWidth < 320 || layout.windowHeight < 240) return;
    // Never larger than the screen, and on it: a session from a bigger monitor stays usable.
    int width = layout.windowWidth, height = layout.windowHeight;
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
        if (const GLFWvidmode* mode = glfwGetVideoMode(monitor)) {
            width = std::min(width, mode->width);
            height = std::min(height, mode->height);
            const int x = std::clamp(layout.windowX, 0, std::max(0, mode->width - width));
            const int y = std::clamp(layout.windowY, 0, std::max(0, mode->height - height));
            glfwSetWindowPos(window, x, y);
        }
    }
    glfwSetWindowSize(window, width, height);
}

// ---------------------------------------------------------------------------------------------
// The running application
// ---------------------------------------------------------------------------------------------

Status openSession(Application& application, const std::string& path,
                   state::Warnings* warningsOut) {
    state::AppState state = application.state();
    state::SessionLayout layout;
    state::Warnings warnings;
    if (auto s = state::loadSessionFile(path, state, layout, warnings); !s) return s;
    // What the views read from files (a config's layers, a loaded table) is not in the session:
    // read again, one line for a file that is gone.
    for (std::string& w : state::rereadSessionFiles(state)) warnings.push_back(std::move(w));
    application.state() = state;
    if (!layout.view.empty()) {
        if (auto s = application.selectView(layout.view); !s)
            warnings.push_back("session.view: " + s.error().message);  // the value quoted, cut
    }
    if (!application.keepWindowSize) {
        if (!layout.fullScreen) applyWindowLayout(application.window(), layout);
        application.tour().setFullScreen(application.window(), layout.fullScreen);
    }
    for (const std::string& w : warnings)
        std::fprintf(stderr, "poslab: %s\n",
                     escapeForMessage(path + ": " + w, 2 * kMessagePathLength).c_str());
    application.setStatus(sessionOpenedMessage(path, warnings));
    if (warningsOut) *warningsOut = warnings;
    return success();
}

std::string sessionOpenedMessage(const std::string& path, const state::Warnings& warnings) {
    if (warnings.empty()) return "Opened session " + path;
    const std::size_t skipped = warnings.size();
    return "Opened session " + path + " (" + std::to_string(skipped) +
           (skipped == 1 ? " setting" : " settings") + " skipped: " + warnings.front() + ")";
}

Status saveSession(Application& application, const std::string& path) {
    const state::SessionLayout layout = captureLayout(
        application.window(), application.currentView(), application.tour().fullScreen());
    return state::saveSessionFile(path, application.state(), layout);
}

std::string restoreRememberedSession(Application& application, const std::string& path) {
    std::error_code error;
    if (path.empty() || !std::filesystem::exists(path, error)) return "";
    if (Status s = openSession(application, path); !s) {
        const std::string aside = path + ".bad";
        std::filesystem::rename(path, aside, error);
        const std::string message = "ignored the remembered session: " + s.error().message +
                                    (error ? "" : " (kept as " + aside + ")");
        std::fprintf(stderr, "poslab: %s\n",
                     escapeForMessage(message, 2 * kMessagePathLength).c_str());
        application.setStatus(message);
        return message;
    }
    return "";
}

void showFirstStartHint(Application& application) {
    if (!application.status().empty() || application.state().tour.lesson >= 0) return;
    const std::string remembered = state::rememberedSessionPath();
    std::error_code error;
    if (!remembered.empty() && std::filesystem::exists(remembered, error)) return;
    application.setStatus(std::string(kFirstStartHint));
}

void SessionDialog::draw(Application& application) {
    if (request_ != Request::None) {
        mode_ = request_;
        request_ = Request::None;
        message_.clear();
        if (path_.empty()) {
            const char* home = std::getenv("HOME");
            path_ = std::string(home ? home : ".") + "/poslab-session.json";
        }
        ImGui::OpenPopup("Session");
    }
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 34, 0));
    if (!ImGui::BeginPopupModal("Session", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    const bool saving = mode_ == Request::Save;
    ImGui::TextUnformatted(saving ? "Save every view's settings, the open view and the window to:"
                                  : "Open a session file (settings, open view, window):");
    ImGui::SetNextItemWidth(-1);
    const bool enter = inputString("##session path", &path_, ImGuiInputTextFlags_EnterReturnsTrue);
    if (!message_.empty()) {
        errorText(message_);
    }
    if (ImGui::Button(saving ? "Save" : "Open") || enter) {
        const Status s = saving ? saveSession(application, path_) : openSession(application, path_);
        if (s) {
            if (saving) application.setStatus("Saved session " + path_);
            ImGui::CloseCurrentPopup();
        } else {
            message_ = s.error().message;
        }
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false))
        ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

}  // namespace poslab::ui
