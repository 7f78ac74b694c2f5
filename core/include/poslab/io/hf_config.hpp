// hf_config.hpp — the RoPE setup of a Hugging Face config.json.
//
// Reads what transformers reads to build a rotary embedding, with the same defaults and aliases:
//
//   rope_theta (GPT-NeoX: rotary_emb_base; ModernBERT: global_rope_theta; v5:
//     rope_parameters.rope_theta)                                            default 10000
//   head size, as the configuration class sets it: DeepSeek-V2/V3 rotate qk_rope_head_dim; else
//     head_dim; else hidden_size // num_attention_heads (GPT-J: n_embd // n_head)
//   partial_rotary_factor (GPT-NeoX: rotary_pct; GPT-J: rotary_dim / head_dim)  default 1
//   rope_scaling (or v5's rope_parameters): null, or an object with rope_type (legacy: type)
//     default, linear, dynamic, yarn, llama3, longrope (legacy "su"; Phi-3's "yarn"),
//     proportional (p-RoPE), and Qwen2-VL's mrope, which HF treats as default for text
//   max_position_embeddings (GPT-J: n_positions)
//
// Per layer (num_hidden_layers): attention window from layer_types (full, sliding, Llama 4's
// chunked_attention of attention_chunk_size tokens, Qwen3-Next's linear_attention), Gemma 2's
// alternation, sliding_window_pattern (Gemma 3, default 6), ModernBERT's
// global_attn_every_n_layers, Qwen2's use_sliding_window / max_window_layers, or a model-wide
// sliding_window (Mistral); RoPE or none from no_rope_layers / no_rope_layer_interval (Llama 4,
// SmolLM3). Sliding layers get their own RoPE where the model says so: Gemma 3 rope_local_base_freq
// (default 10000, no scaling), ModernBERT local_rope_theta, v5 rope_parameters keyed by any layer
// type. Gemma 4's full layers rotate global_head_dim (default 512), its sliding layers head_dim.
//
// Layers without RoPE carry the reason: no_rope_layers (Llama 4, SmolLM3; 1 means uses RoPE,
// defaulting from no_rope_layer_interval), EXAONE 4's global NoPE (with sliding_window set only
// sliding layers rotate), linear attention (Qwen3-Next, Qwen3.5). Llama 4's
// attn_temperature_tuning (floor_scale, attn_scale) is read for its NoPE layers.
//
// Training length: for llama3 and yarn it is rope_scaling.original_max_position_embeddings (the
// context before extension); otherwise max_position_embeddings, which is also what HF's dynamic
// NTK divides by. GPT-J (model_type "gptj") gets interleaved pairs; every other model half pairs.
// Multimodal configs whose text model sits under "text_config" are read from there.
//
// Multimodal RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL), when rope_scaling has type mrope or an
// mrope_section: mrope_section (3 pair counts summing to rotated dims / 2; Qwen3-VL's class
// default [24,20,20]), mrope_interleaved (Qwen3-VL always interleaves), and from the root's
// vision_config: spatial_merge_size (default 2) and tokens_per_second (Qwen2.5-VL, class default
// 4; the released checkpoints say 2). The model comes from model_type (qwen2_vl, qwen2_5_vl,
// qwen3_vl, qwen3_vl_moe).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "poslab/base/result.hpp"
#include "poslab/encodings/attention_temperature.hpp"
#include "poslab/encodings/multimodal_rope.hpp"
#include "poslab/encodings/rope.hpp"

namespace poslab {

// What a layer attends to. Linear-attention layers (Qwen3-Next's Gated DeltaNet) have no softmax
// attention and no RoPE; chunked layers (Llama 4) attend within fixed chunks of tokens.
enum class AttentionWindow { Full, Sliding, Chunked, Linear };

// One RoPE setup used by some layers, named by the layer type that uses it.
struct HfRopeVariant {
    std::string layerType;  // "full_attention", "sliding_attention", "chunked_attention", ...
    RopeParams rope;        // valid; seqLen left at its default
    friend bool operator==(const HfRopeVariant&, const HfRopeVariant&) = default;
};

struct HfLayer {
    std::string layerType;                           // as layer_types spells it
    AttentionWindow window = AttentionWindow::Full;  // sliding: attends to slidingWindow tokens
    int slidingWindow = 0;     // tokens: the sliding window or the chunk size; 0 for full attention
    int ropeVariant = 0;       // index into HfModelConfig::ropeVariants; -1: no RoPE (NoPE layer)
    std::string noRopeReason;  // why a layer has no RoPE, e.g. "no_rope_layers"; "" with RoPE
    friend bool operator==(const HfLayer&, const HfLayer&) = default;
};

struct HfModelConfig {
    RopeParams rope;                // the full-attention layers' RoPE (= ropeVariants[0])
    std::string modelType;          // model_type, "" when absent
    std::string headDimSource;      // the key(s) the head size came from
    int maxPositionEmbeddings = 0;  // max_position_embeddings (or n_positions), 0 when absent
    std::vector<HfRopeVariant> ropeVariants;  // [0] full attention; [1] sliding, if it differs
    std::vector<HfLayer> layers;              // one per hidden layer; empty if the count is absent
    std::optional<MropeSettings> mrope;       // multimodal RoPE, when the config sets it up
    // Llama 4's attn_temperature_tuning: queries on the NoPE layers scaled by position.
    std::optional<AttentionTemperatureParams> attentionTemperature;
    std::vector<std::string> notes;     // one line per default, alias or fallback that was applied
    std::vector<std::string> warnings;  // what HF's validation warns about (unknown keys, ...)
    friend bool operator==(const HfModelConfig&, const HfModelConfig&) = default;
};

// Never throws. Errors are one line naming the key: "num_attention_heads must be a positive
// integer (got 0)", "rope_scaling.rope_type 'longrope' is not supported (...)".
Result<HfModelConfig> parseHfConfig(std::string_view jsonText);
Result<HfModelConfig> loadHfConfig(const std::string& path);  // errors start with the path

}  // namespace poslab
