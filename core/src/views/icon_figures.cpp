#include "poslab/views/icon_figures.hpp"

#include <cmath>
#include <memory>
#include <string>

#include "poslab/encodings/sinusoidal.hpp"
#include "poslab/figure/colormap.hpp"

namespace poslab {

namespace {
constexpr double kHalfPi = 1.57079632679489661923;
}  // namespace

Result<Figure> iconFigure(float size) {
    if (!(size >= 16 && size <= 1024)) {
        return Error{"icon size must be 16..1024 pixels (got " + std::to_string(size) + ")"};
    }
    const SinusoidalParams params{kIconDimensions, kIconPositions, kIconBase,
                                  SinusoidalLayout::Interleaved};
    Matrix table(kIconPositions, kIconDimensions);
    for (int row = 0; row < kIconPositions; ++row) {
        for (int column = 0; column < kIconDimensions; ++column)
            table(row, column) = sinusoidalValue(params, row * kIconPositionStep, column);
    }

    Figure figure;
    figure.width = figure.height = size;
    figure.background = {0, 0, 0, 0};  // the tile carries the colour; corners stay transparent
    const float margin = size / 8;
    // The tile: a square with rounded corners (radius size/6, inside the 1/8 margin so the
    // table's corners are never cut), so the desktop shows the icon's shape, not a square.
    const float radius = size / 6;
    const float inset = size / 64;  // a hair inside the edges: themes draw no halo around it
    PolygonItem tile;
    tile.fill = {29, 35, 48, 255};
    const int steps = 12;  // per quarter circle: smooth at 1024 pixels
    const Point corners[4] = {{size - inset - radius, inset + radius},
                              {size - inset - radius, size - inset - radius},
                              {inset + radius, size - inset - radius},
                              {inset + radius, inset + radius}};
    for (int corner = 0; corner < 4; ++corner) {
        for (int i = 0; i <= steps; ++i) {
            const double angle = kHalfPi * (corner - 1 + double(i) / steps);  // -90° first
            tile.points.push_back({corners[corner].x + radius * float(std::cos(angle)),
                                   corners[corner].y + radius * float(std::sin(angle))});
        }
    }
    figure.add(std::move(tile));
    HeatmapItem heatmap;
    heatmap.box = {margin, margin, size - 2 * margin, size - 2 * margin};
    heatmap.values = std::make_shared<const Matrix>(std::move(table));
    heatmap.colormap = ColormapId::BlueWhiteRed;
    heatmap.range = {-1, 1};
    heatmap.version = nextMatrixVersion();
    figure.add(std::move(heatmap));
    return figure;
}

}  // namespace poslab
