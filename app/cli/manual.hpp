// manual.hpp — the man page and shell completions, generated from the same option tables that
// `poslab --help`, `poslab export --help` and `poslab render --help` print, so they cannot drift.
//
//   poslab --manual            > poslab.1        (the build installs it as man1/poslab.1.gz)
//   poslab --completions bash  > poslab          (bash-completion/completions/poslab)
//   poslab --completions zsh   > _poslab         (zsh/vendor-completions/_poslab)
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "commands/args.hpp"
#include "commands/commands.hpp"
#include "poslab/base/result.hpp"

namespace poslab::cli {

// ---- Generators
// roff (man(7)) for section 1; guiOptions are the options of `poslab` without a command.
std::string manualPage(const commands::CommandRegistry& registry,
                       const std::vector<commands::OptionSpec>& guiOptions,
                       std::string_view version);
// "bash" or "zsh"; any other name is refused in one line naming the valid ones.
Result<std::string> completionScript(const commands::CommandRegistry& registry,
                                     const std::vector<commands::OptionSpec>& guiOptions,
                                     std::string_view shell);

// The window's view names (--view), lower case as --view takes them. Set by main() from the
// panel list (this library has no panels); without it --view completes nothing.
void setViewNames(std::vector<std::string> names);

// ---- Helpers (exposed for tests)
std::string roffEscape(std::string_view text);  // backslashes, leading dots/quotes, hyphens,
                                                // non-ASCII as \[uXXXX] (any locale)
// What a completion offers for an option's value.
enum class ValueCompletion { Nothing, Files, Directories, Words, TensorNames };
struct ValueChoices {
    ValueCompletion kind = ValueCompletion::Nothing;
    std::vector<std::string> words;  // kind == Words
};
// From the option's value name and help: FILE -> files, DIR -> directories, --tensor -> the
// tensors of the --from/--table file, NAME/KIND/STYLE/... -> the words its help lists
// ("2d (default) or 3d" -> 2d, 3d), numbers and free text -> nothing.
ValueChoices valueChoices(const commands::OptionSpec& option);

}  // namespace poslab::cli
