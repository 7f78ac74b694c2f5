// binary_clock_figures.hpp — counting in binary beside the sinusoidal table: each bit flips at half
// the rate of the one below it, as each sinusoidal dimension pair turns slower than the one
// before. Part of the Intuition view (intuition_figures.hpp).
#pragma once

#include "poslab/encodings/sinusoidal.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

struct BinaryClockOptions {
    int bits = 5;        // bits shown, 1..12
    int positions = 64;  // positions 0..N-1, 2..4096
    SinusoidalParams sinusoidal{64, 64, 10000,
                                SinusoidalLayout::Interleaved};  // dims beside the bits
    friend bool operator==(const BinaryClockOptions&,
                           const BinaryClockOptions&) = default;  // member-wise: caches key on it
};
// Three panels (the bits, the sinusoidal dimensions, the bit curves) side by side while they
// have room (kBinaryClockPanels), else fewer columns, else `panel` alone.
inline constexpr PanelShape kBinaryClockPanels{3, 3, 14, 18, 10};
void drawBinaryClock(Figure& figure, Box area, const BinaryClockOptions& options,
                     const Theme& theme, int panel = 0);
Result<Figure> binaryClockFigure(const BinaryClockOptions& options, float width, float height,
                                 const Theme& theme, int panel = 0);
// Where binaryClockFigure puts its panels in a figure of that size (the GUI's selector).
PanelGrid binaryClockPanels(float width, float height, const Theme& theme, int panel = 0);

}  // namespace poslab
