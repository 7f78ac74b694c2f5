// sinusoidal.hpp — fixed sinusoidal position encodings (Vaswani et al. 2017) in three layouts.
//
//   Interleaved    PE[p, 2i] = sin(p / base^(2i/d)),  PE[p, 2i+1] = cos(same)   (the paper)
//   Concat         the same frequencies as [sin block | cos block]  (HF Marian / RoFormer tables)
//   Tensor2Tensor  tensor2tensor's get_timing_signal_1d: n = d/2 timescales spaced
//                  geometrically from 1 to base, inv_k = base^(-k/(n-1)), [sin | cos], and a
//                  zero column appended when d is odd. NOT the paper's frequencies.
//
// Odd d_model: Interleaved ends with a lone sine column (frequency index (d-1)/2);
// Concat puts ceil(d/2) sine columns before floor(d/2) cosine columns (HF's "sentinel");
// Tensor2Tensor pads one zero column at the end, as tf.pad does in the reference.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

enum class SinusoidalLayout { Interleaved, Concat, Tensor2Tensor };

struct SinusoidalParams {
    int dModel = 128;     // columns, 1..8192
    int seqLen = 128;     // rows (positions 0..seqLen-1), 1..kMaxSeqLen
    double base = 10000;  // > 1 and finite; the paper's 10000 (t2t's max_timescale)
    SinusoidalLayout layout = SinusoidalLayout::Interleaved;
    friend bool operator==(const SinusoidalParams&, const SinusoidalParams&) = default;  // member-wise: caches key on it
};

// ---- Names, for the command line, the GUI and saved files
inline constexpr EnumNames<SinusoidalLayout, 3> kLayoutNames{
    {{SinusoidalLayout::Interleaved, "interleaved"},
     {SinusoidalLayout::Concat, "concat"},
     {SinusoidalLayout::Tensor2Tensor, "t2t"}}};
std::string_view layoutName(SinusoidalLayout layout);          // "interleaved", "concat", "t2t"
Result<SinusoidalLayout> parseLayout(std::string_view name);    // inverse of layoutName()

// ---- Validation and evaluation
Status validateRanges(const SinusoidalParams& params);  // d_model, seq_len, base in range
Status validate(const SinusoidalParams& params);        // ranges and the whole table's memory cap
Result<Matrix> sinusoidalTable(const SinusoidalParams& params);  // seqLen x dModel

// Column c's wave: value = sin or cos (frequency * position); isZero for t2t's padding column.
struct SinusoidalColumn {
    double frequency = 0;   // radians per position
    bool isCosine = false;  // sin when false
    bool isZero = false;    // t2t odd-d padding: always 0
    int frequencyIndex = 0; // i in base^(-2i/d) (or k in t2t's inv_k)
};
SinusoidalColumn sinusoidalColumn(const SinusoidalParams& params, int column);
std::vector<double> sinusoidalFrequencies(const SinusoidalParams& params);  // one per index i
double sinusoidalValue(const SinusoidalParams& params, double position, int column);

// The formula of one cell with its numbers substituted, in figure markup with U+2212 minus
// signs, e.g. "PE[3, 4] = sin(3 / $10000^{4/128}$) = sin(3 · 0.5623) = 0.9936".
std::string sinusoidalFormula(const SinusoidalParams& params, int position, int column);

// Row r of the result is the mean of table rows firstRow + r*rowsPerBlock .. + rowsPerBlock-1
// (positions past seqLen continue the same waves). rowsPerBlock = 1 gives exact rows. The cost
// is O(blockCount * d) whatever rowsPerBlock is, which keeps zoomed-out views of long tables live.
Matrix sinusoidalBlockMeans(const SinusoidalParams& params, long long firstRow, int rowsPerBlock,
                            int blockCount);
// The same into an existing matrix, reusing its memory (benchmarks, streaming, live views).
void sinusoidalBlockMeansInto(Matrix& out, const SinusoidalParams& params, long long firstRow,
                              int rowsPerBlock, int blockCount);

// The same computation kept ready for many calls with one parameter set: the frequency and
// rotation tables are built once, so streaming a table in chunks costs O(rows x d) in total.
// A column range computes only the frequencies behind those columns (a view zoomed in on a few
// of 4096 dimensions); fill's other columns are then left as they were.
class SinusoidalBlockGenerator {
public:
  // maxBlocks: fill is never asked for more blocks than this (-1: any number); a generator for
  // one block builds one row of rotations instead of a chunk's.
  SinusoidalBlockGenerator(const SinusoidalParams& params, int rowsPerBlock, int firstColumn = 0,
                           int columnCount = -1,  // -1: every column
                           int maxBlocks = -1);
  // out = blockCount block means starting at table row firstRow (resized; memory reused).
  void fill(Matrix& out, long long firstRow, int blockCount) const;

private:
    SinusoidalParams params_;
    int span_ = 1;                                  // rows per block
    int sineColumns_ = 0, cosineColumns_ = 0;       // concat, t2t: the sin block, then the cos
    int firstFrequency_ = 0, frequencyCount_ = 0;   // the frequencies computed
    std::vector<double> frequencies_;               // every frequency, radians per position
    std::vector<double> gain_;                      // [k - first]: mean gain of a block
    int stepRows_ = 0;                              // rows j of the rotation tables
    std::vector<double> stepSin_, stepCos_;         // [j][k - first]: rotation by j blocks
};

// Fills out[0..cols) with row `position` of the table (any real position, used by zoomed views).
void sinusoidalRow(const SinusoidalParams& params, double position, double* out);

// The visible window of the table at the current zoom, at most maxRows x maxCols texels
// (see heatmap_sample.hpp). Cost O(texel rows x d), independent of seqLen.
HeatmapSample sinusoidalSample(const SinusoidalParams& params, CellWindow window, int maxRows,
                               int maxCols);

// sinusoidalRow with each column's wave looked up once: the same values bit for bit (the same
// sin/cos of the same product), without a pow per value, which dominates sampled checks at
// d = 8192.
class SinusoidalRows {
  public:
    explicit SinusoidalRows(const SinusoidalParams& params);
    void row(double position, double* out) const;  // out[0..dModel): as sinusoidalRow

  private:
    std::vector<SinusoidalColumn> waves_;
};

}  // namespace poslab
