#include "gfx/sanitizer_support.hpp"

#include <dlfcn.h>

namespace poslab::gfx {

void pinDriverLibrariesForLeakChecks() {
#if defined(__SANITIZE_ADDRESS__)
    const char* libraries[] = {"libGLX_mesa.so.0", "libEGL_mesa.so.0", "libglapi.so.0",
                               "/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so",
                               "/usr/lib/x86_64-linux-gnu/dri/kms_swrast_dri.so"};
    for (const char* library : libraries) {
        // Missing libraries are fine: the point is only to keep the ones present mapped.
        dlopen(library, RTLD_LAZY | RTLD_GLOBAL | RTLD_NODELETE);
    }
#endif
}

}  // namespace poslab::gfx
