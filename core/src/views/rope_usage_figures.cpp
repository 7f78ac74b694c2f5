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

// The p-RoPE cut and the context's first incomplete pair, then the wavelength decades: the order
// their labels claim the row above a heatmap (labelsAbovePlot).
std::vector<Marker> pairMarkers(const RopeUsageData& data, const RopeUsageViewParams& params,
                                const Theme& theme) {
    std::vector<Marker> markers;
    const int kept = keptPairs(data, params.keepFraction);
    if (kept > 0 && kept < data.usage.pairs) {
        Marker cut;
        cut.value = double(kept);
        cut.label = "p-RoPE " + formatValue(params.keepFraction, 3);
        cut.color = seriesColor(1);
        cut.dashed = false;
        markers.push_back(cut);
    }
    const int incomplete = firstIncompletePair(data);
    if (incomplete < data.usage.pairs) {
        Marker context;
        context.value = double(incomplete);
        context.label = "λ > context " + std::to_string(data.trainingContext);
        context.color = theme.accent;
        context.shadeBeyond = true;
        markers.push_back(context);
    }
    for (Marker& mark : wavelengthMarkers(data, theme)) markers.push_back(std::move(mark));
    if (kept > 0 && kept < data.usage.pairs && incomplete < kept) {
        // The cut's line once more, unlabelled, over the context's shading (drawn after it).
        Marker line = markers.front();
        line.label.clear();
        markers.push_back(line);
    }
    return markers;
}

// A heatmap is data everywhere inside, so its vertical lines' labels go in the row above the
// plot, each right or else left of its line (as drawMarkers places them there). Where the row
// has no room for a label beside the ones before it (the p-RoPE cut one pair from the context's
// line, a decade's label under either), the line stays and the label goes: inside the plot it
// hid the cells it names. The cut and the context keep theirs first; the notes panel says both.
void labelsAbovePlot(HeatmapSpec& spec, Box area, const Theme& theme) {
    const Box plot = measureHeatmap(area, spec, theme).plot;
    const double span = spec.x.high - spec.x.low;
    if (!(plot.width > 0) || !(span > 0)) return;
    const float size = atLeastMinText(theme.fontSize * 0.9f, theme);  // drawMarkers' labels
    constexpr float kGap = 2;
    std::vector<std::pair<float, float>> taken;  // [left, right] of the labels kept
    auto free = [&](float left, float right) {
        if (left < plot.x || right > plot.right()) return false;
        for (const auto& [l, r] : taken)
            if (left < r + kGap && right > l - kGap) return false;
        return true;
    };
    for (Marker& mark : spec.markers) {
        if (!mark.vertical || mark.label.empty()) continue;
        const float x = plot.x + float((mark.value - spec.x.low) / span) * plot.width;
        const float width = estimateTextWidth(mark.label, size) + 4;
        if (free(x, x + width)) {
            taken.push_back({x, x + width});
        } else if (free(x - 8 - width, x - 8)) {
            taken.push_back({x - 8 - width, x - 8});
        } else {
            mark.label.clear();
        }
    }
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
    spec.markers = pairMarkers(data, params, theme);
    labelsAbovePlot(spec, area, theme);
    drawHeatmap(figure, area, spec, theme);
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
    spec.markers = pairMarkers(data, params, theme);
    labelsAbovePlot(spec, area, theme);
    drawHeatmap(figure, area, spec, theme);
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
    const float size = theme.fontSize;
    const float lineHeight = size * 1.45f;
    const float pad = size * 0.6f;
    float y = area.y + pad;
    auto line = [&](const std::string& text, Rgba color) {
        // Long lines wrap at word boundaries to the panel's width.
        std::string rest = text;
        while (!rest.empty() && y + lineHeight <= area.bottom()) {
            std::size_t take = rest.size();
            while (take > 0 &&
                   estimateTextWidth(rest.substr(0, take), size) > area.width - 2 * pad) {
                const std::size_t space = rest.rfind(' ', take - 1);
                take = space == std::string::npos || space == 0 ? take - 1 : space;
            }
            if (take == 0) take = 1;
            figure.add(makeText({area.x + pad, y}, rest.substr(0, take), size, color));
            y += lineHeight;
            rest = rest.substr(take);
            while (!rest.empty() && rest.front() == ' ') rest.erase(0, 1);
        }
    };
    line(data.model, theme.text);
    line(ropeSummary(data), theme.mutedText);
    const int kept = keptPairs(data, params.keepFraction);
    const double share = keptUsageShare(data.meanPerPair, params.keepFraction);
    line("p-RoPE at p = " + formatValue(params.keepFraction, 3) + " keeps the fastest " +
             std::to_string(kept) + " of " + std::to_string(data.usage.pairs) +
             " pairs: " + formatValue(100 * share, 3) + "% of the mean usage; it drops " +
             formatValue(100 * (1 - share), 3) + "%.",
         theme.text);
    const int incomplete = firstIncompletePair(data);
    line(std::to_string(data.usage.pairs - incomplete) + " pairs (from pair " +
             std::to_string(incomplete) + ") never complete a turn within the " +
             std::to_string(data.trainingContext) + "-token context (shaded).",
         theme.mutedText);
    y += lineHeight * 0.4f;
    line(kRopeUsageWeightsOnly, theme.accent);
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
