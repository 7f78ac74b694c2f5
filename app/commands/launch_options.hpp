// launch_options.hpp — the options of `poslab` without a command (the window's): one table read
// by the GUI's parser, `poslab --help`, the man page and the shell completions.
#pragma once

#include <vector>

#include "commands/args.hpp"

namespace poslab::commands {

std::vector<OptionSpec> launchOptionSpecs();  // --view, --session, --lesson, --zoom, …

}  // namespace poslab::commands
