#include "poslab/views/meaning_figures.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <variant>

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "poslab/figure/text_fit.hpp"
#include "poslab/figure/ticks.hpp"
#include "poslab/views/print_room.hpp"

namespace poslab {

namespace {

// A heatmap of block means over an L x L matrix: the axes span the cells, the texels the blocks.
HeatmapSpec blockMeansSpec(const std::string& title, const Matrix& means, long long cellsPerTexel,
                           int seqLen, ValueRange range) {
    HeatmapSpec spec;
    spec.title = title;
    spec.x = {"", 0, double(seqLen), false, true};
    spec.y = {"", 0, double(seqLen), false, true};
    spec.values = share(means);
    if (cellsPerTexel > 1) {
        spec.valuesRowSpan = double((long long)means.rows * cellsPerTexel);
        spec.valuesColSpan = double((long long)means.cols * cellsPerTexel);
    }
    spec.version = nextMatrixVersion();
    spec.colormap = ColormapId::BlueWhiteRed;
    spec.range = range;
    return spec;
}

std::string rmsNote(const LogitTermMaps& maps) {
    if (maps.rmsRows >= maps.seqLen) return "";
    return " RMS (≈) over " + std::to_string(maps.rmsRows) + " evenly spaced query rows of " +
           std::to_string(maps.seqLen) + ", all keys.";
}

}  // namespace

namespace {

// The data box drawHeatmap gives an L x L heatmap with a colour bar in `area`: its margins
// depend only on the axes and labels, so it is laid out once, without values, into a scratch
// figure. Block means of at most that many texels a side are never minified on screen. A vector
// file (Theme::cellResolution) has a texel per cell (L is at most 1024, within
// kMaxTexelsPerSide) while affordableLogitTexels allows.
int heatmapTexels(Box area, int seqLen, const Theme& theme) {
    HeatmapSpec spec;
    spec.title = "title";
    spec.x = {"key j", 0, double(seqLen), false, true};
    spec.y = {"query i", 0, double(seqLen), false, true};
    spec.values = share(Matrix(1, 1));
    spec.range = {-100, 100};  // three-digit colour-bar ticks: wider than most
    spec.colorbarLabel = "logit / √d, mean of 10 × 10 cells";
    Figure scratch;
    PlotFrame frame;
    drawHeatmap(scratch, area, spec, theme, &frame);
    return texelBudget(std::min(frame.plot.width, frame.plot.height), theme.cellResolution);
}

// A vector file's maps (texels = cells, heatmapTexels) cost about 2.5 texels² d multiply-adds
// (cp whole, cc, pp and the sum by symmetry half, pc cp's transpose): at d = 2048 and 1024
// tokens 5.4 G, seven seconds. Within kVectorLogitBudget they keep every cell (every d up to
// 819 at 1024 tokens), past it the largest texels that fit (512 a side at d = 2048: blocks of 2 x 2
// cells, which the colour bars state).
constexpr double kVectorLogitBudget = double(1LL << 31);
int affordableLogitTexels(int texels, int dModel, const Theme& theme) {
    if (!theme.cellResolution) return texels;
    const auto affordable = int(std::sqrt(kVectorLogitBudget / (2.5 * std::max(1, dModel))));
    return std::max(1, std::min(texels, affordable));
}

// Where drawAddVersusConcat puts its two heatmaps and the read-back plot in `area`.
struct AddConcatLayout {
    PanelGrid grid;  // which columns are shown (kAddConcatPanels)
    Box columns[3];  // empty when not shown
    float textHeight = 0;
    int first = 0;  // the first column shown
};
AddConcatLayout addConcatLayout(Box area, const Theme& theme, int panel) {
    AddConcatLayout layout;
    layout.grid = reflowOrFocus(area, kAddConcatPanels, theme, panel);
    for (int k = 0; k < 3; ++k) layout.columns[k] = layout.grid.cell(k);
    // A --panel past the view's three (refused once the figure is built) draws none of them.
    layout.first = layout.grid.oneAtATime() ? std::min(layout.grid.shown, 2) : 0;
    if (layout.grid.columns == 3) {  // side by side: the heatmaps a little wider than the plot
        const float gap = kAddConcatPanels.gap;
        const float columnWidth = std::floor((area.width - 2 * gap) * 0.36f);
        layout.columns[0] = {area.x, area.y, columnWidth, area.height};
        layout.columns[1] = {area.x + columnWidth + gap, area.y, columnWidth, area.height};
        layout.columns[2] = {area.x + 2 * (columnWidth + gap), area.y,
                             area.width - 2 * (columnWidth + gap), area.height};
    }
    const float height = layout.columns[layout.first].height;
    layout.textHeight = std::max(9.3f * theme.fontSize, std::floor(height * 0.27f));
    // A short cell keeps its heatmap (or plot) twelve lines tall, up to 75 % of it: its own
    // title, ticks and labels take half of that. The paragraph is set smaller or cut with "…"
    // instead (248 x 178 px, a 480x320 window, left the map 27 px under nine lines of text).
    const float heatmapLeast = std::min(height * 0.75f, 12 * theme.fontSize);
    layout.textHeight = std::max(0.f, std::min(layout.textHeight, height - heatmapLeast));
    return layout;
}

}  // namespace

namespace {

// The RMS of each logit term as a horizontal bar, on one scale from 0 to the largest: name on the
// left, value at the bar's end. Drawn only when `area` holds the heading and five rows of text
// (else nothing: the heatmaps' titles state the values too).
void drawTermRms(Figure& figure, Box area, const LogitTermMaps& maps, const Theme& theme) {
    const float row = theme.fontSize * 1.4f;
    if (area.height < 6.3f * row || area.width < theme.fontSize * 16) return;
    const char* names[5] = {"content·content", "content·position", "position·content",
                            "position·position", "sum"};
    std::string heading = "RMS of each term (logit / √d";
    if (maps.rmsRows < maps.seqLen) heading += ", ≈ over " + std::to_string(maps.rmsRows) + " rows";
    heading += ")";
    figure.add(makeText({area.x, area.y}, heading, theme.fontSize, theme.text));
    float labelWidth = 0, valueWidth = 0;
    double largest = 1e-12;
    for (int t = 0; t < 5; ++t) {
        labelWidth = std::max(labelWidth, estimateTextWidth(names[t], theme.fontSize));
        valueWidth =
            std::max(valueWidth, estimateTextWidth(formatValue(maps.rms[t], 3), theme.fontSize));
        largest = std::max(largest, maps.rms[t]);
    }
    const float gap = theme.fontSize * 0.6f;
    const float barLeft = area.x + labelWidth + gap;
    const float barRoom = area.right() - barLeft - gap - valueWidth;
    if (barRoom < theme.fontSize * 4) return;
    for (int t = 0; t < 5; ++t) {
        const float y = area.y + row * float(t + 1) + theme.fontSize * 0.2f;
        figure.add(makeText({area.x, y + row / 2}, names[t], theme.fontSize, theme.text,
                            HorizontalAlign::Left, VerticalAlign::Middle));
        RectItem bar;
        bar.box = {barLeft, y + row * 0.15f, std::max(1.f, float(maps.rms[t] / largest) * barRoom),
                   row * 0.7f};
        bar.fill = t == 4 ? theme.accent : seriesColor(0, theme);
        figure.add(bar);
        figure.addMark(bar.box);
        figure.add(makeText({bar.box.right() + gap, y + row / 2}, formatValue(maps.rms[t], 3),
                            theme.fontSize, theme.text, HorizontalAlign::Left,
                            VerticalAlign::Middle));
    }
}

}  // namespace

PanelGrid logitTermPanels(Box area, const Theme& theme, int panel) {
    return reflowOrFocus(area, kLogitTermPanels, theme, panel);
}

int logitTermTexels(Box area, int seqLen, const Theme& theme, int panel) {
    const PanelGrid grid = logitTermPanels(area, theme, panel);
    // Every heatmap cell has the same size; alone, the shown panel fills the area.
    return heatmapTexels(grid.cell(grid.oneAtATime() ? grid.shown : 0), seqLen, theme);
}

void drawLogitTerms(Figure& figure, Box area, const MeaningParams& params,
                    const LogitTermMaps& maps, const Theme& theme, std::vector<PlotFrame>* frames,
                    int panel) {
    const PanelGrid grid = logitTermPanels(area, theme, panel);
    figure.viewPanels = kLogitTermPanels.count;  // --panel N: the GUI's panel N
    if (frames) frames->clear();
    const LogitTerms& terms = maps.means;
    // One scale for all five, spanning what is drawn (the block means).
    const double top = std::max({maxAbs(terms.contentContent), maxAbs(terms.contentPosition),
                                 maxAbs(terms.positionContent), maxAbs(terms.positionPosition),
                                 maxAbs(terms.total), 1e-12});
    const ValueRange range{-top, top};
    struct Panel {
        const Matrix* values;
        std::string title;
    };
    const std::string approx = maps.rmsRows < maps.seqLen ? "≈ " : "";
    auto titled = [&](const char* name, const char* formula, int t) {
        return std::string(name) + "  " + formula + "  (rms " + approx +
               formatValue(maps.rms[t], 3) + ")";
    };
    const Panel panels[5] = {
        {&terms.contentContent, titled("content·content", "$x_i·x_j$", 0)},
        {&terms.contentPosition, titled("content·position", "$x_i·p_j$", 1)},
        {&terms.positionContent, titled("position·content", "$p_i·x_j$", 2)},
        {&terms.positionPosition, titled("position·position", "$p_i·p_j$", 3)},
        {&terms.total, titled("= sum", "$(x_i+p_i)·(x_j+p_j)$", 4)},
    };
    auto termSpec = [&](int k) {
        HeatmapSpec spec = blockMeansSpec(panels[k].title, *panels[k].values, maps.cellsPerTexel,
                                          maps.seqLen, range);
        spec.x.label = "key j";
        spec.y.label = "query i";
        // One title size across a row: a title a little too long for one line wraps as its
        // neighbours do (at 1440x900 the first was shrunk onto one line beside two at full size).
        spec.titleWrapsAtFullSize = true;
        // Every bar says its unit, so that every map of a row has one width (the sum's caption
        // alone made its map 25 px narrower than the others at 1440x900, and a tenth
        // narrower at one column in print).
        spec.colorbarLabel = "logit / √d";
        if (maps.cellsPerTexel > 1) {
            spec.colorbarLabel += ", mean of " + std::to_string(maps.cellsPerTexel) + " × " +
                                  std::to_string(maps.cellsPerTexel) + " cells";
        }
        return spec;
    };
    HeatmapSpec specs[5];  // built once: the alignment lays them out aside first
    for (int k = 0; k < 5; ++k)
        if (grid.shows(k)) specs[k] = termSpec(k);
    // The maps of a row start at one height, whichever titles wrap (at 1440x900 the first
    // title kept one line and its map stood a line above its neighbours').
    const std::vector<Box> cells = cellsAlignedByRow(grid, [&](int k, Box cell) {
        if (k >= 5) return float(NAN);  // the paragraph
        Figure scratch;
        PlotFrame frame;
        drawHeatmap(scratch, cell, specs[k], theme, &frame);
        return frame.plot.y;
    });
    for (int k = 0; k < 5; ++k) {
        if (!grid.shows(k)) continue;
        PlotFrame frame;
        drawHeatmap(figure, cells[std::size_t(k)], specs[k], theme, &frame);
        if (frames) frames->push_back(frame);
    }
    if (!grid.shows(5)) return;
    const Box info = grid.cell(5);
    std::string text =
        "Attention logit of query i and key j (identity projections, divided by √d): the sum of "
        "four terms, all on one colour scale.\n";
    text += "$d_{model}$ = " + std::to_string(params.dModel) + ", " +
            std::to_string(params.seqLen) + " tokens from a vocabulary of " +
            (params.tokens ? std::string("loaded vectors") : std::to_string(params.vocabulary)) +
            " (repeated words light up content·content), " +
            std::string(positionTableName(params.positions)) + " positions." + rmsNote(maps) + "\n";
    const double cross = std::max(maps.rms[1], maps.rms[2]);
    text +=
        "The cross terms are " +
        (cross < 0.25 * std::min(maps.rms[0], maps.rms[3])
             ? std::string(
                   "small noise: random word vectors are nearly orthogonal to every position "
                   "vector, so the sum keeps content and position apart.")
             : std::string("not small here: with this width and these scales, content and position "
                           "interfere. Raise $d_{model}$ to see them shrink as 1/√d relative to "
                           "the others."));
    const Box textBox{info.x + 8, info.y + 8, info.width - 16, info.height - 16};
    const float used = drawParagraph(figure, textBox, text, theme);
    // Below the paragraph, where the cell has room (the panel alone, a tall cell): the five RMS
    // values as bars on one scale, the paragraph's point (the cross terms small) at a glance.
    const float gap = theme.fontSize * 1.2f;
    drawTermRms(figure,
                {textBox.x, textBox.y + used + gap, textBox.width, textBox.height - used - gap},
                maps, theme);
}

void drawNearOrthogonality(Figure& figure, Box area, int dModel, const Histogram& histogram,
                           const Theme& theme, int drawn, int requested) {
    Box left{area.x, area.y, std::floor(area.width * 0.6f), area.height};
    Box right{left.right() + 8, area.y, area.width - left.width - 8, area.height};
    // Too narrow for the two side by side (a one-column print: its notes, y label and legend
    // were cut): the histogram above the spread, each as wide as the figure. A file whose
    // height follows its width asks for the height two plots of legible text need.
    const bool stacked = area.width < theme.fontSize * 40;
    if (stacked) {
        const float top = std::floor(area.height * 0.58f);
        left = {area.x, area.y, area.width, top};
        right = {area.x, area.y + top + 8, area.width, area.height - top - 8};
        askForHeight(theme, std::max(theme.fontSize * 36, area.width * 1.25f) - area.height);
    }
    const double sigma = 1 / std::sqrt(double(dModel));

    LinePlotSpec spec;
    spec.title = "cos(random vector, PE($p$)) at $d_{model}$ = " + std::to_string(dModel);
    spec.x = {"cosine", -1, 1};
    spec.y = {"density", 0, 1};
    double peak = 0;
    for (double v : histogram.density) peak = std::max(peak, v);
    LineSeries exact;
    exact.name = "exact density $(1 − c^2)^{(d−3)/2}$";
    const int samples = std::clamp(texelBudget(left.width), 64, 2000);
    for (int i = 0; i <= samples; ++i) {
        const double c = -1 + 2.0 * i / samples;
        exact.x.push_back(c);
        exact.y.push_back(randomCosineDensity(dModel, c));
        peak = std::max(peak, exact.y.back());
    }
    exact.color = theme.accent;
    spec.series.push_back(exact);
    spec.y.high = peak * 1.1;
    spec.autoRangeY = false;
    Marker plus,
        minus;  // labelled in the text line below (a marker label would hide under the legend)
    plus.value = sigma;
    minus.value = -sigma;
    plus.color = minus.color = theme.mutedText;
    spec.markers = {plus, minus};
    // The bars are the plot's own marks (drawn under the curve), so its legend and the notes
    // below are placed clear of them: drawn after the plot, the legend covered the peak's bars
    // in a one-column print.
    BarSeries bars;
    const int bins = int(histogram.density.size());
    for (int b = 0; b <= bins; ++b)
        bars.edges.push_back(rangeValue(double(b) / bins, histogram.low, histogram.high));
    bars.heights = histogram.density;
    bars.fill = withAlpha(seriesColor(0), 170);
    spec.bars = {bars};
    auto drawHistogram = [&](const LinePlotSpec& plot) {
        PlotFrame frame;
        drawLinePlot(figure, left, plot, theme, &frame);
        return frame;
    };
    const Figure::Checkpoint start = figure.checkpoint();
    PlotFrame frame = drawHistogram(spec);
    // Short lines where they hide neither the bars, the curve nor the legend.
    const std::string meanText = "mean " + withMinusSign(formatValue(histogram.mean, 2));
    const std::string stdText = "std " + formatValue(histogram.stddev, 3);
    std::vector<NoteLine> lines = {{"sampled: " + meanText + ", " + stdText, theme.text}};
    // Said whole, in every form of the note, when fewer than asked were drawn: which ones.
    const bool fewer = requested > drawn && drawn > 0;
    std::optional<NoteLine> countLine;  // its short form, for the short lines below
    if (fewer) {
        countLine = NoteLine{
            "first " + std::to_string(drawn) + " of " + std::to_string(requested) + " seeded draws",
            theme.text};
        lines.push_back(*countLine);
    } else if (drawn > 0) {
        lines.push_back({std::to_string(drawn) + " random vectors", theme.mutedText});
        countLine = NoteLine{"n = " + std::to_string(drawn), theme.mutedText};
    }
    const std::string sigmaText = "±1/√d = ±" + formatValue(sigma, 3);
    lines.push_back({"dashed: " + sigmaText, theme.mutedText});
    // How the notes drawn from item `from` on read as `lineCount` lines: none over a mark or
    // within a third of a line of one (at 480x320 "std 0.125" touched the peak), and none
    // wrapped (at 1024x768 F5 the three lines wrapped into seven in the corner beside the
    // legend).
    const float clearance = theme.fontSize / 3;
    struct Reading {
        bool clear = true, whole = true;
    };
    auto notesRead = [&](std::size_t from, std::size_t lineCount) {
        Reading reading;
        std::size_t texts = 0;
        for (std::size_t i = from; i < figure.items.size(); ++i) {
            const auto* text = std::get_if<TextItem>(&figure.items[i]);
            if (!text || text->text.empty()) continue;
            ++texts;
            if (marksCovered(figure, textBox(*text), start.marks, -clearance) > 0)
                reading.clear = false;
        }
        reading.whole = texts == lineCount;
        return reading;
    };
    // The forms of the note, longest first: the three lines (the dashed lines named in it);
    // then, the dashed lines named by their marker's label (which the plot places clear of the
    // data or lists as a dashed key), short lines: the mean, the std and the count, then the
    // mean and the std, then the std alone (the spread plot beside it takes it up; the count is
    // the samples slider's). The first form whole and clear is kept, else the first clear.
    LinePlotSpec named = spec;
    named.markers[0].label = sigmaText;
    std::vector<std::pair<const LinePlotSpec*, std::vector<NoteLine>>> forms = {{&spec, lines}};
    const std::vector<NoteLine> meanAndStd = {{meanText, theme.text}, {stdText, theme.text}};
    forms.push_back({&named, meanAndStd});
    if (countLine) forms.back().second.push_back(*countLine);
    if (!fewer) {
        if (countLine) forms.push_back({&named, meanAndStd});
        forms.push_back({&named, {{stdText, theme.text}}});
    }
    bool placed = false;
    for (const bool wrapped : {false, true}) {
        for (std::size_t f = 0; f < forms.size() && !placed; ++f) {
            if (f > 0 || wrapped) {
                figure.rollBack(start);
                frame = drawHistogram(*forms[f].first);
            }
            const std::size_t from = figure.items.size();
            drawNoteLines(figure, frame, forms[f].second, theme);
            const Reading reading = notesRead(from, forms[f].second.size());
            placed = reading.clear && (reading.whole || wrapped);
        }
        if (placed) break;
    }
    if (!placed) {
        // Not even the std alone finds a free place (the narrow histogram beside its legend
        // under lesson 5.2's card, F5): it joins the dashed lines' name.
        figure.rollBack(start);
        named.markers[0].label = sigmaText + ", sampled " + stdText;
        frame = drawHistogram(named);
    }

    LinePlotSpec spread;
    spread.title = "spread of the cosine against $d_{model}$";
    spread.x = {"$d_{model}$", 2, 8192, true};
    // "std(cosine)": "std of the cosine" ran 7 px longer than the short plot under lesson 5.2's
    // card and was shrunk to 19 px, under presentation's 19.6.
    spread.y = {"std(cosine)", 0.01, 1, true};
    spread.autoRangeY = false;
    LineSeries law;
    law.name = "1/√d";
    for (double d = 2; d <= 8192; d *= 1.25) law.x.push_back(d), law.y.push_back(1 / std::sqrt(d));
    law.color = theme.accent;
    LineSeries measured;
    // In presentation the short name: the dot and its dashed line already stand at d = dModel,
    // and the two-line entry found no free corner on the short plot under a lesson card (5.2,
    // F5) and hid the curve. Stacked on screen too (a 237 x 358 figure in a 480x320 window):
    // the long name took a second row, which left the plot no room for its legend below it, so
    // it sat on the 1/√d line and left "sampled at d = 64" out; the short keys take one row. (A
    // file grows taller instead.)
    const bool shortName = theme.fontScale > 1 || (stacked && !heightMayGrow(theme));
    measured.name = shortName ? std::string("sampled") : "sampled at d = " + std::to_string(dModel);
    measured.x = {double(dModel)};
    measured.y = {histogram.stddev};
    measured.markers = true;
    measured.color = seriesColor(0);
    spread.series = {law, measured};
    // The sampled std is one point: keyed by a dot, as it is drawn (a line segment said "curve").
    spread.keys = {{law.name, law.color}, {measured.name, measured.color, true}};
    Marker current;
    current.value = dModel;
    current.color = theme.mutedText;
    spread.markers = {current};
    PlotFrame spreadFrame;
    drawLinePlot(figure, right, spread, theme, &spreadFrame);
    CircleItem dot;  // a single point draws no polyline: mark it explicitly
    dot.center = spreadFrame.toPixel(double(dModel), std::max(histogram.stddev, 0.0101));
    dot.radius = 5;
    dot.fill = seriesColor(0);
    figure.add(dot);
}

void drawAddVersusConcat(Figure& figure, Box area, const MeaningParams& params,
                         const LogitTermMaps& maps, double recoveryError, const Theme& theme,
                         int panel) {
    const LogitTerms& terms = maps.means;  // block means: concat's are cc + pp's, exactly
    Matrix concat = terms.contentContent;
    for (std::size_t i = 0; i < concat.values.size(); ++i)
        concat.values[i] += terms.positionPosition.values[i];
    const double top = std::max({maxAbs(terms.total), maxAbs(concat), 1e-12});
    const int d = params.dModel;
    const long long addParams = 4LL * d * d, concatParams = 4LL * (2LL * d) * (2LL * d);
    const AddConcatLayout layout = addConcatLayout(area, theme, panel);
    figure.viewPanels = kAddConcatPanels.count;  // --panel N: the GUI's panel N
    // The three paragraphs, and the read-back curve the third describes.
    std::string paragraphs[3];
    paragraphs[0] =
        "Logit = content·content + content·position + position·content + "
        "position·position: all four terms, mixed in one number.\n"
        "Attention weights per layer ($W_Q$, $W_K$, $W_V$, $W_O$): 4·d² = " +
        std::to_string(addParams) + ".";
    paragraphs[1] =
        "Logit = content·content + position·position only: the halves never meet "
        "in a dot product, so the cross terms vanish.\n"
        "Attention weights per layer: 4·(2d)² = " +
        std::to_string(concatParams) + " (4×), and every later layer pays for the wider vectors.";
    LineSeries added, concatenated;
    added.name = "add";
    concatenated.name = "concatenate";
    added.markers = true;
    concatenated.color = seriesColor(1);
    int sampledFrom = 0, fewestQueries = maps.seqLen;  // widths read back at some queries only
    if (!params.tokens && layout.grid.shows(2)) {      // loaded vectors have one width: no curve
        for (int width = 4; width <= 2048; width *= 2) {
            MeaningParams p = params;
            p.dModel = width;
            // Evenly spaced queries once all L would pass the budget: at L = 1024 the widths
            // 4..2048 would otherwise cost 2^32 multiply-adds.
            const int queries = recoveryQueries(params.seqLen, width);
            auto error = sampledRecoveryError(p, queries);
            if (!error) continue;
            if (queries < params.seqLen && sampledFrom == 0) sampledFrom = width;
            fewestQueries = std::min(fewestQueries, queries);
            added.x.push_back(width), added.y.push_back(*error);
            concatenated.x.push_back(width), concatenated.y.push_back(0);
        }
    }
    paragraphs[2] =
        "Best-matching position row: $\\mathrm{argmax}_j (x_i + p_i)·p_j / |p_j|$. Word vectors "
        "blur the readout less as d grows, because they are nearly orthogonal to every p.";
    if (recoveryError >= 0) {
        const int here = recoveryQueries(params.seqLen, d);
        paragraphs[2] +=
            " Here (dashed line): off by " + formatValue(recoveryError, 3) +
            " positions on average" +
            (here < params.seqLen ? " over " + std::to_string(here) + " evenly spaced of " +
                                        std::to_string(params.seqLen) + " positions"
                                  : "") +
            ".";
    }
    if (sampledFrom > 0) {
        paragraphs[2] += " From d = " + std::to_string(sampledFrom) +
                         " the curve reads back evenly spaced positions only (down to " +
                         std::to_string(fewestQueries) + " of " + std::to_string(params.seqLen) +
                         ").";
    }
    float textHeight = layout.textHeight;
    if (layout.grid.oneAtATime() && layout.grid.shown < 3) {
        // One panel alone (a projector's, one at a time): the paragraph's band is what its lines
        // take and the plot gets the rest (at 1024x768 F5 the band of 27 % left a 48 x 48 map
        // 160 px tall, over three lines of text and 110 px of nothing).
        const Box cell = layout.columns[layout.first];
        Figure scratch;
        const float used = drawParagraph(scratch, {cell.x + 8, 0, cell.width - 16, textHeight - 6},
                                         paragraphs[layout.first], theme);
        textHeight = std::min(textHeight, std::ceil(used + 6 + theme.fontSize * 0.6f));
    }
    HeatmapSpec termMaps[2];  // add, concatenate
    for (int side = 0; side < 2; ++side) {
        if (!layout.grid.shows(side)) continue;
        const Matrix& values = side == 0 ? terms.total : concat;
        HeatmapSpec& spec = termMaps[side];
        spec =
            blockMeansSpec(side == 0 ? "Add: x + p, width d = " + std::to_string(d)
                                     : "Concatenate: [x; p], width 2d = " + std::to_string(2 * d),
                           values, maps.cellsPerTexel, maps.seqLen, {-top, top});
        spec.x.label = "key j";
        spec.y.label = "query i";
        spec.colorbarLabel = "logit / √d";
        if (maps.cellsPerTexel > 1) {
            spec.colorbarLabel += ", mean of " + std::to_string(maps.cellsPerTexel) + " × " +
                                  std::to_string(maps.cellsPerTexel) + " cells";
        }
    }
    LinePlotSpec readBack;
    readBack.title = "Position read back from x + p";
    readBack.x = {"$d_{model}$", 4, 2048, true};
    readBack.y = {"error (positions)", 0, 1};  // the mean: the paragraph says so
    // The plots of a row start at one height, whichever titles wrap (at 1440x900 "Concatenate:
    // [x; p], width 2d = 128" took two lines and its map stood lower than Add's): laid out
    // aside first, each column's plot lowered to the row's lowest, the paragraphs kept below.
    Box columns[3] = {layout.columns[0], layout.columns[1], layout.columns[2]};
    if (!layout.grid.oneAtATime()) {
        const std::vector<Box> aligned = alignPlotsByRow(
            {columns[0], columns[1], columns[2]}, layout.grid.columns, [&](int k, Box cell) {
                const Box plot{cell.x, cell.y, cell.width, cell.height - textHeight};
                Figure scratch;
                PlotFrame frame;
                if (k < 2) {
                    drawHeatmap(scratch, plot, termMaps[k], theme, &frame);
                } else {
                    LinePlotSpec empty = readBack;  // the title and axes place the plot
                    empty.autoRangeY = false;
                    drawLinePlot(scratch, plot, empty, theme, &frame);
                }
                return frame.plot.y;
            });
        for (int k = 0; k < 3; ++k) columns[k] = aligned[std::size_t(k)];
    }
    for (int side = 0; side < 2; ++side) {
        if (!layout.grid.shows(side)) continue;
        const Box cell = columns[side];
        const Box plot{cell.x, cell.y, cell.width, cell.height - textHeight};
        const Box text{cell.x + 8, plot.bottom() + 6, cell.width - 16, textHeight - 6};
        drawHeatmap(figure, plot, termMaps[side], theme);
        drawParagraph(figure, text, paragraphs[side], theme);
    }

    // Is anything lost? Position read back from x + p, against the width.
    if (!layout.grid.shows(2)) return;
    const Box cell = columns[2];
    const Box plot{cell.x, cell.y, cell.width, cell.height - textHeight};
    const Box text{cell.x + 8, plot.bottom() + 6, cell.width - 16, textHeight - 6};
    LinePlotSpec spec = readBack;
    spec.series = {added, concatenated};
    Marker current;
    current.value = d;
    current.color = theme.accent;
    spec.markers = {current};
    drawLinePlot(figure, plot, spec, theme);
    drawParagraph(figure, text, paragraphs[2], theme);
}

// The figures' titles, and the band each keeps for its title: two lines at full size rather than
// one shrunk where the figure has the height (a projector's 1024x768), and room for two smaller
// lines in a one-column print (the second touched the first panel's title).
constexpr const char* kMeaningTitle =
    "How position and meaning coexist: the logit of (word + position) vectors, term by term";
constexpr const char* kAddConcatTitle = "Adding or concatenating the position vector";
// One line, short enough for a projector's title size on 1024 px.
constexpr const char* kOrthogonalityTitle =
    "Near-orthogonality: random word vectors vs. sinusoidal position vectors";

Result<Figure> meaningFigure(const MeaningParams& params, float width, float height,
                             const Theme& theme, int panel) {
    const float titleHeight = titleBandHeight(theme, kMeaningTitle, width, height);
    const Box body{0, titleHeight, width, height - titleHeight};
    auto maps = logitTermMaps(
        params, affordableLogitTexels(logitTermTexels(body, params.seqLen, theme, panel),
                                      params.dModel, theme));
    if (!maps) return maps.error();
    Figure figure = emptyFigure(width, height, theme);
    drawTitle(figure, {0, 0, width, titleHeight}, kMeaningTitle, theme);
    drawLogitTerms(figure, body, params, *maps, theme, nullptr, panel);
    return figure;
}

Result<Figure> nearOrthogonalityFigure(int dModel, int samples, std::uint64_t seed, float width,
                                       float height, const Theme& theme) {
    // A prefix of the seeded stream: the first draws of exactly what was asked for.
    auto cosines = nearOrthogonalityCosines(dModel, samples, seed);
    if (!cosines) return cosines.error();
    const int drawn = int(cosines->size());
    Figure figure = emptyFigure(width, height, theme);
    const float titleHeight = titleBandHeight(theme, kOrthogonalityTitle, width, height);
    drawTitle(figure, {0, 0, width, titleHeight}, kOrthogonalityTitle, theme);
    drawNearOrthogonality(figure, {0, titleHeight, width, height - titleHeight}, dModel,
                          makeHistogram(*cosines, 100, -1, 1), theme, drawn, samples);
    return figure;
}

PanelGrid addVersusConcatPanels(float width, float height, const Theme& theme, int panel) {
    const float titleHeight =
        titleBandHeight(theme, kAddConcatTitle, width, height);  // as addVersusConcatFigure's
    return reflowOrFocus({0, titleHeight, width, height - titleHeight}, kAddConcatPanels, theme,
                         panel);
}

Result<Figure> addVersusConcatFigure(const MeaningParams& params, float width, float height,
                                     const Theme& theme, int panel) {
    const float titleHeight = titleBandHeight(theme, kAddConcatTitle, width, height);
    const Box body{0, titleHeight, width, height - titleHeight};
    const AddConcatLayout layout = addConcatLayout(body, theme, panel);
    const Box& column = layout.columns[layout.first];
    const int texels =
        heatmapTexels({column.x, column.y, column.width, column.height - layout.textHeight},
                      params.seqLen, theme);
    auto maps = logitTermMaps(params, affordableLogitTexels(texels, params.dModel, theme));
    if (!maps) return maps.error();
    auto recovery = sampledRecoveryError(params, recoveryQueries(params.seqLen, params.dModel));
    if (!recovery) return recovery.error();
    Figure figure = emptyFigure(width, height, theme);
    drawTitle(figure, {0, 0, width, titleHeight}, kAddConcatTitle, theme);
    drawAddVersusConcat(figure, body, params, *maps, *recovery, theme, panel);
    return figure;
}

}  // namespace poslab
