#include "poslab/figure/colormap.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace poslab {
namespace {

TEST(ColormapTest, EndpointsArePublishedColours) {
    // matplotlib's _cm_listed.py: viridis starts at #440154 and ends at #fde725; magma #000004 .. #fcfdbf.
    EXPECT_EQ(sampleColormap(ColormapId::Viridis, 0.0), (Rgba{0x44, 0x01, 0x54, 255}));
    EXPECT_EQ(sampleColormap(ColormapId::Viridis, 1.0), (Rgba{0xfd, 0xe7, 0x25, 255}));
    EXPECT_EQ(sampleColormap(ColormapId::Magma, 0.0), (Rgba{0x00, 0x00, 0x04, 255}));
    EXPECT_EQ(sampleColormap(ColormapId::Magma, 1.0), (Rgba{0xfc, 0xfd, 0xbf, 255}));
}

TEST(ColormapTest, DivergingIsWhiteAtCentre) {
    // 256 entries have no exact centre: entries 127 and 128 straddle it and are near-white.
    const auto& table = colormapTable(ColormapId::BlueWhiteRed);
    for (int i : {127, 128}) {
        EXPECT_GE(table[i].r, 245);
        EXPECT_GE(table[i].g, 245);
        EXPECT_GE(table[i].b, 245);
    }
    EXPECT_GT(table[0].b, table[0].r);      // negative end is blue
    EXPECT_GT(table[255].r, table[255].b);  // positive end is red
}

TEST(ColormapTest, CyclicMapMeetsItself) {
    const Rgba a = sampleColormap(ColormapId::Twilight, 0.0), b = sampleColormap(ColormapId::Twilight, 1.0);
    EXPECT_NEAR(a.r, b.r, 6);
    EXPECT_NEAR(a.g, b.g, 6);
    EXPECT_NEAR(a.b, b.b, 6);
}

TEST(ColormapTest, ViridisLightnessIncreases) {
    const auto& table = colormapTable(ColormapId::Viridis);
    auto luma = [](Rgba c) { return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b; };
    for (int i = 8; i < 256; i += 8) EXPECT_GT(luma(table[i]), luma(table[i - 8]));
}

TEST(ColormapTest, ColorizeMapsRangeAndSpecialValues) {
    Matrix m(1, 5);
    m.values = {-1.0, 1.0, NAN, -INFINITY, 7.0};
    ImageRgba image = colorize(m, ColormapId::Viridis, {-1.0, 1.0});
    ASSERT_EQ(image.pixels.size(), 20u);
    auto pixel = [&](int i) {
        return Rgba{image.pixels[4 * i], image.pixels[4 * i + 1], image.pixels[4 * i + 2], image.pixels[4 * i + 3]};
    };
    EXPECT_EQ(pixel(0), colormapTable(ColormapId::Viridis)[0]);
    EXPECT_EQ(pixel(1), colormapTable(ColormapId::Viridis)[255]);
    EXPECT_EQ(pixel(2), kMissingColor);
    EXPECT_EQ(pixel(3), kMaskedColor);
    EXPECT_EQ(pixel(4), colormapTable(ColormapId::Viridis)[255]);  // clamped
}

TEST(ColormapTest, RangesIgnoreNonFiniteValues) {
    Matrix m(1, 4);
    m.values = {-INFINITY, -3.0, 2.0, NAN};
    EXPECT_EQ(finiteRange(m).low, -3.0);
    EXPECT_EQ(finiteRange(m).high, 2.0);
    EXPECT_EQ(symmetricRange(m).low, -3.0);
    EXPECT_EQ(symmetricRange(m).high, 3.0);
}

TEST(ColormapTest, NamesRoundTrip) {
    for (ColormapId id : allColormaps()) EXPECT_EQ(*parseColormap(colormapName(id)), id);
    EXPECT_FALSE(parseColormap("jet").ok());
}

TEST(ColormapTest, RangeValuePastTheMiddleOfTheWidestRangeIsFinite) {
    // low + fraction * (high/2 - low/2) * 2 overflowed to inf past fraction 0.53 of
    // [-1.7e308, 1.7e308]; the reference (1 - f) low + f high never leaves the range.
    for (double f : {0.0, 0.25, 0.5, 0.55, 0.75, 0.999, 1.0}) {
        const double value = rangeValue(f, -1.7e308, 1.7e308);
        EXPECT_TRUE(std::isfinite(value)) << f;
        EXPECT_NEAR(value / 1e308, ((1 - f) * -1.7e308 + f * 1.7e308) / 1e308, 1e-12) << f;
        EXPECT_NEAR(rangeFraction(value, -1.7e308, 1.7e308), f, 1e-12) << f;
    }
}

TEST(ColormapTest, CategoricalHasThirtyTwoDistinctColours) {
    // T5 has 32 buckets by default: with 12 hues, buckets 6, 18 and 30 shared one colour. Ids
    // are drawn with range [0, 255], so id k samples t = k / 255.
    auto colour = [](int id) { return sampleColormap(ColormapId::Categorical, id / 255.0); };
    auto distance = [](Rgba a, Rgba b) {
        const double dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
        return std::sqrt(dr * dr + dg * dg + db * db);
    };
    double closest = INFINITY;
    for (int a = 0; a < kCategoricalColors; ++a) {
        for (int b = a + 1; b < kCategoricalColors; ++b)
            closest = std::min(closest, distance(colour(a), colour(b)));
    }
    EXPECT_GE(closest, 40.0);  // out of 441 for black to white
    EXPECT_NE(colour(6), colour(18));
    EXPECT_NE(colour(18), colour(30));
    EXPECT_NE(colour(6), colour(30));
    // Ids past 32 repeat the palette; the table ends on a whole cycle (256 = 8 x 32).
    EXPECT_EQ(colour(33), colour(1));
    EXPECT_EQ(colour(255), colour(31));
    // Every colour readable on both themes: neither near-black nor near-white.
    for (int id = 0; id < kCategoricalColors; ++id) {
        const Rgba c = colour(id);
        EXPECT_GT(c.r + c.g + c.b, 150) << id;
        EXPECT_LT(c.r + c.g + c.b, 720) << id;
    }
}

}  // namespace
}  // namespace poslab
