// t5_panel.hpp — the T5 view: the L x L bucket ids of key - query (hover: bucket and the
// distances it covers), the bias matrix from per-bucket values (seeded, editable per bucket),
// and the bucket edges and the bias as step functions of the relative position.
#pragma once

#include <optional>

#include "poslab/bias_figures.hpp"
#include "ui/panel.hpp"

namespace poslab::ui {

class T5Panel : public Panel {
  public:
    const char* title() const override { return "T5"; }
    void draw(AppState& state, FrameContext& context) override;
    Figure exportFigure(const AppState& state, float width, float height,
                        const Theme& theme) const override;
    Result<Matrix> exportData(const AppState& state) const override;  // the bucket ids

    static T5FigureOptions optionsFor(const T5ViewState& view);

  private:
    void drawControls(T5ViewState& view);
    void drawBucketEditor(T5ViewState& view);
    void drawFigure(T5ViewState& view, FrameContext& context);
    void showTooltip(const T5FigureOptions& options, const T5FigureFrames& frames,
                     Point mouse) const;

    struct CacheKey {
        T5FigureOptions options;
        float width = 0, height = 0, fontSize = 0;
        bool operator==(const CacheKey& o) const;
    };
    std::optional<CacheKey> key_;
    T5Layout layout_;
    T5FigureData data_;
    std::string error_;
};

}  // namespace poslab::ui
