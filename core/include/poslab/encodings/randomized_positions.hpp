// randomized_positions.hpp — randomized positional encodings (Ruoss et al. 2023, "Randomized
// Positional Encodings Boost Length Generalization of Transformers").
//
// In training, a sequence of length L does not get positions 0..L-1: it gets L positions drawn
// without replacement from 0..N-1 (N much larger than L, the longest length ever tested) and
// sorted, and the usual encoding (sinusoidal, learned, RoPE, ...) is applied to those. The model
// sees every position up to N during training and only their order is informative, so a longer
// test sequence uses positions it already knows. The authors draw with their framework's random
// generator (jax.random.choice, replace=False); PosLab draws with selection sampling (Knuth's
// algorithm S) on mt19937_64, uniform over all L-subsets as theirs, not the same numbers.
//
// Order statistics (derivation in the test): the k-th smallest of a uniform L-subset of
// {1..N}, k = 1..L, has mean k (N + 1) / (L + 1) and variance
// k (L + 1 - k) (N + 1) (N - L) / ((L + 1)^2 (L + 2)). With 0-based k and values 0..N-1:
//   E[p_k] = (k + 1)(N + 1)/(L + 1) - 1,   k = 0..L-1,
// against the plain position k: the expected spacing is (N + 1)/(L + 1) instead of 1.
#pragma once

#include <cstdint>
#include <vector>

#include "poslab/base/result.hpp"

namespace poslab {

inline constexpr long long kMaxRandomizedRange = 1LL << 24;  // N: 1..16,777,216
inline constexpr int kMaxRandomizedDraws = 64;

struct RandomizedPositionsParams {
    int length = 40;             // L: positions per sequence, 1..N (and <= 65536)
    long long maxLength = 2048;  // N: positions drawn from 0..N-1
    int draws = 4;               // sequences shown, 1..64
    std::uint64_t seed = 0;
    friend bool operator==(const RandomizedPositionsParams&,
                           const RandomizedPositionsParams&) =
        default;  // member-wise: caches key on it
};
Status validate(const RandomizedPositionsParams& params);  // "length must be 1..2048 (got 0)"

// L sorted distinct positions from 0..N-1, every L-subset equally likely; same seed, same draw.
// Precondition: 1 <= length <= maxLength.
std::vector<long long> sampleSortedPositions(int length, long long maxLength, std::uint64_t seed);
// Draw d of params (d = 0..draws-1): sampleSortedPositions with a seed derived from (seed, d).
std::vector<long long> randomizedDraw(const RandomizedPositionsParams& params, int draw);
// Every draw, d = 0..draws-1, the draws shared out between the cores (each is one pass over N).
std::vector<std::vector<long long>> randomizedDraws(const RandomizedPositionsParams& params);
// 0-based k: E[p_k] and its standard deviation (see above).
double expectedOrderStatistic(int k, int length, long long maxLength);
double orderStatisticStd(int k, int length, long long maxLength);

}  // namespace poslab
