#include "panels/alibi_panel.hpp"

#include <tuple>

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "poslab/base/limits.hpp"
#include "state/ranges.hpp"
#include "ui/markup_text.hpp"
#include "ui/widgets.hpp"

namespace poslab::panels {

AlibiPanel::CacheKey AlibiPanel::cacheKey(const AlibiFigureOptions& o) {
    return {o.heads,      o.seqLen,      o.symmetric,    o.enlargedHead,
            o.queryIndex, o.previewKeys, o.contentScale, o.contentSeed};
}

AlibiFigureOptions AlibiPanel::optionsFor(const state::AlibiViewState& view) {
    AlibiFigureOptions options;
    options.heads = std::clamp(view.heads, 1, kMaxAlibiHeads);
    options.seqLen = std::clamp(view.seqLen, 1, kMaxGuiSeqLen);
    options.symmetric = view.symmetric;
    options.enlargedHead = std::clamp(view.enlargedHead, 0, options.heads - 1);
    options.queryIndex = std::clamp(view.queryIndex, 0, options.seqLen - 1);
    options.previewKeys = std::clamp(view.previewKeys, 0, options.seqLen);
    options.contentScale = view.randomContent ? std::clamp(view.contentScale, 0.0, 100.0) : 0.0;
    options.contentSeed = std::uint64_t(std::max(0, view.contentSeed));
    options.colormap = view.colormap;
    return options;
}

void AlibiPanel::drawControls(state::AppState& state, ui::FrameContext&) {
    drawControls(state.plugins.get<state::AlibiViewState>(state::kAlibiKey));
}

void AlibiPanel::drawFigures(state::AppState& state, ui::FrameContext& context) {
    drawFigure(state.plugins.get<state::AlibiViewState>(state::kAlibiKey), context);
}

Figure AlibiPanel::exportFigure(const state::AppState& state, float width, float height,
                                const Theme& theme) const {
    Figure figure = emptyFigure(width, height, theme);
    if (auto status = drawAlibiFigure(
            figure, {0, 0, width, height},
            optionsFor(state.plugins.get<state::AlibiViewState>(state::kAlibiKey)), theme);
        !status) {
        drawNote(figure, {0, 0, width, height}, status.error().message, theme);
    }
    return figure;
}

Result<Matrix> AlibiPanel::exportData(const state::AppState& state) const {
    const AlibiFigureOptions options =
        optionsFor(state.plugins.get<state::AlibiViewState>(state::kAlibiKey));
    AlibiParams params;
    params.heads = options.heads;
    params.head = options.enlargedHead;
    params.seqLen = options.seqLen;
    params.symmetric = options.symmetric;
    return alibiBias(params);
}

void AlibiPanel::drawControls(state::AlibiViewState& view) {
    ui::sectionHeader("ALiBi");
    ui::sliderInt(
        kAlibiHeadsParam, &view.heads,
        "Number of attention heads. The slopes are fairseq's get_slopes(n): a geometric "
        "sequence 2^(-8/n), 2^(-16/n), ... for a power of two; other counts take the "
        "nearest power of two and fill up with every other slope of twice as many heads.");
    const bool lastRow = view.queryIndex >= view.seqLen - 1;
    if (ui::sliderInt(state::kAlibiSeqLenSlider, &view.seqLen,
                      "Rows (queries i) and columns (keys j) of each bias matrix.")) {
        if (lastRow) view.queryIndex = view.seqLen - 1;  // keep following the last row
    }
    int form = view.symmetric ? 1 : 0;
    if (ImGui::RadioButton("causal", &form, 0)) view.symmetric = false;
    ui::tooltipForLastItem(
        "Decoder form: bias -m·(i - j) for keys j <= i; future keys are masked "
        "(drawn in the masked colour, not a colour of the scale).");
    ImGui::SameLine();
    if (ImGui::RadioButton("symmetric", &form, 1)) view.symmetric = true;
    ui::tooltipForLastItem("Encoder form: bias -m·|i - j| for every key, nothing masked.");
    view.enlargedHead = std::clamp(view.enlargedHead, 0, std::max(0, view.heads - 1));
    ui::sliderInt(state::kAlibiEnlargedHead, &view.enlargedHead,
                  ui::SliderBounds{0, view.heads - 1},
                  "The head drawn large. Or click a head in the grid.");

    ui::sectionHeader("Attention preview");
    view.queryIndex = std::clamp(view.queryIndex, 0, std::max(0, view.seqLen - 1));
    ui::sliderInt(state::kAlibiQueryRow, &view.queryIndex, ui::SliderBounds{0, view.seqLen - 1},
                  "The query i whose attention is previewed: softmax over keys j of "
                  "(content logit + bias), once per head.");
    view.previewKeys = std::clamp(view.previewKeys, 0, view.seqLen);
    // 0 means every key: the slider says "all" instead of a count.
    ui::sliderInt(state::kAlibiPreviewKeys, &view.previewKeys, ui::SliderBounds{0, view.seqLen},
                  "How many keys the preview shows, ending at the query (centred on it when "
                  "symmetric). All by default; fewer helps with long sequences.",
                  view.previewKeys == 0 ? "all" : "%d");
    ImGui::Checkbox("random content logits", &view.randomContent);
    ui::tooltipForLastItem(
        "Off: content logits are all zero, so the attention comes from position "
        "alone. On: every key gets a logit scale * N(0, 1) from the seed (the same "
        "for every head), and the bias then tilts it toward recent keys.");
    if (view.randomContent) {
        ui::inputInt("seed", &view.contentSeed,
                     "Seed of the content logits: the same seed gives the same logits.");
        ui::sliderDouble(
            state::kAlibiContentScale, &view.contentScale,
            "Standard deviation of the content logits. Compare it with the slopes: a "
            "head whose bias changes by less than this over the sequence mostly follows "
            "content.");
    }

    ui::sectionHeader("Display");
    ui::comboEnum("colormap", &view.colormap, allColormaps(), colormapName,
                  "Colour scale of the bias matrices and of the attention weights.");
    ImGui::Spacing();
    ui::wrappedNote("Click a head to enlarge it.");
    ui::wrappedNote("Hover any figure for exact values.");  // wrapped: cut at 480x320
}

void AlibiPanel::drawFigure(state::AlibiViewState& view, ui::FrameContext& context) {
    const AlibiFigureOptions options = optionsFor(view);
    AlibiFigureFrames frames;
    const ui::Canvas canvas = cache_.showPanels(
        "alibi", cacheKey(options), context,
        [](Box area, const Theme& theme, int panel) { return alibiPanels(area, theme, panel); },
        [&](Box area, int panel) { return alibiLayout(area, options, context.theme, panel); },
        // On a worker (128 heads' samples and a query row over L = 65,536): options copied in.
        // The bias heatmaps are kept while only the query row or the content moves.
        [options, biasCache = biasCache_](const AlibiLayout& layout) {
            return computeAlibiFigureData(options, layout, biasCache.get());
        },
        // The attention preview, which follows the query row, is a figure of its own over the
        // rest, so the grid's 128 heatmaps and titles are copied while the row moves.
        [&](Figure& figure, const AlibiLayout& layout, const AlibiFigureData& data,
            const CacheKey& made, Figure* preview) {
            // Meanwhile the last data is drawn with the settings it was made for.
            AlibiFigureOptions drawn = options;
            std::tie(drawn.heads, drawn.seqLen, drawn.symmetric, drawn.enlargedHead,
                     drawn.queryIndex, drawn.previewKeys, drawn.contentScale, drawn.contentSeed) =
                made;
            drawAlibiFigure(figure, layout, drawn, data, context.theme, &frames, preview);
        });
    if (!cache_.ok() || !cache_.exact() || !canvas.hovered) return;

    const int head = frames.headAt(canvas.mouse);
    if (head >= 0) {
        ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
        if (canvas.clicked) view.enlargedHead = head;
    }
    showTooltip(view, frames, canvas.mouse);
}

void AlibiPanel::showTooltip(const state::AlibiViewState& view, const AlibiFigureFrames& frames,
                             Point mouse) const {
    const AlibiFigureOptions options = optionsFor(view);
    const int length = options.seqLen;
    const bool causal = !options.symmetric;
    const AlibiFigureData& data = cache_.data();
    auto biasLines = [&](int head, int query, int key) {
        const double slope = data.slopes[std::size_t(head)];
        ImGui::Text("head %d: slope m = %s = %.6g", head, alibiSlopeText(slope).c_str(), slope);
        ImGui::Text("query i = %d, key j = %d", query, key);
        if (causal && key > query) {
            ImGui::TextUnformatted("masked: a future key (bias -inf, attention 0)");
        } else {
            const double value = alibiBiasValue(slope, query, key, options.symmetric);
            ImGui::Text("bias = -m·%s%d%s = %.6g", causal ? "(" : "|", std::abs(query - key),
                        causal ? ")" : "|", value);
        }
    };

    // Grid cells and the enlarged head: which cell of the L x L matrix is under the mouse.
    const int head = frames.headAt(mouse);
    if (head >= 0) {
        const Box& cell = frames.cells[std::size_t(head)];
        const int query = std::clamp(int((mouse.y - cell.y) / cell.height * length), 0, length - 1);
        const int key = std::clamp(int((mouse.x - cell.x) / cell.width * length), 0, length - 1);
        ImGui::BeginTooltip();
        biasLines(head, query, key);
        const HeatmapSample& sample = data.heads[std::size_t(head)];
        if (sample.rowsPerTexel > 1) {
            ImGui::TextDisabled(
                "the small map shows means of %lld x %lld cells (masked cells "
                "left out)",
                sample.rowsPerTexel, sample.colsPerTexel);
        }
        ImGui::TextDisabled("click to enlarge");
        ImGui::EndTooltip();
        return;
    }
    if (frames.enlarged.plot.contains(mouse)) {
        const auto [x, y] = frames.enlarged.toData(mouse);
        ImGui::BeginTooltip();
        biasLines(options.enlargedHead, std::clamp(int(std::floor(y)), 0, length - 1),
                  std::clamp(int(std::floor(x)), 0, length - 1));
        if (data.enlarged.rowsPerTexel > 1 || data.enlarged.colsPerTexel > 1) {
            ImGui::TextDisabled(
                "zoomed out: a pixel is the mean of %lld x %lld cells, masked "
                "cells left out",
                data.enlarged.rowsPerTexel, data.enlarged.colsPerTexel);
        }
        ImGui::EndTooltip();
        return;
    }
    if (frames.slopes.plot.contains(mouse)) {
        const int h =
            std::clamp(int(std::lround(frames.slopes.toData(mouse).first)), 0, options.heads - 1);
        const double slope = data.slopes[std::size_t(h)];
        ImGui::BeginTooltip();
        ui::tooltipText("head %d: m = %s = %.8g", h, alibiSlopeText(slope).c_str(), slope);
        ui::tooltipText("bias falls by %.4g per position of distance", slope);
        ui::tooltipText("attention to a key 10 back: x%.4g of the query's own (no content)",
                        std::exp(-10 * slope));
        ImGui::EndTooltip();
        return;
    }
    if (frames.attention.plot.contains(mouse)) {
        const auto [x, y] = frames.attention.toData(mouse);
        const int h = std::clamp(int(std::floor(y)), 0, options.heads - 1);
        const int key = std::clamp(int(std::floor(x)), 0, length - 1);
        const int query = alibiQueryIndex(options);
        const double slope = data.slopes[std::size_t(h)];
        // One softmax row, recomputed for the exact value under the mouse (the texels may be
        // block means).
        auto row =
            alibiAttentionRow(slope, query, length,
                              alibiContentLogits(length, options.contentScale, options.contentSeed),
                              options.symmetric);
        ImGui::BeginTooltip();
        ui::tooltipText("head %d (m = %s), query %d, key %d", h, alibiSlopeText(slope).c_str(),
                        query, key);
        if (causal && key > query) {
            ImGui::TextUnformatted("masked: a future key gets no attention");
        } else if (row) {
            ui::tooltipText("attention weight %.6g", (*row)[std::size_t(key)]);
            ui::tooltipText("bias %.6g", alibiBiasValue(slope, query, key, options.symmetric));
        }
        if (data.attention.colsPerTexel > 1 || data.attention.rowsPerTexel > 1) {
            ui::tooltipTextDisabled("a pixel is the mean of %lld heads x %lld keys",
                                    data.attention.rowsPerTexel, data.attention.colsPerTexel);
        }
        ImGui::EndTooltip();
    }
}

}  // namespace poslab::panels
