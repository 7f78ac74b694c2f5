// learned_seeded_figures.cpp — the Learned figure's data for the seeded table without the table
// (`render learned` up to 2^20 x 8192): the values streamed from the engine row by row, only
// those the figure shows turned into normal values. The figure from a table is
// learned_figures.cpp's.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "poslab/analysis/similarity.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/random.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/views/learned_figures.hpp"

namespace poslab {

// ---------------------------------------------------------------------------------------------
// The seeded table, streamed
// ---------------------------------------------------------------------------------------------

namespace {

// The values of learnedTable(params) in order, value k = row * d_model + column, drawn from the
// engine as NormalSampler draws them but turned into normal values only when asked for, or when
// the pair's radius could beat the largest |value| so far (which is kept over the first `counted`
// values, exactly).
class SeededValueStream {
  public:
    SeededValueStream(const LearnedParams& params, long long counted)
        : engine_(params.seed), scale_(params.std), counted_(counted) {
        updateRadiusLimit();
    }
    double value(long long k) {  // k never decreases between calls
        while (pair_ < k / 2) draw();
        if (!transformed_) transform();
        return (k & 1) ? second_ : first_;
    }
    double finish() {  // the largest |value| over the counted values
        while (pair_ < (counted_ - 1) / 2) draw();
        return largest_;
    }

  private:
    void draw() {
        if (word_ == Mt19937_64Blocks::kWords) {
            engine_.nextBlock();
            word_ = 0;
        }
        a_ = Mt19937_64Blocks::temper(engine_.words()[word_]);
        b_ = engine_.words()[word_ + 1];  // tempered when transformed
        word_ += 2;                       // (312 words: a pair never straddles two blocks)
        ++pair_;
        transformed_ = false;
        if ((a_ >> 11) < radiusLimit_) transform();
    }
    void transform() {
        const NormalSampler::Pair pair =
            NormalSampler::fromOutputs(a_, Mt19937_64Blocks::temper(b_));
        first_ = scale_ * pair.first;
        second_ = scale_ * pair.second;
        transformed_ = true;
        const double before = largest_;
        if (2 * pair_ < counted_) largest_ = std::max(largest_, std::abs(first_));
        if (2 * pair_ + 1 < counted_) largest_ = std::max(largest_, std::abs(second_));
        if (largest_ != before) updateRadiusLimit();
    }
    // Pairs with (a >> 11) below the limit are transformed as they are drawn: every pair whose
    // values could exceed largest_ (|value| <= std * radius(a), radius decreasing in a), and a
    // few more (the limit is rounded up generously).
    void updateRadiusLimit() {
        if (!(scale_ > 0)) {
            radiusLimit_ = 0;  // every value is 0
            return;
        }
        const double radius = largest_ / scale_ * (1 - 1e-9);
        const double u1 = std::exp(-0.5 * radius * radius);  // radius(a) > radius <=> u1 < this
        radiusLimit_ =
            u1 >= 1 ? ~std::uint64_t{0} : std::uint64_t(std::ldexp(u1 * 1.000001, 53)) + 2;
    }

    Mt19937_64Blocks engine_;  // NormalSampler's engine and seed (random.hpp)
    int word_ = Mt19937_64Blocks::kWords;
    double scale_;
    long long counted_;
    long long pair_ = -1;
    std::uint64_t a_ = 0, b_ = 0, radiusLimit_ = 0;
    bool transformed_ = false;
    double first_ = 0, second_ = 0, largest_ = 0;
};

// Row r as analysis/similarity compares it for cosine: divided by its largest |entry|, then by
// its norm (the same operations in the same order, so the same numbers); false: no direction.
bool seededUnitRow(const std::vector<double>& row, std::vector<double>& out) {
    double largest = 0;
    bool finite = true;
    for (double v : row) {
        finite = finite && std::isfinite(v);
        largest = std::max(largest, std::abs(v));
    }
    if (!finite || largest == 0) return false;
    double squares = 0;
    for (double v : row) squares += (v / largest) * (v / largest);
    const double norm = std::sqrt(squares);
    for (std::size_t k = 0; k < row.size(); ++k) out[k] = row[k] / largest / norm;
    return true;
}

}  // namespace

Result<LearnedFigureData> computeSeededLearnedFigureData(const LearnedParams& params,
                                                         const LearnedFigureOptions& options,
                                                         const LearnedLayout& layout,
                                                         long long maxValues) {
    if (auto status = validate(params); !status) return status.error();
    if (auto s = requireIntInRange("positions", options.positionsShown, 0, kMaxSeqLen); !s)
        return s.error();
    if (auto s = requireIntInRange("curves", options.curveCount, 1, 8); !s) return s.error();
    if (auto s =
            requireIntInRange("first_dimension", options.firstCurveDimension, 0, params.dModel - 1);
        !s) {
        return s.error();
    }
    const long long rows = params.seqLen, cols = params.dModel;
    const long long shown = options.positionsShown > 0 ? options.positionsShown : rows;
    const long long visible = std::min(shown, rows);
    const double fraction = double(visible) / double(shown);
    LearnedFigureData data;
    data.tableRows = std::size_t(rows);
    data.tableCols = std::size_t(cols);

    // Texel blocks as computeLearnedFigureData makes them.
    HeatmapSample& sample = data.table;
    sample.window = {0, visible, 0, cols};
    const bool cells = layout.cellResolution;  // a vector file: texels are cells
    sample.rowsPerTexel =
        cellsPerTexel(visible, texelBudget(layout.table.height * float(fraction), cells));
    sample.colsPerTexel = cellsPerTexel(cols, texelBudget(layout.table.width, cells));
    const long long tableTexelRows = (visible + sample.rowsPerTexel - 1) / sample.rowsPerTexel;
    const long long tableTexelCols = (cols + sample.colsPerTexel - 1) / sample.colsPerTexel;
    const float cosineSide = std::min(layout.cosine.width, layout.cosine.height);
    const long long cosinePer =
        cellsPerTexel(visible, learnedCosineBudget(cosineSide * float(fraction), cells));
    const long long cosineTexels = (visible + cosinePer - 1) / cosinePer;
    data.positionsPerPoint =
        cellsPerTexel(visible, texelBudget(layout.curves.width * float(fraction)));

    // Every stride-th row is generated whole, and the first of every texel's block of rows.
    const long long stride =
        std::max(1LL, (visible * cols + maxValues - 1) / std::max(1LL, maxValues));
    data.rowStride = stride;

    Matrix tableSums(static_cast<std::size_t>(tableTexelRows),
                     static_cast<std::size_t>(tableTexelCols));
    Matrix cosineMeans(static_cast<std::size_t>(cosineTexels), static_cast<std::size_t>(cols));
    std::vector<long long> cosineDefined(static_cast<std::size_t>(cosineTexels), 0);
    std::vector<long long> tableRowsGenerated(static_cast<std::size_t>(tableTexelRows), 0);
    std::vector<double> row(static_cast<std::size_t>(cols)), unit(static_cast<std::size_t>(cols));
    const int curveCount =
        int(std::min<long long>(options.curveCount, cols - options.firstCurveDimension));
    std::vector<std::vector<double>> curveSums(static_cast<std::size_t>(curveCount));
    const long long group = data.positionsPerPoint;
    for (auto& sums : curveSums) sums.assign(std::size_t((visible + group - 1) / group), 0.0);

    SeededValueStream stream(params, visible * cols);
    for (long long r = 0; r < visible; ++r) {
        const long long first = r * cols;
        if (r % stride == 0 || r % sample.rowsPerTexel == 0 || r % cosinePer == 0) {
            for (long long c = 0; c < cols; ++c) row[std::size_t(c)] = stream.value(first + c);
            ++tableRowsGenerated[std::size_t(r / sample.rowsPerTexel)];
            double* sums = tableSums.row(std::size_t(r / sample.rowsPerTexel));
            for (long long c = 0; c < cols; ++c)
                sums[std::size_t(c / sample.colsPerTexel)] += row[std::size_t(c)];
            const std::size_t block = std::size_t(r / cosinePer);
            if (seededUnitRow(row, unit)) {
                double* means = cosineMeans.row(block);
                for (long long c = 0; c < cols; ++c) means[c] += unit[std::size_t(c)];
                ++cosineDefined[block];
            } else {
                ++data.undefinedCosineRows;
            }
            for (int k = 0; k < curveCount; ++k) {
                curveSums[std::size_t(k)][std::size_t(r / group)] +=
                    row[std::size_t(options.firstCurveDimension + k)];
            }
        } else {
            for (int k = 0; k < curveCount; ++k) {
                curveSums[std::size_t(k)][std::size_t(r / group)] +=
                    stream.value(first + options.firstCurveDimension + k);
            }
        }
    }
    const double largest = stream.finish();
    data.tableRange = {-(largest > 0 ? largest : 1), largest > 0 ? largest : 1};
    // Rows with no direction among those not generated: none can have one unless every value is
    // 0 (std 0), when every row is such a row.
    if (stride > 1 && !(params.std > 0)) data.undefinedCosineRows = visible;

    for (long long g = 0; g < tableTexelRows; ++g) {
        const long long generated = tableRowsGenerated[std::size_t(g)];  // >= 1: its first
        double* sums = tableSums.row(std::size_t(g));
        for (long long k = 0; k < tableTexelCols; ++k) {
            const long long c0 = k * sample.colsPerTexel,
                            c1 = std::min(cols, c0 + sample.colsPerTexel);
            sums[k] /= double(generated * (c1 - c0));
        }
    }
    sample.rowSpan = double(tableTexelRows) * double(sample.rowsPerTexel);
    sample.colSpan = double(tableTexelCols) * double(sample.colsPerTexel);
    sample.values = std::make_shared<const Matrix>(std::move(tableSums));
    sample.version = nextMatrixVersion();

    // The cosine texels as tableSimilaritySample makes them: the blocks' mean unit rows, their
    // Gram matrix, undefined where a block has no row with a direction.
    for (long long u = 0; u < cosineTexels; ++u) {
        double* means = cosineMeans.row(std::size_t(u));
        for (long long c = 0; c < cols; ++c)
            means[c] /= double(std::max(1LL, cosineDefined[std::size_t(u)]));
    }
    HeatmapSample& cosine = data.cosine;
    cosine.window = {0, visible, 0, visible};
    cosine.rowsPerTexel = cosine.colsPerTexel = cosinePer;
    cosine.rowSpan = cosine.colSpan = double(cosineTexels * cosinePer);
    cosine.version = nextMatrixVersion();
    auto gram = gramSimilarity(cosineMeans, SimilarityMetric::Dot);
    if (!gram) return gram.error();
    Matrix values = std::move(gram).value();
    for (std::size_t u = 0; u < values.rows; ++u) {
        for (std::size_t v = 0; v < values.cols; ++v) {
            if (cosineDefined[u] == 0 || cosineDefined[v] == 0) values(u, v) = kUndefinedCosine;
        }
    }
    cosine.values = std::make_shared<const Matrix>(std::move(values));

    for (int k = 0; k < curveCount; ++k) {
        LearnedCurve curve;
        curve.dimension = options.firstCurveDimension + k;
        const std::vector<double>& sums = curveSums[std::size_t(k)];
        for (std::size_t g = 0; g < sums.size(); ++g) {
            const long long r0 = (long long)g * group, r1 = std::min(visible, r0 + group);
            curve.x.push_back(group == 1 ? double(r0) : (double(r0) + double(r1 - 1)) / 2);
            curve.y.push_back(sums[g] / double(r1 - r0));
        }
        data.curves.push_back(std::move(curve));
    }
    return data;
}

Status drawSeededLearnedFigure(Figure& figure, Box area, const LearnedParams& params,
                               LearnedFigureOptions options, const Theme& theme, int panel) {
    options.table = nullptr;
    if (options.positionsShown == 0) options.positionsShown = params.seqLen;
    const LearnedLayout layout = learnedLayout(area, theme, panel);
    auto data = computeSeededLearnedFigureData(params, options, layout);
    if (!data) return data.error();
    figure.viewPanels = kLearnedPanels.count;  // --panel N: the GUI's panel N
    drawLearnedFigure(figure, layout, options, *data, theme);
    return success();
}

}  // namespace poslab
