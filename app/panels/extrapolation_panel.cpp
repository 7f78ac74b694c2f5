#include "panels/extrapolation_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <numbers>

#include "poslab/views/extrapolation_figures.hpp"
#include "state/ranges.hpp"
#include "ui/session.hpp"
#include "ui/widgets.hpp"

namespace poslab::ui {

void ExtrapolationPanel::draw(AppState& state, FrameContext& context) {
    ExtrapolationOptions& o = state.extrapolation.options;
    panelLayout(
        state, context,
        [&] {
            sectionHeader("Lengths");
            if (sliderInt("training length", &o.trainingLength, 16, 65536,
                          "Positions the model saw in training (marked; beyond it is shaded).",
                          true)) {
                o.evaluationLength = std::max(o.evaluationLength, o.trainingLength + 1);
            }
            if (sliderInt("used length", &o.evaluationLength, 17, 262144,
                          "Positions used now. The RoPE scalings use factor = used / training.",
                          true)) {
                o.trainingLength = std::min(o.trainingLength, o.evaluationLength - 1);
            }
            if (ImGui::Button("x2")) o.evaluationLength = std::min(262144, 2 * o.trainingLength);
            ImGui::SameLine();
            if (ImGui::Button("x4")) o.evaluationLength = std::min(262144, 4 * o.trainingLength);
            ImGui::SameLine();
            if (ImGui::Button("x16")) o.evaluationLength = std::min(262144, 16 * o.trainingLength);
            tooltipForLastItem("Use 2, 4 or 16 times the training length.");
            sectionHeader("Encodings");
            sliderInt("d_model", &o.dModel, 2, 1024, "Width of the sinusoidal and learned tables.",
                      true);
            if (sliderInt("RoPE head_dim", &o.headDim, 4, 1024, "RoPE dimensions per head (even).",
                          true)) {
                o.headDim += o.headDim % 2;
            }
            sliderDouble(
                "RoPE base", &o.ropeBase, 1.0001, 1e8, "%.6g",
                "rope_theta. A larger base slows every pair: more pairs never complete a turn.",
                true);
            if (o.set == ExtrapolationSet::RelativeFamily) {
                ImGui::PushTextWrapPos(0);
                ImGui::TextDisabled(
                    "Relative family: RoPE's head_dim and base set xPos and the RoPE bound; "
                    "KERPLE, Sandwich, FIRE and DeBERTa use the Relative view's defaults.");
                ImGui::PopTextWrapPos();
            }
            sliderInt("ALiBi heads", &o.alibiHeads, kAlibiHeadsRange.low, kAlibiHeadsRange.high,
                      "Heads; their slopes follow fairseq's get_slopes.", true);
            sliderInt("T5 buckets", &o.t5Buckets, 4, 256, "relative_attention_num_buckets.", true);
            sliderInt(
                "T5 max distance", &o.t5MaxDistance, 8, 4096,
                "relative_attention_max_distance: every distance beyond shares the last bucket.",
                true);
        },
        [&] {
            const std::pair<ExtrapolationSet, const char*> tabs[] = {
                {ExtrapolationSet::Textbook, "Textbook encodings"},
                {ExtrapolationSet::RelativeFamily, "Relative family"}};
            stateTabBar("extrapolation sets", tabs, &o.set, &shownSet_);
            figure_.showPanels(
                "extrapolation", state.extrapolation, context,
                [](float w, float h, const Theme& theme, int panel) {
                    return extrapolationPanels(w, h, theme, panel);
                },
                [&](float w, float h, const Theme& theme, int panel) {
                    return extrapolationFigure(o, w, h, theme, panel);
                });
        });
}

Figure ExtrapolationPanel::exportFigure(const AppState& state, float width, float height,
                                        const Theme& theme) const {
    auto figure = extrapolationFigure(state.extrapolation.options, width, height, theme);
    if (figure) return std::move(figure).value();
    Figure note = emptyFigure(width, height, theme);
    drawNote(note, {0, 0, width, height}, figure.error().message, theme);
    return note;
}

Result<Matrix> ExtrapolationPanel::exportData(const AppState& state) const {
    const ExtrapolationOptions& o = state.extrapolation.options;
    if (auto s = validate(o); !s) return s.error();
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

}  // namespace poslab::ui
