// hf_config.hpp — the RoPE setup of a Hugging Face config.json.
//
// Reads what transformers reads to build a rotary embedding, with the same defaults and aliases:
//
//   rope_theta (GPT-NeoX: rotary_emb_base; v5: rope_parameters.rope_theta)   default 10000
//   head_dim, else hidden_size // num_attention_heads (GPT-J: n_embd // n_head)
//   partial_rotary_factor (GPT-NeoX: rotary_pct; GPT-J: rotary_dim / head_dim)  default 1
//   rope_scaling (or v5's rope_parameters): null, or an object with rope_type (legacy: type)
//     default, linear, dynamic, yarn, llama3 (and Qwen2-VL's mrope, which HF treats as default)
//   max_position_embeddings (GPT-J: n_positions)
//
// Training length: for llama3 and yarn it is rope_scaling.original_max_position_embeddings (the
// context before extension); otherwise max_position_embeddings, which is also what HF's dynamic
// NTK divides by. GPT-J (model_type "gptj") gets interleaved pairs; every other model half pairs.
// Multimodal configs whose text model sits under "text_config" are read from there.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "poslab/base/result.hpp"
#include "poslab/encodings/rope.hpp"

namespace poslab {

struct HfModelConfig {
    RopeParams rope;                 // valid (validate(rope) passes); seqLen left at its default
    std::string modelType;           // model_type, "" when absent
    int maxPositionEmbeddings = 0;   // max_position_embeddings (or n_positions), 0 when absent
    std::vector<std::string> notes;  // one line per default, alias or fallback that was applied
};

// Never throws. Errors are one line naming the key: "num_attention_heads must be a positive
// integer (got 0)", "rope_scaling.rope_type 'longrope' is not supported (...)".
Result<HfModelConfig> parseHfConfig(std::string_view jsonText);
Result<HfModelConfig> loadHfConfig(const std::string& path);  // errors start with the path

}  // namespace poslab
