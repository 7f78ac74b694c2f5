// row_gram.cpp — the Gram matrix of a set of rows and a symmetric matrix times a block of vectors
// (base/row_gram.hpp), in SIMD tiles of dot products.
#include "poslab/base/row_gram.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

#include "poslab/base/parallel.hpp"

// No multiply-add is fused (contracted into one FMA, rounded once), whatever the target: every
// path then rounds the same way and gives the same bits. GCC contracts by default in C++ (and
// not always in every running sum of a tile); Clang is told in each kernel body.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif

namespace poslab {

namespace {

constexpr std::size_t kLanes = 8;         // running sums per dot product: one AVX-512 register
constexpr std::size_t kBlockRows = 128;   // rows of a column block: 128 x 4 KiB stays in L2
constexpr std::size_t kAlignDoubles = 8;  // 64 bytes

std::size_t roundUp(std::size_t value, std::size_t step) {
    return (value + step - 1) / step * step;
}

// Eight doubles, one AVX-512 register (two AVX2 or four SSE2 ones: the compiler splits it, lane
// by lane, the same operations). Never passed to or returned from a function, whose calling
// convention would differ between the code paths; moved to and from memory by memcpy.
typedef double Lanes8 __attribute__((vector_size(64)));

// The fixed tree the eight running sums are added in.
#define POSLAB_LANE_SUM(v) \
    ((((v)[0] + (v)[1]) + ((v)[2] + (v)[3])) + (((v)[4] + (v)[5]) + ((v)[6] + (v)[7])))

// out[p * outStride + q] += a_p . b_q over entries [k0, k1) (a multiple of 8 apart), for P rows
// a_p (aStride apart) and Q rows b_q (bStride apart): P x Q running-sum registers, each loaded
// row used Q or P times.
template <int P, int Q>
[[gnu::always_inline]] inline void tileDots(const double* a, std::size_t aStride, const double* b,
                                            std::size_t bStride, std::size_t k0, std::size_t k1,
                                            double* out, std::size_t outStride) {
#ifdef __clang__
#pragma clang fp contract(off)
#endif
    Lanes8 sums[P][Q];
    for (int p = 0; p < P; ++p)
        for (int q = 0; q < Q; ++q) sums[p][q] = Lanes8{0, 0, 0, 0, 0, 0, 0, 0};
    for (std::size_t k = k0; k < k1; k += kLanes) {
        Lanes8 av[P];
        for (int p = 0; p < P; ++p) std::memcpy(&av[p], a + std::size_t(p) * aStride + k, 64);
        for (int q = 0; q < Q; ++q) {
            Lanes8 bv;
            std::memcpy(&bv, b + std::size_t(q) * bStride + k, 64);
            for (int p = 0; p < P; ++p) sums[p][q] += av[p] * bv;
        }
    }
    for (int p = 0; p < P; ++p)
        for (int q = 0; q < Q; ++q)
            out[std::size_t(p) * outStride + std::size_t(q)] += POSLAB_LANE_SUM(sums[p][q]);
}

// Gram columns [begin, end) (a column block): for each stretch of entries, every row i up to
// the block's end against the block's rows j >= i's tile, P x Q at a time. Entries below the
// diagonal inside a tile are computed too and later overwritten by the mirror.
template <int P, int Q>
[[gnu::always_inline]] inline void gramColumnsBody(const PaddedRows& rows, std::size_t begin,
                                                   std::size_t end, PaddedRows& gram) {
    const std::size_t stride = rows.stride(), length = roundUp(rows.length(), kLanes);
    for (std::size_t k0 = 0; k0 < length; k0 += kGramChunk) {
        const std::size_t k1 = std::min(length, k0 + kGramChunk);
        for (std::size_t i = 0; i < end; i += P) {
            const std::size_t first = std::max(begin, i / Q * Q);
            for (std::size_t j = first; j < end; j += Q) {
                tileDots<P, Q>(rows.row(i), stride, rows.row(j), stride, k0, k1, gram.row(i) + j,
                               gram.stride());
            }
        }
    }
}

// The same with 4 x 6 tiles (24 running sums, 10 loaded rows for 24 products of a step: ~20%
// faster than 4 x 4 on AVX-512, measured). Rows i step by 4 from 0; columns from max(begin, i)
// (every bound a multiple of 4: the padded row count and the blocks are) in tiles of 6 while
// more than 8 or exactly 6 remain, the rest in tiles of 4: a multiple of 4 left takes 6s to 0,
// 4 or 8 left, and 6 from a remainder of 2 mod 4 leaves 0, 4 or 8 again. Each entry is still
// the one tile's sum per stretch, added in stretch order: the same bits as any other tile.
[[gnu::always_inline]] inline void gramColumnsWide(const PaddedRows& rows, std::size_t begin,
                                                   std::size_t end, PaddedRows& gram) {
    const std::size_t stride = rows.stride(), length = roundUp(rows.length(), kLanes);
    for (std::size_t k0 = 0; k0 < length; k0 += kGramChunk) {
        const std::size_t k1 = std::min(length, k0 + kGramChunk);
        for (std::size_t i = 0; i < end; i += 4) {
            for (std::size_t j = std::max(begin, i); j < end;) {
                if (end - j >= 6 && end - j != 8) {
                    tileDots<4, 6>(rows.row(i), stride, rows.row(j), stride, k0, k1,
                                   gram.row(i) + j, gram.stride());
                    j += 6;
                } else {
                    tileDots<4, 4>(rows.row(i), stride, rows.row(j), stride, k0, k1,
                                   gram.row(i) + j, gram.stride());
                    j += 4;
                }
            }
        }
    }
}

// y^T rows [begin, end) of A times the vectors (rows of xt): out(c, i) = A_i . x_c.
// Entries [kBegin, kEnd) only (stretch bounds: multiples of kGramChunk, or the padded length).
template <int P, int Q>
[[gnu::always_inline]] inline void productRowsBody(const PaddedRows& a, const PaddedRows& xt,
                                                   std::size_t begin, std::size_t end,
                                                   std::size_t kBegin, std::size_t kEnd,
                                                   double* out) {
    for (std::size_t i = begin; i < end; i += P) {
        for (std::size_t c = 0; c < xt.paddedCount(); c += Q) {
            for (std::size_t k0 = kBegin; k0 < kEnd; k0 += kGramChunk) {
                tileDots<P, Q>(a.row(i), a.stride(), xt.row(c), xt.stride(), k0,
                               std::min(kEnd, k0 + kGramChunk), out + i * xt.paddedCount() + c,
                               xt.paddedCount());
            }
        }
    }
}

// w_c -= sum over i < count of coefficient(i, c) q_i on entries [r0, r1) (multiples of 8), for
// the rows q_i of basis: each stretch of q_i loaded once for every w_c; each entry's updates in
// basis order.
[[gnu::always_inline]] inline void subtractCombinationBody(
    const PaddedRows& basis, std::size_t count, const double* coefficients,
    std::size_t coefficientStride, PaddedRows& w, std::size_t r0, std::size_t r1) {
#ifdef __clang__
#pragma clang fp contract(off)
#endif
    const std::size_t width = w.count();
    for (std::size_t i = 0; i < count; ++i) {
        const double* q = basis.row(i);
        const double* h = coefficients + i * coefficientStride;
        for (std::size_t r = r0; r < r1; r += kLanes) {
            Lanes8 qv;
            std::memcpy(&qv, q + r, 64);
            for (std::size_t c = 0; c < width; ++c) {
                Lanes8 out;
                double* target = w.row(c) + r;
                std::memcpy(&out, target, 64);
                out -= h[c] * qv;
                std::memcpy(target, &out, 64);
            }
        }
    }
}

// One function per instruction set: the widest tile whose running sums fit the registers
// (AVX-512: 32 of 8 lanes, a 4 x 6 tile for the Gram matrix, 4 x 4 for products; AVX2: 16 of 4
// lanes, a sum takes two, 2 x 2; SSE2: 2 x 1). The tile shape changes which sums share a loaded
// row, never the order of a sum.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define POSLAB_ROW_GRAM_DISPATCH 1
__attribute__((target("avx512f"))) void gramColumnsAvx512(const PaddedRows& rows, std::size_t begin,
                                                          std::size_t end, PaddedRows& gram) {
    gramColumnsWide(rows, begin, end, gram);
}
__attribute__((target("avx2"))) void gramColumnsAvx2(const PaddedRows& rows, std::size_t begin,
                                                     std::size_t end, PaddedRows& gram) {
    gramColumnsBody<2, 2>(rows, begin, end, gram);
}
__attribute__((target("avx512f"))) void productRowsAvx512(const PaddedRows& a, const PaddedRows& xt,
                                                          std::size_t begin, std::size_t end,
                                                          std::size_t kBegin, std::size_t kEnd,
                                                          double* out) {
    productRowsBody<4, 4>(a, xt, begin, end, kBegin, kEnd, out);
}
__attribute__((target("avx2"))) void productRowsAvx2(const PaddedRows& a, const PaddedRows& xt,
                                                     std::size_t begin, std::size_t end,
                                                     std::size_t kBegin, std::size_t kEnd,
                                                     double* out) {
    productRowsBody<2, 2>(a, xt, begin, end, kBegin, kEnd, out);
}
__attribute__((target("avx512f"))) void subtractCombinationAvx512(
    const PaddedRows& basis, std::size_t count, const double* coefficients,
    std::size_t coefficientStride, PaddedRows& w, std::size_t r0, std::size_t r1) {
    subtractCombinationBody(basis, count, coefficients, coefficientStride, w, r0, r1);
}
__attribute__((target("avx2"))) void subtractCombinationAvx2(
    const PaddedRows& basis, std::size_t count, const double* coefficients,
    std::size_t coefficientStride, PaddedRows& w, std::size_t r0, std::size_t r1) {
    subtractCombinationBody(basis, count, coefficients, coefficientStride, w, r0, r1);
}
#endif

enum class SimdWidth { Sse2, Avx2, Avx512 };

SimdWidth simdWidth() {
#ifdef POSLAB_ROW_GRAM_DISPATCH
    static const SimdWidth width = __builtin_cpu_supports("avx512f") ? SimdWidth::Avx512
                                   : __builtin_cpu_supports("avx2")  ? SimdWidth::Avx2
                                                                     : SimdWidth::Sse2;
    return width;
#else
    return SimdWidth::Sse2;
#endif
}

void gramColumns(const PaddedRows& rows, std::size_t begin, std::size_t end, PaddedRows& gram) {
#ifdef POSLAB_ROW_GRAM_DISPATCH
    switch (simdWidth()) {
        case SimdWidth::Avx512:
            return gramColumnsAvx512(rows, begin, end, gram);
        case SimdWidth::Avx2:
            return gramColumnsAvx2(rows, begin, end, gram);
        case SimdWidth::Sse2:
            break;
    }
#endif
    gramColumnsBody<2, 1>(rows, begin, end, gram);
}

void productRows(const PaddedRows& a, const PaddedRows& xt, std::size_t begin, std::size_t end,
                 std::size_t kBegin, std::size_t kEnd, double* out) {
#ifdef POSLAB_ROW_GRAM_DISPATCH
    switch (simdWidth()) {
        case SimdWidth::Avx512:
            return productRowsAvx512(a, xt, begin, end, kBegin, kEnd, out);
        case SimdWidth::Avx2:
            return productRowsAvx2(a, xt, begin, end, kBegin, kEnd, out);
        case SimdWidth::Sse2:
            break;
    }
#endif
    productRowsBody<2, 1>(a, xt, begin, end, kBegin, kEnd, out);
}

void subtractCombination(const PaddedRows& basis, std::size_t count, const double* coefficients,
                         std::size_t coefficientStride, PaddedRows& w, std::size_t r0,
                         std::size_t r1) {
#ifdef POSLAB_ROW_GRAM_DISPATCH
    switch (simdWidth()) {
        case SimdWidth::Avx512:
            return subtractCombinationAvx512(basis, count, coefficients, coefficientStride, w, r0,
                                             r1);
        case SimdWidth::Avx2:
            return subtractCombinationAvx2(basis, count, coefficients, coefficientStride, w, r0,
                                           r1);
        case SimdWidth::Sse2:
            break;
    }
#endif
    subtractCombinationBody(basis, count, coefficients, coefficientStride, w, r0, r1);
}

}  // namespace

bool rowKernelsFuseMultiplyAdd() {
    return simdWidth() != SimdWidth::Sse2;
}

// ---- Rows laid out for the kernels

PaddedRows::PaddedRows(std::size_t count, std::size_t length, Contents contents)
    : count_(count),
      length_(length),
      stride_(roundUp(std::max<std::size_t>(length, 1), kLanes)),
      padded_(roundUp(count, 4)) {
    const std::size_t total = padded_ * stride_ + kAlignDoubles;
    storage_.reset(new double[total]);  // not value-initialised: zeroed below as asked
    const auto address = reinterpret_cast<std::uintptr_t>(storage_.get());
    offset_ = (64 - address % 64) % 64 / sizeof(double);  // new[] aligns doubles to 8 at least
    if (contents == Contents::Zero) {
        std::fill_n(storage_.get(), total, 0.0);
        return;
    }
    for (std::size_t i = 0; i < count_; ++i) std::fill(row(i) + length_, row(i) + stride_, 0.0);
    std::fill(row(count_), row(padded_), 0.0);  // the padding rows
}

std::size_t PaddedRows::storedDoubles(std::size_t count, std::size_t length) {
    return roundUp(count, 4) * roundUp(std::max<std::size_t>(length, 1), kLanes) + kAlignDoubles;
}

Matrix toMatrix(const PaddedRows& rows) {
    Matrix out(rows.count(), rows.length());
    for (std::size_t i = 0; i < rows.count(); ++i)
        std::copy_n(rows.row(i), rows.length(), out.row(i));
    return out;
}

// ---- Products

PaddedRows rowGram(const PaddedRows& rows, double divisor) {
    const std::size_t n = rows.count();
    PaddedRows gram(n, n);
    // Each core takes the next column block not yet taken, the largest (the last: block b holds
    // b + 1 tiles of rows) first, so the cores finish together even when one is shared with
    // other work (table_structure's spectra thread; a fixed split left one core idle for a
    // quarter of the time). Each block is computed whole by one core: the same bits.
    const std::size_t blocks = (rows.paddedCount() + kBlockRows - 1) / kBlockRows;
    std::atomic<std::size_t> taken{0};
    parallelFor((long long)blocks, 1, [&](long long, long long) {
        for (std::size_t next = taken++; next < blocks; next = taken++) {
            const std::size_t begin = (blocks - 1 - next) * kBlockRows;
            const std::size_t end = std::min(rows.paddedCount(), begin + kBlockRows);
            gramColumns(rows, begin, end, gram);
        }
    });
    for (std::size_t i = 0; i < n; ++i) {
        double* gi = gram.row(i);
        for (std::size_t j = i; j < n; ++j) gi[j] /= divisor;
        for (std::size_t j = 0; j < i; ++j) gi[j] = gram.row(j)[i];
    }
    // Padding rows and columns may hold dot products of zero rows (zero) and entries past n in
    // a tile: clear them so the padding stays zero.
    for (std::size_t i = 0; i < gram.paddedCount(); ++i) {
        double* gi = gram.row(i);
        for (std::size_t j = (i < n ? n : 0); j < gram.stride(); ++j) gi[j] = 0;
    }
    return gram;
}

void symmetricTimesBlock(const PaddedRows& a, const Matrix& x, Matrix& y) {
    const std::size_t n = a.count(), width = x.cols;
    PaddedRows xt(width, n);  // the vectors as rows
    for (std::size_t r = 0; r < n; ++r) {
        for (std::size_t c = 0; c < width; ++c) xt.row(c)[r] = x(r, c);
    }
    std::vector<double> out(a.paddedCount() * xt.paddedCount(), 0.0);  // row i: A_i . x_c
    const long long tiles = (long long)(a.paddedCount() / 4);
    parallelFor(tiles, 16, [&](long long first, long long last) {
        productRows(a, xt, std::size_t(first) * 4, std::size_t(last) * 4, 0,
                    roundUp(a.length(), kLanes), out.data());
    });
    y = Matrix(n, width);
    for (std::size_t r = 0; r < n; ++r) {
        for (std::size_t c = 0; c < width; ++c) y(r, c) = out[r * xt.paddedCount() + c];
    }
}

void projectOutRows(const PaddedRows& basis, std::size_t count, PaddedRows& w,
                    Matrix& coefficients) {
    const std::size_t width = w.count(), n = w.length();
    coefficients = Matrix(count, width);
    if (count == 0 || width == 0) return;
    const std::size_t tiles = std::min(basis.paddedCount(), roundUp(count, 4)) / 4;
    const std::size_t lanes = w.paddedCount();
    const std::size_t length = roundUp(n, kLanes);
    const std::size_t stretches = (length + kGramChunk - 1) / kGramChunk;
    const std::size_t block = tiles * 4 * lanes;  // one stretch's dot products
    std::vector<double> dots(block), partial(stretches * block);
    // Each dot product is its stretches' sums added in stretch order from zero, as productRows
    // adds them (a stretch's sum is 0 + its lane sum, never -0, so adding it from the buffer
    // gives the same bits): the stretches are then shared between the cores for every basis
    // size. Pass 1's update of a stretch and pass 2's dot products over it are made together,
    // while the stretch of the basis is in cache.
    auto sumStretches = [&] {
        std::fill(dots.begin(), dots.end(), 0.0);
        for (std::size_t s = 0; s < stretches; ++s) {
            const double* p = partial.data() + s * block;
            for (std::size_t e = 0; e < block; ++e) dots[e] += p[e];
        }
        for (std::size_t i = 0; i < count; ++i) {
            for (std::size_t c = 0; c < width; ++c) coefficients(i, c) += dots[i * lanes + c];
        }
    };
    auto stretchDots = [&](std::size_t s) {
        double* p = partial.data() + s * block;
        std::fill(p, p + block, 0.0);
        const std::size_t k0 = s * kGramChunk, k1 = std::min(length, k0 + kGramChunk);
        productRows(basis, w, 0, tiles * 4, k0, k1, p);
    };
    auto update = [&](std::size_t s) {  // each entry's updates in basis order
        const std::size_t r0 = s * kGramChunk, r1 = std::min(length, r0 + kGramChunk);
        subtractCombination(basis, count, dots.data(), lanes, w, r0, r1);
    };
    parallelFor((long long)stretches, 1, [&](long long first, long long last) {
        for (auto s = std::size_t(first); s < std::size_t(last); ++s) stretchDots(s);
    });
    sumStretches();
    parallelFor((long long)stretches, 1, [&](long long first, long long last) {
        for (auto s = std::size_t(first); s < std::size_t(last); ++s) {
            update(s);
            stretchDots(s);
        }
    });
    sumStretches();
    parallelFor((long long)stretches, 1, [&](long long first, long long last) {
        for (auto s = std::size_t(first); s < std::size_t(last); ++s) update(s);
    });
}

}  // namespace poslab

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif
