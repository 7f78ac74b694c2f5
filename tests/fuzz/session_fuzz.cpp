// Saved sessions (ui/session_format.hpp): any text is an Error that changes nothing, or applies
// what it can with one-line warnings. Whatever was accepted must save and read back unchanged
// and without warnings (a session that could not be reopened would be a bug). JSON without the
// session header goes through applyStateJson too, as lessons do. Nothing is written to disk.
#include <cstdint>
#include <string>
#include <string_view>

#include "poslab/io/json_reader.hpp"
#include "state/session_format.hpp"

namespace {

using nlohmann::json;
using poslab::state::AppState;
using poslab::state::SessionLayout;
using poslab::state::Warnings;

bool oneLine(const std::string& text) {
    return text.find('\n') == std::string::npos && text.find('\r') == std::string::npos;
}

void requireOneLine(const Warnings& warnings) {
    for (const std::string& w : warnings) {
        if (!oneLine(w)) __builtin_trap();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const json defaults = poslab::state::sessionToJson(AppState{}, SessionLayout{});
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    AppState state;
    SessionLayout layout;
    Warnings warnings;
    const poslab::Status status = poslab::state::readSessionText(text, state, layout, warnings);
    requireOneLine(warnings);
    const json first = poslab::state::sessionToJson(state, layout);
    if (!status) {
        // A damaged or foreign file changes nothing.
        if (!oneLine(status.error().message) || first != defaults) __builtin_trap();
        // Lessons: the views' state from JSON that has no session header.
        // Through the bounded reader, as lessons are read: depth and memory capped.
        const auto document = poslab::parseJson(text);
        if (document) {
            AppState lesson;
            Warnings lessonWarnings;
            poslab::state::applyStateJson(*document, lesson, lessonWarnings);
            requireOneLine(lessonWarnings);
        }
        return 0;
    }
    // Save (as saveSessionFile writes it) and reopen in a fresh application: the same state,
    // nothing skipped.
    AppState reopened;
    SessionLayout reopenedLayout;
    Warnings again;
    const poslab::Status reread =
        poslab::state::readSessionText(first.dump(2), reopened, reopenedLayout, again);
    if (!reread || !again.empty() ||
        poslab::state::sessionToJson(reopened, reopenedLayout) != first)
        __builtin_trap();
    return 0;
}
