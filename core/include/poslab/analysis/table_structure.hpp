// table_structure.hpp — what shape a position table has: principal components of its rows, the
// frequencies its dimensions oscillate at, and the same analysis on the rows shuffled.
//
// For any table (rows = positions, columns = dimensions: a learned table read from a checkpoint,
// a sinusoidal table, a random one):
//   PCA        rows centred on their mean; the covariance C = Xc^T Xc / L (d x d) or, when there
//              are fewer positions than dimensions, the Gram matrix Xc Xc^T / L (L x L): both
//              have the same non-zero eigenvalues, the variance along each principal component.
//              Explained variance = eigenvalue / trace. Each position's coordinates on the first
//              three components trace its path through the table (GPT-2's rows lie on a helix).
//   Spectrum   each column minus its mean, zero-padded to a power of two N >= L, through a DFT;
//              |X_k| / L at k / N cycles per position, averaged over the columns, and each
//              column's dominant frequency, to set beside the sinusoidal ladder
//              omega_i = base^(-2i/d) / (2 pi) cycles per position.
//   Baseline   the same analysis on the rows in a seeded random order: the eigenvalues are the
//              same (C does not depend on row order), but the components against position turn
//              to noise and the spectrum goes flat. That is what "no positional structure" is.
//
// Work is capped: at most kMaxStructureValues values and min(L, d) <= kMaxStructureSide; a larger
// table is refused with a message saying so (crop it first). The smaller of the two matrices is
// formed once (base/row_gram.hpp: SIMD tiles, both cores; n^2 m / 2 multiply-adds for n =
// min(L, d), m = max(L, d)); its eigenvalues come from a cyclic Jacobi solver when n <=
// kJacobiLimit, else from block Lanczos on it (full reorthogonalisation, Rayleigh-Ritz): the top
// components only, each to a Ritz residual |C v - lambda v| <= kEigenTolerance x lambda_1 (the
// trace still gives the exact total variance). Forming the matrix squares the singular values, so
// a variance is exact to about machine epsilon times the largest variance, not its own: the
// figure needs 1e-4 of the largest (bars, three-digit percentages, pixels of the trajectories).
//
// The eigen-solvers are base/symmetric_eigen.hpp's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"
#include "poslab/base/symmetric_eigen.hpp"

namespace poslab {

inline constexpr std::size_t kMaxStructureValues = std::size_t(1) << 24;  // rows x dims
inline constexpr std::size_t kMaxStructureSide = 4096;  // min(rows, dims): the eigenproblem's size
// The two caps above for a rows x dims table (before making one): the message the analysis gives.
Status checkStructureSize(std::size_t rows, std::size_t cols);
inline constexpr int kMaxStructureComponents = 64;

// ---- Pieces, usable on their own
std::vector<double> sinusoidalFrequencies(int dModel, double base);  // omega_i, i = 0..ceil(d/2)-1
double lag1Autocorrelation(const std::vector<double>& series);       // 0 for a constant series
std::vector<std::size_t> shuffledOrder(std::size_t count, std::uint64_t seed);   // a permutation
Matrix rowsInOrder(const Matrix& table, const std::vector<std::size_t>& order);  // row i = order[i]

struct TablePca {
    std::vector<double> variance;   // variance along each top component, descending
    std::vector<double> explained;  // variance / totalVariance, same length
    double totalVariance = 0;       // trace of the covariance: sum of every column's variance
    int rank = 0;                   // min(rows, dims): how many components exist
    Matrix projections;             // rows x min(projected, rank): position p on components
                                    // 1..projected; each component's sign makes it rise with
                                    // position on average
    bool converged = true;
};
// projected: how many components each position's coordinates are given on, 1..64 (default 3).
Result<TablePca> principalComponents(const Matrix& table, int components, int projected = 3);

struct TableSpectrum {
    std::vector<double> frequency;          // k / N cycles per position, k = 1..N/2
    std::vector<double> meanMagnitude;      // mean over columns of |X_k| / L
    std::vector<double> dominantFrequency;  // per column: the frequency of its largest |X_k|
                                            // (NaN for a constant column)
};
TableSpectrum columnSpectrum(const Matrix& table);

// ---- Everything the structure figure shows
struct StructureOptions {
    int components = 12;            // explained variance shown for this many, 1..64
    std::uint64_t shuffleSeed = 1;  // the baseline's row order
    friend bool operator==(const StructureOptions&,
                           const StructureOptions&) = default;  // member-wise: caches key on it
};
Status validate(const StructureOptions& options);

struct TableStructure {
    std::size_t rows = 0, cols = 0;
    TablePca pca;
    TableSpectrum spectrum;
    TablePca shuffledPca;  // the same eigenvalues; projections: pca's rows in shuffled order
                           // (with pca's signs: the same cloud, joined in another order)
    TableSpectrum shuffledSpectrum;
    std::vector<double> lag1;          // lag-1 autocorrelation of components 1..3 over position
    std::vector<double> shuffledLag1;  // the same on the shuffled rows
    std::string note;  // one line: how it was computed ("PCA of 1024 x 768 via the 768 x 768 ...")
};
// Errors: empty table, a non-finite value (named by row and column), over the caps.
Result<TableStructure> analyzeTableStructure(const Matrix& table, const StructureOptions& options);

}  // namespace poslab
