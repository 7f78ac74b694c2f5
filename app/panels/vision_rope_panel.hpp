// vision_rope_panel.hpp — RoPE for images, two tabs to the right of the controls:
//
//   Multimodal   Qwen2-VL / Qwen2.5-VL / Qwen3-VL M-RoPE: the temporal, height and width
//                position streams of a prompt of text, images and videos; which rotary pairs
//                each stream drives; how far each image moves the text position. A Qwen VL
//                config.json fills the settings.
//   Axial 2-D    a vision transformer's 2-D RoPE (RoPE-ViT, Pixtral): the query patch's score
//                with every patch of the grid; click a patch to make it the query.
#pragma once

#include <string>

#include "panels/figure_cache.hpp"
#include "ui/panel.hpp"

namespace poslab::panels {

class VisionRopePanel : public ui::Panel {
  public:
    const char* title() const override { return "Vision RoPE"; }
    Figure exportFigure(const state::AppState& state, float width, float height,
                        const Theme& theme) const override;
    // Multimodal: one row per token, columns token, kind (0 text, 1 image, 2 video), t, h, w.
    // Axial: the grid's scores, row y, column x.
    Result<Matrix> exportData(const state::AppState& state) const override;

  protected:
    void drawControls(state::AppState& state, ui::FrameContext& context) override;
    void drawFigures(state::AppState& state, ui::FrameContext& context) override;

  private:
    struct MropeKey {
        std::string prompt;
        MropeSettings settings;
        friend bool operator==(const MropeKey&, const MropeKey&) = default;
    };
    void drawMropeControls(state::VisionRopeViewState& view, ui::FrameContext& context);
    void drawAxialControls(state::VisionRopeViewState& view);
    void loadConfig(state::VisionRopeViewState& view, ui::FrameContext& context);

    FigureCache<MropeKey> mrope_;
    FigureCache<AxialRopeParams> axial_;
    PlotFrame axialFrame_;  // the heatmap's frame in the last built figure, for clicks
    state::VisionRopeFigureId shownTab_ = state::VisionRopeFigureId::Multimodal;
};

}  // namespace poslab::panels
