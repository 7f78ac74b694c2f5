// rope_scaling.hpp — context-extension scalings of RoPE frequencies, as Hugging Face computes them.
//
// Every formula follows transformers' modeling_rope_utils.py (_compute_*_parameters). d is the
// rotated dimension count, int(head_dim * partial_rotary_factor); s the factor; L0 the original
// (pre-extension) context; theta_i = base^(-2i/d) for pairs i = 0 .. d/2-1.
//
//   none         theta_i                                                        (HF "default")
//   linear       theta_i / s                         (position interpolation, kaiokendev)
//   ntk          base' = base * s^(d/(d-2))          (static NTK-aware; not in HF's table)
//   dynamic-ntk  base' = base * (s*L/L0 - (s-1))^(d/(d-2)),  L = max(seq_len, L0)  (HF "dynamic")
//   yarn         theta_i and theta_i / s blended by a linear ramp over the pair index, plus an
//                attention factor (0.1 ln s + 1 by default) that multiplies cos and sin
//   llama3       theta_i where the wavelength is < L0/high_freq_factor, theta_i / s where it is
//                > L0/low_freq_factor, and a linear blend in 1/wavelength in between
//   longrope     theta_i / r_i with a searched rescale list r (LongRoPE, Phi-3): short_factor while
//                seq_len <= L0, long_factor past it (HF's dynamic update); attention factor
//                sqrt(1 + ln s / ln L0) by default (1 when s <= 1)
//   proportional p-RoPE (Gemma): only the fastest floor(p d / 2) pairs rotate, with exponents
//                still over the full head dim d; the other pairs get theta = 0 (NoPE channels).
//                All of them are divided by factor (default 1), as HF does.
//                Contrast GPT-NeoX partial rotary: d' = int(p d) dims rotate, exponents over d'.
//
// HF evaluates these in float32 torch tensors; PosLab uses the same formulas in double, so the
// two agree to about 1e-7 relative (HF's rounding, not ours, is the noisier one).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

enum class RopeScaling { None, Linear, Ntk, DynamicNtk, Yarn, Llama3, LongRope, Proportional };
enum class LongRopeList { Short, Long };  // which LongRoPE rescale list a sequence length uses

// Upper bound for lengths that only enter formulas (seq_len, training_length, L0): long-context
// models advertise 10M positions, and nothing is allocated from these.
inline constexpr int kMaxRopePositions = 1 << 30;

// The rope_scaling block of a config.json. Each type reads only its own fields (listed per field);
// the others are ignored, and validate() checks only those the chosen type reads.
// YaRN's beta_fast and beta_slow: validate() accepts kMinYarnBeta..kMaxYarnBeta (configs
// use 1..64).
inline constexpr double kMinYarnBeta = 1e-6;
inline constexpr double kMaxYarnBeta = 1e6;
struct RopeScalingParams {
    RopeScaling type = RopeScaling::None;
    double factor = 1;             // s, 1..65536: every type except none (proportional: default 1)
    int originalMaxPositions = 0;  // L0; 0 = RopeParams::trainingLength (dynamic-ntk, yarn, llama3)
    double lowFreqFactor = 1;      // llama3: wavelengths above L0/low are divided by s
    double highFreqFactor = 4;     // llama3: wavelengths below L0/high are kept; >= lowFreqFactor
                                   // (equal: no smoothed band, as Llama 4 ships it)
    double betaFast = 32;          // yarn: pairs turning more than this often in L0 are kept
    double betaSlow = 1;           // yarn: pairs turning less than this often are divided by s
    std::optional<double> attentionFactor;  // yarn: overrides the computed attention factor
    std::optional<double> mscale;           // yarn (DeepSeek): with mscaleAllDim sets the factor
    std::optional<double> mscaleAllDim;     //   to get_mscale(s, mscale) / get_mscale(s, all_dim)
    bool truncate = true;  // yarn: floor/ceil the correction range to whole pairs (gpt-oss: false)
    std::vector<double> shortFactor;  // longrope: d/2 rescale factors (> 0) for seq_len <= L0
    std::vector<double> longFactor;   // longrope: d/2 rescale factors (> 0) for seq_len > L0
    double ropeProportion = 1;        // proportional: fraction p of the pairs that rotate, (0, 1]
    friend bool operator==(const RopeScalingParams&, const RopeScalingParams&) = default;  // member-wise: caches key on it
};

// Inverse frequencies after scaling. Declared here so the scalings can return it; see rope.hpp.
struct RopeFrequencies {
    std::vector<double> inverse;  // theta_i in radians per position, one per rotated pair
    double attentionFactor = 1;   // HF's attention_scaling: multiplies cos and sin (yarn only)
    int rotatedDims = 0;          // 2 * inverse.size()
    std::optional<LongRopeList> longRopeList;  // longrope: the list seq_len selected
    int zeroFrequencyPairs = 0;  // proportional: trailing pairs with theta = 0 (not rotated)
};

// What a scaling reads besides its own parameters (RopeParams supplies it; see rope.hpp).
struct RopeScalingContext {
    int rotatedDims = 128;            // d: even, >= 2 (>= 4 for ntk and dynamic-ntk)
    double base = 10000;              // rope_theta
    int seqLen = 4096;                // the current sequence length (dynamic-ntk only)
    int originalMaxPositions = 4096;  // L0, already resolved (never 0 here)
};

// ---- Names, for the command line, the GUI and saved files
inline constexpr EnumNames<RopeScaling, 8> kScalingNames{
    {{RopeScaling::None, "none"},
     {RopeScaling::Linear, "linear"},
     {RopeScaling::Ntk, "ntk"},
     {RopeScaling::DynamicNtk, "dynamic-ntk"},
     {RopeScaling::Yarn, "yarn"},
     {RopeScaling::Llama3, "llama3"},
     {RopeScaling::LongRope, "longrope"},
     {RopeScaling::Proportional, "proportional"}}};
std::string_view scalingName(RopeScaling type);  // "none", "linear", "ntk", "dynamic-ntk", ...
// Inverse of scalingName() for the six types a few numbers set (none .. llama3); longrope and
// proportional are read from a config.json only (their lists / layout are not options).
Result<RopeScaling> parseScaling(std::string_view name);

// ---- Validation and evaluation
Status validate(const RopeScalingParams& scaling);  // the fields scaling.type reads
Result<RopeFrequencies> scaledFrequencies(const RopeScalingParams& scaling,
                                          const RopeScalingContext& context);

// ---- The pieces, exposed for the GUI's explanations and for tests
std::vector<double> defaultInverseFrequencies(int rotatedDims, double base);  // base^(-2i/d)
double ntkScaledBase(double base, double factor, int rotatedDims);            // base * s^(d/(d-2))
double dynamicNtkBase(double base, double factor, int rotatedDims, int seqLen,
                      int originalMaxPositions);  // the base HF uses at this seq_len

double yarnMscale(double scale, double mscale = 1);  // get_mscale: 0.1*mscale*ln(s) + 1; 1 if s<=1
double yarnAttentionFactor(const RopeScalingParams& scaling);  // attention_factor as HF sets it
// The (fractional) pair index whose wavelength fits `rotations` times into L0.
double yarnCorrectionDim(double rotations, int rotatedDims, double base, int originalMaxPositions);
struct YarnCorrectionRange {
    double low = 0;   // pairs <= low keep theta_i (extrapolation)
    double high = 0;  // pairs >= high use theta_i / s (interpolation)
};
// find_correction_range: floor/ceil when truncate, then clamped to [0, d - 1] (sic: d, not d/2).
YarnCorrectionRange yarnCorrectionRange(const RopeScalingParams& scaling,
                                        const RopeScalingContext& context);
// linear_ramp_factor: clamp((i - low) / (high - low), 0, 1) for pairs i; high += 0.001 if equal.
// 0 keeps theta_i, 1 divides it by s.
std::vector<double> yarnRamp(const YarnCorrectionRange& range, int pairs);

// LongRoPE (HF _compute_longrope_parameters): the list seq_len selects, and the default
// attention factor sqrt(1 + ln s / ln L0), 1 when s <= 1.
LongRopeList longRopeListFor(int seqLen, int originalMaxPositions);  // Long iff seqLen > L0
double longRopeAttentionFactor(double factor, int originalMaxPositions);

// p-RoPE (HF "proportional"): headDim/2 entries, base^(-2i/headDim) for the first
// floor(p * headDim / 2) pairs, 0 after them.
int proportionalRotatedPairs(int headDim, double proportion);
std::vector<double> proportionalInverseFrequencies(int headDim, double base, double proportion);

enum class Llama3Band { Kept, Smoothed, Divided };  // wavelength < L0/high, between, > L0/low
Llama3Band llama3Band(double wavelength, const RopeScalingParams& scaling,
                      int originalMaxPositions);

}  // namespace poslab
