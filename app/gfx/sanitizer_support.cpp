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
        // RTLD_LOCAL: adding them to the global scope allocates in ld.so (add_to_global_resize)
        // a block LeakSanitizer reports; matching it against lsan.supp symbolises every module,
        // about 0.1 s of CPU at the exit of every process, even `poslab --help`. Processes
        // that make a GL context still get it when the drivers load themselves (suppressed).
        dlopen(library, RTLD_LAZY | RTLD_LOCAL | RTLD_NODELETE);
    }
#endif
}

}  // namespace poslab::gfx
