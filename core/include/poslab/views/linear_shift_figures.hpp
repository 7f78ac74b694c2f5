// linear_shift_figures.hpp — the linear shift T_k: PE(p + k) = T_k PE(p) with T_k block-diagonal
// rotations, and the sine-only comparison showing why the table needs sin AND cos. Part of the
// Intuition view (intuition_figures.hpp).
#pragma once

#include <string>

#include "poslab/analysis/intuition.hpp"
#include "poslab/base/result.hpp"
#include "poslab/encodings/sinusoidal.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

struct LinearShiftOptions {
    SinusoidalParams sinusoidal{16, 256, 10000, SinusoidalLayout::Interleaved};
    double shift = 5;      // k
    int position = 10;     // p for the vector comparison
    int positions = 256;   // residual checked for p = 0..N-1
    int shownDims = 16;    // the corner of T_k drawn
    bool sinOnly = false;  // drop the cosine columns: the best least-squares map instead of T_k
                           // (d_model 1..512; shownDims then counts sine components)
    friend bool operator==(const LinearShiftOptions&,
                           const LinearShiftOptions&) = default;  // member-wise: caches key on it
};
// Three parts: the matrix (panel 1) and the vectors (2) side by side over the residual (3),
// while a two-column grid of them has room (kLinearShiftPanels); else one above the other;
// else (a projector's presentation fonts) `panel` alone over the whole area.
inline constexpr PanelShape kLinearShiftPanels{3, 2, 22, 9, 8};
PanelGrid linearShiftPanels(Box area, const Theme& theme, int panel = 0);  // the GUI's selector
Status drawLinearShift(Figure& figure, Box area, const LinearShiftOptions& options,
                       const SampledShiftCheck& check, const Theme& theme, int panel = 0);
// The sine-only comparison: the least-squares map on the sines beside the exact rotation's
// residual (`exact`, from sampledShiftCheck on the full table).
Status drawSineOnlyShift(Figure& figure, Box area, const LinearShiftOptions& options,
                         const SampledShiftCheck& exact, const SineOnlyShiftFit& fit,
                         const Theme& theme, int panel = 0);
std::string linearShiftTitle(const LinearShiftOptions& options);  // the figure's headline
Status validate(const LinearShiftOptions& options);  // "shift must be finite", "dims must be ..."
Result<Figure> linearShiftFigure(const LinearShiftOptions& options, float width, float height,
                                 const Theme& theme, int panel = 0);

}  // namespace poslab
