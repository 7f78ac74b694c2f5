// The RoPE precision scan (issue #29: <= 1 s at 1M positions x 64 pairs x 3 formats on 2 cores):
// the whole report the Precision tab and `render rope --figure precision` compute, and one format
// at a time.
#include <benchmark/benchmark.h>

#include "poslab/analysis/rope_precision.hpp"
#include "poslab/encodings/rope.hpp"

namespace {

poslab::RopeFrequencies frequencies(int headDim) {
    poslab::RopeParams params;
    params.headDim = headDim;
    return poslab::ropeFrequencies(params).value();
}

// state.range(0): positions; state.range(1): head_dim (pairs = head_dim / 2).
void BM_RopePrecisionScanThreeFormats(benchmark::State& state) {
    const poslab::RopeFrequencies freqs = frequencies(int(state.range(1)));
    for (auto _ : state) {
        for (poslab::FloatFormat format :
             {poslab::FloatFormat::Float32, poslab::FloatFormat::BFloat16,
              poslab::FloatFormat::Float16}) {
            auto report = poslab::ropePrecision(freqs, format, state.range(0));
            benchmark::DoNotOptimize(report.value().firstPositionOver);
        }
    }
    state.counters["ns_per_position_pair"] = benchmark::Counter(
        3.0 * double(state.range(0)) * double(freqs.inverse.size()),
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_RopePrecisionScanThreeFormats)
    ->Args({1 << 20, 128})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MeasureProcessCPUTime();
BENCHMARK(BM_RopePrecisionScanThreeFormats)
    ->Name("BM_RopePrecisionScanSmall")
    ->Args({4096, 16})
    ->UseRealTime();

void BM_RopePrecisionScanOneFormat(benchmark::State& state) {
    const poslab::RopeFrequencies freqs = frequencies(128);
    const auto format = poslab::FloatFormat(state.range(0));
    for (auto _ : state) {
        auto report = poslab::ropePrecision(freqs, format, 1 << 20);
        benchmark::DoNotOptimize(report.value().firstPositionOver);
    }
}
BENCHMARK(BM_RopePrecisionScanOneFormat)
    ->Arg(int(poslab::FloatFormat::Float32))
    ->Arg(int(poslab::FloatFormat::BFloat16))
    ->Arg(int(poslab::FloatFormat::Float16))
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MeasureProcessCPUTime();

}  // namespace
