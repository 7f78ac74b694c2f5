#include "gfx/sanitizer_support.hpp"

#include <dlfcn.h>

// GCC defines __SANITIZE_ADDRESS__ under -fsanitize=address; clang 14 only answers
// __has_feature(address_sanitizer) (./dev's sanitizer stage builds with clang).
#if defined(__SANITIZE_ADDRESS__)
#define POSLAB_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POSLAB_ADDRESS_SANITIZER 1
#endif
#endif

namespace poslab::gfx {

void pinDriverLibrariesForLeakChecks() {
#if defined(POSLAB_ADDRESS_SANITIZER)
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
