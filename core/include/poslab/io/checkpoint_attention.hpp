// checkpoint_attention.hpp — what a checkpoint's attention looks like, from its config.json and
// safetensors headers alone (no weights read): heads, KV heads, head size and pairing (through
// io/hf_config.hpp), and which tensors hold each layer's query and key rows and how they are
// packed. io/checkpoint_reader.hpp then streams exactly those rows; see its comment for the
// layouts (Separate, QkvBlocks, PerHead, MultiQuery, Grouped) and the pairing rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "poslab/base/result.hpp"
#include "poslab/encodings/rope.hpp"
#include "poslab/io/hf_config.hpp"
#include "poslab/io/safetensors_index.hpp"

namespace poslab {

// ---- How a layer stores its query and key rows
enum class QkvPacking { Separate, QkvBlocks, PerHead, MultiQuery, Grouped };
const char* qkvPackingName(QkvPacking packing);  // "q_proj + k_proj", "fused qkv_proj", ...

struct QkLayerTensors {
    std::string query;  // the tensor holding the layer's query rows
    std::string key;    // the key rows' tensor (the same name when fused)
};

// Everything about the checkpoint's attention that is known without reading weights.
struct CheckpointAttention {
    Checkpoint checkpoint;
    HfModelConfig config;  // config.rope: head size, rotary fraction, pairing (maybe overridden)
    std::string configPath;
    int layers = 0, heads = 0, kvHeads = 0, headDim = 0, hidden = 0;
    QkvPacking packing = QkvPacking::Separate;
    std::vector<QkLayerTensors> tensors;  // one per layer, layer 0 first
    std::string pairingSource;            // one line: why this pairing
    std::vector<std::string> notes;       // how heads, KV heads and tensors were found
    std::uint64_t qkBytes = 0;            // bytes readQkRowSquares will read
};

struct AttentionOverrides {
    std::optional<RopePairing> pairing;  // --pairing: wins over the config
};

// Reads config.json and the safetensors headers only. Errors are one line naming the file.
Result<CheckpointAttention> describeCheckpointAttention(const std::string& path,
                                                        const AttentionOverrides& overrides = {});

}  // namespace poslab
