#include "poslab/analysis/intuition.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "poslab/base/least_squares.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/sampling.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

int positionBit(long long position, int bit) {
    if (position < 0 || bit < 0 || bit > 62) return 0;
    return int((position >> bit) & 1);
}

Result<Matrix> binaryTable(int positions, int bits) {
    if (auto s = requireIntInRange("positions", positions, 1, kMaxSeqLen); !s) return s.error();
    if (auto s = requireIntInRange("bits", bits, 1, 30); !s) return s.error();
    Matrix table(static_cast<std::size_t>(positions), static_cast<std::size_t>(bits));
    for (int p = 0; p < positions; ++p) {
        for (int b = 0; b < bits; ++b) table(std::size_t(p), std::size_t(b)) = positionBit(p, b);
    }
    return table;
}

double bitSinusoid(double position, int bit) {
    const double period = std::ldexp(1.0, bit + 1);
    return -std::sin(2 * std::numbers::pi * (position + 0.5) / period);
}

int nearestFrequencyIndex(const SinusoidalParams& params, double wavelength) {
    const std::vector<double> frequencies = sinusoidalFrequencies(params);
    int best = -1;
    double bestDistance = INFINITY;
    for (std::size_t k = 0; k < frequencies.size(); ++k) {
        const double distance =
            std::abs(std::log(2 * std::numbers::pi / frequencies[k] / wavelength));
        if (distance < bestDistance) bestDistance = distance, best = int(k);
    }
    return best;
}

Result<Matrix> shiftMatrix(const SinusoidalParams& params, double shift) {
    if (auto s = requireIntInRange("d_model", params.dModel, 1, kMaxDModel); !s) return s.error();
    if (auto s = requireInRange("base", params.base, 1.0, 1e12, false); !s) return s.error();
    if (auto s = requireFinite("shift", shift); !s) return s.error();
    const int d = params.dModel;
    Matrix t(static_cast<std::size_t>(d), static_cast<std::size_t>(d));
    // Column of the cosine partner of each sine column, found through the layout's own map.
    std::vector<int> sineColumn, cosineColumn;
    std::vector<double> frequency;
    for (int c = 0; c < d; ++c) {
        const SinusoidalColumn wave = sinusoidalColumn(params, c);
        if (wave.isZero) continue;
        const int index = wave.frequencyIndex;
        if (std::size_t(index) >= frequency.size()) {
            frequency.resize(std::size_t(index) + 1, 0);
            sineColumn.resize(std::size_t(index) + 1, -1);
            cosineColumn.resize(std::size_t(index) + 1, -1);
        }
        frequency[std::size_t(index)] = wave.frequency;
        (wave.isCosine ? cosineColumn : sineColumn)[std::size_t(index)] = c;
    }
    for (std::size_t k = 0; k < frequency.size(); ++k) {
        const double c = std::cos(frequency[k] * shift), s = std::sin(frequency[k] * shift);
        const int si = sineColumn[k], ci = cosineColumn[k];
        if (si >= 0 && ci >= 0) {
            // sin w(p+k) = cos(wk) sin(wp) + sin(wk) cos(wp); cos w(p+k) = cos(wk) cos(wp) -
            // sin(wk) sin(wp)
            t(std::size_t(si), std::size_t(si)) = c;
            t(std::size_t(si), std::size_t(ci)) = s;
            t(std::size_t(ci), std::size_t(si)) = -s;
            t(std::size_t(ci), std::size_t(ci)) = c;
        } else if (si >= 0) {
            t(std::size_t(si), std::size_t(si)) = c;  // the lone sine: the best this row can do
        }
    }
    return t;
}

Result<ShiftCheck> checkShift(const SinusoidalParams& params, double shift, int positions) {
    if (auto s = requireIntInRange("positions", positions, 1, kMaxSeqLen); !s) return s.error();
    auto t = shiftMatrix(params, shift);
    if (!t) return t.error();
    const std::size_t d = std::size_t(params.dModel);
    // Sparse rows: T_k has at most two non-zeros per row, so the check costs O(positions d).
    std::vector<std::vector<std::pair<std::size_t, double>>> rows(d);
    for (std::size_t r = 0; r < d; ++r) {
        for (std::size_t c = 0; c < d; ++c) {
            if ((*t)(r, c) != 0) rows[r].push_back({c, (*t)(r, c)});
        }
    }
    ShiftCheck check;
    check.residual.resize(std::size_t(positions));
    std::vector<double> now(d), later(d);
    for (int p = 0; p < positions; ++p) {
        sinusoidalRow(params, p, now.data());
        sinusoidalRow(params, p + shift, later.data());
        double worst = 0;
        int worstColumn = 0;
        for (std::size_t r = 0; r < d; ++r) {
            double value = 0;
            for (const auto& [c, w] : rows[r]) value += w * now[c];
            const double error = std::abs(value - later[r]);
            if (error > worst) worst = error, worstColumn = int(r);
        }
        check.residual[std::size_t(p)] = worst;
        if (worst > check.maxResidual) {
            check.maxResidual = worst;
            check.worstPosition = p;
            check.worstColumn = worstColumn;
        }
    }
    return check;
}

SparseRows sparseShift(const SinusoidalParams& params, double shift) {
    const int d = params.dModel;
    std::vector<int> sineColumn, cosineColumn;
    std::vector<double> frequency;
    for (int c = 0; c < d; ++c) {
        const SinusoidalColumn wave = sinusoidalColumn(params, c);
        if (wave.isZero) continue;
        const std::size_t index = std::size_t(wave.frequencyIndex);
        if (index >= frequency.size()) {
            frequency.resize(index + 1, 0);
            sineColumn.resize(index + 1, -1);
            cosineColumn.resize(index + 1, -1);
        }
        frequency[index] = wave.frequency;
        (wave.isCosine ? cosineColumn : sineColumn)[index] = c;
    }
    SparseRows rows(std::size_t(std::max(d, 0)));
    for (std::size_t k = 0; k < frequency.size(); ++k) {
        const double c = std::cos(frequency[k] * shift), s = std::sin(frequency[k] * shift);
        const int si = sineColumn[k], ci = cosineColumn[k];
        if (si >= 0 && ci >= 0) {
            rows[std::size_t(si)] = {{si, c}, {ci, s}};
            rows[std::size_t(ci)] = {{si, -s}, {ci, c}};
        } else if (si >= 0) {
            rows[std::size_t(si)] = {{si, c}};  // the lone sine: the best this row can do
        }
    }
    // Entries in column order, as a dense row scan would visit them.
    for (auto& row : rows) std::sort(row.begin(), row.end());
    return rows;
}

std::vector<double> applySparse(const SparseRows& rows, const std::vector<double>& v) {
    std::vector<double> out(rows.size(), 0.0);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        double sum = 0;
        for (const auto& [c, w] : rows[r]) {
            if (w != 0) sum += w * v[std::size_t(c)];
        }
        out[r] = sum;
    }
    return out;
}

Result<SampledShiftCheck> sampledShiftCheck(const SinusoidalParams& params, double shift,
                                            int positions, int samples) {
    // shiftMatrix's checks, then checkShift's.
    if (auto s = requireIntInRange("d_model", params.dModel, 1, kMaxDModel); !s) return s.error();
    if (auto s = requireInRange("base", params.base, 1.0, 1e12, false); !s) return s.error();
    if (auto s = requireFinite("shift", shift); !s) return s.error();
    if (auto s = requireIntInRange("positions", positions, 1, kMaxSeqLen); !s) return s.error();
    const SparseRows rows = sparseShift(params, shift);
    const std::size_t d = std::size_t(params.dModel);
    SampledShiftCheck check;
    check.checkedOf = positions;
    check.positions = evenlySpaced(positions, std::max(2, samples));
    check.residual.resize(check.positions.size());
    const SinusoidalRows table(params);
    std::vector<double> now(d), later(d);
    for (std::size_t s = 0; s < check.positions.size(); ++s) {
        const int p = check.positions[s];
        table.row(p, now.data());
        table.row(p + shift, later.data());
        double worst = 0;
        int worstColumn = 0;
        for (std::size_t r = 0; r < d; ++r) {
            double value = 0;
            for (const auto& [c, w] : rows[r]) {
                if (w != 0) value += w * now[std::size_t(c)];
            }
            const double error = std::abs(value - later[r]);
            if (error > worst) worst = error, worstColumn = int(r);
        }
        check.residual[s] = worst;
        if (worst > check.maxResidual) {
            check.maxResidual = worst;
            check.worstPosition = p;
            check.worstColumn = worstColumn;
        }
    }
    return check;
}

std::vector<int> sineColumns(const SinusoidalParams& params) {
    std::vector<int> columns;
    for (int c = 0; c < params.dModel; ++c) {
        const SinusoidalColumn wave = sinusoidalColumn(params, c);
        if (!wave.isZero && !wave.isCosine) columns.push_back(c);
    }
    return columns;
}

std::vector<double> sineOnlyRow(const SinusoidalParams& params, double position) {
    std::vector<double> out;
    for (int c : sineColumns(params)) out.push_back(sinusoidalValue(params, position, c));
    return out;
}

Result<SineOnlyShiftFit> sineOnlyShiftFit(const SinusoidalParams& params, double shift,
                                          int positions, int samples, double ridge) {
    if (!(ridge >= 0 && ridge <= 1)) return Error{"ridge must be 0..1"};
    if (auto s = requireIntInRange("d_model", params.dModel, 1, kMaxSineOnlyDModel); !s)
        return s.error();
    if (auto s = requireInRange("base", params.base, 1.0, 1e12, false); !s) return s.error();
    if (auto s = requireFinite("shift", shift); !s) return s.error();
    if (auto s = requireIntInRange("positions", positions, 1, kMaxSeqLen); !s) return s.error();
    SineOnlyShiftFit fit;
    fit.columns = sineColumns(params);
    fit.checkedOf = positions;
    fit.positions = evenlySpaced(positions, std::max(2, samples));
    const std::size_t m = fit.columns.size(), count = fit.positions.size();
    if (m == 0) return Error{"this table has no sine column to fit (t2t with d_model 1)"};
    // Rows s(p) and s(p + k) from the full rows, so the sines are the table's own values.
    Matrix now(count, m), later(count, m);
    const SinusoidalRows table(params);
    std::vector<double> row(std::size_t(params.dModel));
    for (std::size_t i = 0; i < count; ++i) {
        table.row(fit.positions[i], row.data());
        for (std::size_t c = 0; c < m; ++c) now(i, c) = row[std::size_t(fit.columns[c])];
        table.row(fit.positions[i] + shift, row.data());
        for (std::size_t c = 0; c < m; ++c) later(i, c) = row[std::size_t(fit.columns[c])];
    }
    // now · Tᵀ ≈ later: each column of Tᵀ (row of T) is one least-squares problem. A ridge
    // stacks sqrt(lambda) I under `now` and zeros under `later` (Tikhonov, solved by the same QR).
    fit.ridge = ridge;
    Matrix stackedNow = now, stackedLater = later;
    if (ridge > 0) {
        double squares = 0;
        for (double v : now.values) squares += v * v;
        const double root = std::sqrt(ridge * squares / double(m));
        stackedNow = Matrix(count + m, m);
        stackedLater = Matrix(count + m, m);
        for (std::size_t i = 0; i < count; ++i) {
            for (std::size_t c = 0; c < m; ++c) {
                stackedNow(i, c) = now(i, c);
                stackedLater(i, c) = later(i, c);
            }
        }
        for (std::size_t c = 0; c < m; ++c) stackedNow(count + c, c) = root;
    }
    auto solved = leastSquares(stackedNow, stackedLater);
    if (!solved) return solved.error();
    fit.rank = solved->rank;
    fit.map = Matrix(m, m);
    for (std::size_t r = 0; r < m; ++r) {
        for (std::size_t c = 0; c < m; ++c) fit.map(r, c) = solved->solution(c, r);
    }
    fit.residual.resize(count);
    double sumSquares = 0;
    for (std::size_t i = 0; i < count; ++i) {
        double worst = 0;
        int worstColumn = 0;
        for (std::size_t c = 0; c < m; ++c) {
            const double error = std::abs(solved->residual(i, c));
            sumSquares += error * error;
            if (error > worst) worst = error, worstColumn = fit.columns[c];
        }
        fit.residual[i] = worst;
        if (worst > fit.maxResidual) {
            fit.maxResidual = worst;
            fit.worstPosition = fit.positions[i];
            fit.worstColumn = worstColumn;
        }
    }
    fit.rmsResidual = std::sqrt(sumSquares / double(count * m));
    return fit;
}

}  // namespace poslab
