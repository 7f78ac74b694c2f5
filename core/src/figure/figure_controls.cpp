#include "poslab/figure/figure_controls.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <variant>

#include "poslab/base/format.hpp"
#include "poslab/figure/text_boxes.hpp"

namespace poslab {

Status checkFontScale(double scale) {
    if (scale >= kMinFontScale && scale <= kMaxFontScale) return success();  // NaN fails
    return Error{"font_scale must be " + formatValue(kMinFontScale) + ".." +
                 formatValue(kMaxFontScale) + " (got " + formatValue(scale) + ")"};
}

Theme withFontScale(Theme theme, float scale) {
    return scale == 1 ? theme : scaledTheme(theme, scale);
}

bool fitsCanvasToContent(const Theme& theme) {
    return theme.aspect == AspectMode::Square || theme.legend == LegendPlacement::Outside;
}

namespace {

struct Bounds {
    float left = INFINITY, top = INFINITY, right = -INFINITY, bottom = -INFINITY;
    void add(Box box, const std::vector<Box>& clips) {
        if (!(box.width >= 0 && box.height >= 0)) return;
        float l = box.x, t = box.y, r = box.right(), b = box.bottom();
        if (!clips.empty()) {
            const Box& c = clips.back();
            l = std::max(l, c.x), t = std::max(t, c.y);
            r = std::min(r, c.right()), b = std::min(b, c.bottom());
            if (l > r || t > b) return;  // clipped away
        }
        if (!(std::isfinite(l) && std::isfinite(t) && std::isfinite(r) && std::isfinite(b))) return;
        left = std::min(left, l), top = std::min(top, t);
        right = std::max(right, r), bottom = std::max(bottom, b);
    }
    void add(const std::vector<Point>& points, float pad, const std::vector<Box>& clips) {
        if (points.empty()) return;
        float l = INFINITY, t = INFINITY, r = -INFINITY, b = -INFINITY;
        for (Point p : points) {
            if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
            l = std::min(l, p.x), t = std::min(t, p.y), r = std::max(r, p.x), b = std::max(b, p.y);
        }
        if (l <= r) add(Box{l - pad, t - pad, r - l + 2 * pad, b - t + 2 * pad}, clips);
    }
};

}  // namespace

Box contentBounds(const Figure& figure) {
    Bounds bounds;
    std::vector<Box> clips;  // intersected as they nest
    for (const FigureItem& item : figure.items) {
        if (const auto* text = std::get_if<TextItem>(&item)) {
            if (text->color.a && text->text.find_first_not_of(' ') != std::string::npos)
                bounds.add(textBox(*text), clips);
        } else if (const auto* line = std::get_if<LineItem>(&item)) {
            if (line->color.a) bounds.add({line->from, line->to}, line->width / 2, clips);
        } else if (const auto* polyline = std::get_if<PolylineItem>(&item)) {
            if (polyline->color.a) bounds.add(polyline->points, polyline->width / 2, clips);
        } else if (const auto* rect = std::get_if<RectItem>(&item)) {
            // A fill in the page's own colour without an outline shows nothing on the page.
            const bool visibleFill = rect->fill.a && !(rect->fill == figure.background);
            if (visibleFill || rect->stroke.a) bounds.add(rect->box, clips);
        } else if (const auto* circle = std::get_if<CircleItem>(&item)) {
            bounds.add({{circle->center.x - circle->radius, circle->center.y - circle->radius},
                        {circle->center.x + circle->radius, circle->center.y + circle->radius}},
                       0, clips);
        } else if (const auto* polygon = std::get_if<PolygonItem>(&item)) {
            bounds.add(polygon->points, 0, clips);
        } else if (const auto* heatmap = std::get_if<HeatmapItem>(&item)) {
            bounds.add(heatmap->box, clips);
        } else if (const auto* push = std::get_if<ClipPush>(&item)) {
            Box box = push->box;
            if (!clips.empty()) {
                const Box& c = clips.back();
                const float l = std::max(box.x, c.x), t = std::max(box.y, c.y);
                const float r = std::min(box.right(), c.right());
                const float b = std::min(box.bottom(), c.bottom());
                box = {l, t, std::max(0.f, r - l), std::max(0.f, b - t)};
            }
            clips.push_back(box);
        } else if (std::holds_alternative<ClipPop>(item)) {
            if (!clips.empty()) clips.pop_back();
        }
    }
    if (!(bounds.left <= bounds.right)) return {};
    return {bounds.left, bounds.top, bounds.right - bounds.left, bounds.bottom - bounds.top};
}

Figure cropRows(Figure figure, float top, float height) {
    auto up = [top](Point& p) { p.y -= top; };
    for (FigureItem& item : figure.items) {
        std::visit(
            [&](auto& it) {
                using T = std::decay_t<decltype(it)>;
                if constexpr (std::is_same_v<T, TextItem>) up(it.anchor);
                if constexpr (std::is_same_v<T, LineItem>) up(it.from), up(it.to);
                if constexpr (std::is_same_v<T, PolylineItem> || std::is_same_v<T, PolygonItem>)
                    for (Point& p : it.points) up(p);
                if constexpr (std::is_same_v<T, RectItem> || std::is_same_v<T, HeatmapItem> ||
                              std::is_same_v<T, ClipPush>)
                    it.box.y -= top;
                if constexpr (std::is_same_v<T, CircleItem>) up(it.center);
            },
            item);
    }
    for (PanelSpan& span : figure.panels) span.area.y -= top;
    figure.height = height;
    return figure;
}

Result<Figure> buildFittedToContent(const SizedBuild& build, const Theme& theme, float width,
                                    float height, float maxHeight, float margin) {
    auto at = [&](float h) {
        return buildWithControls([&](const Theme& t) { return build(t, width, h); }, theme);
    };
    auto figure = at(height);
    if (!figure) return figure;
    Box content = contentBounds(*figure);
    if (content.width <= 0 || content.height <= 0) return figure;
    // Narrower than the canvas: square plots limited by the height. Taller, they widen until
    // the width limits them (the margins around them stay, so two steps get close).
    for (int step = 0; step < 2 && content.width < width - 2 * margin - 4; ++step) {
        const float taller = std::min(
            maxHeight, std::ceil(height * (width - 2 * margin) / std::max(1.f, content.width)));
        if (!(taller > height + 1)) break;
        auto again = at(taller);
        if (!again) return again;
        height = taller;
        figure = std::move(again);
        content = contentBounds(*figure);
    }
    const float top = std::max(0.f, std::floor(content.y - margin));
    const float bottom = std::min(figure->height, std::ceil(content.bottom() + margin));
    if (bottom - top >= figure->height - 1) return figure;
    return cropRows(std::move(figure).value(), top, bottom - top);
}

Result<Figure> buildWithAllPanels(const SizedBuild& build, const Theme& theme, float width,
                                  float height, bool growHeight, float maxHeight) {
    PanelRoom room;
    Theme all = theme;
    all.panelRoom = &room;
    auto at = [&](float h) {
        return buildWithControls([&](const Theme& t) { return build(t, width, h); }, all);
    };
    auto figure = at(height);
    // Grown at most three times: a grid that found room may show a panel that asks for more
    // (binary-clock's bit plots, stacked in its third panel, once the panels fit).
    for (int attempt = 0; attempt < 3; ++attempt) {
        if (!figure || !growHeight || !(room.missingHeight > 0.5f)) return figure;
        const float taller = std::min(maxHeight, std::ceil(height + room.missingHeight));
        if (!(taller > height + 0.5f)) return figure;
        height = taller;
        room = PanelRoom{};
        figure = at(height);
    }
    return figure;
}

std::size_t panelCount(const Figure& figure) {
    return figure.viewPanels > 0 ? std::size_t(figure.viewPanels) : figure.panels.size();
}

Theme forFiles(Theme theme, float fontScale) {
    if (theme.id != ThemeId::Paper) return withFontScale(theme, fontScale);
    theme = withFontScale(theme, fontScale * kPaperPrintScale);
    theme.minTextSize = fontScale * kPrintMinTextPt / kPrintPointsPerPixel / kEmPerLineHeight;
    return theme;
}

Figure keepPanel(const Figure& figure, std::size_t index) {
    Figure kept;
    kept.width = figure.width;
    kept.height = figure.height;
    kept.background = figure.background;
    const PanelSpan& span = figure.panels[index];
    // Clip pushes and pops inside the span come in pairs (every plot pops what it pushed).
    kept.recordingMarks = figure.recordingMarks;
    for (std::size_t i = span.begin; i < span.end; ++i) kept.addCopied(figure.items[i]);
    for (const LeftOutText& out : figure.leftOut)
        if (out.item >= span.begin && out.item < span.end)
            kept.leftOut.push_back({out.item - span.begin, out.text});
    for (const AxisRecord& axis : figure.axes) {
        if (axis.item < span.begin || axis.item >= span.end) continue;
        kept.axes.push_back(axis);
        kept.axes.back().item -= span.begin;
    }
    kept.panels.push_back({span.area, 0, kept.items.size(), span.plot});
    return kept;
}

Result<Figure> buildWithControls(const ThemedBuild& build, Theme theme) {
    if (theme.focusPanel > 0) {
        // The figure's title goes with the other panels: --title names the panel's.
        theme.titleTarget = TitleTarget::PanelTitles;
        auto figure = build(theme);
        if (!figure) return figure;
        if (figure->viewPanels > 0) {  // the view drew panel N itself, as the GUI shows it
            if (theme.focusPanel > figure->viewPanels) {
                return Error{"panel must be 1.." + std::to_string(figure->viewPanels) +
                             " for this view (got " + std::to_string(theme.focusPanel) + ")"};
            }
            return figure;
        }
        const std::size_t count = figure->panels.size();
        if (count <= 1) {
            if (theme.focusPanel != 1) {
                return Error{"panel must be 1..1 for this view (got " +
                             std::to_string(theme.focusPanel) + ")"};
            }
            if (count == 0 && theme.titleMode == TitleMode::Replace) {
                theme.focusPanel = 0;  // no plots: the whole figure, its own title replaced
                theme.titleTarget = TitleTarget::FigureTitle;
                return build(theme);
            }
            return figure;
        }
        if (std::size_t(theme.focusPanel) > count) {
            return Error{"panel must be 1.." + std::to_string(count) + " for this view (got " +
                         std::to_string(theme.focusPanel) + ")"};
        }
        return keepPanel(*figure, std::size_t(theme.focusPanel - 1));
    }
    if (theme.titleMode != TitleMode::Replace) return build(theme);
    theme.titleTarget = TitleTarget::FigureTitle;
    auto figure = build(theme);
    if (!figure || figure->figureTitles > 0) return figure;
    theme.titleTarget = TitleTarget::PanelTitles;  // no figure title: the plot's is the title
    return build(theme);
}

}  // namespace poslab
