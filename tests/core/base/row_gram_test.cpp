#include "poslab/base/row_gram.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "householder.hpp"
#include "poslab/base/random.hpp"

namespace poslab {
namespace {

PaddedRows randomRows(std::size_t count, std::size_t length, std::uint64_t seed) {
    PaddedRows rows(count, length);
    NormalSampler sampler(seed);
    for (std::size_t i = 0; i < count; ++i) {
        for (std::size_t k = 0; k < length; ++k) rows.row(i)[k] = sampler.next();
    }
    return rows;
}

// The documented order, written out with scalars: entry k into running sum k mod 8 within each
// stretch of kGramChunk entries, the eight added ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 +
// s7)), the stretches added in order.
double documentedDot(const double* a, const double* b, std::size_t length) {
    double total = 0;
    for (std::size_t k0 = 0; k0 < length; k0 += kGramChunk) {
        double s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (std::size_t k = k0; k < std::min(length, k0 + kGramChunk); ++k)
            s[(k - k0) % 8] += a[k] * b[k];
        total += ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
    }
    return total;
}

TEST(RowGramTest, PaddedRowsAreAlignedAndZeroPadded) {
    const PaddedRows rows(5, 13);
    EXPECT_EQ(rows.stride(), 16u);
    EXPECT_EQ(rows.paddedCount(), 8u);
    for (std::size_t i = 0; i < rows.paddedCount(); ++i) {
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(rows.row(i)) % 64, 0u) << i;
        for (std::size_t k = 0; k < rows.stride(); ++k) EXPECT_EQ(rows.row(i)[k], 0.0);
    }
    EXPECT_GE(PaddedRows::storedDoubles(5, 13), 8u * 16u);
}

// Rows the caller writes: the padding (columns past the length, rows past the count) is zero
// all the same, and the kernels' sums over the written rows are the zero-started rows' sums.
TEST(RowGramTest, RowsWrittenByTheCallerAreZeroPadded) {
    PaddedRows rows(5, 13, PaddedRows::Contents::WrittenByCaller);
    PaddedRows zeroed(5, 13);
    for (std::size_t i = 0; i < 5; ++i) {
        for (std::size_t k = 0; k < 13; ++k)
            rows.row(i)[k] = zeroed.row(i)[k] = double(i * 13 + k) - 30.5;
    }
    for (std::size_t i = 0; i < rows.paddedCount(); ++i) {
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(rows.row(i)) % 64, 0u) << i;
        for (std::size_t k = (i < 5 ? 13 : 0); k < rows.stride(); ++k)
            EXPECT_EQ(rows.row(i)[k], 0.0) << i << " " << k;
    }
    const PaddedRows gram = rowGram(rows, 1.0), expected = rowGram(zeroed, 1.0);
    for (std::size_t i = 0; i < 5; ++i) {
        for (std::size_t j = 0; j < 5; ++j) EXPECT_EQ(gram.row(i)[j], expected.row(i)[j]);
    }
}

// Sizes that are not multiples of the tile (4 rows), the lanes (8), the column block (128 rows)
// or the stretch (512 entries): every entry is the documented sum, to the bit, and G is
// symmetric. 389 rows make four column blocks of unequal work, taken by whichever core is free.
TEST(RowGramTest, GramEntriesAreTheDocumentedSums) {
    for (auto [count, length] :
         {std::pair<std::size_t, std::size_t>{13, 1037}, {131, 21}, {389, 70}, {1, 1}}) {
        const PaddedRows rows = randomRows(count, length, count + length);
        const PaddedRows gram = rowGram(rows, 3.0);
        ASSERT_EQ(gram.count(), count);
        for (std::size_t i = 0; i < count; ++i) {
            for (std::size_t j = 0; j < count; ++j) {
                const double expected =
                    documentedDot(rows.row(std::min(i, j)), rows.row(std::max(i, j)), length) / 3.0;
                EXPECT_EQ(gram.row(i)[j], expected) << count << " " << i << " " << j;
            }
            for (std::size_t j = count; j < gram.stride(); ++j) EXPECT_EQ(gram.row(i)[j], 0.0);
        }
    }
}

// One stretch (37) and three (1,100: stretches of 512, 512 and 76 entries, rows shared between
// the cores), 3 and 4 vectors: every entry is the documented sum, to the bit.
TEST(RowGramTest, SymmetricTimesBlockIsTheDocumentedSums) {
    for (auto [n, width] : {std::pair<std::size_t, std::size_t>{37, 3}, {1100, 4}}) {
        const PaddedRows a = rowGram(randomRows(n, 50, 4), 1.0);
        Matrix x(n, width);
        NormalSampler sampler(9);
        for (double& v : x.values) v = sampler.next();
        Matrix y;
        symmetricTimesBlock(a, x, y);
        ASSERT_EQ(y.rows, n);
        ASSERT_EQ(y.cols, width);
        std::vector<double> column(n);
        for (std::size_t c = 0; c < width; ++c) {
            for (std::size_t j = 0; j < n; ++j) column[j] = x(j, c);
            for (std::size_t i = 0; i < n; ++i)
                EXPECT_EQ(y(i, c), documentedDot(a.row(i), column.data(), n)) << i << " " << c;
        }
    }
}

// After the two passes w is orthogonal to the basis, and w_before - w_after is the combination
// of the basis with the returned coefficients (q_i . w_before for orthonormal q_i).
TEST(RowGramTest, ProjectOutLeavesTheOrthogonalPart) {
    const std::size_t n = 70, count = 9;
    // Orthonormal basis: the first rows of a Householder reflection I - 2 u u^T / u.u.
    const Matrix h = test_support::householderReflection(n, 2);
    PaddedRows basis(12, n);  // rows from count on stay zero, as required
    for (std::size_t i = 0; i < count; ++i) std::copy_n(h.row(i), n, basis.row(i));
    PaddedRows w = randomRows(3, n, 5);
    Matrix before(3, n);
    for (std::size_t c = 0; c < 3; ++c) std::copy_n(w.row(c), n, before.row(c));
    Matrix coefficients;
    projectOutRows(basis, count, w, coefficients);
    ASSERT_EQ(coefficients.rows, count);
    for (std::size_t c = 0; c < 3; ++c) {
        for (std::size_t i = 0; i < count; ++i) {
            double dotAfter = 0, dotBefore = 0;
            for (std::size_t k = 0; k < n; ++k) {
                dotAfter += basis.row(i)[k] * w.row(c)[k];
                dotBefore += basis.row(i)[k] * before(c, k);
            }
            EXPECT_NEAR(dotAfter, 0, 1e-14) << c << " " << i;
            EXPECT_NEAR(coefficients(i, c), dotBefore, 1e-13) << c << " " << i;
        }
        for (std::size_t k = 0; k < n; ++k) {
            double combination = 0;
            for (std::size_t i = 0; i < count; ++i)
                combination += coefficients(i, c) * basis.row(i)[k];
            EXPECT_NEAR(before(c, k) - w.row(c)[k], combination, 1e-13);  // to rounding
        }
    }
}

// Over several stretches (1,100 entries: three of 512) the two passes are the ones written out
// here: each pass's dot products the documented sums of the basis rows with w as it stands, each
// entry's update w -= d_i q_i in basis order, the coefficients both passes' dot products added.
// The code shares the stretches between the cores and makes pass 1's update together with pass
// 2's dot products: bit for bit the same.
TEST(RowGramTest, ProjectOutOverStretchesIsTheTwoPassesWrittenOut) {
    const std::size_t n = 1100, count = 6, width = 3;
    const PaddedRows random = randomRows(count, n, 11);
    PaddedRows basis(8, n);  // rows from count on stay zero
    for (std::size_t i = 0; i < count; ++i) {
        for (std::size_t k = 0; k < n; ++k) basis.row(i)[k] = random.row(i)[k] / 30;
    }
    PaddedRows w = randomRows(width, n, 12);
    std::vector<std::vector<double>> expected(width, std::vector<double>(n));
    for (std::size_t c = 0; c < width; ++c) std::copy_n(w.row(c), n, expected[c].data());
    Matrix expectedCoefficients(count, width);
    for (int pass = 0; pass < 2; ++pass) {
        Matrix d(count, width);
        for (std::size_t i = 0; i < count; ++i) {
            for (std::size_t c = 0; c < width; ++c) {
                d(i, c) = documentedDot(basis.row(i), expected[c].data(), n);
                expectedCoefficients(i, c) += d(i, c);
            }
        }
        for (std::size_t c = 0; c < width; ++c) {
            for (std::size_t k = 0; k < n; ++k) {
                for (std::size_t i = 0; i < count; ++i)
                    expected[c][k] = expected[c][k] - d(i, c) * basis.row(i)[k];
            }
        }
    }
    Matrix coefficients;
    projectOutRows(basis, count, w, coefficients);
    for (std::size_t i = 0; i < count; ++i) {
        for (std::size_t c = 0; c < width; ++c)
            EXPECT_EQ(coefficients(i, c), expectedCoefficients(i, c)) << i << " " << c;
    }
    for (std::size_t c = 0; c < width; ++c) {
        for (std::size_t k = 0; k < n; ++k) ASSERT_EQ(w.row(c)[k], expected[c][k]) << c << " " << k;
    }
}

}  // namespace
}  // namespace poslab
