#include "commands/args.hpp"

#include <algorithm>

#include "poslab/base/decimal.hpp"
#include "poslab/base/format.hpp"

namespace poslab::commands {

// Every numeric option reads through base/decimal: plain decimal, no hex, inf, nan or '+'.
Result<double> parseNumber(const std::string& option, const std::string& text) {
    const ParsedDecimal parsed = parseDecimal(text);
    if (parsed.status == DecimalStatus::OutOfRange)
        return Error{"--" + option + " is out of range (got " + quoteForMessage(text) + ")"};
    if (parsed.status != DecimalStatus::Ok)
        return Error{"--" + option + " expects a number (got " + quoteForMessage(text) + ")"};
    return parsed.value;
}

Result<long long> parseInteger(const std::string& option, const std::string& text) {
    const ParsedInteger parsed = parseDecimalInteger(text);
    if (parsed.status == DecimalStatus::OutOfRange)
        return Error{"--" + option + " is out of range (got " + quoteForMessage(text) + ")"};
    if (parsed.status != DecimalStatus::Ok)
        return Error{"--" + option + " expects an integer (got " + quoteForMessage(text) + ")"};
    return parsed.value;
}

std::optional<std::string> ArgMap::raw(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
}

Result<long long> ArgMap::integer(const std::string& name, long long fallback) const {
    auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    return parseInteger(name, it->second);
}

Result<double> ArgMap::number(const std::string& name, double fallback) const {
    auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    return parseNumber(name, it->second);
}

namespace {

// "a,b,,c" -> {"a", "b", "", "c"}: every entry, empty ones too (the entry's reader refuses them).
std::vector<std::string> splitCommas(const std::string& all) {
    std::vector<std::string> entries;
    std::size_t start = 0;
    while (start <= all.size()) {
        const std::size_t comma = std::min(all.find(',', start), all.size());
        entries.push_back(all.substr(start, comma - start));
        start = comma + 1;
    }
    return entries;
}

// "1,2.5,-3": every comma-separated entry through `parse`; one bad entry names the whole list.
template <class Value, class Parse>
Result<std::vector<Value>> parseList(const std::string& name, const std::string& all, Parse parse,
                                     const char* what, std::size_t maxCount) {
    if (auto s = checkListLength(name, all, maxCount); !s) return s.error();
    std::vector<Value> result;
    for (const std::string& entry : splitCommas(all)) {
        auto value = parse(name, entry);
        if (!value)
            return Error{"--" + name + " expects comma-separated " + what + " (got " +
                         quoteForMessage(all) + ")"};
        result.push_back(*value);
    }
    return result;
}

}  // namespace

Status checkListLength(const std::string& option, const std::string& text, std::size_t maxCount) {
    const std::size_t count = std::size_t(std::count(text.begin(), text.end(), ',')) + 1;
    if (count <= maxCount) return success();
    return Error{"--" + option + " lists at most " + std::to_string(maxCount) + " entries (got " +
                 std::to_string(count) + ")"};
}

Result<std::vector<double>> ArgMap::numbers(const std::string& name, std::size_t maxCount) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::vector<double>{};
    return parseList<double>(name, it->second, parseNumber, "numbers", maxCount);
}

Result<std::vector<long long>> ArgMap::integers(const std::string& name,
                                                std::size_t maxCount) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::vector<long long>{};
    return parseList<long long>(name, it->second, parseInteger, "integers", maxCount);
}

Result<std::vector<std::string>> ArgMap::words(const std::string& name,
                                               std::size_t maxCount) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::vector<std::string>{};
    if (auto s = checkListLength(name, it->second, maxCount); !s) return s.error();
    return splitCommas(it->second);
}

Result<ArgMap> parseArguments(const std::vector<std::string>& arguments,
                              const std::vector<OptionSpec>& options, const std::string& command) {
    ArgMap map;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& argument = arguments[i];
        if (argument.size() < 3 || argument.compare(0, 2, "--") != 0) {
            return Error{"unexpected argument " + quoteForMessage(argument) + " for '" + command +
                         "' (options start with --; see " + command + " --help)"};
        }
        std::string name = argument.substr(2);
        std::optional<std::string> inlineValue;
        if (auto equals = name.find('='); equals != std::string::npos) {
            inlineValue = name.substr(equals + 1);
            name = name.substr(0, equals);
        }
        auto spec = std::find_if(options.begin(), options.end(),
                                 [&](const OptionSpec& o) { return o.name == name; });
        if (spec == options.end()) {
            return Error{"unknown option --" + escapeForMessage(name) + " for '" + command +
                         "' (see " + command + " --help)"};
        }
        // One value per option: a second --base would silently override the first.
        if (map.has(name)) return Error{"--" + name + " given twice"};
        if (spec->valueName.empty()) {
            if (inlineValue) return Error{"--" + name + " takes no value"};
            map.set(name, "");
            continue;
        }
        if (inlineValue) {
            map.set(name, *inlineValue);
        } else if (i + 1 < arguments.size()) {
            map.set(name, arguments[++i]);
        } else {
            return Error{"--" + name + " needs a value (" + spec->valueName + ")"};
        }
    }
    return map;
}

std::string withOptionNames(const std::string& message, const std::vector<OptionSpec>& options) {
    const auto space = message.find(' ');
    if (space == std::string::npos) return message;
    std::string name = message.substr(0, space);
    std::replace(name.begin(), name.end(), '_', '-');
    for (const OptionSpec& option : options) {
        if (option.name == name) return "--" + name + message.substr(space);
    }
    return message;
}

namespace {

// Characters on a terminal, not bytes: a value name such as "WxH,…" is UTF-8 ("…" is three
// bytes, one column), and padding by bytes pushed its description three columns left.
std::size_t terminalColumns(const std::string& text) {
    return std::size_t(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;  // not a continuation byte
    }));
}

}  // namespace

std::string formatOptionHelp(const std::vector<OptionSpec>& options) {
    auto left = [](const OptionSpec& o) {
        return "--" + o.name + (o.valueName.empty() ? "" : " " + o.valueName);
    };
    std::size_t width = 0;
    for (const OptionSpec& o : options) width = std::max(width, terminalColumns(left(o)));
    std::string text;
    for (const OptionSpec& o : options) {
        const std::string option = left(o);
        text += "  " + option + std::string(width + 2 - terminalColumns(option), ' ') + "  " +
                o.help + "\n";
    }
    return text;
}

}  // namespace poslab::commands
