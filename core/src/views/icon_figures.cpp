#include "poslab/views/icon_figures.hpp"

#include <memory>
#include <string>

#include "poslab/encodings/sinusoidal.hpp"
#include "poslab/figure/colormap.hpp"

namespace poslab {

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
    figure.add(RectItem{{0, 0, size, size}, {29, 35, 48, 255}, {0, 0, 0, 0}, 0});
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
