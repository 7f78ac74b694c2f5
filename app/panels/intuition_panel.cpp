#include "panels/intuition_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "poslab/analysis/intuition.hpp"
#include "poslab/views/intuition_figures.hpp"
#include "state/ranges.hpp"
#include "ui/session.hpp"
#include "ui/widgets.hpp"

namespace poslab::panels {

namespace {

// The words of `sentence` in the order `permutation` gives.
std::string reorderedText(const std::vector<std::string>& words,
                          const std::vector<int>& permutation) {
    std::string text;
    for (int i : permutation) text += (text.empty() ? "" : " ") + words[std::size_t(i)];
    return text;
}

}  // namespace

void IntuitionPanel::prepare(state::AppState& state, ui::FrameContext& context) {
    state::IntuitionViewState& view = state.intuition;
    const LinearShiftOptions& shift = view.shift;
    // Evenly spaced positions past kShiftCheckSamples: the figure has no more pixels. Coarse:
    // a sixteenth of them, while the shift moves.
    shownShift_ = shiftNumbers_.get(
        shift,
        [](const LinearShiftOptions& o, Detail detail, const std::atomic<bool>&) {
            const int samples =
                detail == Detail::Coarse ? kShiftCheckSamples / 16 : kShiftCheckSamples;
            return ShiftNumbers{sampledShiftCheck(o.sinusoidal, o.shift, o.positions, samples),
                                o.sinOnly ? sineOnlyShiftFit(o.sinusoidal, o.shift, o.positions,
                                                             samples, kSineOnlyRidge)
                                          : Result<SineOnlyShiftFit>(Error{"not asked for"})};
        },
        true);
    if (!shownShift_.exact && view.figure == state::IntuitionFigure::LinearShift)
        context.waiting = context.animating = true;  // screenshots: the exact check
    comparison_.get(view.attention, [&] { return compareShuffle(view.attention); });
    resolution_.get(view.frequencies, [&] {
        // The shared-pair slider moves only the one-frequency curve: the standard table's
        // distances (N offsets x d/2 pairs) are reused from the last result.
        const auto* last = resolution_.value();
        const FrequencyResolution* previous = last && **last ? &***last : nullptr;
        return std::make_shared<const Result<FrequencyResolution>>(
            frequencyResolution(view.frequencies, previous));
    });
}

void IntuitionPanel::drawControls(state::AppState& state, ui::FrameContext&) {
    state::IntuitionViewState& view = state.intuition;
    drawControls(view);
}

void IntuitionPanel::drawFigures(state::AppState& state, ui::FrameContext& context) {
    state::IntuitionViewState& view = state.intuition;
    const std::pair<state::IntuitionFigure, const char*> tabs[] = {
        {state::IntuitionFigure::AttentionShuffle, "Why position"},
        {state::IntuitionFigure::BinaryClock, "Binary clock"},
        {state::IntuitionFigure::LinearShift, "Linear shift"},
        {state::IntuitionFigure::FrequencyResolution, "Frequencies"}};
    ui::stateTabBar("intuition figures", tabs, &view.figure, &shownTab_);
    switch (view.figure) {
        case state::IntuitionFigure::AttentionShuffle:
            attention_.show(
                "attention shuffle", view.attention, context,
                [&](float w, float h, const Theme& theme) -> Result<Figure> {
                    if (!comparison()) return comparison().error();
                    Figure figure = emptyFigure(w, h, theme);
                    // One line: the word grid below needs the height more than
                    // the title its second line (a projector's 1008 x 552).
                    const float titleHeight = attentionShuffleTitleBand(w, h, theme);
                    drawTitle(figure, {0, 0, w, titleHeight}, kAttentionShuffleTitle, theme);
                    drawAttentionShuffle(figure, {8, titleHeight, w - 16, h - titleHeight - 4},
                                         *comparison(), view.attention, theme);
                    return figure;
                });
            break;
        case state::IntuitionFigure::BinaryClock:
            clock_.showPanels(
                "binary clock", view.clock, context,
                [](float w, float h, const Theme& theme, int panel) {
                    return binaryClockPanels(w, h, theme, panel);
                },
                [&](float w, float h, const Theme& theme, int panel) {
                    return binaryClockFigure(view.clock, w, h, theme, panel);
                });
            break;
        case state::IntuitionFigure::LinearShift:
            // Three parts: on a projector one at a time (Up/Down), at full text size.
            shift_.showPanels(
                "linear shift", ShiftFigureKey{view.shift, shownShift_.version}, context,
                [&view](float w, float h, const Theme& theme, int panel) {
                    // The band linearShiftFigure keeps: two lines at full size where they fit.
                    const float titleHeight =
                        titleBandHeight(theme, linearShiftTitle(view.shift), w, h);
                    return linearShiftPanels({0, titleHeight, w, h - titleHeight}, theme, panel);
                },
                [&](float w, float h, const Theme& theme, int panel) -> Result<Figure> {
                    if (!check()) return check().error();
                    if (view.shift.sinOnly && !fit()) return fit().error();
                    Figure figure = emptyFigure(w, h, theme);
                    const std::string title = linearShiftTitle(view.shift);
                    const float titleHeight = titleBandHeight(theme, title, w, h);
                    drawTitle(figure, {0, 0, w, titleHeight}, title, theme);
                    const Box area{0, titleHeight, w, h - titleHeight};
                    const Status s =
                        view.shift.sinOnly
                            ? drawSineOnlyShift(figure, area, view.shift, *check(), *fit(), theme,
                                                panel)
                            : drawLinearShift(figure, area, view.shift, *check(), theme, panel);
                    if (!s) return s.error();
                    return figure;
                });
            break;
        case state::IntuitionFigure::FrequencyResolution:
            // Two plots: on a projector one at a time (Up/Down), at full text size.
            frequencies_.showPanels(
                "frequency resolution", view.frequencies, context,
                [](float w, float h, const Theme& theme, int panel) {
                    return frequencyResolutionFigurePanels(w, h, theme, panel);
                },
                // Built on a worker (two curves of N offsets enveloped per pixel column, a
                // legend placed clear of them): the shared-pair slider rebuilt it every frame
                // here. While a slider moves, a coarse one on this thread: its curves at a
                // quarter of the columns, a quarter of the strokes to rasterise (CPU 23.0 ->
                // 16.6 ms a frame). The numbers are this frame's, shared, not copied.
                [resolution = *resolution_.value(), params = view.frequencies](
                    float w, float h, const Theme& theme, int panel,
                    Detail detail) -> Result<Figure> {
                    if (!*resolution) return resolution->error();
                    Figure figure = emptyFigure(w, h, theme);
                    const std::string title =
                        "Why many frequencies: one frequency repeats itself, a ladder of them "
                        "keeps positions apart";
                    const float titleHeight = titleBandHeight(theme, title, w);
                    drawTitle(figure, {0, 0, w, titleHeight}, title, theme);
                    drawFrequencyResolution(figure, {0, titleHeight, w, h - titleHeight},
                                            **resolution, params, theme, panel,
                                            detail == Detail::Coarse);
                    return figure;
                },
                true);
            break;
    }
}

void IntuitionPanel::drawControls(state::IntuitionViewState& view) {
    switch (view.figure) {
        case state::IntuitionFigure::AttentionShuffle:
            drawAttentionControls(view.attention);
            return;
        case state::IntuitionFigure::LinearShift:
            drawShiftControls(view.shift);
            return;
        case state::IntuitionFigure::FrequencyResolution:
            drawFrequencyControls(view.frequencies);
            return;
        case state::IntuitionFigure::BinaryClock:
            break;
    }
    BinaryClockOptions& c = view.clock;
    ui::sectionHeader("Binary clock");
    ui::sliderInt(state::kClockBitsRange, &c.bits,
                  "Bits of the position counter shown (curves for the first six).");
    ui::sliderInt(state::kClockPositionsRange, &c.positions,
                  "Positions 0..N-1 in the heatmaps (curves show up to 64).");
    ui::sectionHeader("Sinusoidal table beside it");
    ui::sliderInt(state::kClockSinusoidalDModel, &c.sinusoidal.dModel,
                  "Width of the sinusoidal table.");
    ui::sliderDouble(
        state::kSinusoidalBaseSlider, &c.sinusoidal.base,
        "Frequency base. The fastest pair always has wavelength 2π ≈ 6.3 positions: no "
        "sinusoid is as fast as bit 0 (period 2).");
    ImGui::Spacing();
    ui::wrappedNote(
        "Counting in binary, bit b flips every 2^b positions. The sinusoidal table is the "
        "smooth version: each pair is a 'bit' turning at its own rate, fastest first, "
        "with continuous values instead of 0/1 — so nearby positions get nearby vectors.");
}

void IntuitionPanel::drawAttentionControls(ToyAttentionParams& p) {
    ui::sectionHeader("Sentence");
    const std::string before = p.sentence;
    ImGui::SetNextItemWidth(-1);
    ui::inputString("##sentence", &p.sentence);
    ui::tooltipForLastItem(
        "The sentence, 2..16 words split at spaces. Each word gets a fixed random vector seeded "
        "by the word itself (case ignored): 'The' and 'the' are the same token.");
    if (p.sentence != before) {
        // A reordering of the old words no longer fits: offer a shuffle of the new ones.
        const std::vector<std::string> words = splitWords(p.sentence);
        if (!p.shuffled.empty() && !matchPermutation(words, splitWords(p.shuffled)) &&
            words.size() >= 2 && words.size() <= std::size_t(kMaxToyWords)) {
            p.shuffled = reorderedText(words, seededPermutation(int(words.size()), p.shuffleSeed));
        }
    }
    ImGui::TextDisabled("reordered:");
    ImGui::SetNextItemWidth(-1);
    ui::inputString("##shuffled", &p.shuffled);
    ui::tooltipForLastItem(
        "The same words in another order (any case). Leave it empty for a seeded shuffle.");
    const std::vector<std::string> words = splitWords(p.sentence);
    const bool sentenceOk = words.size() >= 2 && words.size() <= std::size_t(kMaxToyWords);
    if (ImGui::Button("shuffle") && sentenceOk) {
        ++p.shuffleSeed;
        p.shuffled = reorderedText(words, seededPermutation(int(words.size()), p.shuffleSeed));
    }
    ui::tooltipForLastItem(
        "A new random order of the sentence's words (seeded, never the same order).");
    ImGui::SameLine();
    if (ImGui::Button("reverse") && sentenceOk) {
        std::vector<int> order(words.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = int(order.size() - 1 - i);
        p.shuffled = reorderedText(words, order);
    }
    ui::tooltipForLastItem(
        "The words backwards. ALiBi's symmetric bias −m|i − j| cannot tell this order from the "
        "original: distances between positions stay the same.");
    ImGui::SameLine();
    if (ImGui::Button("same order") && sentenceOk) p.shuffled = p.sentence;
    ui::tooltipForLastItem("No reordering at all: every deviation is zero.");

    ui::sectionHeader("Position signal");
    const std::pair<ToyPosition, const char*> choices[] = {
        {ToyPosition::None, "Nothing: the head sees a bag of words."},
        {ToyPosition::Sinusoidal, "The sinusoidal table added to the word vectors."},
        {ToyPosition::Learned, "A seeded random table (std 1) added, as a trained one would be."},
        {ToyPosition::Rope, "RoPE: q and k rotated by an angle proportional to the position."},
        {ToyPosition::Alibi, "ALiBi: −½|i − j| added to each score (no vectors change)."}};
    for (const auto& [value, help] : choices) {
        if (ImGui::RadioButton(std::string(toyPositionName(value)).c_str(), p.position == value))
            p.position = value;
        ui::tooltipForLastItem(help);
        if (value != ToyPosition::Learned && value != ToyPosition::Alibi) ImGui::SameLine();
    }
    ui::sectionHeader("Head");
    if (ui::sliderInt(state::kToyDModel, &p.dModel,
                      "Width of the word vectors and of q, k, v (even)."))
        p.dModel = std::clamp(p.dModel + p.dModel % 2, 2, kMaxToyDModel);
    ui::seedSlider(state::kWeightsSeedSlider, &p.seed,
                   "Seed of W_q, W_k, W_v (and the learned table): other fixed random weights.");
    if (p.position == ToyPosition::Sinusoidal || p.position == ToyPosition::Rope)
        ui::sliderDouble(state::kSinusoidalBaseSlider, &p.base,
                         "Frequency base of the table / RoPE.");

    ui::sectionHeader("Outputs merely permuted?");
    if (!comparison()) {
        ui::errorText(comparison().error().message);
        return;
    }
    ImGui::Text("max deviation %.3g", comparison()->outputDeviation);
    ImGui::TextDisabled("attention: %.3g, outputs up to %.3g", comparison()->attentionDeviation,
                        comparison()->outputScale);
    ui::wrappedNote(
        comparison()->outputDeviation < 1e-12
            ? "Zero: each word's output is the same in both orders, only moved. Attention "
              "alone treats the sentence as a set; pick a position signal."
            : "Not zero: the same word gets a different output in the other order, so "
              "the model can tell the two sentences apart.");
}

void IntuitionPanel::drawShiftControls(LinearShiftOptions& s) {
    s.shownDims = std::clamp(s.shownDims, 2, std::max(2, std::min(64, s.sinusoidal.dModel)));
    ui::sectionHeader("Shift");
    ui::sliderDouble(
        state::kShiftAmount, &s.shift,
        "The shift: T_k maps PE(p) to PE(p + k) for every p at once. Fractional and negative "
        "shifts work too.");
    ui::sliderInt(state::kShiftPosition, &s.position, "The position whose vector is drawn.");
    const std::string checkedHelp = "The residual is checked for p = 0..N-1: every p up to " +
                                    std::to_string(kShiftCheckSamples) +
                                    ", else that many evenly spaced (0 and N-1 included).";
    ui::sliderInt(state::kShiftChecked, &s.positions, checkedHelp.c_str());
    ImGui::Checkbox("sine only", &s.sinOnly);
    ui::tooltipForLastItem(
        "Drop the cosine columns and look for the best matrix T with T·s(p) ≈ s(p + k) by least "
        "squares. sin ω(p+k) = cos ωk·sin ωp + sin ωk·cos ωp needs cos ωp, so no matrix can.");
    ui::sectionHeader("Table");
    if (ui::sliderInt(
            state::kShiftDModel, &s.sinusoidal.dModel,
            "Width of the table. Try an odd value: the lone sine column has no cosine partner "
            "and cannot be shifted linearly.")) {
        s.shownDims = std::min(s.shownDims, std::max(2, s.sinusoidal.dModel));
    }
    ui::sliderDouble(state::kSinusoidalBaseSlider, &s.sinusoidal.base, "Frequency base.");
    ui::comboEnum(
        "layout", &s.sinusoidal.layout,
        std::vector{SinusoidalLayout::Interleaved, SinusoidalLayout::Concat,
                    SinusoidalLayout::Tensor2Tensor},
        layoutName,
        "Interleaved puts each 2x2 rotation on the diagonal; concat spreads it into four blocks.");
    ui::sliderInt(state::kShiftShownDims, &s.shownDims, ui::SliderBounds{2, s.sinusoidal.dModel},
                  "The top-left corner of T_k drawn.");
    ui::sectionHeader("Check");
    if (!check()) {
        ui::errorText(check().error().message);
        return;
    }
    ImGui::Text("max residual %.3g", check()->maxResidual);
    ImGui::TextDisabled("at p = %d, dimension %d", check()->worstPosition, check()->worstColumn);
    if (!check()->everyPosition()) {
        ImGui::TextDisabled("over %zu evenly spaced p of %d", check()->positions.size(),
                            check()->checkedOf);
    }
    ui::wrappedNote(check()->maxResidual < 1e-9
                        ? (check()->everyPosition()
                               ? "Rounding error only: T_k·PE(p) = PE(p + k) holds for every p."
                               : "Rounding error only: T_k·PE(p) = PE(p + k) holds at every p "
                                 "checked.")
                        : "Not zero: an odd d_model's lone sine column cannot be moved by a "
                          "linear map (it would need cos(ωp), which the vector lacks).");
    if (!s.sinOnly) return;
    if (!fit()) {
        ui::errorText(fit().error().message);
        return;
    }
    ImGui::Text("sine only: max %.3g, rms %.3g", fit()->maxResidual, fit()->rmsResidual);
    ui::wrappedNote(
        "The best matrix on the sines alone still misses by about |sin ωk| in the fast "
        "components: the cosines it would need are gone.");
}

void IntuitionPanel::drawFrequencyControls(FrequencyResolutionParams& r) {
    ui::sectionHeader("Table");
    if (ui::sliderInt(state::kResolutionDModel, &r.dModel, "Width of the table (even)."))
        r.dModel = std::clamp(r.dModel + r.dModel % 2, 2, kMaxResolutionDModel);
    ui::sliderDouble(state::kSinusoidalBaseSlider, &r.base,
                     "Frequency base: wavelengths run from 2π to 2π·base.");
    ui::sliderInt(state::kResolutionPositions, &r.positions,
                  "Positions 0..N-1 compared: offsets D = 1..N-1.");
    r.sharedPair = std::clamp(r.sharedPair, 0, r.dModel / 2 - 1);
    ui::sectionHeader("One shared frequency");
    ui::sliderInt(state::kResolutionPair, &r.sharedPair, ui::SliderBounds{0, r.dModel / 2 - 1},
                  "The collapsed table gives every pair this pair's frequency. 0 is the fastest "
                  "(wavelength 2π); the last is the slowest.");
    if (!resolution()) {
        ui::errorText(resolution().error().message);
        return;
    }
    const FrequencyResolution& f = *resolution();
    ImGui::TextDisabled("wavelength %.4g positions", 2 * std::numbers::pi / f.sharedFrequency);
    ui::sectionHeader("Closest two positions");
    ImGui::Text("standard: %.3g at D = %d", f.standardMinimum, f.standardMinimumOffset);
    ImGui::Text("one frequency: %.3g at D = %d", f.sharedMinimum, f.sharedMinimumOffset);
    const std::string colliding = std::to_string(f.collidingPairs) +
                                  " position pairs of the one-frequency table are closer than "
                                  "the standard's closest two.";
    ui::wrappedNote(colliding.c_str());
    ui::wrappedNote(
        "One frequency repeats every wavelength: positions a wavelength apart get nearly the same "
        "vector (a fast one), or neighbours do (a slow one). The ladder of frequencies keeps "
        "both apart: fast pairs separate neighbours, slow pairs far positions.");
}

Figure IntuitionPanel::exportFigure(const state::AppState& state, float width, float height,
                                    const Theme& theme) const {
    const state::IntuitionViewState& view = state.intuition;
    switch (view.figure) {
        case state::IntuitionFigure::AttentionShuffle:
            return figureOrNote(attentionShuffleFigure(view.attention, width, height, theme), width,
                                height, theme);
        case state::IntuitionFigure::LinearShift:
            return figureOrNote(linearShiftFigure(view.shift, width, height, theme), width, height,
                                theme);
        case state::IntuitionFigure::FrequencyResolution:
            return figureOrNote(frequencyResolutionFigure(view.frequencies, width, height, theme),
                                width, height, theme);
        case state::IntuitionFigure::BinaryClock:
            break;
    }
    return figureOrNote(binaryClockFigure(view.clock, width, height, theme), width, height, theme);
}

Result<Matrix> IntuitionPanel::exportData(const state::AppState& state) const {
    const state::IntuitionViewState& view = state.intuition;
    switch (view.figure) {
        case state::IntuitionFigure::AttentionShuffle: {
            auto c = compareShuffle(view.attention);  // the sentence's attention weights, n x n
            if (!c) return c.error();
            return c->original.weights;
        }
        case state::IntuitionFigure::LinearShift:
            if (view.shift.sinOnly) {  // the least-squares map on the sines, m x m
                auto fit =
                    sineOnlyShiftFit(view.shift.sinusoidal, view.shift.shift, view.shift.positions,
                                     kShiftCheckSamples, kSineOnlyRidge);
                if (!fit) return fit.error();
                return fit->map;
            }
            return shiftMatrix(view.shift.sinusoidal, view.shift.shift);  // T_k, d x d
        case state::IntuitionFigure::FrequencyResolution:
            return sharedFrequencyTable(view.frequencies);  // N x d, one frequency
        case state::IntuitionFigure::BinaryClock:
            break;
    }
    return binaryTable(view.clock.positions, view.clock.bits);
}

}  // namespace poslab::panels
