// comparison_commands.hpp — the views that set encodings side by side, on the command line:
//   poslab render extrapolation   past the training length: sinusoidal, learned, RoPE, ALiBi, T5
//   poslab render compare         every encoding side by side under the same width and length
//   poslab render compare-ab      two RoPE configurations (config.json files or bases) and their
//                                 difference
#pragma once

#include "commands/commands.hpp"

namespace poslab::commands {

// Adds the views above; registerUnderstandingCommands() calls it last, so the help lists them
// in the order the GUI's tabs show them.
void registerComparisonCommands(CommandRegistry& registry);

}  // namespace poslab::commands
