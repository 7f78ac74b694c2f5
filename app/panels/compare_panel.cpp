#include "panels/compare_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "poslab/encodings/alibi.hpp"
#include "poslab/encodings/t5_bias.hpp"
#include "poslab/io/hf_config.hpp"
#include "state/ranges.hpp"
#include "ui/session.hpp"
#include "ui/widgets.hpp"

namespace poslab::panels {

namespace {

// One side of the A/B comparison, read from the state (config files are read here, each time the
// figure is rebuilt: a file edited on disk shows up on the next change).
Result<RopeConfiguration> configuration(const state::CompareViewState& view, int side) {
    const state::RopeSideState& s = side == 0 ? view.a : view.b;
    const std::string letter = side == 0 ? "A" : "B";
    RopeConfiguration config;
    if (s.useConfig) {
        auto loaded = loadHfConfig(s.configPath);
        if (!loaded) return Error{letter + ": " + loaded.error().message};
        config.rope = loaded->rope;
        std::string name = s.configPath;
        const auto slash = name.find_last_of('/');
        if (slash != std::string::npos && slash > 0) {
            const auto previous = name.find_last_of('/', slash - 1);
            name = name.substr(previous == std::string::npos ? 0 : previous + 1);
        }
        config.label = letter + ": " + (loaded->modelType.empty() ? name : loaded->modelType) +
                       " (base " + formatValue(loaded->rope.base, 6) +
                       (loaded->rope.scaling.type != RopeScaling::None
                            ? ", " + std::string(scalingName(loaded->rope.scaling.type)) + " x" +
                                  formatValue(loaded->rope.scaling.factor, 4)
                            : std::string()) +
                       ")";
    } else {
        config.rope.base = s.base;
        config.rope.headDim = view.headDim;
        config.rope.trainingLength = view.trainingLength;
        config.label = letter + ": base " + formatValue(s.base, 6);
    }
    return config;
}

// The sliders of a relative-family member shown in a bias slot: the Relative view's descriptors
// (state/ranges.hpp), so limits, defaults and session keys are the same in both views. xPos's
// head_dim and base are the shared d_model and base above; FIRE's MLP takes the shared seed.
void relativeMemberControls(CompareOptions& o, CompareBias bias) {
    ImGui::PushID(int(bias));
    switch (bias) {
        case CompareBias::KerplePower:
            ui::sliderDouble(state::kKerplePowerR1, &o.kerplePower.r1,
                             "Scale outside the kernel -r1 |i-j|^r2 (clamped to >= 0.01 as the "
                             "authors' code does).");
            ui::sliderDouble(
                state::kKerplePowerR2, &o.kerplePower.r2,
                "Exponent of |i-j|, clamped to 0.01..2. r2 = 1 is ALiBi's linear bias.");
            break;
        case CompareBias::KerpleLog:
            ui::sliderDouble(state::kKerpleLogR1, &o.kerpleLog.r1,
                             "Scale outside -r1 log(1 + r2 |i-j|) (clamped to >= 0.01).");
            ui::sliderDouble(state::kKerpleLogR2, &o.kerpleLog.r2,
                             "Scale inside the log (clamped to >= 0.01).");
            break;
        case CompareBias::Sandwich:
            if (ui::sliderInt(
                    state::kSandwichHeadDim, &o.sandwich.headDim,
                    "Width of the sinusoidal embeddings whose inner product is the bias.")) {
                o.sandwich.headDim += o.sandwich.headDim % 2;
            }
            ui::sliderInt(state::kSandwichHeads, &o.sandwich.heads,
                          "Head h (1-based) divides by 8h/H.");
            o.sandwich.head = std::clamp(o.sandwich.head, 0, o.sandwich.heads - 1);
            ui::sliderInt(state::kSandwichHead, &o.sandwich.head,
                          ui::SliderBounds{0, o.sandwich.heads - 1},
                          "Which head is drawn (0-based; compression 8 (head+1)/heads).");
            break;
        case CompareBias::Fire:
            ui::sliderDouble(state::kFireC, &o.fire.c,
                             "psi(x) = log(c x + 1). Learned; initialised at 0.1.");
            ui::sliderDouble(state::kFireThreshold, &o.fire.threshold,
                             "phi divides by psi(max(i, L)). Learned; initialised at 512.");
            ui::sliderInt(state::kFireMlpWidth, &o.fire.mlpWidth,
                          "Hidden units of the MLP phi -> bias.");
            ui::sliderInt(state::kFireHeads, &o.fire.heads, "Outputs of the MLP, one per head.");
            o.fire.head = std::clamp(o.fire.head, 0, o.fire.heads - 1);
            ui::sliderInt(state::kFireHead, &o.fire.head, ui::SliderBounds{0, o.fire.heads - 1},
                          "Which head's bias is drawn.");
            break;
        case CompareBias::Xpos:
            ui::sliderDouble(state::kXposGamma, &o.xposGamma,
                             "zeta_i = (2i/d + gamma)/(1 + gamma): 0.4 in torchscale.");
            ui::sliderDouble(state::kXposScaleBase, &o.xposScaleBase,
                             "The decay zeta^((n-m)/scale_base). torchscale: 512.");
            break;
        case CompareBias::Alibi:
        case CompareBias::T5:
        case CompareBias::Deberta:
            break;
    }
    ImGui::PopID();
}

Result<Figure> abFigure(const state::CompareViewState& view, float width, float height,
                        const Theme& theme, int panel = 0, Detail detail = Detail::Exact,
                        AbCurveCache* curves = nullptr) {
    auto a = configuration(view, 0);
    if (!a) return a.error();
    auto b = configuration(view, 1);
    if (!b) return b.error();
    return abComparisonFigure(*a, *b, view.maxOffset, width, height, theme, panel,
                              detail == Detail::Coarse ? kAbCoarseSamples : kAbExactSamples,
                              curves);
}

}  // namespace

void ComparePanel::drawControls(state::AppState& state, ui::FrameContext&) {
    state::CompareViewState& view = state.compare;
    drawControls(view);
}

void ComparePanel::drawFigures(state::AppState& state, ui::FrameContext& context) {
    state::CompareViewState& view = state.compare;
    const std::pair<state::CompareMode, const char*> tabs[] = {
        {state::CompareMode::AllEncodings, "All encodings"},
        {state::CompareMode::RopeAB, "RoPE A/B"}};
    ui::stateTabBar("compare modes", tabs, &view.mode, &shownTab_);
    if (view.mode == state::CompareMode::AllEncodings) {
        all_.showPanels(
            "all encodings", view.options, context,
            [options = view.options](float w, float h, const Theme& theme, int panel) {
                return comparisonFigurePanels(options, w, h, theme, panel);
            },
            [options = view.options](float w, float h, const Theme& theme, int panel, Detail) {
                return comparisonFigure(options, w, h, theme, panel);
            });
    } else {
        ab_.showPanels(
            "rope ab", view, context,
            [&view](float w, float h, const Theme& theme, int panel) {
                auto a = configuration(view, 0), b = configuration(view, 1);  // the title's labels
                return abComparisonPanels(a && b ? abComparisonTitle(*a, *b) : std::string(), w, h,
                                          theme, panel);
            },
            // Exact: 16 offsets per pixel column for both curves (~40 ms at head_dim 1024 and
            // 65,536 offsets), which a worker rebuilt back to back while a base moved, taking a
            // core from the frame. While a control moves, 2 per column on this thread; the
            // exact figure on a worker once it holds still. The side that holds keeps its
            // curve (abCurves_), so a moving base costs one curve a frame, not two.
            [view, curves = abCurves_](float w, float h, const Theme& theme, int panel,
                                       Detail detail) {
                return abFigure(view, w, h, theme, panel, detail, curves.get());
            },
            true);
        if (!ab_.error().empty()) *context.statusMessage = ab_.error();
    }
}

void ComparePanel::drawControls(state::CompareViewState& view) {
    if (view.mode == state::CompareMode::AllEncodings) {
        CompareOptions& o = view.options;
        ui::sectionHeader("Shared settings");
        if (ui::sliderInt(state::kCompareDModel, &o.dModel,
                          "Width of every vector encoding (RoPE: head_dim).")) {
            o.dModel += o.dModel % 2;
        }
        ui::sliderInt(state::kCompareSeqLen, &o.seqLen, "Sequence length for every encoding.");
        ui::sliderDouble(state::kSinusoidalBaseSlider, &o.base,
                         "Sinusoidal and RoPE frequency base.");
        ui::sectionHeader("Bias encodings");
        static constexpr CompareBias kBiases[] = {CompareBias::Alibi,       CompareBias::T5,
                                                  CompareBias::KerplePower, CompareBias::KerpleLog,
                                                  CompareBias::Sandwich,    CompareBias::Fire,
                                                  CompareBias::Xpos,        CompareBias::Deberta};
        ui::comboEnum("first bias", &o.biasA, kBiases, compareBiasLabel,
                      "The fourth heatmap and the first bias curve. A relative-family member gets "
                      "its own sliders below; DeBERTa shows c2p + p2c of a seeded head.");
        ui::comboEnum("second bias", &o.biasB, kBiases, compareBiasLabel,
                      "The fifth heatmap and the second bias curve.");
        // Each relative member shown gets its own sliders; DeBERTa's fixed settings are said.
        for (int slot = 0; slot < 2; ++slot) {
            const CompareBias bias = slot == 0 ? o.biasA : o.biasB;
            if (slot == 1 && bias == o.biasA) break;  // one set of sliders for one encoding
            const std::string parameters = compareBiasParameters(o, bias);
            if (parameters.empty()) continue;
            ui::sectionHeader(compareBiasLabel(bias).c_str());
            relativeMemberControls(o, bias);
            if (bias == CompareBias::Deberta) {
                ImGui::PushTextWrapPos(0);
                ImGui::TextDisabled("%s", parameters.c_str());
                ImGui::PopTextWrapPos();
                ui::tooltipForLastItem(
                    "DeBERTa-v3's settings (the Context view and `render deberta` set them).");
            }
        }
        ui::sectionHeader("ALiBi and T5");
        ui::sliderInt(state::kAlibiHeadsSlider, &o.alibiHeads,
                      "Head 0 (the steepest slope) is drawn.");
        ui::sliderInt(state::kT5BucketsSlider, &o.t5Buckets, "relative_attention_num_buckets.");
        ui::sliderInt(state::kT5MaxDistanceSlider, &o.t5MaxDistance,
                      "relative_attention_max_distance.");
        ui::seedSlider(state::kSeedSliderParam, &o.seed,
                       "Learned table, T5 bucket values, FIRE's MLP and DeBERTa's vectors (random, "
                       "as at initialisation).");
        ImGui::Spacing();
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled(
            "Top: what each encoding contributes. Sinusoidal and learned add a vector to each "
            "token; RoPE rotates queries and keys; ALiBi and T5 add a number to each logit. "
            "Bottom: what the middle query sees at every offset.");
        ImGui::PopTextWrapPos();
        return;
    }
    for (int side = 0; side < 2; ++side) {
        state::RopeSideState& s = side == 0 ? view.a : view.b;
        ImGui::PushID(side);
        ui::sectionHeader(side == 0 ? "Configuration A" : "Configuration B");
        ImGui::Checkbox("from config.json", &s.useConfig);
        ui::tooltipForLastItem(
            "Read head_dim, rope_theta, rope_scaling and the training length from a Hugging "
            "Face config.json, exactly as transformers does.");
        if (s.useConfig) {
            ui::pathField("##path", "path/to/config.json", &s.configPath, nullptr,
                          "The figure re-reads the file when the path changes.");
        } else {
            ui::sliderDouble(state::kRopeBaseSlider, &s.base, "rope_theta of this side.");
            if (ImGui::Button("10000")) s.base = 10000;
            ImGui::SameLine();
            if (ImGui::Button("500000")) s.base = 500000;
            ImGui::SameLine();
            if (ImGui::Button("1000000")) s.base = 1e6;
        }
        ImGui::PopID();
    }
    ui::sectionHeader("Without config files");
    if (ui::sliderInt(state::kCompareHeadDim, &view.headDim,
                      "Dimensions per head for sides without a config.")) {
        view.headDim += view.headDim % 2;
    }
    ui::sliderInt(state::kCompareTraining, &view.trainingLength, "Marked on the wavelength plot.");
    ui::sectionHeader("Range");
    ui::sliderInt(state::kCompareMaxOffset, &view.maxOffset, "Offsets 0..K compared.");
}

Figure ComparePanel::exportFigure(const state::AppState& state, float width, float height,
                                  const Theme& theme) const {
    const state::CompareViewState& view = state.compare;
    return figureOrNote(view.mode == state::CompareMode::AllEncodings
                            ? comparisonFigure(view.options, width, height, theme)
                            : abFigure(view, width, height, theme),
                        width, height, theme);
}

Result<Matrix> ComparePanel::exportData(const state::AppState& state) const {
    const state::CompareViewState& view = state.compare;
    if (view.mode == state::CompareMode::RopeAB) {
        Matrix table(std::size_t(view.maxOffset) + 1, 4);
        for (int side = 0; side < 2; ++side) {
            auto config = configuration(view, side);
            if (!config) return config.error();
            SimilarityParams params;
            params.encoding = SimilarityEncoding::Rope;
            params.rope = config->rope;
            params.seqLen = view.maxOffset + 1;
            auto offsets = offsetSimilarity(params);
            if (!offsets) return offsets.error();
            for (int r = 0; r <= view.maxOffset; ++r) {
                table(std::size_t(r), 0) = r;
                table(std::size_t(r), std::size_t(1 + side)) = offsets->atOffset(r);
            }
        }
        for (std::size_t r = 0; r < table.rows; ++r) table(r, 3) = table(r, 2) - table(r, 1);
        return table;
    }
    const CompareOptions& o = view.options;
    if (auto s = validate(o); !s) return s.error();
    const int L = o.seqLen, query = L / 2;
    Matrix table(std::size_t(L), 6);
    SimilarityParams sin;
    sin.seqLen = L;
    sin.sinusoidal.dModel = o.dModel;
    sin.sinusoidal.base = o.base;
    SimilarityParams learned = sin;
    learned.encoding = SimilarityEncoding::Learned;
    learned.learned.dModel = o.dModel;
    learned.learned.seed = o.seed;
    SimilarityParams rope = sin;
    rope.encoding = SimilarityEncoding::Rope;
    rope.rope.headDim = o.dModel;
    rope.rope.base = o.base;
    auto a = similarityMatrix(sin), b = similarityMatrix(learned), c = similarityMatrix(rope);
    if (!a) return a.error();
    if (!b) return b.error();
    if (!c) return c.error();
    T5Params t5;
    t5.seqLen = L;
    t5.numBuckets = o.t5Buckets;
    t5.maxDistance = o.t5MaxDistance;
    auto t5Bias = t5BiasMatrix(t5, seededBucketBiases(o.t5Buckets, o.seed));
    if (!t5Bias) return t5Bias.error();
    const double slope = alibiSlopes(o.alibiHeads).front();
    for (int j = 0; j < L; ++j) {
        const std::size_t r = std::size_t(j), q = std::size_t(query);
        table(r, 0) = j - query;
        table(r, 1) = (*a)(q, r);
        table(r, 2) = (*b)(q, r);
        table(r, 3) = (*c)(q, r);
        table(r, 4) = alibiBiasValue(slope, query, j, false);
        table(r, 5) = (*t5Bias)(q, r);
    }
    return table;
}

}  // namespace poslab::panels
