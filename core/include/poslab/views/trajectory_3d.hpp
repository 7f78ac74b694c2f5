// trajectory_3d.hpp — positions as a path through their first three principal components, seen
// through a rotatable orthographic camera: GPT-2's helix reads as a curve, not a cloud.
//
// The camera (a turntable, as in most 3-D plotting tools):
//   yaw    turns the points about the PC2 axis (positive: the side facing the viewer moves
//          right, as a drag to the right does; at yaw 90 PC3 runs left to right, PC1 away)
//   pitch  then tilts them about the screen's horizontal axis (positive: the top comes toward
//          the viewer, the front goes down; at pitch 90 the camera looks straight down PC2 onto
//          the PC1-PC3 plane, so a helix around PC2 shows as a circle)
//   yaw = pitch = 0 looks straight down PC3: PC1 to the right, PC2 up (the 2-D PC1 vs PC2 plot).
//   Screen x, screen y and depth are a rotation of (PC1, PC2, PC3): lengths are kept, and depth
//   (toward the viewer) orders the drawing back to front and fades what is far.
//
// Usage:
//   Trajectory3dOptions options;  options.angles = {30, 20};  options.explained = pca.explained;
//   Trajectory3dFrame frame;
//   drawTrajectory3d(figure, area, pca.projections, options, theme, &frame);
//   auto index = nearestPosition(frame, mouse, 12);  // the position under the mouse, if any
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// ---- Camera
inline constexpr double kMaxPitchDegrees = 90;  // straight down (or up) the PC2 axis
struct ViewAngles {
    double yawDegrees = 30;    // about PC2; any finite value (shown wrapped to -180..180)
    double pitchDegrees = 20;  // about the screen's horizontal axis, -90..90
    friend bool operator==(const ViewAngles&,
                           const ViewAngles&) = default;  // member-wise: caches key on it
};
Status validate(const ViewAngles& angles);  // "pitch must be -90..90 degrees (got 95)"
double wrapDegrees(double degrees);         // into [-180, 180); NaN stays NaN

struct ViewPoint {
    double x = 0;      // screen right
    double y = 0;      // screen up
    double depth = 0;  // toward the viewer: larger is nearer
};
// (PC1, PC2, PC3) through the camera: a rotation, so |(x, y, depth)| = |(a, b, c)|.
ViewPoint projectPoint(double a, double b, double c, const ViewAngles& angles);
// Indices of `depth` from the farthest (smallest) to the nearest: the order to draw in, so near
// points cover far ones. Ties keep their index order.
std::vector<std::size_t> backToFrontOrder(const std::vector<double>& depth);

// ---- Drawing
enum class TrajectoryStyle { Flat, Rotatable };  // PC1 vs PC2 in 2-D, or PC1-PC3 in 3-D
inline constexpr EnumNames<TrajectoryStyle, 2> kTrajectoryStyleNames{
    {{TrajectoryStyle::Flat, "2d"}, {TrajectoryStyle::Rotatable, "3d"}}};
std::string_view trajectoryStyleName(TrajectoryStyle style);          // "2d", "3d"
Result<TrajectoryStyle> parseTrajectoryStyle(std::string_view name);  // "trajectory must be ..."

struct Trajectory3dOptions {
    std::string title;  // above the plot
    ViewAngles angles;
    ColormapId colormap = ColormapId::Viridis;  // each position coloured by its index
    std::vector<double> explained;  // fraction of variance of PC1.. (tripod labels); may
                                    // be shorter than 3 or empty
    bool colorbar = true;           // the index's colour bar at the right
    std::uint8_t pathAlpha = 255;   // opacity of the segments joining the positions; below
                                    // 255 they are a backdrop, drawn behind every dot
    friend bool operator==(const Trajectory3dOptions&,
                           const Trajectory3dOptions&) = default;  // member-wise: caches key on it
};
// Where the points landed, for hover.
struct Trajectory3dFrame {
    Box plot;                          // the square the points are drawn in
    std::vector<Point> points;         // drawn points, in figure pixels
    std::vector<std::size_t> indices;  // the position (row) of each drawn point
};
// projections: rows = positions, columns = PC1, PC2, PC3 (missing columns count as 0; extra
// ones are ignored). All three axes share one scale, fixed for every angle: the data's bounding
// sphere fits the plot, so rotating never resizes the picture or pushes points out. At most
// kMaxTrajectoryPoints positions are drawn (every k-th, the last always kept), each joined to the
// next drawn one by a segment coloured like its positions; far items are faded toward the plot
// background. A tripod in the lower left shows where PC1, PC2 and PC3 point, labelled with
// their share of the variance.
inline constexpr int kMaxTrajectoryPoints = 2048;
void drawTrajectory3d(Figure& figure, Box area, const Matrix& projections,
                      const Trajectory3dOptions& options, const Theme& theme,
                      Trajectory3dFrame* frame = nullptr);
// The drawn position nearest to `mouse` within `radius` pixels, if any.
std::optional<std::size_t> nearestPosition(const Trajectory3dFrame& frame, Point mouse,
                                           float radius);

}  // namespace poslab
