// session.hpp — sessions in the running application: the window (GLFW), opening and saving from
// the menu and --session FILE, the remembered session at start-up, and the File > Save/Open
// session dialog (ImGui).
//
// The JSON format and session files themselves (AppState <-> JSON, reading and validating every
// value) are GL-free and live in session_format.hpp, so the fuzzer and the tests use the same code.
#pragma once

#include <string>

#include "poslab/base/result.hpp"
#include "state/session_format.hpp"

struct GLFWwindow;

namespace poslab::ui {

// ---- The window (GLFW)
state::SessionLayout captureLayout(GLFWwindow* window, const std::string& view, bool fullScreen);
void applyWindowLayout(GLFWwindow* window,
                       const state::SessionLayout& layout);  // position and size

// ---- The running application
class Application;
// Loads a session file into the application: state, open view, window, full screen. Warnings go
// to the status line and stderr; an Error (damaged or foreign file) changes nothing.
Status openSession(Application& application, const std::string& path,
                   state::Warnings* warnings = nullptr);
// The status line after opening `path`: "Opened session FILE", or with the count of settings
// skipped and the first one's warning ("(1 setting skipped: rope.configPath: …)").
std::string sessionOpenedMessage(const std::string& path, const state::Warnings& warnings);
Status saveSession(Application& application, const std::string& path);
// The remembered session at start-up: loaded when it exists; a damaged one is reported, renamed
// to session.json.bad (so it is not overwritten) and ignored. Returns the message shown, if any.
std::string restoreRememberedSession(Application& application, const std::string& path);
// A first start (no session remembered in ~/.config/poslab, none opened, no lesson shown and
// nothing else said): the status line points at the Tour and at Help's list of keys.
void showFirstStartHint(Application& application);

// File > Save session… / Open session…: a path field in a modal popup.
class SessionDialog {
  public:
    void openSave() { request_ = Request::Save; }
    void openLoad() { request_ = Request::Load; }
    void draw(Application& application);  // once per frame, inside the main window

  private:
    enum class Request { None, Save, Load };
    Request request_ = Request::None;
    Request mode_ = Request::None;
    std::string path_;
    std::string message_;  // the last attempt's error, shown in the popup
};

}  // namespace poslab::ui
