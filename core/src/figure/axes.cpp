#include "poslab/figure/axes.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "plot_parts.hpp"
#include "poslab/figure/text_boxes.hpp"

namespace poslab {

// ---------------------------------------------------------------------------------------------
// Frames
// ---------------------------------------------------------------------------------------------

namespace {

double axisFraction(const AxisSpec& axis, double value) {
    if (axis.logarithmic) {
        const double low = std::log10(axis.low), high = std::log10(axis.high);
        return (std::log10(value) - low) / (high - low);
    }
    return rangeFraction(value, axis.low, axis.high);
}

double axisValue(const AxisSpec& axis, double fraction) {
    if (axis.logarithmic) {
        const double low = std::log10(axis.low), high = std::log10(axis.high);
        return std::pow(10.0, low + fraction * (high - low));
    }
    return rangeValue(fraction, axis.low, axis.high);
}

}  // namespace

Point PlotFrame::toPixel(double xValue, double yValue) const {
    const double fx = axisFraction(x, xValue), fy = axisFraction(y, yValue);
    const float px = plot.x + float(fx) * plot.width;
    const float py =
        yDown ? plot.y + float(fy) * plot.height : plot.bottom() - float(fy) * plot.height;
    return {px, py};
}

std::pair<double, double> PlotFrame::toData(Point pixel) const {
    const double fx = (pixel.x - plot.x) / plot.width;
    const double fy =
        yDown ? (pixel.y - plot.y) / plot.height : (plot.bottom() - pixel.y) / plot.height;
    return {axisValue(x, fx), axisValue(y, fy)};
}

Marker trainingLengthMarker(int trainingLength, const Theme& theme) {
    Marker marker;
    marker.vertical = false;
    marker.value = trainingLength;
    marker.label = "training length " + std::to_string(trainingLength);
    marker.color = theme.accent;
    marker.shadeBeyond = true;
    return marker;
}

// ---------------------------------------------------------------------------------------------
// Axes, margins and markers (plot_parts.hpp)
// ---------------------------------------------------------------------------------------------

namespace plot_parts {

float tickLabelClearance(float fontSize, AxisSide side) {
    return std::max(4.f, fontSize * (side == AxisSide::X ? 0.5f : 0.25f));
}

namespace {

std::vector<Tick> niceAxisTicks(const AxisSpec& axis, int count) {
    if (axis.logarithmic) return logTicks(axis.low, axis.high, count);
    if (axis.cells) return linearTicks(axis.low, std::max(axis.low, axis.high - 1), count, true);
    return linearTicks(axis.low, axis.high, count, axis.integers);
}

// How many of `ticks` lie on the axis (as drawAxes draws them), or -1 when two neighbouring
// labels come closer than tickLabelClearance along an axis `pixels` long.
int clearTickCount(const AxisSpec& axis, const std::vector<Tick>& ticks, float pixels,
                   float fontSize, AxisSide side) {
    const double low = std::min(axis.low, axis.high), high = std::max(axis.low, axis.high);
    const float clearance = tickLabelClearance(fontSize, side);
    int shown = 0;
    double lastAt = 0;
    float lastExtent = 0;
    for (const Tick& t : ticks) {
        const double v = tickPosition(axis, t.value);
        if (v < low || v > high) continue;
        const double at = axisFraction(axis, v) * pixels;
        const float extent =
            side == AxisSide::X ? estimateTextWidth(t.label, fontSize) / 2 : fontSize / 2;
        if (shown > 0 && std::abs(at - lastAt) < double(lastExtent + extent + clearance)) return -1;
        ++shown;
        lastAt = at;
        lastExtent = extent;
    }
    return shown;
}

}  // namespace

std::vector<Tick> axisTicks(const AxisSpec& axis, float pixels, float fontSize, AxisSide side) {
    const float spacing = side == AxisSide::X ? std::max(70.f, fontSize * 5.5f) : fontSize * 2.6f;
    const int count = tickCountFor(pixels, spacing);
    std::vector<Tick> ticks = niceAxisTicks(axis, count);
    if (!(pixels > 0) || !std::isfinite(pixels) || !(fontSize > 0)) return ticks;
    // A log axis over many decades wants four labels at least (a short one at one column read
    // 10^-20, 10^-10, 10^0: every tenth decade, where every fifth kept clear, #28).
    const int wanted = axis.logarithmic ? 4 : 3;
    int shownBefore = clearTickCount(axis, ticks, pixels, fontSize, side);
    if (shownBefore >= wanted) return ticks;
    // Finer steps, while their labels keep clear (a finer step's ticks only come closer); at
    // most as many as one a label's height (y) or a digit's width (x) fits. A log axis keeps
    // the finest that stayed clear.
    const int most = std::min(count + 16, tickCountFor(pixels, fontSize * 0.5f));
    for (int finer = count + 1; finer <= most; ++finer) {
        std::vector<Tick> more = niceAxisTicks(axis, finer);
        const int shown = clearTickCount(axis, more, pixels, fontSize, side);
        if (shown < 0) break;
        if (shown >= wanted) return more;
        if (axis.logarithmic && shown > shownBefore) ticks = std::move(more), shownBefore = shown;
    }
    return ticks;
}

double tickPosition(const AxisSpec& axis, double value) {
    return axis.cells ? value + 0.5 : value;
}

float widestLabel(const std::vector<Tick>& ticks, float size) {
    float widest = 0;
    for (const Tick& t : ticks) widest = std::max(widest, estimateTextWidth(t.label, size));
    return widest;
}

bool addTickLabel(Figure& figure, TextItem label, std::optional<Box>& last, Box bounds,
                  const std::vector<Box>& avoid) {
    const Box box = textBox(label);
    if (last && boxesOverlap(box, {last->x - 2, last->y - 2, last->width + 4, last->height + 4}, 0))
        return false;
    for (const Box& other : avoid)
        if (boxesOverlap(box, other, 0)) return false;
    if (box.x < bounds.x - 0.5f || box.right() > bounds.right() + 0.5f || box.y < bounds.y - 0.5f ||
        box.bottom() > bounds.bottom() + 0.5f)
        return false;
    last = box;
    figure.add(std::move(label));
    return true;
}

void drawAxes(Figure& figure, Box area, const PlotFrame& frame, const Theme& theme, bool grid) {
    const Box& p = frame.plot;
    const float tickLength = strokeWidth(theme, 4);
    const float hairline = strokeWidth(theme, 1);
    const auto xTicks = axisTicks(frame.x, p.width, theme.fontSize, AxisSide::X);
    const auto yTicks = axisTicks(frame.y, p.height, theme.fontSize, AxisSide::Y);
    std::optional<Box> lastX, lastY;
    std::vector<Box> xLabels;  // the y labels keep clear of them where the axes meet
    auto record = [&](const AxisSpec& axis, bool vertical) {
        AxisRecord r;
        r.item = figure.items.size();
        r.plot = p;
        r.vertical = vertical;
        r.low = axis.low;
        r.high = axis.high;
        r.logarithmic = axis.logarithmic;
        r.cells = axis.cells;
        r.integers = axis.integers;
        r.labelSize = theme.fontSize;
        return r;
    };
    AxisRecord xRecord = record(frame.x, false), yRecord = record(frame.y, true);
    for (const Tick& t : xTicks) {
        const double v = tickPosition(frame.x, t.value);
        if (v < std::min(frame.x.low, frame.x.high) || v > std::max(frame.x.low, frame.x.high))
            continue;
        const float px = frame.toPixel(v, frame.y.low).x;
        if (grid) figure.add(LineItem{{px, p.y}, {px, p.bottom()}, theme.grid, hairline, false});
        figure.add(
            LineItem{{px, p.bottom()}, {px, p.bottom() + tickLength}, theme.axis, hairline, false});
        if (addTickLabel(figure,
                         makeText({px, p.bottom() + tickLength + 2}, t.label, theme.fontSize,
                                  theme.text, HorizontalAlign::Center, VerticalAlign::Top),
                         lastX, area))
            xRecord.labelled.push_back(t.value);
        if (lastX && (xLabels.empty() || xLabels.back().x != lastX->x)) xLabels.push_back(*lastX);
    }
    for (const Tick& t : yTicks) {
        const double v = tickPosition(frame.y, t.value);
        if (v < std::min(frame.y.low, frame.y.high) || v > std::max(frame.y.low, frame.y.high))
            continue;
        const float py = frame.toPixel(frame.x.low, v).y;
        if (grid) figure.add(LineItem{{p.x, py}, {p.right(), py}, theme.grid, hairline, false});
        figure.add(LineItem{{p.x - tickLength, py}, {p.x, py}, theme.axis, hairline, false});
        if (addTickLabel(figure,
                         makeText({p.x - tickLength - 3, py}, t.label, theme.fontSize, theme.text,
                                  HorizontalAlign::Right, VerticalAlign::Middle),
                         lastY, area, xLabels))
            yRecord.labelled.push_back(t.value);
    }
    // A log axis labelled every few decades marks the decades between with half-length ticks
    // (no label, no grid line), so a reader can still count them.
    const float minorLength = tickLength * 0.5f;
    if (frame.x.logarithmic) {
        for (double v : logMinorTicks(frame.x.low, frame.x.high, xTicks)) {
            const float px = frame.toPixel(v, frame.y.low).x;
            figure.add(LineItem{
                {px, p.bottom()}, {px, p.bottom() + minorLength}, theme.axis, hairline, false});
        }
    }
    if (frame.y.logarithmic) {
        for (double v : logMinorTicks(frame.y.low, frame.y.high, yTicks)) {
            const float py = frame.toPixel(frame.x.low, v).y;
            figure.add(LineItem{{p.x - minorLength, py}, {p.x, py}, theme.axis, hairline, false});
        }
    }
    figure.axes.push_back(std::move(xRecord));
    figure.axes.push_back(std::move(yRecord));
    RectItem outline;
    outline.box = p;
    outline.stroke = theme.axis;
    outline.strokeWidth = hairline;
    figure.add(outline);
}

Margins plotMargins(const AxisSpec& x, const AxisSpec& y, bool hasTitle, const Theme& theme,
                    float approximateHeight, float approximateWidth) {
    Margins m;
    m.top = hasTitle ? theme.titleSize * 1.7f : theme.fontSize * 0.8f;
    m.bottom = theme.fontSize * 1.6f + (x.label.empty() ? 0 : theme.fontSize * 1.6f);
    // The ticks drawn are those of the plot's own height, which may step by 2.5 where the
    // area's height steps by 2 ("-7.5" is wider than "-8"): room for the wider of the two.
    float plotHeight = std::max(1.f, approximateHeight - m.top - m.bottom);
    const float widest = std::max(
        widestLabel(axisTicks(y, approximateHeight, theme.fontSize, AxisSide::Y), theme.fontSize),
        widestLabel(axisTicks(y, plotHeight, theme.fontSize, AxisSide::Y), theme.fontSize));
    m.left = widest + 3 + strokeWidth(theme, 4) + 3 + (y.label.empty() ? 0 : theme.fontSize * 1.6f);
    m.yTickWidth = widest;
    m.right = theme.fontSize * 1.2f;
    const float line = theme.fontSize * kAxisLabelLineStep;
    const float minScale = readableMinScale(theme.fontSize, theme);
    // Labels too long for their side wrap onto more lines (print sizes at one column) rather
    // than be cut: the rows they take come from the plot.
    if (approximateWidth > 0) {
        fitXLabelRows(m, x, theme, approximateWidth, approximateHeight);
        plotHeight = std::max(1.f, approximateHeight - m.top - m.bottom);
    }
    if (approximateWidth > 0 && !y.label.empty() &&
        estimateTextWidth(y.label, theme.fontSize * minScale) > plotHeight + m.bottom &&
        approximateWidth - m.left - m.right > theme.fontSize * 8) {
        m.left += line;  // a second column for the label
    }
    return m;
}

void fitYTickWidth(Margins& m, const AxisSpec& y, const Theme& theme, float plotHeight) {
    const float widest = widestLabel(
        axisTicks(y, std::max(1.f, plotHeight), theme.fontSize, AxisSide::Y), theme.fontSize);
    if (widest > m.yTickWidth) {
        m.left += widest - m.yTickWidth;
        m.yTickWidth = widest;
    }
}

const std::string& xAxisLabel(const AxisSpec& x, float fontSize, float plotWidth) {
    if (x.shortLabel.empty() || estimateTextWidth(x.label, fontSize) <= plotWidth) return x.label;
    return x.shortLabel;
}

void fitXLabelRows(Margins& m, const AxisSpec& x, const Theme& theme, float areaWidth,
                   float areaHeight) {
    m.bottom -= m.xLabelRows;
    m.xLabelRows = 0;
    if (x.label.empty()) return;
    const float minScale = readableMinScale(theme.fontSize, theme);
    const float plotWidth = std::max(1.f, areaWidth - m.left - m.right);
    const float plotHeight = std::max(1.f, areaHeight - m.top - m.bottom);
    const std::string& label = xAxisLabel(x, theme.fontSize, plotWidth);
    // One line, shrunk as far as the theme allows, when that keeps it whole; else wrapped.
    if (estimateTextWidth(label, theme.fontSize * minScale) <= plotWidth) return;
    const auto lines = wrapToFit(label, theme.fontSize, plotWidth, kAxisLabelLines, minScale);
    const float extra = theme.fontSize * kAxisLabelLineStep * float(lines.lines.size() - 1);
    if (extra > 0 && plotHeight - extra >= theme.fontSize * 4) {
        m.bottom += extra;
        m.xLabelRows = extra;
    }
}

void drawAxisLabels(Figure& figure, Box area, const PlotFrame& frame, const Theme& theme) {
    const Box& p = frame.plot;
    const Rgba axisLabelColor = theme.id == ThemeId::Paper ? theme.text : theme.mutedText;
    const float minScale = readableMinScale(theme.fontSize, theme);
    const float tickLength = strokeWidth(theme, 4);
    // Fitted to the plot's side: a label longer than its axis would reach the neighbours'. One
    // too long wraps onto the lines the room below the tick labels holds (plotMargins keeps
    // them when it knows the width), shrinking only when it needs more than that.
    // The short form where the long one does not fit the plot's width at full size (#28).
    const std::string& xLabel = xAxisLabel(frame.x, theme.fontSize, p.width);
    if (!xLabel.empty()) {
        const float line = theme.fontSize * kAxisLabelLineStep;
        const float room = area.bottom() - 2 - (p.bottom() + tickLength + 2 + theme.fontSize);
        // Compared before converting: a zero font or a degenerate area makes the ratio NaN.
        const float fits = (room + 0.5f) / line;
        const int lines = fits >= float(kAxisLabelLines) ? kAxisLabelLines
                          : fits >= 1                    ? int(fits)
                                                         : 1;
        WrappedText label;
        if (estimateTextWidth(xLabel, theme.fontSize * minScale) <= p.width) {
            // One line, shrunk as the theme allows, when that keeps it whole (as before).
            const FittedText fitted = fitText(xLabel, theme.fontSize, p.width, minScale);
            label.lines = {fitted.text};
            label.size = fitted.size;
        } else {
            label = wrapToFit(xLabel, theme.fontSize, p.width, lines, minScale);
            // Still cut under a narrow plot (a square heatmap at one column in print): as wide
            // as the room beside the plot allows (up to a colour bar; clear of a y label that
            // runs on down its strip), centred on the plot, rather than "positi…".
            const float leftEdge =
                area.x + 2 + (frame.y.label.empty() ? 0 : theme.fontSize * kAxisLabelLineStep);
            const float reach =
                std::min({frame.xLabelReach, p.x - leftEdge, area.right() - 2 - p.right()});
            if (label.cut() && reach > 0) {
                const WrappedText wider =
                    wrapToFit(xLabel, theme.fontSize, p.width + 2 * reach, lines, minScale);
                if (!wider.cut() || wider.size >= label.size) label = wider;
            }
        }
        const float step = label.size * kAxisLabelLineStep;
        for (std::size_t i = 0; i < label.lines.size(); ++i) {
            const float y = area.bottom() - 2 - step * float(label.lines.size() - 1 - i);
            figure.add(makeText({p.x + p.width / 2, y}, label.lines[i], label.size, axisLabelColor,
                                HorizontalAlign::Center, VerticalAlign::Bottom));
        }
    }
    if (!frame.y.label.empty()) {
        FittedText label = fitText(frame.y.label, theme.fontSize, p.height, minScale);
        float middle = p.y + p.height / 2;
        // Presentation (scaled up, not a file's 8 pt floor): shrunk past 80 % the label reads
        // as small print on a projector (the layout check's floor, kPresentationMinTextPx), so
        // it takes the routes a cut label does: two columns, or its head without the unit.
        const float smallest =
            theme.fontScale > 1 && theme.minTextSize <= 0 ? theme.fontSize * 0.8f - 0.01f : 0;
        auto poor = [&](const FittedText& fitted) {
            return fitted.text != frame.y.label || fitted.size < smallest;
        };
        // A short plot (a projector's font, a small window): rather than cut the label, let it
        // run on down its own strip past the plot's bottom, where only the x axis's text is.
        if (poor(label) && area.bottom() - 2 - p.y > p.height) {
            const float length = area.bottom() - 2 - p.y;
            label = fitText(frame.y.label, theme.fontSize, length, minScale);
            middle = p.y + length / 2;
        }
        // Still cut: two columns when the margin has room for them beside the tick labels
        // (plotMargins keeps it for a label it knows is long), each along the plot.
        if (poor(label)) {
            const auto ticks = axisTicks(frame.y, p.height, theme.fontSize, AxisSide::Y);
            const float tickText = widestLabel(ticks, theme.fontSize) + tickLength + 3 + 3;
            const float step = theme.fontSize * kAxisLabelLineStep;
            if (p.x - tickText - (area.x + 2) >= step + theme.fontSize) {
                const WrappedText wrapped =
                    wrapToFit(frame.y.label, theme.fontSize, p.height, 2, minScale);
                if (!wrapped.cut() && (wrapped.size >= smallest || label.text != frame.y.label)) {
                    const float along = wrapped.size * kAxisLabelLineStep;
                    for (std::size_t i = 0; i < wrapped.lines.size(); ++i)
                        figure.add(makeText({area.x + 2 + along * float(i), p.y + p.height / 2},
                                            wrapped.lines[i], wrapped.size, axisLabelColor,
                                            HorizontalAlign::Center, VerticalAlign::Top, true));
                    return;
                }
            }
        }
        // Still cut: the label without its trailing "(unit)" when that fits whole.
        const std::size_t unit = frame.y.label.rfind(" (");
        if (poor(label) && unit != std::string::npos && frame.y.label.back() == ')') {
            const FittedText head = fitText(frame.y.label.substr(0, unit), theme.fontSize,
                                            std::max(p.height, area.bottom() - 2 - p.y), minScale);
            if (head.text.size() == unit &&
                (label.text != frame.y.label || head.size >= smallest)) {
                label = head;
                const float along = estimateTextWidth(head.text, head.size);
                middle = along <= p.height ? p.y + p.height / 2 : p.y + along / 2;
            }
        }
        figure.add(makeText({area.x + 2, middle}, label.text, label.size, axisLabelColor,
                            HorizontalAlign::Center, VerticalAlign::Top, true));
    }
}

void drawMarkers(Figure& figure, const PlotFrame& frame, const std::vector<Marker>& markers,
                 const Theme& theme, MarkerPart part, std::vector<Box> avoid,
                 std::vector<std::size_t>* unplaced) {
    const Box& p = frame.plot;
    figure.add(ClipPush{p});
    // Labels sit on a backing box (they cross data and the shading) and step down, or up, past
    // the labels already placed; one that cannot be placed whole inside the plot is left out.
    std::vector<Box> placed = std::move(avoid);
    const float labelSize = atLeastMinText(theme.fontSize * 0.9f, theme);
    // Where a label may go outside the plot: inside the enclosing clip (the panel), else the
    // figure, over no text and no data.
    const Box enclosing = figure.clips.size() >= 2 ? figure.clips[figure.clips.size() - 2]
                                                   : Box{0, 0, figure.width, figure.height};
    // A label keeps markClearance from the curves and points, or it reads as on them ("exact
    // below 8" nestled under T5's steps, #28).
    auto hidesData = [&](Box box) { return crowdsMarks(figure, box, labelSize); };
    std::vector<Box> texts;
    for (const FigureItem& item : figure.items)
        if (const auto* t = std::get_if<TextItem>(&item); t && !t->text.empty())
            texts.push_back(textBox(*t));
    auto clearOfLabels = [&](Box t) {
        for (const Box& other : placed)
            if (boxesOverlap(t, other, 0)) return false;
        return true;
    };
    // Just above the plot, beside a vertical line at x: inside the panel, clear of every text
    // (the title, the ticks), the other labels and the data.
    auto above = [&](float x, float width, float height) -> std::optional<Box> {
        for (float left : {x, x - 8 - width}) {
            const Box t{left, p.y - height - 2, width, height};
            // A line plot that can list the label in its legend keeps it over its own plot.
            const Box within =
                unplaced ? Box{p.x, enclosing.y, p.width, enclosing.height} : enclosing;
            bool clear = t.x >= within.x && t.right() <= within.right() && t.y >= enclosing.y &&
                         clearOfLabels(t) && !hidesData(t);
            for (const Box& other : texts) clear = clear && !boxesOverlap(t, other, 0);
            if (clear) return t;
        }
        return std::nullopt;
    };
    auto draw = [&](Box box, const FittedText& fitted, Rgba color, bool outside) {
        placed.push_back(box);
        if (outside) figure.add(ClipPop{});
        figure.add(RectItem{box, withAlpha(theme.plotBackground, 215), {0, 0, 0, 0}, 1});
        figure.add(makeText({box.x + 2, box.y + 1}, fitted.text, fitted.size, color));
        if (outside) figure.add(ClipPush{p});
    };
    // The marker being labelled; a label with no place is left out (and reported when asked).
    std::size_t current = 0;
    // The vertical markers' lines inside the plot: a vertical marker's label crossing another's
    // line reads as struck through (YaRN's "ramp ends" across the ramp's start, #28).
    std::vector<std::pair<std::size_t, Box>> lines;
    for (std::size_t k = 0; k < markers.size(); ++k) {
        if (!markers[k].vertical) continue;
        const float px = frame.toPixel(markers[k].value, frame.y.low).x;
        if (px >= p.x && px <= p.right()) lines.push_back({k, {px - 1, p.y, 2, p.height}});
    }
    auto crossesOtherLine = [&](Box t) {
        for (const auto& [k, line] : lines)
            if (k != current && boxesOverlap(t, line, 0)) return true;
        return false;
    };
    auto leaveOut = [&] {
        if (unplaced) unplaced->push_back(current);
    };
    auto addLabel = [&](const std::string& text, float x, float y, bool alignRight, bool upwards,
                        Rgba color) {
        const float minScale = readableMinScale(labelSize, theme);
        FittedText fitted =
            fitText(text, labelSize, alignRight ? x - p.x - 4 : p.right() - x - 4, minScale);
        // A vertical marker's label cut right of its line goes whole on the left when it fits,
        // else whole above the plot when there is room there.
        bool leftOfLine = false;
        if (!upwards && !alignRight && fitted.text != text) {
            const FittedText left = fitText(text, labelSize, x - 8 - p.x - 4, minScale);
            if (left.text == text) fitted = left, leftOfLine = true;
        }
        if (!upwards && fitted.text != text) {
            const FittedText whole = fitText(text, labelSize, enclosing.width, minScale);
            if (whole.text == text) {
                const float w = estimateTextWidth(whole.text, whole.size) + 4;
                if (auto t = above(x - 4, w, whole.size + 2)) return draw(*t, whole, color, true);
            }
        }
        if (fitted.text.find_first_not_of(' ') == std::string::npos) return leaveOut();
        const float width = estimateTextWidth(fitted.text, fitted.size) + 4;
        const float height = fitted.size + 2;
        auto inPlot = [&](Box b) {
            return b.x >= p.x && b.right() <= p.right() && b.y >= p.y && b.bottom() <= p.bottom();
        };
        const float rightX = x, leftX = x - 8 - width;  // either side of a vertical line
        Box box{alignRight ? x - width : (leftOfLine ? leftX : rightX), upwards ? y - height : y,
                width, height};
        for (bool moved = true; moved;) {
            moved = false;
            for (const Box& other : placed) {
                if (!boxesOverlap(box, other, 0)) continue;
                box.y = upwards ? other.y - height - 1 : other.bottom() + 1;
                moved = true;
            }
        }
        // The label hides no data where it can: further along its line, or on the line's other
        // side (vertical markers), the first place clear of the data and the other labels; else
        // (vertical markers) above the plot.
        if (inPlot(box) && hidesData(box)) {
            std::vector<Box> tries;
            const float step = height / 2;
            const std::vector<float> lefts =
                upwards ? std::vector<float>{box.x}
                        : std::vector<float>{box.x, box.x == leftX ? rightX : leftX};
            // At most 1024 places a side: a label height of ~0 (step 0) or a plot at ~1e38
            // (at + step == at) would otherwise add places forever (found by fuzz.figure).
            for (float left : lefts) {
                int count = 0;
                for (float at = box.y; at >= p.y && at + height <= p.bottom() && count < 1024;
                     at += upwards ? -step : step, ++count)
                    tries.push_back({left, at, width, height});
            }
            bool found = false;
            // A horizontal line's label stays beside its line: none with data between the two
            // ("double epsilon" went above Linear shift's residual curve, which then read as
            // the thing it named, with free room under the line).
            const float lineY = y + 3;  // the label's bottom sits 3 px above the line
            auto besideLine = [&](const Box& t) {
                if (!upwards || t.bottom() >= lineY) return true;
                return marksCovered(figure, {t.x, t.bottom(), t.width, lineY - t.bottom()}) == 0;
            };
            for (const Box& t : tries) {
                if (inPlot(t) && !hidesData(t) && clearOfLabels(t) && besideLine(t)) {
                    box = t;
                    found = true;
                    break;
                }
            }
            // A horizontal line's label: just below the line at the right, then just above or
            // below it at the left end, where that hides no data ("context length 4096" sat on
            // RoPE's wavelength curve with free room under the line).
            if (!found && upwards) {
                for (const Box& t : {Box{box.x, lineY + 3, width, height},
                                     Box{p.x + 4, lineY - 3 - height, width, height},
                                     Box{p.x + 4, lineY + 3, width, height}}) {
                    if (inPlot(t) && !hidesData(t) && clearOfLabels(t)) {
                        box = t;
                        found = true;
                        break;
                    }
                }
                // Else anywhere along the line, right to left, just below or just above it (a
                // legend in the lower right corner took the room under Linear shift's epsilon
                // line, whose label went above the curve, #28). At most 1024 places.
                const float stride = std::max(width / 4, 1.f);
                int count = 0;
                for (float left = p.right() - 4 - width; !found && left >= p.x + 4 && count < 1024;
                     left -= stride, ++count) {
                    for (const Box& t : {Box{left, lineY + 3, width, height},
                                         Box{left, lineY - 3 - height, width, height}}) {
                        if (inPlot(t) && !hidesData(t) && clearOfLabels(t) && besideLine(t)) {
                            box = t;
                            found = true;
                            break;
                        }
                    }
                }
            }
            // Nowhere beside the line: the first place clear of the data, however far.
            for (std::size_t k = 0; !found && k < tries.size(); ++k) {
                if (inPlot(tries[k]) && !hidesData(tries[k]) && clearOfLabels(tries[k])) {
                    box = tries[k];
                    found = true;
                }
            }
            if (!found && !upwards) {
                if (auto t = above(x - 4, width, height)) return draw(*t, fitted, color, true);
            }
        }
        // Across another marker's line: whole above the plot, else (a plot with a legend for
        // it) in the legend.
        if (unplaced && !upwards && inPlot(box) && crossesOtherLine(box)) {
            const FittedText whole = fitText(text, labelSize, enclosing.width, minScale);
            if (whole.text == text) {
                const float w = estimateTextWidth(whole.text, whole.size) + 4;
                if (auto t = above(x - 4, w, whole.size + 2)) return draw(*t, whole, color, true);
            }
            return leaveOut();
        }
        if (!inPlot(box) || (unplaced && (fitted.text != text || hidesData(box))))
            return leaveOut();
        draw(box, fitted, color, false);
    };
    for (const Marker& marker : markers) {
        current = std::size_t(&marker - markers.data());
        if (marker.vertical) {
            const float px = frame.toPixel(marker.value, frame.y.low).x;
            if (px > p.right() + 1) continue;
            if (part == MarkerPart::Labels) {
                if (!marker.label.empty())
                    addLabel(marker.label, px + 4, p.y + 3, false, false, marker.color);
                continue;
            }
            if (marker.shadeBeyond && px < p.right()) {
                RectItem shade;
                shade.box = {std::max(px, p.x), p.y, p.right() - std::max(px, p.x), p.height};
                shade.fill = theme.id == ThemeId::Dark ? Rgba{0, 0, 0, 110} : Rgba{0, 0, 0, 28};
                figure.add(shade);
            }
            figure.add(LineItem{{px, p.y},
                                {px, p.bottom()},
                                marker.color,
                                strokeWidth(theme, 1.5f),
                                marker.dashed});
            figure.addReferenceMark({px, p.y}, {px, p.bottom()}, strokeWidth(theme, 1.5f));
        } else {
            const float py = frame.toPixel(frame.x.low, marker.value).y;
            const bool below = frame.yDown;
            if (part == MarkerPart::Labels) {
                if (!marker.label.empty())
                    addLabel(marker.label, p.right() - 4, py - 3, true, true, marker.color);
                continue;
            }
            if (marker.shadeBeyond) {
                RectItem shade;
                const float top = below ? std::max(py, p.y) : p.y;
                const float bottom = below ? p.bottom() : std::min(py, p.bottom());
                if (bottom > top) {
                    shade.box = {p.x, top, p.width, bottom - top};
                    shade.fill = theme.id == ThemeId::Dark ? Rgba{0, 0, 0, 110} : Rgba{0, 0, 0, 28};
                    figure.add(shade);
                }
            }
            figure.add(LineItem{
                {p.x, py}, {p.right(), py}, marker.color, strokeWidth(theme, 1.5f), marker.dashed});
            figure.addReferenceMark({p.x, py}, {p.right(), py}, strokeWidth(theme, 1.5f));
        }
    }
    figure.add(ClipPop{});
}

void makeSquare(Box& area, Box& plot) {
    const float side = std::min(plot.width, plot.height);
    const float spareX = plot.width - side, spareY = plot.height - side;
    if (spareX <= 0 && spareY <= 0) return;
    area = {area.x + spareX / 2, area.y, area.width - spareX, area.height - spareY};
    plot = {plot.x + spareX / 2, plot.y, side, side};
}

}  // namespace plot_parts

}  // namespace poslab
