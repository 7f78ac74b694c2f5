// checkpoint_reader.hpp — the query and key projections of a checkpoint, streamed row by row.
//
// What the RoPE usage measure (analysis/rope_usage.hpp) needs from a model's weights is the
// squared norm of every row of W_q and W_k: row r of a projection makes output dimension r, and
// output dimensions are what RoPE pairs and rotates. This reads exactly those rows, in blocks of
// whole rows (kQkReadBlockBytes), and keeps only one number per row: the memory it needs is the
// block plus layers x (heads + KV heads) x head_dim doubles, whatever the checkpoint's size.
// v, o and MLP bytes are never read (Falcon and GPT-NeoX fuse v with q and k: those rows are
// skipped by offset).
//
// The checkpoint (io/safetensors_index.hpp: a .safetensors file, an index, or their folder) must
// have config.json beside it. From it, through io/hf_config.hpp: head size as the configuration
// class sets it, rotary fraction, pairing; and heads, KV heads (num_key_value_heads; Falcon's
// num_kv_heads / multi_query), hidden size. Projections found by name, per layer:
//   Separate      *.{N}.*.q_proj.weight + k_proj.weight    Llama, Mistral, Qwen, Gemma, OLMo,
//                                                          GPT-J, Phi-2, StableLM, Granite, ...
//   QkvBlocks     *.{N}.*.qkv_proj.weight  [all q | all k | all v] rows             Phi-3
//   PerHead       *.{N}.*.query_key_value.weight  per head [q | k | v]    GPT-NeoX, Falcon-RW
//   MultiQuery    Falcon multi_query: [q heads | k | v]                            Falcon-7B
//   Grouped       Falcon new_decoder_architecture: per KV group [q x g | k | v]    Falcon-40B
// Biases are not read: the measure is of the weights.
//
// Which rows form a rotary pair: HF's Llama-family checkpoints are stored permuted for
// rotate_half (pair i = rows i and i + d/2 of each head, RopePairing::Half); GPT-J, CodeGen,
// Llama 4 and DeepSeek's rope_interleave store (2i, 2i + 1) (Interleaved). For a model_type
// whose layout this does not know, the reader refuses unless the caller names the pairing.
// DeepSeek's multi-head latent attention (kv_lora_rank) is refused.
//
// Which tensors hold the rows, and how they are packed, is io/checkpoint_attention.hpp.
//
// Usage:
//   auto attention = describeCheckpointAttention("Llama-3-8B/");  // checkpoint_attention.hpp
//   auto rows = readQkRowSquares(*attention, [](auto done, auto total) { return !cancelled; });
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "poslab/base/result.hpp"
#include "poslab/encodings/rope.hpp"
#include "poslab/io/checkpoint_attention.hpp"
#include "poslab/io/safetensors_index.hpp"

namespace poslab {

// One read, whole rows: small enough that the copy from the page cache stays in the core's cache
// for the sums that follow (8 MiB blocks took twice the CPU time of `cat`; 256 KiB about 1.5x).
inline constexpr std::size_t kQkReadBlockBytes = std::size_t(256) << 10;

// ---- Row norms
struct QkRowSquares {
    int layers = 0, heads = 0, kvHeads = 0, headDim = 0;
    std::vector<double> query;  // [layer][head][dim]: sum over the row of w^2
    std::vector<double> key;    // [layer][kvHead][dim]
    std::uint64_t bytesRead = 0;
};
// done, total: bytes. Return false to stop: the read then ends with Error{"cancelled"}.
using ReadProgress = std::function<bool(std::uint64_t done, std::uint64_t total)>;
Result<QkRowSquares> readQkRowSquares(const CheckpointAttention& attention,
                                      const ReadProgress& progress = {});

// The sum of squares of count values of dtype at data (F64, F32, F16, BF16), as readQkRowSquares
// computes a row's: float arithmetic per 16 lanes, summed in double. Exposed for tests.
double sumOfSquares(SafetensorsDtype dtype, const char* data, std::size_t count);

}  // namespace poslab
