#include "poslab/figure/colormap.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "poslab/base/format.hpp"

namespace poslab {

namespace {

// Key colours sampled every 1/32 from matplotlib's viridis, magma, cividis and twilight
// (the originals are CC0); linear interpolation between them stays within a few 1/255 steps.
constexpr std::uint32_t kViridisKeys[] = {
    0x440154, 0x470d60, 0x48186a, 0x482374, 0x472d7b, 0x453781, 0x424086, 0x3e4989,
    0x3b528b, 0x375b8d, 0x33638d, 0x2f6b8e, 0x2c728e, 0x297a8e, 0x26828e, 0x23898e,
    0x21918c, 0x1f988b, 0x1fa088, 0x22a785, 0x28ae80, 0x32b67a, 0x3fbc73, 0x4ec36b,
    0x5ec962, 0x70cf57, 0x84d44b, 0x98d83e, 0xaddc30, 0xc2df23, 0xd8e219, 0xece51b,
    0xfde725,
};
constexpr std::uint32_t kMagmaKeys[] = {
    0x000004, 0x030312, 0x0a0822, 0x130d34, 0x1d1147, 0x29115a, 0x36106b, 0x440f76,
    0x51127c, 0x5d177f, 0x6a1c81, 0x762181, 0x832681, 0x902a81, 0x9c2e7f, 0xaa337d,
    0xb73779, 0xc43c75, 0xd0416f, 0xdc4869, 0xe75263, 0xef5d5e, 0xf56b5c, 0xf9795d,
    0xfc8961, 0xfd9869, 0xfea772, 0xfeb67c, 0xfec488, 0xfed395, 0xfde2a3, 0xfcf0b2,
    0xfcfdbf,
};
constexpr std::uint32_t kCividisKeys[] = {
    0x00224e, 0x00285b, 0x002e6a, 0x053371, 0x1a386f, 0x273e6e, 0x32436d, 0x3b496c,
    0x434e6c, 0x4b546c, 0x535a6d, 0x5a5f6e, 0x61656f, 0x686a71, 0x6f7073, 0x767676,
    0x7d7c78, 0x848279, 0x8c8878, 0x938e78, 0x9b9476, 0xa39a74, 0xaba072, 0xb4a76f,
    0xbcae6c, 0xc4b468, 0xcdbb63, 0xd5c25e, 0xdec958, 0xe7d150, 0xf0d846, 0xf9e03a,
    0xfee838,
};
constexpr std::uint32_t kTwilightKeys[] = {
    0xe2d9e2, 0xd7d7dd, 0xc4ced4, 0xacc2cc, 0x95b5c7, 0x81a6c3, 0x7297c1, 0x6887be,
    0x6276ba, 0x5f64b5, 0x5e51ad, 0x5d3da1, 0x592a8f, 0x511b77, 0x45135c, 0x381145,
    0x2f1436, 0x3a113a, 0x4a1342, 0x5f174a, 0x741e4f, 0x872750, 0x983550, 0xa64550,
    0xb25652, 0xbb6958, 0xc27c63, 0xc89073, 0xcca389, 0xd1b6a3, 0xd8c7be, 0xdfd4d6,
    0xe2d9e2,
};
// ColorBrewer RdBu (reversed so that negative is blue) with a pure white centre.
constexpr std::uint32_t kBlueWhiteRedKeys[] = {
    0x053061, 0x2166ac, 0x4393c3, 0x92c5de, 0xd1e5f0, 0xffffff,
    0xfddbc7, 0xf4a582, 0xd6604d, 0xb2182b, 0x67001f,
};
// Tableau-like qualitative hues, chosen to stay distinguishable next to each other.
constexpr std::uint32_t kCategoricalKeys[] = {
    0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948,
    0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac, 0x1f77b4, 0x8cd17d,
};
constexpr int kCategoricalCount = int(std::size(kCategoricalKeys));

Rgba unpack(std::uint32_t rgb) {
    return Rgba{std::uint8_t(rgb >> 16), std::uint8_t(rgb >> 8), std::uint8_t(rgb), 255};
}

template <std::size_t N>
std::array<Rgba, kColormapSize> expand(const std::uint32_t (&keys)[N]) {
    std::array<Rgba, kColormapSize> table{};
    for (int i = 0; i < kColormapSize; ++i) {
        const double position = double(i) / (kColormapSize - 1) * (N - 1);
        const std::size_t lower = std::min(std::size_t(position), N - 2);
        const double fraction = position - double(lower);
        const Rgba a = unpack(keys[lower]), b = unpack(keys[lower + 1]);
        auto mix = [&](std::uint8_t x, std::uint8_t y) {
            return std::uint8_t(std::lround(x + (double(y) - double(x)) * fraction));
        };
        table[i] = Rgba{mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b), 255};
    }
    return table;
}

// OKLab (Björn Ottosson's perceptual space) of an sRGB colour: distances there track how
// different two colours look, which RGB distances do not.
struct Lab {
    double l, a, b;
};
Lab toOklab(Rgba c) {
    auto linear = [](std::uint8_t v) {
        const double x = v / 255.0;
        return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
    };
    const double r = linear(c.r), g = linear(c.g), b = linear(c.b);
    const double l = std::cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
    const double m = std::cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
    const double s = std::cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
    return {0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
            1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
            0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s};
}
double labDistance(Lab x, Lab y) {
    return std::sqrt((x.l - y.l) * (x.l - y.l) + (x.a - y.a) * (x.a - y.a) +
                     (x.b - y.b) * (x.b - y.b));
}

// The first 12 are the hand-picked hues above; the next 20 are chosen one at a time from a
// grid of sRGB colours as the one farthest (in OKLab) from every colour chosen so far, among
// colours neither too dark nor too light nor too grey to read on both themes. Deterministic.
std::array<Rgba, kCategoricalColors> categoricalPalette() {
    std::array<Rgba, kCategoricalColors> palette{};
    std::vector<Lab> chosen;
    for (int i = 0; i < kCategoricalCount; ++i) {
        palette[std::size_t(i)] = unpack(kCategoricalKeys[i]);
        chosen.push_back(toOklab(palette[std::size_t(i)]));
    }
    std::vector<std::pair<Rgba, Lab>> candidates;
    for (int r = 0; r < 256; r += 17) {
        for (int g = 0; g < 256; g += 17) {
            for (int b = 0; b < 256; b += 17) {
                const Rgba c{std::uint8_t(r), std::uint8_t(g), std::uint8_t(b), 255};
                const Lab lab = toOklab(c);
                if (lab.l < 0.5 || lab.l > 0.88 || std::hypot(lab.a, lab.b) < 0.07) continue;
                candidates.push_back({c, lab});
            }
        }
    }
    for (int i = kCategoricalCount; i < kCategoricalColors; ++i) {
        double best = -1;
        std::size_t pick = 0;
        for (std::size_t k = 0; k < candidates.size(); ++k) {
            double nearest = INFINITY;
            for (const Lab& c : chosen)
                nearest = std::min(nearest, labDistance(c, candidates[k].second));
            if (nearest > best) best = nearest, pick = k;
        }
        palette[std::size_t(i)] = candidates[pick].first;
        chosen.push_back(candidates[pick].second);
    }
    return palette;
}

std::array<Rgba, kColormapSize> categoricalTable() {
    // Integer ids are mapped by the caller with range [0, 255]: entry i is colour i mod 32.
    static_assert(kColormapSize % kCategoricalColors == 0);
    const std::array<Rgba, kCategoricalColors> palette = categoricalPalette();
    std::array<Rgba, kColormapSize> table{};
    for (int i = 0; i < kColormapSize; ++i) table[i] = palette[std::size_t(i % kCategoricalColors)];
    return table;
}

struct Tables {
    std::array<Rgba, kColormapSize> viridis = expand(kViridisKeys);
    std::array<Rgba, kColormapSize> magma = expand(kMagmaKeys);
    std::array<Rgba, kColormapSize> cividis = expand(kCividisKeys);
    std::array<Rgba, kColormapSize> twilight = expand(kTwilightKeys);
    std::array<Rgba, kColormapSize> blueWhiteRed = expand(kBlueWhiteRedKeys);
    std::array<Rgba, kColormapSize> categorical = categoricalTable();
};

const Tables& tables() {
    static const Tables instance;  // built once, immutable afterwards (thread-safe init)
    return instance;
}

}  // namespace

std::string_view colormapName(ColormapId id) {
    return enumName(kColormapNames, id);
}

std::vector<ColormapId> allColormaps() {
    std::vector<ColormapId> ids;
    for (const auto& entry : kColormapNames) ids.push_back(entry.value);
    return ids;
}

Result<ColormapId> parseColormap(std::string_view name) {
    return parseEnum(kColormapNames, name, "colormap");
}

bool isDiverging(ColormapId id) { return id == ColormapId::BlueWhiteRed; }

const std::array<Rgba, kColormapSize>& colormapTable(ColormapId id) {
    const Tables& t = tables();
    switch (id) {
        case ColormapId::Viridis: return t.viridis;
        case ColormapId::Magma: return t.magma;
        case ColormapId::Cividis: return t.cividis;
        case ColormapId::Twilight: return t.twilight;
        case ColormapId::BlueWhiteRed: return t.blueWhiteRed;
        case ColormapId::Categorical: return t.categorical;
    }
    return t.viridis;
}

Rgba sampleColormap(ColormapId id, double t) {
    if (std::isnan(t)) return kMissingColor;
    const double clamped = std::clamp(t, 0.0, 1.0);
    return colormapTable(id)[std::size_t(std::lround(clamped * (kColormapSize - 1)))];
}

ValueRange finiteRange(const Matrix& values) {
    double low = INFINITY, high = -INFINITY;
    for (double v : values.values) {
        if (!std::isfinite(v)) continue;
        low = std::min(low, v);
        high = std::max(high, v);
    }
    if (low > high) return {0, 1};
    if (low == high) return paddedRange(low, high, 0);
    return {low, high};
}

double rangeFraction(double value, double low, double high) {
    if (!(high != low)) return 0;
    const double width = high - low;
    if (std::isfinite(width)) return (value - low) / width;
    return (value / 2 - low / 2) / (high / 2 - low / 2);  // halves: no overflow for finite ends
}

double rangeValue(double fraction, double low, double high) {
    const double width = high - low;
    if (std::isfinite(width)) return low + fraction * width;
    // Halves, then doubled: low + fraction * width itself overflows past the middle.
    return (low / 2 + fraction * (high / 2 - low / 2)) * 2;
}

double spanRatio(double span, double low, double high) {
    if (!(high != low)) return 1;
    const double width = high - low;
    if (std::isfinite(width)) return span / width;
    return (span / 2) / (high / 2 - low / 2);
}

ValueRange paddedRange(double low, double high, double fraction) {
    // Each side moves by fraction * width, formed from halves so that neither overflows; the
    // result is clamped to the finite doubles, so a range at the edge keeps its finite end.
    double pad = fraction * 2 * (high / 2 - low / 2);
    if (!(high > low))
        pad = low - 0.5 != low ? 0.5 : std::abs(low) * 0.25;  // 0.5 too small at 1e16
    return {std::max(low - pad, -kLargestDouble), std::min(high + pad, kLargestDouble)};
}

ValueRange symmetricRange(const Matrix& values) {
    double magnitude = 0;
    for (double v : values.values) {
        if (std::isfinite(v)) magnitude = std::max(magnitude, std::abs(v));
    }
    if (magnitude == 0) magnitude = 1;
    return {-magnitude, magnitude};
}

ImageRgba colorize(const Matrix& values, ColormapId id, ValueRange range, Rgba masked) {
    ImageRgba image;
    image.width = int(values.cols);
    image.height = int(values.rows);
    image.pixels.resize(values.values.size() * 4);
    const auto& table = colormapTable(id);
    const double span = range.high - range.low;
    const bool directSpan = std::isfinite(span) && span != 0;
    const double scale = directSpan ? (kColormapSize - 1) / span : 0;
    for (std::size_t i = 0; i < values.values.size(); ++i) {
        const double v = values.values[i];
        Rgba color;
        if (std::isnan(v)) {
            color = kMissingColor;
        } else if (v == -INFINITY) {
            color = masked;
        } else {
            // Written so that no product is NaN: inf * 0 or inf - inf would clamp to NaN and
            // index the table out of range.
            double position = directSpan
                                  ? (v - range.low) * scale
                                  : rangeFraction(v, range.low, range.high) * (kColormapSize - 1);
            if (v == INFINITY || std::isnan(position)) position = kColormapSize - 1;
            const double index = std::clamp(position, 0.0, double(kColormapSize - 1));
            color = table[std::size_t(index + 0.5)];  // rounds half up, as lround for index >= 0
        }
        std::uint8_t* pixel = &image.pixels[i * 4];
        pixel[0] = color.r;
        pixel[1] = color.g;
        pixel[2] = color.b;
        pixel[3] = color.a;
    }
    return image;
}

}  // namespace poslab
