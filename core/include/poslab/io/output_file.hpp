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
// `path` and the system's reason ("cannot write 'a.npy': No space left on device"). A replaced
// file keeps its permission bits. Without /proc the temporary is a named file in the same
// folder, removed on failure. A character device or a FIFO (/dev/full, /dev/stdout, a pipe) is
// written in place through writeToStream, never replaced; a FIFO without a reader is an error.
Status writeFileAtomically(const std::string& path, const std::function<Status(std::FILE*)>& write);
// Calls write(file) on an open stream (stdout, a device) and flushes it; a failure names `path`
// and the system's reason, as writeFileAtomically.
Status writeToStream(std::FILE* file, const std::string& path,
                     const std::function<Status(std::FILE*)>& write);

std::string fileExtension(const std::string& path);  // lower-case, with the dot: ".npy", "" if none

}  // namespace poslab
