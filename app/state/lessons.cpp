#include "state/lessons.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>

#include "poslab/base/format.hpp"
#include "poslab/io/json_reader.hpp"
#include "state/app_state.hpp"
#include "state/session_format.hpp"

namespace poslab::state {

using nlohmann::json;

namespace {

std::string lower(std::string text) {
    for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// Every key a session's state may hold: a default session written out (the writer walks the same
// field lists the reader does), without the keys only whole session files have.
const json& referenceState() {
    static const json reference = [] {
        json session = sessionToJson(AppState{}, SessionLayout{});
        for (const char* key : {"format", "version", "view", "window"}) session.erase(key);
        return session;
    }();
    return reference;
}

std::string firstUnknownKey(const json& value, const json& reference, const std::string& path) {
    if (!value.is_object() || !reference.is_object())
        return "";  // a leaf: its type is checked later
    for (auto it = value.begin(); it != value.end(); ++it) {
        const std::string where = path + "." + it.key();
        auto known = reference.find(it.key());
        if (known == reference.end()) return where;
        if (std::string inner = firstUnknownKey(*it, *known, where); !inner.empty()) return inner;
    }
    return "";
}

// A string field of `entry`: required (non-empty) or optional (absent leaves `out` alone).
Status readText(const json& entry, const char* key, bool required, std::string& out) {
    auto it = entry.find(key);
    if (it == entry.end()) {
        if (required) return Error{std::string("\"") + key + "\" is missing"};
        return success();
    }
    if (!it->is_string() || it->get_ref<const std::string&>().empty())
        return Error{std::string("\"") + key + "\" must be a non-empty string"};
    // A card holds a few sentences; megabytes of text overflowed ImGui's vertex buffer.
    if (const std::size_t length = it->get_ref<const std::string&>().size();
        length > kMaxLessonText)
        return Error{std::string("\"") + key + "\" is " + std::to_string(length) +
                     " bytes long; at most " + std::to_string(kMaxLessonText)};
    out = it->get<std::string>();
    return success();
}

Status checkView(const std::string& view, const std::vector<std::string>& viewTitles) {
    std::string names;
    for (const std::string& title : viewTitles) {
        if (lower(title) == lower(view)) return success();
        names += (names.empty() ? "" : ", ") + lower(title);
    }
    // Escaped, not dumped: dump() throws on invalid UTF-8 and passes C1 controls through.
    return Error{"\"view\" must be one of " + names + " (got \"" + escapeForMessage(view) + "\")"};
}

// One lesson or step object: its view, text and state, checked and applied to `scratch`.
Status readStep(const json& entry, bool first, const std::string& previousView,
                const std::vector<std::string>& viewTitles, AppState& scratch, LessonStep& step) {
    if (!entry.is_object()) return Error{"expected an object"};
    step.view = previousView;
    if (auto s = readText(entry, "view", first, step.view); !s) return s;
    if (auto s = checkView(step.view, viewTitles); !s) return s;
    if (auto s = readText(entry, "text", true, step.text); !s) return s;
    auto state = entry.find("state");
    step.state = json::object();
    if (state != entry.end()) {
        if (!state->is_object()) return Error{"\"state\" must be an object"};
        step.state = *state;
    }
    // "panel": a lesson's own key (sessions do not hold it): the panel to show when the view
    // shows one at a time, so the card's subject is on screen at projector sizes.
    if (auto panel = step.state.find("panel"); panel != step.state.end()) {
        if (!panel->is_number_integer() || panel->get<long long>() < 1 ||
            panel->get<long long>() > kMaxLessonPanel)
            return Error{"state.panel must be an integer 1.." + std::to_string(kMaxLessonPanel) +
                         " (got " + describeJson(*panel) + ")"};
        step.panel = int(panel->get<long long>());
        step.state.erase("panel");
    }
    if (std::string key = unknownStateKey(step.state); !key.empty())
        return Error{escapeForMessage(key) + ": unknown key"};
    Warnings warnings;
    applyStateJson(step.state, scratch, warnings);
    if (!warnings.empty()) return Error{"state." + warnings.front()};
    return success();
}

}  // namespace

std::string unknownStateKey(const json& state) {
    return firstUnknownKey(state, referenceState(), "state");
}

Result<std::vector<Lesson>> parseLessons(std::string_view jsonText,
                                         const std::vector<std::string>& viewTitles) {
    if (jsonText.size() > kMaxLessonsBytes) return Error{"too large for a lessons file"};
    // Bounded depth and memory; every json exception (1e400 is an out_of_range) caught.
    auto parsed = parseJson(jsonText);
    if (!parsed) {
        // "not valid JSON (parse error at line 3, column 5: syntax error ...)": where to look.
        const std::string& why = parsed.error().message;
        if (why.rfind("not valid JSON: ", 0) == 0)
            return Error{"not valid JSON (" + why.substr(16) + ")"};
        return parsed.error();
    }
    json document = std::move(parsed).value();
    if (!document.is_object() || !document.contains("lessons") || !document["lessons"].is_array())
        return Error{"expected {\"lessons\": [...]}"};
    std::vector<Lesson> lessons;
    for (const json& entry : document["lessons"]) {
        const std::string where = "lesson " + std::to_string(lessons.size() + 1);
        if (!entry.is_object()) return Error{where + ": expected an object"};
        Lesson lesson;
        if (auto s = readText(entry, "title", true, lesson.title); !s)
            return Error{where + ": " + s.error().message};
        // Each lesson is checked from the defaults, as a fresh start (--fresh --lesson N) shows it.
        AppState scratch;
        LessonStep own;
        if (auto s = readStep(entry, true, "", viewTitles, scratch, own); !s)
            return Error{where + ": " + s.error().message};
        lesson.steps.push_back(std::move(own));
        if (auto steps = entry.find("steps"); steps != entry.end()) {
            if (!steps->is_array()) return Error{where + ": \"steps\" must be a list"};
            for (const json& stepEntry : *steps) {
                LessonStep step;
                const std::string stepWhere =
                    where + ", step " + std::to_string(lesson.steps.size());
                if (auto s = readStep(stepEntry, false, lesson.steps.back().view, viewTitles,
                                      scratch, step);
                    !s) {
                    return Error{stepWhere + ": " + s.error().message};
                }
                lesson.steps.push_back(std::move(step));
            }
        }
        lessons.push_back(std::move(lesson));
    }
    if (lessons.empty()) return Error{"the list of lessons is empty"};
    return lessons;
}

Result<std::vector<Lesson>> loadLessonsFile(const std::string& path,
                                            const std::vector<std::string>& viewTitles) {
    // Regular files only, through InputFile: a FIFO or a device is refused at once.
    auto text = readUserTextFile(path, kMaxLessonsBytes, "a lessons file");
    if (!text) return text.error();
    auto lessons = parseLessons(*text, viewTitles);
    if (!lessons)
        return Error{escapeForMessage(path, kMessagePathLength) + ": " + lessons.error().message};
    return lessons;
}

}  // namespace poslab::state
