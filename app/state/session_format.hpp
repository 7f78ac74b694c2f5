// session_format.hpp — the whole GUI state (every view's parameters, the open view, the window) as
// JSON, and session files: File > Save session / Open session, --session FILE, and the state
// remembered between runs in $XDG_CONFIG_HOME/poslab/session.json (else
// ~/.config/poslab/session.json). Standard C++ only (no GL, ImGui or GLFW), so the fuzzer
// (tests/fuzz/session_fuzz.cpp) and the tests read the built-in views' sections exactly as the
// app does (plug-in sections are read only where app/encodings/ is linked: the app and its
// tests); the window and the dialog are in session.hpp.
//
// Reading never fails half-way into a broken state: a file that is not JSON or not a PosLab
// session is an Error and changes nothing; inside a valid session, a value of the wrong type or
// out of range is reported (one warning line naming the key) and that view keeps its current
// settings. Unknown keys are ignored, so newer files open in older builds.
//
// One toJson/fromJson pair per state struct, both walking the struct's one field list
// (visitFields in session_format.cpp, read and written by state/session_fields.hpp); the whole
// document around them and the session files are session_document.cpp's. An encoding
// added as a plug-in (state/encoding_registry.hpp) brings its own section: nothing here changes.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "poslab/base/result.hpp"
#include "state/app_state.hpp"
#include "state/session_fields.hpp"  // Warnings

namespace poslab::state {

inline constexpr int kSessionVersion = 1;
inline constexpr const char* kSessionFormat = "poslab-session";
inline constexpr std::size_t kMaxSessionBytes = std::size_t(16) << 20;  // larger: not a session

// Where the window was and which tab was open.
struct SessionLayout {
    std::string view;  // tab title ("Similarity"); empty: leave the current tab
    int windowX = 0, windowY = 0;
    int windowWidth = 0, windowHeight = 0;  // 0: unknown, leave the window as it is
    bool fullScreen = false;
};

// ---- One pair per state struct (fromJson applies the keys present; problems go to warnings)
nlohmann::json toJson(const SinusoidalViewState& view);
void fromJson(const nlohmann::json& json, SinusoidalViewState& view, Warnings& warnings);
nlohmann::json toJson(const SimilarityViewState& view);
void fromJson(const nlohmann::json& json, SimilarityViewState& view, Warnings& warnings);
nlohmann::json toJson(const MeaningViewState& view);
void fromJson(const nlohmann::json& json, MeaningViewState& view, Warnings& warnings);
nlohmann::json toJson(const IntuitionViewState& view);
void fromJson(const nlohmann::json& json, IntuitionViewState& view, Warnings& warnings);
nlohmann::json toJson(const ExtrapolationViewState& view);
void fromJson(const nlohmann::json& json, ExtrapolationViewState& view, Warnings& warnings);
nlohmann::json toJson(const VisionRopeViewState& view);
void fromJson(const nlohmann::json& json, VisionRopeViewState& view, Warnings& warnings);
nlohmann::json toJson(const CompareViewState& view);
void fromJson(const nlohmann::json& json, CompareViewState& view, Warnings& warnings);
nlohmann::json toJson(const RopeViewState& view);
void fromJson(const nlohmann::json& json, RopeViewState& view, Warnings& warnings);
nlohmann::json toJson(const T5ViewState& view);
void fromJson(const nlohmann::json& json, T5ViewState& view, Warnings& warnings);
nlohmann::json toJson(const LearnedViewState& view);
void fromJson(const nlohmann::json& json, LearnedViewState& view, Warnings& warnings);

// ---- Whole sessions
nlohmann::json sessionToJson(const AppState& state, const SessionLayout& layout);
// The views' state only, no format header needed: what lessons apply (see tour.hpp).
void applyStateJson(const nlohmann::json& json, AppState& state, Warnings& warnings);
// A full session document: Error (nothing changed) unless it is a JSON object with
// "format": "poslab-session"; otherwise applies what it can.
Status applySessionJson(const nlohmann::json& json, AppState& state, SessionLayout& layout,
                        Warnings& warnings);
// The text of a session file: Error (nothing changed) when it is too large, not JSON or not a
// session; otherwise applySessionJson. What loadSessionFile does after reading the file.
Status readSessionText(std::string_view text, AppState& state, SessionLayout& layout,
                       Warnings& warnings);

// ---- Session files
Status saveSessionFile(const std::string& path, const AppState& state, const SessionLayout& layout);
// Errors start with the path: "/x/session.json: not valid JSON (parse error at line 3, ...)".
Status loadSessionFile(const std::string& path, AppState& state, SessionLayout& layout,
                       Warnings& warnings);
std::string rememberedSessionPath();  // "" when neither XDG_CONFIG_HOME nor HOME is set

}  // namespace poslab::state
