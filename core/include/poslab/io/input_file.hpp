// input_file.hpp — opening a file the user named as input (.npy tables, config.json).
//
// Only regular files are read. A FIFO, a device, a socket or a directory is refused with a
// one-line message at once: the open is non-blocking, so a FIFO with no writer (or a tape, a
// terminal) cannot hang the program before the check.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "poslab/base/result.hpp"

namespace poslab {

class InputFile {
  public:
    // Errors, path escaped and shortened: "x.npy: cannot open the file (No such file or
    // directory)", "/tmp/f: not a regular file (a FIFO)".
    // cannotOpen: the words before the system's reason (the readers' messages differ).
    static Result<InputFile> open(const std::string& path,
                                  const char* cannotOpen = "cannot open the file");

    InputFile(InputFile&& other) noexcept;
    InputFile& operator=(InputFile&& other) noexcept;
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    ~InputFile();

    std::FILE* stream() const { return file_; }    // positioned at the start, blocking reads
    std::uintmax_t size() const { return size_; }  // bytes, from fstat at the open

  private:
    InputFile(std::FILE* file, std::uintmax_t size) : file_(file), size_(size) {}
    std::FILE* file_ = nullptr;
    std::uintmax_t size_ = 0;
};

}  // namespace poslab
