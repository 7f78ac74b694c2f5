// parameter.hpp — a parameter's descriptor, declared once next to the struct it describes: its
// session key, its command-line option, limits, default, slider scale, unit and help. The GUI's
// slider (ui/widgets), the option reader and --help (commands/option_reader), the man page and the
// completions (cli/manual), the session reader/writer (state/session_fields) and validate() all
// read the same descriptor, so they accept exactly the same range and start from the same default.
//
// Core declares the descriptors of the limits core validates (kAlibiHeadsParam in alibi.hpp); the
// app declares only what is the app's own (the GUI's view sizes, in state/ranges.hpp).
//
//   inline constexpr IntParameter kAlibiHeadsParam{"heads", "heads", 1, 128, 8, "number of heads"};
//   kAlibiHeadsParam.check(heads)     "heads must be 1..128 (got 0)"
//   kAlibiHeadsParam.help()           "number of heads, 1..128 (default 8)"
#pragma once

#include <string>
#include <string_view>

#include "poslab/base/format.hpp"
#include "poslab/base/result.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

enum class ParameterScale {
    Linear,  // the slider moves evenly through low..high
    Log,     // each decade as wide (bases, lengths spanning 1..2^20); low must be > 0
};

struct IntParameter {
    std::string_view key;      // session key, and the name in errors: "curveCount"
    std::string_view option;   // command-line option without dashes: "curves"
    int low = 0, high = 0;     // inclusive
    int fallback = 0;          // the default
    std::string_view meaning;  // help text before the range: "number of dimensions plotted"
    ParameterScale scale = ParameterScale::Linear;  // the slider's
    std::string_view label = {};                    // the slider's label; empty: the option's name
    std::string_view unit = {};  // shown after the value on the slider ("px"); empty: none

    std::string rangeText() const { return std::to_string(low) + ".." + std::to_string(high); }
    // "number of dimensions plotted, 1..8 (default 4)"; `note` replaces "(default N)" when given.
    std::string help(std::string_view note = {}) const {
        return std::string(meaning) + ", " + rangeText() + " " +
               (note.empty() ? "(default " + std::to_string(fallback) + ")" : std::string(note));
    }
    bool contains(long long value) const { return value >= low && value <= high; }
    Status check(long long value) const {  // "curveCount must be 1..8 (got 9)"
        return requireIntInRange(key, value, low, high);
    }
    std::string_view sliderLabel() const { return label.empty() ? option : label; }
    // The same parameter on a slider of another label or scale (one range, shown in two views).
    constexpr IntParameter labelled(std::string_view text, ParameterScale s) const {
        IntParameter copy = *this;
        copy.label = text, copy.scale = s;
        return copy;
    }
};

// The same for a real-valued parameter; the limits are printed with formatValue ("0.25..8").
struct RealParameter {
    std::string_view key;                           // session key, and the name in errors: "scale"
    std::string_view option;                        // command-line option without dashes: "scale"
    double low = 0, high = 0;                       // inclusive
    double fallback = 0;                            // the default
    std::string_view meaning;                       // help text before the range
    ParameterScale scale = ParameterScale::Linear;  // the slider's
    std::string_view label = {};                    // the slider's label; empty: the option's name
    std::string_view unit = {};   // shown after the value on the slider ("°"); empty: none
    const char* format = "%.3g";  // the slider's printf format (ImGui's)

    std::string rangeText() const { return formatValue(low) + ".." + formatValue(high); }
    std::string help() const {
        return std::string(meaning) + ", " + rangeText() + " (default " + formatValue(fallback) +
               ")";
    }
    bool contains(double value) const { return value >= low && value <= high; }  // NaN: false
    Status check(double value) const {  // "scale must be 0.25..8 (got 9)"; NaN and inf refused
        if (!contains(value)) {
            return Error{std::string(key) + " must be " + rangeText() + " (got " +
                         formatValue(value, 6) + ")"};
        }
        return success();
    }
    std::string_view sliderLabel() const { return label.empty() ? option : label; }
    constexpr RealParameter labelled(std::string_view text, ParameterScale s) const {
        RealParameter copy = *this;
        copy.label = text, copy.scale = s;
        return copy;
    }
};

}  // namespace poslab
