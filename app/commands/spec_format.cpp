#include "commands/spec_format.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "commands/option_reader.hpp"
#include "poslab/base/format.hpp"
#include "poslab/io/json_reader.hpp"
#include "poslab/io/output_file.hpp"

#include "poslab/figure/figure_controls.hpp"
#include "state/ranges.hpp"

namespace poslab::commands {

namespace {

using nlohmann::json;

// A JSON scalar as the text a user would type after the option.
Result<std::string> scalarText(const json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number_integer()) return value.dump();
    if (value.is_number_float()) {
        const double number = value.get<double>();
        // 512.0 is an integer to --seq-len; other numbers in their shortest round-trip form.
        if (std::isfinite(number) && number == std::floor(number) && std::fabs(number) < 1e15) {
            return std::to_string(static_cast<long long>(number));
        }
        char buffer[32];
        auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, number);
        if (error != std::errc()) return Error{"unprintable number"};
        return std::string(buffer, end);
    }
    return Error{"not a scalar"};
}

// A value for "(got ...)": its JSON when short and flat, else what kind of value it is. Never
// the JSON of a deeply nested value: dump() recurses once per level.
std::string describe(const json& value) {
    const bool flat =
        value.is_primitive() ||
        std::all_of(value.begin(), value.end(), [](const json& e) { return e.is_primitive(); });
    if (flat) {
        std::string text = value.dump();
        if (text.size() <= 80) return text;
    }
    const std::string count = std::to_string(value.size());
    if (value.is_array()) return "a list of " + count + (value.size() == 1 ? " value" : " values");
    if (value.is_object())
        return "an object of " + count + (value.size() == 1 ? " field" : " fields");
    if (value.is_string())
        return "text of " + std::to_string(value.get_ref<const std::string&>().size()) + " bytes";
    return value.type_name();
}

std::string fieldList(const std::vector<OptionSpec>& options) {
    std::string text = "view";
    for (const OptionSpec& o : options) {
        std::string field = o.name;
        std::replace(field.begin(), field.end(), '-', '_');
        text += ", " + field;
    }
    return text;
}

std::string viewNames(const CommandRegistry& registry) {
    std::string names;
    for (const RenderView& v : registry.renders) names += (names.empty() ? "" : ", ") + v.name;
    return names;
}

}  // namespace

std::string printable(std::string_view text) {
    // The same escapes as every message (format.hpp), uncut: also invalid UTF-8 and C1 controls.
    return escapeForMessage(text, kMessageLineLength);
}

std::vector<OptionSpec> renderOptionsFor(const RenderView& view) {
    std::vector<OptionSpec> options = view.options;
    for (const OptionSpec& o : renderCommonOptions()) options.push_back(o);
    return options;
}

Result<ArgMap> specEntryArguments(const json& entry, const RenderView& view) {
    const std::vector<OptionSpec> options = renderOptionsFor(view);
    ArgMap args;
    for (const auto& [key, value] : entry.items()) {
        if (key == "view") continue;
        std::string name = key;
        std::replace(name.begin(), name.end(), '_', '-');
        auto option = std::find_if(options.begin(), options.end(),
                                   [&](const OptionSpec& o) { return o.name == name; });
        if (option == options.end()) {
            return Error{"unknown field '" + printable(key) + "' (" + view.name +
                         " takes: " + fieldList(options) + ")"};
        }
        // "d_model" and "d-model" name one option: the second spelling is the field again.
        if (args.has(name)) return Error{"field '" + printable(key) + "' given twice"};
        if (option->valueName.empty()) {  // a flag
            if (!value.is_boolean())
                return Error{"field '" + key + "' must be true or false (got " + describe(value) +
                             ")"};
            if (value.get<bool>()) args.set(name, "");
            continue;
        }
        const std::string expected = "field '" + key + "' needs a number, text or list, as --" +
                                     name + " " + option->valueName + " would";
        if (value.is_array()) {
            std::string joined;
            for (const json& element : value) {
                auto text = scalarText(element);
                if (!text) return Error{expected + " (got " + describe(value) + ")"};
                joined += (joined.empty() ? "" : ",") + *text;
            }
            args.set(name, joined);
            continue;
        }
        auto text = scalarText(value);
        if (!text) return Error{expected + " (got " + describe(value) + ")"};
        args.set(name, *text);
    }
    return args;
}

Result<SpecEntry> readSpecEntry(const json& entry, const CommandRegistry& registry,
                                const std::string& folder) {
    if (!entry.is_object()) {
        return Error{std::string("expected an object like {\"view\": ..., \"out\": ...} (got ") +
                     entry.type_name() + ")"};
    }
    auto viewField = entry.find("view");
    if (viewField == entry.end() || !viewField->is_string())
        return Error{"field 'view' must name a view (" + viewNames(registry) + ")"};
    const std::string viewName = viewField->get<std::string>();
    auto view = std::find_if(registry.renders.begin(), registry.renders.end(),
                             [&](const RenderView& v) { return v.name == viewName; });
    if (view == registry.renders.end()) {
        return Error{"unknown view '" + printable(viewName) + "' (views: " + viewNames(registry) +
                     ")"};
    }
    auto args = specEntryArguments(entry, *view);
    if (!args) return Error{printable(args.error().message)};
    std::string outText;  // a path: relative ones are the spec file's folder's
    OptionReader read(*args);
    read.path("out", outText, "field 'out' is required (a .png, .svg or .pdf path)");
    if (!read.ok()) return read.error();
    const std::filesystem::path out = outText;
    if (out.is_relative() && !folder.empty())
        args.value().set("out", (std::filesystem::path(folder) / out).string());
    return SpecEntry{&*view, std::move(args).value()};
}

namespace {

// One SAX pass over a spec's text, no tree: how many figures its list holds and the first field
// each figure gives twice. nlohmann's callback parser would do the same while building the tree,
// but it scans the whole list at the end of every figure it keeps, which made a spec of 10,000
// figures take seconds where this pass takes milliseconds.
struct SpecListScan {
    int depth = 0;               // containers open
    bool topIsList = false;      // the text's value is a JSON list
    std::size_t elements = 0;    // list elements begun; the current figure is elements - 1
    std::set<std::string> keys;  // the current figure's fields so far
    std::map<std::size_t, std::string> duplicated;  // figure index -> its first repeated field

    void begin() {  // a value starts at the current depth
        if (depth == 1) {
            ++elements;
            keys.clear();
        }
    }
    bool scalar() { return begin(), true; }
    bool null() { return scalar(); }
    bool boolean(bool) { return scalar(); }
    bool number_integer(json::number_integer_t) { return scalar(); }
    bool number_unsigned(json::number_unsigned_t) { return scalar(); }
    bool number_float(json::number_float_t, const json::string_t&) { return scalar(); }
    bool string(json::string_t&) { return scalar(); }
    bool binary(json::binary_t&) { return scalar(); }
    bool start_object(std::size_t) { return begin(), ++depth, true; }
    bool start_array(std::size_t) {
        if (depth == 0) topIsList = true;
        return begin(), ++depth, true;
    }
    bool end_object() { return --depth, true; }
    bool end_array() { return --depth, true; }
    bool key(json::string_t& name) {
        // A field given twice in one figure is an error, as a flag given twice is on the command
        // line; JSON itself would keep the last. A figure's fields are keys at depth 2.
        if (depth == 2 && !keys.insert(name).second && !duplicated.count(elements - 1))
            duplicated[elements - 1] = name;
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
        return false;  // parseJson reports it, with its place
    }
};

// Whether the scan read the whole text (false: not JSON, or past the depth bound).
bool scanSpecList(std::string_view text, SpecListScan& scan) {
    if (!checkJsonShape(text)) return false;
    try {
        return json::sax_parse(text.begin(), text.end(), &scan);
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace

Result<std::vector<Result<SpecEntry>>> readSpecText(std::string_view text,
                                                    const std::string& specPath,
                                                    const CommandRegistry& registry) {
    SpecListScan scan;
    const bool scanned = scanSpecList(text, scan);
    const std::string shownPath = escapeForMessage(specPath, kMessagePathLength);
    // Refused before any tree is made, so a list of millions costs no memory.
    if (scanned && scan.topIsList && scan.elements > kMaxSpecEntries) {
        return Error{shownPath + " lists " + std::to_string(scan.elements) +
                     " figures, more than the " + std::to_string(kMaxSpecEntries) +
                     " a spec may hold"};
    }
    auto parsed = parseJson(text);  // bounded depth and memory; never throws
    if (!parsed) {
        const std::string& why = parsed.error().message;
        return Error{shownPath + (why.rfind("not valid", 0) == 0 ? " is " : ": ") + why};
    }
    const json document = std::move(parsed).value();
    if (!document.is_array()) {
        return Error{shownPath +
                     " must hold a JSON list of figures, [{\"view\": ..., \"out\": ...}, ...] "
                     "(got " +
                     document.type_name() + ")"};
    }
    const std::string folder = std::filesystem::path(specPath).parent_path().string();
    std::vector<Result<SpecEntry>> entries;
    entries.reserve(document.size());
    for (const json& entry : document) {
        if (auto repeated = scan.duplicated.find(entries.size());
            repeated != scan.duplicated.end()) {
            entries.push_back(Error{"field " + quoteForMessage(repeated->second) + " given twice"});
            continue;
        }
        entries.push_back(readSpecEntry(entry, registry, folder));
    }
    return entries;
}

Result<BuiltFigure> buildFigure(const RenderView& view, const std::vector<OptionSpec>& options,
                                const ArgMap& args) {
    auto settings = readRenderSettings(args);
    if (!settings) return Error{printable(settings.error().message)};
    // A vector file embeds each heatmap at one image pixel per cell (Theme::cellResolution).
    std::optional<std::string> out;
    OptionReader(args).path("out", out);
    if (out) {
        const std::string extension = fileExtension(*out);
        settings->theme.cellResolution = extension == ".pdf" || extension == ".svg";
    }
    // The paper controls (--title, --panel, ...) may need the figure built twice: see
    // figure_controls.hpp. A --panel below 1 is refused with the range this view has.
    if (args.has("panel") && settings->theme.focusPanel < 1) {
        Theme plain = settings->theme;
        plain.focusPanel = 0;
        RenderSettings unfocused = *settings;
        unfocused.theme = plain;
        auto figure = view.build(args, unfocused);
        if (!figure) return Error{printable(withOptionNames(figure.error().message, options))};
        return Error{"--panel must be 1.." +
                     std::to_string(std::max<std::size_t>(1, panelCount(*figure))) + " for " +
                     view.name + " (got " + std::to_string(settings->theme.focusPanel) + ")"};
    }
    // --aspect square and --legend outside: the height follows the content unless given (built
    // at the default height at least, then cut to the content).
    const float start = float(std::max(settings->height, int(state::kFigureHeightRange.fallback)));
    const float tallest = float(
        std::min(state::kFigureHeightRange.high, int(16384 / std::max(1.0f, settings->scale))));
    auto buildAt = [&](const Theme& theme, float width, float height) {
        RenderSettings sized = *settings;
        sized.theme = theme;
        sized.width = int(width);
        sized.height = int(height);
        return view.build(args, sized);
    };
    auto built =
        fitsCanvasToContent(settings->theme) && !args.has("height")
            ? buildFittedToContent(buildAt, settings->theme, float(settings->width), start, tallest)
            : buildWithAllPanels(buildAt, settings->theme, float(settings->width),
                                 float(settings->height), args.has("width") && !args.has("height"),
                                 tallest);
    if (!built) return Error{printable(withOptionNames(built.error().message, options))};
    BuiltFigure result{std::move(built).value(), *settings};
    if (args.flag("transparent")) result.figure.background = Rgba{0, 0, 0, 0};
    return result;
}

}  // namespace poslab::commands
