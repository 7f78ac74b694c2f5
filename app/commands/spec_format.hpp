// spec_format.hpp — reading a figure spec (`poslab render --spec FIGURES.json`, see spec.hpp)
// into figures, GL-free: the JSON list, each entry's view and fields, and building each figure
// from them exactly as `poslab render VIEW` would. Writing the files (EGL for PNG, Cairo for SVG
// and PDF) is spec.hpp's FigureFileWriter; the fuzzer (tests/fuzz/spec_fuzz.cpp) and the tests
// use these functions, so they read specs exactly as the app does.
//
// Every error is one line (control characters in names and values are shown escaped).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "commands/args.hpp"
#include "commands/commands.hpp"
#include "poslab/base/result.hpp"
#include "poslab/figure/figure.hpp"

namespace poslab::commands {

// ---- One figure
std::vector<OptionSpec> renderOptionsFor(const RenderView& view);  // view's + renderCommonOptions()
// One spec object as the ArgMap the command line would produce for the same figure (`view` is
// skipped). Errors name the field: "unknown field 'colour' (sinusoidal takes: ...)".
Result<ArgMap> specEntryArguments(const nlohmann::json& entry, const RenderView& view);

struct SpecEntry {
    const RenderView* view = nullptr;  // points into the registry the spec was read against
    ArgMap args;                       // as parsed from the command line; `out` is present
};
// One element of a spec's list: an object naming a known view, with known fields of the right
// types and an `out`; relative `out` paths are joined to `folder` (the spec file's folder).
Result<SpecEntry> readSpecEntry(const nlohmann::json& entry, const CommandRegistry& registry,
                                const std::string& folder);

// ---- A whole spec
// The text of a spec file: Error when it is not JSON or not a list ("figures.json is not valid
// JSON: ..."; nothing renders); otherwise one Result per figure, in order. `specPath` names the
// file in messages and gives the folder relative outputs go to; it is not opened.
inline constexpr std::size_t kMaxSpecEntries = 10000;  // figures in one spec; more is refused
Result<std::vector<Result<SpecEntry>>> readSpecText(std::string_view text,
                                                    const std::string& specPath,
                                                    const CommandRegistry& registry);

// ---- Building
struct BuiltFigure {
    Figure figure;            // background cleared when --transparent / "transparent": true
    RenderSettings settings;  // size, scale, theme, colormap as read from the options
};
// The figure `poslab render VIEW` would draw for these options (`options` are what `args` were
// read against, for "--d-model must ..." messages). Checks every value; writes nothing.
Result<BuiltFigure> buildFigure(const RenderView& view, const std::vector<OptionSpec>& options,
                                const ArgMap& args);

// A whole message line as printed (stderr, success lines): the last escape, applied to every
// line, so a value some message forgot to escape still cannot reach the terminal raw.
inline constexpr std::size_t kMessageLineLength = 8192;
std::string printable(std::string_view text);  // control characters as \n, \t, \x1b: one line

}  // namespace poslab::commands
