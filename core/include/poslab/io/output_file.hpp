// output_file.hpp — all-or-nothing file writing.
//
// The content is written to a temporary file beside the target and renamed over it only when
// every byte is out. A failed or killed export leaves the previous file (or none), never a
// truncated one. On Linux the temporary is an unnamed O_TMPFILE until it is complete, so a
// killed process leaves no litter either.
#pragma once

#include <cstdio>
#include <functional>
#include <string>

#include "poslab/base/result.hpp"

namespace poslab {

// Calls write(file) on a fresh temporary file, then renames it to `path`. A write error, a
// failing callback or a failed rename removes the temporary file and returns an error naming
// `path` and the system's reason ("cannot write 'a.npy': No space left on device").
// Replacing: a regular file keeps its rwx permission bits (never setuid, setgid or sticky); the
// new file belongs to the writer (the old owner is not kept: only root could give it back, and a
// root-owned file must not appear under another user's name). A symlink at `path` is replaced
// by the new regular file; its target is left untouched (as mv and editors that save by rename
// do: writing through a link could overwrite a file elsewhere). The temporary is unnamed
// (O_TMPFILE) until complete, named through linkat(AT_EMPTY_PATH) or /proc/self/fd; without
// either it is ".NAME.poslab-tmp.PID.N" in the same folder, removed on failure, and one left by
// a killed run is removed by the next write of NAME once its process is gone. A character device or
// a FIFO (/dev/full, /dev/stdout, a pipe) is written in place through writeToStream, never
// replaced; a FIFO without a reader is an error.
Status writeFileAtomically(const std::string& path, const std::function<Status(std::FILE*)>& write);
// Calls write(file) on an open stream (stdout, a device) and flushes it; a failure names `path`
// and the system's reason, as writeFileAtomically.
Status writeToStream(std::FILE* file, const std::string& path,
                     const std::function<Status(std::FILE*)>& write);

std::string fileExtension(const std::string& path);  // lower-case, with the dot: ".npy", "" if none

}  // namespace poslab
