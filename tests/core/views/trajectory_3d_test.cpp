#include "poslab/views/trajectory_3d.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "../test_math.hpp"
#include "figure_checks.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "poslab/views/learned_structure_figures.hpp"

namespace poslab {
namespace {

// The camera written out as matrices: R = Rx(pitch) * Ry(yaw), with Ry turning +PC3 toward +x
// and Rx turning +PC2 toward the viewer (+z).
std::array<double, 3> cameraReference(double a, double b, double c, double yawDegrees,
                                      double pitchDegrees) {
    const double y = yawDegrees * kPi / 180, p = pitchDegrees * kPi / 180;
    const double ry[3][3] = {
        {std::cos(y), 0, std::sin(y)}, {0, 1, 0}, {-std::sin(y), 0, std::cos(y)}};
    const double rx[3][3] = {
        {1, 0, 0}, {0, std::cos(p), -std::sin(p)}, {0, std::sin(p), std::cos(p)}};
    const double v[3] = {a, b, c};
    double turned[3] = {0, 0, 0}, out[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) turned[i] += ry[i][j] * v[j];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) out[i] += rx[i][j] * turned[j];
    return {out[0], out[1], out[2]};
}

TEST(Trajectory3dTest, ZeroAnglesShowPC1AcrossAndPC2Up) {
    const ViewAngles straight{0, 0};
    const ViewPoint pc1 = projectPoint(1, 0, 0, straight);
    EXPECT_NEAR(pc1.x, 1, 1e-15);
    EXPECT_NEAR(pc1.y, 0, 1e-15);
    EXPECT_NEAR(pc1.depth, 0, 1e-15);
    const ViewPoint pc2 = projectPoint(0, 1, 0, straight);
    EXPECT_NEAR(pc2.x, 0, 1e-15);
    EXPECT_NEAR(pc2.y, 1, 1e-15);
    const ViewPoint pc3 = projectPoint(0, 0, 1, straight);
    EXPECT_NEAR(pc3.depth, 1, 1e-15);  // PC3 points at the viewer
}

TEST(Trajectory3dTest, Yaw90PutsPC3WherePC1Was) {
    const ViewAngles turned{90, 0};
    const ViewPoint pc3 = projectPoint(0, 0, 1, turned);
    EXPECT_NEAR(pc3.x, 1, 1e-12);
    EXPECT_NEAR(pc3.y, 0, 1e-12);
    const ViewPoint pc1 = projectPoint(1, 0, 0, turned);
    EXPECT_NEAR(pc1.x, 0, 1e-12);
    EXPECT_NEAR(pc1.depth, -1, 1e-12);  // PC1 now points away, along the line of sight
    EXPECT_NEAR(projectPoint(0, 1, 0, turned).y, 1, 1e-12);  // PC2 stays up
}

TEST(Trajectory3dTest, Pitch90LooksDownPC2) {
    const ViewAngles above{0, 90};
    const ViewPoint pc2 = projectPoint(0, 1, 0, above);
    EXPECT_NEAR(pc2.x, 0, 1e-12);
    EXPECT_NEAR(pc2.y, 0, 1e-12);
    EXPECT_NEAR(pc2.depth, 1, 1e-12);
    EXPECT_NEAR(projectPoint(0, 0, 1, above).y, -1, 1e-12);  // the front goes down the screen
    EXPECT_NEAR(projectPoint(1, 0, 0, above).x, 1, 1e-12);
}

TEST(Trajectory3dTest, MatchesTheRotationMatricesAndKeepsLengths) {
    const double points[][3] = {{1, 2, 3}, {-0.5, 4, 0.25}, {7, -1, -2}, {0, 0, 0}};
    for (double yaw : {-170.0, -45.0, 0.0, 30.0, 90.0, 123.0, 400.0}) {
        for (double pitch : {-90.0, -20.0, 0.0, 20.0, 60.0, 90.0}) {
            for (const auto& v : points) {
                const ViewPoint p = projectPoint(v[0], v[1], v[2], {yaw, pitch});
                const auto r = cameraReference(v[0], v[1], v[2], yaw, pitch);
                EXPECT_NEAR(p.x, r[0], 1e-12);
                EXPECT_NEAR(p.y, r[1], 1e-12);
                EXPECT_NEAR(p.depth, r[2], 1e-12);
                const double before = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
                const double after = std::sqrt(p.x * p.x + p.y * p.y + p.depth * p.depth);
                EXPECT_NEAR(after, before, 1e-12);
            }
        }
    }
}

TEST(Trajectory3dTest, BackToFrontOrderDrawsTheFarthestFirst) {
    EXPECT_EQ(backToFrontOrder({0.5, -1, 2, 0}), (std::vector<std::size_t>{1, 3, 0, 2}));
    EXPECT_EQ(backToFrontOrder({1, 1, 0}), (std::vector<std::size_t>{2, 0, 1}));  // ties: index
    EXPECT_TRUE(backToFrontOrder({}).empty());
}

TEST(Trajectory3dTest, FigureDrawsItsDotsBackToFront) {
    // Position r at PC1 = r (so its dot is found by x) with a PC3 out of order: seen straight
    // down PC3, depth is PC3 and the dots must come in increasing PC3.
    const std::vector<double> pc3 = {3, 0, 4, 1, 5, 9, 2, 6};
    Matrix projections(pc3.size(), 3);
    for (std::size_t r = 0; r < pc3.size(); ++r) {
        projections(r, 0) = double(r);
        projections(r, 1) = 0.3 * double(r % 3);
        projections(r, 2) = pc3[r];
    }
    Trajectory3dOptions options;
    options.angles = {0, 0};
    Figure figure = emptyFigure(800, 600, paperTheme());
    Trajectory3dFrame frame;
    drawTrajectory3d(figure, {0, 0, 800, 600}, projections, options, paperTheme(), &frame);
    ASSERT_EQ(frame.points.size(), pc3.size());
    std::vector<double> drawnDepths;
    for (const CircleItem* dot : itemsOf<CircleItem>(figure)) {
        for (std::size_t r = 0; r < pc3.size(); ++r) {
            if (std::abs(dot->center.x - frame.points[r].x) < 0.01f) drawnDepths.push_back(pc3[r]);
        }
    }
    ASSERT_EQ(drawnDepths.size(), pc3.size());
    EXPECT_TRUE(std::is_sorted(drawnDepths.begin(), drawnDepths.end()));
    // The points are evenly spaced in PC1 across the screen, one scale for all axes.
    const float step = frame.points[1].x - frame.points[0].x;
    EXPECT_GT(step, 0);
    for (std::size_t r = 1; r < pc3.size(); ++r)
        EXPECT_NEAR(frame.points[r].x - frame.points[r - 1].x, step, 0.01);
    EXPECT_NEAR(frame.points[3].y - frame.points[0].y, 0, 0.01);            // same PC2
    EXPECT_NEAR(frame.points[0].y - frame.points[1].y, 0.3f * step, 0.01);  // up is +PC2
}

TEST(Trajectory3dTest, AFaintPathIsABackdropBehindEveryDot) {
    Matrix projections(50, 3);
    for (std::size_t r = 0; r < 50; ++r) {
        projections(r, 0) = std::cos(0.7 * double(r));
        projections(r, 1) = std::sin(1.3 * double(r));
        projections(r, 2) = std::cos(2.1 * double(r));
    }
    Trajectory3dOptions options;
    options.pathAlpha = 50;
    options.colorbar = false;
    Figure figure = emptyFigure(600, 500, darkTheme());
    Trajectory3dFrame frame;
    drawTrajectory3d(figure, {0, 0, 600, 500}, projections, options, darkTheme(), &frame);
    std::size_t lastSegment = 0, firstDot = figure.items.size(), segments = 0;
    for (std::size_t i = 0; i < figure.items.size(); ++i) {
        if (auto* line = std::get_if<LineItem>(&figure.items[i]); line && line->color.a == 50) {
            lastSegment = i;
            ++segments;
        }
        if (std::holds_alternative<CircleItem>(figure.items[i])) firstDot = std::min(firstDot, i);
    }
    EXPECT_EQ(segments, 49u);
    EXPECT_LT(lastSegment, firstDot);
}

// The spread of the dots' distances from the middle of their bounding box, relative to the
// mean distance: 0 for points all round a circle.
double circleSpread(const std::vector<Point>& points) {
    float left = INFINITY, right = -INFINITY, top = INFINITY, bottom = -INFINITY;
    for (Point p : points) {
        left = std::min(left, p.x), right = std::max(right, p.x);
        top = std::min(top, p.y), bottom = std::max(bottom, p.y);
    }
    const double cx = (left + right) / 2.0, cy = (top + bottom) / 2.0;
    double low = INFINITY, high = 0, sum = 0;
    for (Point p : points) {
        const double d = std::hypot(p.x - cx, p.y - cy);
        low = std::min(low, d);
        high = std::max(high, d);
        sum += d;
    }
    return (high - low) / (sum / double(points.size()));
}

std::vector<Point> dotCentres(const Figure& figure, Box inside) {
    std::vector<Point> centres;
    for (const CircleItem* dot : itemsOf<CircleItem>(figure)) {
        if (inside.contains(dot->center)) centres.push_back(dot->center);
    }
    return centres;
}

TEST(Trajectory3dTest, HelixSeenDownItsAxisIsACircle) {
    // (cos t, 0.05 t, sin t): a helix around PC2, four whole turns, 64 points a turn.
    const int rows = 256;
    Matrix helix(rows, 3);
    for (int r = 0; r < rows; ++r) {
        const double t = 2 * kPi * r / 64;
        helix(r, 0) = std::cos(t);
        helix(r, 1) = 0.05 * t;
        helix(r, 2) = std::sin(t);
    }
    for (double yaw : {0.0, 37.0, -120.0}) {
        Trajectory3dOptions options;
        options.angles = {yaw, 90};
        Figure figure = emptyFigure(700, 600, darkTheme());
        Trajectory3dFrame frame;
        drawTrajectory3d(figure, {0, 0, 700, 600}, helix, options, darkTheme(), &frame);
        const std::vector<Point> dots = dotCentres(figure, frame.plot);
        ASSERT_EQ(dots.size(), std::size_t(rows));
        EXPECT_LT(circleSpread(dots), 0.01) << "yaw " << yaw;
    }
    // From the side it is a wave, far from a circle.
    Trajectory3dOptions side;
    side.angles = {0, 0};
    Figure figure = emptyFigure(700, 600, darkTheme());
    Trajectory3dFrame frame;
    drawTrajectory3d(figure, {0, 0, 700, 600}, helix, side, darkTheme(), &frame);
    EXPECT_GT(circleSpread(dotCentres(figure, frame.plot)), 0.5);
}

TEST(Trajectory3dTest, StructureFigureOfAHelixTableShowsACircleDownItsAxis) {
    // A GPT-2-like table: (cos t, sin t, c t + a sin t) for t symmetric about 0, where a makes
    // the third column uncorrelated with sin t (cos t is even and c t odd: those two are
    // uncorrelated already). The covariance is then diagonal: PC1 is the long axis and PC2, PC3
    // the circle, whatever the solver. Spread over 6 dimensions by an isometry (each column
    // split into two of equal size), so PCA has to find the axes.
    const int half = 120, rows = 2 * half + 1, d = 6;
    const double c = 0.12;
    std::vector<double> t(rows);
    double tSin = 0, sinSin = 0;
    for (int r = 0; r < rows; ++r) {
        t[std::size_t(r)] = 2 * kPi * (r - half) / 40;  // six turns, 40 positions a turn
        tSin += t[std::size_t(r)] * std::sin(t[std::size_t(r)]);
        sinSin += std::pow(std::sin(t[std::size_t(r)]), 2);
    }
    const double a = -c * tSin / sinSin;
    Matrix table(rows, d);
    for (int r = 0; r < rows; ++r) {
        const double x = t[std::size_t(r)];
        const double helix[3] = {std::cos(x), std::sin(x), c * x + a * std::sin(x)};
        for (int j = 0; j < 3; ++j) {
            table(r, j) = helix[j] * std::sqrt(0.5);
            table(r, j + 3) = -helix[j] * std::sqrt(0.5);
        }
    }
    LearnedStructureOptions options;
    options.trajectory = TrajectoryStyle::Rotatable;
    options.angles = {90, 0};  // looking down PC1
    auto structure = analyzeTableStructure(table, StructureOptions{});
    ASSERT_TRUE(structure) << structure.error().message;
    ASSERT_GT(structure->pca.explained[0], 1.5 * structure->pca.explained[1]);  // the axis
    Figure figure = emptyFigure(1500, 900, darkTheme());
    LearnedStructureFrames frames;
    drawLearnedStructureFigure(figure, learnedStructureLayout({0, 0, 1500, 900}), options,
                               *structure, darkTheme(), &frames);
    const std::vector<Point> dots = dotCentres(figure, frames.trajectory3d.plot);
    ASSERT_EQ(dots.size(), std::size_t(rows));
    EXPECT_LT(circleSpread(dots), 0.01);
    // From the front (yaw 0) the axis runs across the screen: no circle.
    options.angles = {0, 0};
    Figure front = emptyFigure(1500, 900, darkTheme());
    drawLearnedStructureFigure(front, learnedStructureLayout({0, 0, 1500, 900}), options,
                               *structure, darkTheme(), &frames);
    EXPECT_GT(circleSpread(dotCentres(front, frames.trajectory3d.plot)), 0.5);
}

TEST(Trajectory3dTest, SinusoidalPairIsACircleFaceOnAndALineEdgeOn) {
    // A d = 2 sinusoidal table, (sin p, cos p): two components, PC3 is 0.
    const int rows = 314;  // 50 turns less a little: nearly uniform around the circle
    Matrix table(rows, 2);
    for (int p = 0; p < rows; ++p) {
        table(p, 0) = std::sin(double(p));
        table(p, 1) = std::cos(double(p));
    }
    auto structure = analyzeTableStructure(table, StructureOptions{});
    ASSERT_TRUE(structure);
    auto trajectory = [&](ViewAngles angles) {
        LearnedStructureOptions options;
        options.trajectory = TrajectoryStyle::Rotatable;
        options.angles = angles;
        Figure figure = emptyFigure(1500, 900, paperTheme());
        LearnedStructureFrames frames;
        drawLearnedStructureFigure(figure, learnedStructureLayout({0, 0, 1500, 900}), options,
                                   *structure, paperTheme(), &frames);
        return dotCentres(figure, frames.trajectory3d.plot);
    };
    const std::vector<Point> face = trajectory({0, 0});
    ASSERT_EQ(face.size(), std::size_t(rows));
    // The figure's dots at their radius, 0.5 px apart at most (the plane is rotated within itself
    // by PCA, so the test asks for the circle, not where position 0 lands).
    EXPECT_LT(circleSpread(face), 0.01);
    // Seen from above (pitch 90) the circle's plane is edge-on: one horizontal line.
    const std::vector<Point> edge = trajectory({0, 90});
    ASSERT_EQ(edge.size(), std::size_t(rows));
    float top = INFINITY, bottom = -INFINITY;
    for (Point p : edge) top = std::min(top, p.y), bottom = std::max(bottom, p.y);
    EXPECT_NEAR(bottom - top, 0, 0.01);
}

TEST(Trajectory3dTest, EveryAngleKeepsDotsInsideAndLabelsApart) {
    Matrix helix(200, 3);
    for (int r = 0; r < 200; ++r) {
        const double t = 2 * kPi * r / 50;
        helix(r, 0) = 0.04 * t;  // a GPT-2-like long first axis
        helix(r, 1) = std::cos(t) * 0.6;
        helix(r, 2) = std::sin(t) * 0.4;
    }
    Trajectory3dOptions options;
    options.title = "PC1-PC3 trajectory, coloured by position";
    options.explained = {0.62, 0.21, 0.095};
    for (double yaw = -180; yaw < 180; yaw += 15) {
        for (double pitch = -90; pitch <= 90; pitch += 15) {
            options.angles = {yaw, pitch};
            Figure figure = emptyFigure(420, 320, darkTheme());
            Trajectory3dFrame frame;
            drawTrajectory3d(figure, {0, 0, 420, 320}, helix, options, darkTheme(), &frame);
            for (Point p : frame.points) {
                ASSERT_TRUE(frame.plot.contains(p)) << yaw << ", " << pitch;
            }
            EXPECT_TRUE(overlappingTexts(figure).empty()) << yaw << ", " << pitch;
            EXPECT_TRUE(textsOutsideFigure(figure).empty()) << yaw << ", " << pitch;
        }
    }
}

TEST(Trajectory3dTest, TripodIsLabelledWithExplainedVariance) {
    Matrix projections(3, 3, 0.0);
    projections(1, 0) = 1;
    projections(2, 1) = 1;
    Trajectory3dOptions options;
    options.explained = {0.5, 0.25, 0.04};
    Figure figure = emptyFigure(900, 700, paperTheme());
    drawTrajectory3d(figure, {0, 0, 900, 700}, projections, options, paperTheme());
    std::vector<std::string> texts;
    for (const TextItem* text : itemsOf<TextItem>(figure)) texts.push_back(text->text);
    for (const char* label :
         {"PC1 50%", "PC2 25%", "PC3 4.0%", "yaw 30\u00B0, pitch 20\u00B0", "position index"}) {
        EXPECT_NE(std::find(texts.begin(), texts.end(), label), texts.end()) << label;
    }
    // An axis along the line of sight still gets its label (it was thrown far off the plot and
    // dropped), clear of the others.
    for (ViewAngles angles : {ViewAngles{90, 0}, ViewAngles{0, 90}, ViewAngles{0, 0}}) {
        options.angles = angles;
        Figure turned = emptyFigure(360, 330, paperTheme());
        drawTrajectory3d(turned, {0, 0, 360, 330}, projections, options, paperTheme());
        int tripodLabels = 0;
        for (const TextItem* text : itemsOf<TextItem>(turned))
            tripodLabels += text->text.rfind("PC", 0) == 0;
        EXPECT_EQ(tripodLabels, 3) << angles.yawDegrees << ", " << angles.pitchDegrees;
        EXPECT_TRUE(overlappingTexts(turned).empty());
    }
}

// A path through the lower-left and upper-right corners (seen face on): the tripod moves to a
// free corner, so its labels hide no dot or segment (it sat lower left, over the path).
TEST(Trajectory3dTest, TripodLabelsGoToACornerTheDataLeaves) {
    const std::size_t rows = 200;
    Matrix projections(rows, 3, 0.0);
    for (std::size_t r = 0; r < rows; ++r) {
        const double t = -1 + 2 * double(r) / double(rows - 1);
        projections(r, 0) = t;  // PC1 across
        projections(r, 1) = t;  // PC2 up: lower left to upper right on screen
        projections(r, 2) = 0.2 * std::sin(9 * t);
    }
    Trajectory3dOptions options;
    options.angles = {0, 0};
    options.explained = {0.29, 0.26, 0.26};
    for (const Theme& theme : {darkTheme(), paperTheme()}) {
        Figure figure = emptyFigure(420, 400, theme);
        drawTrajectory3d(figure, {0, 0, 420, 400}, projections, options, theme);
        int tripodLabels = 0;
        for (const TextItem* text : itemsOf<TextItem>(figure)) {
            if (text->text.rfind("PC", 0) != 0) continue;
            ++tripodLabels;
            EXPECT_EQ(marksCovered(figure, textBox(*text)), 0) << text->text;
        }
        EXPECT_EQ(tripodLabels, 3);
    }
}

// A cloud that fills a square plot to every corner (a spiral over a whole sphere, the shape of a
// sinusoidal table's top components): no corner is free at full size, so the cloud is drawn a
// little smaller and the tripod's labels still hide no dot or segment.
TEST(Trajectory3dTest, TripodLabelsHideNoDataWhenTheCloudFillsEveryCorner) {
    const std::size_t rows = 1500;
    Matrix projections(rows, 3, 0.0);
    for (std::size_t r = 0; r < rows; ++r) {
        const double z = -1 + 2 * (double(r) + 0.5) / double(rows);  // a Fibonacci sphere
        const double phi = 2.399963229728653 * double(r), ring = std::sqrt(1 - z * z);
        projections(r, 0) = ring * std::cos(phi);
        projections(r, 1) = ring * std::sin(phi);
        projections(r, 2) = z;
    }
    Trajectory3dOptions options;
    options.explained = {0.34, 0.33, 0.33};
    for (const ViewAngles angles : {ViewAngles{0, 0}, ViewAngles{35, 20}, ViewAngles{-120, -45}}) {
        options.angles = angles;
        Figure figure = emptyFigure(460, 440, darkTheme());
        drawTrajectory3d(figure, {0, 0, 460, 440}, projections, options, darkTheme());
        int tripodLabels = 0;
        for (const TextItem* text : itemsOf<TextItem>(figure)) {
            if (text->text.rfind("PC", 0) != 0) continue;
            ++tripodLabels;
            EXPECT_EQ(marksCovered(figure, textBox(*text)), 0)
                << text->text << " at yaw " << angles.yawDegrees;
        }
        EXPECT_EQ(tripodLabels, 3);
        // Every position is still drawn, inside the plot.
        EXPECT_EQ(itemsOf<CircleItem>(figure).size(), std::size_t(rows));
    }
}

// FigureLayoutTest's helix in a small window's 480 x 320: the corner the tripod took hid no dot,
// but "PC3 12%" sat within markClearance of the helix, where it reads as on it (#28). The
// corner is chosen clear of that margin too.
TEST(Trajectory3dTest, TripodLabelsKeepClearOfTheDots) {
    Matrix helix(300, 3);
    for (std::size_t r = 0; r < helix.rows; ++r) {
        helix(r, 0) = 0.01 * double(r);
        helix(r, 1) = std::cos(0.2 * double(r));
        helix(r, 2) = 0.7 * std::sin(0.2 * double(r));
    }
    Trajectory3dOptions options;
    options.title = "PC1-PC3 trajectory, coloured by position";
    options.explained = {0.55, 0.3, 0.12};
    for (const Theme& theme : {paperTheme(), darkTheme()}) {
        Figure figure = emptyFigure(480, 320, theme);
        drawTrajectory3d(figure, {0, 0, 480, 320}, helix, options, theme);
        int tripodLabels = 0;
        for (const TextItem* text : itemsOf<TextItem>(figure)) {
            if (text->text.rfind("PC", 0) != 0 || text->text.find('%') == std::string::npos)
                continue;
            ++tripodLabels;
            EXPECT_FALSE(crowdsMarks(figure, textBox(*text), text->size)) << text->text;
        }
        EXPECT_EQ(tripodLabels, 3) << themeName(theme.id);
    }
}

TEST(Trajectory3dTest, HoverFindsTheNearestPosition) {
    Trajectory3dFrame frame;
    frame.points = {{10, 10}, {20, 10}, {40, 40}};
    frame.indices = {0, 5, 10};  // every fifth position drawn
    EXPECT_EQ(nearestPosition(frame, {18, 11}, 8), std::optional<std::size_t>(5));
    EXPECT_EQ(nearestPosition(frame, {38, 44}, 8), std::optional<std::size_t>(10));
    EXPECT_FALSE(nearestPosition(frame, {100, 100}, 8));
}

TEST(Trajectory3dTest, AnglesAreCheckedAndWrapped) {
    EXPECT_TRUE(validate(ViewAngles{400, -90}));
    auto pitch = validate(ViewAngles{0, 95});
    ASSERT_FALSE(pitch);
    EXPECT_EQ(pitch.error().message, "pitch must be -90..90 degrees (got 95)");
    EXPECT_FALSE(validate(ViewAngles{NAN, 0}));
    EXPECT_FALSE(validate(ViewAngles{0, NAN}));
    EXPECT_DOUBLE_EQ(wrapDegrees(190), -170);
    EXPECT_DOUBLE_EQ(wrapDegrees(-180), -180);
    EXPECT_DOUBLE_EQ(wrapDegrees(180), -180);
    EXPECT_DOUBLE_EQ(wrapDegrees(-190), 170);
    EXPECT_DOUBLE_EQ(wrapDegrees(725), 5);
}

}  // namespace
}  // namespace poslab
