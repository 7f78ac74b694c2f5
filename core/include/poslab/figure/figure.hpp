// figure.hpp — a figure as a flat list of drawing primitives, in pixels, y pointing down.
//
// Views build a Figure; renderers replay it: Dear ImGui draw lists on screen and in the headless
// `poslab render` (same code, so what you see is what you export), and vector back ends for files.
// Nothing here knows about GL or fonts: text carries an anchor and alignment, and each renderer
// measures it with its own font.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/figure/colormap.hpp"

namespace poslab {

struct Point {
    float x = 0, y = 0;
};

struct Box {
    float x = 0, y = 0, width = 0, height = 0;
    float right() const { return x + width; }
    float bottom() const { return y + height; }
    bool contains(Point p) const { return p.x >= x && p.x < right() && p.y >= y && p.y < bottom(); }
};

enum class HorizontalAlign { Left, Center, Right };
enum class VerticalAlign { Top, Middle, Bottom };

// ---- Primitives
struct TextItem {
    Point anchor;      // the point the alignment refers to
    std::string text;  // UTF-8
    float size = 14;   // pixel height of the font
    Rgba color;
    HorizontalAlign horizontal = HorizontalAlign::Left;
    VerticalAlign vertical = VerticalAlign::Top;
    bool vertical90 = false;  // rotated 90 degrees counter-clockwise (reads bottom to top)
};
// A TextItem in one call, as the figure builders write most of their text.
inline TextItem makeText(Point anchor, std::string text, float size, Rgba color,
                         HorizontalAlign horizontal = HorizontalAlign::Left,
                         VerticalAlign vertical = VerticalAlign::Top, bool vertical90 = false) {
    return {anchor, std::move(text), size, color, horizontal, vertical, vertical90};
}
struct LineItem {
    Point from, to;
    Rgba color;
    float width = 1;
    bool dashed = false;
};
struct PolylineItem {
    std::vector<Point> points;
    Rgba color;
    float width = 1.5f;
};
struct RectItem {
    Box box;
    Rgba fill{0, 0, 0, 0};    // alpha 0: no fill
    Rgba stroke{0, 0, 0, 0};  // alpha 0: no outline
    float strokeWidth = 1;
    bool legend = false;  // a legend's box (legend.hpp): the layout check counts marks under it
};
struct CircleItem {
    Point center;
    float radius = 3;
    Rgba fill{0, 0, 0, 0};
    Rgba stroke{0, 0, 0, 0};
    float strokeWidth = 1;
};
struct PolygonItem {  // convex, filled (arrow heads, markers)
    std::vector<Point> points;
    Rgba fill;
};
struct HeatmapItem {  // values drawn cell by cell into box, row 0 at the top
    Box box;
    std::shared_ptr<const Matrix> values;
    ColormapId colormap = ColormapId::Viridis;
    ValueRange range;
    Rgba masked = kMaskedColor;  // -inf cells; the default is transparent: what is under shows
    std::uint64_t version = 0;   // changes whenever values change: renderers cache on it
};
struct ClipPush {  // later items are clipped to box until the matching ClipPop
    Box box;
};
struct ClipPop {};

using FigureItem = std::variant<TextItem, LineItem, PolylineItem, RectItem, CircleItem, PolygonItem,
                                HeatmapItem, ClipPush, ClipPop>;

// One plot of a figure (a drawHeatmap or drawLinePlot call): the area it was given and the items
// it added, [begin, end). Multi-panel views are these plots side by side; `--panel N` keeps one.
struct PanelSpan {
    Box area;
    std::size_t begin = 0, end = 0;
    Box plot{};  // its axes' box (the data area), once laid out: a plot squeezed flat shows
                 // in its aspect (the tour check, #28)
};

// ---- Marks: where a figure's data is drawn, so text can be placed where it hides none of it
// (text_boxes.hpp: placeFree, textsOverMarks). Figure::add records one for every curve
// (PolylineItem), point (CircleItem) and heatmap's cells (HeatmapItem), clipped as the item is;
// a view records a filled area (bars, bands) with addMark. Chrome (axes, grid, legend swatches)
// is drawn with LineItem and RectItem and is not a mark. A reference line across a plot (a
// Marker: ±1/√d, a training length) is a Reference mark: a legend or a note placed in the plot
// keeps off it (placeFree, legendsOverMarks), but text may touch it (its own label sits on it),
// so the checks of text over data (textsOverMarks, crowdsMarks, marksCovered) pass it by.
enum class MarkKind { Curve, Point, Area, Reference };
struct MarkFootprint {
    MarkKind kind = MarkKind::Area;
    std::vector<Point> points;  // Curve: its vertices
    float halfWidth = 0;        // Curve: half the stroke
    Box bounds;                 // Point, Area: the footprint; Curve: its vertices' bounds, widened
    Box clip{-1e30f, -1e30f, 2e30f, 2e30f};  // only the part inside shows
    float cellWidth = 0, cellHeight = 0;     // a heatmap's cells: a text inside one labels it
};

// ---- Axes: what each plot's axis shows (drawAxes records one per axis), so a check can ask
// whether a finer nice step would have named more values than the labels drawn (#28).
struct AxisRecord {
    std::size_t item = 0;      // items.size() when recorded: an undone try (truncate) forgets it
    Box plot;                  // the data area the axis runs along
    bool vertical = false;     // the y axis (labels left of the plot), else the x axis (below)
    double low = 0, high = 1;  // the range shown, as AxisSpec
    bool logarithmic = false, cells = false, integers = false;  // as AxisSpec
    float labelSize = 14;                                       // the tick labels' size
    std::vector<double> labelled;                               // tick values whose label was drawn
};

// ---- Text left out: what a figure had no room to show at all (a legend's keys), which no item
// carries; the layout check counts each as cut text.
struct LeftOutText {
    std::size_t item = 0;  // items.size() when it was left out: an undone try (truncate) forgets it
    std::string text;
};

struct Figure {
    float width = 800, height = 600;
    Rgba background{0, 0, 0, 0};  // alpha 0: transparent
    std::vector<FigureItem> items;
    std::vector<PanelSpan> panels;  // every plot drawn, in order
    int figureTitles = 0;           // drawTitle calls: a title over the whole figure was asked for
    // The figure title's size as drawn (the first drawTitle; its smaller line when it wrapped),
    // 0: none yet. No plot title is set larger (titles.hpp): a title shrunk to fit its band
    // read as smaller than the panel titles under it (Near-orthogonality at one column, #28).
    float titleSize = 0;
    // > 0: the view numbers its panels as the GUI does (panel_grid's panels, which may hold
    // several plots), and with Theme::focusPanel it drew that panel alone over the whole
    // figure, notes and all: `--panel N` keeps the figure as drawn (figure_controls).
    int viewPanels = 0;
    std::vector<MarkFootprint> marks;  // where the data is (see above)
    bool recordingMarks = true;        // false while a view draws decoration as curves or dots
    std::vector<Box> clips;            // the ClipPush boxes open at the end of items
    std::vector<LeftOutText> leftOut;  // text with no room (see above)
    std::vector<AxisRecord> axes;      // every axis drawn (see above)

    template <class Item>
    void add(Item item) {
        recordMark(item);
        items.emplace_back(std::move(item));
    }
    void addMark(Box area) {  // a filled area of data (in the open clip)
        if (recordingMarks) marks.push_back(openMark(MarkKind::Area, area));
    }
    // A straight reference line from `from` to `to`, `width` px wide (see MarkKind::Reference).
    void addReferenceMark(Point from, Point to, float width) {
        if (!recordingMarks) return;
        const float half = width / 2;
        const float left = from.x < to.x ? from.x : to.x, top = from.y < to.y ? from.y : to.y;
        const float right = from.x < to.x ? to.x : from.x, bottom = from.y < to.y ? to.y : from.y;
        marks.push_back(
            openMark(MarkKind::Reference,
                     {left - half, top - half, right - left + width, bottom - top + width}));
    }
    // A curve through `points` drawn some other way than one PolylineItem (separate segments,
    // a PolygonItem ribbon): its footprint, as add() records a PolylineItem `width` px wide.
    void addCurveMark(std::vector<Point> points, float width) {
        PolylineItem line;
        line.points = std::move(points);
        line.width = width;
        recordMark(line);
    }
    void leaveOut(std::string text) { leftOut.push_back({items.size(), std::move(text)}); }
    // A layout tried and undone: back to the first `itemCount` items and `markCount` marks, and
    // what was left out after them forgotten (the caller restores clips and panels it changed).
    void truncate(std::size_t itemCount, std::size_t markCount) {
        items.resize(itemCount);
        marks.resize(markCount);
        while (!leftOut.empty() && leftOut.back().item >= itemCount) leftOut.pop_back();
        while (!axes.empty() && axes.back().item >= itemCount) axes.pop_back();
    }
    // Where a layout that may be undone starts: items, marks and panels so far, the open clips.
    struct Checkpoint {
        std::size_t items = 0, marks = 0, panels = 0;
        std::vector<Box> clips;
    };
    Checkpoint checkpoint() const { return {items.size(), marks.size(), panels.size(), clips}; }
    // Back to `to`: the try since then undone, what it left out forgotten too (truncate).
    void rollBack(const Checkpoint& to) {
        truncate(to.items, to.marks);
        panels.resize(to.panels);
        clips = to.clips;
    }
    // Takes a text out that gave way to another (drawCornerNote's last x tick label): a blanked
    // one would stay in exports and footprints as an empty item. The records of the items after
    // it (panels, axes, text left out) move down one; marks are not tied to items.
    void removeText(std::size_t index) {
        if (index >= items.size() || !std::holds_alternative<TextItem>(items[index])) return;
        items.erase(items.begin() + std::ptrdiff_t(index));
        for (PanelSpan& panel : panels) {
            if (panel.begin > index) --panel.begin;
            if (panel.end > index) --panel.end;
        }
        for (AxisRecord& axis : axes)
            if (axis.item > index) --axis.item;
        for (LeftOutText& left : leftOut)
            if (left.item > index) --left.item;
    }
    // Items copied from another figure (keepPanel): their marks and clips as add() records them.
    void addCopied(const FigureItem& item) {
        recordMark(item);
        items.push_back(item);
    }

  private:
    MarkFootprint openMark(MarkKind kind, Box bounds) const {
        MarkFootprint mark;
        mark.kind = kind;
        mark.bounds = bounds;
        if (!clips.empty()) mark.clip = clips.back();
        return mark;
    }
    void recordMark(const TextItem&) {}
    void recordMark(const LineItem&) {}
    void recordMark(const RectItem&) {}
    void recordMark(const PolygonItem&) {}
    void recordMark(const PolylineItem& line) {
        if (!recordingMarks || line.points.empty()) return;
        float left = line.points[0].x, right = left, top = line.points[0].y, bottom = top;
        for (Point p : line.points) {
            left = p.x < left ? p.x : left;
            right = p.x > right ? p.x : right;
            top = p.y < top ? p.y : top;
            bottom = p.y > bottom ? p.y : bottom;
        }
        const float half = line.width / 2;
        MarkFootprint mark = openMark(
            MarkKind::Curve,
            {left - half, top - half, right - left + line.width, bottom - top + line.width});
        mark.points = line.points;
        mark.halfWidth = half;
        marks.push_back(std::move(mark));
    }
    void recordMark(const CircleItem& dot) {
        if (!recordingMarks) return;
        marks.push_back(
            openMark(MarkKind::Point, {dot.center.x - dot.radius, dot.center.y - dot.radius,
                                       2 * dot.radius, 2 * dot.radius}));
    }
    void recordMark(const HeatmapItem& heatmap) {
        if (!recordingMarks) return;
        MarkFootprint mark = openMark(MarkKind::Area, heatmap.box);
        if (heatmap.values && heatmap.values->rows > 0 && heatmap.values->cols > 0) {
            mark.cellWidth = heatmap.box.width / float(heatmap.values->cols);
            mark.cellHeight = heatmap.box.height / float(heatmap.values->rows);
        }
        marks.push_back(std::move(mark));
    }
    void recordMark(const ClipPush& push) { clips.push_back(push.box); }
    void recordMark(const ClipPop&) {
        if (!clips.empty()) clips.pop_back();
    }
    void recordMark(const FigureItem& item) {
        std::visit([this](const auto& each) { recordMark(each); }, item);
    }
};

}  // namespace poslab
