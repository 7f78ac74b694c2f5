// learned.hpp — learned absolute position embeddings (BERT, GPT-2), shown at initialisation.
//
// A learned table is an nn.Embedding(seq_len, d_model): one free vector per position, trained
// from random normal values (GPT-2 and BERT initialise with std 0.02). Without a checkpoint
// the honest picture is that initial table: noise with no structure across positions. Load a
// trained table from a .npy file (npy_reader.hpp) to see what training makes of it.
//
// Draws come from NormalSampler (random.hpp): the same values for a seed with every standard
// library.
#pragma once

#include <cstdint>

#include "poslab/base/matrix.hpp"
#include "poslab/base/random.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

struct LearnedParams {
    int seqLen = 512;        // rows (positions), 1..kMaxSeqLen
    int dModel = 64;         // columns, 1..8192
    std::uint64_t seed = 0;  // the same seed always gives the same table
    double std = 0.02;       // standard deviation of the initial values, 0..100
    friend bool operator==(const LearnedParams&, const LearnedParams&) = default;  // member-wise: caches key on it
};

Status validate(const LearnedParams& params);  // ranges and memory cap
// seqLen x dModel, filled row by row with std * NormalSampler(seed).next(): a longer table
// starts with the rows of a shorter one (same seed and dModel).
Result<Matrix> learnedTable(const LearnedParams& params);

}  // namespace poslab
