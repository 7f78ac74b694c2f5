// args.hpp — command-line options: declared per command, parsed into a map, read with checks.
//
// Every problem becomes a one-line Error naming the option: "--d-model expects an integer
// (got 'abc')", "unknown option --foo for 'poslab export sinusoidal'".
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "poslab/base/result.hpp"

namespace poslab::commands {

struct OptionSpec {
    std::string name;       // without dashes: "d-model"
    std::string valueName;  // "D"; empty for a flag that takes no value
    std::string help;       // one line, with the default and the valid range
};

class ArgMap {
  public:
    bool has(const std::string& name) const { return values_.count(name) != 0; }
    void set(const std::string& name, std::string value) { values_[name] = std::move(value); }
    const std::map<std::string, std::string>& values() const { return values_; }

    Result<long long> integer(const std::string& name, long long fallback) const;
    Result<double> number(const std::string& name, double fallback) const;
    // Comma lists, at most maxCount entries ("--dims lists at most 32 entries (got 40)"), the
    // count checked before any entry is read; each entry in the one number syntax.
    Result<std::vector<double>> numbers(const std::string& name,
                                        std::size_t maxCount) const;  // "1,2.5,-3"
    Result<std::vector<long long>> integers(const std::string& name,
                                            std::size_t maxCount) const;  // "0,5,9"
    Result<std::vector<std::string>> words(const std::string& name,
                                           std::size_t maxCount) const;  // "float32,float16"
    bool flag(const std::string& name) const { return has(name); }
    // The value as typed, for OptionReader (commands read their options through it).
    std::optional<std::string> raw(const std::string& name) const;

  private:
    std::map<std::string, std::string> values_;
};

// Parses "--name value", "--name=value" and flags against `options`; `command` names the
// command in error messages ("poslab export sinusoidal").
Result<ArgMap> parseArguments(const std::vector<std::string>& arguments,
                              const std::vector<OptionSpec>& options, const std::string& command);

Result<double> parseNumber(const std::string& option, const std::string& text);
Result<long long> parseInteger(const std::string& option, const std::string& text);
// Ok when the comma list `text` has at most maxCount entries; else the one-line refusal.
Status checkListLength(const std::string& option, const std::string& text, std::size_t maxCount);

// "--d-model must be 1..8192 (got 0)" from core's "d_model must be ...", when the command has
// that option; other messages pass through unchanged.
std::string withOptionNames(const std::string& message, const std::vector<OptionSpec>& options);

std::string formatOptionHelp(const std::vector<OptionSpec>& options);  // aligned help lines

}  // namespace poslab::commands
