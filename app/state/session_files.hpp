// session_files.hpp — the files a view holds open, read again: a restored session (or a lesson)
// names a model's config.json or a position table by path, and what was read from it is not part
// of the session. GL-free.
//
//   rereadSessionFiles(state)            after a session is applied: one warning per file missing
//   loadLearnedTable(view, path, tensor) the Learned view's Load button and the session alike
//   readLearnedTable / showLearnedTable  its two halves: the file (any thread), the view (UI
//   thread)
#pragma once

#include <string>
#include <vector>

#include "poslab/base/result.hpp"
#include "state/app_state.hpp"
#include "state/session_fields.hpp"  // Warnings
#include "state/table_file.hpp"

namespace poslab::state {

// Reads rope.configPath (what the Layers tab and the config notes show; the session's own
// parameters stay) and learned.npyPath (the table, with its tensor) again. A file that cannot be
// read is one warning, "rope.configPath: PATH: cannot open the file", and leaves that view as the
// session set it.
Warnings rereadSessionFiles(AppState& state);

// The RoPE view's config.json, read again without changing its parameters.
Status rereadRopeConfig(RopeViewState& view);

// A .npy or .safetensors table into view.loaded (useLoaded set; the tensor as remembered when the
// file has it, else the position table found by name). Positions shown stay as they are.
Status loadLearnedTable(LearnedViewState& view, const std::string& path, const std::string& tensor);

// The two halves of loadLearnedTable: reading the file (any thread; a checkpoint of 100k tensors
// takes a second or more) and putting what was read into the view (the UI thread).
struct LearnedTableRead {
    std::string path;
    std::vector<std::string> choices;  // .safetensors: the tensors a chooser offers
    TableFile file;
};
Result<LearnedTableRead> readLearnedTable(const std::string& path, const std::string& tensor);
void showLearnedTable(LearnedViewState& view, LearnedTableRead read);

}  // namespace poslab::state
