#include "state/share_link.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <charconv>

#include "poslab/io/json_reader.hpp"
#include "state/session_format.hpp"

namespace poslab::state {

namespace {

using json = nlohmann::json;

// The members of `value` that differ from `base`, recursively for objects (arrays and plain
// values are compared whole). Null when nothing differs.
json differences(const json& value, const json& base) {
    if (!value.is_object() || !base.is_object()) return value == base ? json() : value;
    json out = json::object();
    for (auto it = value.begin(); it != value.end(); ++it) {
        auto there = base.find(it.key());
        json changed = there == base.end() ? it.value() : differences(it.value(), *there);
        if (!changed.is_null()) out[it.key()] = std::move(changed);
    }
    return out.empty() ? json() : out;
}

// The session document without what a link does not carry (format header, tab, window, and
// the address links are made for).
json linkableState(const AppState& state) {
    json session = sessionToJson(state, SessionLayout{});
    for (const char* key : {"format", "version", "view", "window", "linkBase"}) session.erase(key);
    return session;
}

bool unreserved(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' ||
           c == '~' || c == ':' || c == ',';
}

int hexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::string percentEncode(std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (unreserved(c)) {
            out += c;
        } else {
            const auto byte = static_cast<unsigned char>(c);
            out += '%';
            out += kHex[byte >> 4];
            out += kHex[byte & 15];
        }
    }
    return out;
}

Result<std::string> percentDecode(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out += text[i];
            continue;
        }
        const int high = i + 2 < text.size() ? hexDigit(text[i + 1]) : -1;
        const int low = i + 2 < text.size() ? hexDigit(text[i + 2]) : -1;
        if (high < 0 || low < 0)
            return Error{"link: broken percent-escape at character " + std::to_string(i + 1)};
        out += char(high * 16 + low);
        i += 2;
    }
    return out;
}

std::string linkFragment(const AppState& state, const std::string& view) {
    std::string fragment = "view=" + percentEncode(view);
    const json changed = differences(linkableState(state), linkableState(AppState{}));
    if (!changed.is_null()) fragment += "&s=" + percentEncode(changed.dump());
    return fragment;
}

std::string linkAddress(const std::string& base, const std::string& fragment) {
    return base.substr(0, base.find('#')) + "#" + fragment;
}

bool isLinkAddress(std::string_view argument) {
    const bool scheme = argument.rfind("http://", 0) == 0 || argument.rfind("https://", 0) == 0 ||
                        argument.rfind("file://", 0) == 0;
    return scheme && argument.find('#') != std::string_view::npos;
}

Result<LinkRequest> applyLinkFragment(std::string_view fragment, AppState& state,
                                      Warnings& warnings) {
    if (const auto hash = fragment.find('#'); hash != std::string_view::npos)
        fragment.remove_prefix(hash + 1);
    if (fragment.size() > kMaxLinkFragmentBytes)
        return Error{"link: longer than " + std::to_string(kMaxLinkFragmentBytes) + " bytes"};
    LinkRequest request;
    std::optional<json> settings;
    std::size_t start = 0;
    while (start < fragment.size()) {
        std::size_t end = fragment.find('&', start);
        if (end == std::string_view::npos) end = fragment.size();
        const std::string_view field = fragment.substr(start, end - start);
        start = end + 1;
        if (field.empty()) continue;
        const auto equals = field.find('=');
        const std::string_view key = field.substr(0, equals);
        auto value = percentDecode(equals == std::string_view::npos ? std::string_view()
                                                                    : field.substr(equals + 1));
        if (!value) return value.error();
        if (key == "view") {
            request.view = *value;
        } else if (key == "lesson") {
            int lesson = 0;
            const auto [last, error] =
                std::from_chars(value->data(), value->data() + value->size(), lesson);
            if (error != std::errc() || last != value->data() + value->size() || lesson < 1 ||
                lesson > 1000)
                return Error{"link: lesson must be 1..1000 (got '" + *value + "')"};
            request.lesson = lesson;
        } else if (key == "s") {
            auto parsed = parseJson(*value);  // bounded depth and size (io/json_reader)
            if (!parsed) return Error{"link: the settings (s=): " + parsed.error().message};
            if (!parsed->is_object()) return Error{"link: the settings (s=) must be a JSON object"};
            settings = std::move(parsed).value();
        } else {
            return Error{"link: unknown field '" + std::string(key) +
                         "' (expected view, lesson or s)"};
        }
    }
    // Every view from its defaults, then the link's values: the same figure wherever it opens.
    json merged = linkableState(AppState{});
    if (settings) merged.merge_patch(*settings);
    AppState fresh = state;
    applyStateJson(merged, fresh, warnings);
    state = std::move(fresh);
    return request;
}

}  // namespace poslab::state
