// Similarity matrices (issue 5: the cosine matrix for L = 4096, d = 1024 at least 20x faster than
// numpy's normalised PE @ PE.T with OpenBLAS; tests/bench/numpy_similarity.py is that baseline).
//
// The sinusoidal and RoPE matrices depend on i - j only: one O(L d) row, then a Toeplitz fill.
// "Fresh" allocates the 128 MiB result each time, as numpy does; "Reused" writes into a matrix
// kept from the previous iteration (what a live view does). The learned Gram matrix has no such
// structure and is O(L^2 d), shown for scale.
#include <benchmark/benchmark.h>

#include "poslab/analysis/similarity.hpp"

namespace {

poslab::SimilarityParams sinusoidalParams(int length, int d) {
    poslab::SimilarityParams params;
    params.encoding = poslab::SimilarityEncoding::Sinusoidal;
    params.metric = poslab::SimilarityMetric::Cosine;
    params.seqLen = length;
    params.sinusoidal.dModel = d;
    return params;
}

void BM_SinusoidalCosineFresh(benchmark::State& state) {
    const auto params = sinusoidalParams(int(state.range(0)), int(state.range(1)));
    for (auto _ : state) {
        auto matrix = poslab::similarityMatrix(params);
        benchmark::DoNotOptimize(matrix.value().values.data());
    }
}
// Process CPU time: the helper threads that map the fresh pages count too.
BENCHMARK(BM_SinusoidalCosineFresh)
    ->Args({4096, 1024})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(BM_SinusoidalCosineFresh)->Name("BM_SinusoidalCosineSmall")->Args({256, 128});

void BM_SinusoidalCosineReused(benchmark::State& state) {
    const auto params = sinusoidalParams(int(state.range(0)), int(state.range(1)));
    poslab::Matrix matrix;
    for (auto _ : state) {
        auto status = poslab::similarityMatrixInto(matrix, params);
        benchmark::DoNotOptimize(matrix.values.data());
        benchmark::DoNotOptimize(status.ok());
    }
}
BENCHMARK(BM_SinusoidalCosineReused)->Args({4096, 1024})->Unit(benchmark::kMillisecond);

// Odd d_model: Toeplitz plus a rank-one term and per-row norms (still O(L d) + O(L^2)).
BENCHMARK(BM_SinusoidalCosineFresh)
    ->Name("BM_SinusoidalCosineOddD")
    ->Args({4096, 1023})
    ->Unit(benchmark::kMillisecond);

// The O(L d) part alone: the offset profile.
void BM_SinusoidalOffsetProfile(benchmark::State& state) {
    const auto params = sinusoidalParams(int(state.range(0)), int(state.range(1)));
    for (auto _ : state) {
        auto offsets = poslab::offsetSimilarity(params);
        benchmark::DoNotOptimize(offsets.value().byOffset.data());
    }
}
BENCHMARK(BM_SinusoidalOffsetProfile)->Args({4096, 1024})->Unit(benchmark::kMicrosecond);

void BM_RopeExpectedCosine(benchmark::State& state) {
    poslab::SimilarityParams params;
    params.encoding = poslab::SimilarityEncoding::Rope;
    params.seqLen = int(state.range(0));
    params.rope.headDim = int(state.range(1));
    for (auto _ : state) {
        auto matrix = poslab::similarityMatrix(params);
        benchmark::DoNotOptimize(matrix.value().values.data());
    }
}
BENCHMARK(BM_RopeExpectedCosine)->Args({4096, 128})->Unit(benchmark::kMillisecond);

void BM_LearnedGramCosine(benchmark::State& state) {
    poslab::SimilarityParams params;
    params.encoding = poslab::SimilarityEncoding::Learned;
    params.seqLen = int(state.range(0));
    params.learned.dModel = int(state.range(1));
    for (auto _ : state) {
        auto matrix = poslab::similarityMatrix(params);
        benchmark::DoNotOptimize(matrix.value().values.data());
    }
}
BENCHMARK(BM_LearnedGramCosine)->Args({1024, 1024})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LearnedGramCosine)->Name("BM_LearnedGramCosineSmall")->Args({128, 64});

}  // namespace

namespace {

// What the live heatmap computes when the parameters change at 65536 positions: the O(L d)
// profile, then 800 x 800 block-mean texels from prefix sums (O(1) each).
void BM_SimilarityLiveSample(benchmark::State& state) {
    poslab::SimilarityParams params;
    params.seqLen = 65536;
    params.sinusoidal.dModel = int(state.range(0));
    for (auto _ : state) {
        auto offsets = poslab::offsetSimilarity(params);
        auto sample = poslab::offsetSimilaritySample(offsets.value(), {}, 800, 800);
        benchmark::DoNotOptimize(sample.values->values.data());
    }
}
BENCHMARK(BM_SimilarityLiveSample)->Arg(1024)->Unit(benchmark::kMillisecond);

}  // namespace
