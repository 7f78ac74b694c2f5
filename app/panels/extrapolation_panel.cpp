#include "panels/extrapolation_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <numbers>

#include "poslab/views/extrapolation_family_figures.hpp"
#include "poslab/views/extrapolation_figures.hpp"
#include "state/ranges.hpp"
#include "ui/session.hpp"
#include "ui/widgets.hpp"

namespace poslab::panels {

void ExtrapolationPanel::drawControls(state::AppState& state, ui::FrameContext&) {
    ExtrapolationOptions& o = state.extrapolation.options;
    ui::sectionHeader("Lengths");
    if (ui::sliderInt(state::kExtrapolationTraining, &o.trainingLength,
                      "Positions the model saw in training (marked; beyond it is shaded).")) {
        o.evaluationLength = std::max(o.evaluationLength, o.trainingLength + 1);
    }
    if (ui::sliderInt(state::kExtrapolationUsed, &o.evaluationLength,
                      "Positions used now. The RoPE scalings use factor = used / training.")) {
        o.trainingLength = std::min(o.trainingLength, o.evaluationLength - 1);
    }
    if (ImGui::Button("x2"))
        o.evaluationLength = std::min(state::kExtrapolationUsed.high, 2 * o.trainingLength);
    ImGui::SameLine();
    if (ImGui::Button("x4"))
        o.evaluationLength = std::min(state::kExtrapolationUsed.high, 4 * o.trainingLength);
    ImGui::SameLine();
    if (ImGui::Button("x16"))
        o.evaluationLength = std::min(state::kExtrapolationUsed.high, 16 * o.trainingLength);
    ui::tooltipForLastItem("Use 2, 4 or 16 times the training length.");
    ui::sectionHeader("Encodings");
    ui::sliderInt(state::kExtrapolationDModel, &o.dModel,
                  "Width of the sinusoidal and learned tables.");
    if (ui::sliderInt(state::kExtrapolationHeadDim, &o.headDim,
                      "RoPE dimensions per head (even).")) {
        o.headDim += o.headDim % 2;
    }
    ui::sliderDouble(
        state::kExtrapolationRopeBase, &o.ropeBase,
        "rope_theta. A larger base slows every pair: more pairs never complete a turn.");
    if (o.set == ExtrapolationSet::RelativeFamily) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled(
            "Relative family: RoPE's head_dim and base set xPos and the RoPE bound; "
            "KERPLE, Sandwich, FIRE and DeBERTa use the Relative view's defaults.");
        ImGui::PopTextWrapPos();
    }
    ui::sliderInt(state::kAlibiHeadsSlider, &o.alibiHeads,
                  "Heads; their slopes follow fairseq's get_slopes.");
    ui::sliderInt(state::kT5BucketsSlider, &o.t5Buckets, "relative_attention_num_buckets.");
    ui::sliderInt(state::kT5MaxDistanceSlider, &o.t5MaxDistance,
                  "relative_attention_max_distance: every distance beyond shares the last bucket.");
}

void ExtrapolationPanel::drawFigures(state::AppState& state, ui::FrameContext& context) {
    ExtrapolationOptions& o = state.extrapolation.options;
    const std::pair<ExtrapolationSet, const char*> tabs[] = {
        {ExtrapolationSet::Textbook, "Textbook encodings"},
        {ExtrapolationSet::RelativeFamily, "Relative family"}};
    ui::stateTabBar("extrapolation sets", tabs, &o.set, &shownSet_);
    figure_.showPanels(
        "extrapolation", state.extrapolation, context,
        [o](float w, float h, const Theme& theme, int panel) {
            return extrapolationPanels(w, h, theme, panel, o);
        },
        [o](float w, float h, const Theme& theme, int panel, Detail) {
            return extrapolationFigure(o, w, h, theme, panel);
        });
}

Figure ExtrapolationPanel::exportFigure(const state::AppState& state, float width, float height,
                                        const Theme& theme) const {
    auto figure = extrapolationFigure(state.extrapolation.options, width, height, theme);
    if (figure) return std::move(figure).value();
    Figure note = emptyFigure(width, height, theme);
    drawNote(note, {0, 0, width, height}, figure.error().message, theme);
    return note;
}

// The tab's own numbers: the Relative family's curves against distance
// (relativeExtrapolationTable), or for the textbook tab RoPE's per-pair table: pair, wavelength,
// angle at the training length, then the angle at the used length unscaled and with each scaling.
Result<Matrix> ExtrapolationPanel::exportData(const state::AppState& state) const {
    const ExtrapolationOptions& o = state.extrapolation.options;
    if (auto s = validate(o); !s) return s.error();
    if (o.set == ExtrapolationSet::RelativeFamily) return relativeExtrapolationTable(o);
    RopeParams rope;
    rope.headDim = o.headDim;
    rope.base = o.ropeBase;
    rope.trainingLength = o.trainingLength;
    rope.seqLen = o.evaluationLength;
    auto plain = unscaledFrequencies(rope);
    if (!plain) return plain.error();
    const std::size_t pairs = plain->inverse.size();
    Matrix table(pairs, 8);
    const RopeScaling types[] = {RopeScaling::None, RopeScaling::Linear, RopeScaling::Ntk,
                                 RopeScaling::Yarn, RopeScaling::Llama3};
    for (std::size_t i = 0; i < pairs; ++i) {
        table(i, 0) = double(i);
        table(i, 1) = 2 * std::numbers::pi / plain->inverse[i];
        table(i, 2) = plain->inverse[i] * (o.trainingLength - 1);
    }
    for (std::size_t t = 0; t < std::size(types); ++t) {
        RopeParams scaled = rope;
        scaled.scaling.type = types[t];
        scaled.scaling.factor =
            types[t] == RopeScaling::None ? 1 : double(o.evaluationLength) / o.trainingLength;
        scaled.scaling.originalMaxPositions = o.trainingLength;
        auto freqs = ropeFrequencies(scaled);
        if (!freqs) return freqs.error();
        for (std::size_t i = 0; i < pairs; ++i)
            table(i, 3 + t) = freqs->inverse[i] * (o.evaluationLength - 1);
    }
    return table;
}

}  // namespace poslab::panels
