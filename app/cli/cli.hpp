// cli.hpp — the `poslab` command line (everything except starting the GUI).
#pragma once

#include <string>
#include <vector>

#include "exit_codes.hpp"  // kExitOk, kExitBadInput: the statuses runCommandLine returns

namespace poslab::cli {

bool wantsCommandLine(const std::vector<std::string>& arguments);  // false: start the GUI
int runCommandLine(const std::vector<std::string>& arguments);     // prints, returns exit code
std::string mainHelp();

}  // namespace poslab::cli
