#include "poslab/encodings/randomized_positions.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "poslab/base/limits.hpp"
#include "poslab/base/parallel.hpp"
#include "poslab/base/random.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

Status validate(const RandomizedPositionsParams& params) {
    if (auto s = requireIntInRange("max_length", params.maxLength, 1, kMaxRandomizedRange); !s) {
        return s;
    }
    const long long most = std::min<long long>(params.maxLength, kMaxGuiSeqLen);
    if (auto s = requireIntInRange("length", params.length, 1, most); !s) return s;
    return requireIntInRange("draws", params.draws, 1, kMaxRandomizedDraws);
}

namespace {

// Algorithm S's test for position t of maxLength (`left` = maxLength - t positions left, `needed`
// still to take) on x, the engine's output >> 11: the expression every draw has used, so the same
// seed gives the same positions.
bool algorithmSTakes(std::uint64_t x, long long left, long long needed) {
    const double u = double(x) * 0x1.0p-53;  // [0, 1)
    return double(left) * u < double(needed);
}

// An x = word >> 11 that passes algorithmSTakes() with at most `needed` still needed and at least
// `least` positions left is below this bound: left * x 2^-53 >= needed once x >= needed 2^53 /
// least (the rounded product is then >= needed too: rounding is monotone and needed is exact); the
// quotient is rounded up generously.
std::uint64_t selectionCandidateBound(long long needed, long long least) {
    const double bound = std::ldexp(double(needed), 53) / double(least) * (1 + 0x1.0p-40) + 2;
    return bound >= 0x1.0p63 ? ~std::uint64_t{0} : std::uint64_t(bound);
}

// hits[i] = 1 where the tempered word i, >> 11, is below `bound` (a candidate), else 0; returns
// whether there is any. Branch-free over the block, so it runs in the SIMD lanes (the AVX2 clone
// where the processor has it: integer operations, the same results).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
bool screenSelectionBlock(const std::uint64_t* words, int count, std::uint64_t bound,
                          unsigned char* hits) {
    unsigned char any = 0;
    for (int i = 0; i < count; ++i) {
        hits[i] = (Mt19937_64Blocks::temper(words[i]) >> 11) < bound;
        any |= hits[i];
    }
    return any != 0;
}

}  // namespace

std::vector<long long> sampleSortedPositions(int length, long long maxLength, std::uint64_t seed) {
    std::vector<long long> chosen;
    if (length <= 0 || maxLength < length) return chosen;
    chosen.reserve(std::size_t(length));
    // Algorithm S: walk 0..N-1, taking t with probability (still needed) / (still left). Every
    // L-subset is equally likely and the output comes out sorted. The engine is std::mt19937_64
    // (the same outputs), regenerated 312 words at a time (Mt19937_64Blocks), and each block is
    // first screened by one integer comparison per word against a bound no taken word can reach
    // (algorithmSTakes() decides the few below it): N = 2^24 positions take one pass of cheap
    // vector work instead of 2^24 calls to the engine.
    constexpr int kWords = Mt19937_64Blocks::kWords;
    Mt19937_64Blocks engine(seed);
    long long needed = length;
    unsigned char hits[kWords + 8] = {};  // 8 bytes past the block stay 0: read 8 at a time
    for (long long t = 0; t < maxLength && needed > 0;) {
        engine.nextBlock();
        const std::uint64_t* words = engine.words();
        const int count = int(std::min<long long>(kWords, maxLength - t));
        const std::uint64_t bound = selectionCandidateBound(needed, maxLength - (t + count - 1));
        if (screenSelectionBlock(words, count, bound, hits)) {
            for (int i0 = 0; i0 < count && needed > 0; i0 += 8) {
                std::uint64_t eight;  // hits[i0 .. i0 + 7]: skipped together when all are 0
                std::memcpy(&eight, hits + i0, sizeof eight);
                if (eight == 0) continue;
                for (int i = i0; i < std::min(count, i0 + 8) && needed > 0; ++i) {
                    if (hits[i] && algorithmSTakes(Mt19937_64Blocks::temper(words[i]) >> 11,
                                                   maxLength - (t + i), needed)) {
                        chosen.push_back(t + i);
                        --needed;
                    }
                }
            }
        }
        t += count;
    }
    return chosen;
}

std::vector<long long> randomizedDraw(const RandomizedPositionsParams& params, int draw) {
    const std::uint64_t seed = params.seed * 0x9e3779b97f4a7c15ull + std::uint64_t(draw) + 1;
    return sampleSortedPositions(params.length, params.maxLength, seed);
}

std::vector<std::vector<long long>> randomizedDraws(const RandomizedPositionsParams& params) {
    std::vector<std::vector<long long>> draws(std::size_t(std::max(params.draws, 0)));
    parallelFor((long long)draws.size(), 1, [&](long long first, long long last) {
        for (long long d = first; d < last; ++d)
            draws[std::size_t(d)] = randomizedDraw(params, int(d));
    });
    return draws;
}

double expectedOrderStatistic(int k, int length, long long maxLength) {
    return double(k + 1) * double(maxLength + 1) / double(length + 1) - 1.0;
}

double orderStatisticStd(int k, int length, long long maxLength) {
    const double r = k + 1, l = length, n = double(maxLength);
    const double variance = r * (l + 1 - r) * (n + 1) * (n - l) / ((l + 1) * (l + 1) * (l + 2));
    return std::sqrt(std::max(variance, 0.0));
}

}  // namespace poslab
