// safetensors_index.hpp — checkpoints as users keep them: one .safetensors file, or shards listed
// by a model.safetensors.index.json, or the folder that holds either.
//
// The index (what transformers' save_pretrained writes when a model is sharded):
//   {"metadata": {"total_size": 16060522496},
//    "weight_map": {"model.embed_tokens.weight": "model-00001-of-00004.safetensors", ...}}
// Every shard must be a plain file name in the index's own folder (no '/', no ".."): an index
// that points outside its folder is refused, as is a missing shard or a tensor the index places
// in a shard whose header does not list it. Only headers are read here; tensors are read from
// their shard on demand (readCheckpointTensor), so a 70 GB checkpoint lists in milliseconds.
//
// Errors are one line that starts with the file they concern:
//   "model.safetensors.index.json: weight_map entry 'lm_head.weight' names
//    '../x.safetensors', outside the checkpoint's folder (shards are plain file names)"
//
// Usage:
//   auto checkpoint = openCheckpoint("Llama-3-8B/");          // folder, index or single file
//   for (const CheckpointTensor& t : checkpoint->tensors) ... // every tensor, every shard
//   auto table = readCheckpointTensor("Llama-3-8B/", "model.embed_tokens.weight");
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"
#include "poslab/io/position_table.hpp"

namespace poslab {

inline constexpr std::uint64_t kMaxSafetensorsIndexBytes = 64ull << 20;  // 64 MiB of JSON

// ---- Kinds of path
bool isSafetensorsIndexPath(std::string_view path);  // "*.safetensors.index.json", any case
bool isSafetensorsFilePath(std::string_view path);   // "*.safetensors", any case

// ---- One checkpoint, single or sharded
struct CheckpointShard {
    std::string path;             // the shard file
    std::uint64_t dataStart = 0;  // file offset of its byte buffer (8 + header length)
};
struct CheckpointTensor {
    SafetensorsTensorInfo info;  // begin/end are relative to its shard's byte buffer
    int shard = 0;               // index into Checkpoint::shards
};
struct Checkpoint {
    std::string source;     // what messages call it: the index or the single file
    std::string directory;  // the folder holding config.json and the shards
    bool sharded = false;   // read through an index
    std::vector<CheckpointShard> shards;
    std::vector<CheckpointTensor> tensors;  // index order (sharded) or header order (single)
    const CheckpointTensor* find(std::string_view name) const;  // null when absent
};

// path: a .safetensors file, a *.safetensors.index.json, or a folder holding
// model.safetensors.index.json, model.safetensors, or exactly one of either kind.
Result<Checkpoint> openCheckpoint(const std::string& path);
// The index alone, parsed from text (tests, the fuzzer): tensor name -> shard file name, in order.
Result<std::vector<std::pair<std::string, std::string>>> parseSafetensorsIndex(
    std::string_view json, std::string_view name = "safetensors index");

// ---- The same calls as safetensors.hpp, for any of the paths openCheckpoint accepts
Result<std::vector<SafetensorsTensorInfo>> listCheckpointTensors(const std::string& path);
Result<Matrix> readCheckpointTensor(const std::string& path, std::string_view tensor);
std::string checkpointShardOf(const Checkpoint& checkpoint, std::string_view tensor);  // "" absent
// loadPositionTable (position_table.hpp) for any checkpoint path: the table found (or named) in
// whichever shard holds it. A [1, N, D] table (timm's pos_embed) gets a note saying which of
// its rows are special tokens, by the patch grid N leaves: "row 0 is the class token; rows
// 1..196 are the 14 x 14 patches".
Result<PositionTableFile> loadCheckpointPositionTable(const std::string& path,
                                                      std::string_view tensor = "");
std::string specialTokenRowsNote(std::uint64_t rows);  // "" unless a patch grid explains rows

}  // namespace poslab
