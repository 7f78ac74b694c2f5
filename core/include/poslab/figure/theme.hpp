// theme.hpp — colours, text sizes and line scale of a figure, and the paper controls (legend,
// title, aspect, --panel) every drawing function reads, so the screen, PNG, SVG and PDF agree.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/result.hpp"
#include "poslab/figure/figure.hpp"  // Rgba

namespace poslab {

// ---- Themes
enum class ThemeId { Dark, Paper };
// Paper controls (`poslab render --legend/--title/--aspect/--panel`, the export dialog): the
// drawing functions below read them, so the screen, PNG, SVG and PDF agree.
enum class LegendPlacement { Auto, Outside, None };   // auto: the corner hiding the least data
enum class TitleMode { Auto, Replace, Hidden };       // the view's title, Theme::titleText, none
enum class AspectMode { Auto, Square };               // square: plot boxes as wide as tall
enum class TitleTarget { FigureTitle, PanelTitles };  // what TitleMode::Replace replaces
// Files show every panel of a multi-panel view (figure_controls' buildWithAllPanels): a grid too
// small for its panels at their legible size squeezes them all in instead of showing one, and
// records how much taller the canvas would have to be for them to fit.
struct PanelRoom {
    float missingHeight = 0;  // px the canvas lacks (the largest any grid asked for)
};
struct Theme {
    ThemeId id = ThemeId::Dark;
    Rgba background, plotBackground, text, mutedText, axis, grid, masked, accent;
    float fontSize = 14;   // tick labels and legends
    float titleSize = 17;  // plot titles
    float fontScale = 1;   // what scaledTheme multiplied fontSize and titleSize by, in total
    LegendPlacement legend = LegendPlacement::Auto;
    TitleMode titleMode = TitleMode::Auto;
    std::string titleText;  // TitleMode::Replace: the title drawn instead of the view's
    TitleTarget titleTarget = TitleTarget::FigureTitle;  // set by buildWithControls
    AspectMode aspect = AspectMode::Auto;
    int focusPanel = 0;   // > 0: panel N (1-based) drawn over the whole figure (figure_controls)
    float lineScale = 1;  // line widths, tick lengths, markers and legend swatches (1: 1 px)
    // The smallest size text may be shrunk to (readableMinScale), in px; 0: no floor. Files in
    // the paper theme: 8 pt at the printed width (forFiles, figure_controls.hpp).
    float minTextSize = 0;
    PanelRoom* panelRoom = nullptr;  // set: every panel shown (files); see PanelRoom
    // A lecture's step that names its panel (presentation mode, a lesson's "panel"): a view of
    // several panels shows them one at a time whatever its room, so the card's subject fills
    // the figure (a grid of all of them at 1440x900 squeezed its plots to strips, #28).
    bool panelsOneAtATime = false;
    // A vector file (PDF, SVG): a heatmap's texels are its cells (texelBudget(pixels, true)), an
    // image of one pixel per cell that a reader zooms into, not the mean of the cells under
    // each figure pixel (#28). Screens and PNGs keep one texel per pixel.
    bool cellResolution = false;
};
Theme darkTheme();   // the screen theme
Theme paperTheme();  // white background, black text: for print
Theme themeFor(ThemeId id);
inline constexpr EnumNames<ThemeId, 2> kThemeNames{
    {{ThemeId::Dark, "dark"}, {ThemeId::Paper, "paper"}}};
inline constexpr EnumNames<LegendPlacement, 3> kLegendPlacementNames{
    {{LegendPlacement::Auto, "auto"},
     {LegendPlacement::Outside, "outside"},
     {LegendPlacement::None, "none"}}};
inline constexpr EnumNames<AspectMode, 2> kAspectNames{
    {{AspectMode::Auto, "auto"}, {AspectMode::Square, "square"}}};
Result<LegendPlacement> parseLegendPlacement(std::string_view name);  // "auto", "outside", "none"
Result<AspectMode> parseAspect(std::string_view name);                // "auto", "square"
inline constexpr float kMinFontScale = 0.5f, kMaxFontScale = 3.0f;    // --font-scale
std::string_view themeName(ThemeId id);                               // "dark", "paper"
Result<ThemeId> parseTheme(std::string_view name);
// Fonts, line widths, tick lengths, markers and swatches scaled together (presentation mode,
// HiDPI): a figure at factor 2 looks like the same figure twice the size.
Theme scaledTheme(Theme theme, float factor);
float strokeWidth(const Theme& theme, float width);  // width (px at scale 1) at the theme's scale
Rgba seriesColor(int index);                         // line colours, colourblind-friendly order
Rgba seriesColor(int index, const Theme& theme);     // the same, black for yellow on paper
// A line colour as the theme prints it: Okabe-Ito's yellow, which vanishes on white paper, is
// black there (a series a view coloured itself, as seriesColor(index, theme) does by index).
Rgba lineColorOn(Rgba color, const Theme& theme);
Rgba withAlpha(Rgba color, std::uint8_t alpha);

}  // namespace poslab
