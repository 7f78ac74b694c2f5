// colormap.hpp — colour scales shared by the screen and every exported figure.
//
// Each colormap is a handful of key colours expanded into a 256-entry lookup table and sampled by
// t in [0, 1]. Colours are applied on the CPU from the same table for the screen's textures
// (gfx/heatmap_textures) and for every file, so screen and files agree.
//
//   Viridis, Magma, Cividis   perceptually uniform, colourblind-safe (sequential data)
//   Twilight                  cyclic: t = 0 and t = 1 meet (angles mod 2*pi)
//   BlueWhiteRed              diverging, white at the centre (signed data centred at zero)
//   Categorical               distinct colours for integer ids (T5 buckets), repeats every 32
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

enum class ColormapId { Viridis, Magma, Cividis, Twilight, BlueWhiteRed, Categorical };

struct Rgba {
    std::uint8_t r = 0, g = 0, b = 0, a = 255;
    friend bool operator==(const Rgba&, const Rgba&) = default;
};

struct ValueRange {
    double low = 0;
    double high = 1;
    friend bool operator==(const ValueRange&, const ValueRange&) = default;
};

inline constexpr int kColormapSize = 256;
inline constexpr int kCategoricalColors = 32;  // Categorical: entry i is colour i mod 32

// ---- Names
inline constexpr EnumNames<ColormapId, 6> kColormapNames{
    {{ColormapId::Viridis, "viridis"},
     {ColormapId::Magma, "magma"},
     {ColormapId::Cividis, "cividis"},
     {ColormapId::Twilight, "twilight"},
     {ColormapId::BlueWhiteRed, "blue-white-red"},
     {ColormapId::Categorical, "categorical"}}};
std::string_view colormapName(ColormapId id);           // "viridis", "magma", ... "blue-white-red"
Result<ColormapId> parseColormap(std::string_view name);
std::vector<ColormapId> allColormaps();                 // in menu order
bool isDiverging(ColormapId id);                        // wants a range symmetric about zero

// ---- Sampling
const std::array<Rgba, kColormapSize>& colormapTable(ColormapId id);  // the lookup table
Rgba sampleColormap(ColormapId id, double t);   // t clamped to [0,1]; NaN gives kMissingColor
inline constexpr Rgba kMissingColor{255, 0, 255, 255};  // not-a-number cells: magenta
inline constexpr Rgba kMaskedColor{0, 0, 0, 0};         // -inf (masked) cells: transparent

// ---- Value ranges
// Ranges are finite but may be wider than the largest double (-1.7e308 .. 1.7e308): these
// helpers never form high - low directly, so no width overflows to inf and no fraction is NaN.
inline constexpr double kLargestDouble = 1.7976931348623157e308;
ValueRange finiteRange(const Matrix& values);  // min/max over finite cells ({0,1} if none)
ValueRange symmetricRange(const Matrix& values);  // [-m, m] with m = max |finite value|
double rangeFraction(double value, double low,
                     double high);  // (value-low)/(high-low); 0 if low==high
double rangeValue(double fraction, double low, double high);  // low + fraction*(high-low)
double spanRatio(double span, double low, double high);       // span / (high-low); 1 if empty
ValueRange paddedRange(double low, double high,
                       double fraction);  // widened by fraction of the
                                          // width (0.5 each way if low == high), finite

// ---- Images
struct ImageRgba {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels;  // width * height * 4, row-major, top row first
};

// One pixel per cell (row r becomes image row r); values mapped linearly from range to [0,1].
// -inf becomes `masked` (by default transparent), NaN kMissingColor, +inf the top of the scale.
ImageRgba colorize(const Matrix& values, ColormapId id, ValueRange range,
                   Rgba masked = kMaskedColor);

}  // namespace poslab
