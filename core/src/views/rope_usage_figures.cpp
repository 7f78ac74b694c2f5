#include "poslab/views/rope_usage_figures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "poslab/base/format.hpp"
#include "poslab/base/heatmap_sample.hpp"

namespace poslab {

namespace {

std::string compactCount(double value) {  // 100, 1k, 10k, 1M
    if (value >= 1e6) return formatValue(value / 1e6, 3) + "M";
    if (value >= 1e3) return formatValue(value / 1e3, 3) + "k";
    return formatValue(value, 3);
}

// Wavelength marks on a pairs axis: a dashed line where λ first reaches each power of ten.
std::vector<Marker> wavelengthMarkers(const RopeUsageData& data, const Theme& theme) {
    std::vector<Marker> markers;
    double next = 10;
    for (std::size_t i = 0; i < data.wavelengths.size(); ++i) {
        const double lambda = data.wavelengths[i];
        if (!std::isfinite(lambda)) break;
        if (lambda < next) continue;
        while (next * 10 <= lambda) next *= 10;
        if (i > 0) {
            Marker mark;
            mark.value = double(i);
            mark.label = "λ " + compactCount(next);
            mark.color = withAlpha(theme.mutedText, 170);
            markers.push_back(mark);
        }
        next *= 10;
    }
    return markers;
}

// A heatmap's line markers and, for each, a shorter label to try where the whole one has no room
// ("" for none); the ones with one (the cut's and the context's) may rise to a second row.
struct PairMarkers {
    std::vector<Marker> markers;
    std::vector<std::string> shorter;
};

// The p-RoPE cut and the context's first incomplete pair, then the wavelength decades: the order
// their labels claim the row above a heatmap (labelsAbovePlot).
PairMarkers pairMarkers(const RopeUsageData& data, const RopeUsageViewParams& params,
                        const Theme& theme) {
    std::vector<Marker> markers;
    std::vector<std::string> shorter;
    const int kept = keptPairs(data, params.keepFraction);
    if (kept > 0 && kept < data.usage.pairs) {
        Marker cut;
        cut.value = double(kept);
        cut.label = "p-RoPE " + formatValue(params.keepFraction, 3);
        cut.color = seriesColor(1);
        cut.dashed = false;
        markers.push_back(cut);
        shorter.push_back(cut.label);  // no shorter one: it may rise, as the context's
    }
    const int incomplete = firstIncompletePair(data);
    if (incomplete < data.usage.pairs) {
        Marker context;
        context.value = double(incomplete);
        context.label = "λ > context " + std::to_string(data.trainingContext);
        context.color = theme.accent;
        context.shadeBeyond = true;
        markers.push_back(context);
        // "λ > 2048" beside the decades' "λ 1k": the notes say that it is the context.
        shorter.push_back("λ > " + std::to_string(data.trainingContext));
    }
    for (Marker& mark : wavelengthMarkers(data, theme)) {
        markers.push_back(std::move(mark));
        shorter.emplace_back();
    }
    if (kept > 0 && kept < data.usage.pairs && incomplete < kept) {
        // The cut's line once more, unlabelled, over the context's shading (drawn after it).
        Marker line = markers.front();
        line.label.clear();
        markers.push_back(line);
        shorter.emplace_back();
    }
    return {std::move(markers), std::move(shorter)};
}

// A label that found no room in the row above the plot, set in a second row over it.
struct RaisedLabel {
    double value = 0;  // the line's x
    std::string text;
    Rgba color;
    bool dashed = true;  // as the line below it
    bool leftOfLine = false;
};

// A heatmap is data everywhere inside, so its vertical lines' labels go in the row above the
// plot, each right or else left of its line (as drawMarkers places them there). Where the row
// has no room for a label beside the ones before it (the p-RoPE cut one pair from the context's
// line, a decade's label under either), its shorter label is tried; else a label that has a
// shorter one (the context's) goes a row higher, the plot lowered for it, and any other label
// goes, its line staying: inside the plot it hid the cells it names. The cut and the context
// keep theirs first; the notes panel says both.
std::vector<RaisedLabel> labelsAbovePlot(HeatmapSpec& spec, const std::vector<std::string>& shorter,
                                         Box area, const Theme& theme) {
    const Box plot = measureHeatmap(area, spec, theme).plot;
    const double span = spec.x.high - spec.x.low;
    if (!(plot.width > 0) || !(span > 0)) return {};
    const float size = atLeastMinText(theme.fontSize * 0.9f, theme);  // drawMarkers' labels
    constexpr float kGap = 2;
    using Row = std::vector<std::pair<float, float>>;  // [left, right] of the labels kept
    auto free = [&](const Row& row, float left, float right) {
        if (left < plot.x || right > plot.right()) return false;
        for (const auto& [l, r] : row)
            if (left < r + kGap && right > l - kGap) return false;
        return true;
    };
    auto lineX = [&](double value) {
        return plot.x + float((value - spec.x.low) / span) * plot.width;
    };
    // Where a label beside its line at x fits in `row`: 0 right of it, 1 left, -1 nowhere.
    auto side = [&](const Row& row, float x, const std::string& label) {
        const float width = estimateTextWidth(label, size) + 4;
        if (free(row, x, x + width)) return 0;
        return free(row, x - 8 - width, x - 8) ? 1 : -1;
    };
    auto take = [&](Row& row, float x, const std::string& label, int where) {
        const float width = estimateTextWidth(label, size) + 4;
        const float left = where == 0 ? x : x - 8 - width;
        row.push_back({left, left + width});
    };
    // The labels placed in `order` of the markers: the first row, then the second.
    struct Arranged {
        std::vector<Marker> markers;
        std::vector<RaisedLabel> raised;
        int kept = 0;  // the cut's and the context's labels shown
    };
    auto arrange = [&](const std::vector<std::size_t>& order) {
        Arranged out{spec.markers, {}, 0};
        Row taken, raisedRow;
        std::vector<std::size_t> waiting;  // markers for the second row
        for (std::size_t k : order) {
            Marker& mark = out.markers[k];
            if (!mark.vertical || mark.label.empty()) continue;
            const float x = lineX(mark.value);
            const bool mayRise = k < shorter.size() && !shorter[k].empty();
            if (const int where = side(taken, x, mark.label); where >= 0) {
                take(taken, x, mark.label, where);
            } else if (const int at = mayRise ? side(taken, x, shorter[k]) : -1; at >= 0) {
                mark.label = shorter[k];
                take(taken, x, mark.label, at);
            } else if (mayRise) {
                waiting.push_back(k);
                continue;
            } else {
                mark.label.clear();
                continue;
            }
            out.kept += mayRise ? 1 : 0;  // the cut's and the context's count, not the decades'
        }
        // The whole label beside its line, which is drawn up to it through the first row: no
        // label there may lie across that line.
        for (std::size_t k : waiting) {
            Marker& mark = out.markers[k];
            const float x = lineX(mark.value);
            const bool crossed = std::any_of(taken.begin(), taken.end(), [&](const auto& label) {
                return x >= label.first - kGap && x <= label.second + kGap;
            });
            const int where = crossed ? -1 : side(raisedRow, x, mark.label);
            if (where >= 0) {
                take(raisedRow, x, mark.label, where);
                out.raised.push_back({mark.value, mark.label, mark.color, mark.dashed, where == 1});
                ++out.kept;
            }
            mark.label.clear();
        }
        return out;
    };
    std::vector<std::size_t> order(spec.markers.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    Arranged best = arrange(order);
    // The cut's label left of its line may lie across the context's line one pair before it
    // (1024x768): the context first, then, when that keeps more labels.
    if (order.size() >= 2 && shorter.size() >= 2 && !shorter[0].empty() && !shorter[1].empty()) {
        std::swap(order[0], order[1]);
        if (Arranged swapped = arrange(order); swapped.kept > best.kept) best = std::move(swapped);
    }
    spec.markers = std::move(best.markers);
    if (!best.raised.empty()) spec.plotTopAtLeast = plot.y - area.y + size + 4;
    return best.raised;
}

// The labels of labelsAbovePlot's second row, each with its line drawn up to it.
void drawRaisedLabels(Figure& figure, const PlotFrame& frame,
                      const std::vector<RaisedLabel>& raised, const Theme& theme) {
    const Box& p = frame.plot;
    const float size = atLeastMinText(theme.fontSize * 0.9f, theme);
    const float height = size + 2;
    for (const RaisedLabel& label : raised) {
        const float x = frame.toPixel(label.value, frame.y.low).x;
        const float width = estimateTextWidth(label.text, size) + 4;
        const Box box{label.leftOfLine ? x - 8 - width : x, p.y - 2 * height - 6, width, height};
        figure.add(
            LineItem{{x, box.y}, {x, p.y}, label.color, strokeWidth(theme, 1.5f), label.dashed});
        figure.add(RectItem{box, withAlpha(theme.plotBackground, 215), {0, 0, 0, 0}, 1});
        figure.add(makeText({box.x + 2, box.y + 1}, label.text, size, label.color));
    }
}

// A usage map with its lines' labels above it.
void drawUsageMap(Figure& figure, Box area, HeatmapSpec spec, PairMarkers marks,
                  const Theme& theme) {
    spec.markers = std::move(marks.markers);
    const std::vector<RaisedLabel> raised = labelsAbovePlot(spec, marks.shorter, area, theme);
    PlotFrame frame;
    drawHeatmap(figure, area, spec, theme, &frame);
    drawRaisedLabels(figure, frame, raised, theme);
}

ValueRange rangeOf(const std::vector<double>& values) {
    double high = 0;
    for (double v : values) high = std::max(high, v);
    return {0, high > 0 ? high : 1};
}

void drawLayersHeatmap(Figure& figure, Box area, const RopeUsageData& data,
                       const RopeUsageViewParams& params, const Theme& theme) {
    HeatmapSpec spec;
    spec.title = "Mean usage over heads, per layer";
    spec.x = {"rotary pair i (fast → slow)", 0, double(data.usage.pairs), false, true};
    spec.y = {"layer", 0, double(data.usage.layers), false, true};
    spec.values = data.byLayer;
    spec.version = data.versions[0];
    spec.range = rangeOf(data.byLayer->values);
    spec.colorbarLabel = "|q_i| |k_i|";
    drawUsageMap(figure, area, std::move(spec), pairMarkers(data, params, theme), theme);
}

void drawLayerHeatmap(Figure& figure, Box area, const RopeUsageData& data,
                      const RopeUsageViewParams& params, const Theme& theme) {
    if (params.layer < 0 || params.layer >= int(data.byHead.size())) {
        drawNote(figure, area, usageOfLayer(data.usage, params.layer).error().message, theme);
        return;
    }
    HeatmapSpec spec;
    spec.title = "Layer " + std::to_string(params.layer) + ": usage per head";
    spec.x = {"rotary pair i (fast → slow)", 0, double(data.usage.pairs), false, true};
    spec.y = {"query head", 0, double(data.usage.heads), false, true};
    spec.values = data.byHead[std::size_t(params.layer)];
    spec.version = data.versions[std::size_t(params.layer) + 1];
    spec.range = rangeOf(spec.values->values);
    spec.colorbarLabel = "|q_i| |k_i|";
    drawUsageMap(figure, area, std::move(spec), pairMarkers(data, params, theme), theme);
}

void drawWavelengthPlot(Figure& figure, Box area, const RopeUsageData& data,
                        const RopeUsageViewParams& params, const Theme& theme) {
    LineSeries series;
    series.name = "mean over layers and heads";
    series.markers = data.usage.pairs <= 96;
    double low = std::numeric_limits<double>::infinity(), high = 0;
    for (int i = 0; i < data.usage.pairs; ++i) {
        const double lambda = data.wavelengths[std::size_t(i)];
        if (!std::isfinite(lambda)) continue;
        series.x.push_back(lambda);
        series.y.push_back(data.meanPerPair[std::size_t(i)]);
        low = std::min(low, lambda);
        high = std::max(high, lambda);
    }
    if (series.x.empty()) {
        drawNote(figure, area, "no rotating pair: every wavelength is infinite", theme);
        return;
    }
    LinePlotSpec spec;
    spec.title = "Mean usage against wavelength";
    spec.x = {"wavelength $2π/θ_i$ (tokens, log)", low / 1.5, std::max(high * 1.5, low * 2), true};
    spec.y = {"|q_i| |k_i|", 0, 1};
    spec.legend = false;
    spec.series.push_back(std::move(series));
    Marker context;
    context.value = double(data.trainingContext);
    context.label = "context " + std::to_string(data.trainingContext);
    context.color = theme.accent;
    context.shadeBeyond = true;
    if (context.value > spec.x.low && context.value < spec.x.high) spec.markers.push_back(context);
    const int kept = keptPairs(data, params.keepFraction);
    if (kept > 0 && kept < data.usage.pairs && std::isfinite(data.wavelengths[std::size_t(kept)])) {
        Marker cut;
        cut.value = std::sqrt(data.wavelengths[std::size_t(kept - 1)] *
                              data.wavelengths[std::size_t(kept)]);
        cut.label = "p-RoPE " + formatValue(params.keepFraction, 3) + " cut";
        cut.color = seriesColor(1);
        cut.dashed = false;
        spec.markers.push_back(cut);
    }
    drawLinePlot(figure, area, spec, theme);
}

std::string ropeSummary(const RopeUsageData& data) {
    return "head_dim " + std::to_string(data.rope.headDim) + ", " +
           std::to_string(data.usage.pairs * 2) + " rotated dims, base " +
           formatValue(data.rope.base, 7) + ", " + std::string(pairingName(data.rope.pairing)) +
           " pairs";
}

void drawNotes(Figure& figure, Box area, const RopeUsageData& data,
               const RopeUsageViewParams& params, const Theme& theme) {
    struct Paragraph {
        std::string text;
        Rgba color;
        float gapBefore = 0;  // line heights
    };
    const int kept = keptPairs(data, params.keepFraction);
    const double share = keptUsageShare(data.meanPerPair, params.keepFraction);
    const int incomplete = firstIncompletePair(data);
    const std::vector<Paragraph> paragraphs = {
        {data.model, theme.text},
        {ropeSummary(data), theme.mutedText},
        {"p-RoPE at p = " + formatValue(params.keepFraction, 3) + " keeps the fastest " +
             std::to_string(kept) + " of " + std::to_string(data.usage.pairs) +
             " pairs: " + formatValue(100 * share, 3) + "% of the mean usage; it drops " +
             formatValue(100 * (1 - share), 3) + "%.",
         theme.text},
        {std::to_string(data.usage.pairs - incomplete) + " pairs (from pair " +
             std::to_string(incomplete) + ") never complete a turn within the " +
             std::to_string(data.trainingContext) + "-token context (shaded).",
         theme.mutedText},
        {kRopeUsageWeightsOnly, theme.accent, 0.4f},
    };
    // Long lines wrap at word boundaries to the panel's width, at the largest size down to the
    // readable floor that shows every line: at 1024x768 the last lines of the weights-only
    // caution ran past the panel and were dropped without a mark.
    const float smallest =
        atLeastMinText(theme.fontSize * readableMinScale(theme.fontSize, theme), theme);
    std::vector<std::vector<std::string>> lines;
    float size = theme.fontSize;
    for (;; size = std::max(smallest, size - 0.5f)) {
        const float pad = size * 0.6f, lineHeight = size * 1.45f;
        float height = 2 * pad;
        lines.clear();
        for (const Paragraph& paragraph : paragraphs) {
            lines.push_back(wrapText(paragraph.text, size, area.width - 2 * pad));
            height += (paragraph.gapBefore + float(lines.back().size())) * lineHeight;
        }
        if (height <= area.height || size <= smallest) break;
    }
    const float pad = size * 0.6f, lineHeight = size * 1.45f;
    float y = area.y + pad;
    for (std::size_t p = 0; p < paragraphs.size(); ++p) {
        y += paragraphs[p].gapBefore * lineHeight;
        for (std::size_t i = 0; i < lines[p].size(); ++i) {
            if (y + lineHeight > area.bottom()) {
                // Even the floor holds no more: the last line drawn says that text follows.
                if (auto* last = figure.items.empty() ? nullptr
                                                      : std::get_if<TextItem>(&figure.items.back());
                    last && !last->text.empty())
                    last->text = fitText(last->text + " …", size, area.width - 2 * pad, 1).text;
                return;
            }
            figure.add(makeText({area.x + pad, y}, lines[p][i], size, paragraphs[p].color));
            y += lineHeight;
        }
    }
}

}  // namespace

int firstIncompletePair(const RopeUsageData& data) {
    for (int i = 0; i < data.usage.pairs; ++i) {
        if (data.wavelengths[std::size_t(i)] > double(data.trainingContext)) return i;
    }
    return data.usage.pairs;
}

int keptPairs(const RopeUsageData& data, double keepFraction) {
    return std::clamp(int(std::floor(keepFraction * data.usage.pairs)), 0, data.usage.pairs);
}

Result<RopeUsageData> ropeUsageData(const CheckpointAttention& attention,
                                    const QkRowSquares& rows) {
    RopeUsageData data;
    data.rope = attention.config.rope;
    const int rotated = rotatedDims(data.rope);
    auto usage = ropeUsage({rows.layers, rows.heads, rows.kvHeads, rows.headDim, rotated,
                            data.rope.pairing, &rows.query, &rows.key});
    if (!usage) return Error{attention.checkpoint.source + ": " + usage.error().message};
    data.usage = std::move(usage).value();
    auto freqs = ropeFrequencies(data.rope);
    if (!freqs) return Error{attention.configPath + ": " + freqs.error().message};
    data.wavelengths = ropeWavelengths(*freqs);
    data.wavelengths.resize(std::size_t(data.usage.pairs), std::numeric_limits<double>::infinity());
    data.trainingContext = originalMaxPositions(data.rope);
    const std::string type =
        attention.config.modelType.empty() ? "model" : attention.config.modelType;
    data.model = type + ": " + std::to_string(attention.layers) + " layers, " +
                 std::to_string(attention.heads) + " heads × " + std::to_string(attention.headDim) +
                 ", " + std::to_string(attention.kvHeads) + " KV heads";
    data.source = attention.checkpoint.source;
    data.notes = attention.notes;
    data.notes.insert(data.notes.begin(), attention.pairingSource);
    data.byLayer = std::make_shared<const Matrix>(usageByLayer(data.usage));
    data.versions.push_back(nextMatrixVersion());
    for (int l = 0; l < data.usage.layers; ++l) {
        data.byHead.push_back(std::make_shared<const Matrix>(usageOfLayer(data.usage, l).value()));
        data.versions.push_back(nextMatrixVersion());
    }
    data.meanPerPair = meanUsagePerPair(data.usage);
    return data;
}

Result<RopeUsageData> loadRopeUsage(const std::string& path, const AttentionOverrides& overrides,
                                    const ReadProgress& progress) {
    auto attention = describeCheckpointAttention(path, overrides);
    if (!attention) return attention.error();
    auto rows = readQkRowSquares(*attention, progress);
    if (!rows) return rows.error();
    return ropeUsageData(*attention, *rows);
}

Status validate(const RopeUsageViewParams& params, const RopeUsageData& data) {
    if (params.layer < 0 || params.layer >= data.usage.layers) {
        return Error{"--layer must be 0.." + std::to_string(data.usage.layers - 1) + " (got " +
                     std::to_string(params.layer) + ")"};
    }
    if (!(params.keepFraction > 0 && params.keepFraction <= 1)) {
        return Error{"--keep must be in (0, 1] (got " + formatValue(params.keepFraction, 6) + ")"};
    }
    return success();
}

namespace {

std::string ropeUsageTitle(const RopeUsageData& data) {
    return "Which RoPE frequencies " + data.model.substr(0, data.model.find(':')) +
           " uses, from its weights";
}

}  // namespace

PanelGrid ropeUsagePanels(Box area, const RopeUsageData& data, const Theme& theme, int selected) {
    return reflowOrFocus(belowTitleBand(area, ropeUsageTitle(data), theme), kRopeUsagePanels, theme,
                         selected);
}

void drawRopeUsage(Figure& figure, Box area, const RopeUsageData& data,
                   const RopeUsageViewParams& params, const Theme& theme, int selected) {
    drawTitleBand(figure, area, ropeUsageTitle(data), theme);
    const PanelGrid grid = ropeUsagePanels(area, data, theme, selected);
    figure.viewPanels = kRopeUsagePanels.count;  // --panel N: the GUI's panel N
    if (grid.shows(0)) drawLayersHeatmap(figure, grid.cell(0), data, params, theme);
    if (grid.shows(1)) drawLayerHeatmap(figure, grid.cell(1), data, params, theme);
    if (grid.shows(2)) drawWavelengthPlot(figure, grid.cell(2), data, params, theme);
    if (grid.shows(3)) drawNotes(figure, grid.cell(3), data, params, theme);
}

}  // namespace poslab
