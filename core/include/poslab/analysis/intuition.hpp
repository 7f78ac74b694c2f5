// intuition.hpp — two classic intuitions about the sinusoidal encoding, made checkable.
//
// Binary clock: counting in binary, bit b of the position flips every 2^b positions, a square
// wave of period 2^(b+1); the sinusoidal table is the smooth version of that counter, each
// frequency pair a "bit" turning at its own rate (fastest first), continuous instead of 0/1.
//
// Linear shift: for every frequency w, [sin w(p+k); cos w(p+k)] is [sin wp; cos wp] rotated by wk.
// So one matrix T_k, block diagonal with 2 x 2 rotations, maps PE(p) to PE(p + k) for EVERY p —
// "attend k positions back" is a linear map the model can learn (Vaswani et al. section 3.5).
// An odd d_model's lone sine column has no cosine partner: sin w(p+k) needs cos wp, which the
// vector lacks, so that one row of T_k can only keep cos(wk) sin(wp) and the residual there is
// |sin(wk) cos(wp)| — the exception that shows why the pairs matter.
//
// Sine only: drop every cosine column and no matrix can do the shift at all. The best linear map
// (least squares over the positions checked) still misses by about |sin(wk)| in each fast
// component: sin w(p+k) = cos(wk) sin(wp) + sin(wk) cos(wp), and cos(wp) is not in the vector nor
// a linear combination of the other sines (their frequencies differ).
#pragma once

#include <utility>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"
#include "poslab/encodings/sinusoidal.hpp"

namespace poslab {

// ---- Binary clock
int positionBit(long long position, int bit);  // bit b of position (0 or 1); position >= 0
// Positions x bits, value 0/1, bit 0 (fastest) first, as the table puts its fastest pair first.
Result<Matrix> binaryTable(int positions, int bits);
// The sinusoid with the square wave's period 2^(b+1) and phase, in [-1, 1]: the wave 2 bit - 1
// sampled at integers is -1 on the first half period, centred on (2^b - 1) / 2, so the matching
// first harmonic is -sin(2 pi (p + 1/2) / 2^(b+1)).
double bitSinusoid(double position, int bit);
// The frequency index of the sinusoidal table whose wavelength 2 pi / w is nearest (in ratio) to
// `wavelength` positions; -1 for a table with no frequencies.
int nearestFrequencyIndex(const SinusoidalParams& params, double wavelength);

// ---- Linear shift
// d x d: T_k PE(p) = PE(p + k) for every p (every layout; see above for an odd d's lone sine;
// t2t's zero column maps to zero). k may be negative or fractional.
Result<Matrix> shiftMatrix(const SinusoidalParams& params, double shift);

struct ShiftCheck {
    std::vector<double>
        residual;  // per position p = 0..positions-1: max_c |(T_k PE(p))_c - PE(p+k)_c|
    double maxResidual = 0;
    int worstPosition = 0;
    int worstColumn = 0;
};
// Multiplies T_k by each table row and compares with the row k positions later, computed directly.
Result<ShiftCheck> checkShift(const SinusoidalParams& params, double shift, int positions);

// T_k's non-zero entries, row by row (at most two a row, in column order), built as shiftMatrix
// builds the dense matrix: each sine column with its cosine partner forms one 2x2 rotation by w k.
using SparseRows = std::vector<std::vector<std::pair<int, double>>>;
SparseRows sparseShift(const SinusoidalParams& params, double shift);
std::vector<double> applySparse(const SparseRows& rows, const std::vector<double>& v);  // T v
// checkShift's residual at `samples` evenly spaced positions of 0..positions-1 (all of them when
// positions <= samples; else 0 and positions-1 included), with T_k kept sparse (two entries a
// row): O(samples d) time and O(d) memory whatever d is, where the dense T_k at d = 8192 is 512 MB.
inline constexpr int kShiftCheckSamples = 2048;  // about two per pixel column of the figure
struct SampledShiftCheck {
    std::vector<int> positions;    // increasing
    std::vector<double> residual;  // max_c |(T_k PE(p))_c - PE(p+k)_c| at each
    double maxResidual = 0;
    int worstPosition = 0, worstColumn = 0;
    int checkedOf = 0;  // the N of 0..N-1 the positions were drawn from
    bool everyPosition() const { return int(positions.size()) == checkedOf; }
};
Result<SampledShiftCheck> sampledShiftCheck(const SinusoidalParams& params, double shift,
                                            int positions, int samples = kShiftCheckSamples);

// ---- Sine only
// The table's sine columns (in column order; t2t's zero padding is neither sine nor cosine).
std::vector<int> sineColumns(const SinusoidalParams& params);
// s(p): PE(p) restricted to sineColumns(params).
std::vector<double> sineOnlyRow(const SinusoidalParams& params, double position);
inline constexpr int kMaxSineOnlyDModel = 512;  // the fit is O(samples x (d/2)^2)
struct SineOnlyShiftFit {
    Matrix map;                    // m x m, m = sine columns: the least-squares T_k on s(p)
    std::vector<int> columns;      // sineColumns(params): the table column of each row of map
    std::vector<int> positions;    // fitted and checked, increasing (as sampledShiftCheck's)
    std::vector<double> residual;  // at each: max_c |(T s(p))_c - s(p+k)_c|
    double maxResidual = 0;
    double rmsResidual = 0;        // over every position and component
    int worstPosition = 0, worstColumn = 0;  // worstColumn: a table column
    int checkedOf = 0;             // the N of 0..N-1 the positions were drawn from
    int rank = 0;                  // of the fitted s(p) rows (slow sines are nearly dependent)
    double ridge = 0;              // lambda / mean squared column norm of s(p) (0: plain)
    bool everyPosition() const { return int(positions.size()) == checkedOf; }
};
// The best matrix T minimising sum_p |T s(p) - s(p + k)|^2 + lambda |T|^2 over
// sampledShiftCheck's positions (QR least squares on s(p) stacked over sqrt(lambda) I,
// base/least_squares), and its residual there. d_model 1..512. lambda = ridge times the mean
// squared column norm of s(p). ridge 0 is plain least squares: the slow sines are nearly linear
// in p, hence nearly parallel, and the plain fit trades them against each other with entries in
// the millions (5.6e6 at d_model 16, k 5, 256 positions) to shave a little off their error.
// kSineOnlyRidge keeps every entry near 1 and leaves each slow sine missing by about |sin wk|,
// which is the lesson: no matrix on the sines alone moves them.
inline constexpr double kSineOnlyRidge = 1e-4;
Result<SineOnlyShiftFit> sineOnlyShiftFit(const SinusoidalParams& params, double shift,
                                          int positions, int samples = kShiftCheckSamples,
                                          double ridge = 0);

}  // namespace poslab
