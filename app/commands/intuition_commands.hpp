// intuition_commands.hpp — the intuition views on the command line (the Intuition tab's figures):
//   poslab export attention-shuffle     the toy head's attention weights or outputs
//   poslab export linear-shift          T_k, or with --sin-only the least-squares map on the sines
//   poslab export frequency-resolution  distances by offset, per-pair distances, or the table
//   poslab render binary-clock | linear-shift | attention-shuffle | frequency-resolution
#pragma once

#include "commands/commands.hpp"

namespace poslab::commands {

// Adds the kinds and views above; registerUnderstandingCommands() calls it after meaning's, so
// the help lists them in the order the GUI's tabs show them.
void registerIntuitionCommands(CommandRegistry& registry);

}  // namespace poslab::commands
