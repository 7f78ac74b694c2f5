#include "panels/intuition_panel.hpp"

#include <imgui.h>

#include <algorithm>

#include "poslab/analysis/intuition.hpp"
#include "poslab/views/intuition_figures.hpp"
#include "state/ranges.hpp"
#include "ui/session.hpp"
#include "ui/widgets.hpp"

namespace poslab::ui {

void IntuitionPanel::draw(AppState& state, FrameContext& context) {
    IntuitionViewState& view = state.intuition;
    if (checkKey_ != view.shift) {
        checkKey_ = view.shift;
        // Evenly spaced positions past kShiftCheckSamples: the figure has no more pixels.
        check_ = sampledShiftCheck(view.shift.sinusoidal, view.shift.shift, view.shift.positions);
    }
    panelLayout(
        state, context, [&] { drawControls(view); },
        [&] {
            const std::pair<IntuitionFigure, const char*> tabs[] = {
                {IntuitionFigure::BinaryClock, "Binary clock"},
                {IntuitionFigure::LinearShift, "Linear shift"}};
            stateTabBar("intuition figures", tabs, &view.figure, &shownTab_);
            if (view.figure == IntuitionFigure::BinaryClock) {
                clock_.showPanels(
                    "binary clock", view.clock, context,
                    [](float w, float h, const Theme& theme, int panel) {
                        return binaryClockPanels(w, h, theme, panel);
                    },
                    [&](float w, float h, const Theme& theme, int panel) {
                        return binaryClockFigure(view.clock, w, h, theme, panel);
                    });
            } else {
                shift_.show(
                    "linear shift", view.shift, context,
                    [&](float w, float h, const Theme& theme) -> Result<Figure> {
                        if (!check_) return check_.error();
                        Figure figure = emptyFigure(w, h, theme);
                        const float titleHeight = theme.titleSize * 1.8f;
                        drawTitle(figure, {0, 0, w, titleHeight},
                                  "Linear shift: one block-diagonal matrix T_k moves every PE(p) "
                                  "to PE(p + k)",
                                  theme);
                        if (auto s = drawLinearShift(figure, {0, titleHeight, w, h - titleHeight},
                                                     view.shift, *check_, theme);
                            !s) {
                            return s.error();
                        }
                        return figure;
                    });
            }
        });
}

void IntuitionPanel::drawControls(IntuitionViewState& view) {
    if (view.figure == IntuitionFigure::BinaryClock) {
        BinaryClockOptions& c = view.clock;
        sectionHeader("Binary clock");
        sliderInt("bits", &c.bits, kClockBitsRange.low, kClockBitsRange.high,
                  "Bits of the position counter shown (curves for the first six).");
        sliderInt("positions", &c.positions, kClockPositionsRange.low, kClockPositionsRange.high,
                  "Positions 0..N-1 in the heatmaps (curves show up to 64).", true);
        sectionHeader("Sinusoidal table beside it");
        sliderInt("d_model", &c.sinusoidal.dModel, 2, 1024, "Width of the sinusoidal table.", true);
        sliderDouble(
            "base", &c.sinusoidal.base, 1.0001, 1e7, "%.6g",
            "Frequency base. The fastest pair always has wavelength 2π ≈ 6.3 positions: no "
            "sinusoid is as fast as bit 0 (period 2).",
            true);
        ImGui::Spacing();
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled(
            "Counting in binary, bit b flips every 2^b positions. The sinusoidal table is the "
            "smooth version: each pair is a 'bit' turning at its own rate, fastest first, "
            "with continuous values instead of 0/1 — so nearby positions get nearby vectors.");
        ImGui::PopTextWrapPos();
        return;
    }
    LinearShiftOptions& s = view.shift;
    s.shownDims = std::clamp(s.shownDims, 2, std::max(2, std::min(64, s.sinusoidal.dModel)));
    sectionHeader("Shift");
    sliderDouble(
        "k", &s.shift, -200, 200, "%.2f",
        "The shift: T_k maps PE(p) to PE(p + k) for every p at once. Fractional and negative "
        "shifts work too.");
    sliderInt("p", &s.position, 0, 4096, "The position whose vector is drawn.", true);
    const std::string checkedHelp = "The residual is checked for p = 0..N-1: every p up to " +
                                    std::to_string(kShiftCheckSamples) +
                                    ", else that many evenly spaced (0 and N-1 included).";
    sliderInt("checked", &s.positions, 1, 65536, checkedHelp.c_str(), true);
    sectionHeader("Table");
    if (sliderInt(
            "d_model", &s.sinusoidal.dModel, 1, 512,
            "Width of the table. Try an odd value: the lone sine column has no cosine partner "
            "and cannot be shifted linearly.",
            true)) {
        s.shownDims = std::min(s.shownDims, std::max(2, s.sinusoidal.dModel));
    }
    sliderDouble("base", &s.sinusoidal.base, 1.0001, 1e7, "%.6g", "Frequency base.", true);
    comboEnum(
        "layout", &s.sinusoidal.layout,
        std::vector{SinusoidalLayout::Interleaved, SinusoidalLayout::Concat,
                    SinusoidalLayout::Tensor2Tensor},
        layoutName,
        "Interleaved puts each 2x2 rotation on the diagonal; concat spreads it into four blocks.");
    sliderInt("dims shown", &s.shownDims, 2, std::max(2, std::min(64, s.sinusoidal.dModel)),
              "The top-left corner of T_k drawn.");
    sectionHeader("Check");
    if (check_) {
        ImGui::Text("max residual %.3g", check_->maxResidual);
        ImGui::TextDisabled("at p = %d, dimension %d", check_->worstPosition, check_->worstColumn);
        if (!check_->everyPosition()) {
            ImGui::TextDisabled("over %zu evenly spaced p of %d", check_->positions.size(),
                                check_->checkedOf);
        }
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled(
            "%s", check_->maxResidual < 1e-9
                      ? (check_->everyPosition()
                             ? "Rounding error only: T_k·PE(p) = PE(p + k) holds for every p."
                             : "Rounding error only: T_k·PE(p) = PE(p + k) holds at every p "
                               "checked.")
                      : "Not zero: an odd d_model's lone sine column cannot be moved by a "
                        "linear map (it would need cos(ωp), which the vector lacks).");
        ImGui::PopTextWrapPos();
    } else {
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "%s", check_.error().message.c_str());
    }
}

Figure IntuitionPanel::exportFigure(const AppState& state, float width, float height,
                                    const Theme& theme) const {
    const IntuitionViewState& view = state.intuition;
    return figureOrNote(view.figure == IntuitionFigure::BinaryClock
                      ? binaryClockFigure(view.clock, width, height, theme)
                      : linearShiftFigure(view.shift, width, height, theme),
                  width, height, theme);
}

Result<Matrix> IntuitionPanel::exportData(const AppState& state) const {
    const IntuitionViewState& view = state.intuition;
    if (view.figure == IntuitionFigure::BinaryClock)
        return binaryTable(view.clock.positions, view.clock.bits);
    return shiftMatrix(view.shift.sinusoidal, view.shift.shift);  // T_k, d x d
}

}  // namespace poslab::ui
