#include "poslab/figure/polyline.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

using poslab::Point;
using poslab::simplifyPolyline;

namespace {

// Distance from p to segment a-b, written out independently of the library: the closest point
// is a + t (b - a) with t the clamped projection.
double referenceDistance(Point p, Point a, Point b) {
    const double ux = b.x - a.x, uy = b.y - a.y;
    const double wx = p.x - a.x, wy = p.y - a.y;
    const double dot = ux * ux + uy * uy;
    double t = dot == 0 ? 0 : (wx * ux + wy * uy) / dot;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const double cx = a.x + t * ux - p.x, cy = a.y + t * uy - p.y;
    return std::sqrt(cx * cx + cy * cy);
}

bool same(Point a, Point b) {
    return a.x == b.x && a.y == b.y;
}

// Checks the contract: a subsequence with both ends, and every dropped point within tolerance
// of the kept segment that spans it.
void expectFaithful(const std::vector<Point>& input, const std::vector<Point>& output,
                    double tolerance) {
    ASSERT_GE(output.size(), 2u);
    EXPECT_TRUE(same(output.front(), input.front()));
    EXPECT_TRUE(same(output.back(), input.back()));
    std::size_t k = 0;  // index in output of the last kept point at or before i
    for (std::size_t i = 0; i < input.size(); ++i) {
        if (k + 1 < output.size() && same(input[i], output[k + 1])) {
            ++k;
            continue;
        }
        if (same(input[i], output[k])) continue;
        ASSERT_LT(k + 1, output.size()) << "point " << i << " after the last kept point";
        EXPECT_LE(referenceDistance(input[i], output[k], output[k + 1]), tolerance + 1e-6)
            << "dropped point " << i;
    }
    EXPECT_EQ(k + 1, output.size()) << "output is not a subsequence of the input";
}

}  // namespace

TEST(PolylineTest, CollinearPointsReduceToTheEnds) {
    std::vector<Point> line;
    for (int i = 0; i <= 100; ++i) line.push_back({float(i), 2.0f * i + 1});
    const auto kept = simplifyPolyline(line, 0.01f);
    ASSERT_EQ(kept.size(), 2u);
    EXPECT_TRUE(same(kept[0], line.front()));
    EXPECT_TRUE(same(kept[1], line.back()));
}

TEST(PolylineTest, KeepsACornerFartherThanTheTolerance) {
    const std::vector<Point> corner = {{0, 0}, {1, 1}, {2, 0}};  // the corner is 1 from the chord
    EXPECT_EQ(simplifyPolyline(corner, 0.5f).size(), 3u);
    EXPECT_EQ(simplifyPolyline(corner, 1.5f).size(), 2u);
}

TEST(PolylineTest, SmallInputsComeBackUnchanged) {
    EXPECT_TRUE(simplifyPolyline({}, 0.25f).empty());
    const std::vector<Point> one = {{3, 4}};
    ASSERT_EQ(simplifyPolyline(one, 0.25f).size(), 1u);
    const std::vector<Point> two = {{3, 4}, {3, 4}};
    EXPECT_EQ(simplifyPolyline(two, 0.25f).size(), 2u);
}

TEST(PolylineTest, SineCurveStaysWithinAQuarterPixel) {
    // A curve plot's polyline: one sample per pixel, 1000 pixels wide, amplitude 80 pixels.
    std::vector<Point> curve;
    for (int x = 0; x <= 1000; ++x) {
        curve.push_back({float(x), float(100 - 80 * std::sin(x * 0.05))});
    }
    const auto kept = simplifyPolyline(curve, 0.25f);
    expectFaithful(curve, kept, 0.25);
    EXPECT_LT(kept.size(), curve.size() / 2);  // smooth at this scale: most points are redundant
}

TEST(PolylineTest, NoisyCurveIsFaithfulEvenWhereFewPointsCanGo) {
    std::vector<Point> zigzag;
    for (int x = 0; x <= 500; ++x) zigzag.push_back({x * 0.5f, float((x * 7919) % 13) * 0.3f});
    expectFaithful(zigzag, simplifyPolyline(zigzag, 0.25f), 0.25);
}

TEST(PolylineTest, NonFinitePointsAreKeptAndNeverBridged) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<Point> broken = {{0, 0}, {1, 0}, {2, 0}, {3, nan}, {4, 0}, {5, 0}, {6, 0}};
    const auto kept = simplifyPolyline(broken, 0.25f);
    ASSERT_EQ(kept.size(), 5u);  // 0, 2 | NaN | 4, 6
    EXPECT_EQ(kept[0].x, 0);
    EXPECT_EQ(kept[1].x, 2);
    EXPECT_TRUE(std::isnan(kept[2].y));
    EXPECT_EQ(kept[3].x, 4);
    EXPECT_EQ(kept[4].x, 6);
}

TEST(PolylineTest, DistanceToSegmentMatchesTheProjectionFormula) {
    const Point a{1, 1}, b{4, 5};
    for (Point p : {Point{0, 0}, Point{2, 3}, Point{5, 9}, Point{4, 1}, Point{2.5f, 3}}) {
        EXPECT_NEAR(poslab::distanceToSegment(p, a, b), referenceDistance(p, a, b), 1e-5);
    }
    EXPECT_NEAR(poslab::distanceToSegment({3, 4}, {0, 0}, {0, 0}), 5.0, 1e-6);
}

TEST(PolylineTest, SplitsOnlyWhereTheLineTurnsBack) {
    // A zigzag: each join reverses direction by about 170 degrees (a fast wave drawn in a
    // narrow column); a gentle bend of 45 degrees stays one stroke.
    const std::vector<Point> zigzag = {{0, 0}, {0.1f, 10}, {0.2f, 0}, {0.3f, 10}};
    const auto pieces = poslab::splitAtSharpTurns(zigzag);
    ASSERT_EQ(pieces.size(), 3u);
    EXPECT_EQ(pieces[0].first, 0u);
    EXPECT_EQ(pieces[0].last, 1u);
    EXPECT_EQ(pieces[1].first, 1u);
    EXPECT_EQ(pieces[1].last, 2u);
    EXPECT_EQ(pieces[2].first, 2u);
    EXPECT_EQ(pieces[2].last, 3u);

    const std::vector<Point> bend = {{0, 0}, {10, 0}, {20, 10}};
    const auto whole = poslab::splitAtSharpTurns(bend);
    ASSERT_EQ(whole.size(), 1u);
    EXPECT_EQ(whole[0].first, 0u);
    EXPECT_EQ(whole[0].last, 2u);
    EXPECT_TRUE(poslab::splitAtSharpTurns(std::vector<Point>{{1, 1}}).empty());
}

TEST(PolylineTest, TurnLimitIsInDegrees) {
    // Turning by 90 degrees: split with a 60-degree limit, kept with the default 120.
    const std::vector<Point> corner = {{0, 0}, {10, 0}, {10, 10}};
    EXPECT_EQ(poslab::splitAtSharpTurns(corner, 60).size(), 2u);
    EXPECT_EQ(poslab::splitAtSharpTurns(corner).size(), 1u);
}
