#include "poslab/views/trajectory_3d.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <optional>

#include "poslab/figure/layout.hpp"
#include "poslab/figure/text_boxes.hpp"

namespace poslab {

namespace {

constexpr double kDegree = 3.14159265358979323846 / 180;

Rgba mix(Rgba from, Rgba to, double t) {
    auto channel = [t](std::uint8_t a, std::uint8_t b) {
        return std::uint8_t(std::lround(double(a) + (double(b) - double(a)) * t));
    };
    return {channel(from.r, to.r), channel(from.g, to.g), channel(from.b, to.b), from.a};
}

std::string shareText(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, fraction >= 0.1 ? "%.0f%%" : "%.1f%%", 100 * fraction);
    return text;
}

// The label at the tip of a tripod axis pointing along (dx, dy) (screen pixels, y down): aligned
// so that it grows away from the tip.
TextItem tipLabel(Point tip, float dx, float dy, std::string text, float size, Rgba color) {
    if (std::hypot(dx, dy) < 1e-3f) dx = 1, dy = 1;  // along the line of sight: below right
    const float length = std::hypot(dx, dy);
    const float ux = dx / length, uy = dy / length;
    const HorizontalAlign h = ux > 0.35f    ? HorizontalAlign::Left
                              : ux < -0.35f ? HorizontalAlign::Right
                                            : HorizontalAlign::Center;
    const VerticalAlign v = uy > 0.35f    ? VerticalAlign::Top
                            : uy < -0.35f ? VerticalAlign::Bottom
                                          : VerticalAlign::Middle;
    const float gap = size * 0.3f;
    return makeText({tip.x + ux * gap, tip.y + uy * gap}, std::move(text), size, color, h, v);
}

bool insideBox(Box inner, Box outer) {
    return inner.x >= outer.x - 0.5f && inner.y >= outer.y - 0.5f &&
           inner.right() <= outer.right() + 0.5f && inner.bottom() <= outer.bottom() + 0.5f;
}

}  // namespace

Status validate(const ViewAngles& angles) {
    if (!std::isfinite(angles.yawDegrees)) {
        return Error{"yaw must be a finite number of degrees (got " +
                     formatValue(angles.yawDegrees) + ")"};
    }
    if (!(std::abs(angles.pitchDegrees) <= kMaxPitchDegrees)) {
        return Error{"pitch must be -90..90 degrees (got " + formatValue(angles.pitchDegrees) +
                     ")"};
    }
    return success();
}

std::string_view trajectoryStyleName(TrajectoryStyle style) {
    return enumName(kTrajectoryStyleNames, style);
}

Result<TrajectoryStyle> parseTrajectoryStyle(std::string_view name) {
    return parseEnum(kTrajectoryStyleNames, name, "trajectory");
}

double wrapDegrees(double degrees) {
    if (!std::isfinite(degrees)) return degrees;
    double wrapped = std::fmod(degrees + 180, 360);
    if (wrapped < 0) wrapped += 360;
    return wrapped - 180;
}

ViewPoint projectPoint(double a, double b, double c, const ViewAngles& angles) {
    const double yaw = angles.yawDegrees * kDegree, pitch = angles.pitchDegrees * kDegree;
    // Yaw about PC2: the side facing the viewer (+PC3) moves right as yaw grows.
    const double x = a * std::cos(yaw) + c * std::sin(yaw);
    const double z = -a * std::sin(yaw) + c * std::cos(yaw);
    // Pitch about the screen's x axis: the top (+PC2) comes toward the viewer, the front goes down.
    ViewPoint p;
    p.x = x;
    p.y = b * std::cos(pitch) - z * std::sin(pitch);
    p.depth = b * std::sin(pitch) + z * std::cos(pitch);
    return p;
}

std::vector<std::size_t> backToFrontOrder(const std::vector<double>& depth) {
    std::vector<std::size_t> order(depth.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t i, std::size_t j) { return depth[i] < depth[j]; });
    return order;
}

void drawTrajectory3d(Figure& figure, Box area, const Matrix& projections,
                      const Trajectory3dOptions& options, const Theme& theme,
                      Trajectory3dFrame* frameOut) {
    const std::size_t rows = projections.rows;
    const ValueRange indexRange{0, double(rows > 1 ? rows - 1 : 1)};

    // The colour bar and its rotated caption take the right edge.
    const float barWidth = std::max(10.f, theme.fontSize * 0.9f);
    const float barBlock = options.colorbar
                               ? barWidth + theme.fontSize * 0.3f +
                                     colorbarTickWidth(indexRange, area.height, theme, true) +
                                     theme.fontSize * 1.6f
                               : 0;
    const Box titled{area.x, area.y, std::max(1.f, area.width - barBlock), area.height};
    const Box below = drawWrappedTitle(figure, titled, options.title, theme);
    const float top = below.y + theme.fontSize * 0.8f;  // where an untitled line plot starts
    Trajectory3dFrame frame;
    frame.plot = {below.x + theme.fontSize * 0.5f, top,
                  std::max(1.f, below.width - theme.fontSize * 1.0f),
                  std::max(1.f, below.bottom() - theme.fontSize * 0.5f - top)};
    const Box& plot = frame.plot;
    figure.add(RectItem{plot, theme.plotBackground, theme.axis, 1});

    // Every k-th position, the last always kept; the third coordinate 0 when there is none.
    const std::size_t step = std::max<std::size_t>(
        1, (rows + kMaxTrajectoryPoints - 1) / std::size_t(kMaxTrajectoryPoints));
    std::vector<std::size_t> drawn;
    for (std::size_t r = 0; r < rows; r += step) drawn.push_back(r);
    if (!drawn.empty() && drawn.back() != rows - 1) drawn.push_back(rows - 1);
    auto coordinate = [&](std::size_t r, std::size_t j) {
        return j < projections.cols ? projections(r, j) : 0.0;
    };

    // One scale for every angle: the bounding sphere about the bounding box's centre fits.
    std::array<double, 3> low{INFINITY, INFINITY, INFINITY}, high{-INFINITY, -INFINITY, -INFINITY};
    for (std::size_t r : drawn) {
        for (std::size_t j = 0; j < 3; ++j) {
            low[j] = std::min(low[j], coordinate(r, j));
            high[j] = std::max(high[j], coordinate(r, j));
        }
    }
    std::array<double, 3> centre{0, 0, 0};
    if (!drawn.empty()) {
        for (std::size_t j = 0; j < 3; ++j) centre[j] = (low[j] + high[j]) / 2;
    }
    double radius = 0;
    for (std::size_t r : drawn) {
        double sum = 0;
        for (std::size_t j = 0; j < 3; ++j) sum += std::pow(coordinate(r, j) - centre[j], 2);
        radius = std::max(radius, std::sqrt(sum));
    }
    if (!(radius > 0)) radius = 1;
    const float dotRadius = drawn.size() > 600 ? 2.f : 3.f;
    const double fullScale =
        std::max(0.0, (std::min(plot.width, plot.height) / 2.0 - dotRadius - 2) / radius);
    const Point middle{plot.x + plot.width / 2, plot.y + plot.height / 2};
    // Depths and the back-to-front order do not depend on the scale.
    std::vector<ViewPoint> viewed(drawn.size());
    std::vector<double> depth(drawn.size());
    for (std::size_t i = 0; i < drawn.size(); ++i) {
        const std::size_t r = drawn[i];
        viewed[i] = projectPoint(coordinate(r, 0) - centre[0], coordinate(r, 1) - centre[1],
                                 coordinate(r, 2) - centre[2], options.angles);
        depth[i] = viewed[i].depth;
    }
    // Near items drawn last; far ones faded toward the plot background (depth in -R..R).
    auto nearness = [&](double d) { return std::clamp((d / radius + 1) / 2, 0.0, 1.0); };
    auto colourAt = [&](double index, double d) {
        const Rgba c = sampleColormap(options.colormap, index / std::max(1.0, indexRange.high));
        return mix(c, theme.plotBackground, 0.6 * (1 - nearness(d)));
    };
    // Items: segment i joins drawn points i and i + 1 (at their mean depth), then the dots.
    const std::size_t segments = drawn.empty() ? 0 : drawn.size() - 1;
    std::vector<double> itemDepth;
    itemDepth.reserve(segments + drawn.size());
    // A faint path (pathAlpha < 255) is a backdrop: all of it behind every dot.
    const bool backdrop = options.pathAlpha < 255;
    for (std::size_t i = 0; i < segments; ++i)
        itemDepth.push_back(backdrop ? -INFINITY : (depth[i] + depth[i + 1]) / 2);
    // A dot sits a hair in front of the segments that meet at it.
    for (std::size_t i = 0; i < drawn.size(); ++i) itemDepth.push_back(depth[i] + 1e-9 * radius);
    const std::vector<std::size_t> order = backToFrontOrder(itemDepth);
    frame.indices = drawn;
    frame.points.resize(drawn.size());
    const std::size_t firstItem = figure.items.size(), firstMark = figure.marks.size();
    // The dots and path at `scale` pixels per unit (drawn again smaller when the tripod finds
    // no free corner, below).
    auto drawData = [&](double scale) {
        figure.items.resize(firstItem);
        figure.marks.resize(firstMark);
        for (std::size_t i = 0; i < drawn.size(); ++i)
            frame.points[i] = {float(middle.x + viewed[i].x * scale),
                               float(middle.y - viewed[i].y * scale)};
        const float lineWidth = drawn.size() > 600 ? 1.2f : 1.6f;
        figure.add(ClipPush{plot});
        for (std::size_t item : order) {
            if (item < segments) {
                const double index = (double(drawn[item]) + double(drawn[item + 1])) / 2;
                figure.add(LineItem{frame.points[item], frame.points[item + 1],
                                    withAlpha(colourAt(index, (depth[item] + depth[item + 1]) / 2),
                                              options.pathAlpha),
                                    lineWidth, false});
            } else {
                const std::size_t i = item - segments;
                CircleItem dot;
                dot.center = frame.points[i];
                dot.radius = dotRadius * float(0.75 + 0.5 * nearness(depth[i]));
                dot.fill = colourAt(double(drawn[i]), depth[i]);
                figure.add(dot);
            }
        }
        figure.add(ClipPop{});
    };

    // The tripod: PC1..PC3 as seen by the camera, in a corner, far axes first. Its labels
    // and the angles sit on a backing box: the data may pass under them.
    auto backing = [&](Box box) {
        return RectItem{{box.x - 1, box.y, box.width + 2, box.height},
                        withAlpha(theme.plotBackground, 210),
                        {0, 0, 0, 0},
                        1};
    };
    std::vector<Box> placed;
    const float labelSize = atLeastMinText(theme.fontSize * 0.85f, theme);
    const float length = std::clamp(0.11f * std::min(plot.width, plot.height), labelSize * 0.8f,
                                    theme.fontSize * 2.6f);
    std::array<std::string, 3> labels;
    float widest = 0;
    for (std::size_t k = 0; k < 3; ++k) {
        labels[k] = "PC" + std::to_string(k + 1);
        if (k < options.explained.size() && std::isfinite(options.explained[k]))
            labels[k] += " " + shareText(options.explained[k]);
        widest = std::max(widest, estimateTextWidth(labels[k], labelSize));
    }
    std::array<ViewPoint, 3> axes{projectPoint(1, 0, 0, options.angles),
                                  projectPoint(0, 1, 0, options.angles),
                                  projectPoint(0, 0, 1, options.angles)};
    const std::vector<double> axisDepth{axes[0].depth, axes[1].depth, axes[2].depth};
    const bool roomForTripod = plot.width > 2 * (length + widest) + 12 &&
                               plot.height > 2 * (length + labelSize * 1.2f) + 12;
    // Labels at the tips, longest axes first; one that would cover a placed label steps outward.
    // Returns the labels placed around `origin` (the axes' ends stay inside the same square).
    std::array<std::size_t, 3> byLength{0, 1, 2};
    std::stable_sort(byLength.begin(), byLength.end(), [&](std::size_t i, std::size_t j) {
        return std::hypot(axes[i].x, axes[i].y) > std::hypot(axes[j].x, axes[j].y);
    });
    auto tripodLabels = [&](Point origin) {
        std::vector<TextItem> labelled;
        std::vector<Box> boxes;
        for (std::size_t k : byLength) {
            const float dx = float(axes[k].x) * length, dy = -float(axes[k].y) * length;
            const float norm = std::max(1e-3f, std::hypot(dx, dy));
            // The first place clear of the other labels, or further out a place that also keeps
            // markClearance from the data ("PC3 12%" touched the helix at 480x320, #28).
            std::optional<TextItem> first;
            for (int attempt = 0; attempt < 6; ++attempt) {
                const float extra = float(attempt) * labelSize * 0.9f;
                const Point tip{origin.x + dx + dx / norm * extra,
                                origin.y + dy + dy / norm * extra +
                                    (norm < 1 ? float(attempt) * labelSize : 0)};
                TextItem label = tipLabel(tip, dx, dy, labels[k], labelSize, theme.text);
                const Box box = textBox(label);
                // A few pixels apart: labels that touch read as one ("PC2 8.4%PC1 14%").
                const Box margin{box.x - 4, box.y - 1, box.width + 8, box.height + 2};
                const bool clear = std::none_of(boxes.begin(), boxes.end(), [&](Box other) {
                    return boxesOverlap(margin, other, 0);
                });
                if (!clear || !insideBox(box, plot)) continue;
                if (!first) first = label;
                if (!crowdsMarks(figure, box, labelSize)) {
                    first = std::move(label);
                    break;
                }
            }
            if (first) {
                boxes.push_back(textBox(*first));
                labelled.push_back(std::move(*first));
            }
        }
        return labelled;
    };
    drawData(fullScale);
    if (roomForTripod) {
        // The corner whose labels hide the fewest dots and path segments (the lower left first,
        // the lower right last: the angles caption goes there); ties keep the earlier corner. A
        // label within markClearance of a dot counts too: "PC3 12%" touching the helix at
        // 480x320 read as on it (#28).
        const float left = plot.x + 4 + length + widest, right = plot.right() - 4 - length - widest;
        const float bottom = plot.bottom() - 4 - length - labelSize * 1.2f;
        const float top = plot.y + 4 + length + labelSize * 1.2f;
        const std::array<Point, 4> corners{Point{left, bottom}, Point{left, top}, Point{right, top},
                                           Point{right, bottom}};
        auto bestCorner = [&](int& fewest) {
            Point origin = corners[0];
            fewest = -1;
            for (const Point corner : corners) {
                int covered = 0;
                for (const TextItem& label : tripodLabels(corner))
                    covered += marksCovered(figure, textBox(label)) +
                               (crowdsMarks(figure, textBox(label), label.size) ? 1 : 0);
                if (fewest < 0 || covered < fewest) fewest = covered, origin = corner;
                if (covered == 0) break;
            }
            return origin;
        };
        int fewest = 0;
        Point origin = bestCorner(fewest);
        // A cloud that fills every corner (a square plot) is drawn a little smaller, about the
        // same centre, until a corner is free: the labels never hide data the reader turns to see.
        // (The largest drawing that hides the fewest marks wins.)
        double bestShrink = 1, shrink = 1;
        int bestFewest = fewest;
        for (const double smaller : {0.9, 0.8, 0.7}) {
            if (bestFewest == 0) break;
            drawData(fullScale * (shrink = smaller));
            origin = bestCorner(fewest);
            if (fewest < bestFewest) bestFewest = fewest, bestShrink = shrink;
        }
        if (shrink != bestShrink) {
            drawData(fullScale * bestShrink);
            origin = bestCorner(fewest);
        }
        for (std::size_t k : backToFrontOrder(axisDepth)) {
            const Rgba color = mix(seriesColor(int(k)), theme.plotBackground,
                                   0.45 * (1 - (axes[k].depth + 1) / 2));
            const Point tip{origin.x + float(axes[k].x) * length,
                            origin.y - float(axes[k].y) * length};
            figure.add(LineItem{origin, tip, color, 2, false});
        }
        for (TextItem& label : tripodLabels(origin)) {
            placed.push_back(textBox(label));
            figure.add(backing(placed.back()));
            figure.add(std::move(label));
        }
    }
    // The angles, for reproducing the picture (`--yaw`, `--pitch`), at the lower right.
    char angleText[64];
    std::snprintf(angleText, sizeof angleText, "yaw %.0f\u00B0, pitch %.0f\u00B0",
                  wrapDegrees(options.angles.yawDegrees), options.angles.pitchDegrees);
    const TextItem angleLabel =
        makeText({plot.right() - 4, plot.bottom() - 3}, angleText, labelSize, theme.mutedText,
                 HorizontalAlign::Right, VerticalAlign::Bottom);
    const Box angleBox = textBox(angleLabel);
    // Only where it hides no dot or path: the angles are a caption, the data comes first.
    if (insideBox(angleBox, plot) && marksCovered(figure, angleBox) == 0 &&
        std::none_of(placed.begin(), placed.end(),
                     [&](Box other) { return boxesOverlap(angleBox, other, 0); })) {
        figure.add(backing(angleBox));
        figure.add(angleLabel);
    }

    if (options.colorbar) {
        const Box bar{titled.right() + theme.fontSize * 0.3f, plot.y, barWidth, plot.height};
        drawColorbar(figure, bar, options.colormap, indexRange, theme, true);
        // Centred on the bar and inside this plot's cell (a small cell shrinks it).
        const float middle = bar.y + bar.height / 2;
        const FittedText indexLabel =
            fitText("position index", theme.fontSize,
                    2 * std::min(middle - area.y, area.bottom() - middle) - 2, 0.6f);
        figure.add(makeText({area.right() - theme.fontSize * 1.4f, middle}, indexLabel.text,
                            indexLabel.size, theme.mutedText, HorizontalAlign::Center,
                            VerticalAlign::Top, true));
    }
    if (frameOut) *frameOut = std::move(frame);
}

std::optional<std::size_t> nearestPosition(const Trajectory3dFrame& frame, Point mouse,
                                           float radius) {
    std::optional<std::size_t> best;
    float bestDistance = radius;
    for (std::size_t i = 0; i < frame.points.size() && i < frame.indices.size(); ++i) {
        const float distance = std::hypot(frame.points[i].x - mouse.x, frame.points[i].y - mouse.y);
        if (distance <= bestDistance) bestDistance = distance, best = frame.indices[i];
    }
    return best;
}

}  // namespace poslab
