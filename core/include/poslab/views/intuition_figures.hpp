// intuition_figures.hpp — intuitions about position encodings as figures: why position at all
// (attention over a shuffled sentence), the binary clock, the linear shift T_k (and why it needs
// sin AND cos), and why the table uses many frequencies. Used by the GUI panel, `poslab render`
// and the guided tour.
#pragma once

#include <string>

#include "poslab/analysis/frequency_resolution.hpp"
#include "poslab/analysis/intuition.hpp"
#include "poslab/analysis/toy_attention.hpp"
#include "poslab/encodings/sinusoidal.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

struct BinaryClockOptions {
    int bits = 5;        // bits shown, 1..12
    int positions = 64;  // positions 0..N-1, 2..4096
    SinusoidalParams sinusoidal{64, 64, 10000,
                                SinusoidalLayout::Interleaved};  // dims beside the bits
    friend bool operator==(const BinaryClockOptions&, const BinaryClockOptions&) = default;  // member-wise: caches key on it
};
// Three panels (the bits, the sinusoidal dimensions, the bit curves) side by side while they
// have room (kBinaryClockPanels), else fewer columns, else `panel` alone.
inline constexpr PanelShape kBinaryClockPanels{3, 3, 14, 18, 10};
void drawBinaryClock(Figure& figure, Box area, const BinaryClockOptions& options,
                     const Theme& theme, int panel = 0);

struct LinearShiftOptions {
    SinusoidalParams sinusoidal{16, 256, 10000, SinusoidalLayout::Interleaved};
    double shift = 5;     // k
    int position = 10;    // p for the vector comparison
    int positions = 256;  // residual checked for p = 0..N-1
    int shownDims = 16;   // the corner of T_k drawn
    bool sinOnly = false;  // drop the cosine columns: the best least-squares map instead of T_k
                           // (d_model 1..512; shownDims then counts sine components)
    friend bool operator==(const LinearShiftOptions&, const LinearShiftOptions&) = default;  // member-wise: caches key on it
};
Status drawLinearShift(Figure& figure, Box area, const LinearShiftOptions& options,
                       const SampledShiftCheck& check, const Theme& theme);
// The sine-only comparison: the least-squares map on the sines beside the exact rotation's
// residual (`exact`, from sampledShiftCheck on the full table).
Status drawSineOnlyShift(Figure& figure, Box area, const LinearShiftOptions& options,
                         const SampledShiftCheck& exact, const SineOnlyShiftFit& fit,
                         const Theme& theme);
std::string linearShiftTitle(const LinearShiftOptions& options);  // the figure's headline
Status validate(const LinearShiftOptions& options);  // "shift must be finite", "dims must be ..."
Result<Figure> binaryClockFigure(const BinaryClockOptions& options, float width, float height,
                                 const Theme& theme, int panel = 0);
// Where binaryClockFigure puts its panels in a figure of that size (the GUI's selector).
PanelGrid binaryClockPanels(float width, float height, const Theme& theme, int panel = 0);
Result<Figure> linearShiftFigure(const LinearShiftOptions& options, float width, float height,
                                 const Theme& theme);

// ---- Why position at all: one attention head over a sentence and over its reordering
void drawAttentionShuffle(Figure& figure, Box area, const ShuffleComparison& comparison,
                          const ToyAttentionParams& params, const Theme& theme);
Result<Figure> attentionShuffleFigure(const ToyAttentionParams& params, float width, float height,
                                      const Theme& theme);

// ---- Why different frequencies: distances between positions, many frequencies against one
// Two plots (distances between positions; one pair on its own), one above the other while each
// has room (kFrequencyResolutionPanels: a projector's presentation fonts do not leave it), else
// `panel` alone.
inline constexpr PanelShape kFrequencyResolutionPanels{2, 1, 24, 11, 8};
void drawFrequencyResolution(Figure& figure, Box area, const FrequencyResolution& resolution,
                             const FrequencyResolutionParams& params, const Theme& theme,
                             int panel = 0);
// Where drawFrequencyResolution puts its panels in `area` (the GUI's selector).
PanelGrid frequencyResolutionPanels(Box area, const Theme& theme, int panel = 0);
Result<Figure> frequencyResolutionFigure(const FrequencyResolutionParams& params, float width,
                                         float height, const Theme& theme, int panel = 0);

}  // namespace poslab
