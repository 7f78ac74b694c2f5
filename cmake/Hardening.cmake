# Hardening, as Debian's dpkg-buildflags gives every package (hardening=+all):
#   always      -z relro -z now   relocations resolved at start-up, then the GOT made read-only
#                                 (link flags only: compiled objects, and ccache, are unchanged);
#               PIE               position-independent executable (ASLR): Debian's GCC makes
#                                 one by default (--enable-default-pie); nothing to add
#   POSLAB_HARDEN (./dev package turns it on in its own build tree)
#               -D_FORTIFY_SOURCE=2       checked memcpy/snprintf/... where sizes are known
#               -fstack-protector-strong  canaries in functions with arrays or address-taken locals
#               -Wformat -Werror=format-security
# The compile flags are off by default so that development builds, the test suite and every
# worktree share one compiler cache; the package is built with them. Off for the sanitizer and
# fuzzer builds, whose instrumentation they would only get in the way of.
option(POSLAB_HARDEN "Compile with Debian's hardening flags (fortify, stack protector)" OFF)
if(NOT POSLAB_SANITIZE AND NOT POSLAB_FUZZ)
  add_link_options(-Wl,-z,relro -Wl,-z,now)
  if(POSLAB_HARDEN)
    add_compile_options(-fstack-protector-strong -Wformat -Werror=format-security
                        "$<$<NOT:$<CONFIG:Debug>>:-D_FORTIFY_SOURCE=2>")
  endif()
endif()
