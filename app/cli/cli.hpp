// cli.hpp — the `poslab` command line (everything except starting the GUI).
#pragma once

#include <string>
#include <vector>

namespace poslab::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 2;  // bad option, value, file or unwritable output

bool wantsCommandLine(const std::vector<std::string>& arguments);  // false: start the GUI
int runCommandLine(const std::vector<std::string>& arguments);     // prints, returns exit code
std::string mainHelp();

}  // namespace poslab::cli
