#include "panels/t5_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "poslab/base/limits.hpp"
#include "state/ranges.hpp"
#include "ui/markup_text.hpp"
#include "ui/widgets.hpp"

namespace poslab::panels {

namespace {

int minimumBuckets(bool bidirectional) {
    return bidirectional ? 4 : 2;
}

// The bucket's covered distances, from the cached ranges ("" when no key reaches it).
std::string rangeTextOf(const std::vector<BucketRange>& ranges, int bucket) {
    for (const BucketRange& r : ranges) {
        if (r.bucket == bucket) return t5RangeText(r);
    }
    return "";
}

}  // namespace

T5Panel::CacheKey T5Panel::cacheKey(const T5FigureOptions& options) {
    const T5Params& p = options.params;
    return {p.seqLen,        p.numBuckets,         p.maxDistance,
            p.bidirectional, options.bucketBiases, options.biasSeed};
}

T5FigureOptions T5Panel::optionsFor(const state::T5ViewState& view) {
    T5FigureOptions options;
    T5Params& p = options.params;
    p.bidirectional = view.bidirectional;
    p.seqLen = std::clamp(view.seqLen, 1, kMaxGuiSeqLen);
    p.numBuckets = std::clamp(view.numBuckets, minimumBuckets(p.bidirectional), kMaxT5Buckets);
    p.maxDistance = std::clamp(view.maxDistance, t5MaxExact(p) + 1, kMaxSeqLen);
    options.biasSeed = std::uint64_t(std::max(0, view.biasSeed));
    if (view.bucketBiases.size() == std::size_t(p.numBuckets))
        options.bucketBiases = view.bucketBiases;
    return options;
}

void T5Panel::drawControls(state::AppState& state, ui::FrameContext&) {
    drawControls(state.t5);
}

void T5Panel::drawFigures(state::AppState& state, ui::FrameContext& context) {
    drawFigure(state.t5, context);
}

Figure T5Panel::exportFigure(const state::AppState& state, float width, float height,
                             const Theme& theme) const {
    Figure figure = emptyFigure(width, height, theme);
    if (auto status = drawT5Figure(figure, {0, 0, width, height}, optionsFor(state.t5), theme);
        !status) {
        drawNote(figure, {0, 0, width, height}, status.error().message, theme);
    }
    return figure;
}

Result<Matrix> T5Panel::exportData(const state::AppState& state) const {
    return t5BucketMatrix(optionsFor(state.t5).params);
}

void T5Panel::drawControls(state::T5ViewState& view) {
    ui::sectionHeader("T5 relative position buckets");
    ui::sliderInt(state::kT5SeqLenSlider, &view.seqLen,
                  "Rows (queries i) and columns (keys j) of the matrices.");
    view.numBuckets =
        std::clamp(view.numBuckets, minimumBuckets(view.bidirectional), kMaxT5Buckets);
    if (ui::sliderInt(
            state::kT5NumBucketsSlider, &view.numBuckets,
            ui::SliderBounds{minimumBuckets(view.bidirectional), kMaxT5Buckets},
            "relative_attention_num_buckets (T5: 32). Bidirectional: half for keys before "
            "the query, half for keys after. Half of each share are exact distances, the "
            "rest logarithmically wider.")) {
        view.bucketBiases.clear();  // edits belong to the old bucket count
    }
    T5Params shape;
    shape.bidirectional = view.bidirectional;
    shape.numBuckets = view.numBuckets;
    const int lowest = t5MaxExact(shape) + 1;
    view.maxDistance = std::clamp(view.maxDistance, lowest, kMaxGuiSeqLen);
    ui::sliderInt(
        state::kT5MaxDistanceViewSlider, &view.maxDistance, ui::SliderBounds{lowest, kMaxGuiSeqLen},
        "relative_attention_max_distance (T5: 128). Distances from here on share the last "
        "bucket: the model cannot tell them apart. Must exceed max_exact (half of one "
        "direction's buckets).");
    if (ImGui::Checkbox("bidirectional", &view.bidirectional)) view.bucketBiases.clear();
    ui::tooltipForLastItem(
        "On: encoder buckets (keys after the query get their own buckets). Off: "
        "decoder buckets, where every future key falls into bucket 0 (the causal "
        "mask hides them anyway).");
    if (ImGui::Button("T5 defaults")) {
        view.numBuckets = 32;
        view.maxDistance = 128;
        view.bucketBiases.clear();
    }
    ui::tooltipForLastItem("32 buckets, max_distance 128: the released T5 models' settings.");
    drawBucketEditor(view);
}

void T5Panel::drawBucketEditor(state::T5ViewState& view) {
    ImGui::Spacing();
    if (!ui::collapsingSection("Per-bucket bias values")) {
        ui::tooltipForLastItem(
            "One learned scalar per bucket (one head of relative_attention_bias). "
            "Seeded random by default; open to edit each value.");
        return;
    }
    const T5FigureOptions options = optionsFor(view);
    const int count = options.params.numBuckets;
    const bool edited = view.bucketBiases.size() == std::size_t(count);
    if (ui::inputInt("seed", &view.biasSeed,
                     "Seed of the N(0, 1) bucket values. Changing it discards edits."))
        view.bucketBiases.clear();
    if (ImGui::Button("Reseed")) {
        ++view.biasSeed;
        view.bucketBiases.clear();
    }
    ui::tooltipForLastItem("Draw new random values (seed + 1), discarding edits.");
    ImGui::SameLine();
    ImGui::BeginDisabled(!edited);
    if (ImGui::Button("Undo edits")) view.bucketBiases.clear();
    ImGui::EndDisabled();
    ui::tooltipForLastItem("Back to the seeded values.");
    ui::wrappedNote(edited ? "values edited by hand" : "values ~ N(0, 1) from the seed");

    const std::vector<double> shown = t5EffectiveBiases(options);
    const std::vector<BucketRange>& ranges =
        ranges_.get(options.params, [&] { return t5BucketRanges(options.params); });
    const float rowHeight = ImGui::GetFrameHeightWithSpacing();
    ImGui::BeginChild("bucket values", ImVec2(0, rowHeight * std::min(count, 12) + 8), true);
    ImGuiListClipper clipper;
    clipper.Begin(count);
    while (clipper.Step()) {
        for (int b = clipper.DisplayStart; b < clipper.DisplayEnd; ++b) {
            ImGui::PushID(b);
            double value = shown[std::size_t(b)];
            const std::string range = rangeTextOf(ranges, b);
            const std::string name = "b[" + std::to_string(b) + "]";
            const std::string tip = range.empty()
                                        ? "No relative position falls into this bucket."
                                        : "Bucket " + std::to_string(b) + ": relative positions " +
                                              range + " (key - query).";
            ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 3.5f);
            if (ui::inputDouble(name.c_str(), &value, 0.1, 1.0, "%.4f", tip.c_str()) &&
                std::isfinite(value)) {
                if (view.bucketBiases.size() != std::size_t(count)) view.bucketBiases = shown;
                view.bucketBiases[std::size_t(b)] = std::clamp(value, -1e6, 1e6);
            }
            ImGui::PopID();
        }
    }
    ImGui::EndChild();
}

void T5Panel::drawFigure(state::T5ViewState& view, ui::FrameContext& context) {
    const T5FigureOptions options = optionsFor(view);
    T5FigureFrames frames;
    const ui::Canvas canvas = cache_.showPanels(
        "t5", cacheKey(options), context,
        [](Box area, const Theme& theme, int panel) { return t5Panels(area, theme, panel); },
        [&](Box area, int panel) { return t5Layout(area, context.theme, panel); },
        // On a worker: the options are copied in.
        [options](const T5Layout& layout) { return computeT5FigureData(options, layout); },
        [&](Figure& figure, const T5Layout& layout, const T5FigureData& data,
            const CacheKey& made) {
            // Meanwhile the last data is drawn with the settings it was made for.
            T5FigureOptions drawn = options;
            std::tie(drawn.params.seqLen, drawn.params.numBuckets, drawn.params.maxDistance,
                     drawn.params.bidirectional, drawn.bucketBiases, drawn.biasSeed) = made;
            drawT5Figure(figure, layout, drawn, data, context.theme, &frames);
        });
    if (cache_.ok() && cache_.exact() && canvas.hovered) showTooltip(options, frames, canvas.mouse);
}

void T5Panel::showTooltip(const T5FigureOptions& options, const T5FigureFrames& frames,
                          Point mouse) const {
    const T5Params& p = options.params;
    const T5FigureData& data = cache_.data();
    auto bucketLines = [&](int relative) {
        const int bucket =
            t5RelativePositionBucket(relative, p.bidirectional, p.numBuckets, p.maxDistance);
        ImGui::Text("relative position j - i = %d", relative);
        ImGui::Text("bucket %d: covers j - i in %s", bucket,
                    rangeTextOf(data.ranges, bucket).c_str());
        ImGui::Text("bias b[%d] = %.6g", bucket, data.biases[std::size_t(bucket)]);
        const int share = p.bidirectional ? p.numBuckets / 2 : p.numBuckets;
        if (bucket % share < t5MaxExact(p)) {
            ImGui::TextDisabled("an exact bucket: one distance");
        } else {
            ImGui::TextDisabled("a logarithmic bucket: several distances share it");
        }
    };
    for (const PlotFrame* frame : {&frames.buckets, &frames.bias}) {
        if (!frame->plot.contains(mouse)) continue;
        const auto [x, y] = frame->toData(mouse);
        const int query = std::clamp(int(std::floor(y)), 0, p.seqLen - 1);
        const int key = std::clamp(int(std::floor(x)), 0, p.seqLen - 1);
        ImGui::BeginTooltip();
        ui::tooltipText("query i = %d, key j = %d", query, key);
        bucketLines(key - query);
        const HeatmapSample& sample = frame == &frames.buckets ? data.buckets : data.bias;
        if (sample.rowsPerTexel > 1 || sample.colsPerTexel > 1) {
            ImGui::TextDisabled(frame == &frames.buckets
                                    ? "zoomed out: a pixel shows the bucket of its centre cell"
                                    : "zoomed out: a pixel shows the mean of its cells");
        }
        ImGui::EndTooltip();
        return;
    }
    for (const PlotFrame* frame : {&frames.edges, &frames.biasCurve}) {
        if (!frame->plot.contains(mouse)) continue;
        const int relative = int(std::lround(frame->toData(mouse).first));
        ImGui::BeginTooltip();
        bucketLines(relative);
        ImGui::EndTooltip();
        return;
    }
}

}  // namespace poslab::panels
