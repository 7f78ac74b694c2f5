// attention_temperature.hpp — Llama 4's attention temperature on its NoPE layers.
//
// Llama 4 ("iRoPE") interleaves RoPE layers with NoPE layers; on the NoPE layers the queries are
// multiplied by a scale that grows with the log of the position, so attention stays sharp at
// long context (Nakanishi 2025, "Scalable-Softmax Is Superior for Attention", arXiv 2501.19399).
// Hugging Face transformers (models/llama4/modeling_llama4.py, Llama4TextAttention.forward,
// when attn_temperature_tuning is set and the layer does not use RoPE) computes, per position:
//
//   attn_scales = log1p(floor((cache_position.float() + 1.0) / floor_scale)) * attn_scale + 1.0
//
// in float32 (cache_position is cast with .float(); the Python scalars join float32 tensors as
// float32). The scale is a staircase: exactly 1 for positions 0..floor_scale-2, then
// 1 + attn_scale * log(k + 1) on the k-th step of floor_scale positions. Llama 4 Scout and
// Maverick ship floor_scale 8192, attn_scale 0.1.
//
// Usage: validate(params), then attentionTemperature(params, position) for one position or
// attentionTemperatures(params, positions) for a curve.
#pragma once

#include <cstdint>
#include <vector>

#include "poslab/base/result.hpp"

namespace poslab {

inline constexpr double kMaxTemperatureFloorScale = 1e9;   // floor_scale upper bound
inline constexpr double kMaxTemperatureAttnScale = 100.0;  // attn_scale upper bound
inline constexpr std::int64_t kMaxTemperaturePosition = std::int64_t(1) << 40;  // positions

struct AttentionTemperatureParams {
    double floorScale = 8192.0;  // floor_scale: positions per step of the staircase, > 0..1e9
    double attnScale = 0.1;      // attn_scale: scale gained per unit of log1p(step), 0..100
    friend bool operator==(const AttentionTemperatureParams&,
                           const AttentionTemperatureParams&) = default;  // caches key on it
};

// ---- Validation
Status validate(const AttentionTemperatureParams& params);  // ranges above, finite

// ---- The scale
// HF's attn_scales for one cache position (0-based), evaluated in float32 the way torch does
// and returned widened to double. Precondition: validate(params) and 0 <= position <= 2^40
// (positions past 2^24 round in float32 exactly as cache_position.float() does).
double attentionTemperature(const AttentionTemperatureParams& params, std::int64_t position);
// The scale at each position; refuses invalid params and negative or too large positions.
Result<std::vector<double>> attentionTemperatures(const AttentionTemperatureParams& params,
                                                  const std::vector<std::int64_t>& positions);

}  // namespace poslab
