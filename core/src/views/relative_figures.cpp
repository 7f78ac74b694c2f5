#include "poslab/views/relative_figures.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "poslab/base/limits.hpp"
#include "poslab/base/phase_grid.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/encodings/alibi.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/views/rope_figures.hpp"

namespace poslab {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

constexpr std::array<FamilyMember, kFamilyMembers> kMembers = {
    FamilyMember::Alibi,    FamilyMember::T5,   FamilyMember::KerplePower, FamilyMember::KerpleLog,
    FamilyMember::Sandwich, FamilyMember::Fire, FamilyMember::Xpos,        FamilyMember::Rope};

// Everything a member's curve needs that does not depend on the distance, computed once.
struct MemberCurve {
    const RelativeFigureOptions* options = nullptr;
    FamilyMember member = FamilyMember::Alibi;
    double slope = 0;
    std::vector<double> t5Biases;
    FireMlp mlp;
    double fireQuery = 0;
    double ropeAtZero = 1;

    MemberCurve(const RelativeFigureOptions& o, FamilyMember m) : options(&o), member(m) {
        if (m == FamilyMember::Alibi) {
            const auto slopes = alibiSlopes(o.alibiHeads);
            if (o.alibiHead >= 0 && std::size_t(o.alibiHead) < slopes.size())
                slope = slopes[std::size_t(o.alibiHead)];
        } else if (m == FamilyMember::T5) {
            t5Biases = seededBucketBiases(o.t5.numBuckets, o.t5Seed);
        } else if (m == FamilyMember::Fire) {
            mlp = seededFireMlp(o.fire.mlpWidth, o.fire.heads, o.fire.seed);
            fireQuery = double(o.seqLen - 1);
        } else if (m == FamilyMember::Rope) {
            ropeAtZero = ropeDecayBoundAt(o.xpos.headDim, o.xpos.base, 0);
        }
    }
    // The raw value at distance r (not yet shifted to 0 at r = 0).
    double raw(double r) const {
        const RelativeFigureOptions& o = *options;
        switch (member) {
            case FamilyMember::Alibi:
                return -slope * r;
            case FamilyMember::T5: {
                const int bucket = t5RelativePositionBucket(-int(r), o.t5.bidirectional,
                                                            o.t5.numBuckets, o.t5.maxDistance);
                return t5Biases.empty() ? 0 : t5Biases[std::size_t(bucket)];
            }
            case FamilyMember::KerplePower:
                return kerpleBias(o.kerplePower, r);
            case FamilyMember::KerpleLog:
                return kerpleBias(o.kerpleLog, r);
            case FamilyMember::Sandwich:
                return sandwichBias(o.sandwich, r);
            case FamilyMember::Fire: {
                const long long query = std::max<long long>((long long)fireQuery, (long long)r);
                return fireMlpOutput(mlp, o.fire.head,
                                     firePhi(o.fire, query, query - (long long)r));
            }
            case FamilyMember::Xpos:
                return std::log(xposDecay(o.xpos, r));
            case FamilyMember::Rope:
                return std::log(ropeDecayBoundAt(o.xpos.headDim, o.xpos.base, r) / ropeAtZero);
        }
        return 0;
    }
    double shifted(double r) const { return raw(r) - raw(0); }
};

ValueRange texelRange(const Matrix& values) {
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (double v : values.values) {
        if (!std::isfinite(v)) continue;
        low = std::min(low, v);
        high = std::max(high, v);
    }
    if (!(low <= high)) return {0, 1};
    if (high - low < 1e-12) return {low - 0.5, high + 0.5};
    return {low, high};
}

// A curve cut where it first falls below `floor`: the crossing point is kept, the rest is left
// out (a non-finite y breaks the line), so nothing is drawn outside the axes.
void cutBelow(LineSeries& series, double floor) {
    for (std::size_t k = 0; k < series.y.size(); ++k) {
        if (series.y[k] >= floor || !std::isfinite(series.y[k])) continue;
        if (k > 0 && std::isfinite(series.y[k - 1]) && series.y[k - 1] > floor) {
            const double t = (series.y[k - 1] - floor) / (series.y[k - 1] - series.y[k]);
            series.x[k] = series.x[k - 1] + t * (series.x[k] - series.x[k - 1]);
            series.y[k] = floor;
            ++k;
        }
        series.x.resize(std::min(k, series.x.size()));
        series.y.resize(series.x.size());
        return;
    }
}

int plotColumns(Box box) {
    return std::max(16, int(box.width));
}

HeatmapSample toeplitzSample(const RelativeFigureOptions& o, FamilyMember member, Box box) {
    return relativeOffsetSample(toeplitzByOffset(o, member, o.seqLen), o.seqLen, {},
                                texelBudget(box.height), texelBudget(box.width),
                                BlockSummary::MeanOfUnmasked);
}

std::string tabTitleSuffix(const RelativeFigureOptions& o) {
    return "L = " + formatValue(o.seqLen);
}

}  // namespace

std::string familyMemberName(FamilyMember member) {
    switch (member) {
        case FamilyMember::Alibi:
            return "ALiBi";
        case FamilyMember::T5:
            return "T5";
        case FamilyMember::KerplePower:
            return "KERPLE power";
        case FamilyMember::KerpleLog:
            return "KERPLE log";
        case FamilyMember::Sandwich:
            return "Sandwich";
        case FamilyMember::Fire:
            return "FIRE";
        case FamilyMember::Xpos:
            return "xPos decay";
        case FamilyMember::Rope:
            return "RoPE bound";
    }
    return "";
}

Status validate(const RelativeFigureOptions& o) {
    if (auto s = requireIntInRange("seq_len", o.seqLen, 2, kMaxSeqLen); !s) return s;
    if (auto s = requireIntInRange("training_length", o.trainingLength, 1, kMaxSeqLen); !s)
        return s;
    if (auto s = requireInRange("bias_floor", o.biasFloor, -1e6, -0.1); !s) return s;
    if (auto s = validate(o.xpos); !s) return s;
    if (auto s = validate(o.kerplePower); !s) return s;
    if (auto s = validate(o.kerpleLog); !s) return s;
    if (auto s = validate(o.sandwich); !s) return s;
    if (auto s = validate(o.fire); !s) return s;
    if (auto s = requireIntInRange("alibi_heads", o.alibiHeads, 1, kMaxAlibiHeads); !s) return s;
    if (auto s = requireIntInRange("alibi_head", o.alibiHead, 0, o.alibiHeads - 1); !s) return s;
    T5Params shape = o.t5;
    shape.seqLen = 1;
    return validate(shape);
}

double familyValue(const RelativeFigureOptions& options, FamilyMember member, double distance) {
    return MemberCurve(options, member).shifted(distance);
}

std::vector<double> familyDistances(int maxDistance, int columns, bool logarithmic) {
    std::vector<double> out;
    if (maxDistance < 1) return {0};
    const long long budget = 2LL * std::max(columns, 1);
    if (logarithmic) {
        const double top = std::log(double(maxDistance));
        for (long long s = 0; s <= budget; ++s) {
            const double d = std::round(std::exp(top * double(s) / double(budget)));
            if (out.empty() || d > out.back()) out.push_back(d);
        }
        return out;
    }
    const long long step = std::max<long long>(1, (maxDistance + budget - 1) / budget);
    for (long long d = 0; d <= maxDistance; d += step) out.push_back(double(d));
    if (out.back() != double(maxDistance)) out.push_back(double(maxDistance));
    return out;
}

std::vector<double> toeplitzByOffset(const RelativeFigureOptions& options, FamilyMember member,
                                     int length) {
    std::vector<double> byOffset(std::size_t(2 * std::max(length, 1) - 1), kNegInf);
    const std::size_t zero = std::size_t(length - 1);
    if (member == FamilyMember::Sandwich) {
        const auto curve = sandwichBiasByDistance(options.sandwich, length);
        for (int r = 0; r < length; ++r) byOffset[zero - std::size_t(r)] = curve[std::size_t(r)];
        return byOffset;
    }
    if (member == FamilyMember::Xpos || member == FamilyMember::Rope) {
        // q . k for q = k = ones: sum_i 2 zeta_i^(r/sb) cos(r theta_i) (RoPE: zeta = 1). The
        // cosines come from the phase grid; the scales by multiplying by zeta_i^(1/sb) each
        // step, restarted from pow() every 64 distances (relative error below 1e-13). O(L d)
        // cheap operations: L = 65,536 stays live.
        const XposParams& p = options.xpos;
        const std::vector<double> theta = xposThetas(p);
        const std::vector<double> zeta =
            member == FamilyMember::Xpos ? xposZeta(p) : std::vector<double>(theta.size(), 1.0);
        std::vector<double> step(zeta.size()), scale(zeta.size(), 1.0);
        for (std::size_t i = 0; i < zeta.size(); ++i)
            step[i] = std::pow(zeta[i], 1.0 / p.scaleBase);
        forEachGridPhase(theta, 0, 1, length,
                         [&](long long r, const double* cosines, const double*) {
                             if (r % 64 == 0) {
                                 for (std::size_t i = 0; i < zeta.size(); ++i)
                                     scale[i] = std::pow(zeta[i], double(r) / p.scaleBase);
                             }
                             double total = 0;
                             for (std::size_t i = 0; i < zeta.size(); ++i) {
                                 total += 2.0 * scale[i] * cosines[i];
                                 scale[i] *= step[i];
                             }
                             byOffset[zero - std::size_t(r)] = total;
                         });
        return byOffset;
    }
    const MemberCurve curve(options, member);
    for (int r = 0; r < length; ++r) byOffset[zero - std::size_t(r)] = curve.raw(r);
    return byOffset;
}

HeatmapSample fireSample(const FireParams& params, int length, int maxRows, int maxCols,
                         bool bias) {
    HeatmapSample sample;
    sample.window = clampWindow({0, length, 0, length}, length, length);
    sample.rowsPerTexel = cellsPerTexel(length, maxRows);
    sample.colsPerTexel = cellsPerTexel(length, maxCols);
    const long long rows = (length + sample.rowsPerTexel - 1) / sample.rowsPerTexel;
    const long long cols = (length + sample.colsPerTexel - 1) / sample.colsPerTexel;
    sample.rowSpan = double(rows * sample.rowsPerTexel);
    sample.colSpan = double(cols * sample.colsPerTexel);
    sample.version = nextMatrixVersion();
    const FireMlp mlp = seededFireMlp(params.mlpWidth, params.heads, params.seed);
    Matrix values(static_cast<std::size_t>(rows), static_cast<std::size_t>(cols));
    for (long long tr = 0; tr < rows; ++tr) {
        const long long i =
            std::min<long long>(length - 1, tr * sample.rowsPerTexel + sample.rowsPerTexel / 2);
        for (long long tc = 0; tc < cols; ++tc) {
            const long long j =
                std::min<long long>(length - 1, tc * sample.colsPerTexel + sample.colsPerTexel / 2);
            double v = kNegInf;
            if (j <= i) {
                const double phi = firePhi(params, i, j);
                v = bias ? fireMlpOutput(mlp, params.head, phi) : phi;
            }
            values(std::size_t(tr), std::size_t(tc)) = v;
        }
    }
    sample.values = std::make_shared<const Matrix>(std::move(values));
    return sample;
}

PanelShape relativePanelShape(RelativeTab tab) {
    switch (tab) {
        case RelativeTab::Family:
            return {2, 2, 26, 16, 12};
        case RelativeTab::Kerple:
        case RelativeTab::Fire:
            return {3, 2, 18, 13, 12};
        default:
            return {2, 2, 20, 13, 12};
    }
}

RelativeLayout relativeLayout(Box area, RelativeTab tab, const Theme& theme, int panel) {
    RelativeLayout layout;
    layout.area = area;
    layout.panels = reflowPanels(area, relativePanelShape(tab), theme, panel);
    layout.wideLast =
        layout.panels.count == 3 && layout.panels.columns == 2 && !layout.panels.oneAtATime();
    if (tab == RelativeTab::Family && layout.panels.shows(1)) {
        const Box grid = layout.panel(1);
        // 4 x 2 or 2 x 4, whichever gives the larger square cells (less their titles and ticks).
        const float room = theme.fontSize * 3.5f;
        auto side = [&](int c, int r) {
            return std::min(grid.width / float(c), grid.height / float(r)) - room;
        };
        const bool wide = side(4, 2) >= side(2, 4);
        const int cols = wide ? 4 : 2, rows = wide ? 2 : 4;
        for (int k = 0; k < kFamilyMembers; ++k) {
            layout.cells[std::size_t(k)] =
                gridCell(grid, rows, cols, k / cols, k % cols, theme.fontSize * 0.6f);
        }
    }
    return layout;
}

Box RelativeLayout::panel(int k) const {
    Box box = panels.cell(k);
    if (wideLast && k == 2) box.width = area.right() - box.x;  // the curves: the whole bottom row
    return box;
}

namespace {

std::vector<LineSeries> familySeries(const RelativeFigureOptions& o, int columns,
                                     RelativeFigureMemo* memo) {
    const int reach = o.seqLen - 1;
    std::vector<double> distances;
    std::vector<LineSeries> out;
    for (int k = 0; k < kFamilyMembers; ++k) {
        const FamilyMember member = kMembers[std::size_t(k)];
        const RelativeFigureOptions key = memberOptions(o, member);
        RelativeFigureMemo::Curve* kept = nullptr;
        if (memo) {
            for (auto& c : memo->curves) {
                if (c.member == k && c.columns == columns && c.logarithmic == o.logDistance &&
                    c.key == key)
                    kept = &c;
            }
        }
        LineSeries s;
        if (kept) {
            s = kept->series;
        } else {
            if (distances.empty()) distances = familyDistances(reach, columns, o.logDistance);
            const MemberCurve curve(o, member);
            s.name = familyMemberName(member);
            const double zero = curve.raw(0);
            for (double r : distances) {
                if (o.logDistance && r < 1) continue;
                s.x.push_back(r);
                s.y.push_back(curve.raw(r) - zero);
            }
            s.color = seriesColor(k);
            if (memo) {
                std::erase_if(memo->curves, [&](const auto& c) { return c.member == k; });
                memo->curves.push_back({key, k, columns, o.logDistance, s});
            }
        }
        cutBelow(s, o.biasFloor);
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace

RelativeFigureOptions memberOptions(const RelativeFigureOptions& o, FamilyMember member) {
    RelativeFigureOptions p;
    p.seqLen = o.seqLen;
    switch (member) {
        case FamilyMember::Alibi:
            p.alibiHeads = o.alibiHeads;
            p.alibiHead = o.alibiHead;
            break;
        case FamilyMember::T5:
            p.t5 = o.t5;
            p.t5Seed = o.t5Seed;
            break;
        case FamilyMember::KerplePower:
            p.kerplePower = o.kerplePower;
            break;
        case FamilyMember::KerpleLog:
            p.kerpleLog = o.kerpleLog;
            break;
        case FamilyMember::Sandwich:
            p.sandwich = o.sandwich;
            break;
        case FamilyMember::Fire:
            p.fire = o.fire;
            break;
        case FamilyMember::Xpos:
        case FamilyMember::Rope:
            p.xpos = o.xpos;
            break;
    }
    return p;
}

namespace {

LineSeries sampled(const std::string& name, int reach, int columns, int index,
                   const std::function<double(double)>& value) {
    LineSeries raw;
    // Eight samples per column, then the min/max envelope: RoPE's oscillation draws as a band.
    for (double r : familyDistances(reach, columns * 4, false)) {
        raw.x.push_back(r);
        raw.y.push_back(value(r));
    }
    LineSeries s;
    s.name = name;
    s.color = seriesColor(index);
    envelope(raw.x, raw.y, 0, reach, columns, s.x, s.y);
    return s;
}

std::vector<LineSeries> tabCurves(const RelativeFigureOptions& o, RelativeTab tab, Box box,
                                  RelativeFigureMemo* memo) {
    std::vector<LineSeries> series;
    if (box.width <= 0) return series;
    const int reach = std::max(1, o.seqLen - 1);
    const int columns = plotColumns(box);
    switch (tab) {
        case RelativeTab::Family:
            return familySeries(o, columns, memo);
        case RelativeTab::Xpos: {
            const XposParams& p = o.xpos;
            series.push_back(
                sampled("RoPE", reach, columns, 1, [&](double r) { return ropeOnesScore(p, r); }));
            series.push_back(
                sampled("xPos", reach, columns, 0, [&](double r) { return xposOnesScore(p, r); }));
            series.push_back(sampled("xPos envelope d mean zeta^(r/sb)", reach, columns, 2,
                                     [&](double r) { return p.headDim * xposDecay(p, r); }));
            break;
        }
        case RelativeTab::Kerple:
            series.push_back(sampled("power", reach, columns, 2,
                                     [&](double r) { return kerpleBias(o.kerplePower, r); }));
            series.push_back(sampled("log", reach, columns, 3,
                                     [&](double r) { return kerpleBias(o.kerpleLog, r); }));
            break;
        case RelativeTab::Sandwich: {
            const SandwichParams& p = o.sandwich;
            const int step = std::max(1, p.heads / 8);
            // The kernel is the same for every head; only the compression 8h/H differs.
            SandwichParams first = p;
            first.head = 0;
            const auto kernel = sandwichBiasByDistance(first, reach + 1);
            for (int h = 0; h < p.heads; h += step) {
                SandwichParams head = p;
                head.head = h;
                const double ratio = sandwichCompression(first) / sandwichCompression(head);
                LineSeries s = sampled("head " + formatValue(h + 1), reach, columns, h / step,
                                       [&](double r) { return kernel[std::size_t(r)] * ratio; });
                if (h == p.head) s.width = 3.2f;
                series.push_back(std::move(s));
            }
            break;
        }
        case RelativeTab::Fire: {
            int index = 0;
            for (int query : {reach / 4, reach / 2, reach}) {
                LineSeries s;
                s.name = "query i = " + formatValue(query);
                s.color = seriesColor(index++);
                for (double r : familyDistances(query, columns, false)) {
                    s.x.push_back(r);
                    s.y.push_back(firePhi(o.fire, query, query - (long long)r));
                }
                series.push_back(std::move(s));
            }
            break;
        }
    }
    return series;
}

}  // namespace

Result<RelativeFigureData> computeRelativeFigureData(const RelativeFigureOptions& o,
                                                     RelativeTab tab, const RelativeLayout& layout,
                                                     RelativeFigureMemo* memo) {
    if (auto s = validate(o); !s) return s.error();
    RelativeFigureData data;
    // A member's heatmap: kept from the memo when its own parameters and texel size are the
    // same (variant: FIRE's phi 0 or bias 1), else built and remembered.
    auto member = [&](FamilyMember m, Box box, int variant, auto build) {
        const RelativeFigureOptions key = memberOptions(o, m);
        const int rows = texelBudget(box.height), cols = texelBudget(box.width);
        if (memo) {
            for (const auto& kept : memo->maps) {
                if (kept.member == int(m) && kept.variant == variant && kept.rows == rows &&
                    kept.cols == cols && kept.key == key) {
                    data.maps.push_back(kept.sample);
                    data.ranges.push_back(kept.range);
                    return;
                }
            }
        }
        HeatmapSample sample = build();
        const ValueRange range = sample.values ? texelRange(*sample.values) : ValueRange{};
        if (memo) {
            std::erase_if(memo->maps, [&](const auto& kept) {
                return kept.member == int(m) && kept.variant == variant;
            });
            memo->maps.push_back({key, int(m), variant, rows, cols, sample, range});
        }
        data.maps.push_back(std::move(sample));
        data.ranges.push_back(range);
    };
    auto add = [&](FamilyMember m, Box box) {
        member(m, box, 0, [&] { return toeplitzSample(o, m, box); });
    };
    auto addFire = [&](Box box, bool bias) {
        member(FamilyMember::Fire, box, bias ? 1 : 0, [&] {
            return fireSample(o.fire, o.seqLen, texelBudget(box.height), texelBudget(box.width),
                              bias);
        });
    };
    switch (tab) {
        case RelativeTab::Family:
            for (int k = 0; k < kFamilyMembers; ++k) {
                const Box box = layout.cells[std::size_t(k)];
                if (kMembers[std::size_t(k)] == FamilyMember::Fire) {
                    addFire(box, true);
                } else {
                    add(kMembers[std::size_t(k)], box);
                }
            }
            break;
        case RelativeTab::Xpos:
            add(FamilyMember::Xpos, layout.panel(0));
            break;
        case RelativeTab::Kerple:
            add(FamilyMember::KerplePower, layout.panel(0));
            add(FamilyMember::KerpleLog, layout.panel(1));
            break;
        case RelativeTab::Sandwich:
            add(FamilyMember::Sandwich, layout.panel(0));
            break;
        case RelativeTab::Fire: {
            const Box a = layout.panel(0), b = layout.panel(1);
            addFire(a, false);
            addFire(b, true);
            break;
        }
    }
    const Box curveBox = tab == RelativeTab::Family                               ? layout.panel(0)
                         : tab == RelativeTab::Kerple || tab == RelativeTab::Fire ? layout.panel(2)
                                                                                  : layout.panel(1);
    data.curves = tabCurves(o, tab, curveBox, memo);
    return data;
}

namespace {

void drawMap(Figure& figure, Box box, const HeatmapSample& sample, ValueRange range,
             const std::string& title, const std::string& caption, const Theme& theme,
             bool centreCells = false) {
    if (box.width <= 0 || !sample.values) return;
    HeatmapSpec spec = specFor(sample, "key j", "query i");
    spec.squareCells = true;
    spec.title = title;
    spec.colormap = ColormapId::Viridis;
    spec.range = range;
    spec.colorbarLabel = caption;
    PlotFrame frame;
    drawHeatmap(figure, box, spec, theme, &frame);
    const bool reduced = sample.rowsPerTexel > 1 || sample.colsPerTexel > 1;
    drawCornerNote(
        figure, box, &frame,
        centreCells ? (reduced ? "each pixel: its centre cell" : "") : blockNote(sample, "mean of"),
        theme);
}

Marker trainingAt(const RelativeFigureOptions& o, const Theme& theme) {
    return trainingMarker(double(o.trainingLength), true, theme,
                          "training length " + formatValue(o.trainingLength));
}

void drawFamily(Figure& figure, const RelativeLayout& layout, const RelativeFigureOptions& o,
                const RelativeFigureData& data, const Theme& theme) {
    const Box curves = layout.panel(0);
    if (curves.width > 0) {
        LinePlotSpec spec;
        spec.title = "Bias against distance (each minus its value at 0; xPos and RoPE: log-score)";
        const double reach = std::max(1, o.seqLen - 1);
        spec.x = {o.logDistance ? "distance i - j (log)" : "distance i - j",
                  o.logDistance ? 1.0 : 0.0, reach, o.logDistance};
        spec.series = data.curves;
        double top = 0.5;
        for (const LineSeries& s : spec.series)
            for (double y : s.y)
                if (std::isfinite(y)) top = std::max(top, y);
        top = std::min(top, -o.biasFloor);
        spec.y = {"bias (log-score)", o.biasFloor, top + 0.05 * (top - o.biasFloor)};
        spec.autoRangeY = false;
        if (o.trainingLength <= reach) spec.markers.push_back(trainingAt(o, theme));
        drawLinePlot(figure, curves, spec, theme);
    }
    for (int k = 0; k < kFamilyMembers && k < int(data.maps.size()); ++k) {
        const Box cell = layout.cells[std::size_t(k)];
        if (cell.width <= 0) continue;
        HeatmapSpec spec = specFor(data.maps[std::size_t(k)], "", "");
        spec.squareCells = true;
        spec.title = familyMemberName(kMembers[std::size_t(k)]);
        if (kMembers[std::size_t(k)] == FamilyMember::Xpos) spec.title = "xPos q.k";
        if (kMembers[std::size_t(k)] == FamilyMember::Rope) spec.title = "RoPE q.k";
        spec.range = data.ranges[std::size_t(k)];
        spec.showColorbar = false;
        drawHeatmap(figure, cell, spec, theme);
    }
}

void drawCurves(Figure& figure, Box box, std::string title, AxisSpec y,
                std::vector<LineSeries> series, const RelativeFigureOptions& o,
                const Theme& theme) {
    if (box.width <= 0) return;
    LinePlotSpec spec;
    spec.title = std::move(title);
    spec.x = integerAxis("distance i - j", 0, double(std::max(1, o.seqLen - 1)));
    spec.y = std::move(y);
    spec.series = std::move(series);
    if (o.trainingLength < o.seqLen) spec.markers.push_back(trainingAt(o, theme));
    drawLinePlot(figure, box, spec, theme);
}

}  // namespace

void drawRelativeFigure(Figure& figure, const RelativeLayout& layout,
                        const RelativeFigureOptions& o, RelativeTab tab,
                        const RelativeFigureData& data, const Theme& theme) {
    auto map = [&](std::size_t k) -> const HeatmapSample& { return data.maps[k]; };
    switch (tab) {
        case RelativeTab::Family:
            drawFamily(figure, layout, o, data, theme);
            break;
        case RelativeTab::Xpos:
            if (data.maps.size() < 1) return;
            drawMap(figure, layout.panel(0), map(0), data.ranges[0],
                    "xPos q.k for q = k = ones, " + tabTitleSuffix(o), "score", theme);
            drawCurves(figure, layout.panel(1),
                       "Score against distance: the decay xPos adds to RoPE",
                       {"q.k (q = k = ones)", 0, 1}, data.curves, o, theme);
            break;
        case RelativeTab::Kerple: {
            if (data.maps.size() < 2) return;
            auto title = [](const char* kind, const KerpleParams& k) {
                const KerpleParams e = kerpleEffective(k);
                std::string t = std::string(kind) + " r1 = " + formatValue(e.r1) +
                                ", r2 = " + formatValue(e.r2);
                if (kerpleClamped(k)) t += " (clamped)";
                return t;
            };
            drawMap(figure, layout.panel(0), map(0), data.ranges[0],
                    title("Power -r1 |i-j|^r2,", o.kerplePower), "bias", theme);
            drawMap(figure, layout.panel(1), map(1), data.ranges[1],
                    title("Log -r1 log(1 + r2 |i-j|),", o.kerpleLog), "bias", theme);
            drawCurves(figure, layout.panel(2), "KERPLE kernels against distance", {"bias", 0, 1},
                       data.curves, o, theme);
            break;
        }
        case RelativeTab::Sandwich: {
            if (data.maps.size() < 1) return;
            const SandwichParams& p = o.sandwich;
            drawMap(figure, layout.panel(0), map(0), data.ranges[0],
                    "Sandwich head " + formatValue(p.head + 1) + " of " + formatValue(p.heads) +
                        " (d = " + formatValue(p.headDim) + ")",
                    "bias", theme);
            drawCurves(figure, layout.panel(1), "Sandwich bias against distance, per head",
                       {"bias", 0, 1}, data.curves, o, theme);
            break;
        }
        case RelativeTab::Fire: {
            if (data.maps.size() < 2) return;
            const FireParams& p = o.fire;
            drawMap(figure, layout.panel(0), map(0), data.ranges[0],
                    "phi = psi(i-j) / psi(max(i, L)), c = " + formatValue(p.c) +
                        ", L = " + formatValue(p.threshold),
                    "phi", theme, true);
            drawMap(figure, layout.panel(1), map(1), data.ranges[1],
                    "MLP(phi), head " + formatValue(p.head + 1) + ", seed " +
                        formatValue(double(p.seed)),
                    "bias", theme, true);
            drawCurves(figure, layout.panel(2), "phi against distance: every query reaches ~1",
                       {"phi", 0, 1}, data.curves, o, theme);
            break;
        }
    }
}

Status drawRelativeFigure(Figure& figure, Box area, const RelativeFigureOptions& options,
                          RelativeTab tab, const Theme& theme, int panel,
                          RelativeFigureMemo* memo) {
    if (auto s = validate(options); !s) return s;
    const RelativeLayout layout = relativeLayout(area, tab, theme, panel);
    auto data = computeRelativeFigureData(options, tab, layout, memo);
    if (!data) return data.error();
    drawRelativeFigure(figure, layout, options, tab, *data, theme);
    return success();
}

}  // namespace poslab
