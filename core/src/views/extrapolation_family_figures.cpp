// extrapolation_family_figures.cpp — the Extrapolation view's relative-family set and its table
// (extrapolation_family_figures.hpp): one list of six panels that both the figure and the CSV
// export read.
#include "poslab/views/extrapolation_family_figures.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "poslab/base/format.hpp"
#include "poslab/encodings/deberta.hpp"
#include "poslab/encodings/fire.hpp"
#include "poslab/encodings/kerple.hpp"
#include "poslab/encodings/sandwich.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/views/relative_figures.hpp"

namespace poslab {

namespace {

// The family's parameters for this view: the Relative view's defaults, RoPE's width and base for
// xPos and the RoPE bound, the view's ALiBi heads and T5 buckets, L = the evaluation length.
RelativeFigureOptions familyOptions(const ExtrapolationOptions& o) {
    RelativeFigureOptions r;
    r.seqLen = o.evaluationLength;
    r.trainingLength = o.trainingLength;
    r.xpos.headDim = o.headDim;
    r.xpos.base = o.ropeBase;
    r.alibiHeads = o.alibiHeads;
    r.t5.numBuckets = o.t5Buckets;
    r.t5.maxDistance = o.t5MaxDistance;
    return r;
}

// `value` at about eight distances per pixel column of 0..reach, reduced to the column envelope.
LineSeries distanceCurve(const std::string& name, int reach, Box plot, int colour,
                         const std::function<double(double)>& value) {
    const int columns = std::max(16, int(plot.width));
    LineSeries raw;
    for (double r : familyDistances(reach, columns * 4, false)) {
        raw.x.push_back(r);
        raw.y.push_back(value(r));
    }
    LineSeries series;
    series.name = name;
    series.color = seriesColor(colour);
    envelope(raw.x, raw.y, 0, reach, columns, series.x, series.y);
    return series;
}

// One panel of the Relative family tab: its curves against distance and its two or three
// sentences. The figure and the CSV export both read this table.
struct FamilyCurve {
    std::string name;
    int colour = 0;
    std::function<double(double)> value;  // at distance r
};
enum class FamilyPanelMark { None, One, MaxPosition, CutAtFloor };  // beside the training length
struct FamilyPanel {
    std::string title, yLabel, paragraph;
    bool fixedY = false;
    double yLow = 0, yHigh = 1;  // with fixedY
    FamilyPanelMark mark = FamilyPanelMark::None;
    double markValue = 0;  // MaxPosition: where
    std::vector<FamilyCurve> curves;
};

std::vector<FamilyPanel> familyPanels(const ExtrapolationOptions& o,
                                      const RelativeFigureOptions& family) {
    const int train = o.trainingLength, eval = o.evaluationLength;
    std::vector<FamilyPanel> panels(6);
    // 1. KERPLE: both kernels, defined at every distance.
    FamilyPanel& kerple = panels[0];
    kerple.title = "KERPLE: a kernel at every distance";
    kerple.yLabel = "logit bias";
    kerple.paragraph =
        "Like ALiBi, a rule of the distance alone, defined at any length. The logarithmic "
        "kernel's penalty grows only as log r, so far keys stay within reach; the authors' code "
        "clamps r2 to [0.01, 2] and r1 to at least 0.01.";
    const KerpleParams kernels[] = {family.kerplePower, family.kerpleLog};
    for (int k = 0; k < 2; ++k) {
        const KerpleParams p = kernels[k];
        kerple.curves.push_back({(k == 0 ? "power −r1·r^r2, r1 " : "log −r1·log(1 + r2·r), r1 ") +
                                     formatValue(p.r1, 3) + ", r2 " + formatValue(p.r2, 3),
                                 k + 2, [p](double r) { return kerpleBias(p, r); }});
    }
    // 2. Sandwich: bounded, so long distances give values already seen.
    FamilyPanel& sandwich = panels[1];
    sandwich.title = "Sandwich: bounded, flattens";
    sandwich.yLabel = "logit bias";
    sandwich.paragraph =
        "The inner product of two sinusoidal embeddings minus d/2, over a per-head compression: a "
        "sum of d/2 cosines, so it stays within [−d, 0] / compression at any distance. Past "
        "training it repeats values it has already produced.";
    const int heads = family.sandwich.heads;
    const int shownHeads[] = {0, heads / 2, heads - 1};
    for (int k = 0; k < 3; ++k) {
        SandwichParams p = family.sandwich;
        p.head = shownHeads[k];
        if (k > 0 && p.head == shownHeads[k - 1]) continue;
        sandwich.curves.push_back({"head " + std::to_string(p.head) + ", compression " +
                                       formatValue(sandwichCompression(p), 3),
                                   k, [p](double r) { return sandwichBias(p, r); }});
    }
    // 3. FIRE: the normaliser max(i, L) keeps phi in [0, 1] for every query.
    FamilyPanel& fire = panels[2];
    fire.title = "FIRE: progressive interpolation";
    fire.yLabel = "φ (input of the MLP)";
    fire.fixedY = true;
    fire.yLow = 0;
    fire.yHigh = 1.6;
    fire.mark = FamilyPanelMark::One;
    fire.paragraph =
        "φ = ψ(i − j) / ψ(max(i, L)) with ψ(x) = log(c·x + 1): every query divides by its own "
        "position, so the MLP's input stays in [0, 1] at any length. Without the division, φ "
        "passes 1 past training: inputs the MLP never saw.";
    const FireParams fireParams = family.fire;
    const long long queries[] = {train - 1, eval - 1};
    for (int k = 0; k < 2; ++k) {
        const long long i = queries[k];
        fire.curves.push_back({"query at " + std::to_string(i) + ": ψ(r) / ψ(max(i, L))", k,
                               [fireParams, i](double r) {
                                   return r <= double(i) ? firePhi(fireParams, i, i - (long long)r)
                                                         : NAN;
                               }});
    }
    const double fixed =
        firePsi(fireParams.c, std::max(double(train - 1), fireParams.threshold)) + fireParams.eps;
    fire.curves.push_back({"fixed normaliser ψ(max(T, L))", 3, [fireParams, fixed](double r) {
                               return firePsi(fireParams.c, r) / fixed;
                           }});
    // 4. xPos: a decay that keeps decaying, beside RoPE's bound.
    FamilyPanel& xpos = panels[3];
    xpos.title = "xPos: the decay continues";
    xpos.yLabel = "log of the score's scale";
    xpos.paragraph =
        "xPos scales queries by ζ_i^(n/512) and keys by ζ_i^(−m/512) with ζ_i < 1: the score "
        "shrinks by ζ_i^((n − m)/512), an exponential decay that goes on falling past training, "
        "so far keys fade as under ALiBi.";
    xpos.curves.push_back({"xPos: log mean ζ_i^(r/512)", 6, [family](double r) {
                               return familyValue(family, FamilyMember::Xpos, r);
                           }});
    xpos.curves.push_back({"RoPE: log of RoFormer's bound", 7, [family](double r) {
                               return familyValue(family, FamilyMember::Rope, r);
                           }});
    // 5. DeBERTa: log buckets up to max_position, then the gather clamps.
    FamilyPanel& deberta = panels[4];
    const DebertaParams p;  // 256 buckets, max_position 512 (DeBERTa-v3)
    const int span = debertaAttSpan(p);
    deberta.title = "DeBERTa buckets: clamped";
    deberta.yLabel = "relative position (bucket)";
    deberta.mark = FamilyPanelMark::MaxPosition;
    deberta.markValue = p.maxRelativePositions;
    deberta.paragraph =
        "The identity up to bucket_size / 2, logarithmic up to max_position, where the bucket "
        "reaches k − 1; the gather clamps to the 2k rows of Kr, so every longer distance reads "
        "the last row. Like T5, any length maps onto rows seen in training.";
    deberta.curves.push_back({"make_log_bucket_position(r, 256, 512)", 0, [p](double r) {
                                  return double(debertaLogBucket((long long)r, p.positionBuckets,
                                                                 p.maxRelativePositions));
                              }});
    deberta.curves.push_back(
        {"row of Kr that c2p reads", 3, [p, span](double r) {
             const long long bucket =
                 debertaLogBucket((long long)r, p.positionBuckets, p.maxRelativePositions);
             return double(std::clamp<long long>(bucket + span, 0, 2LL * span - 1) - span);
         }});
    // 6. The family on shared axes.
    FamilyPanel& all = panels[5];
    all.title = "The family past training";
    all.yLabel = "value − value at r = 0";
    all.fixedY = true;
    all.yLow = family.biasFloor;
    all.yHigh = 2;
    all.mark = FamilyPanelMark::CutAtFloor;
    all.paragraph =
        "Each member minus its value at distance 0 (FIRE: the last query), cut at −20. Those "
        "that keep falling (ALiBi, KERPLE power, xPos) narrow attention to a window; the bounded "
        "ones (T5, Sandwich, FIRE) fold long distances onto values seen in training.";
    for (int k = 0; k < kFamilyMembers; ++k) {
        const auto m = FamilyMember(k);
        all.curves.push_back({std::string(familyMemberName(m)), k,
                              [family, m](double r) { return familyValue(family, m, r); }});
    }
    return panels;
}

}  // namespace

Status drawRelativeExtrapolation(Figure& figure, const PanelGrid& grid,
                                 const ExtrapolationOptions& o, const Theme& theme) {
    const int train = o.trainingLength, eval = o.evaluationLength;
    const float textFraction = 0.3f;
    Theme small = theme;
    small.titleSize = theme.fontSize * 1.05f;
    const float textSize = atLeastMinText(theme.fontSize * 0.92f, theme);
    const RelativeFigureOptions family = familyOptions(o);
    if (auto s = validate(family); !s) return s;
    const std::vector<FamilyPanel> panels = familyPanels(o, family);
    for (int index = 0; index < int(panels.size()); ++index) {
        if (!grid.shows(index)) continue;
        const FamilyPanel& panel = panels[std::size_t(index)];
        const PlotAndText cell = splitCell(grid.cell(index), textFraction);
        LinePlotSpec spec;
        spec.title = panel.title;
        spec.x = AxisSpec{"distance i − j", 0, double(eval)};
        spec.y.label = panel.yLabel;
        if (panel.fixedY) {
            spec.y.low = panel.yLow;
            spec.y.high = panel.yHigh;
            spec.autoRangeY = false;
        }
        for (const FamilyCurve& curve : panel.curves) {
            LineSeries series =
                distanceCurve(curve.name, eval, cell.plot, curve.colour, curve.value);
            if (panel.mark == FamilyPanelMark::CutAtFloor) {
                for (double& y : series.y)
                    if (y < family.biasFloor) y = NAN;  // cut below the floor, not clamped onto it
            }
            spec.series.push_back(std::move(series));
        }
        spec.markers.push_back(trainingMarker(train, true, theme));
        if (panel.mark == FamilyPanelMark::One) {
            Marker one;
            one.vertical = false;
            one.value = 1;
            one.label = "1: the largest φ seen in training";
            one.color = theme.mutedText;
            spec.markers.insert(spec.markers.begin(), one);
        } else if (panel.mark == FamilyPanelMark::MaxPosition) {
            Marker far;
            far.value = panel.markValue;
            far.label = "max_position";
            far.color = theme.mutedText;
            spec.markers.push_back(far);
        }
        drawLinePlot(figure, cell.plot, spec, small);
        drawParagraph(figure, cell.text, panel.paragraph, theme, textSize);
    }
    return success();
}

Result<Matrix> relativeExtrapolationTable(const ExtrapolationOptions& options,
                                          std::vector<std::string>* columnNames) {
    if (auto s = validate(options); !s) return s.error();
    const RelativeFigureOptions family = familyOptions(options);
    if (auto s = validate(family); !s) return s.error();
    const std::vector<FamilyPanel> panels = familyPanels(options, family);
    const std::vector<double> distances =
        familyDistances(options.evaluationLength, kRelativeExtrapolationRows, false);
    std::size_t columns = 1;
    for (const FamilyPanel& panel : panels) columns += panel.curves.size();
    Matrix table(distances.size(), columns);
    if (columnNames) *columnNames = {"distance"};
    for (std::size_t i = 0; i < distances.size(); ++i) table(i, 0) = distances[i];
    std::size_t column = 1;
    for (const FamilyPanel& panel : panels) {
        for (const FamilyCurve& curve : panel.curves) {
            if (columnNames) columnNames->push_back(panel.title + ": " + curve.name);
            for (std::size_t i = 0; i < distances.size(); ++i)
                table(i, column) = curve.value(distances[i]);
            ++column;
        }
    }
    return table;
}

}  // namespace poslab
