#include "encodings/relative_panel.hpp"

#include <imgui.h>

#include <algorithm>

#include "poslab/base/limits.hpp"
#include "poslab/encodings/alibi.hpp"
#include "state/ranges.hpp"
#include "ui/widgets.hpp"

namespace poslab::encodings {

namespace {

// Keeps every head index inside its head count after a count slider moved.
void clampHeads(RelativeFigureOptions& o) {
    o.sandwich.head = std::clamp(o.sandwich.head, 0, o.sandwich.heads - 1);
    o.fire.head = std::clamp(o.fire.head, 0, o.fire.heads - 1);
    o.alibiHead = std::clamp(o.alibiHead, 0, o.alibiHeads - 1);
    o.xpos.headDim += o.xpos.headDim % 2;
    o.sandwich.headDim += o.sandwich.headDim % 2;
}

void xposControls(XposParams& p) {
    ui::sectionHeader("xPos (torchscale)");
    ui::sliderInt(state::kXposHeadDim, &p.headDim,
                  "d: rotary pairs (2i, 2i+1) interleaved, as torchscale's rotate_every_two.");
    ui::sliderDouble(state::kXposGamma, &p.gamma,
                     "zeta_i = (2i/d + gamma)/(1 + gamma): 0.4 in torchscale. Larger gamma, zeta "
                     "nearer 1, less decay.");
    ui::sliderDouble(
        state::kXposScaleBase, &p.scaleBase,
        "Queries scale by zeta^(n/scale_base), keys by zeta^(-m/scale_base): the decay "
        "is zeta^((n-m)/scale_base). torchscale: 512.");
    ui::sliderDouble(state::kXposBase, &p.base, "Rotation base, theta_i = base^(-2i/d).");
}

void kerpleControls(KerpleParams& p, const char* name, const state::DoubleRange& r1,
                    const state::DoubleRange& r2) {
    ui::sectionHeader(name);
    ImGui::PushID(name);
    const bool power = p.kernel == KerpleKernel::Power;
    ui::sliderDouble(r1, &p.r1,
                     "Scale outside the kernel. The authors' code clamps it to >= 0.01 before "
                     "every step (its name: bias_a in power, bias_p in log).");
    ui::sliderDouble(r2, &p.r2,
                     power ? "Exponent of |i-j|. The code clamps it to 0.01..2 (its name: bias_p). "
                             "r2 = 1 is ALiBi's linear bias."
                           : "Scale inside log(1 + r2 |i-j|). The code clamps it to >= 0.01 (its "
                             "name: bias_a).");
    if (kerpleClamped(p)) ImGui::TextDisabled("clamped as the authors' code does");
    ImGui::PopID();
}

void sandwichControls(SandwichParams& p) {
    ui::sectionHeader("Sandwich (NeMo)");
    ui::sliderInt(state::kSandwichHeadDim, &p.headDim,
                  "Width of the sinusoidal embeddings whose inner product is the bias.");
    ui::sliderInt(state::kSandwichHeads, &p.heads, "Head h (1-based) divides the kernel by 8h/H.");
    ui::sliderInt(state::kSandwichHead, &p.head, ui::SliderBounds{0, p.heads - 1},
                  "Which head's matrix is drawn (0-based; compression 8 (head+1)/heads).");
}

void fireControls(FireParams& p) {
    ui::sectionHeader("FIRE");
    ui::sliderDouble(state::kFireC, &p.c,
                     "psi(x) = log(c x + 1): larger c spreads nearby distances further apart. "
                     "Learned; initialised at 0.1.");
    ui::sliderDouble(state::kFireThreshold, &p.threshold,
                     "phi divides by psi(max(i, L)): queries before L share one scale. Learned; "
                     "initialised at 512.");
    ui::sliderInt(state::kFireMlpWidth, &p.mlpWidth, "Hidden units of the MLP phi -> bias.");
    ui::sliderInt(state::kFireHeads, &p.heads, "Outputs of the MLP, one per head.");
    ui::sliderInt(state::kFireHead, &p.head, ui::SliderBounds{0, p.heads - 1},
                  "Which head's bias is drawn.");
    int seed = int(std::min<std::uint64_t>(p.seed, 1u << 30));
    if (ui::inputInt("MLP seed", &seed,
                     "Seeds the stand-in MLP weights (torch's nn.Linear initialisation): the "
                     "shape of phi is FIRE's, the bias a trained MLP would learn."))
        p.seed = std::uint64_t(seed);
}

}  // namespace

void RelativePanel::drawControls(state::AppState& state, ui::FrameContext&) {
    state::RelativeViewState& view =
        state.plugins.get<state::RelativeViewState>(state::kRelativeKey);
    drawControls(view);
}

void RelativePanel::drawFigures(state::AppState& state, ui::FrameContext& context) {
    state::RelativeViewState& view =
        state.plugins.get<state::RelativeViewState>(state::kRelativeKey);
    const std::pair<RelativeTab, const char*> tabs[] = {{RelativeTab::Family, "Family"},
                                                        {RelativeTab::Xpos, "xPos"},
                                                        {RelativeTab::Kerple, "KERPLE"},
                                                        {RelativeTab::Sandwich, "Sandwich"},
                                                        {RelativeTab::Fire, "FIRE"}};
    ui::stateTabBar("relative tabs", tabs, &view.tab, &shownTab_);
    clampHeads(view.options);
    const RelativeTab tab = view.tab;
    cache_.showPanels(
        "relative", Key{tab, view.options}, context,
        [tab](float w, float h, const Theme& theme, int panel) {
            return reflowPanels({0, 0, w, h}, relativePanelShape(tab), theme, panel);
        },
        // While a slider moves, a coarse figure on this thread (its own memo); the exact one on
        // the worker once it holds still, so no worker competes with the frame for the cores.
        [options = view.options, tab, memo = &memo_, coarseMemo = &coarseMemo_](
            float w, float h, const Theme& theme, int panel, Detail detail) -> Result<Figure> {
            Figure figure = emptyFigure(w, h, theme);
            RelativeFigureMemo* kept = detail == Detail::Coarse ? coarseMemo : memo;
            if (auto s = drawRelativeFigure(figure, {0, 0, w, h}, options, tab, theme, panel, kept,
                                            detail);
                !s) {
                return s.error();
            }
            return figure;
        },
        true);
    if (!cache_.error().empty()) *context.statusMessage = cache_.error();
}

void RelativePanel::drawControls(state::RelativeViewState& view) {
    RelativeFigureOptions& o = view.options;
    ui::sectionHeader("Shared");
    ui::sliderInt(state::kRelativeSeqLen, &o.seqLen,
                  "L: rows (queries i) and columns (keys j) of every matrix, and the reach of the "
                  "distance axes. Sampled to the pixels: 65,536 stays live.");
    ui::sliderInt(state::kRelativeTraining, &o.trainingLength,
                  "Marked on the distance axes: distances past it were never seen in training.");
    switch (view.tab) {
        case RelativeTab::Family:
            ImGui::Checkbox("log distance axis", &o.logDistance);
            ui::tooltipForLastItem("Distances on a log axis (from 1): each decade as wide.");
            ui::sliderDouble(state::kRelativeBiasFloor, &o.biasFloor,
                             "Curves are cut where they fall below this (ALiBi falls fastest).");
            ui::sliderInt(state::kRelativeAlibiHeads, &o.alibiHeads,
                          "fairseq slopes for this many heads.");
            ui::sliderInt(state::kRelativeAlibiHead, &o.alibiHead,
                          ui::SliderBounds{0, o.alibiHeads - 1},
                          "Which head's slope the ALiBi curve uses (0: the steepest).");
            ImGui::TextWrapped(
                "Each curve minus its value at distance 0 (softmax ignores a constant per "
                "row). xPos: log of its mean decay; RoPE: log of RoFormer's bound. The other "
                "tabs set each member's parameters.");
            break;
        case RelativeTab::Xpos:
            xposControls(o.xpos);
            break;
        case RelativeTab::Kerple:
            kerpleControls(o.kerplePower, "KERPLE power -r1 |i-j|^r2", state::kKerplePowerR1,
                           state::kKerplePowerR2);
            kerpleControls(o.kerpleLog, "KERPLE log -r1 log(1 + r2 |i-j|)", state::kKerpleLogR1,
                           state::kKerpleLogR2);
            break;
        case RelativeTab::Sandwich:
            sandwichControls(o.sandwich);
            break;
        case RelativeTab::Fire:
            fireControls(o.fire);
            break;
    }
    clampHeads(o);
    ImGui::Spacing();
    if (ImGui::Button("Defaults")) o = RelativeFigureOptions{};
    ui::tooltipForLastItem("The reference codes' defaults for every member.");
}

Figure RelativePanel::exportFigure(const state::AppState& state, float width, float height,
                                   const Theme& theme) const {
    Figure figure = emptyFigure(width, height, theme);
    const auto& view = state.plugins.get<state::RelativeViewState>(state::kRelativeKey);
    if (auto s = drawRelativeFigure(figure, {0, 0, width, height}, view.options, view.tab, theme);
        !s) {
        drawNote(figure, {0, 0, width, height}, s.error().message, theme);
    }
    return figure;
}

Result<Matrix> RelativePanel::exportData(const state::AppState& state) const {
    const auto& view = state.plugins.get<state::RelativeViewState>(state::kRelativeKey);
    const RelativeFigureOptions& o = view.options;
    switch (view.tab) {
        case RelativeTab::Xpos:
            return xposScoreMatrix(o.xpos, o.seqLen);
        case RelativeTab::Kerple:
            return kerpleBiasMatrix(o.kerplePower, o.seqLen);
        case RelativeTab::Sandwich:
            return sandwichBiasMatrix(o.sandwich, o.seqLen);
        case RelativeTab::Fire:
            return fireBiasMatrix(o.fire, o.seqLen);
        case RelativeTab::Family:
            break;
    }
    return kerpleBiasMatrix(o.kerpleLog, o.seqLen);
}

}  // namespace poslab::encodings
