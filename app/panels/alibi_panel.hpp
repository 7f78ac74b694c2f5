// alibi_panel.hpp — the ALiBi view: every head's bias matrix as a grid (click a head to enlarge
// it), the enlarged head, the slopes across heads, and an attention preview: the softmax of one
// query row per head, showing how strongly each head prefers recent keys.
#pragma once

#include <optional>

#include "poslab/bias_figures.hpp"
#include "ui/panel.hpp"

namespace poslab::ui {

class AlibiPanel : public Panel {
  public:
    const char* title() const override { return "ALiBi"; }
    void draw(AppState& state, FrameContext& context) override;
    Figure exportFigure(const AppState& state, float width, float height,
                        const Theme& theme) const override;
    Result<Matrix> exportData(const AppState& state) const override;  // the enlarged head's bias

    static AlibiFigureOptions optionsFor(const AlibiViewState& view);

  private:
    void drawControls(AlibiViewState& view);
    void drawFigure(AlibiViewState& view, FrameContext& context);
    void showTooltip(const AlibiViewState& view, const AlibiFigureFrames& frames,
                     Point mouse) const;

    // Layout and derived data, rebuilt only when the options (colormap aside), the canvas size
    // or the font size change.
    struct CacheKey {
        AlibiFigureOptions options;
        float width = 0, height = 0, fontSize = 0;
        bool operator==(const CacheKey& o) const;
    };
    std::optional<CacheKey> key_;
    AlibiLayout layout_;
    AlibiFigureData data_;
    std::string error_;
};

}  // namespace poslab::ui
