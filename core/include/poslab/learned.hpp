// learned.hpp — learned absolute position embeddings (BERT, GPT-2), shown at initialisation.
//
// A learned table is an nn.Embedding(seq_len, d_model): one free vector per position, trained
// from random normal values (GPT-2 and BERT initialise with std 0.02). Without a checkpoint
// the honest picture is that initial table: noise with no structure across positions. Load a
// trained table from a .npy file (npy_reader.hpp) to see what training makes of it.
//
// Draws come from NormalSampler: std::mt19937_64 (its output sequence is fixed by the C++
// standard) and a Box-Muller transform written out here, because std::normal_distribution is
// implementation-defined and would give different tables with libstdc++, libc++ and MSVC.
#pragma once

#include <cstdint>
#include <random>

#include "poslab/matrix.hpp"
#include "poslab/result.hpp"

namespace poslab {

// Standard normal values. Per pair of engine outputs a, b:
//   u1 = ((a >> 11) + 1) / 2^53 in (0, 1],  u2 = (b >> 11) / 2^53 in [0, 1),
//   r = sqrt(-2 ln u1),  next() returns r cos(2 pi u2) and then r sin(2 pi u2).
// (The convention rope.hpp's seededGaussianVector follows, so the two agree for a seed.)
class NormalSampler {
  public:
    explicit NormalSampler(std::uint64_t seed) : engine_(seed) {}
    double next();  // one N(0, 1) value

  private:
    std::mt19937_64 engine_;
    double spare_ = 0;  // the sine half of the last pair
    bool hasSpare_ = false;
};

struct LearnedParams {
    int seqLen = 512;        // rows (positions), 1..kMaxSeqLen
    int dModel = 64;         // columns, 1..8192
    std::uint64_t seed = 0;  // the same seed always gives the same table
    double std = 0.02;       // standard deviation of the initial values, 0..100
};

Status validate(const LearnedParams& params);  // ranges and memory cap
// seqLen x dModel, filled row by row with std * NormalSampler(seed).next(): a longer table
// starts with the rows of a shorter one (same seed and dModel).
Result<Matrix> learnedTable(const LearnedParams& params);

}  // namespace poslab
