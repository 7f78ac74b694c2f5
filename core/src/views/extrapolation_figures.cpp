#include "poslab/views/extrapolation_figures.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <string>
#include <variant>
#include <vector>

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
#include "poslab/figure/text_boxes.hpp"
#include "poslab/views/extrapolation_family_figures.hpp"
#include "poslab/views/print_room.hpp"
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
               withMinusSign(formatValue(kAlibiForgottenBias)) +
               ", so softmax ignores them: a longer text looks like a familiar window.";
    }
    text +=
        std::to_string(forgetting) + " of " + heads + " heads push keys beyond " + length +
        " below " + withMinusSign(formatValue(kAlibiForgottenBias)) +
        ", so a longer text looks familiar to them; the gentlest (m = " + formatValue(gentlest, 3) +
        ", " + withMinusSign(formatValue(-gentlest * trainingLength, 3)) + " at " + length +
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
    // learnedTable's values (std * NormalSampler(seed).next(), the same bits) a few hundred rows
    // at a time, their transforms on every core; each texel sums its values in row order, then
    // column order, as the table's rows would be read.
    const std::size_t d = std::size_t(params.dModel);
    std::vector<std::size_t> texelOf(d);
    for (std::size_t c = 0; c < d; ++c) texelOf[c] = c / std::size_t(cpt);
    const std::size_t piece = std::max<std::size_t>(1, (std::size_t(1) << 18) / d);  // rows
    std::vector<double> values(piece * d);
    ScaledNormalStream stream(params.seed, params.std);
    for (std::size_t r0 = 0; r0 < std::size_t(params.seqLen); r0 += piece) {
        const std::size_t count = std::min(piece, std::size_t(params.seqLen) - r0);
        stream.fill(values.data(), count * d);
        for (std::size_t r = r0; r < r0 + count; ++r) {
            double* out = sums.row(r / std::size_t(rpt));
            const double* in = values.data() + (r - r0) * d;
            for (std::size_t c = 0; c < d; ++c) out[texelOf[c]] += in[c];
        }
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

// The width of the curve drawn along the line at 1 (linear's, wide under the others).
constexpr float kAlongLineWidth = 4.5f;

// The label of the horizontal line at y = value, beside it at the left or the right, above or
// below: the first place inside the plot a third of a line clear of every curve (the plot's
// own placement put "1: no new angles" where it touched NTK's curve at 1440x900 F5, #28),
// of the texts drawn since `start` and of the vertical lines. False when none is.
bool labelLineClearOfCurves(Figure& figure, const PlotFrame& frame, Figure::Checkpoint start,
                            const std::vector<Marker>& markers, double value,
                            const std::string& text, Rgba color, const Theme& theme) {
    const Box& p = frame.plot;
    const float size = atLeastMinText(theme.fontSize * 0.9f, theme);
    const float lineY = frame.toPixel(frame.x.low, value).y;
    const float margin = theme.fontSize / 3;
    // Off the line by half the widest curve drawn along it (linear's band) and the clearance
    // that keeps a text from reading as on a curve (text_boxes' markClearance).
    const float offset = strokeWidth(theme, kAlongLineWidth) / 2 + markClearance(size);
    std::vector<Box> taken;
    for (std::size_t i = start.items; i < figure.items.size(); ++i) {
        if (const auto* t = std::get_if<TextItem>(&figure.items[i]); t && !t->text.empty())
            taken.push_back(textBox(*t));
        if (const auto* r = std::get_if<RectItem>(&figure.items[i]); r && r->legend)
            taken.push_back(r->box);  // the legend's box, not only its names
    }
    // A vertical marker's line: a label across it reads as struck through.
    for (const Marker& marker : markers)
        if (marker.vertical)
            taken.push_back({frame.toPixel(marker.value, frame.y.low).x - 1, p.y, 2, p.height});
    // One line, else two (a one-column plot: "1: no new angles" was wider than the room either
    // side of the "< one turn" line, and went to the top of the plot, far from its line).
    const auto [head, tail] = titleHalves(text, titleBreak(text));
    std::vector<std::vector<std::string>> forms = {{text}};
    if (!tail.empty()) forms.push_back({head, tail});
    const float step = size * 1.15f;
    for (const std::vector<std::string>& lines : forms) {
        float widest = 0;
        for (const std::string& line : lines)
            widest = std::max(widest, estimateTextWidth(line, size));
        const float width = widest + 4, height = step * float(lines.size() - 1) + size + 2;
        // The ends of the line first, then along it.
        std::vector<float> lefts = {p.x + 8, p.right() - 8 - width};
        for (int k = 1; k <= 64 && p.x + 8 + float(k) * width / 4 < p.right() - 8 - width; ++k)
            lefts.push_back(p.x + 8 + float(k) * width / 4);
        for (const bool above : {true, false}) {
            for (const float left : lefts) {
                const Box box{left, above ? lineY - offset - height : lineY + offset, width,
                              height};
                // Clear by `margin` on the three sides away from the line (the curve along the
                // line itself, linear's, is `offset` off).
                const Box clearance{box.x - margin, above ? box.y - margin : box.y,
                                    box.width + 2 * margin, box.height + margin};
                if (box.x < p.x || box.right() > p.right() || box.y < p.y ||
                    box.bottom() > p.bottom())
                    continue;
                if (marksCovered(figure, clearance, start.marks) > 0) continue;
                if (std::any_of(taken.begin(), taken.end(),
                                [&](const Box& t) { return boxesOverlap(box, t, 0); }))
                    continue;
                figure.add(RectItem{box, withAlpha(theme.plotBackground, 215), {0, 0, 0, 0}, 1});
                for (std::size_t i = 0; i < lines.size(); ++i)
                    figure.add(
                        makeText({box.x + 2, box.y + 1 + step * float(i)}, lines[i], size, color));
                return true;
            }
        }
    }
    return false;
}

// A file too narrow for two columns (a one-column print): the canvas may grow and the six
// panels go one under another, each the full width.
bool oneColumnPrint(Box area, const Theme& theme) {
    const PanelShape& shape = kExtrapolationPanels;
    return heightMayGrow(theme) && area.width < theme.fontSize * shape.minWidthEm * 2 + shape.gap;
}

// The textbook set stacked in print: each plot this many ems tall over its paragraph, as tall as
// its lines (stackedCells): the heatmaps 10, T5's curve 12, RoPE's angles 15, the scalings 17
// and ALiBi 15. Names are kept whole (session 24): at 14, 15 and 12 RoPE's, the scalings' and
// ALiBi's legends stood beside their plots, names on two to four lines ("seen in / training /
// (L = 512)"); with these heights RoPE's fits inside and the others take rows under the plot
// (drawLinePlot's rule, which a legend's rows may not grow this file for: rowsGrowGrid). At 13
// the scalings' "1: no new angles" had no room beside its line (#28). Equal 21-em cells left
// most paragraphs' boxes part empty and made the one-column figure 2,942 px tall.
constexpr float kStackedPlotEm[6] = {10, 10, 15, 17, 15, 12};
constexpr float kStackedPlotLeastEm = 10;

// Stacked, the relative set's paragraphs need fewer lines than in the 22-em column the shape's
// 26 ems of height are for: 21 ems each; the textbook set asks for its own heights.
PanelShape extrapolationShape(Box area, const Theme& theme, ExtrapolationSet set) {
    PanelShape shape = kExtrapolationPanels;
    if (oneColumnPrint(area, theme))
        shape.minHeightEm = set == ExtrapolationSet::Textbook ? kStackedPlotLeastEm : 21;
    return shape;
}

// The textbook set's six cells stacked in a one-column print: plot k kStackedPlotEm[k] tall
// (all taller alike when the canvas has more room than they need) over its paragraph at
// `textSize`, as many lines as it wraps to; asks the canvas for their sum.
std::vector<PlotAndText> stackedCells(Box area, const std::vector<std::string>& paragraphs,
                                      float textSize, const Theme& theme) {
    // Closer than the grid's gap: each panel's title keeps its own room above it, and the
    // figure stays under 2,700 px with the title on two full-size lines (#28).
    const float gap = kExtrapolationPanels.gap - 8;
    std::vector<float> textHeights;
    float needed = gap * float(paragraphs.size() - 1);
    for (std::size_t k = 0; k < paragraphs.size(); ++k) {
        Figure probe;  // measured where nothing limits its lines
        textHeights.push_back(std::ceil(drawParagraph(probe, {0, 0, area.width - 12, 1e6f},
                                                      paragraphs[k], theme, textSize)) +
                              8);
        needed += textHeights.back() + kStackedPlotEm[k] * theme.fontSize;
    }
    askForHeight(theme, needed - area.height);
    const float spare =
        std::max(0.f, std::floor((area.height - needed) / float(paragraphs.size())));
    std::vector<PlotAndText> cells;
    float y = area.y;
    for (std::size_t k = 0; k < paragraphs.size(); ++k) {
        const float plot = std::floor(kStackedPlotEm[k] * theme.fontSize) + spare;
        cells.push_back({{area.x, y, area.width, plot},
                         {area.x + 6, y + plot + 2, area.width - 12, textHeights[k] - 2}});
        y += plot + textHeights[k] + gap;
    }
    return cells;
}

}  // namespace

Status drawExtrapolation(Figure& figure, Box area, const ExtrapolationOptions& o,
                         const Theme& theme, int panel) {
    if (auto s = validate(o); !s) return s;
    const int train = o.trainingLength, eval = o.evaluationLength;
    // Fewer columns, or one panel at a time, when the paragraphs would not fit (panel_grid.hpp).
    const PanelGrid grid =
        reflowOrFocus(area, extrapolationShape(area, theme, o.set), theme, panel);
    figure.viewPanels = kExtrapolationPanels.count;  // --panel N: the GUI's panel N
    if (o.set == ExtrapolationSet::RelativeFamily)
        return drawRelativeExtrapolation(figure, grid, o, theme);
    // One panel of a narrow print (--panel N) keeps more of its cell for the paragraph.
    const float textFraction = oneColumnPrint(area, theme) ? 0.38f : 0.3f;
    Theme small = theme;
    small.titleSize = theme.fontSize * 1.05f;
    const float textSize = atLeastMinText(theme.fontSize * 0.92f, theme);
    const std::vector<double> slopes = alibiSlopes(o.alibiHeads);
    const std::vector<std::string> paragraphs = {
        "The formula gives a vector for every position, so rows past training exist and stay "
        "bounded. But the model never saw them: later layers may misread the new combinations, "
        "and in practice quality drops.",
        "One trained vector per position (an embedding table): rows past the table simply do not "
        "exist. BERT and GPT-2 cannot read a longer sequence at all without new rows.",
        "Each pair turns by $θ_i$ per position. Fast pairs complete many turns in training, so "
        "every angle is familiar; pairs below 2π never closed their circle, and past training "
        "they reach angles the model has never seen.",
        "Above 1 in the shaded pairs means unseen angles. Linear (position interpolation) "
        "divides every frequency by s: nothing new, but neighbours get squeezed. NTK, YaRN and "
        "Llama 3 keep the fast pairs and stretch only the slow ones.",
        alibiExtrapolationCaption(slopes, train),
        "A learned bias per bucket of distance, with logarithmic buckets and every distance "
        "beyond max_distance in the last one. Any length maps onto buckets seen in training — at "
        "the price of not telling 200 from 2000 apart."};
    const bool stacked = !grid.oneAtATime() && oneColumnPrint(area, theme);
    const std::vector<PlotAndText> stackedCell =
        stacked ? stackedCells(area, paragraphs, textSize, theme) : std::vector<PlotAndText>{};
    // One panel at a time on screen (a projector, a lecture's step): the figure leaves out its
    // title row (extrapolationFigure) and each panel's title says what it said.
    const std::string aloneSuffix =
        grid.oneAtATime() && theme.focusPanel <= 0
            ? " past " + std::to_string(train) + " (to " + std::to_string(eval) + ")"
            : "";
    // The lengths where they fit on the title's line (not at 480x320: the panel's own title
    // whole rather than cut with "…").
    auto aloneTitle = [&](const std::string& title, float width) {
        const std::string longer = title + aloneSuffix;
        return estimateTextWidth(longer, small.titleSize) <= width * 0.9f ? longer : title;
    };
    auto cellOf = [&](int k) {
        if (stacked) return stackedCell[std::size_t(k)];
        const Box cell = grid.cell(k);
        if (!grid.oneAtATime()) return splitCell(cell, textFraction);
        // One panel at a time (a projector): the paragraph takes the lines it wraps to, not
        // textFraction of the cell, and the plot the rest (lesson 6.3's ALiBi plot, under the
        // card at 1024x768 F5, was 80 px tall above a paragraph box a third empty).
        Figure probe;  // measured where nothing limits its lines
        const float lines = std::ceil(drawParagraph(probe, {0, 0, cell.width - 12, 1e6f},
                                                    paragraphs[std::size_t(k)], theme, textSize));
        const float textHeight = std::min(std::floor(cell.height * textFraction), lines + 8);
        return PlotAndText{
            {cell.x, cell.y, cell.width, cell.height - textHeight},
            {cell.x + 6, cell.bottom() - textHeight + 2, cell.width - 12, textHeight - 2}};
    };

    // 1. Sinusoidal: the formula continues.
    if (grid.shows(0)) {
        const PlotAndText cell = cellOf(0);
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
        spec.title = aloneTitle(spec.title, cell.plot.width);
        drawHeatmap(figure, cell.plot, spec, small);
        drawParagraph(figure, cell.text, paragraphs[0], theme, textSize);
    }
    // 2. Learned: no rows exist.
    if (grid.shows(1)) {
        const PlotAndText cell = cellOf(1);
        LearnedParams p;
        p.seqLen = train;
        p.dModel = o.dModel;
        HeatmapSpec spec = learnedPastTheTable(p, eval, cell.plot);
        spec.x.label = "dimension";
        spec.y.label = "position";
        spec.showMaskedLegend = true;
        // No shade past the line: the rows there are the masked colour itself, which the
        // "masked" key shows (darkened by the shade they read as another, darker colour).
        Marker tableEnds = trainingMarker(train, false, theme, "table ends");
        tableEnds.shadeBeyond = false;
        spec.markers.push_back(tableEnds);
        spec.title = aloneTitle(spec.title, cell.plot.width);
        drawHeatmap(figure, cell.plot, spec, small);
        drawParagraph(figure, cell.text, paragraphs[1], theme, textSize);
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
        const PlotAndText cell = cellOf(2);
        LinePlotSpec spec;
        spec.rowsGrowGrid = false;  // six plots: the file's height is budgeted
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
        spec.title = aloneTitle(spec.title, cell.plot.width);
        drawLinePlot(figure, cell.plot, spec, small);
        drawParagraph(figure, cell.text, paragraphs[2], theme, textSize);
    }
    // 4. RoPE with each scaling, factor eval / train.
    if (grid.shows(3)) {
        const PlotAndText cell = cellOf(3);
        const double factor = double(eval) / train;
        LinePlotSpec spec;
        spec.rowsGrowGrid = false;
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
            // Linear lies on the line at 1, and NTK, YaRN and Llama 3 join it at the slow
            // pairs: drawn wide under them, it shows as a band around theirs instead of hidden
            // (#28); the legend's swatch is as wide.
            if (type == RopeScaling::Linear) series.width = kAlongLineWidth;
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
        spec.title = aloneTitle(spec.title, cell.plot.width);
        // The line at 1 labelled beside it where the label keeps clear of the curves; else by
        // the plot, which lists it in the legend when it has no place (a small window).
        const Figure::Checkpoint start = figure.checkpoint();
        PlotFrame frame;
        drawLinePlot(figure, cell.plot, spec, small, &frame);
        if (!labelLineClearOfCurves(figure, frame, start, spec.markers, 1, "1: no new angles",
                                    one.color, small)) {
            figure.rollBack(start);
            spec.markers.front().label = "1: no new angles";
            drawLinePlot(figure, cell.plot, spec, small, &frame);
        }
        // The line at 1 again over the curves, thin and dashed: under them the curves on it
        // hid it (the marker's line is drawn first); now both read.
        const float atOne = frame.toPixel(frame.x.low, 1).y;
        figure.add(ClipPush{frame.plot});
        figure.add(LineItem{{frame.plot.x, atOne},
                            {frame.plot.right(), atOne},
                            one.color,
                            strokeWidth(small, 1),
                            true});
        figure.add(ClipPop{});
        drawParagraph(figure, cell.text, paragraphs[3], theme, textSize);
    }
    // 5. ALiBi: a linear penalty, defined at every distance.
    if (grid.shows(4)) {
        const PlotAndText cell = cellOf(4);
        LinePlotSpec spec;
        spec.rowsGrowGrid = false;
        spec.title = "ALiBi: keeps working";
        spec.x = integerAxis("distance i − j", 0, double(eval));
        spec.y = {"logit bias", -1, 0};
        const bool narrow = cell.plot.width < 30 * theme.fontSize;
        // Four heads spread from the steepest to the gentlest, both ends drawn: the caption
        // names the gentlest (0, 2, 4, 6 of 8 left head 7 out).
        const int heads = int(slopes.size());
        const int shown = std::min(heads, 4);
        for (int h = 0; h < shown; ++h) {
            const std::size_t head =
                shown > 1 ? std::size_t(std::lround(double(h) * (heads - 1) / (shown - 1))) : 0;
            LineSeries series;
            // A narrow plot (480x320, a one-column print) names the heads by slope alone: "head
            // 2, m = 0.125" took two legend rows each (at 480x320 the legend below left the plot
            // a flat strip; in print the legend beside it left the last head out).
            series.name = (narrow ? "" : "head " + std::to_string(head) + ", ") +
                          "m = " + formatValue(slopes[head], 3);
            series.x = {0, double(eval)};
            series.y = {0, -slopes[head] * eval};
            spec.series.push_back(series);
        }
        spec.y.low = -slopes.front() * eval * 0.25;  // the steep heads leave the plot: on purpose
        spec.y.high = 0.02 * slopes.front() * eval;
        spec.autoRangeY = false;
        spec.markers.push_back(trainingMarker(train, true, theme));
        spec.title = aloneTitle(spec.title, cell.plot.width);
        drawLinePlot(figure, cell.plot, spec, small);
        drawParagraph(figure, cell.text, paragraphs[4], theme, textSize);
    }
    // 6. T5: everything far shares the last bucket.
    if (grid.shows(5)) {
        const PlotAndText cell = cellOf(5);
        LinePlotSpec spec;
        spec.rowsGrowGrid = false;
        spec.title = "T5 buckets: keep working";
        spec.x = integerAxis("distance i − j", 0, double(eval));
        spec.y = {"bucket", 0, double(o.t5Buckets)};
        spec.autoRangeY = false;
        spec.y.high = o.t5Buckets;
        spec.y.low = -1;
        LineSeries buckets;
        // The bucket count in the key and max_distance on its line's label: "32 buckets, max
        // distance 128" split over two lines in the legend of a one-column print (#28).
        buckets.name = std::to_string(o.t5Buckets) + " buckets";
        // Exact steps from the bucket ranges (sampling every few distances moved them).
        t5StepsByDistance(o.t5Buckets, o.t5MaxDistance, eval, buckets.x, buckets.y);
        spec.series = {buckets};
        spec.markers.push_back(trainingMarker(train, true, theme));
        Marker far;
        far.value = o.t5MaxDistance;
        far.label = "max distance " + std::to_string(o.t5MaxDistance);
        far.color = theme.mutedText;
        spec.markers.push_back(far);
        spec.title = aloneTitle(spec.title, cell.plot.width);
        drawLinePlot(figure, cell.plot, spec, small);
        drawParagraph(figure, cell.text, paragraphs[5], theme, textSize);
    }
    return success();
}

namespace {

std::string extrapolationTitle(const ExtrapolationOptions& options) {
    return "Past the training length (" + std::to_string(options.trainingLength) + " → " +
           std::to_string(options.evaluationLength) + " positions): what each encoding does";
}

// The band of the lines the title wraps to (one column: two at the title size, the first
// panel's title a gap below them; #28), as extrapolationFigure draws it.
float extrapolationTitleHeight(const ExtrapolationOptions& options, float width, float height,
                               const Theme& theme) {
    return titleBandHeight(theme, extrapolationTitle(options), width, height);
}

}  // namespace

PanelGrid extrapolationPanels(float width, float height, const Theme& theme, int panel,
                              const ExtrapolationOptions& options) {
    const float titleHeight = extrapolationTitleHeight(options, width, height, theme);
    const Box area{0, titleHeight, width, height - titleHeight};
    return reflowOrFocus(area, extrapolationShape(area, theme, ExtrapolationSet::Textbook), theme,
                         panel);
}

Result<Figure> extrapolationFigure(const ExtrapolationOptions& options, float width, float height,
                                   const Theme& theme, int panel) {
    if (auto s = validate(options); !s) return s.error();
    Figure figure = emptyFigure(width, height, theme);
    // One textbook panel at a time on screen (a projector): its own title names the lengths and
    // its plot takes the figure title's row (lesson 6.3's ALiBi plot at 1024x768 F5 was 80 px
    // tall under two title rows). The panels stay one at a time in the taller area.
    const bool alone = options.set == ExtrapolationSet::Textbook && theme.focusPanel <= 0 &&
                       extrapolationPanels(width, height, theme, panel, options).oneAtATime();
    if (alone) {
        Theme single = theme;
        single.panelsOneAtATime = true;
        if (auto s = drawExtrapolation(figure, {0, 0, width, height}, options, single, panel); !s)
            return s.error();
        return figure;
    }
    const float titleHeight = extrapolationTitleHeight(options, width, height, theme);
    drawTitle(figure, {0, 0, width, titleHeight}, extrapolationTitle(options), theme);
    if (auto s = drawExtrapolation(figure, {0, titleHeight, width, height - titleHeight}, options,
                                   theme, panel);
        !s) {
        return s.error();
    }
    return figure;
}

}  // namespace poslab
