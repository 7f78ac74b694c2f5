// sanitizer_support.hpp — keeps LeakSanitizer's reports about PosLab, not about GL drivers.
#pragma once

namespace poslab::gfx {

// In AddressSanitizer builds, loads the Mesa/GLX/EGL driver libraries with RTLD_NODELETE so
// they stay mapped at exit: LeakSanitizer can then name them, and tests/sanitizer/lsan.supp
// suppresses their one-time allocations. Without it, drivers unloaded by glfwTerminate show up
// as leaks in "<unknown module>" that no suppression can match. Does nothing in other builds.
void pinDriverLibrariesForLeakChecks();

}  // namespace poslab::gfx
