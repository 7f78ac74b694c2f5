#include "panels/vision_rope_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "poslab/io/hf_config.hpp"
#include "poslab/views/vision_rope_figures.hpp"
#include "state/ranges.hpp"
#include "ui/widgets.hpp"

namespace poslab::panels {

namespace {

// The prompt as parsed, or the reason it cannot be.
Result<std::vector<PromptSegment>> promptOf(const state::VisionRopeViewState& view) {
    auto prompt = parseMropePrompt(view.prompt);
    if (!prompt) return prompt.error();
    if (auto s = validatePrompt(*prompt, view.mrope.spatialMergeSize); !s) return s.error();
    return prompt;
}

Figure mropeFigure(const state::VisionRopeViewState& view, float width, float height,
                   const Theme& theme) {
    Figure figure = emptyFigure(width, height, theme);
    auto prompt = promptOf(view);
    if (!prompt) {
        drawNote(figure, {0, 0, width, height}, "prompt: " + prompt.error().message, theme);
        return figure;
    }
    drawMropeFigure(figure, {0, 0, width, height}, *prompt, view.mrope, theme);
    return figure;
}

const std::vector<std::string> kExamplePrompts = {
    state::kDefaultMropePrompt,
    "text:3,image:1x4x6,text:2",
    "text:8,image:1x16x16,text:4,image:1x16x32,text:6",
    "text:4,video:8x8x8@0.5,text:4",
    "text:24",
};

}  // namespace

void VisionRopePanel::drawControls(state::AppState& state, ui::FrameContext& context) {
    state::VisionRopeViewState& view = state.visionRope;
    if (view.figure == state::VisionRopeFigureId::Multimodal) {
        drawMropeControls(view, context);
    } else {
        drawAxialControls(view);
    }
}

void VisionRopePanel::drawFigures(state::AppState& state, ui::FrameContext& context) {
    state::VisionRopeViewState& view = state.visionRope;
    const std::pair<state::VisionRopeFigureId, const char*> tabs[] = {
        {state::VisionRopeFigureId::Multimodal, "Multimodal (M-RoPE)"},
        {state::VisionRopeFigureId::Axial, "Axial 2-D (ViT)"}};
    ui::stateTabBar("vision rope figures", tabs, &view.figure, &shownTab_);
    if (view.figure == state::VisionRopeFigureId::Multimodal) {
        mrope_.show("mrope", MropeKey{view.prompt, view.mrope}, context,
                    [&](float w, float h, const Theme& theme) -> Result<Figure> {
                        return mropeFigure(view, w, h, theme);
                    });
        return;
    }
    const ui::Canvas canvas = axial_.show(
        "axial", view.axial, context, [&](float w, float h, const Theme& theme) -> Result<Figure> {
            Figure figure = emptyFigure(w, h, theme);
            drawAxialRopeFigure(figure, {0, 0, w, h}, view.axial, theme, &axialFrame_);
            return figure;
        });
    if (canvas.hovered && axialFrame_.plot.contains(canvas.mouse)) {
        const auto [x, y] = axialFrame_.toData(canvas.mouse);
        const int px = std::clamp(int(std::floor(x)), 0, view.axial.gridWidth - 1);
        const int py = std::clamp(int(std::floor(y)), 0, view.axial.gridHeight - 1);
        auto map = axialSimilarityMap(view.axial);
        if (map) {
            ImGui::SetTooltip("patch (%d, %d): offset (%d, %d), score %.4f", px, py,
                              px - view.axial.queryX, py - view.axial.queryY,
                              (*map)(std::size_t(py), std::size_t(px)));
        }
        if (canvas.clicked) view.axial.queryX = px, view.axial.queryY = py;
    }
}

void VisionRopePanel::drawMropeControls(state::VisionRopeViewState& view,
                                        ui::FrameContext& context) {
    MropeSettings& m = view.mrope;
    ui::sectionHeader("Model");
    MropeModel model = m.model;
    if (ui::comboEnum(
            "model", &model,
            std::array{MropeModel::Qwen2VL, MropeModel::Qwen25VL, MropeModel::Qwen3VL},
            mropeModelName,
            "Whose get_rope_index computes the positions, and its released settings: "
            "Qwen2-VL and Qwen2.5-VL split the pairs [16,24,24] in three contiguous blocks; "
            "Qwen3-VL interleaves [24,20,20] as T H W T H W ... Only Qwen2.5-VL spaces "
            "video frames by seconds.")) {
        m = mropePreset(model);
    }
    ui::sectionHeader("Prompt");
    ImGui::SetNextItemWidth(-1);
    ui::inputString("##prompt", &view.prompt);
    ui::tooltipForLastItem(
        "Segments separated by commas: text:N (N tokens), image:TxHxW and video:TxHxW (grids in "
        "patches before merging, H and W multiples of the merge size), a video's @S = seconds "
        "per temporal grid (Qwen2.5-VL). Caps: 64 segments, 1048576 tokens, T <= 512, H and W "
        "<= 1024. Text counts include the <|vision_start|>/<|vision_end|> tokens.");
    if (ui::beginCombo("examples", "pick a prompt")) {
        for (const std::string& example : kExamplePrompts) {
            if (ImGui::Selectable(example.c_str(), example == view.prompt)) view.prompt = example;
        }
        ImGui::EndCombo();
    }
    ui::tooltipForLastItem("Prompts to start from: replaces the prompt above.");
    if (auto prompt = promptOf(view); !prompt) {
        ui::errorText(prompt.error().message);
    } else if (auto positions = mropePositions(*prompt, view.mrope)) {
        // The prompt read back in full (the field above is narrower than most prompts).
        std::string summary = std::to_string(positions->tokenCount()) + " tokens:";
        for (const PromptSpan& span : positions->spans) {
            summary.append(" ").append(promptSegmentKindName(span.kind)).append(" ");
            summary.append(std::to_string(span.tokens)).append(",");
            if (summary.size() > 400) break;  // Qwen3-VL videos: one span per frame
        }
        summary.pop_back();
        ui::wrappedNote(summary);
    }

    ui::sectionHeader("Rotary pairs");
    const int pairs = m.headDim / 2;
    int section[3] = {m.section[0], m.section[1], m.section[2]};
    if (ui::inputInts("mrope_section", section, 3,
                      "Pairs driven by the temporal, height and width positions; they must sum "
                      "to head_dim / 2.")) {
        for (int i = 0; i < 3; ++i) m.section[std::size_t(i)] = std::clamp(section[i], 0, 512);
    }
    if (auto s = validateMropeSection(m.section, m.headDim); !s) {
        ui::errorText(s.error().message);
        if (ImGui::Button("Fit W to head_dim")) {
            m.section[2] = std::max(0, pairs - m.section[0] - m.section[1]);
        }
        ui::tooltipForLastItem("Set W to head_dim / 2 - T - H.");
    }
    ui::comboEnum("layout", &m.layout,
                  std::array{MropeLayout::Contiguous, MropeLayout::Interleaved}, mropeLayoutName,
                  "contiguous: T pairs first (fastest), then H, then W (Qwen2-VL, Qwen2.5-VL). "
                  "interleaved: T H W T H W ... then T (Qwen3-VL), so every stream gets fast and "
                  "slow pairs.");
    if (ui::sliderInt(state::kMropeHeadDim, &m.headDim, "Rotated dimensions per head (even).")) {
        m.headDim += m.headDim % 2;
    }
    ui::sliderDouble(state::kMropeBase, &m.base, "rope_theta.");
    ui::sliderInt(state::kMropeMergeRange, &m.spatialMergeSize,
                  "vision_config.spatial_merge_size: m x m patches become one token.");
    if (m.model == MropeModel::Qwen25VL) {
        ui::sliderDouble(state::kMropeTokensPerSecond, &m.tokensPerSecond,
                         "vision_config.tokens_per_second: a video frame group i gets temporal "
                         "position long(i x seconds per grid x this).");
    }

    ui::sectionHeader("Model config.json");
    if (ui::pathField("##config", "path/to/config.json", &view.configPath, "Load",
                      "A Qwen2-VL, Qwen2.5-VL or Qwen3-VL config.json: mrope_section, "
                      "mrope_interleaved, head size, rope_theta, vision_config.spatial_merge_size "
                      "and tokens_per_second.",
                      "Read the file and set the controls above. A file without multimodal RoPE "
                      "changes nothing."))
        loadConfig(view, context);
    if (!view.configError.empty()) ui::errorText(view.configError);
    if (!view.configLoaded.empty()) {
        ui::wrappedNote(view.configLoaded);
        for (const std::string& note : view.configNotes) ui::wrappedNote(note);
    }
}

void VisionRopePanel::drawAxialControls(state::VisionRopeViewState& view) {
    AxialRopeParams& a = view.axial;
    ui::sectionHeader("Layout");
    AxialRopeLayout layout = a.layout;
    if (ui::comboEnum(
            "layout", &layout, std::array{AxialRopeLayout::RopeVit, AxialRopeLayout::Pixtral},
            axialRopeLayoutName,
            "rope-vit (Heo et al. 2024, axial): the first half of the pairs turn with x, "
            "the second with y, both with theta_k = base^(-4k/d), base 100. pixtral (HF "
            "PixtralRotaryEmbedding): rows take the even frequencies base^(-4k/d), columns "
            "the odd ones base^(-(4k+2)/d), base 10000.")) {
        a.layout = layout;
        a.base = layout == AxialRopeLayout::Pixtral ? 10000 : 100;
    }
    if (ui::sliderInt(state::kAxialHeadDimRange.labelled("head_dim", ParameterScale::Log),
                      &a.headDim, "Dimensions per head: d/4 pairs per axis (a multiple of 4).")) {
        a.headDim = std::max(4, a.headDim - a.headDim % 4);
    }
    ui::sliderDouble(state::kAxialBase, &a.base,
                     "A larger base slows the slow pairs: scores stay high over more patches.");
    ui::sectionHeader("Grid and query");
    if (ui::sliderInt(state::kAxialGridWidthSlider, &a.gridWidth, "Patches per row.")) {
        a.queryX = std::min(a.queryX, a.gridWidth - 1);
    }
    if (ui::sliderInt(state::kAxialGridHeightSlider, &a.gridHeight, "Patches per column.")) {
        a.queryY = std::min(a.queryY, a.gridHeight - 1);
    }
    ui::sliderInt(state::kAxialQueryX, &a.queryX, ui::SliderBounds{0, a.gridWidth - 1},
                  "The query patch's column (or click a patch in the map).");
    ui::sliderInt(state::kAxialQueryY, &a.queryY, ui::SliderBounds{0, a.gridHeight - 1},
                  "The query patch's row.");
    ui::sectionHeader("q and k");
    ui::comboEnum(
        "vectors", &a.vectors, std::array{AxialVectors::Ones, AxialVectors::Random},
        axialVectorsName,
        "ones: q = k = all ones, so every pair adds cos(offset x theta) and the map shows "
        "the position encoding alone. random: seeded Gaussian q and k, as a real head "
        "might have.");
    if (a.vectors == AxialVectors::Random) {
        ui::seedSlider(state::kSeedSliderParam, &a.seed, "q from this seed, k from the next.");
    }
    ui::wrappedNote(
        "The score depends only on the offset (dx, dy): moving the query shifts the "
        "pattern without changing it.");
}

void VisionRopePanel::loadConfig(state::VisionRopeViewState& view, ui::FrameContext& context) {
    auto config = loadHfConfig(view.configPath);
    if (!config) {
        view.configError = config.error().message;
    } else if (!config->mrope) {
        view.configError = view.configPath +
                           ": no multimodal RoPE (rope_scaling has no mrope_section); the RoPE "
                           "view shows its text RoPE";
    } else {
        view.configError.clear();
        view.mrope = *config->mrope;
        view.configNotes = config->notes;
        view.configLoaded = "Loaded " + view.configPath +
                            (config->modelType.empty() ? "" : " (" + config->modelType + ")");
    }
    if (context.statusMessage) {
        *context.statusMessage =
            view.configError.empty() ? view.configLoaded : "Not loaded: " + view.configError;
    }
}

Figure VisionRopePanel::exportFigure(const state::AppState& state, float width, float height,
                                     const Theme& theme) const {
    const state::VisionRopeViewState& view = state.visionRope;
    if (view.figure == state::VisionRopeFigureId::Multimodal) {
        return mropeFigure(view, width, height, theme);
    }
    Figure figure = emptyFigure(width, height, theme);
    drawAxialRopeFigure(figure, {0, 0, width, height}, view.axial, theme);
    return figure;
}

Result<Matrix> VisionRopePanel::exportData(const state::AppState& state) const {
    const state::VisionRopeViewState& view = state.visionRope;
    if (view.figure == state::VisionRopeFigureId::Axial) return axialSimilarityMap(view.axial);
    auto prompt = promptOf(view);
    if (!prompt) return prompt.error();
    auto positions = mropePositions(*prompt, view.mrope);
    if (!positions) return positions.error();
    Matrix table(std::size_t(positions->tokenCount()), 5);
    for (std::size_t n = 0; n < table.rows; ++n) {
        table(n, 0) = double(n);
        table(n, 1) = double(int(positions->spans[std::size_t(positions->spanOfToken[n])].kind));
        table(n, 2) = double(positions->temporal[n]);
        table(n, 3) = double(positions->height[n]);
        table(n, 4) = double(positions->width[n]);
    }
    return table;
}

}  // namespace poslab::panels
