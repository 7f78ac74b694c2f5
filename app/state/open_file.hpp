// open_file.hpp — which view opens a file given on the command line (`poslab FILE`, the desktop
// entry's %f) or dropped on the window. GL-free, so it is tested without a display.
#pragma once

#include <string>

#include "poslab/base/result.hpp"

namespace poslab::state {

enum class FileToOpen {
    Session,        // a PosLab session ("format": "poslab-session"): restores everything
    ModelConfig,    // a Hugging Face config.json: the RoPE view reads it
    PositionTable,  // a .npy or .safetensors table: the Learned view reads it
    Checkpoint,     // a model's weights (a folder, a sharded index, or a .safetensors without a
                    // position table): the RoPE view's Usage tab reads its q and k projections
};

// By extension and, for JSON, by its top-level keys (only the first 64 KiB are read: a config
// is small, and a session says what it is in its first keys). Errors name the file and what is
// accepted, in one line.
Result<FileToOpen> classifyFileToOpen(const std::string& path);
const char* viewFor(FileToOpen kind);  // the view's tab title: "Learned", "RoPE"

}  // namespace poslab::state
