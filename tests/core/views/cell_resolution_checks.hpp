// cell_resolution_checks.hpp — what a vector file's figure (Theme::cellResolution) must hold
// (#28): each map's image one texel per cell of its table, no note about what a pixel averages
// or samples, and each cell's colour that of the value the reference formula gives.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "poslab/figure/colormap.hpp"
#include "poslab/figure/figure.hpp"
#include "poslab/figure/theme.hpp"

namespace poslab {

// The theme `render --out F.pdf` and the export dialog's SVG/PDF build with.
inline Theme vectorFileTheme(Theme theme) {
    theme.cellResolution = true;
    return theme;
}

// The figure's maps in drawing order, colour bars left out
// (a bar is one texel wide).
inline std::vector<const HeatmapItem*> mapsOf(const Figure& figure) {
    std::vector<const HeatmapItem*> maps;
    for (const FigureItem& item : figure.items) {
        const auto* map = std::get_if<HeatmapItem>(&item);
        if (map && map->values && map->values->cols > 1 && map->values->rows > 1)
            maps.push_back(map);
    }
    return maps;
}

// Every text of the figure holding `word` (case as given), joined for a failure message.
inline std::string textsWith(const Figure& figure, const std::string& word) {
    std::string found;
    for (const FigureItem& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (text && text->text.find(word) != std::string::npos) found += "\"" + text->text + "\" ";
    }
    return found;
}

// No note or caption speaks of pixels or of means of cells.
inline void expectNoSamplingNote(const Figure& figure) {
    for (const char* word : {"pixel", "/px", "mean of", "mean,", "centre cell"})
        EXPECT_EQ(textsWith(figure, word), "") << "a note on sampling: " << word;
}

// Cell (row, col) of `map` is `expected` (the reference formula's value), and its colour is the
// colour map's at that value on the map's range.
inline void expectCell(const HeatmapItem& map, std::size_t row, std::size_t col, double expected,
                       double tolerance) {
    ASSERT_LT(row, map.values->rows);
    ASSERT_LT(col, map.values->cols);
    const double got = (*map.values)(row, col);
    EXPECT_NEAR(got, expected, tolerance) << "cell " << row << ", " << col;
    auto colour = [&](double v) {
        return sampleColormap(map.colormap, (v - map.range.low) / (map.range.high - map.range.low));
    };
    const Rgba want = colour(expected), have = colour(got);
    EXPECT_TRUE(want.r == have.r && want.g == have.g && want.b == have.b)
        << "cell " << row << ", " << col << " colour";
}

}  // namespace poslab
