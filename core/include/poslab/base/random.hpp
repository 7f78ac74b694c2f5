// random.hpp — the one seeded standard normal generator behind every random draw in PosLab: the
// learned tables' initial values, RoPE's random q and k, ALiBi's content logits, T5's bucket
// values and the meaning views' word vectors.
//
// Saved figures, exported files and tests rely on a seed giving the same numbers everywhere, so
// the recipe is written out here instead of using std::normal_distribution, whose algorithm is
// implementation-defined (libstdc++, libc++ and MSVC give different values). The engine is
// std::mt19937_64, whose output sequence the C++ standard fixes ([rand.predef]).
//
// Usage:
//   NormalSampler sampler(seed);
//   for (double& value : table.values) value = std * sampler.next();
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace poslab {

// Standard normal values by the Box-Muller transform. Per pair of engine outputs a, b:
//   u1 = ((a >> 11) + 1) / 2^53 in (0, 1],  u2 = (b >> 11) / 2^53 in [0, 1),
//   r = sqrt(-2 ln u1),  next() returns r cos(2 pi u2) and then r sin(2 pi u2).
// So n draws are always the first n of a longer run with the same seed.
class NormalSampler {
  public:
    explicit NormalSampler(std::uint64_t seed) : engine_(seed) {}
    double next();  // one N(0, 1) value
    // The pair next() makes of two engine outputs a, b (for code that walks the engine itself
    // and transforms only the pairs it needs): r cos(2 pi u2) and r sin(2 pi u2).
    struct Pair {
        double first, second;
    };
    static Pair fromOutputs(std::uint64_t a, std::uint64_t b);
    // Every value of the pair from outputs a, b has |value| <= radius(a) = sqrt(-2 ln u1).
    static double radius(std::uint64_t a);

  private:
    std::mt19937_64 engine_;
    double spare_ = 0;  // the sine half of the last pair
    bool hasSpare_ = false;
};

// std::mt19937_64's output sequence (the same numbers for the same seed), for code that walks
// hundreds of millions of outputs and tempers only those it looks at: the state is regenerated
// 312 words at a time by a loop that vectorises (libstdc++'s does not), and raw(k) / tempered
// values are read from the block.
class Mt19937_64Blocks {
  public:
    static constexpr int kWords = 312;
    explicit Mt19937_64Blocks(std::uint64_t seed);
    void nextBlock();  // the next 312 outputs, untempered, in words()
    const std::uint64_t* words() const { return state_; }
    static std::uint64_t temper(std::uint64_t y) {
        y ^= (y >> 29) & 0x5555555555555555ULL;
        y ^= (y << 17) & 0x71D67FFFEDA60000ULL;
        y ^= (y << 37) & 0xFFF7EEE000000000ULL;
        return y ^ (y >> 43);
    }

  private:
    std::uint64_t state_[kWords];
};

// values[i] = scale * (the i-th next() of NormalSampler(seed)) for i < count: the same bits as
// the loop with next(), the engine's words drawn in order on the calling thread and the
// Box-Muller transforms (the cost: a log, a square root, a sine and a cosine per pair) shared
// between the cores. For tables of millions of values (learnedTable).
void fillScaledNormals(double* values, std::size_t count, std::uint64_t seed, double scale);

// fillScaledNormals' values a piece at a time: each fill(values, count) writes the next `count`
// values of scale * NormalSampler(seed).next() (any counts: a pair split between two pieces
// keeps its sine half for the next), the transforms shared between the cores as there. For
// tables too large to hold that are reduced as they are drawn (the extrapolation figure's
// learned panel sums 65536 x 1024 values into its texels).
class ScaledNormalStream {
  public:
    ScaledNormalStream(std::uint64_t seed, double scale) : engine_(seed), scale_(scale) {}
    void fill(double* values, std::size_t count);

  private:
    Mt19937_64Blocks engine_;
    int word_ = Mt19937_64Blocks::kWords;  // the next unread word of engine_'s block
    double scale_;
    double spare_ = 0;  // the sine half of the last pair, when a piece ended on its cosine
    bool hasSpare_ = false;
    std::vector<std::uint64_t> words_;  // a chunk's engine outputs, untempered
};

}  // namespace poslab
