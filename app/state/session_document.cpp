// session_document.cpp — a whole session (session_format.hpp): the document around the views'
// sections (format, version, window, theme, zoom), the plug-ins' sections, and the session file
// read and written. Each view's own section is session_format.cpp's.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "poslab/base/format.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/io/json_reader.hpp"
#include "poslab/io/output_file.hpp"
#include "state/session_fields.hpp"
#include "state/session_format.hpp"

namespace poslab::state {

using nlohmann::json;

namespace {

inline constexpr EnumCodec<ThemeId> kThemeNames{themeName, parseTheme};

// Every view's state in the session, by key: `each(key, view)` for each.
template <class State, class Each>
void forEachView(State& state, Each each) {
    each("sinusoidal", state.sinusoidal);
    each("similarity", state.similarity);
    each("meaning", state.meaning);
    each("intuition", state.intuition);
    each("extrapolation", state.extrapolation);
    each("compare", state.compare);
    each("rope", state.rope);
    each("visionRope", state.visionRope);
    each("t5", state.t5);
    each("learned", state.learned);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Whole sessions
// ---------------------------------------------------------------------------------------------

json sessionToJson(const AppState& state, const SessionLayout& layout) {
    json session = {{"format", kSessionFormat},
                    {"version", kSessionVersion},
                    {"view", layout.view},
                    {"window",
                     {{"x", layout.windowX},
                      {"y", layout.windowY},
                      {"width", layout.windowWidth},
                      {"height", layout.windowHeight},
                      {"fullScreen", layout.fullScreen}}},
                    {"theme", themeName(state.theme)},
                    {"showControls", state.showControls},
                    {"uiZoom", state.uiZoom},
                    {"linkBase", state.linkBase}};
    forEachView(state, [&](const char* key, const auto& view) { session[key] = toJson(view); });
    state.plugins.write(session);
    return session;
}

void applyStateJson(const json& object, AppState& state, Warnings& warnings) {
    if (!object.is_object()) {
        warnings.push_back("state: expected an object");
        return;
    }
    Fields top(object, "session", warnings);
    top.name("theme", state.theme, kThemeNames);
    top.boolean("showControls", state.showControls);
    top.text("linkBase", state.linkBase);
    double zoom = state.uiZoom;
    top.number("uiZoom", zoom);
    if (zoom >= kMinUiZoom && zoom <= kMaxUiZoom) {
        state.uiZoom = float(zoom);
    } else {
        warnings.push_back("session.uiZoom: must be 0.5..3 (got " + formatValue(zoom, 6) +
                           "); kept " + formatValue(state.uiZoom, 6));
    }
    forEachView(state, [&](const char* key, auto& view) {
        auto it = object.find(key);
        if (it != object.end()) fromJson(*it, view, warnings);
    });
    state.plugins.read(object, warnings);
}

Status applySessionJson(const json& object, AppState& state, SessionLayout& layout,
                        Warnings& warnings) {
    if (!object.is_object()) return Error{"not a PosLab session (expected a JSON object)"};
    auto format = object.find("format");
    if (format == object.end() || !format->is_string() ||
        format->get<std::string>() != kSessionFormat) {
        return Error{"not a PosLab session (\"format\" must be \"" + std::string(kSessionFormat) +
                     "\")"};
    }
    auto version = object.find("version");
    if (version != object.end() && version->is_number_integer()) {
        const bool newer = version->is_number_unsigned()
                               ? version->get<std::uint64_t>() > std::uint64_t(kSessionVersion)
                               : version->get<std::int64_t>() > kSessionVersion;
        if (newer) {
            warnings.push_back("session: written by a newer PosLab (version " + version->dump() +
                               "); settings it added are ignored");
        }
    }
    Fields top(object, "session", warnings);
    top.text("view", layout.view);
    top.child("window", [&](Fields& w) {
        w.integer("x", layout.windowX);
        w.integer("y", layout.windowY);
        w.integer("width", layout.windowWidth);
        w.integer("height", layout.windowHeight);
        w.boolean("fullScreen", layout.fullScreen);
    });
    applyStateJson(object, state, warnings);
    return success();
}

Status saveSessionFile(const std::string& path, const AppState& state,
                       const SessionLayout& layout) {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) {
        std::error_code ignored;
        std::filesystem::create_directories(parent, ignored);  // ~/.config/poslab on first use
    }
    const std::string text = sessionToJson(state, layout).dump(2) + "\n";
    return writeFileAtomically(path, [&](std::FILE* file) -> Status {
        if (std::fwrite(text.data(), 1, text.size(), file) != text.size())
            return Error{"write failed"};
        return success();
    });
}

Status readSessionText(std::string_view text, AppState& state, SessionLayout& layout,
                       Warnings& warnings) {
    if (text.size() > kMaxSessionBytes) return Error{"too large for a session file"};
    auto object = parseJson(text);  // bounded depth and memory; never throws
    if (!object) return object.error();
    return applySessionJson(*object, state, layout, warnings);
}

Status loadSessionFile(const std::string& path, AppState& state, SessionLayout& layout,
                       Warnings& warnings) {
    // Regular files only, through InputFile: a FIFO or a device is refused at once.
    auto text = readUserTextFile(path, kMaxSessionBytes, "a session file");
    if (!text) return text.error();
    if (auto s = readSessionText(*text, state, layout, warnings); !s)
        return Error{escapeForMessage(path, kMessagePathLength) + ": " + s.error().message};
    return success();
}

std::string rememberedSessionPath() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg == '/') {
        return std::string(xdg) + "/poslab/session.json";
    }
    if (const char* home = std::getenv("HOME"); home && *home) {
        return std::string(home) + "/.config/poslab/session.json";
    }
    return "";
}

}  // namespace poslab::state
