#include "poslab/figure/figure_controls.hpp"

#include <string>

#include "poslab/base/format.hpp"

namespace poslab {

Status checkFontScale(double scale) {
    if (scale >= kMinFontScale && scale <= kMaxFontScale) return success();  // NaN fails
    return Error{"font_scale must be " + formatValue(kMinFontScale) + ".." +
                 formatValue(kMaxFontScale) + " (got " + formatValue(scale) + ")"};
}

Theme withFontScale(Theme theme, float scale) {
    return scale == 1 ? theme : scaledTheme(theme, scale);
}

Figure keepPanel(const Figure& figure, std::size_t index) {
    Figure kept;
    kept.width = figure.width;
    kept.height = figure.height;
    kept.background = figure.background;
    const PanelSpan& span = figure.panels[index];
    // Clip pushes and pops inside the span come in pairs (every plot pops what it pushed).
    kept.recordingMarks = figure.recordingMarks;
    for (std::size_t i = span.begin; i < span.end; ++i) kept.addCopied(figure.items[i]);
    kept.panels.push_back({span.area, 0, kept.items.size()});
    return kept;
}

Result<Figure> buildWithControls(const ThemedBuild& build, Theme theme) {
    if (theme.focusPanel > 0) {
        // The figure's title goes with the other panels: --title names the panel's.
        theme.titleTarget = TitleTarget::PanelTitles;
        auto figure = build(theme);
        if (!figure) return figure;
        const std::size_t count = figure->panels.size();
        if (count <= 1) {
            if (theme.focusPanel != 1) {
                return Error{"panel must be 1..1 for this view (got " +
                             std::to_string(theme.focusPanel) + ")"};
            }
            if (count == 0 && theme.titleMode == TitleMode::Replace) {
                theme.focusPanel = 0;  // no plots: the whole figure, its own title replaced
                theme.titleTarget = TitleTarget::FigureTitle;
                return build(theme);
            }
            return figure;
        }
        if (std::size_t(theme.focusPanel) > count) {
            return Error{"panel must be 1.." + std::to_string(count) + " for this view (got " +
                         std::to_string(theme.focusPanel) + ")"};
        }
        return keepPanel(*figure, std::size_t(theme.focusPanel - 1));
    }
    if (theme.titleMode != TitleMode::Replace) return build(theme);
    theme.titleTarget = TitleTarget::FigureTitle;
    auto figure = build(theme);
    if (!figure || figure->figureTitles > 0) return figure;
    theme.titleTarget = TitleTarget::PanelTitles;  // no figure title: the plot's is the title
    return build(theme);
}

}  // namespace poslab
