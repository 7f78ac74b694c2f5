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

#include <cstdint>
#include <random>

namespace poslab {

// Standard normal values by the Box-Muller transform. Per pair of engine outputs a, b:
//   u1 = ((a >> 11) + 1) / 2^53 in (0, 1],  u2 = (b >> 11) / 2^53 in [0, 1),
//   r = sqrt(-2 ln u1),  next() returns r cos(2 pi u2) and then r sin(2 pi u2).
// So n draws are always the first n of a longer run with the same seed.
class NormalSampler {
  public:
    explicit NormalSampler(std::uint64_t seed) : engine_(seed) {}
    double next();  // one N(0, 1) value

  private:
    std::mt19937_64 engine_;
    double spare_ = 0;  // the sine half of the last pair
    bool hasSpare_ = false;
};

}  // namespace poslab
