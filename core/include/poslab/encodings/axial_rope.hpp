// axial_rope.hpp — 2-D axial RoPE for vision transformers: a patch at column x, row y of the
// patch grid rotates half of its pairs by x * theta and the other half by y * theta, so the
// score of two patches depends on (dx, dy) only.
//
// Two published layouts, with d = head_dim (a multiple of 4) and d/2 rotary pairs:
//   RopeVit  (Heo et al. 2024, "Rotary Position Embedding for Vision Transformer", axial;
//            compute_axial_cis): theta_k = base^(-4k/d), k = 0 .. d/4-1; pairs 0 .. d/4-1 turn
//            with x, pairs d/4 .. d/2-1 with y, the same theta_k each. Pair p = dims (2p, 2p+1)
//            (complex view of adjacent dims). The paper's base is 100.
//   Pixtral  (HF PixtralRotaryEmbedding): freqs_j = base^(-2j/d), j = 0 .. d/2-1; freqs_h takes
//            the even j, freqs_w the odd j; pairs 0 .. d/4-1 turn with the row y (h) by
//            base^(-4k/d), pairs d/4 .. d/2-1 with the column x (w) by base^(-(4k+2)/d). Pair p =
//            dims (p, p + d/2) (rotate_half). Pixtral-12B: head_dim 64, rope_theta 10000.
// Scores are q . k after both rotations, over |q| |k| (so q = k = ones gives 1 at the query).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

enum class AxialRopeLayout { RopeVit, Pixtral };
enum class PatchAxis { X, Y };             // column, row
enum class AxialVectors { Ones, Random };  // q = k = ones, or seeded Gaussian q and k
inline constexpr EnumNames<AxialRopeLayout, 2> kAxialRopeLayoutNames{
    {{AxialRopeLayout::RopeVit, "rope-vit"}, {AxialRopeLayout::Pixtral, "pixtral"}}};
inline constexpr EnumNames<AxialVectors, 2> kAxialVectorNames{
    {{AxialVectors::Ones, "ones"}, {AxialVectors::Random, "random"}}};
std::string_view axialRopeLayoutName(AxialRopeLayout layout);
Result<AxialRopeLayout> parseAxialRopeLayout(std::string_view name);
std::string_view axialVectorsName(AxialVectors vectors);
Result<AxialVectors> parseAxialVectors(std::string_view name);

inline constexpr int kMaxAxialGridSide = 256;

struct AxialRopeParams {
    AxialRopeLayout layout = AxialRopeLayout::RopeVit;
    int headDim = 64;            // multiple of 4, 4..1024
    double base = 100;           // > 1 and <= 1e12
    int gridWidth = 16;          // patches per row, 1..256
    int gridHeight = 16;         // patches per column, 1..256
    int queryX = 5, queryY = 7;  // the query patch, inside the grid
    AxialVectors vectors = AxialVectors::Ones;
    std::uint64_t seed = 0;  // random vectors: q = gaussian(seed), k = gaussian(seed + 1)
    friend bool operator==(const AxialRopeParams&, const AxialRopeParams&) = default;
};
Status validate(const AxialRopeParams& params);  // one line naming the field and its range

struct AxialPair {
    PatchAxis axis = PatchAxis::X;
    double theta = 0;           // radians per patch
    int first = 0, second = 0;  // the two head dimensions it rotates
};
// The d/2 pairs in pair order (see the layouts above).
Result<std::vector<AxialPair>> axialRopePairs(const AxialRopeParams& params);

// rotate(q, (qx, qy)) . rotate(k, (kx, ky)), through the offsets, O(d). q, k: head_dim entries.
double axialRopeScore(const std::vector<double>& q, const std::vector<double>& k, int qx, int qy,
                      int kx, int ky, const std::vector<AxialPair>& pairs);
// The q and k the params choose (ones, or seeded Gaussians).
std::vector<double> axialQuery(const AxialRopeParams& params);
std::vector<double> axialKey(const AxialRopeParams& params);

// gridHeight x gridWidth: row y, column x = score of the query patch with patch (x, y), over
// |q| |k|, in [-1, 1].
Result<Matrix> axialSimilarityMap(const AxialRopeParams& params);

}  // namespace poslab
