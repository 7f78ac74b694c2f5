#include "poslab/figure/text_boxes.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <variant>

#include "poslab/figure/plot.hpp"

namespace poslab {

Box textBox(const TextItem& text) {
    const float width = estimateTextWidth(text.text, text.size), height = text.size;
    // The box in the text's own frame, relative to the anchor.
    const float left = text.horizontal == HorizontalAlign::Left     ? 0
                       : text.horizontal == HorizontalAlign::Center ? -width / 2
                                                                    : -width;
    const float top = text.vertical == VerticalAlign::Top      ? 0
                      : text.vertical == VerticalAlign::Middle ? -height / 2
                                                               : -height;
    if (!text.vertical90) return {text.anchor.x + left, text.anchor.y + top, width, height};
    // Turned counter-clockwise on a y-down page: own (u, v) lands at (v, -u).
    return {text.anchor.x + top, text.anchor.y - (left + width), height, width};
}

bool boxesOverlap(Box a, Box b, float tolerance) {
    const float across = std::min(a.right(), b.right()) - std::max(a.x, b.x);
    const float down = std::min(a.bottom(), b.bottom()) - std::max(a.y, b.y);
    return across > tolerance && down > tolerance;
}

std::vector<Box> boxMinus(Box box, Box hole) {
    const float left = std::max(box.x, hole.x), right = std::min(box.right(), hole.right());
    const float top = std::max(box.y, hole.y), bottom = std::min(box.bottom(), hole.bottom());
    if (hole.width <= 0 || hole.height <= 0 || left >= right || top >= bottom) return {box};
    std::vector<Box> pieces;
    auto keep = [&](Box b) {
        if (b.width > 0 && b.height > 0) pieces.push_back(b);
    };
    keep({box.x, box.y, box.width, top - box.y});             // above the hole
    keep({box.x, bottom, box.width, box.bottom() - bottom});  // below
    keep({box.x, top, left - box.x, bottom - top});           // left of it
    keep({right, top, box.right() - right, bottom - top});    // right of it
    return pieces;
}

namespace {

struct IndexedBox {
    std::size_t index;
    Box box;
};

std::vector<IndexedBox> textBoxes(const Figure& figure) {
    std::vector<IndexedBox> boxes;
    for (std::size_t i = 0; i < figure.items.size(); ++i) {
        const auto* text = std::get_if<TextItem>(&figure.items[i]);
        if (!text || text->text.find_first_not_of(' ') == std::string::npos) continue;
        boxes.push_back({i, textBox(*text)});
    }
    return boxes;
}

}  // namespace

std::vector<TextOverlap> overlappingTexts(const Figure& figure, float tolerance) {
    const std::vector<IndexedBox> boxes = textBoxes(figure);
    std::vector<TextOverlap> pairs;
    for (std::size_t a = 0; a < boxes.size(); ++a) {
        for (std::size_t b = a + 1; b < boxes.size(); ++b) {
            if (boxesOverlap(boxes[a].box, boxes[b].box, tolerance))
                pairs.push_back({boxes[a].index, boxes[b].index});
        }
    }
    return pairs;
}

std::vector<std::size_t> textsOutsideFigure(const Figure& figure, float tolerance) {
    std::vector<std::size_t> outside;
    for (const IndexedBox& b : textBoxes(figure)) {
        const Box& box = b.box;
        if (!(box.x >= -tolerance && box.y >= -tolerance &&
              box.right() <= figure.width + tolerance && box.bottom() <= figure.height + tolerance))
            outside.push_back(b.index);
    }
    return outside;
}

std::vector<std::size_t> cutTexts(const Figure& figure) {
    static constexpr std::string_view kEllipsis = "…";
    std::vector<std::size_t> cut;
    for (const IndexedBox& b : textBoxes(figure)) {
        const std::string& text = std::get<TextItem>(figure.items[b.index]).text;
        if (text.size() >= kEllipsis.size() &&
            text.compare(text.size() - kEllipsis.size(), kEllipsis.size(), kEllipsis) == 0)
            cut.push_back(b.index);
    }
    return cut;
}

namespace {

Box intersection(Box a, Box b) {
    const float left = std::max(a.x, b.x), top = std::max(a.y, b.y);
    const float right = std::min(a.right(), b.right()), bottom = std::min(a.bottom(), b.bottom());
    return {left, top, std::max(0.f, right - left), std::max(0.f, bottom - top)};
}

bool segmentCrossesBox(Point a, Point b, Box box) {
    if (box.contains(a) || box.contains(b)) return true;
    if (std::max(a.x, b.x) < box.x || std::min(a.x, b.x) > box.right() ||
        std::max(a.y, b.y) < box.y || std::min(a.y, b.y) > box.bottom())
        return false;
    // The segment's line separates the box's corners when it passes through the box.
    auto side = [&](float x, float y) { return (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x); };
    const float s1 = side(box.x, box.y), s2 = side(box.right(), box.y),
                s3 = side(box.x, box.bottom()), s4 = side(box.right(), box.bottom());
    return !((s1 > 0 && s2 > 0 && s3 > 0 && s4 > 0) || (s1 < 0 && s2 < 0 && s3 < 0 && s4 < 0));
}

// A curve's segments in runs of kRunSegments, each with the bounds of its vertices. A box that
// misses a run's bounds crosses none of its segments (segmentCrossesBox rejects each one on the
// same comparisons), so placeFree's grid of trial boxes skips most of a long curve instead of
// testing every segment of every curve at every grid position. A run with a vertex that is not
// finite is never skipped (its comparisons are false, as in segmentCrossesBox).
constexpr std::size_t kRunSegments = 32;

struct SegmentRun {
    float left = 0, top = 0, right = 0, bottom = 0;
    bool finite = true;
    bool missedBy(Box box) const {
        return finite &&
               (right < box.x || left > box.right() || bottom < box.y || top > box.bottom());
    }
};

std::vector<SegmentRun> segmentRuns(const MarkFootprint& mark) {
    std::vector<SegmentRun> runs;
    if (mark.kind != MarkKind::Curve || mark.points.size() < 2) return runs;
    const std::size_t segments = mark.points.size() - 1;
    for (std::size_t first = 0; first < segments; first += kRunSegments) {
        const std::size_t last = std::min(segments, first + kRunSegments);  // its last vertex
        SegmentRun run{mark.points[first].x, mark.points[first].y, mark.points[first].x,
                       mark.points[first].y};
        for (std::size_t i = first; i <= last; ++i) {
            const Point p = mark.points[i];
            if (!std::isfinite(p.x) || !std::isfinite(p.y)) run.finite = false;
            run.left = std::min(run.left, p.x), run.right = std::max(run.right, p.x);
            run.top = std::min(run.top, p.y), run.bottom = std::max(run.bottom, p.y);
        }
        runs.push_back(run);
    }
    return runs;
}

// Curve segments (or 1 for a point or area) of `mark` that `box` covers. `runs` (segmentRuns of
// the mark, or empty) only makes it faster.
int coveredParts(Box box, const MarkFootprint& mark, float tolerance, bool firstOnly,
                 const std::vector<SegmentRun>& runs = {}) {
    box = {box.x + tolerance, box.y + tolerance, box.width - 2 * tolerance,
           box.height - 2 * tolerance};
    if (box.width <= 0 || box.height <= 0) return 0;
    box = intersection(box, mark.clip);
    if (box.width <= 0 || box.height <= 0) return 0;
    if (!boxesOverlap(box, mark.bounds, 0)) return 0;
    if (mark.cellWidth > 0 && mark.cellHeight > 0) {
        // A value written inside its own cell (an annotated heatmap) labels that cell.
        const float column = std::floor((box.x - mark.bounds.x) / mark.cellWidth);
        const float row = std::floor((box.y - mark.bounds.y) / mark.cellHeight);
        if (box.right() <= mark.bounds.x + (column + 1) * mark.cellWidth + 0.5f &&
            box.bottom() <= mark.bounds.y + (row + 1) * mark.cellHeight + 0.5f)
            return 0;
    }
    if (mark.kind != MarkKind::Curve) return 1;
    const Box wide{box.x - mark.halfWidth, box.y - mark.halfWidth, box.width + 2 * mark.halfWidth,
                   box.height + 2 * mark.halfWidth};
    int count = 0;
    for (std::size_t i = 0; i + 1 < mark.points.size(); ++i) {
        if (i % kRunSegments == 0 && !runs.empty() && runs[i / kRunSegments].missedBy(wide)) {
            i += kRunSegments - 1;
            continue;
        }
        if (!segmentCrossesBox(mark.points[i], mark.points[i + 1], wide)) continue;
        ++count;
        if (firstOnly) return count;
    }
    if (mark.points.size() == 1 && wide.contains(mark.points[0])) count = 1;
    return count;
}

}  // namespace

bool boxCoversMark(Box box, const MarkFootprint& mark, float tolerance) {
    return coveredParts(box, mark, tolerance, true) > 0;
}

int marksCovered(const Figure& figure, Box box, std::size_t firstMark, float tolerance) {
    int count = 0;
    for (std::size_t m = firstMark; m < figure.marks.size(); ++m)
        if (figure.marks[m].kind != MarkKind::Reference)
            count += coveredParts(box, figure.marks[m], tolerance, false);
    return count;
}

std::vector<TextOverMark> textsOverMarks(const Figure& figure, float tolerance) {
    std::vector<TextOverMark> over;
    for (const IndexedBox& b : textBoxes(figure)) {
        for (std::size_t m = 0; m < figure.marks.size(); ++m) {
            if (figure.marks[m].kind != MarkKind::Reference &&
                boxCoversMark(b.box, figure.marks[m], tolerance)) {
                over.push_back({b.index, m});
                break;
            }
        }
    }
    return over;
}

float markClearance(float textSize) {
    return std::max(3.f, textSize * 0.2f);
}

namespace {

// A reference line is not data a text can hide (its own label sits on it).
bool crowds(Box box, const MarkFootprint& mark, float textSize) {
    return mark.kind != MarkKind::Reference &&
           boxCoversMark(box, mark, mark.kind == MarkKind::Area ? 1.f : -markClearance(textSize));
}

}  // namespace

bool crowdsMarks(const Figure& figure, Box box, float textSize) {
    for (const MarkFootprint& mark : figure.marks)
        if (crowds(box, mark, textSize)) return true;
    return false;
}

std::vector<TextOverMark> textsCrowdingMarks(const Figure& figure) {
    std::vector<TextOverMark> over;
    for (const IndexedBox& b : textBoxes(figure)) {
        const float size = std::get<TextItem>(figure.items[b.index]).size;
        for (std::size_t m = 0; m < figure.marks.size(); ++m) {
            if (crowds(b.box, figure.marks[m], size)) {
                over.push_back({b.index, m});
                break;
            }
        }
    }
    return over;
}

std::optional<Box> placeFree(const Figure& figure, Box within, float w, float h,
                             const std::vector<Box>& preferred, const std::vector<Box>& avoid,
                             std::size_t firstMark) {
    if (w > within.width || h > within.height) return std::nullopt;
    const std::vector<IndexedBox> texts = textBoxes(figure);
    std::vector<std::vector<SegmentRun>> runs;
    for (std::size_t m = firstMark; m < figure.marks.size(); ++m)
        runs.push_back(segmentRuns(figure.marks[m]));
    auto isFree = [&](Box box) {
        if (box.x < within.x - 0.5f || box.y < within.y - 0.5f ||
            box.right() > within.right() + 0.5f || box.bottom() > within.bottom() + 0.5f)
            return false;
        for (const Box& a : avoid)
            if (boxesOverlap(box, a, 0)) return false;
        for (const IndexedBox& t : texts)
            if (boxesOverlap(box, t.box, 0)) return false;
        for (std::size_t m = firstMark; m < figure.marks.size(); ++m)
            if (coveredParts(box, figure.marks[m], 0, true, runs[m - firstMark]) > 0) return false;
        return true;
    };
    for (const Box& box : preferred)
        if (isFree(box)) return box;
    // A grid of positions about a quarter of the box apart; the free one nearest the first
    // preferred position (the reader's first look) wins.
    const Point target =
        preferred.empty() ? Point{within.x, within.y} : Point{preferred[0].x, preferred[0].y};
    const float stepX = std::max(4.f, std::min(w, within.width) / 4);
    const float stepY = std::max(4.f, std::min(h, within.height) / 4);
    std::vector<std::pair<float, Box>> grid;
    for (float y = within.y; y + h <= within.bottom() + 0.5f; y += stepY) {
        for (float x = within.x; x + w <= within.right() + 0.5f; x += stepX)
            grid.push_back({std::hypot(x - target.x, y - target.y), Box{x, y, w, h}});
    }
    std::stable_sort(grid.begin(), grid.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [distance, box] : grid)
        if (isFree(box)) return box;
    return std::nullopt;
}

}  // namespace poslab
