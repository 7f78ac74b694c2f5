// nope.hpp — NoPE (no positional encoding) and Llama 4's iRoPE layer pattern.
//
// NoPE: a causal decoder with no position signal still knows where it is. The causal mask lets
// query t see keys 0..t only, so uniform attention (equal logits) averages t + 1 values. Any
// feature present on the first token alone (a BOS embedding, an "I am first" indicator) comes out
// of that average as 1 / (t + 1): the position, recoverable as 1 / signal - 1 (Haviv et al. 2022;
// Kazemnejad et al. 2023 show the first layer can compute it). The signal shrinks like 1/t, so
// the stored precision bounds how far it resolves: 1/(t+1) and 1/(t+2) differ by about 1/t^2,
// which bfloat16's 8 significant bits stop separating at t = 189 and float32's 24 at t =
// 11,864,338 (nopeFirstUnresolved).
//
// iRoPE (Llama 4; transformers' Llama4TextConfig and Llama4TextAttention): layer l uses RoPE when
// no_rope_layers[l] == 1, the default being int((l + 1) % no_rope_layer_interval != 0), so every
// interval-th layer (3, 7, 11, ... for interval 4) is a NoPE layer. RoPE layers attend within
// chunks of attention_chunk_size only (layer_types "chunked_attention": key k is visible to query
// q when k <= q and q // chunk == k // chunk); NoPE layers attend to the whole causal prefix
// ("full_attention") and scale their queries by the attention temperature
// (encodings/attention_temperature.hpp) so that scores stay sharp at long range.
#pragma once

#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

// ---- NoPE: the causal average of a first-token indicator
double nopeFirstTokenSignal(long long position);  // 1 / (position + 1), position >= 0
enum class SignalPrecision { Float64, Float32, BFloat16 };
inline constexpr EnumNames<SignalPrecision, 3> kSignalPrecisionNames{
    {{SignalPrecision::Float64, "float64"},
     {SignalPrecision::Float32, "float32"},
     {SignalPrecision::BFloat16, "bfloat16"}}};
Result<SignalPrecision> parseSignalPrecision(std::string_view name);
double roundToPrecision(double value, SignalPrecision precision);  // round to nearest even
// round(1 / stored(1 / (t + 1)) - 1): the position a reader of the stored signal recovers.
long long nopeRecoveredPosition(long long position, SignalPrecision precision);
// The first position whose recovered value is wrong (searching up to `limit`; limit if none).
long long nopeFirstUnresolved(SignalPrecision precision, long long limit);
// Uniform causal attention over rows: out[t] = mean of x[0..t] (the NoPE layer with equal logits).
Matrix uniformCausalAverage(const Matrix& rows);

// ---- iRoPE: which layers rotate, and the chunked mask
inline constexpr int kMaxIropeLayers = 256;
struct IropeParams {
    int numLayers = 48;             // num_hidden_layers, 1..256
    int noRopeLayerInterval = 4;    // no_rope_layer_interval, 1..256 (1: every layer is NoPE)
    std::vector<int> noRopeLayers;  // no_rope_layers (1 = uses RoPE); empty: the default
    int attentionChunkSize = 8192;  // attention_chunk_size; 0: no chunking (config None)
    friend bool operator==(const IropeParams&,
                           const IropeParams&) = default;  // member-wise: caches key on it
};
Status validate(const IropeParams& params);  // "no_rope_layers must have 48 entries (got 3)"
std::vector<int> defaultNoRopeLayers(int numLayers, int interval);  // [int((l+1) % interval != 0)]
std::vector<int> effectiveNoRopeLayers(const IropeParams& params);  // given or default
bool layerUsesRope(const IropeParams& params, int layer);
// Chunked causal attention: key <= query and both in one chunk (chunk <= 0: plain causal).
bool chunkedAttends(long long query, long long key, long long chunk);
bool iropeAttends(const IropeParams& params, int layer, long long query, long long key);
long long iropeVisibleKeys(const IropeParams& params, int layer, long long query);  // keys seen

}  // namespace poslab
