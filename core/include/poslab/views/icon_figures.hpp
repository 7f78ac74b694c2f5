// icon_figures.hpp — PosLab's application icon, drawn by PosLab: a corner of the sinusoidal
// table (positions down, dimensions across) on a dark tile. `poslab render icon` writes it as
// SVG or PNG, and the build makes the desktop icons from it.
#pragma once

#include "poslab/base/result.hpp"
#include "poslab/figure/figure.hpp"

namespace poslab {

// ---- The icon
inline constexpr int kIconPositions = 40;         // rows of the table shown
inline constexpr double kIconPositionStep = 0.5;  // rows at p = 0, 1/2, 1, …: the fastest
                                                      // column's waves stay smooth
inline constexpr int kIconDimensions = 16;  // columns: fast waves on the left, slow on the right
inline constexpr double kIconBase = 200;  // small, so even the slowest pair turns visibly
// A square figure `size` pixels a side (16..1024): the tile, then the table inset by a margin
// of size/8 on each side. Refuses sizes outside the range in one line.
Result<Figure> iconFigure(float size);

}  // namespace poslab
