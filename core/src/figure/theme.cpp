#include "poslab/figure/theme.hpp"

#include <iterator>

namespace poslab {

Theme darkTheme() {
    Theme t;
    t.id = ThemeId::Dark;
    t.background = {30, 32, 36, 255};
    t.plotBackground = {22, 23, 26, 255};
    t.text = {230, 232, 236, 255};
    t.mutedText = {160, 165, 175, 255};
    t.axis = {150, 155, 165, 255};
    t.grid = {70, 74, 82, 255};
    t.masked = {58, 58, 62, 255};
    t.accent = {255, 140, 60, 255};
    return t;
}

Theme paperTheme() {
    Theme t;
    t.id = ThemeId::Paper;
    t.background = {255, 255, 255, 255};
    t.plotBackground = {255, 255, 255, 255};
    t.text = {0, 0, 0, 255};  // print: black text and axes, no grey that fades on paper
    t.mutedText = {60, 60, 60, 255};
    t.axis = {0, 0, 0, 255};
    t.grid = {222, 222, 222, 255};
    t.masked = {200, 200, 200, 255};
    t.accent = {213, 94, 0, 255};
    return t;
}

Theme themeFor(ThemeId id) {
    return id == ThemeId::Paper ? paperTheme() : darkTheme();
}

std::string_view themeName(ThemeId id) {
    return enumName(kThemeNames, id);
}

Result<ThemeId> parseTheme(std::string_view name) {
    return parseEnum(kThemeNames, name, "theme");
}

Theme scaledTheme(Theme theme, float factor) {
    theme.fontSize *= factor;
    theme.titleSize *= factor;
    theme.fontScale *= factor;
    theme.lineScale *= factor;
    theme.minTextSize *= factor;
    return theme;
}

float strokeWidth(const Theme& theme, float width) {
    return width * theme.lineScale;
}

Result<LegendPlacement> parseLegendPlacement(std::string_view name) {
    return parseEnum(kLegendPlacementNames, name, "legend");
}

Result<AspectMode> parseAspect(std::string_view name) {
    return parseEnum(kAspectNames, name, "aspect");
}

Rgba seriesColor(int index) {
    // Okabe-Ito: distinguishable with the common colour-vision deficiencies.
    static constexpr Rgba palette[] = {
        {86, 180, 233, 255}, {230, 159, 0, 255}, {0, 158, 115, 255}, {204, 121, 167, 255},
        {240, 228, 66, 255}, {0, 114, 178, 255}, {213, 94, 0, 255},  {180, 180, 180, 255}};
    return palette[std::size_t(index) % std::size(palette)];
}

Rgba seriesColor(int index, const Theme& theme) {
    return lineColorOn(seriesColor(index), theme);
}

Rgba lineColorOn(Rgba color, const Theme& theme) {
    // Okabe-Ito's yellow vanishes on white paper: black takes its place there (any alpha).
    const Rgba yellow = seriesColor(4);
    const bool isYellow = color.r == yellow.r && color.g == yellow.g && color.b == yellow.b;
    return theme.id == ThemeId::Paper && isYellow ? Rgba{0, 0, 0, color.a} : color;
}

Rgba withAlpha(Rgba color, std::uint8_t alpha) {
    color.a = alpha;
    return color;
}

}  // namespace poslab
