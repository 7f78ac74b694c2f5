// RoPE attention scores of one query/key pair: the 2L-1 offset scores (O(L d): a score depends on
// m - n alone) and the L x L matrix filled from them (O(L^2) copies). RopeTest checks the values;
// these measure the speed the test used to bound with a wall clock.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "poslab/encodings/rope.hpp"

namespace {

std::vector<double> gaussianVector(int size, unsigned seed) {
    std::mt19937_64 engine(seed);
    std::normal_distribution<double> normal;
    std::vector<double> v(std::size_t(size), 0.0);
    for (double& x : v) x = normal(engine);
    return v;
}

poslab::RopeFrequencies headFrequencies(int headDim) {
    poslab::RopeParams params;
    params.headDim = headDim;
    return poslab::ropeFrequencies(params).value();
}

// state.range(0): sequence length L; state.range(1): head_dim.
void BM_RopeOffsetScores(benchmark::State& state) {
    const int length = int(state.range(0)), headDim = int(state.range(1));
    const poslab::RopeFrequencies freqs = headFrequencies(headDim);
    const std::vector<double> q = gaussianVector(headDim, 1), k = gaussianVector(headDim, 2);
    for (auto _ : state) {
        auto scores = poslab::ropeOffsetScores(q, k, length, freqs, poslab::RopePairing::Half);
        benchmark::DoNotOptimize(scores.value().data());
    }
}
BENCHMARK(BM_RopeOffsetScores)->Args({4096, 128})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RopeOffsetScores)->Name("BM_RopeOffsetScoresSmall")->Args({64, 16});

void BM_RopeScoreMatrix(benchmark::State& state) {
    const int length = int(state.range(0)), headDim = int(state.range(1));
    const poslab::RopeFrequencies freqs = headFrequencies(headDim);
    const std::vector<double> q = gaussianVector(headDim, 1), k = gaussianVector(headDim, 2);
    for (auto _ : state) {
        auto matrix = poslab::ropeScoreMatrix(q, k, length, freqs, poslab::RopePairing::Half);
        benchmark::DoNotOptimize(matrix.value().values.data());
    }
    state.counters["ns_per_cell"] = benchmark::Counter(
        double(length) * double(length),
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_RopeScoreMatrix)->Args({4096, 128})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RopeScoreMatrix)->Name("BM_RopeScoreMatrixSmall")->Args({64, 16});

}  // namespace
