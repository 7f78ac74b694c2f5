#include "poslab/views/extrapolation_figures.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <string>

#include "poslab/base/limits.hpp"
#include "poslab/base/random.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/encodings/alibi.hpp"
#include "poslab/encodings/deberta.hpp"
#include "poslab/encodings/fire.hpp"
#include "poslab/encodings/kerple.hpp"
#include "poslab/encodings/learned.hpp"
#include "poslab/encodings/rope.hpp"
#include "poslab/encodings/rope_scaling.hpp"
#include "poslab/encodings/sandwich.hpp"
#include "poslab/encodings/sinusoidal.hpp"
#include "poslab/encodings/t5_bias.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/views/relative_figures.hpp"
#include "poslab/views/sinusoidal_figures.hpp"
#include "poslab/views/t5_figures.hpp"

namespace poslab {

namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

}  // namespace

std::string alibiExtrapolationCaption(const std::vector<double>& slopes, int trainingLength) {
    int forgetting = 0;
    double gentlest = slopes.empty() ? 0 : slopes.front();
    for (double slope : slopes) {
        if (-slope * trainingLength <= kAlibiForgottenBias) ++forgetting;
        gentlest = std::min(gentlest, slope);
    }
    const std::string heads = std::to_string(slopes.size());
    const std::string length = std::to_string(trainingLength);
    std::string text =
        "No position vectors: each head adds −m·distance to the logit, a rule defined at any "
        "distance. ";
    if (forgetting == int(slopes.size())) {
        return text + "Every head pushes keys beyond " + length + " below " +
               formatValue(kAlibiForgottenBias) +
               ", so softmax ignores them: a longer text looks like a familiar window.";
    }
    text +=
        std::to_string(forgetting) + " of " + heads + " heads push keys beyond " + length +
        " below " + formatValue(kAlibiForgottenBias) +
        ", so a longer text looks familiar to them; the gentlest (m = " + formatValue(gentlest, 3) +
        ", " + formatValue(-gentlest * trainingLength, 3) + " at " + length +
        ") still attends past the training length.";
    return text;
}

std::string_view extrapolationSetName(ExtrapolationSet set) {
    return enumName(kExtrapolationSetNames, set);
}

Result<ExtrapolationSet> parseExtrapolationSet(std::string_view name) {
    return parseEnum(kExtrapolationSetNames, name, "set");
}

Status validate(const ExtrapolationOptions& o) {
    if (auto s = requireIntInRange("training_length", o.trainingLength, 2, 65536); !s) return s;
    if (auto s = requireIntInRange("evaluation_length", o.evaluationLength, o.trainingLength + 1,
                                   262144);
        !s)
        return s;
    if (auto s = requireIntInRange("d_model", o.dModel, 2, 1024); !s) return s;
    if (auto s = requireIntInRange("head_dim", o.headDim, 4, 1024); !s) return s;
    if (o.headDim % 2 != 0)
        return Error{"head_dim must be even (got " + std::to_string(o.headDim) + ")"};
    if (auto s = requireInRange("base", o.ropeBase, 1.0, 1e12, false); !s) return s;
    if (auto s = requireIntInRange("alibi_heads", o.alibiHeads, 1, kMaxAlibiHeads); !s) return s;
    T5Params t5;
    t5.numBuckets = o.t5Buckets;
    t5.maxDistance = o.t5MaxDistance;
    t5.bidirectional = false;
    if (o.set != ExtrapolationSet::Textbook && o.set != ExtrapolationSet::RelativeFamily)
        return Error{"set must be " + enumNameList(kExtrapolationSetNames) + " (got " +
                     std::to_string(int(o.set)) + ")"};
    return validate(t5);
}

namespace {

// The learned table (rows 0..seqLen-1) shown over `positions` rows, the rows past it masked, as
// block means at most one per pixel of `area`, as matrixSpec would draw the extended matrix. The
// rows are drawn from the table's sampler one at a time into the texel sums: no seqLen x d table
// (512 MB at 65536 x 1024) and no positions x d extension (2 GB) is ever held.
HeatmapSpec learnedPastTheTable(const LearnedParams& params, int positions, Box area) {
    const long long rpt = cellsPerTexel(positions, texelBudget(area.height));
    const long long cpt = cellsPerTexel(params.dModel, texelBudget(area.width));
    const std::size_t texelRows = std::size_t((positions + rpt - 1) / rpt);
    const std::size_t texelCols = std::size_t((params.dModel + cpt - 1) / cpt);
    Matrix sums(texelRows, texelCols);
    NormalSampler sampler(params.seed);  // learnedTable's draws, row by row
    for (int r = 0; r < params.seqLen; ++r) {
        double* out = sums.row(std::size_t(r / rpt));
        for (int c = 0; c < params.dModel; ++c) out[c / cpt] += params.std * sampler.next();
    }
    for (std::size_t u = 0; u < texelRows; ++u) {
        const long long first = (long long)u * rpt;
        const long long rows = std::min<long long>(rpt, positions - first);
        // A texel with any row past the table is masked, as the mean over a -inf cell would be.
        const bool masked = first + rows > params.seqLen;
        for (std::size_t v = 0; v < texelCols; ++v) {
            const long long cols = std::min<long long>(cpt, params.dModel - (long long)v * cpt);
            sums(u, v) = masked ? -INFINITY : sums(u, v) / double(rows * cols);
        }
    }
    HeatmapSpec spec;
    spec.title = "Learned: undefined";
    spec.x = {"", 0, double(params.dModel), false, true};
    spec.y = {"", 0, double(positions), false, true};
    spec.values = share(std::move(sums));
    if (rpt > 1 || cpt > 1) {
        spec.valuesRowSpan = double((long long)texelRows * rpt);
        spec.valuesColSpan = double((long long)texelCols * cpt);
    }
    spec.version = nextMatrixVersion();
    spec.colormap = ColormapId::BlueWhiteRed;
    spec.range = {-0.06, 0.06};
    return spec;
}

}  // namespace

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
    kerple.yLabel = "bias added to the logit";
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
    sandwich.yLabel = "bias added to the logit";
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

Status drawRelativeExtrapolation(Figure& figure, const PanelGrid& grid,
                                 const ExtrapolationOptions& o, const Theme& theme) {
    const int train = o.trainingLength, eval = o.evaluationLength;
    const float textFraction = 0.3f;
    Theme small = theme;
    small.titleSize = theme.fontSize * 1.05f;
    const float textSize = theme.fontSize * 0.92f;
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

}  // namespace

Status drawExtrapolation(Figure& figure, Box area, const ExtrapolationOptions& o,
                         const Theme& theme, int panel) {
    if (auto s = validate(o); !s) return s;
    const int train = o.trainingLength, eval = o.evaluationLength;
    // Fewer columns, or one panel at a time, when the paragraphs would not fit (panel_grid.hpp).
    const PanelGrid grid = reflowOrFocus(area, kExtrapolationPanels, theme, panel);
    figure.viewPanels = kExtrapolationPanels.count;  // --panel N: the GUI's panel N
    if (o.set == ExtrapolationSet::RelativeFamily)
        return drawRelativeExtrapolation(figure, grid, o, theme);
    const float textFraction = 0.3f;
    Theme small = theme;
    small.titleSize = theme.fontSize * 1.05f;
    const float textSize = theme.fontSize * 0.92f;

    // 1. Sinusoidal: the formula continues.
    if (grid.shows(0)) {
        const PlotAndText cell = splitCell(grid.cell(0), textFraction);
        SinusoidalParams p{o.dModel, eval, 10000, SinusoidalLayout::Interleaved};
        SinusoidalHeatmapOptions options;
        options.trainingLength = train;
        HeatmapSample sample = sinusoidalSampleForArea(p, {}, cell.plot);
        HeatmapSpec spec;
        spec.title = "Sinusoidal: continues";
        spec.x = {"dimension", 0, double(p.dModel), false, true};
        spec.y = {"position", 0, double(eval), false, true};
        spec.values = sample.values;
        spec.version = sample.version;
        spec.valuesRowSpan = sample.rowSpan;
        spec.valuesColSpan = sample.colSpan;
        spec.colormap = ColormapId::BlueWhiteRed;
        spec.range = {-1, 1};
        spec.markers.push_back(trainingMarker(train, false, theme, "trained"));
        drawHeatmap(figure, cell.plot, spec, small);
        drawParagraph(
            figure, cell.text,
            "The formula gives a vector for every position, so rows past training exist and "
            "stay bounded. But the model never saw them: later layers may misread the new "
            "combinations, and in practice quality drops.",
            theme, textSize);
    }
    // 2. Learned: no rows exist.
    if (grid.shows(1)) {
        const PlotAndText cell = splitCell(grid.cell(1), textFraction);
        LearnedParams p;
        p.seqLen = train;
        p.dModel = o.dModel;
        HeatmapSpec spec = learnedPastTheTable(p, eval, cell.plot);
        spec.x.label = "dimension";
        spec.y.label = "position";
        spec.showMaskedLegend = true;
        spec.markers.push_back(trainingMarker(train, false, theme, "table ends"));
        drawHeatmap(figure, cell.plot, spec, small);
        drawParagraph(figure, cell.text,
                      "One trained vector per position (an embedding table): rows past the table "
                      "simply do not exist. BERT and GPT-2 cannot read a longer sequence at all "
                      "without new rows.",
                      theme, textSize);
    }
    // 3. RoPE: angles per pair, seen in training or new.
    RopeParams rope;
    rope.headDim = o.headDim;
    rope.base = o.ropeBase;
    rope.trainingLength = train;
    rope.seqLen = eval;
    const RopeFrequencies plain = unscaledFrequencies(rope).value();
    const int pairs = int(plain.inverse.size());
    if (grid.shows(2)) {
        const PlotAndText cell = splitCell(grid.cell(2), textFraction);
        LinePlotSpec spec;
        spec.title = "RoPE: slow pairs reach new angles";
        spec.x = integerAxis("pair $i$ (fast → slow)", 0, double(pairs - 1));
        spec.y = {"largest angle (rad)", 1e-3, 1e6, true};
        spec.autoRangeY = false;
        LineSeries seen, now;
        seen.name = "seen in training (L = " + std::to_string(train) + ")";
        now.name = "used at L = " + std::to_string(eval);
        for (int i = 0; i < pairs; ++i) {
            seen.x.push_back(i), seen.y.push_back(plain.inverse[std::size_t(i)] * (train - 1));
            now.x.push_back(i), now.y.push_back(plain.inverse[std::size_t(i)] * (eval - 1));
        }
        seen.color = theme.text;
        now.color = theme.accent;
        spec.series = {seen, now};
        Marker turn;
        turn.vertical = false;
        turn.value = kTwoPi;
        turn.label = "2π: one full turn";
        turn.color = theme.mutedText;
        spec.markers = {turn};
        drawLinePlot(figure, cell.plot, spec, small);
        drawParagraph(
            figure, cell.text,
            "Each pair turns by $θ_i$ per position. Fast pairs complete many turns in training, "
            "so every angle is familiar; pairs below 2π never closed their circle, and past "
            "training they reach angles the model has never seen.",
            theme, textSize);
    }
    // 4. RoPE with each scaling, factor eval / train.
    if (grid.shows(3)) {
        const PlotAndText cell = splitCell(grid.cell(3), textFraction);
        const double factor = double(eval) / train;
        LinePlotSpec spec;
        spec.title = "RoPE scalings at factor " + formatValue(factor, 3);
        spec.x = integerAxis("pair $i$ (fast → slow)", 0, double(pairs - 1));
        spec.y = {"angle at L ÷ angle seen", 0.05, 20, true};
        spec.autoRangeY = false;
        const RopeScaling types[] = {RopeScaling::None, RopeScaling::Linear, RopeScaling::Ntk,
                                     RopeScaling::Yarn, RopeScaling::Llama3};
        int index = 0;
        for (RopeScaling type : types) {
            RopeParams scaled = rope;
            scaled.scaling.type = type;
            scaled.scaling.factor = type == RopeScaling::None ? 1 : factor;
            scaled.scaling.originalMaxPositions = train;
            auto freqs = ropeFrequencies(scaled);
            LineSeries series;
            series.name = std::string(scalingName(type));
            series.color = seriesColor(index++, theme);  // llama3: not yellow on paper
            if (!freqs) continue;
            for (int i = 0; i < pairs; ++i) {
                const double seenAngle = plain.inverse[std::size_t(i)] * (train - 1);
                // Only pairs that never closed a turn are at risk; others get a ratio for
                // reference.
                series.x.push_back(i);
                series.y.push_back(freqs->inverse[std::size_t(i)] * (eval - 1) / seenAngle);
            }
            spec.series.push_back(std::move(series));
        }
        Marker one;
        one.vertical = false;
        one.value = 1;
        one.label = "1: no new angles";
        one.color = theme.mutedText;
        spec.markers = {one};
        // Pairs that complete a turn in training are on the left of this line.
        int firstIncomplete = pairs;
        for (int i = 0; i < pairs; ++i) {
            if (plain.inverse[std::size_t(i)] * (train - 1) < kTwoPi) {
                firstIncomplete = i;
                break;
            }
        }
        if (firstIncomplete < pairs) {
            Marker incomplete;
            incomplete.value = firstIncomplete;
            incomplete.label = "< one turn in training";
            incomplete.color = theme.accent;
            incomplete.shadeBeyond = true;
            spec.markers.push_back(incomplete);
        }
        drawLinePlot(figure, cell.plot, spec, small);
        drawParagraph(
            figure, cell.text,
            "Above 1 in the shaded pairs means unseen angles. Linear (position interpolation) "
            "divides every frequency by s: nothing new, but neighbours get squeezed. NTK, YaRN "
            "and Llama 3 keep the fast pairs and stretch only the slow ones.",
            theme, textSize);
    }
    // 5. ALiBi: a linear penalty, defined at every distance.
    if (grid.shows(4)) {
        const PlotAndText cell = splitCell(grid.cell(4), textFraction);
        const std::vector<double> slopes = alibiSlopes(o.alibiHeads);
        LinePlotSpec spec;
        spec.title = "ALiBi: keeps working";
        spec.x = integerAxis("distance i − j", 0, double(eval));
        spec.y = {"bias added to the logit", -1, 0};
        const int shown = std::min<int>(int(slopes.size()), 4);
        for (int h = 0; h < shown; ++h) {
            const std::size_t head = std::size_t(h * std::max<int>(1, int(slopes.size()) / shown));
            LineSeries series;
            series.name = "head " + std::to_string(head) + ", m = " + formatValue(slopes[head], 3);
            series.x = {0, double(eval)};
            series.y = {0, -slopes[head] * eval};
            spec.series.push_back(series);
        }
        spec.y.low = -slopes.front() * eval * 0.25;  // the steep heads leave the plot: on purpose
        spec.y.high = 0.02 * slopes.front() * eval;
        spec.autoRangeY = false;
        spec.markers.push_back(trainingMarker(train, true, theme));
        drawLinePlot(figure, cell.plot, spec, small);
        drawParagraph(figure, cell.text, alibiExtrapolationCaption(slopes, train), theme, textSize);
    }
    // 6. T5: everything far shares the last bucket.
    if (grid.shows(5)) {
        const PlotAndText cell = splitCell(grid.cell(5), textFraction);
        LinePlotSpec spec;
        spec.title = "T5 buckets: keep working";
        spec.x = integerAxis("distance i − j", 0, double(eval));
        spec.y = {"bucket", 0, double(o.t5Buckets)};
        spec.autoRangeY = false;
        spec.y.high = o.t5Buckets;
        spec.y.low = -1;
        LineSeries buckets;
        buckets.name = std::to_string(o.t5Buckets) + " buckets, max distance " +
                       std::to_string(o.t5MaxDistance);
        // Exact steps from the bucket ranges (sampling every few distances moved them).
        t5StepsByDistance(o.t5Buckets, o.t5MaxDistance, eval, buckets.x, buckets.y);
        spec.series = {buckets};
        spec.markers.push_back(trainingMarker(train, true, theme));
        Marker far;
        far.value = o.t5MaxDistance;
        far.label = "max distance";
        far.color = theme.mutedText;
        spec.markers.push_back(far);
        drawLinePlot(figure, cell.plot, spec, small);
        drawParagraph(figure, cell.text,
                      "A learned bias per bucket of distance, with logarithmic buckets and every "
                      "distance beyond max_distance in the last one. Any length maps onto buckets "
                      "seen in training — at the price of not telling 200 from 2000 apart.",
                      theme, textSize);
    }
    return success();
}

namespace {

float extrapolationTitleHeight(const Theme& theme) {
    return titleBandHeight(theme);
}

}  // namespace

PanelGrid extrapolationPanels(float width, float height, const Theme& theme, int panel) {
    const float titleHeight = extrapolationTitleHeight(theme);
    return reflowOrFocus({0, titleHeight, width, height - titleHeight}, kExtrapolationPanels, theme,
                         panel);
}

Result<Figure> extrapolationFigure(const ExtrapolationOptions& options, float width, float height,
                                   const Theme& theme, int panel) {
    if (auto s = validate(options); !s) return s.error();
    Figure figure = emptyFigure(width, height, theme);
    const float titleHeight = extrapolationTitleHeight(theme);
    drawTitle(figure, {0, 0, width, titleHeight},
              "Past the training length (" + std::to_string(options.trainingLength) + " → " +
                  std::to_string(options.evaluationLength) + " positions): what each encoding does",
              theme);
    if (auto s = drawExtrapolation(figure, {0, titleHeight, width, height - titleHeight}, options,
                                   theme, panel);
        !s) {
        return s.error();
    }
    return figure;
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
