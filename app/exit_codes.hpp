// exit_codes.hpp — the exit statuses every part of the app returns: the command line (cli/), the
// GUI's start-up (main.cpp) and its scripted checks (ui/frame_loop.cpp). One header outside the
// app's libraries, so that the ui layer, which does not link cli, states no copy of them.
#pragma once

namespace poslab {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;    // a check found faults, or the GUI could not start
inline constexpr int kExitBadInput = 2;  // bad option, value, file or unwritable output

}  // namespace poslab
