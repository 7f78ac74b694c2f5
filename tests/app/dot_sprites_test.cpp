// Dot sprites (gfx/dot_sprites.hpp): a small filled circle is one textured quad whose pixels are
// those of Dear ImGui's anti-aliased polygon for the same circle.
//   - the sprites' alpha (no GL): opaque at the centre, clear beyond the fringe, and as much ink
//     as the inscribed polygon's area (the polygon ImGui tessellates, written out here);
//   - on GL (EGL, llvmpipe), against the same figure drawn with ImGui's polygons: two triangles a
//     dot instead of the polygon's (N - 2) + 2N; centres on a sprite phase give the same pixels
//     within rounding, any other centre within the edge's change over half a phase; a radius
//     that finds no free sheet in its frame is drawn as a polygon.
#include <gtest/gtest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numbers>
#include <vector>

#include "gfx/dot_sprites.hpp"
#include "gfx/offscreen.hpp"
#include "offscreen_fixture.hpp"
#include "poslab/figure/figure.hpp"

namespace poslab::test {
namespace {

// ---- The sprites' alpha, without GL or an ImGui context.
class DotSheetTest : public ::testing::Test {
  protected:
    DotSheetTest() : list_(&data_) {
        data_.SetCircleTessellationMaxError(ImGuiStyle().CircleTessellationMaxError);
        list_._ResetForNewFrame();
        list_.Flags = ImDrawListFlags_AntiAliasedFill;
    }
    // Alpha of sprite (i, j) at its pixel (x, y), 0..1.
    static double at(const std::vector<std::uint8_t>& sheet, int i, int j, int x, int y) {
        return sheet[std::size_t(j * gfx::kDotSpriteSide + y) * gfx::kDotSheetSide +
                     std::size_t(i * gfx::kDotSpriteSide + x)] /
               255.0;
    }
    ImDrawListSharedData data_;
    ImDrawList list_;
};

TEST_F(DotSheetTest, OpaqueInsideClearOutsideAndThePolygonsArea) {
    for (float radius : {1.5f, 2.0f, 3.0f, 4.0f}) {
        const std::vector<std::uint8_t> sheet = gfx::dotSheetAlpha(list_, radius);
        ASSERT_EQ(sheet.size(), std::size_t(gfx::kDotSheetSide) * gfx::kDotSheetSide);
        // ImGui's circle: N points on it, N from its tessellation error (0.3 px by default),
        // rounded up to an even count and then to a divisor step of its 48-sample table.
        const double error = ImGuiStyle().CircleTessellationMaxError;
        int segments = int(std::ceil(std::numbers::pi / std::acos(1 - error / radius)));
        segments += segments % 2;
        const int points = 48 / (48 / std::max(4, segments));
        // The fringe fades from 0.5 px inside the polygon to 0.5 px outside it, linearly, so the
        // ink is the polygon's area (what it loses inside it gains outside).
        const double area =
            points / 2.0 * radius * radius * std::sin(2 * std::numbers::pi / points);
        for (int j : {0, 5, 11}) {
            for (int i : {0, 7, 15}) {
                const double cx = gfx::kDotSpriteCentre + double(i) / gfx::kDotPhases;
                const double cy = gfx::kDotSpriteCentre + double(j) / gfx::kDotPhases;
                double ink = 0;
                for (int y = 0; y < gfx::kDotSpriteSide; ++y) {
                    for (int x = 0; x < gfx::kDotSpriteSide; ++x) {
                        const double a = at(sheet, i, j, x, y);
                        const double d = std::hypot(x + 0.5 - cx, y + 0.5 - cy);
                        ink += a;
                        // Beyond the fringe's outer corners (a mitred half pixel: 0.5 /
                        // cos(pi / N) past each point): clear.
                        if (d > radius + 0.5 / std::cos(std::numbers::pi / points) + 1e-3) {
                            EXPECT_EQ(a, 0) << radius << " " << x << "," << y;
                        }
                        // Inside the inner polygon (its inradius less the half fringe): opaque.
                        if (d < radius * std::cos(std::numbers::pi / points) - 0.75) {
                            EXPECT_EQ(a, 1) << radius << " " << x << "," << y;
                        }
                    }
                }
                // Sampled at pixel centres: within a tenth of the area plus a pixel.
                EXPECT_NEAR(ink, area, 0.1 * area + 1) << "radius " << radius;
            }
        }
    }
}

// ---- On GL: the same figure drawn with ImGui's polygons and with sprites.
class DotSpritesGlTest : public test::OffscreenRendererTest<DotSpritesGlTest> {};

Figure dotFigure(const std::vector<float>& radii, bool onPhases, int count) {
    Figure f;
    f.width = 320;
    f.height = 200;
    f.background = {250, 250, 245, 255};
    std::srand(7);
    auto unit = [] { return float(std::rand()) / float(RAND_MAX); };
    for (int i = 0; i < count; ++i) {
        CircleItem dot;
        float x = 10 + 300 * unit(), y = 10 + 180 * unit();
        if (onPhases) {  // whole sixteenths: exactly a sprite's phase
            x = std::round(x * gfx::kDotPhases) / gfx::kDotPhases;
            y = std::round(y * gfx::kDotPhases) / gfx::kDotPhases;
        }
        dot.center = {x, y};
        dot.radius = radii[std::size_t(i) % radii.size()];
        dot.fill = {std::uint8_t(30 + i % 200), 90, std::uint8_t(200 - i % 150),
                    std::uint8_t(40 + (i * 37) % 216)};
        f.items.push_back(dot);  // many overlap: blending in order is part of the picture
    }
    return f;
}

struct Difference {
    int largest = 0;
    double mean = 0;
};
Difference difference(const ImageRgba& a, const ImageRgba& b) {
    Difference d;
    for (std::size_t p = 0; p < a.pixels.size(); ++p) {
        const int delta = std::abs(int(a.pixels[p]) - int(b.pixels[p]));
        d.largest = std::max(d.largest, delta);
        d.mean += delta;
    }
    d.mean /= double(std::max<std::size_t>(1, a.pixels.size()));
    return d;
}

TEST_F(DotSpritesGlTest, TwoTrianglesADotAndTheSamePixels) {
    ASSERT_TRUE(renderer_) << failure_;
    const Figure none = dotFigure({3.0f}, true, 0);
    const Figure onPhases = dotFigure({3.0f, 2.0f, 2.5f, 4.0f}, true, 400);
    const Figure anywhere = dotFigure({3.0f, 2.0f, 2.5f, 3.5f}, false, 400);
    const Figure threes = dotFigure({3.0f}, false, 100);
    renderer_->useDotSprites(false);
    auto polygonsNone = renderer_->render(none);
    const int trianglesNone = renderer_->lastTriangles();
    auto polygonsThrees = renderer_->render(threes);
    const int polygonTriangles = renderer_->lastTriangles() - trianglesNone;
    auto polygonsOnPhases = renderer_->render(onPhases);
    auto polygonsAnywhere = renderer_->render(anywhere);
    renderer_->useDotSprites();
    auto spritesThrees = renderer_->render(threes);
    const int spriteTriangles = renderer_->lastTriangles() - trianglesNone;
    auto spritesOnPhases = renderer_->render(onPhases);
    auto spritesAnywhere = renderer_->render(anywhere);
    renderer_->useDotSprites(false);
    for (auto* image : {&polygonsNone, &polygonsThrees, &polygonsOnPhases, &polygonsAnywhere,
                        &spritesThrees, &spritesOnPhases, &spritesAnywhere})
        ASSERT_TRUE(image->ok()) << image->error().message;

    // A radius-3 circle is an 8-gon in ImGui (0.3 px error): 6 fan triangles and 16 of fringe.
    EXPECT_EQ(polygonTriangles, 100 * (6 + 16));
    EXPECT_EQ(spriteTriangles, 100 * 2);

    // On a phase the sprite is that polygon rasterised at pixel centres: rounding apart, equal.
    const Difference exact = difference(spritesOnPhases.value(), polygonsOnPhases.value());
    EXPECT_LE(exact.largest, 3);
    EXPECT_LT(exact.mean, 0.05);
    // Elsewhere the centre moves by at most 1/32 px on each axis, under 0.045 px, and the fringe
    // goes from clear to opaque over one pixel: under 0.045 of a dot's colour (12 levels), plus
    // rounding; over 400 overlapping translucent dots.
    const Difference moved = difference(spritesAnywhere.value(), polygonsAnywhere.value());
    EXPECT_LE(moved.largest, 14);
    EXPECT_LT(moved.mean, 0.25);
    EXPECT_GT(moved.largest, 0);  // the sprites were drawn, not the polygons again
}

TEST_F(DotSpritesGlTest, ARadiusWithoutAFreeSheetIsDrawnAsAPolygon) {
    ASSERT_TRUE(renderer_) << failure_;
    // Five radii in one frame: four sheets, so the fifth radius is ImGui's polygon.
    const std::vector<float> radii{1.5f, 2.0f, 2.5f, 3.0f, 3.5f};
    const Figure five = dotFigure(radii, false, 200);
    Figure fifthOnly = five;
    fifthOnly.items.clear();
    for (const FigureItem& item : five.items) {
        if (std::get<CircleItem>(item).radius == 3.5f) fifthOnly.items.push_back(item);
    }
    renderer_->useDotSprites(false);
    auto polygons = renderer_->render(fifthOnly);  // the fifth radius's dots alone
    const int polygonTriangles = renderer_->lastTriangles();
    renderer_->useDotSprites();
    auto mixed = renderer_->render(five);
    const int mixedTriangles = renderer_->lastTriangles();
    renderer_->useDotSprites(false);
    ASSERT_TRUE(polygons.ok() && mixed.ok());
    // 160 dots of the first four radii as sprites, 40 of the fifth as polygons.
    EXPECT_EQ(mixedTriangles - polygonTriangles, 160 * 2);
}

}  // namespace
}  // namespace poslab::test
