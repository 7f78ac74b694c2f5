#include "poslab/base/random.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "poslab/base/parallel.hpp"

namespace poslab {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr double kUnit = 1.0 / 9007199254740992.0;  // 2^-53: 53 random bits -> [0, 1)

}  // namespace

NormalSampler::Pair NormalSampler::fromOutputs(std::uint64_t a, std::uint64_t b) {
    const double u2 = double(b >> 11) * kUnit;  // [0, 1)
    const double r = radius(a);
    return {r * std::cos(kTwoPi * u2), r * std::sin(kTwoPi * u2)};
}

double NormalSampler::radius(std::uint64_t a) {
    const double u1 = double((a >> 11) + 1) * kUnit;  // (0, 1]: log(u1) stays finite
    return std::sqrt(-2.0 * std::log(u1));
}

double NormalSampler::next() {
    if (hasSpare_) {
        hasSpare_ = false;
        return spare_;
    }
    const std::uint64_t a = engine_();
    const std::uint64_t b = engine_();
    const NormalSampler::Pair pair = fromOutputs(a, b);
    spare_ = pair.second;
    hasSpare_ = true;
    return pair.first;
}

Mt19937_64Blocks::Mt19937_64Blocks(std::uint64_t seed) {
    // [rand.eng.mers]: x_i = f * (x_{i-1} xor (x_{i-1} >> (w - 2))) + i, f = 6364136223846793005.
    state_[0] = seed;
    for (int i = 1; i < kWords; ++i) {
        state_[i] =
            6364136223846793005ULL * (state_[i - 1] ^ (state_[i - 1] >> 62)) + std::uint64_t(i);
    }
}

// The AVX2 clone where the processor has it: integer operations only, the same words.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
void Mt19937_64Blocks::nextBlock() {
    // The twist: x_k = x_{k+m} xor (y >> 1) xor (a if y is odd), y = upper bit of x_k and lower
    // 63 of x_{k+1}; n = 312, m = 156. The first half reads only words not yet replaced, the
    // second half words the first half replaced, so each half is a loop without dependencies.
    constexpr std::uint64_t kUpper = ~std::uint64_t{0} << 31, kLower = ~kUpper;
    constexpr std::uint64_t kMatrix = 0xB5026F5AA96619E9ULL;
    constexpr int kShift = 156;
    std::uint64_t* x = state_;
    for (int k = 0; k < kWords - kShift; ++k) {
        const std::uint64_t y = (x[k] & kUpper) | (x[k + 1] & kLower);
        x[k] = x[k + kShift] ^ (y >> 1) ^ ((0 - (y & 1)) & kMatrix);
    }
    for (int k = kWords - kShift; k < kWords - 1; ++k) {
        const std::uint64_t y = (x[k] & kUpper) | (x[k + 1] & kLower);
        x[k] = x[k + kShift - kWords] ^ (y >> 1) ^ ((0 - (y & 1)) & kMatrix);
    }
    const std::uint64_t y = (x[kWords - 1] & kUpper) | (x[0] & kLower);
    x[kWords - 1] = x[kShift - 1] ^ (y >> 1) ^ ((0 - (y & 1)) & kMatrix);
}

void fillScaledNormals(double* values, std::size_t count, std::uint64_t seed, double scale) {
    ScaledNormalStream(seed, scale).fill(values, count);
}

void ScaledNormalStream::fill(double* values, std::size_t count) {
    if (count > 0 && hasSpare_) {
        *values++ = spare_;
        --count;
        hasSpare_ = false;
    }
    // Chunks of 1.2 MiB of words: tens of milliseconds of transforms per core, next to tens of
    // microseconds to start a thread. The words are drawn in order on this thread.
    constexpr std::size_t kWords = Mt19937_64Blocks::kWords;
    constexpr std::size_t kPairsPerChunk = 512 * kWords / 2;
    const std::size_t pairs = count / 2 + count % 2;  // an odd count ends on a pair's first value
    for (std::size_t p0 = 0; p0 < pairs; p0 += kPairsPerChunk) {
        const std::size_t chunkPairs = std::min(kPairsPerChunk, pairs - p0);
        words_.resize(2 * chunkPairs);
        for (std::size_t w = 0; w < words_.size();) {  // word_ stays even: pairs never straddle
            if (word_ == int(kWords)) {
                engine_.nextBlock();
                word_ = 0;
            }
            const std::size_t taken = std::min(kWords - std::size_t(word_), words_.size() - w);
            std::copy_n(engine_.words() + word_, taken, words_.data() + w);
            word_ += int(taken);
            w += taken;
        }
        parallelFor((long long)chunkPairs, 4096, [&](long long first, long long last) {
            for (auto p = std::size_t(first); p < std::size_t(last); ++p) {
                const NormalSampler::Pair pair =
                    NormalSampler::fromOutputs(Mt19937_64Blocks::temper(words_[2 * p]),
                                               Mt19937_64Blocks::temper(words_[2 * p + 1]));
                const std::size_t index = 2 * (p0 + p);
                values[index] = scale_ * pair.first;
                if (index + 1 < count) {
                    values[index + 1] = scale_ * pair.second;
                } else {
                    spare_ = scale_ * pair.second;  // the last pair only: one writer
                    hasSpare_ = true;
                }
            }
        });
    }
}

}  // namespace poslab
