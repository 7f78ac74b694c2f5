// Figure building with extreme values: the fuzz input is decoded into doubles (raw bit patterns,
// or picks from a table of edge values: +-1.7e308, +-inf, NaN, subnormals, 1e154, 0) and fed to
// the tick and range helpers, heatmaps, line plots, polylines, and the views that take data (a
// learned table, T5 bucket biases, RoPE q and k), and to the T5, ALiBi and similarity views at
// areas of any size (0, negative, 3e38, inf, NaN). Every call must return, without a sanitizer
// report, and bad data must come back as an Error, not a hang or a crash.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "poslab/figure/colormap.hpp"
#include "poslab/figure/plot.hpp"
#include "poslab/figure/polyline.hpp"
#include "poslab/views/alibi_figures.hpp"
#include "poslab/views/learned_figures.hpp"
#include "poslab/views/rope_figures.hpp"
#include "poslab/views/similarity_figures.hpp"
#include "poslab/views/t5_figures.hpp"

namespace {

using namespace poslab;

// Reads the input as a stream of doubles: a tag byte below 0xC0 picks an edge value, any other
// tag is followed by 8 raw bytes.
class Values {
  public:
    Values(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    bool empty() const { return position_ >= size_; }
    double next() {
        static constexpr double kEdges[] = {0.0,
                                            -0.0,
                                            1.0,
                                            -1.0,
                                            0.5,
                                            1e154,
                                            -1e154,
                                            1.7976931348623157e308,
                                            -1.7976931348623157e308,
                                            1.7e308,
                                            -1.7e308,
                                            INFINITY,
                                            -INFINITY,
                                            NAN,
                                            4.9406564584124654e-324,
                                            -4.9406564584124654e-324,
                                            2.2250738585072014e-308,
                                            1e-300,
                                            1e300,
                                            1e16,
                                            1.0000000000000002,
                                            4096,
                                            1e-9,
                                            3.0};
        if (empty()) return 0;
        const std::uint8_t tag = data_[position_++];
        if (tag < 0xC0 || size_ - position_ < 8) return kEdges[tag % std::size(kEdges)];
        double value;
        std::memcpy(&value, data_ + position_, 8);
        position_ += 8;
        return value;
    }
    int small(int limit) {  // 0 .. limit-1
        if (empty()) return 0;
        return data_[position_++] % limit;
    }

  private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t position_ = 0;
};

void ticksAndRanges(Values& in) {
    const double a = in.next(), b = in.next();
    const int count = in.small(40) - 2;
    linearTicks(a, b, count, in.small(2) == 1);
    logTicks(a, b, count);
    if (std::isfinite(a) && std::isfinite(b) && a <= b) {
        paddedRange(a, b, 0.06);
        rangeFraction(in.next(), a, b);
        rangeValue(in.next(), a, b);
    }
}

std::shared_ptr<Matrix> matrixFrom(Values& in, std::size_t rows, std::size_t cols) {
    auto m = std::make_shared<Matrix>(rows, cols);
    for (double& v : m->values) v = in.next();
    return m;
}

void heatmapAndLines(Values& in) {
    const Theme theme = in.small(2) ? paperTheme() : darkTheme();
    Figure figure = emptyFigure(480, 320, theme);
    const auto values = matrixFrom(in, 1 + in.small(6), 1 + in.small(6));
    HeatmapSpec spec;
    spec.values = values;
    switch (in.small(3)) {
        case 0:
            spec.range = finiteRange(*values);
            break;
        case 1:
            spec.range = symmetricRange(*values);
            break;
        default:
            spec.range = {in.next(), in.next()};
    }
    spec.x = {"x", 0, double(values->cols), false, true};
    if (in.small(2)) spec.x = {"x", in.next(), in.next(), false, false};
    spec.colormap = allColormaps()[std::size_t(in.small(6))];
    drawHeatmap(figure, {0, 0, 480, 320}, spec, theme);
    colorize(*values, spec.colormap, spec.range);

    LinePlotSpec plot;
    plot.x = {"x", in.next(), in.next(), in.small(4) == 0};
    plot.y.logarithmic = in.small(4) == 0;
    plot.autoRangeY = in.small(4) != 0;
    if (!plot.autoRangeY) plot.y.low = in.next(), plot.y.high = in.next();
    LineSeries series;
    const int points = in.small(12);
    for (int i = 0; i < points; ++i) {
        series.x.push_back(in.next());
        series.y.push_back(in.next());
    }
    plot.series.push_back(series);
    drawLinePlot(figure, {0, 0, 480, 320}, plot, theme);

    std::vector<Point> line;
    for (std::size_t i = 0; i + 1 < series.x.size(); i += 2)
        line.push_back({float(series.x[i]), float(series.y[i])});
    simplifyPolyline(line, float(std::fabs(in.next())));
}

void learnedView(Values& in) {
    LearnedFigureOptions options;
    const auto table = matrixFrom(in, 1 + in.small(12), 1 + in.small(6));
    options.table = table;
    options.positionsShown = in.small(20);
    options.curveCount = 1 + in.small(8);
    options.firstCurveDimension = in.small(int(table->cols));
    Figure figure = emptyFigure(640, 480, darkTheme());
    (void)drawLearnedFigure(figure, {0, 0, 640, 480}, options, darkTheme());
}

// A figure side: usually ordinary, sometimes an edge value (0, negative, huge, inf, NaN).
float side(Values& in, float usual) {
    if (in.small(4) != 0) return usual;
    const double value = in.next();
    return value > 3e38 ? INFINITY : value < -3e38 ? -INFINITY : float(value);
}

void t5View(Values& in) {
    T5FigureOptions options;
    options.params = {1 + in.small(40), 4 + in.small(8), 0, in.small(2) == 1};
    options.params.maxDistance = options.params.numBuckets + 1 + in.small(60);
    for (int b = 0; b < options.params.numBuckets; ++b) options.bucketBiases.push_back(in.next());
    const float width = side(in, 640), height = side(in, 480);
    Figure figure = emptyFigure(640, 480, darkTheme());
    (void)drawT5Figure(figure, {0, 0, width, height}, options, darkTheme());
}

void alibiView(Values& in) {
    AlibiFigureOptions options;
    options.heads = 1 + in.small(16);
    options.seqLen = 1 + in.small(200);
    options.symmetric = in.small(2) == 1;
    options.enlargedHead = in.small(options.heads);
    options.contentScale = in.small(2) ? 0 : in.next();
    const float width = side(in, 800), height = side(in, 600);
    Figure figure = emptyFigure(800, 600, paperTheme());
    (void)drawAlibiFigure(figure, {0, 0, width, height}, options, paperTheme());
}

void similarityView(Values& in) {
    SimilarityParams params;
    params.encoding = SimilarityEncoding(in.small(3));
    params.metric = in.small(2) ? SimilarityMetric::Cosine : SimilarityMetric::Dot;
    params.seqLen = 1 + in.small(40);
    if (params.encoding == SimilarityEncoding::Learned && in.small(2)) {
        params.learnedTable = matrixFrom(in, std::size_t(params.seqLen), 1 + in.small(6));
    }
    SimilarityFigureOptions options;
    options.trainingLength = in.small(48);
    const float width = side(in, 900), height = side(in, 500);
    (void)similarityFigure(params, options, width, height, darkTheme());
}

void ropeView(Values& in) {
    RopeParams params;
    params.headDim = 2 * (1 + in.small(8));
    params.seqLen = params.trainingLength = 1 + in.small(64);
    RopeScoreOptions options;
    for (int i = 0; i < params.headDim; ++i) options.q.push_back(in.next());
    for (int i = 0; i < params.headDim; ++i) options.k.push_back(in.next());
    if (in.small(2)) options.range = {in.next(), in.next()};
    auto freqs = ropeFrequencies(params);
    if (!freqs) return;
    (void)ropeScoreRange(options.q, options.k, params.seqLen, *freqs, params.pairing);
    Figure figure = emptyFigure(480, 480, darkTheme());
    drawRopeScores(figure, {0, 0, 480, 480}, params, options, darkTheme(), nullptr);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    Values in(data + 1, size - 1);
    switch (data[0] % 8) {
        case 0:
            ticksAndRanges(in);
            break;
        case 1:
            heatmapAndLines(in);
            break;
        case 2:
            learnedView(in);
            break;
        case 3:
            t5View(in);
            break;
        case 4:
            ropeView(in);
            break;
        case 5:
            alibiView(in);
            break;
        case 6:
            similarityView(in);
            break;
        default:
            t5View(in);
            break;
    }
    return 0;
}
