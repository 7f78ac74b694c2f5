#include "poslab/encodings/sinusoidal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "poslab/base/format.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/parallel.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

namespace {

// Number of distinct frequencies a layout uses for d columns.
int frequencyCount(const SinusoidalParams& params) {
    const int d = params.dModel;
    if (params.layout == SinusoidalLayout::Tensor2Tensor) return d / 2;
    return (d + 1) / 2;  // ceil: an odd d keeps a lone sine
}

// Output rows computed from one exact sin/cos per frequency (see sinusoidalBlockMeans).
constexpr int kBlockRows = 32;

}  // namespace

std::string_view layoutName(SinusoidalLayout layout) {
    return enumName(kLayoutNames, layout);
}

Result<SinusoidalLayout> parseLayout(std::string_view name) {
    return parseEnum(kLayoutNames, name, "layout");
}

Status validateRanges(const SinusoidalParams& params) {
    if (auto s = requireIntInRange("d_model", params.dModel, 1, kMaxDModel); !s) return s;
    if (auto s = requireIntInRange("seq_len", params.seqLen, 1, kMaxSeqLen); !s) return s;
    return requireInRange("base", params.base, 1.0, 1e12, false);
}

Status validate(const SinusoidalParams& params) {
    if (auto s = validateRanges(params); !s) return s;
    return checkMatrixSize(std::size_t(params.seqLen), std::size_t(params.dModel),
                           "the sinusoidal table");
}

std::vector<double> sinusoidalFrequencies(const SinusoidalParams& params) {
    const int count = frequencyCount(params);
    std::vector<double> frequencies(std::size_t(std::max(count, 0)));
    if (params.layout == SinusoidalLayout::Tensor2Tensor) {
        // log_timescale_increment = log(max/min) / max(n - 1, 1); inv_k = exp(-k * increment)
        const double increment = std::log(params.base) / std::max(count - 1, 1);
        for (int k = 0; k < count; ++k) frequencies[k] = std::exp(-k * increment);
    } else {
        for (int k = 0; k < count; ++k) {
            frequencies[k] = 1.0 / std::pow(params.base, 2.0 * k / params.dModel);
        }
    }
    return frequencies;
}

SinusoidalColumn sinusoidalColumn(const SinusoidalParams& params, int column) {
    SinusoidalColumn result;
    const int d = params.dModel;
    int index = 0;
    switch (params.layout) {
        case SinusoidalLayout::Interleaved:
            index = column / 2;
            result.isCosine = column % 2 == 1;
            break;
        case SinusoidalLayout::Concat: {
            const int sineColumns = (d + 1) / 2;
            result.isCosine = column >= sineColumns;
            index = result.isCosine ? column - sineColumns : column;
            break;
        }
        case SinusoidalLayout::Tensor2Tensor: {
            const int half = d / 2;
            if (column >= 2 * half) {
                result.isZero = true;
                return result;
            }
            result.isCosine = column >= half;
            index = result.isCosine ? column - half : column;
            break;
        }
    }
    result.frequencyIndex = index;
    if (params.layout == SinusoidalLayout::Tensor2Tensor) {
        const int count = d / 2;
        result.frequency = std::exp(-index * (std::log(params.base) / std::max(count - 1, 1)));
    } else {
        result.frequency = 1.0 / std::pow(params.base, 2.0 * index / d);
    }
    return result;
}

double sinusoidalValue(const SinusoidalParams& params, double position, int column) {
    const SinusoidalColumn wave = sinusoidalColumn(params, column);
    if (wave.isZero) return 0.0;
    const double angle = position * wave.frequency;
    return wave.isCosine ? std::cos(angle) : std::sin(angle);
}

void sinusoidalRow(const SinusoidalParams& params, double position, double* out) {
    for (int c = 0; c < params.dModel; ++c) out[c] = sinusoidalValue(params, position, c);
}

std::string sinusoidalFormula(const SinusoidalParams& params, int position, int column) {
    const SinusoidalColumn wave = sinusoidalColumn(params, column);
    const double value = sinusoidalValue(params, position, column);
    char buffer[256];
    const char* fn = wave.isCosine ? "cos" : "sin";
    if (wave.isZero) {
        std::snprintf(buffer, sizeof buffer,
                      "PE[%d, %d] = 0  (t2t pads an odd channel count with a zero column)",
                      position, column);
    } else if (params.layout == SinusoidalLayout::Tensor2Tensor) {
        const int count = params.dModel / 2;
        std::snprintf(buffer, sizeof buffer,
                      "PE[%d, %d] = %s(%d · $%s^{-%d/%d}$) = %s(%d · %.6g) = %.6f", position,
                      column, fn, position, formatNumber(params.base).c_str(), wave.frequencyIndex,
                      std::max(count - 1, 1), fn, position, wave.frequency, value);
    } else {
        std::snprintf(buffer, sizeof buffer,
                      "PE[%d, %d] = %s(%d / $%s^{%d/%d}$) = %s(%d · %.6g) = %.6f", position, column,
                      fn, position, formatNumber(params.base).c_str(), 2 * wave.frequencyIndex,
                      params.dModel, fn, position, wave.frequency, value);
    }
    // Figure markup with minus signs (figure/ticks): the hover sets it as the figures set
    // their powers ($\mathrm{base}^{2i/d}$), where it read "10000^(42/128)" and "-0.895758".
    return typesetNumbers(buffer);
}

Matrix sinusoidalBlockMeans(const SinusoidalParams& params, long long firstRow, int rowsPerBlock,
                            int blockCount) {
    Matrix means;
    sinusoidalBlockMeansInto(means, params, firstRow, rowsPerBlock, blockCount);
    return means;
}

void sinusoidalBlockMeansInto(Matrix& means, const SinusoidalParams& params, long long firstRow,
                              int rowsPerBlock, int blockCount) {
    SinusoidalBlockGenerator(params, rowsPerBlock).fill(means, firstRow, blockCount);
}

// The mean of sin(w p) over p = a .. a+s-1 is gain * sin(w c), with c = a + (s-1)/2 the block
// centre and gain = sin(w s/2) / (s sin(w/2)) (1 when s = 1). Centres advance by s, so block
// r0 + j is block r0 rotated by j*w*s: exact sin/cos are needed only once per kBlockRows blocks,
// and the rotations by j*w*s come from a table computed once per generator.
SinusoidalBlockGenerator::SinusoidalBlockGenerator(const SinusoidalParams& params, int rowsPerBlock,
                                                   int firstColumn, int columnCount, int maxBlocks)
    : params_(params),
      span_(std::max(rowsPerBlock, 1)),
      frequencies_(sinusoidalFrequencies(params)),
      // Rows past the blocks a fill is asked for are never read: a one-block generator (a
      // sample's short last block) built 32 rows of d/2 rotations to read one, half of a live
      // frame's sample at d 8192.
      stepRows_(maxBlocks < 0 ? kBlockRows : std::clamp(maxBlocks, 1, kBlockRows)) {
    const int d = params.dModel;
    const int count = int(frequencies_.size());
    sineColumns_ = params.layout == SinusoidalLayout::Interleaved ? 0
                   : params.layout == SinusoidalLayout::Concat    ? (d + 1) / 2
                                                                  : d / 2;
    cosineColumns_ = params.layout == SinusoidalLayout::Concat ? d / 2 : count;
    // The frequencies behind columns [c0, c1): interleaved pairs, or a range in each block.
    const int c0 = std::clamp(firstColumn, 0, d);
    const int c1 = columnCount < 0 ? d : std::clamp(c0 + columnCount, c0, d);
    int low = count, high = 0;
    if (c0 < c1 && params.layout == SinusoidalLayout::Interleaved) {
        low = c0 / 2;
        high = std::min(count, (c1 - 1) / 2 + 1);
    } else if (c0 < c1) {
        if (c0 < sineColumns_) {
            low = std::min(low, c0);
            high = std::max(high, std::min(c1, sineColumns_));
        }
        if (c1 > sineColumns_ && c0 < sineColumns_ + cosineColumns_) {
            low = std::min(low, std::max(c0 - sineColumns_, 0));
            high = std::max(high, std::min(c1 - sineColumns_, cosineColumns_));
        }
    }
    firstFrequency_ = low < high ? low : 0;
    frequencyCount_ = std::max(high - low, 0);
    const int width = frequencyCount_;
    gain_.resize(std::size_t(width));
    for (int i = 0; i < width; ++i) {
        const double w = frequencies_[std::size_t(firstFrequency_ + i)];
        const double half = std::sin(0.5 * w);
        gain_[i] = span_ == 1 || std::abs(half) < 1e-300
                       ? 1.0
                       : std::sin(0.5 * w * span_) / (span_ * half);
    }
    // Rotations by j steps: exact sin/cos every kAnchorEvery rows, angle addition in between
    // (error under 1e-15). Live views build a generator every frame, and libm calls for all
    // kBlockRows x d/2 entries used to be most of a frame's sample time at d = 4096.
    // Filled a row at a time: the tables are row-major, and a frequency at a time walked their
    // columns 8 * width bytes apart (32 KiB at d = 8192: one L1 set, every load a miss), most of
    // a sinusoidal-max frame's sample. Each entry is computed by the same operations as before.
    constexpr int kAnchorEvery = 8;
    stepSin_.resize(std::size_t(stepRows_) * width);
    stepCos_.resize(stepSin_.size());
    const std::size_t frequencyCount = std::size_t(width);
    std::vector<double> steps(frequencyCount), sinSteps(frequencyCount), cosSteps(frequencyCount);
    for (int i = 0; i < width; ++i) {
        const double step = frequencies_[std::size_t(firstFrequency_ + i)] * span_;
        steps[i] = step;
        sinSteps[i] = stepRows_ > 1 ? std::sin(step) : 0.0;
        cosSteps[i] = stepRows_ > 1 ? std::cos(step) : 1.0;
    }
    for (int j = 0; j < stepRows_; ++j) {
        double* sinRow = stepSin_.data() + std::size_t(j) * width;
        double* cosRow = stepCos_.data() + std::size_t(j) * width;
        if (j % kAnchorEvery == 0) {
            for (int i = 0; i < width; ++i) {
                sinRow[i] = std::sin(j * steps[i]);
                cosRow[i] = std::cos(j * steps[i]);
            }
            continue;
        }
        const double* sinPrevious = sinRow - width;
        const double* cosPrevious = cosRow - width;
        for (int i = 0; i < width; ++i) {
            sinRow[i] = sinPrevious[i] * cosSteps[i] + cosPrevious[i] * sinSteps[i];
            cosRow[i] = cosPrevious[i] * cosSteps[i] - sinPrevious[i] * sinSteps[i];
        }
    }
}

void SinusoidalBlockGenerator::fill(Matrix& means, long long firstRow, int blockCount) const {
    // The rotation tables hold stepRows_ rows: a generator made for fewer blocks than a chunk
    // fills no more than it was made for.
    if (stepRows_ < kBlockRows) blockCount = std::min(blockCount, stepRows_);
    const int d = params_.dModel;
    const int span = span_;
    const int first = firstFrequency_, width = frequencyCount_;
    // Reuses the matrix's memory when it is large enough: fresh pages cost more than the maths.
    means.rows = std::size_t(std::max(blockCount, 0));
    means.cols = std::size_t(d);
    means.values.resize(means.rows * means.cols);
    if (params_.layout == SinusoidalLayout::Tensor2Tensor && d % 2 == 1) {
        for (std::size_t r = 0; r < means.rows; ++r) means(r, std::size_t(d - 1)) = 0.0;
    }

    // Per-call scratch: small (one value per frequency), so the heap reuses it cheaply.
    std::vector<double> startSin(static_cast<std::size_t>(width)), startCos(startSin.size());
    // Frequency indices first + [0, n) written in each part of a row.
    const int pairs = std::clamp(d / 2 - first, 0, width);             // interleaved sin, cos
    const int sines = std::clamp(sineColumns_ - first, 0, width);      // concat, t2t sin block
    const int cosines = std::clamp(cosineColumns_ - first, 0, width);  // concat, t2t cos block
    const int loneSine = d % 2 == 1 ? int(frequencies_.size()) - 1 - first : -1;  // interleaved

    for (int blockStart = 0; blockStart < blockCount; blockStart += kBlockRows) {
        const double centre = double(firstRow) + double(blockStart) * span + 0.5 * (span - 1);
        for (int i = 0; i < width; ++i) {
            const double w = frequencies_[std::size_t(first + i)];
            startSin[i] = gain_[i] * std::sin(centre * w);
            startCos[i] = gain_[i] * std::cos(centre * w);
        }
        const int blockEnd = std::min(blockCount, blockStart + kBlockRows);
        for (int r = blockStart; r < blockEnd; ++r) {
            // .data() + offset: with no frequencies (t2t, d = 1) the tables are empty.
            const double* jSin = stepSin_.data() + std::size_t(r - blockStart) * width;
            const double* jCos = stepCos_.data() + std::size_t(r - blockStart) * width;
            // sin(a+b) = sin a cos b + cos a sin b;  cos(a+b) = cos a cos b - sin a sin b,
            // written straight into the row so the loops vectorise.
            double* out = means.row(std::size_t(r));
            const double* sSin = startSin.data();
            const double* sCos = startCos.data();
            if (params_.layout == SinusoidalLayout::Interleaved) {
                double* pairOut = out + 2 * first;
                for (int i = 0; i < pairs; ++i) {
                    pairOut[2 * i] = sSin[i] * jCos[i] + sCos[i] * jSin[i];
                    pairOut[2 * i + 1] = sCos[i] * jCos[i] - sSin[i] * jSin[i];
                }
                if (loneSine >= 0 && loneSine < width) {
                    const int i = loneSine;
                    out[d - 1] = sSin[i] * jCos[i] + sCos[i] * jSin[i];
                }
            } else {
                double* sineOut = out + first;
                double* cosineOut = out + sineColumns_ + first;
                for (int i = 0; i < sines; ++i) sineOut[i] = sSin[i] * jCos[i] + sCos[i] * jSin[i];
                for (int i = 0; i < cosines; ++i)
                    cosineOut[i] = sCos[i] * jCos[i] - sSin[i] * jSin[i];
                // t2t with odd d: the trailing column was zeroed above.
            }
        }
    }
}

HeatmapSample sinusoidalSample(const SinusoidalParams& params, CellWindow window, int maxRows,
                               int maxCols) {
    HeatmapSample sample;
    sample.window = clampWindow(window, params.seqLen, params.dModel);
    const CellWindow& w = sample.window;
    sample.rowsPerTexel = cellsPerTexel(w.rowCount, maxRows);
    sample.colsPerTexel = cellsPerTexel(w.colCount, maxCols);
    const long long blocks = (w.rowCount + sample.rowsPerTexel - 1) / sample.rowsPerTexel;
    const long long group = sample.colsPerTexel;
    const long long texelCols = (w.colCount + group - 1) / group;

    // Block means of whole rows, kBlockRows at a time into a small scratch matrix that stays in
    // cache, then cropped to the visible columns and averaged over column groups. A 4096-wide
    // table never needs a full-size intermediate (fresh memory costs more than the maths).
    auto values = std::make_shared<Matrix>(std::size_t(blocks), std::size_t(texelCols));
    auto reduceColumns = [&](const Matrix& rows, int count, long long firstTexelRow) {
        for (int r = 0; r < count; ++r) {
            const double* in = rows.row(std::size_t(r)) + w.firstCol;
            double* out = values->row(std::size_t(firstTexelRow + r));
            for (long long g = 0; g < texelCols; ++g) {
                const long long begin = g * group, end = std::min(w.colCount, begin + group);
                double sum = 0;
                for (long long c = begin; c < end; ++c) sum += in[c];
                out[g] = sum / double(end - begin);
            }
        }
    };
    // The last block may be cut short by the window's end: it averages only the rows it has.
    const long long fullBlocks = w.rowCount / sample.rowsPerTexel;
    // Only the frequencies behind the visible columns: zoomed in on a few of 4096 dimensions,
    // the rest of each row would be computed to be cropped away.
    const SinusoidalBlockGenerator generator(params, int(sample.rowsPerTexel), int(w.firstCol),
                                             int(w.colCount),
                                             int(std::min<long long>(fullBlocks, kBlockRows)));
    // Chunks of kBlockRows texel rows, split between the cores when there are enough cells.
    const long long chunks = (fullBlocks + kBlockRows - 1) / kBlockRows;
    const long long cellsPerChunk = kBlockRows * std::max(1LL, w.colCount);
    parallelFor(chunks, (1 << 16) / cellsPerChunk + 1,
                [&](long long firstChunk, long long lastChunk) {
                    Matrix chunk;
                    for (long long c = firstChunk; c < lastChunk; ++c) {
                        const long long first = c * kBlockRows;
                        const int count = int(std::min<long long>(kBlockRows, fullBlocks - first));
                        generator.fill(chunk, w.firstRow + first * sample.rowsPerTexel, count);
                        reduceColumns(chunk, count, first);
                    }
                });
    Matrix chunk;
    if (const long long remainder = w.rowCount - fullBlocks * sample.rowsPerTexel; remainder > 0) {
        SinusoidalBlockGenerator(params, int(remainder), int(w.firstCol), int(w.colCount), 1)
            .fill(chunk, w.firstRow + fullBlocks * sample.rowsPerTexel, 1);
        reduceColumns(chunk, 1, fullBlocks);
    }
    sample.values = std::move(values);
    sample.rowSpan = double(blocks * sample.rowsPerTexel);
    sample.colSpan = double(texelCols * sample.colsPerTexel);
    sample.version = nextMatrixVersion();
    return sample;
}

Result<Matrix> sinusoidalTable(const SinusoidalParams& params) {
    if (auto status = validate(params); !status) return status.error();
    return sinusoidalBlockMeans(params, 0, 1, params.seqLen);
}

SinusoidalRows::SinusoidalRows(const SinusoidalParams& params) {
    waves_.reserve(std::size_t(std::max(params.dModel, 0)));
    for (int c = 0; c < params.dModel; ++c) waves_.push_back(sinusoidalColumn(params, c));
}

void SinusoidalRows::row(double position, double* out) const {
    for (std::size_t c = 0; c < waves_.size(); ++c) {
        const SinusoidalColumn& wave = waves_[c];
        if (wave.isZero) {
            out[c] = 0.0;
            continue;
        }
        const double angle = position * wave.frequency;
        out[c] = wave.isCosine ? std::cos(angle) : std::sin(angle);
    }
}

}  // namespace poslab
