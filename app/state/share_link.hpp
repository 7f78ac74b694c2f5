// share_link.hpp — a view and its settings as an address's fragment, so a figure can be handed
// to a class as a link: https://host/poslab/#view=RoPE&s={"rope":{"base":500000}}
//
// The fragment carries the session format (session_format.hpp), compactly: only the values that
// differ from a fresh start, percent-encoded. Opening it sets every view to its defaults, then
// applies those values, so a link shows the same figure wherever it is opened (the page, or
// `poslab 'URL#…'` on the desktop). `#lesson=7` opens a lesson of the built-in tour.
// Standard C++ only (no GL, ImGui or GLFW).
#pragma once

#include <string>
#include <string_view>

#include "poslab/base/result.hpp"
#include "state/app_state.hpp"
#include "state/session_fields.hpp"  // Warnings

namespace poslab::state {

inline constexpr std::size_t kMaxLinkFragmentBytes = 64 * 1024;  // larger: not a PosLab link

// What a link asks for besides the views' settings (already applied to the state).
struct LinkRequest {
    std::string view;  // a tab title ("RoPE"); empty: leave the current tab
    int lesson = 0;    // > 0: start this lesson (1-based)
};

// ---- Writing
// The fragment (without '#') for `view` showing `state`: "view=RoPE" plus "&s=…" when any
// setting differs from a fresh start. Window placement is not part of a link.
std::string linkFragment(const AppState& state, const std::string& view);
// base + '#' + fragment; a '#…' already on base is replaced.
std::string linkAddress(const std::string& base, const std::string& fragment);

// ---- Reading
// True for "http(s)://…#…" and "file://…#…": what `poslab ARG` treats as a link, not a file.
bool isLinkAddress(std::string_view argument);
// Applies a fragment ('#' and anything before it are skipped; percent-encoding is decoded).
// A fragment that is not a PosLab link (unknown field, bad JSON, bad lesson number) is an Error
// and changes nothing; inside valid JSON, a bad value is a warning, as in a session file.
Result<LinkRequest> applyLinkFragment(std::string_view fragment, AppState& state,
                                      Warnings& warnings);

// ---- Percent-encoding (RFC 3986: everything but unreserved characters and ':' ',' is escaped)
std::string percentEncode(std::string_view text);
Result<std::string> percentDecode(std::string_view text);  // Error on a broken %XX

}  // namespace poslab::state
