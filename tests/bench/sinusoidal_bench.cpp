// Sinusoidal table throughput (issue: <= 1.5 ns per value for 8192 x 1024 on one core) beside a
// plain memory write of the same bytes, and the per-frame sample behind the live heatmap.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "poslab/encodings/rope.hpp"
#include "poslab/encodings/sinusoidal.hpp"
#include "poslab/views/rope_figures.hpp"
#include "poslab/views/sinusoidal_figures.hpp"

namespace {

void reportPerValue(benchmark::State& state, double values) {
    state.counters["ns_per_value"] = benchmark::Counter(
        values, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(values) * 8);
}

void BM_SinusoidalTable(benchmark::State& state) {
    poslab::SinusoidalParams params;
    params.dModel = int(state.range(1));
    params.seqLen = int(state.range(0));
    for (auto _ : state) {
        auto table = poslab::sinusoidalTable(params);
        benchmark::DoNotOptimize(table.value().values.data());
    }
    reportPerValue(state, double(params.seqLen) * params.dModel);
}
BENCHMARK(BM_SinusoidalTable)->Args({8192, 1024})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SinusoidalTable)->Name("BM_SinusoidalTableSmall")->Args({256, 128});

// The same table into memory that is already mapped: the cost of the maths and the stores alone
// (on this VM a fresh 64 MiB allocation costs ~60 ms of page faults by itself; see MemoryWrite).
void BM_SinusoidalTableReused(benchmark::State& state) {
    poslab::SinusoidalParams params;
    params.dModel = int(state.range(1));
    params.seqLen = int(state.range(0));
    poslab::Matrix table;
    poslab::sinusoidalBlockMeansInto(table, params, 0, 1, params.seqLen);
    for (auto _ : state) {
        poslab::sinusoidalBlockMeansInto(table, params, 0, 1, params.seqLen);
        benchmark::DoNotOptimize(table.values.data());
    }
    reportPerValue(state, double(params.seqLen) * params.dModel);
}
BENCHMARK(BM_SinusoidalTableReused)->Args({8192, 1024})->Unit(benchmark::kMillisecond);

// The floor for reused memory: storing the same bytes, nothing computed.
void BM_MemoryWriteReused(benchmark::State& state) {
    const std::size_t count = std::size_t(state.range(0)) * std::size_t(state.range(1));
    std::vector<double> values(count);
    double fill = 0;
    for (auto _ : state) {
        std::fill(values.begin(), values.end(), fill += 1);
        benchmark::DoNotOptimize(values.data());
    }
    reportPerValue(state, double(count));
}
BENCHMARK(BM_MemoryWriteReused)->Args({8192, 1024})->Unit(benchmark::kMillisecond);

// The floor: allocating and writing the same number of bytes, nothing computed.
void BM_MemoryWrite(benchmark::State& state) {
    const std::size_t count = std::size_t(state.range(0)) * std::size_t(state.range(1));
    for (auto _ : state) {
        std::vector<double> values(count);
        std::memset(values.data(), 1, count * sizeof(double));
        benchmark::DoNotOptimize(values.data());
    }
    reportPerValue(state, double(count));
}
BENCHMARK(BM_MemoryWrite)->Args({8192, 1024})->Unit(benchmark::kMillisecond);

// What one frame of the live view computes at d = 1024, L = 4096 in a 900 x 560 plot.
void BM_SinusoidalLiveSample(benchmark::State& state) {
    poslab::SinusoidalParams params;
    params.dModel = 1024;
    params.seqLen = 4096;
    double base = 10000;
    for (auto _ : state) {
        params.base = base;
        base *= 1.0001;
        auto sample = poslab::sinusoidalSampleForArea(params, {}, {0, 0, 900, 560});
        benchmark::DoNotOptimize(sample.values->values.data());
    }
}
BENCHMARK(BM_SinusoidalLiveSample)->Unit(benchmark::kMillisecond);

// sinusoidal-max's coarse sample while the base moves (d 8192, L 2^20, a quarter of a 1000 x 360
// plot's texels a side): its block generator's rotation tables are 4,096 frequencies x 32 rows.
void BM_SinusoidalMaxCoarseSample(benchmark::State& state) {
    poslab::SinusoidalParams params;
    params.dModel = 8192;
    params.seqLen = 1 << 20;
    double base = 10000;
    for (auto _ : state) {
        params.base = base;
        base *= 1.0001;
        auto sample = poslab::sinusoidalSampleForArea(params, {}, {0, 0, 250, 90});
        benchmark::DoNotOptimize(sample.values->values.data());
    }
}
BENCHMARK(BM_SinusoidalMaxCoarseSample)->Unit(benchmark::kMillisecond);

// Pan and zoom over 1,048,576 positions x 4096 dimensions (issue: frames <= 16 ms): one frame's
// sample of a 900 x 560 plot, for a window of state.range(0) columns in the middle.
poslab::CellWindow middleColumns(long long columns, long long total) {
    return {100000, 600000, (total - columns) / 2, columns};
}

void BM_SinusoidalZoomedSample(benchmark::State& state) {
    poslab::SinusoidalParams params;
    params.dModel = 4096;
    params.seqLen = 1 << 20;
    const poslab::CellWindow window = middleColumns(state.range(0), 4096);
    for (auto _ : state) {
        auto sample = poslab::sinusoidalSample(params, window, 560, 900);
        benchmark::DoNotOptimize(sample.values->values.data());
    }
}
BENCHMARK(BM_SinusoidalZoomedSample)->Arg(4096)->Arg(256)->Arg(16)->Unit(benchmark::kMillisecond);

// One frame's sample of the RoPE angle map (head_dim 4096: 2048 pairs) for `window`.
void timeRopeAngleSample(benchmark::State& state, poslab::CellWindow window) {
    poslab::RopeParams params;
    params.headDim = 4096;
    params.seqLen = 1 << 20;
    const poslab::RopeFrequencies freqs = poslab::ropeFrequencies(params).value();
    for (auto _ : state) {
        auto sample = poslab::ropeAngleSample(freqs, params.seqLen, window, 560, 900);
        benchmark::DoNotOptimize(sample.values->values.data());
    }
}

// The same windows as BM_SinusoidalZoomedSample.
void BM_RopeAngleZoomedSample(benchmark::State& state) {
    timeRopeAngleSample(state, middleColumns(state.range(0), 2048));
}
BENCHMARK(BM_RopeAngleZoomedSample)->Arg(2048)->Arg(128)->Arg(16)->Unit(benchmark::kMillisecond);

// All 2048 pairs over a few thousand positions (a few per texel row): unlike 600,000 rows,
// where most texels are 'mixed', nearly every texel here takes a direction (an atan2).
void BM_RopeAngleFewRowsSample(benchmark::State& state) {
    timeRopeAngleSample(state, {500000, state.range(0), 0, 2048});
}
BENCHMARK(BM_RopeAngleFewRowsSample)->Arg(4096)->Arg(560)->Unit(benchmark::kMillisecond);

}  // namespace
