// PCA of a position table at the largest size `render learned-pca` accepts (issue 29: the render
// at its maximum options in <= 2 s): 2,048 positions x 8,192 dimensions of independent normals,
// 64 components. Its eigenvalues follow the Marchenko-Pastur law with no gap at the top, the
// hard case for a Krylov solver. The two stages are shown apart: the 2,048 x 2,048 Gram matrix
// (17.2 G multiply-adds, base/row_gram.hpp) and the block Lanczos solve on it.
#include <benchmark/benchmark.h>

#include "poslab/analysis/table_structure.hpp"
#include "poslab/base/random.hpp"
#include "poslab/base/row_gram.hpp"
#include "poslab/base/symmetric_eigen.hpp"

namespace {

poslab::Matrix normalTable(std::size_t rows, std::size_t cols) {
    poslab::Matrix table(rows, cols);
    poslab::NormalSampler sampler(1);
    for (double& value : table.values) value = sampler.next();
    return table;
}

poslab::PaddedRows normalRows(std::size_t count, std::size_t length) {
    poslab::PaddedRows rows(count, length);
    poslab::NormalSampler sampler(1);
    for (std::size_t i = 0; i < count; ++i) {
        for (std::size_t k = 0; k < length; ++k) rows.row(i)[k] = sampler.next();
    }
    return rows;
}

void BM_TablePca(benchmark::State& state) {
    const poslab::Matrix table =
        normalTable(std::size_t(state.range(0)), std::size_t(state.range(1)));
    for (auto _ : state) {
        auto pca = poslab::principalComponents(table, int(state.range(2)), 3);
        benchmark::DoNotOptimize(pca.value().variance.data());
    }
}
BENCHMARK(BM_TablePca)
    ->Args({2048, 8192, 64})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(BM_TablePca)->Name("BM_TablePcaSmall")->Args({300, 256, 12});

void BM_RowGram(benchmark::State& state) {
    const poslab::PaddedRows rows =
        normalRows(std::size_t(state.range(0)), std::size_t(state.range(1)));
    for (auto _ : state) {
        poslab::PaddedRows gram = poslab::rowGram(rows, 1.0);
        benchmark::DoNotOptimize(gram.row(0));
    }
    const double count = double(state.range(0));
    state.counters["GFMA/s"] =
        benchmark::Counter(count * (count + 1) / 2 * double(state.range(1)) * 1e-9,
                           benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_RowGram)
    ->Args({2048, 8192})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

void BM_GramTopEigenpairs(benchmark::State& state) {
    const poslab::PaddedRows gram =
        poslab::rowGram(normalRows(std::size_t(state.range(0)), std::size_t(state.range(1))),
                        double(state.range(1)));
    for (auto _ : state) {
        auto eigen = poslab::topEigenpairs(gram, int(state.range(2)));
        benchmark::DoNotOptimize(eigen.values.data());
    }
}
BENCHMARK(BM_GramTopEigenpairs)
    ->Args({2048, 8192, 64})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

// One block Lanczos product at that size: the 2,048 x 2,048 matrix times 4 vectors (the solve
// makes ~174 of them).
void BM_SymmetricTimesBlock(benchmark::State& state) {
    const std::size_t n = std::size_t(state.range(0));
    const poslab::PaddedRows a = poslab::rowGram(normalRows(n, 64), 64.0);
    poslab::Matrix x(n, 4), y;
    poslab::NormalSampler sampler(2);
    for (double& value : x.values) value = sampler.next();
    for (auto _ : state) {
        poslab::symmetricTimesBlock(a, x, y);
        benchmark::DoNotOptimize(y.values.data());
    }
}
BENCHMARK(BM_SymmetricTimesBlock)
    ->Arg(2048)
    ->Unit(benchmark::kMicrosecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

}  // namespace
