// rope_panel_controls.cpp — the RoPE panel's controls: config.json (path, Load, what was read),
// RoPE's parameters, the scaling and its per-type settings, q and k, the positions and the
// display settings. Every slider takes its descriptor (state/ranges.hpp, core's rope.hpp).
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "panels/rope_panel.hpp"
#include "poslab/base/format.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/io/hf_config.hpp"
#include "poslab/views/rope_layers_figures.hpp"
#include "state/ranges.hpp"
#include "ui/widgets.hpp"

namespace poslab::panels {

namespace {

// head_dim even, and a rotary fraction whose int(head_dim * f) is even and at least 2, so every
// slider position is a valid setup (HF would reject the others).
void snapRotary(RopeParams& p) {
    p.headDim = std::max(2, p.headDim + (p.headDim % 2));
    int dims = std::max(2, rotatedDims(p));
    dims -= dims % 2;
    double fraction = double(dims) / p.headDim;
    while (int(p.headDim * fraction) < dims) fraction = std::nextafter(fraction, 2.0);
    p.rotaryFraction = std::min(1.0, fraction);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Controls
// ---------------------------------------------------------------------------------------------

void RopePanel::drawControls(state::RopeViewState& view, ui::FrameContext& context,
                             const Status& valid) {
    drawConfigControls(view, context);
    drawRopeControls(view);
    drawScalingControls(view);
    if (!valid) ui::errorText(valid.error().message);
    drawVectorControls(view, vectors_.value()->error);
    drawPositionControls(view);

    ui::sectionHeader("Display");
    ui::comboEnum(
        "score colours", &view.scoreColormap, allColormaps(), colormapName,
        "Colormap of the score heatmap. Blue-white-red is centred at zero: positive scores "
        "red, negative blue.");
    ui::comboEnum(
        "no full turn in", &view.incompleteWithin,
        std::vector{RopeTurnReference::Context, RopeTurnReference::Training}, turnReferenceName,
        "Frequencies chart: highlight the pairs whose wavelength is longer than the context "
        "(the sequence length) or than the training length. Those pairs never complete a "
        "turn there, so positions beyond it give angles the model has not seen.");
    ui::sliderInt(state::kRopeDecayDistanceRange, &view.decayDistance,
                  "Decay chart: relative distances 0..R. RoFormer's Fig. 2 shows about 250.");
    ImGui::Checkbox("decay: log distance axis", &view.decayLogAxis);
    ui::tooltipForLastItem(
        "Decay chart: distances 1..R on a log axis, each decade as wide as the next, so the "
        "first few hundred distances (where the bound falls) are not squeezed into a few "
        "pixels.");
    if (ImGui::Button("Reset zoom")) view.angleWindow = {}, view.scoreWindow = {};
    ui::tooltipForLastItem(
        "Or double-click a heatmap. Wheel: zoom positions (Shift: pairs on the angle map); drag: "
        "pan.");
}

void RopePanel::drawConfigControls(state::RopeViewState& view, ui::FrameContext& context) {
    ui::sectionHeader("Model config.json");
    if (ui::pathField("##config", "path/to/config.json", &view.configPath, "Load",
                      "A Hugging Face config.json (head_dim, rope_theta, partial_rotary_factor, "
                      "rope_scaling, max_position_embeddings). You can also drop the file onto "
                      "the window.",
                      "Read the file and set every RoPE control from it. A file that cannot be "
                      "used changes nothing."))
        loadConfig(view, view.configPath, context);
    if (!view.configError.empty()) ui::errorText(view.configError);
    if (!view.configLoaded.empty()) {
        ui::wrappedNote(view.configLoaded);
        drawConfigRead(view);
    } else if (view.configError.empty()) {
        ui::wrappedNote("or drop a config.json onto the window");
    }
}

void RopePanel::drawConfigRead(state::RopeViewState& view) {
    if (!view.config) return;
    const HfModelConfig& config = *view.config;
    const std::vector<std::string> layerTypes = ropeLayerTypes(config);
    if (config.ropeVariants.size() > 1 || layerTypes.size() > 1) {
        // Each layer type with its own RoPE (Gemma 3: global and local bases): pick whose to
        // show. Types without RoPE (NoPE, linear attention) are listed greyed with the reason.
        std::string chosen = view.configLayerType;
        if (ui::beginCombo("layer type", view.configLayerType, layerTypes)) {
            for (const std::string& type : layerTypes) {
                const std::string reason = noRopeReasonOf(config, type);
                const std::string label = reason.empty() ? type : type + " (no RoPE)";
                const ImGuiSelectableFlags flags =
                    reason.empty() ? ImGuiSelectableFlags_None : ImGuiSelectableFlags_Disabled;
                if (ImGui::Selectable(label.c_str(), type == view.configLayerType, flags)) {
                    chosen = type;
                }
                if (!reason.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
                    ImGui::SetTooltip("%s has no RoPE in this model: %s", type.c_str(),
                                      reason.c_str());
                }
            }
            ImGui::EndCombo();
        }
        ui::tooltipForLastItem(
            "Layers of different types may rotate differently (Gemma 3: base 1e6 with linear x8 "
            "on full attention, base 1e4 on sliding-window layers); some have no RoPE at all "
            "(greyed: NoPE, linear attention). Every control and figure shows the RoPE of the "
            "layers chosen here.");
        if (chosen != view.configLayerType) {
            auto variant = ropeVariantForLayerType(config, chosen);
            if (variant && *variant >= 0) {
                const int seqLen = view.params.seqLen;
                view.params = config.ropeVariants[std::size_t(*variant)].rope;
                view.params.seqLen = seqLen;
                view.configLayerType = chosen;
                view.angleWindow = {}, view.scoreWindow = {};
            }
        }
    }
    const std::string heading = "What PosLab read (" + std::to_string(config.notes.size()) +
                                " notes, " + std::to_string(config.warnings.size()) +
                                " warnings)###what PosLab read";
    if (!ImGui::TreeNodeEx(heading.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (!config.headDimSource.empty()) ui::wrappedNote("head_dim from " + config.headDimSource);
    for (const std::string& warning : config.warnings) ui::errorText("warning: " + warning);
    for (const std::string& note : config.notes) ui::wrappedNote(note);
    if (config.ropeVariants.size() > 1) {
        ui::wrappedNote("layer types with their own RoPE: the controls show " +
                        view.configLayerType + "; the Layers tab lists every layer");
    }
    ImGui::TreePop();
}

void RopePanel::loadConfig(state::RopeViewState& view, const std::string& path,
                           ui::FrameContext& context) {
    auto config = loadHfConfig(path);
    if (!config) {
        view.configError = config.error().message;  // and nothing else changes
        if (context.statusMessage) *context.statusMessage = "Not loaded: " + view.configError;
        return;
    }
    RopeParams params = config->rope;
    // The model's context and training length (the loader set trainingLength to
    // original_max_position_embeddings for llama3 and yarn).
    params.seqLen = config->maxPositionEmbeddings > 0 ? std::clamp(config->maxPositionEmbeddings, 1,
                                                                   state::kRopeContextRange.high)
                                                      : view.params.seqLen;
    params.trainingLength = std::min(params.trainingLength, state::kRopeTrainingRange.high);
    view.params = params;
    view.angleWindow = {};
    view.scoreWindow = {};
    view.configError.clear();
    view.configNotes = config->notes;
    view.configLayerType =
        config->ropeVariants.empty() ? "full_attention" : config->ropeVariants[0].layerType;
    view.config = std::move(config.value());
    const HfModelConfig& read = *view.config;
    std::string name = path;
    if (auto slash = name.find_last_of('/'); slash != std::string::npos) {
        // ".../Llama-3.1-8B/config.json" reads better as "Llama-3.1-8B/config.json".
        const auto previous = slash > 0 ? name.find_last_of('/', slash - 1) : std::string::npos;
        name = name.substr(previous == std::string::npos ? 0 : previous + 1);
    }
    view.configLoaded = "Loaded " + name +
                        (read.modelType.empty() ? "" : " (" + read.modelType + ")") + ": " +
                        ropeTitle(params) + ", trained on " +
                        std::to_string(originalMaxPositions(params)) + " positions";
    if (params.scaling.type != RopeScaling::None)
        view.scalings.factor =
            std::clamp(params.scaling.factor, state::kRopeScalingsFactorRange.low,
                       state::kRopeScalingsFactorRange.high);
    if (read.maxPositionEmbeddings > state::kRopeContextRange.high) {
        view.configLoaded += "; context shown up to " +
                             std::to_string(state::kRopeContextRange.high) + " of " +
                             std::to_string(read.maxPositionEmbeddings);
    }
    if (read.ropeVariants.size() > 1) {
        view.configLoaded += "; full_attention layers shown (see layer type)";
    }
    if (context.statusMessage) *context.statusMessage = view.configLoaded;
}

void RopePanel::drawRopeControls(state::RopeViewState& view) {
    RopeParams& p = view.params;
    ui::sectionHeader("RoPE");
    bool reshape =
        ui::sliderInt(state::kRopeViewHeadDim, &p.headDim,
                      "Dimensions per attention head. They form head_dim/2 pairs, each "
                      "rotated at its own frequency θ_i = base^(−2i/d). Even values only.");
    ui::sliderDouble(state::kRopeViewBase, &p.base,
                     "rope_theta. Larger bases stretch the slowest wavelengths (2π·base^((d−2)/d) "
                     "positions): Llama 2 uses 10000, Llama 3 500000.");
    if (ImGui::Button("10000")) p.base = 10000;
    ui::tooltipForLastItem("The RoFormer / Llama 2 base.");
    ImGui::SameLine();
    if (ImGui::Button("500000")) p.base = 500000;
    ui::tooltipForLastItem("Llama 3's base.");
    // Edited as a float, as before (a double slider would round other values differently).
    float fraction = float(p.rotaryFraction);
    if (ui::sliderFloat(state::kRotaryFraction, &fraction,
                        "partial_rotary_factor: only the first int(head_dim × fraction) dims are "
                        "rotated (GPT-NeoX 0.25, Phi 0.4); the rest pass through unchanged.")) {
        p.rotaryFraction = fraction;
        reshape = true;
    }
    if (reshape) snapRotary(p);
    if (rotatedDims(p) != p.headDim) {
        ImGui::TextDisabled("rotating %d of %d dims", rotatedDims(p), p.headDim);
    }
    ui::comboEnum(
        "pairing", &p.pairing, std::vector{RopePairing::Half, RopePairing::Interleaved},
        pairingName,
        "half: dim j turns with j + d/2 (Llama, GPT-NeoX, Mistral, Qwen: HF's rotate_half)\n"
        "interleaved: dim 2i turns with 2i+1 (GPT-J, RoFormer).\nThe frequencies are the "
        "same; only which dimensions form a pair differs.");
    if (ui::sliderInt(
            state::kRopeContextRange, &p.seqLen,
            "The context: positions 0..L−1 in the heatmaps. Dynamic NTK scales with it.")) {
        view.angleWindow = {}, view.scoreWindow = {};
    }
    ui::sliderInt(state::kRopeTrainingRange, &p.trainingLength,
                  "The context the model was trained on (max_position_embeddings, or the original "
                  "length L0 before a context extension). Marked on every figure.");
}

void RopePanel::drawScalingControls(state::RopeViewState& view) {
    RopeScalingParams& s = view.params.scaling;
    ui::sectionHeader("Context scaling");
    ui::comboEnum("scaling", &s.type,
                  std::vector{RopeScaling::None, RopeScaling::Linear, RopeScaling::Ntk,
                              RopeScaling::DynamicNtk, RopeScaling::Yarn, RopeScaling::Llama3},
                  scalingName,
                  "How the frequencies are changed to reach beyond the training length:\n"
                  "linear: θ_i / s (position interpolation)\nntk: base × s^(d/(d−2))\n"
                  "dynamic-ntk: ntk with s growing with the sequence length\n"
                  "yarn: fast pairs kept, slow ones divided by s, a ramp between\n"
                  "llama3: like yarn, by wavelength (Llama 3.1)");
    if (s.type == RopeScaling::None) return;
    ui::sliderDouble(state::kRopeFactorSlider, &s.factor, "The extension factor s.");
    if (s.type == RopeScaling::Llama3) {
        ui::sliderDouble(state::kLowFreqFactorSlider, &s.lowFreqFactor,
                         "Wavelengths above L0 / low are divided by s (Llama 3.1: 1).");
        ui::sliderDouble(
            state::kHighFreqFactorSlider, &s.highFreqFactor,
            "Wavelengths below L0 / high are kept (Llama 3.1: 4); at least low (Llama 4: "
            "equal, no smoothed band).");
    }
    if (s.type == RopeScaling::Yarn) {
        ui::sliderDouble(state::kBetaFastSlider, &s.betaFast,
                         "Pairs turning more than this many times in L0 keep θ_i (default 32).");
        ui::sliderDouble(state::kBetaSlowSlider, &s.betaSlow,
                         "Pairs turning fewer times are divided by s (default 1).");
    }
    if (auto freqs = ropeFrequencies(view.params); freqs && validate(view.params)) {
        if (freqs->attentionFactor != 1.0) {
            ui::wrappedNote("attention factor " + formatValue(freqs->attentionFactor, 5) +
                            ": cos and sin × it, so q·k × " +
                            formatValue(freqs->attentionFactor * freqs->attentionFactor, 5));
            ui::tooltipForLastItem(
                "HF's attention_scaling multiplies cos and sin, so every rotated q·k below "
                "includes its square.");
        }
        if (view.config && view.config->attentionTemperature) {
            // Llama 4's NoPE layers: their "attention factor" is a query scale growing with
            // the position (attn_temperature_tuning), shown at the last position.
            const std::int64_t last = std::max(view.params.seqLen, 1) - 1;
            ui::wrappedNote(
                "NoPE layers: queries × " +
                formatValue(attentionTemperature(*view.config->attentionTemperature, last), 5) +
                " at position " + std::to_string(last) + " (attn_temperature_tuning)");
            ui::tooltipForLastItem(
                "Llama 4 scales the queries of its NoPE layers by log1p(floor((pos + 1) / "
                "floor_scale)) * attn_scale + 1: exactly 1 up to floor_scale, then growing "
                "with the log of the position. rope-info lists it at 8K to 10M.");
        }
        if (freqs->longRopeList) {
            const bool isLong = *freqs->longRopeList == LongRopeList::Long;
            const int original = originalMaxPositions(view.params);
            const std::string line = std::string(isLong ? "long_factor" : "short_factor") +
                                     " list active: sequence length " +
                                     std::to_string(view.params.seqLen) +
                                     (isLong ? " > " : " <= ") +
                                     "original_max_position_embeddings " + std::to_string(original);
            ImGui::PushStyleColor(ImGuiCol_Text, isLong ? ImVec4(1.0f, 0.75f, 0.3f, 1.0f)
                                                        : ImVec4(0.55f, 0.8f, 1.0f, 1.0f));
            ImGui::PushTextWrapPos(0);
            ImGui::TextUnformatted(line.c_str());
            ImGui::PopTextWrapPos();
            ImGui::PopStyleColor();
            ui::tooltipForLastItem(
                "LongRoPE (Phi-3) rescales each pair by short_factor up to the original context "
                "and by long_factor past it: move the sequence length across it to switch.");
        }
    }
    if (s.type == RopeScaling::DynamicNtk && validate(view.params)) {
        ImGui::TextDisabled("base at this length: %.6g",
                            dynamicNtkBase(view.params.base, s.factor, rotatedDims(view.params),
                                           view.params.seqLen, originalMaxPositions(view.params)));
    }
    if (s.type == RopeScaling::Ntk && validate(view.params)) {
        ImGui::TextDisabled("scaled base: %.6g",
                            ntkScaledBase(view.params.base, s.factor, rotatedDims(view.params)));
    }
}

void RopePanel::drawVectorControls(state::RopeViewState& view, const std::string& vectorError) {
    ui::sectionHeader("q and k");
    ui::comboEnum(
        "vectors", &view.vectors,
        std::vector{state::RopeVectorSource::Seeded, state::RopeVectorSource::Custom},
        [](state::RopeVectorSource s) {
            return s == state::RopeVectorSource::Seeded ? "seeded random" : "typed in";
        },
        "seeded random: standard normal entries from a seed (the same on every machine)\n"
        "typed in: your own numbers; missing entries are 0");
    if (view.vectors == state::RopeVectorSource::Seeded) {
        ui::inputInt("q seed", &view.querySeed, "q = seededGaussianVector(head_dim, seed).");
        if (!view.keyEqualsQuery)
            ui::inputInt("k seed", &view.keySeed, "k = seededGaussianVector(head_dim, seed).");
        if (ImGui::Button("New random q and k")) view.querySeed += 2, view.keySeed += 2;
    } else {
        const char* help = "Comma-separated numbers, up to head_dim; missing entries are 0.";
        ui::inputString("q", &view.customQuery);
        ui::tooltipForLastItem(help);
        if (!view.keyEqualsQuery) {
            ui::inputString("k", &view.customKey);
            ui::tooltipForLastItem(help);
        }
    }
    ImGui::Checkbox("k = q", &view.keyEqualsQuery);
    ui::tooltipForLastItem(
        "Then every pair starts aligned, the angle between the arrows is exactly "
        "(m − n)·θ_i, and the scores show RoPE's decay with distance.");
    if (!vectorError.empty()) ui::errorText(vectorError + " (showing the last valid vectors)");
}

void RopePanel::drawPositionControls(state::RopeViewState& view) {
    ui::sectionHeader("Positions m (query) and n (key)");
    if (ImGui::Button(view.playing ? "Pause" : "Play", ImVec2(ImGui::GetFontSize() * 4.5f, 0))) {
        view.playing = !view.playing;
    }
    ui::tooltipForLastItem("Space also toggles. Playing advances the positions with the clock.");
    ImGui::SameLine();
    ImGui::Checkbox("move n too", &view.playMovesBoth);
    ui::tooltipForLastItem(
        "On: m and n advance together. Every arrow turns, yet every angle between "
        "q and k — and q·k — stays the same: RoPE sees only m − n.\n"
        "Off: only m advances, so the angles open up with the distance.");
    ui::sliderDouble(state::kRopeSpeed, &view.speed,
                     "How many positions the animation advances per second.");
    const double last = std::max(0, view.params.seqLen - 1);
    const double before = view.m;
    if (ui::sliderDouble(state::kRopeQueryPosition, &view.m, 0, last,
                         "Query position. Scrub to move it.") &&
        view.scrubTogether) {
        view.n = std::clamp(view.n + (view.m - before), 0.0, last);
    }
    ui::sliderDouble(state::kRopeKeyPosition, &view.n, 0, last, "Key position.");
    ImGui::Checkbox("scrub m and n together", &view.scrubTogether);
    ui::tooltipForLastItem("Dragging m drags n along, keeping m − n (and every angle) fixed.");
    const int pairs = rotatedDims(view.params) / 2;
    ui::sliderInt(state::kRopePanels, &view.panels, ui::SliderBounds{1, pairs},
                  "How many pairs get a rotation panel (all of them when there are this few).");
    ImGui::Checkbox("spread over all pairs", &view.spreadPairs);
    ui::tooltipForLastItem(
        "On: panels from the fastest pair to the slowest, evenly spaced. Off: "
        "consecutive pairs from the first one chosen below.");
    if (!view.spreadPairs) {
        ui::sliderInt(state::kRopeFirstPair, &view.firstPair, ui::SliderBounds{0, pairs - 1},
                      "The first pair shown.");
    }
    ui::sliderInt(
        state::kRopeTrailRange, &view.trail,
        "Earlier whole positions drawn as fading dots: how far each pair turns per step.");
}

}  // namespace poslab::panels
