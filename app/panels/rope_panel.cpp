#include "panels/rope_panel.hpp"

#include <GLFW/glfw3.h>  // key codes: Dear ImGui 1.86 takes GLFW's in IsKeyPressed
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numbers>

#include "poslab/base/background.hpp"
#include "poslab/base/decimal.hpp"
#include "poslab/base/format.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/io/hf_config.hpp"
#include "poslab/views/rope_layers_figures.hpp"
#include "state/ranges.hpp"
#include "ui/widgets.hpp"

namespace poslab::ui {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr double kDegrees = 180.0 / std::numbers::pi;

// Numbers separated by commas or spaces, each in the options' syntax (base/decimal: plain
// decimal, finite); fewer than `size` are padded with zeros.
Result<std::vector<double>> parseVector(const std::string& text, int size, const char* name) {
    std::vector<double> values;
    std::size_t i = 0;
    const auto separator = [](char c) { return c == ',' || c == ' ' || c == '\t'; };
    while (i < text.size()) {
        while (i < text.size() && separator(text[i])) ++i;
        if (i == text.size()) break;
        std::size_t end = i;
        while (end < text.size() && !separator(text[end])) ++end;
        const std::string_view word(text.data() + i, end - i);
        const ParsedDecimal parsed = parseDecimal(word);
        if (parsed.status != DecimalStatus::Ok) {
            return Error{std::string(name) + " must be comma-separated finite numbers (got " +
                         quoteForMessage(word, 24) + ")"};
        }
        values.push_back(parsed.value);
        i = end;
    }
    if (values.empty()) return Error{std::string(name) + " is empty"};
    if (int(values.size()) > size) {
        return Error{std::string(name) + " has " + std::to_string(values.size()) +
                     " entries; head_dim is " + std::to_string(size)};
    }
    values.resize(std::size_t(size), 0.0);
    return values;
}

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

Box wholeCanvas(const Canvas& canvas) {
    return {0, 0, canvas.box.width, canvas.box.height};
}

const char* figureName(RopeFigureId id) {
    switch (id) {
        case RopeFigureId::Rotation:
            return "Rotation";
        case RopeFigureId::Angles:
            return "Angles";
        case RopeFigureId::Scores:
            return "Scores";
        case RopeFigureId::Frequencies:
            return "Frequencies";
        case RopeFigureId::Decay:
            return "Decay";
        case RopeFigureId::Precision:
            return "Precision";
        case RopeFigureId::Layers:
            return "Layers";
        case RopeFigureId::Scalings:
            return "Scalings";
        case RopeFigureId::Usage:
            return "Usage";
    }
    return "Rotation";
}

void errorText(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
}

void wrappedDisabled(const std::string& text) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", text.c_str());
    ImGui::PopTextWrapPos();
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// State-derived inputs
// ---------------------------------------------------------------------------------------------

Result<RopePanel::QueryKey> RopePanel::queryKeyFor(const RopeViewState& view) {
    const int d = view.params.headDim;
    QueryKey vectors;
    if (view.vectors == RopeVectorSource::Seeded) {
        vectors.q = seededGaussianVector(d, std::uint64_t(std::max(0, view.querySeed)));
        vectors.k = view.keyEqualsQuery
                        ? vectors.q
                        : seededGaussianVector(d, std::uint64_t(std::max(0, view.keySeed)));
        return vectors;
    }
    auto q = parseVector(view.customQuery, d, "q");
    if (!q) return q.error();
    vectors.q = std::move(q.value());
    if (view.keyEqualsQuery) {
        vectors.k = vectors.q;
        return vectors;
    }
    auto k = parseVector(view.customKey, d, "k");
    if (!k) return k.error();
    vectors.k = std::move(k.value());
    return vectors;
}

void RopePanel::refreshVectors(const RopeViewState& view) {
    const VectorKey key{view.vectors,        view.querySeed,   view.keySeed,  view.params.headDim,
                        view.keyEqualsQuery, view.customQuery, view.customKey};
    if (vectorKey_ && *vectorKey_ == key) return;
    vectorKey_ = key;
    auto vectors = queryKeyFor(view);
    if (vectors) {
        vectors_ = std::move(vectors.value());
        vectorError_.clear();
    } else {
        vectorError_ = vectors.error().message;
        if (int(vectors_.q.size()) != view.params.headDim) {
            // Nothing valid of the right size yet: seeded vectors until the lists parse.
            RopeViewState seeded = view;
            seeded.vectors = RopeVectorSource::Seeded;
            vectors_ = queryKeyFor(seeded).value();
        }
    }
    ++vectorsVersion_;
}

void RopePanel::refreshOffsets(const RopeViewState& view) {
    const OffsetsKey key{view.params, vectorsVersion_};
    if (offsetsKey_ == key) return;
    offsetsKey_ = key;
    offsets_.clear();
    offsetsValid_ = false;
    offsetsRange_ = {};
    ++offsetsVersion_;
    auto freqs = ropeFrequencies(view.params);
    if (!freqs || view.params.seqLen > kMaxSeqLen) return;
    if (vectors_.q.size() < 2 * freqs->inverse.size() || vectors_.q.size() != vectors_.k.size())
        return;
    offsetsValid_ = true;
    // Bounded work whatever a session sets (head_dim 8192 at L = 2^20 would be 2^32 terms).
    offsetsRange_ =
        ropeScoreRange(vectors_.q, vectors_.k, view.params.seqLen, *freqs, view.params.pairing);
    const long long terms =
        (2LL * view.params.seqLen - 1) * std::max<long long>(1, (long long)freqs->inverse.size());
    if (terms > kRopeScoreBudget) return;
    auto offsets =
        ropeOffsetScores(vectors_.q, vectors_.k, view.params.seqLen, *freqs, view.params.pairing);
    if (offsets) offsets_ = std::move(offsets.value());
}

std::vector<int> RopePanel::shownPairs(const RopeViewState& view) {
    const int pairs = rotatedDims(view.params) / 2;
    if (view.spreadPairs) return ropeRotationPairs(pairs, view.panels);
    std::vector<int> shown;
    const int first = std::clamp(view.firstPair, 0, std::max(0, pairs - 1));
    for (int i = first; i < pairs && int(shown.size()) < view.panels; ++i) shown.push_back(i);
    return shown;
}

// ---------------------------------------------------------------------------------------------
// Frame
// ---------------------------------------------------------------------------------------------

void RopePanel::draw(AppState& state, FrameContext& context) {
    RopeViewState& view = state.rope;
    if (!context.droppedFiles.empty()) {
        // Only the first file counts: a config describes one model.
        const std::string path = context.droppedFiles.front();
        context.droppedFiles.clear();
        if (isCheckpointPath(path)) {  // a checkpoint folder or index: the Usage tab reads it
            view.figure = RopeFigureId::Usage;
            usageTab_.open(view.usage, path, context);
        } else {
            view.configPath = path;
            loadConfig(view, view.configPath, context);
        }
    }
    if (!ImGui::GetIO().WantTextInput && ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) {
        view.playing = !view.playing;
    }
    advanceAnimation(view, context);
    refreshVectors(view);
    const Status valid = validate(view.params);

    panelLayout(
        state, context, [&] { drawControls(view, context, valid); },
        [&] {
            if (!valid) {
                const Canvas canvas = beginCanvas("invalid");
                Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
                drawNote(figure, wholeCanvas(canvas), valid.error().message, context.theme);
                drawCanvasFigure(canvas, figure, context);
                return;
            }
            const std::pair<RopeFigureId, const char*> tabs[] = {
                {RopeFigureId::Rotation, figureName(RopeFigureId::Rotation)},
                {RopeFigureId::Angles, figureName(RopeFigureId::Angles)},
                {RopeFigureId::Scores, figureName(RopeFigureId::Scores)},
                {RopeFigureId::Frequencies, figureName(RopeFigureId::Frequencies)},
                {RopeFigureId::Decay, figureName(RopeFigureId::Decay)},
                {RopeFigureId::Precision, figureName(RopeFigureId::Precision)},
                {RopeFigureId::Layers, figureName(RopeFigureId::Layers)},
                {RopeFigureId::Scalings, figureName(RopeFigureId::Scalings)},
                {RopeFigureId::Usage, figureName(RopeFigureId::Usage)}};
            stateTabBar("rope figures", tabs, &view.figure, &shownTab_);
            switch (view.figure) {
                case RopeFigureId::Rotation:
                    drawRotation(view, context);
                    break;
                case RopeFigureId::Angles:
                    drawAngles(view, context);
                    break;
                case RopeFigureId::Scores:
                    drawScores(view, context);
                    break;
                case RopeFigureId::Frequencies:
                    drawFrequencies(view, context);
                    break;
                case RopeFigureId::Decay:
                    drawDecay(view, context);
                    break;
                case RopeFigureId::Precision:
                    drawPrecision(view, context);
                    break;
                case RopeFigureId::Layers:
                    drawLayers(view, context);
                    break;
                case RopeFigureId::Scalings:
                    drawScalings(view, context);
                    break;
                case RopeFigureId::Usage:
                    usageTab_.draw(view.usage, context);
                    break;
            }
        });
}

void RopePanel::advanceAnimation(RopeViewState& view, FrameContext& context) {
    const double last = std::max(0, view.params.seqLen - 1);
    if (view.playing) {
        context.animating = true;  // the frame loop keeps drawing (at most 60 fps) while playing
        // After an idle sleep the first delta can be long; cap it so nothing jumps.
        const double step = view.speed * std::min(double(ImGui::GetIO().DeltaTime), 0.1);
        view.m += step;
        if (view.playMovesBoth) {
            view.n += step;
            if (std::max(view.m, view.n) > last) {
                // Back to the start, keeping m - n and the fractional phase.
                const double back = std::floor(std::min(view.m, view.n));
                view.m -= back;
                view.n -= back;
            }
        } else if (view.m > last) {
            view.m = std::fmod(view.m, last + 1);
        }
    }
    view.m = std::clamp(view.m, 0.0, last);
    view.n = std::clamp(view.n, 0.0, last);
}

// ---------------------------------------------------------------------------------------------
// Controls
// ---------------------------------------------------------------------------------------------

void RopePanel::drawControls(RopeViewState& view, FrameContext& context, const Status& valid) {
    drawConfigControls(view, context);
    drawRopeControls(view);
    drawScalingControls(view);
    if (!valid) errorText(valid.error().message);
    drawVectorControls(view, vectorError_);
    drawPositionControls(view);

    sectionHeader("Display");
    comboEnum("score colours", &view.scoreColormap, allColormaps(), colormapName,
              "Colormap of the score heatmap. Blue-white-red is centred at zero: positive scores "
              "red, negative blue.");
    comboEnum("no full turn in", &view.incompleteWithin,
              std::vector{RopeTurnReference::Context, RopeTurnReference::Training},
              turnReferenceName,
              "Frequencies chart: highlight the pairs whose wavelength is longer than the context "
              "(the sequence length) or than the training length. Those pairs never complete a "
              "turn there, so positions beyond it give angles the model has not seen.");
    sliderInt(kRopeDecayDistanceRange, &view.decayDistance,
              "Decay chart: relative distances 0..R. RoFormer's Fig. 2 shows about 250.");
    ImGui::Checkbox("decay: log distance axis", &view.decayLogAxis);
    tooltipForLastItem(
        "Decay chart: distances 1..R on a log axis, each decade as wide as the next, so the "
        "first few hundred distances (where the bound falls) are not squeezed into a few "
        "pixels.");
    if (ImGui::Button("Reset zoom")) view.angleWindow = {}, view.scoreWindow = {};
    tooltipForLastItem(
        "Or double-click a heatmap. Wheel: zoom positions (Shift: pairs on the angle map); drag: "
        "pan.");
}

void RopePanel::drawConfigControls(RopeViewState& view, FrameContext& context) {
    sectionHeader("Model config.json");
    bool load = ImGui::InputTextWithHint("##config", "path/to/config.json", &view.configPath,
                                         ImGuiInputTextFlags_EnterReturnsTrue);
    tooltipForLastItem(
        "A Hugging Face config.json (head_dim, rope_theta, partial_rotary_factor, rope_scaling, "
        "max_position_embeddings). You can also drop the file onto the window.");
    ImGui::SameLine();
    load |= ImGui::Button("Load");
    tooltipForLastItem(
        "Read the file and set every RoPE control from it. A file that cannot be "
        "used changes nothing.");
    if (load) loadConfig(view, view.configPath, context);
    if (!view.configError.empty()) errorText(view.configError);
    if (!view.configLoaded.empty()) {
        wrappedDisabled(view.configLoaded);
        drawConfigRead(view);
    } else if (view.configError.empty()) {
        wrappedDisabled("or drop a config.json onto the window");
    }
}

void RopePanel::drawConfigRead(RopeViewState& view) {
    if (!view.config) return;
    const HfModelConfig& config = *view.config;
    const std::vector<std::string> layerTypes = ropeLayerTypes(config);
    if (config.ropeVariants.size() > 1 || layerTypes.size() > 1) {
        // Each layer type with its own RoPE (Gemma 3: global and local bases): pick whose to
        // show. Types without RoPE (NoPE, linear attention) are listed greyed with the reason.
        std::string chosen = view.configLayerType;
        if (ImGui::BeginCombo("layer type", view.configLayerType.c_str())) {
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
        tooltipForLastItem(
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
    if (!config.headDimSource.empty()) wrappedDisabled("head_dim from " + config.headDimSource);
    for (const std::string& warning : config.warnings) errorText("warning: " + warning);
    for (const std::string& note : config.notes) wrappedDisabled(note);
    if (config.ropeVariants.size() > 1) {
        wrappedDisabled("layer types with their own RoPE: the controls show " +
                        view.configLayerType + "; the Layers tab lists every layer");
    }
    ImGui::TreePop();
}

void RopePanel::loadConfig(RopeViewState& view, const std::string& path, FrameContext& context) {
    auto config = loadHfConfig(path);
    if (!config) {
        view.configError = config.error().message;  // and nothing else changes
        if (context.statusMessage) *context.statusMessage = "Not loaded: " + view.configError;
        return;
    }
    RopeParams params = config->rope;
    // The model's context and training length (the loader set trainingLength to
    // original_max_position_embeddings for llama3 and yarn).
    params.seqLen = config->maxPositionEmbeddings > 0
                        ? std::clamp(config->maxPositionEmbeddings, 1, kRopeContextRange.high)
                        : view.params.seqLen;
    params.trainingLength = std::min(params.trainingLength, kRopeTrainingRange.high);
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
        view.scalings.factor = std::clamp(params.scaling.factor, kRopeScalingsFactorRange.low,
                                          kRopeScalingsFactorRange.high);
    if (read.maxPositionEmbeddings > kRopeContextRange.high) {
        view.configLoaded += "; context shown up to " + std::to_string(kRopeContextRange.high) +
                             " of " + std::to_string(read.maxPositionEmbeddings);
    }
    if (read.ropeVariants.size() > 1) {
        view.configLoaded += "; full_attention layers shown (see layer type)";
    }
    if (context.statusMessage) *context.statusMessage = view.configLoaded;
}

void RopePanel::drawRopeControls(RopeViewState& view) {
    RopeParams& p = view.params;
    sectionHeader("RoPE");
    bool reshape = sliderInt(kRopeViewHeadDim, &p.headDim,
                             "Dimensions per attention head. They form head_dim/2 pairs, each "
                             "rotated at its own frequency θ_i = base^(−2i/d). Even values only.");
    sliderDouble(kRopeViewBase, &p.base,
                 "rope_theta. Larger bases stretch the slowest wavelengths (2π·base^((d−2)/d) "
                 "positions): Llama 2 uses 10000, Llama 3 500000.");
    if (ImGui::Button("10000")) p.base = 10000;
    tooltipForLastItem("The RoFormer / Llama 2 base.");
    ImGui::SameLine();
    if (ImGui::Button("500000")) p.base = 500000;
    tooltipForLastItem("Llama 3's base.");
    // Edited as a float, as before (a double slider would round other values differently).
    float fraction = float(p.rotaryFraction);
    if (sliderFloat(kRotaryFraction, &fraction,
                    "partial_rotary_factor: only the first int(head_dim × fraction) dims are "
                    "rotated (GPT-NeoX 0.25, Phi 0.4); the rest pass through unchanged.")) {
        p.rotaryFraction = fraction;
        reshape = true;
    }
    if (reshape) snapRotary(p);
    if (rotatedDims(p) != p.headDim) {
        ImGui::TextDisabled("rotating %d of %d dims", rotatedDims(p), p.headDim);
    }
    comboEnum("pairing", &p.pairing, std::vector{RopePairing::Half, RopePairing::Interleaved},
              pairingName,
              "half: dim j turns with j + d/2 (Llama, GPT-NeoX, Mistral, Qwen: HF's rotate_half)\n"
              "interleaved: dim 2i turns with 2i+1 (GPT-J, RoFormer).\nThe frequencies are the "
              "same; only which dimensions form a pair differs.");
    if (sliderInt(kRopeContextRange, &p.seqLen,
                  "The context: positions 0..L−1 in the heatmaps. Dynamic NTK scales with it.")) {
        view.angleWindow = {}, view.scoreWindow = {};
    }
    sliderInt(kRopeTrainingRange, &p.trainingLength,
              "The context the model was trained on (max_position_embeddings, or the original "
              "length L0 before a context extension). Marked on every figure.");
}

void RopePanel::drawScalingControls(RopeViewState& view) {
    RopeScalingParams& s = view.params.scaling;
    sectionHeader("Context scaling");
    comboEnum("scaling", &s.type,
              std::vector{RopeScaling::None, RopeScaling::Linear, RopeScaling::Ntk,
                          RopeScaling::DynamicNtk, RopeScaling::Yarn, RopeScaling::Llama3},
              scalingName,
              "How the frequencies are changed to reach beyond the training length:\n"
              "linear: θ_i / s (position interpolation)\nntk: base × s^(d/(d−2))\n"
              "dynamic-ntk: ntk with s growing with the sequence length\n"
              "yarn: fast pairs kept, slow ones divided by s, a ramp between\n"
              "llama3: like yarn, by wavelength (Llama 3.1)");
    if (s.type == RopeScaling::None) return;
    sliderDouble(kRopeFactorSlider, &s.factor, "The extension factor s.");
    if (s.type == RopeScaling::Llama3) {
        sliderDouble(kLowFreqFactorSlider, &s.lowFreqFactor,
                     "Wavelengths above L0 / low are divided by s (Llama 3.1: 1).");
        sliderDouble(kHighFreqFactorSlider, &s.highFreqFactor,
                     "Wavelengths below L0 / high are kept (Llama 3.1: 4); at least low (Llama 4: "
                     "equal, no smoothed band).");
    }
    if (s.type == RopeScaling::Yarn) {
        sliderDouble(kBetaFastSlider, &s.betaFast,
                     "Pairs turning more than this many times in L0 keep θ_i (default 32).");
        sliderDouble(kBetaSlowSlider, &s.betaSlow,
                     "Pairs turning fewer times are divided by s (default 1).");
    }
    if (auto freqs = ropeFrequencies(view.params); freqs && validate(view.params)) {
        if (freqs->attentionFactor != 1.0) {
            wrappedDisabled("attention factor " + formatValue(freqs->attentionFactor, 5) +
                            ": cos and sin × it, so q·k × " +
                            formatValue(freqs->attentionFactor * freqs->attentionFactor, 5));
            tooltipForLastItem(
                "HF's attention_scaling multiplies cos and sin, so every rotated q·k below "
                "includes its square.");
        }
        if (view.config && view.config->attentionTemperature) {
            // Llama 4's NoPE layers: their "attention factor" is a query scale growing with
            // the position (attn_temperature_tuning), shown at the last position.
            const std::int64_t last = std::max(view.params.seqLen, 1) - 1;
            wrappedDisabled(
                "NoPE layers: queries × " +
                formatValue(attentionTemperature(*view.config->attentionTemperature, last), 5) +
                " at position " + std::to_string(last) + " (attn_temperature_tuning)");
            tooltipForLastItem(
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
            tooltipForLastItem(
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

void RopePanel::drawVectorControls(RopeViewState& view, const std::string& vectorError) {
    sectionHeader("q and k");
    comboEnum(
        "vectors", &view.vectors, std::vector{RopeVectorSource::Seeded, RopeVectorSource::Custom},
        [](RopeVectorSource s) {
            return s == RopeVectorSource::Seeded ? "seeded random" : "typed in";
        },
        "seeded random: standard normal entries from a seed (the same on every machine)\n"
        "typed in: your own numbers; missing entries are 0");
    if (view.vectors == RopeVectorSource::Seeded) {
        if (ImGui::InputInt("q seed", &view.querySeed))
            view.querySeed = std::max(0, view.querySeed);
        tooltipForLastItem("q = seededGaussianVector(head_dim, seed).");
        if (!view.keyEqualsQuery) {
            if (ImGui::InputInt("k seed", &view.keySeed)) view.keySeed = std::max(0, view.keySeed);
            tooltipForLastItem("k = seededGaussianVector(head_dim, seed).");
        }
        if (ImGui::Button("New random q and k")) view.querySeed += 2, view.keySeed += 2;
    } else {
        ImGui::InputText("q", &view.customQuery);
        tooltipForLastItem("Comma-separated numbers, up to head_dim; missing entries are 0.");
        if (!view.keyEqualsQuery) {
            ImGui::InputText("k", &view.customKey);
            tooltipForLastItem("Comma-separated numbers, up to head_dim; missing entries are 0.");
        }
    }
    ImGui::Checkbox("k = q", &view.keyEqualsQuery);
    tooltipForLastItem(
        "Then every pair starts aligned, the angle between the arrows is exactly "
        "(m − n)·θ_i, and the scores show RoPE's decay with distance.");
    if (!vectorError.empty()) errorText(vectorError + " (showing the last valid vectors)");
}

void RopePanel::drawPositionControls(RopeViewState& view) {
    sectionHeader("Positions m (query) and n (key)");
    if (ImGui::Button(view.playing ? "Pause" : "Play", ImVec2(ImGui::GetFontSize() * 4.5f, 0))) {
        view.playing = !view.playing;
    }
    tooltipForLastItem("Space also toggles. Playing advances the positions with the clock.");
    ImGui::SameLine();
    ImGui::Checkbox("move n too", &view.playMovesBoth);
    tooltipForLastItem(
        "On: m and n advance together. Every arrow turns, yet every angle between "
        "q and k — and q·k — stays the same: RoPE sees only m − n.\n"
        "Off: only m advances, so the angles open up with the distance.");
    sliderDouble(kRopeSpeed, &view.speed, "How many positions the animation advances per second.");
    const double last = std::max(0, view.params.seqLen - 1);
    const double before = view.m;
    if (sliderDouble(kRopeQueryPosition, &view.m, 0, last, "Query position. Scrub to move it.") &&
        view.scrubTogether) {
        view.n = std::clamp(view.n + (view.m - before), 0.0, last);
    }
    sliderDouble(kRopeKeyPosition, &view.n, 0, last, "Key position.");
    ImGui::Checkbox("scrub m and n together", &view.scrubTogether);
    tooltipForLastItem("Dragging m drags n along, keeping m − n (and every angle) fixed.");
    const int pairs = rotatedDims(view.params) / 2;
    sliderInt(kRopePanels, &view.panels, SliderBounds{1, pairs},
              "How many pairs get a rotation panel (all of them when there are this few).");
    ImGui::Checkbox("spread over all pairs", &view.spreadPairs);
    tooltipForLastItem(
        "On: panels from the fastest pair to the slowest, evenly spaced. Off: "
        "consecutive pairs from the first one chosen below.");
    if (!view.spreadPairs) {
        sliderInt(kRopeFirstPair, &view.firstPair, SliderBounds{0, pairs - 1},
                  "The first pair shown.");
    }
    sliderInt(kRopeTrailRange, &view.trail,
              "Earlier whole positions drawn as fading dots: how far each pair turns per step.");
}

// ---------------------------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------------------------

void RopePanel::drawRotation(RopeViewState& view, FrameContext& context) {
    const Canvas canvas = beginCanvas("rotation");
    if (canvas.hovered && canvas.wheel != 0) {
        // The wheel steps m (and n with it when scrubbing together) by whole positions.
        const double last = std::max(0, view.params.seqLen - 1);
        const double step = canvas.wheel > 0 ? 1 : -1;
        const double m = std::clamp(view.m + step, 0.0, last);
        if (view.scrubTogether) view.n = std::clamp(view.n + (m - view.m), 0.0, last);
        view.m = m;
    }
    RopeRotationOptions options;
    options.q = vectors_.q;
    options.k = vectors_.k;
    options.m = view.m;
    options.n = view.n;
    options.pairs = shownPairs(view);
    options.trail = view.trail;
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    std::vector<RopeRotationCell> cells;
    drawRopeRotation(figure, wholeCanvas(canvas), view.params, options, context.theme, &cells);
    drawCanvasFigure(canvas, figure, context);

    if (!canvas.hovered) return;
    auto freqs = ropeFrequencies(view.params);
    if (!freqs) return;
    for (const RopeRotationCell& cell : cells) {
        if (!cell.box.contains(canvas.mouse)) continue;
        const int pairs = int(freqs->inverse.size()), i = cell.pair;
        const int first = view.params.pairing == RopePairing::Half ? i : 2 * i;
        const int second = view.params.pairing == RopePairing::Half ? i + pairs : 2 * i + 1;
        const double theta = freqs->inverse[std::size_t(i)];
        const std::vector<double> rq = ropeRotate(vectors_.q, view.m, *freqs, view.params.pairing);
        const std::vector<double> rk = ropeRotate(vectors_.k, view.n, *freqs, view.params.pairing);
        ImGui::BeginTooltip();
        ImGui::Text("pair %d: dimensions %d and %d", i, first, second);
        ImGui::Text("θ = %.6g rad per position, wavelength %.6g positions", theta, kTwoPi / theta);
        ImGui::Text("q (%.4f, %.4f) turned by m·θ = %.4f rad -> (%.4f, %.4f)", vectors_.q[first],
                    vectors_.q[second], std::fmod(view.m * theta, kTwoPi), rq[first], rq[second]);
        ImGui::Text("k (%.4f, %.4f) turned by n·θ = %.4f rad -> (%.4f, %.4f)", vectors_.k[first],
                    vectors_.k[second], std::fmod(view.n * theta, kTwoPi), rk[first], rk[second]);
        ImGui::Text("angle from k to q: %+.3f°",
                    kDegrees * ropePairAngleBetween(vectors_.q, vectors_.k, view.m, view.n, *freqs,
                                                    view.params.pairing, i));
        ImGui::Text(
            "this pair's share of q·k: %+.6f",
            ropePairScore(vectors_.q, vectors_.k, view.m, view.n, *freqs, view.params.pairing, i));
        if (freqs->attentionFactor != 1.0) {
            ImGui::TextDisabled("includes the attention factor² = %.4f² (cos and sin are scaled)",
                                freqs->attentionFactor);
        }
        ImGui::TextDisabled("Wheel: step m%s by one position.", view.scrubTogether ? " and n" : "");
        ImGui::EndTooltip();
        break;
    }
}

void RopePanel::drawAngles(RopeViewState& view, FrameContext& context) {
    const Canvas canvas = beginCanvas("angles");
    auto freqs = ropeFrequencies(view.params);
    if (!freqs) return;
    const long long positions = view.params.seqLen;
    const long long pairs = static_cast<long long>(freqs->inverse.size());
    zoomAndPan(view.angleWindow, canvas, angleFrame_, positions, pairs, ZoomAxes::RowsOrColumns);

    RopeAngleOptions options;
    options.window = view.angleWindow;
    const int training = originalMaxPositions(view.params);
    if (training < view.params.seqLen) options.trainingLength = training;
    options.queryKey = {view.m, view.n};
    const Box plot = ropeAnglePlotBox(wholeCanvas(canvas), view.params, options, context.theme);
    const AngleKey key{view.params, view.angleWindow, int(plot.width), int(plot.height)};
    // Only the visible window, one texel per plot pixel at most (each the circular mean of the
    // angles under it): L = 65536 costs as little as L = 512.
    const HeatmapSample& angleSample = angles_.get(key, [&] {
        return ropeAngleSample(*freqs, positions, view.angleWindow, std::max(1, key.height),
                               std::max(1, key.width));
    });
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    drawRopeAngles(figure, wholeCanvas(canvas), view.params, options, context.theme, &angleSample,
                   &angleFrame_);
    drawCanvasFigure(canvas, figure, context);

    if (canvas.hovered && angleFrame_.plot.contains(canvas.mouse)) {
        const auto [x, y] = angleFrame_.toData(canvas.mouse);
        const long long pair = std::clamp<long long>((long long)std::floor(x), 0, pairs - 1);
        const long long position =
            std::clamp<long long>((long long)std::floor(y), 0, positions - 1);
        const double theta = freqs->inverse[std::size_t(pair)];
        const double angle = std::fmod(double(position) * theta, kTwoPi);
        ImGui::BeginTooltip();
        ImGui::Text("position %lld, pair %lld", position, pair);
        ImGui::Text("angle %lld·θ mod 2π = %.6f rad (%.2f°)", position, angle, angle * kDegrees);
        ImGui::Text("%.4f full turns so far; θ = %.6g, wavelength %.6g", position * theta / kTwoPi,
                    theta, kTwoPi / theta);
        if (angleSample.rowsPerTexel > 1 || angleSample.colsPerTexel > 1) {
            ImGui::TextDisabled(
                "zoomed out: each pixel is the circular mean of %lld positions x %lld pairs;\n"
                "'mixed' where those angles spread over more than half a turn (zoom in)",
                angleSample.rowsPerTexel, angleSample.colsPerTexel);
        }
        ImGui::EndTooltip();
    }
}

void RopePanel::drawScores(RopeViewState& view, FrameContext& context) {
    const Canvas canvas = beginCanvas("scores");
    refreshOffsets(view);
    if (!offsetsValid_) return;
    const long long length = view.params.seqLen;
    zoomAndPan(view.scoreWindow, canvas, scoreFrame_, length, length, ZoomAxes::Both);
    RopeScoreOptions options;
    options.q = vectors_.q;
    options.k = vectors_.k;
    options.window = view.scoreWindow;
    options.colormap = view.scoreColormap;
    options.range = {-offsetsRange_.largest, offsetsRange_.largest};
    if (!offsetsRange_.allOffsets) options.rangeOffsets = offsetsRange_.offsetsCovered;
    const int training = originalMaxPositions(view.params);
    if (training < view.params.seqLen) options.trainingLength = training;
    options.queryKey = {view.m, view.n};
    const Box plot = ropeScorePlotBox(wholeCanvas(canvas), view.params, options, context.theme);
    const ScoreKey key{offsetsVersion_, view.scoreWindow, int(plot.width), int(plot.height)};
    const HeatmapSample& scoreSample = scores_.get(key, [&] {
        // Block means of the visible window straight from the 2L-1 distinct scores: no L x L
        // matrix is built, so L = 4096 (or 65536) recomputes within a frame. Past the budget,
        // from q and k (a bounded number of terms per sample).
        if (!offsets_.empty()) {
            return ropeScoreSample(offsets_, view.params.seqLen, view.scoreWindow,
                                   std::max(1, key.height), std::max(1, key.width));
        }
        auto freqs = ropeFrequencies(view.params);
        if (!freqs) return HeatmapSample{};
        return ropeScoreSample(vectors_.q, vectors_.k, view.params.seqLen, *freqs,
                               view.params.pairing, view.scoreWindow, std::max(1, key.height),
                               std::max(1, key.width));
    });
    if (!isDiverging(view.scoreColormap)) {
        // Sequential maps: the full range of all scores (those evaluated), low to high.
        const double low = offsetsRange_.low, high = offsetsRange_.high;
        options.range = {low, high > low ? high : low + 1};
    }
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    drawRopeScores(figure, wholeCanvas(canvas), view.params, options, context.theme, &scoreSample,
                   &scoreFrame_);
    drawCanvasFigure(canvas, figure, context);

    if (canvas.hovered && scoreFrame_.plot.contains(canvas.mouse)) {
        auto freqs = ropeFrequencies(view.params);
        if (!freqs) return;
        const auto [x, y] = scoreFrame_.toData(canvas.mouse);
        const long long n = std::clamp<long long>((long long)std::floor(x), 0, length - 1);
        const long long m = std::clamp<long long>((long long)std::floor(y), 0, length - 1);
        ImGui::BeginTooltip();
        ImGui::Text("query m = %lld, key n = %lld, m − n = %lld", m, n, m - n);
        ImGui::Text("q_m·k_n = %.8g", ropeScore(vectors_.q, vectors_.k, double(m), double(n),
                                                *freqs, view.params.pairing));
        ImGui::TextDisabled("the same on the whole diagonal m − n = %lld", m - n);
        if (freqs->attentionFactor != 1.0) {
            ImGui::TextDisabled("includes the attention factor² = %.4f² (cos and sin are scaled)",
                                freqs->attentionFactor);
        }
        if (scoreSample.rowsPerTexel > 1 || scoreSample.colsPerTexel > 1) {
            ImGui::TextDisabled("zoomed out: a pixel shows the mean of %lld × %lld cells",
                                scoreSample.rowsPerTexel, scoreSample.colsPerTexel);
        }
        ImGui::EndTooltip();
    }
}

void RopePanel::drawFrequencies(RopeViewState& view, FrameContext& context) {
    const Canvas canvas = beginCanvas("frequencies");
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    PlotFrame frame;
    drawRopeFrequencies(figure, wholeCanvas(canvas), view.params, {view.incompleteWithin},
                        context.theme, &frame);
    drawCanvasFigure(canvas, figure, context);
    if (!canvas.hovered || !frame.plot.contains(canvas.mouse)) return;
    auto freqs = ropeFrequencies(view.params);
    auto plain = unscaledFrequencies(view.params);
    if (!freqs || !plain) return;
    const int pairs = int(freqs->inverse.size());
    const int i = std::clamp(int(std::lround(frame.toData(canvas.mouse).first)), 0, pairs - 1);
    const double theta = freqs->inverse[std::size_t(i)];
    const double wavelength = kTwoPi / theta;
    ImGui::BeginTooltip();
    ImGui::Text("pair %d: θ = %.6g rad per position", i, theta);
    ImGui::Text("wavelength %.6g positions", wavelength);
    if (view.params.scaling.type != RopeScaling::None) {
        const double original = plain->inverse[std::size_t(i)];
        ImGui::Text("unscaled θ = %.6g (wavelength %.6g): divided by %.4g", original,
                    kTwoPi / original, original / theta);
    }
    ImGui::Text("%.4g turns within the context (%d)", view.params.seqLen / wavelength,
                view.params.seqLen);
    ImGui::Text("%.4g turns within the training length (%d)",
                originalMaxPositions(view.params) / wavelength, originalMaxPositions(view.params));
    ImGui::EndTooltip();
}

void RopePanel::drawDecay(RopeViewState& view, FrameContext& context) {
    const Canvas canvas = beginCanvas("decay");
    const DecayKey key{rotatedDims(view.params), view.decayDistance, view.params.base,
                       std::max(1, int(canvas.box.width))};
    const RopeDecayCurve& decayCurve = decay_.get(key, [&] {
        // At most 16 distances per pixel column (every distance up to that).
        auto curve = ropeDecayCurve(key.dims, key.base, key.distance, key.columns);
        return curve ? std::move(curve.value()) : RopeDecayCurve{};
    });
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    PlotFrame frame;
    const DistanceAxis axis = view.decayLogAxis ? DistanceAxis::Logarithmic : DistanceAxis::Linear;
    drawRopeDecay(figure, wholeCanvas(canvas), key.dims, key.base, key.distance, context.theme,
                  &decayCurve, &frame, axis);
    drawCanvasFigure(canvas, figure, context);
    if (canvas.hovered && frame.plot.contains(canvas.mouse) && !decayCurve.bounds.empty()) {
        const long long r =
            std::clamp<long long>(std::llround(frame.toData(canvas.mouse).first), 0, key.distance);
        ImGui::BeginTooltip();
        // The hovered distance itself, exactly (the band may skip it).
        ImGui::Text("distance %lld: bound %.6f", r,
                    ropeDecayBoundAt(key.dims, key.base, double(r)));
        ImGui::TextDisabled("(1/(d/2)) Σ_j |Σ_{k<j} e^(i·r·θ_k)|, d = %d", key.dims);
        ImGui::EndTooltip();
    }
}

// The scalings figure (views/rope_scalings_figures): its factor, L and x axis above it.
void RopePanel::drawScalings(RopeViewState& view, FrameContext& context) {
    RopeScalingsOptions& options = view.scalings;
    const float width = ImGui::GetFontSize() * 11;
    ImGui::SetNextItemWidth(width);
    sliderDouble(kRopeScalingsFactorRange, &options.factor,
                 "One scaling factor for every curve. The other settings (Llama 3's frequency "
                 "factors, YaRN's betas, L0, LongRoPE's lists) are the scaling controls' or the "
                 "loaded config's.");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(width);
    sliderInt(kRopeScalingsSeqLenRange, &options.dynamicSeqLen,
              SliderBounds{kRopeScalingsSeqLenRange.low, kRopeContextRange.high},
              "The sequence length dynamic NTK (and LongRoPE's list choice) is evaluated at; 0: "
              "the sequence length when it is past L0, else s × L0.");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(width);
    comboEnum("x axis", &options.axis,
              std::vector{RopeScalingsAxis::Pair, RopeScalingsAxis::Wavelength}, scalingsAxisName,
              "pair index, or the unscaled wavelength 2π/θ_i on a log axis");
    const Canvas canvas = beginCanvas("scalings");
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    drawRopeScalings(figure, wholeCanvas(canvas), view.params, options, context.theme);
    drawCanvasFigure(canvas, figure, context);
}

void RopePanel::drawPrecision(RopeViewState& view, FrameContext& context) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
    sliderInt(kRopePrecisionPositions, &view.precisionPositions,
              "Positions 0..N are checked, for every pair and format, on a worker thread: the "
              "work grows with N (about a second per 65536 positions at head_dim 128). bfloat16 "
              "already fails within a few "
              "hundred positions; float16 overflows past 65504.");
    const Canvas canvas = beginCanvas("precision");
    const PrecisionKey wanted{view.params, view.precisionPositions};
    if (precisionJob_.valid() &&
        precisionJob_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        auto reports = precisionJob_.get();
        precisionKey_ = precisionJobKey_;
        if (reports) {
            precisionReports_ = std::move(reports.value());
            precisionError_.clear();
        } else {
            precisionReports_.clear();
            precisionError_ = reports.error().message;
        }
    }
    if (precisionKey_ != wanted && !precisionJob_.valid()) {
        // The params are copied into the job: the controls may change while it runs.
        precisionJobKey_ = wanted;
        precisionJob_ =
            runInBackground([params = view.params, positions = view.precisionPositions] {
                return ropePrecisionReports(
                    params, {FloatFormat::Float32, FloatFormat::BFloat16, FloatFormat::Float16},
                    positions);
            });
    }
    if (precisionJob_.valid()) context.animating = true;  // redraw until the job is done
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    if (!precisionError_.empty()) {
        drawNote(figure, wholeCanvas(canvas), precisionError_, context.theme);
    } else if (!precisionKey_ || precisionReports_.empty()) {
        drawNote(figure, wholeCanvas(canvas),
                 "scanning " + std::to_string(view.precisionPositions) + " positions…",
                 context.theme);
    } else {
        drawRopePrecision(figure, wholeCanvas(canvas), precisionKey_->params, precisionReports_,
                          context.theme);
        if (precisionKey_ != wanted) {
            figure.add(makeText({canvas.box.width - 12, 8}, "updating…", context.theme.fontSize,
                                context.theme.accent, HorizontalAlign::Right));
        }
    }
    drawCanvasFigure(canvas, figure, context);
}

void RopePanel::drawLayers(RopeViewState& view, FrameContext& context) {
    const Canvas canvas = beginCanvas("layers");
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    if (view.config) {
        drawRopeLayers(figure, wholeCanvas(canvas), *view.config, context.theme);
    } else {
        drawNote(figure, wholeCanvas(canvas),
                 "load a config.json (path and Load, or drop it here) to see its layers",
                 context.theme);
    }
    drawCanvasFigure(canvas, figure, context);
}

// ---------------------------------------------------------------------------------------------
// Export
// ---------------------------------------------------------------------------------------------

Figure RopePanel::exportFigure(const AppState& state, float width, float height,
                               const Theme& theme) const {
    const RopeViewState& view = state.rope;
    Figure figure = emptyFigure(width, height, theme);
    const Box area{0, 0, width, height};
    if (auto s = validate(view.params); !s) {
        drawNote(figure, area, s.error().message, theme);
        return figure;
    }
    auto vectors = queryKeyFor(view);
    if (!vectors) {
        RopeViewState seeded = view;
        seeded.vectors = RopeVectorSource::Seeded;
        vectors = queryKeyFor(seeded);
    }
    const int training = originalMaxPositions(view.params);
    switch (view.figure) {
        case RopeFigureId::Rotation: {
            RopeRotationOptions options;
            options.q = vectors->q;
            options.k = vectors->k;
            options.m = view.m;
            options.n = view.n;
            options.pairs = shownPairs(view);
            options.trail = view.trail;
            drawRopeRotation(figure, area, view.params, options, theme);
            break;
        }
        case RopeFigureId::Angles: {
            RopeAngleOptions options;
            options.window = view.angleWindow;
            if (training < view.params.seqLen) options.trainingLength = training;
            options.queryKey = {view.m, view.n};
            drawRopeAngles(figure, area, view.params, options, theme, nullptr);
            break;
        }
        case RopeFigureId::Scores: {
            RopeScoreOptions options;
            options.q = vectors->q;
            options.k = vectors->k;
            options.window = view.scoreWindow;
            options.colormap = view.scoreColormap;
            if (training < view.params.seqLen) options.trainingLength = training;
            options.queryKey = {view.m, view.n};
            drawRopeScores(figure, area, view.params, options, theme, nullptr);
            break;
        }
        case RopeFigureId::Frequencies:
            drawRopeFrequencies(figure, area, view.params, {view.incompleteWithin}, theme);
            break;
        case RopeFigureId::Decay:
            drawRopeDecay(figure, area, rotatedDims(view.params), view.params.base,
                          view.decayDistance, theme, nullptr, nullptr,
                          view.decayLogAxis ? DistanceAxis::Logarithmic : DistanceAxis::Linear);
            break;
        case RopeFigureId::Precision: {
            auto reports = ropePrecisionReports(
                view.params, {FloatFormat::Float32, FloatFormat::BFloat16, FloatFormat::Float16},
                view.precisionPositions);
            if (!reports) {
                drawNote(figure, area, reports.error().message, theme);
                break;
            }
            drawRopePrecision(figure, area, view.params, *reports, theme);
            break;
        }
        case RopeFigureId::Layers:
            if (view.config) {
                drawRopeLayers(figure, area, *view.config, theme);
            } else {
                drawNote(figure, area, "no config.json loaded", theme);
            }
            break;
        case RopeFigureId::Scalings:
            drawRopeScalings(figure, area, view.params, view.scalings, theme);
            break;
        case RopeFigureId::Usage:
            usageTab_.drawFigure(figure, area, view.usage, theme, view.usage.selectedPanel);
            break;
    }
    return figure;
}

Result<Matrix> RopePanel::exportData(const AppState& state) const {
    const RopeViewState& view = state.rope;
    auto freqs = ropeFrequencies(view.params);
    if (!freqs) return freqs.error();
    auto vectors = queryKeyFor(view);
    if (!vectors) return vectors.error();
    const RopePairing pairing = view.params.pairing;
    switch (view.figure) {
        case RopeFigureId::Rotation: {
            // Row 0: q rotated to m; row 1: k rotated to n.
            Matrix out(2, std::size_t(view.params.headDim));
            const auto q = ropeRotate(vectors->q, view.m, *freqs, pairing);
            const auto k = ropeRotate(vectors->k, view.n, *freqs, pairing);
            std::copy(q.begin(), q.end(), out.row(0));
            std::copy(k.begin(), k.end(), out.row(1));
            return out;
        }
        case RopeFigureId::Angles:
            return ropeAngleTable(*freqs, view.params.seqLen);
        case RopeFigureId::Scores:
            return ropeScoreMatrix(vectors->q, vectors->k, view.params.seqLen, *freqs, pairing);
        case RopeFigureId::Frequencies: {
            Matrix out(freqs->inverse.size(), 1);
            for (std::size_t i = 0; i < freqs->inverse.size(); ++i) out(i, 0) = freqs->inverse[i];
            return out;
        }
        case RopeFigureId::Decay: {
            auto bound =
                ropeDecayBound(rotatedDims(view.params), view.params.base, view.decayDistance);
            if (!bound) return bound.error();
            Matrix out(bound->size(), 1);
            for (std::size_t r = 0; r < bound->size(); ++r) out(r, 0) = (*bound)[r];
            return out;
        }
        case RopeFigureId::Precision: {
            // One row per pair: theta_i, then the first failing position per format (-1: none).
            const std::vector<FloatFormat> formats = {FloatFormat::Float32, FloatFormat::BFloat16,
                                                      FloatFormat::Float16};
            auto reports = ropePrecisionReports(view.params, formats, view.precisionPositions);
            if (!reports) return reports.error();
            Matrix out(freqs->inverse.size(), 1 + formats.size());
            for (std::size_t i = 0; i < freqs->inverse.size(); ++i) {
                out(i, 0) = freqs->inverse[i];
                for (std::size_t f = 0; f < formats.size(); ++f) {
                    out(i, 1 + f) = double((*reports)[f].pairs[i].firstPositionOver);
                }
            }
            return out;
        }
        case RopeFigureId::Layers: {
            // One row per layer: RoPE variant (-1: NoPE), base (0: NoPE), sliding window (0: full).
            if (!view.config || view.config->layers.empty()) {
                return Error{"no config.json with layers is loaded"};
            }
            const HfModelConfig& config = *view.config;
            Matrix out(config.layers.size(), 3);
            for (std::size_t i = 0; i < config.layers.size(); ++i) {
                const HfLayer& layer = config.layers[i];
                out(i, 0) = layer.ropeVariant;
                out(i, 1) = layer.ropeVariant >= 0
                                ? config.ropeVariants[std::size_t(layer.ropeVariant)].rope.base
                                : 0.0;
                out(i, 2) = layer.slidingWindow;
            }
            return out;
        }
        case RopeFigureId::Scalings: {
            // One row per pair, one column per scaling (ropeScalingRatios' order).
            auto curves = ropeScalingRatios(view.params, view.scalings);
            if (!curves) return curves.error();
            Matrix out(freqs->inverse.size(), curves->size());
            for (std::size_t c = 0; c < curves->size(); ++c)
                for (std::size_t i = 0; i < out.rows; ++i) out(i, c) = (*curves)[c].ratio[i];
            return out;
        }
        case RopeFigureId::Usage: {
            // Layers x pairs, the mean over heads (`poslab export rope-usage` writes all heads).
            if (!usageTab_.data()) return Error{"no checkpoint read yet (Usage tab)"};
            return *usageTab_.data()->byLayer;
        }
    }
    return Error{"unknown RoPE figure"};
}

}  // namespace poslab::ui
