#include "poslab/figure/plot.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <unordered_set>

#include "poslab/figure/colorbar.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "poslab/figure/text_markup.hpp"

namespace poslab {

// ---------------------------------------------------------------------------------------------
// Themes
// ---------------------------------------------------------------------------------------------

Theme darkTheme() {
    Theme t;
    t.id = ThemeId::Dark;
    t.background = {30, 32, 36, 255};
    t.plotBackground = {22, 23, 26, 255};
    t.text = {230, 232, 236, 255};
    t.mutedText = {160, 165, 175, 255};
    t.axis = {150, 155, 165, 255};
    t.grid = {70, 74, 82, 255};
    t.masked = {58, 58, 62, 255};
    t.accent = {255, 140, 60, 255};
    return t;
}

Theme paperTheme() {
    Theme t;
    t.id = ThemeId::Paper;
    t.background = {255, 255, 255, 255};
    t.plotBackground = {255, 255, 255, 255};
    t.text = {0, 0, 0, 255};  // print: black text and axes, no grey that fades on paper
    t.mutedText = {60, 60, 60, 255};
    t.axis = {0, 0, 0, 255};
    t.grid = {222, 222, 222, 255};
    t.masked = {200, 200, 200, 255};
    t.accent = {213, 94, 0, 255};
    return t;
}

Theme themeFor(ThemeId id) {
    return id == ThemeId::Paper ? paperTheme() : darkTheme();
}

std::string_view themeName(ThemeId id) {
    return enumName(kThemeNames, id);
}

Result<ThemeId> parseTheme(std::string_view name) {
    return parseEnum(kThemeNames, name, "theme");
}

Theme scaledTheme(Theme theme, float factor) {
    theme.fontSize *= factor;
    theme.titleSize *= factor;
    theme.fontScale *= factor;
    theme.lineScale *= factor;
    return theme;
}

float strokeWidth(const Theme& theme, float width) {
    return width * theme.lineScale;
}

Result<LegendPlacement> parseLegendPlacement(std::string_view name) {
    return parseEnum(kLegendPlacementNames, name, "legend");
}

Result<AspectMode> parseAspect(std::string_view name) {
    return parseEnum(kAspectNames, name, "aspect");
}

Rgba seriesColor(int index) {
    // Okabe-Ito: distinguishable with the common colour-vision deficiencies.
    static constexpr Rgba palette[] = {
        {86, 180, 233, 255}, {230, 159, 0, 255}, {0, 158, 115, 255}, {204, 121, 167, 255},
        {240, 228, 66, 255}, {0, 114, 178, 255}, {213, 94, 0, 255},  {180, 180, 180, 255}};
    return palette[std::size_t(index) % std::size(palette)];
}

Rgba seriesColor(int index, const Theme& theme) {
    // Okabe-Ito's yellow vanishes on white paper: black takes its place there.
    const Rgba color = seriesColor(index);
    return theme.id == ThemeId::Paper && color == seriesColor(4) ? Rgba{0, 0, 0, 255} : color;
}

Rgba withAlpha(Rgba color, std::uint8_t alpha) {
    color.a = alpha;
    return color;
}

// ---------------------------------------------------------------------------------------------
// Ticks and text
// ---------------------------------------------------------------------------------------------

float estimateTextWidth(std::string_view text, float size) {
    return markupWidth(text, 0.56f * size);  // UTF-8 characters, scripts at their own size
}

std::size_t titleBreak(std::string_view title) {
    auto hasWord = [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end && k < title.size(); ++k)
            if (std::isalnum(static_cast<unsigned char>(title[k]))) return true;
        return false;
    };
    std::size_t split = std::string_view::npos;
    double best = 1e300;
    for (std::size_t at = title.find(' '); at != std::string_view::npos;
         at = title.find(' ', at + 1)) {
        // Never inside $...$ markup: each line must stay whole maths.
        std::size_t dollars = 0;
        for (std::size_t k = 0; k < at; ++k)
            dollars += title[k] == '$' && (k == 0 || title[k - 1] != '\\');
        if (dollars % 2 == 1) continue;
        const std::size_t before = at == 0 ? std::string_view::npos : title.rfind(' ', at - 1);
        const std::size_t after = title.find(' ', at + 1);
        if (!hasWord(before == std::string_view::npos ? 0 : before + 1, at) ||
            !hasWord(at + 1, after == std::string_view::npos ? title.size() : after)) {
            continue;
        }
        const double distance = std::abs(double(at) - double(title.size()) / 2);
        if (distance < best) best = distance, split = at;
    }
    return split;
}

FittedText fitText(std::string_view text, float size, float maxWidth, float minScale) {
    FittedText fitted{std::string(text), size};
    const float width = estimateTextWidth(text, size);
    if (width <= maxWidth || width <= 0) return fitted;
    fitted.size = std::max(size * minScale, size * maxWidth / width);
    // The proportional size fits by construction; float rounding may put its width a hair over.
    if (estimateTextWidth(text, fitted.size) <= maxWidth * 1.0001f) return fitted;
    // Still too wide at the smallest size: drop whole UTF-8 characters from the end.
    std::string cut(text);
    while (!cut.empty() && estimateTextWidth(cut + "…", fitted.size) > maxWidth) {
        std::size_t end = cut.size() - 1;
        while (end > 0 && (static_cast<unsigned char>(cut[end]) & 0xC0) == 0x80) --end;
        cut.erase(end);
        while (!cut.empty() && cut.back() == ' ') cut.pop_back();
    }
    fitted.text = cut + "…";
    return fitted;
}

float readableMinScale(float size, const Theme& theme) {
    if (size <= 0 || theme.fontScale <= 1) return 0.75f;
    return std::clamp(kReadableTextPx / size, 0.55f, 1.f);
}

std::vector<std::string> wrapText(std::string_view text, float size, float maxWidth) {
    // Break points: spaces outside $...$ (a line must stay whole maths).
    std::vector<std::string> words;
    std::string word;
    bool maths = false;
    for (std::size_t k = 0; k < text.size(); ++k) {
        const char c = text[k];
        if (c == '$' && (k == 0 || text[k - 1] != '\\')) maths = !maths;
        if (c == ' ' && !maths) {
            if (!word.empty()) words.push_back(std::move(word));
            word.clear();
            continue;
        }
        word += c;
    }
    if (!word.empty()) words.push_back(std::move(word));
    // "m = 0.5" and "(1 − c²)" stay whole: a lone operator keeps the words either side of it
    // on its line.
    auto isOperator = [](const std::string& word) {
        for (const char* op : {"=", "−", "-", "+", "×", "·", "→", "≈", "<", ">", "≤", "≥"})
            if (word == op) return true;
        return false;
    };
    // Groups of words kept together, each one piece when it fits the width, else word by word.
    std::vector<std::vector<std::string>> groups;
    for (std::size_t k = 0; k < words.size(); ++k) {
        const bool join =
            !groups.empty() && (isOperator(words[k]) || isOperator(groups.back().back()) ||
                                groups.back().back().back() == '=');
        if (join)
            groups.back().push_back(std::move(words[k]));
        else
            groups.push_back({std::move(words[k])});
    }
    words.clear();
    for (std::vector<std::string>& group : groups) {
        std::string whole;
        for (const std::string& word : group) whole += (whole.empty() ? "" : " ") + word;
        if (group.size() == 1 || estimateTextWidth(whole, size) <= maxWidth)
            words.push_back(std::move(whole));
        else  // too wide whole: a lone operator still starts the line of the word after it
            for (std::size_t w = 0; w < group.size(); ++w) {
                if (isOperator(group[w]) && w + 1 < group.size() &&
                    estimateTextWidth(group[w] + " " + group[w + 1], size) <= maxWidth)
                    group[w + 1] = group[w] + " " + group[w + 1];
                else if (isOperator(group[w]) && w > 0 &&
                         estimateTextWidth(words.back() + " " + group[w], size) <= maxWidth)
                    words.back() += " " + group[w];  // else it ends the line before
                else
                    words.push_back(std::move(group[w]));
            }
    }
    std::vector<std::string> lines;
    for (std::string& next : words) {
        if (!lines.empty() && estimateTextWidth(lines.back() + " " + next, size) <= maxWidth)
            lines.back() += " " + next;
        else
            lines.push_back(std::move(next));
    }
    return lines;
}

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

// ---------------------------------------------------------------------------------------------
// Shared drawing helpers
// ---------------------------------------------------------------------------------------------

namespace {

std::vector<Tick> axisTicks(const AxisSpec& axis, float pixels, float labelSpacing) {
    const int count = tickCountFor(pixels, labelSpacing);
    if (axis.logarithmic) return logTicks(axis.low, axis.high, count);
    if (axis.cells) {
        auto ticks = linearTicks(axis.low, std::max(axis.low, axis.high - 1), count, true);
        return ticks;
    }
    return linearTicks(axis.low, axis.high, count, axis.integers);
}

double tickPosition(const AxisSpec& axis, double value) {
    return axis.cells ? value + 0.5 : value;
}

float widestLabel(const std::vector<Tick>& ticks, float size) {
    float widest = 0;
    for (const Tick& t : ticks) widest = std::max(widest, estimateTextWidth(t.label, size));
    return widest;
}

// Adds a tick label unless its box would overlap the last label kept on the same axis (2 px
// apart at least), one in `avoid` (the other axis's, at the corner), or leave `bounds`:
// crowded axes lose labels, never draw them over each other.
void addTickLabel(Figure& figure, TextItem label, std::optional<Box>& last, Box bounds,
                  const std::vector<Box>& avoid = {}) {
    const Box box = textBox(label);
    if (last && boxesOverlap(box, {last->x - 2, last->y - 2, last->width + 4, last->height + 4}, 0))
        return;
    for (const Box& other : avoid)
        if (boxesOverlap(box, other, 0)) return;
    if (box.x < bounds.x - 0.5f || box.right() > bounds.right() + 0.5f || box.y < bounds.y - 0.5f ||
        box.bottom() > bounds.bottom() + 0.5f)
        return;
    last = box;
    figure.add(std::move(label));
}

void drawAxes(Figure& figure, Box area, const PlotFrame& frame, const Theme& theme, bool grid) {
    const Box& p = frame.plot;
    const float tickLength = strokeWidth(theme, 4);
    const float hairline = strokeWidth(theme, 1);
    const auto xTicks = axisTicks(frame.x, p.width, std::max(70.f, theme.fontSize * 5.5f));
    const auto yTicks = axisTicks(frame.y, p.height, theme.fontSize * 2.6f);
    std::optional<Box> lastX, lastY;
    std::vector<Box> xLabels;  // the y labels keep clear of them where the axes meet
    for (const Tick& t : xTicks) {
        const double v = tickPosition(frame.x, t.value);
        if (v < std::min(frame.x.low, frame.x.high) || v > std::max(frame.x.low, frame.x.high))
            continue;
        const float px = frame.toPixel(v, frame.y.low).x;
        if (grid) figure.add(LineItem{{px, p.y}, {px, p.bottom()}, theme.grid, hairline, false});
        figure.add(
            LineItem{{px, p.bottom()}, {px, p.bottom() + tickLength}, theme.axis, hairline, false});
        addTickLabel(figure,
                     makeText({px, p.bottom() + tickLength + 2}, t.label, theme.fontSize,
                              theme.text, HorizontalAlign::Center, VerticalAlign::Top),
                     lastX, area);
        if (lastX && (xLabels.empty() || xLabels.back().x != lastX->x)) xLabels.push_back(*lastX);
    }
    for (const Tick& t : yTicks) {
        const double v = tickPosition(frame.y, t.value);
        if (v < std::min(frame.y.low, frame.y.high) || v > std::max(frame.y.low, frame.y.high))
            continue;
        const float py = frame.toPixel(frame.x.low, v).y;
        if (grid) figure.add(LineItem{{p.x, py}, {p.right(), py}, theme.grid, hairline, false});
        figure.add(LineItem{{p.x - tickLength, py}, {p.x, py}, theme.axis, hairline, false});
        addTickLabel(figure,
                     makeText({p.x - tickLength - 3, py}, t.label, theme.fontSize, theme.text,
                              HorizontalAlign::Right, VerticalAlign::Middle),
                     lastY, area, xLabels);
    }
    RectItem outline;
    outline.box = p;
    outline.stroke = theme.axis;
    outline.strokeWidth = hairline;
    figure.add(outline);
}

// The margins around a plot: title on top, tick labels and axis labels left and below.
struct Margins {
    float left, top, right, bottom;
};

Margins plotMargins(const AxisSpec& x, const AxisSpec& y, bool hasTitle, const Theme& theme,
                    float approximateHeight) {
    Margins m;
    m.top = hasTitle ? theme.titleSize * 1.7f : theme.fontSize * 0.8f;
    m.bottom = theme.fontSize * 1.6f + (x.label.empty() ? 0 : theme.fontSize * 1.6f);
    // The ticks drawn are those of the plot's own height, which may step by 2.5 where the
    // area's height steps by 2 ("-7.5" is wider than "-8"): room for the wider of the two.
    const float plotHeight = std::max(1.f, approximateHeight - m.top - m.bottom);
    const float widest = std::max(
        widestLabel(axisTicks(y, approximateHeight, theme.fontSize * 2.6f), theme.fontSize),
        widestLabel(axisTicks(y, plotHeight, theme.fontSize * 2.6f), theme.fontSize));
    m.left = widest + 3 + strokeWidth(theme, 4) + 3 + (y.label.empty() ? 0 : theme.fontSize * 1.6f);
    m.right = theme.fontSize * 1.2f;
    return m;
}

void drawAxisLabels(Figure& figure, Box area, const PlotFrame& frame, const Theme& theme) {
    const Box& p = frame.plot;
    const Rgba axisLabelColor = theme.id == ThemeId::Paper ? theme.text : theme.mutedText;
    // Fitted to the plot's side: a label longer than its axis would reach the neighbours'.
    if (!frame.x.label.empty()) {
        const FittedText label = fitText(frame.x.label, theme.fontSize, p.width,
                                         readableMinScale(theme.fontSize, theme));
        figure.add(makeText({p.x + p.width / 2, area.bottom() - 2}, label.text, label.size,
                            axisLabelColor, HorizontalAlign::Center, VerticalAlign::Bottom));
    }
    if (!frame.y.label.empty()) {
        const float minScale = readableMinScale(theme.fontSize, theme);
        FittedText label = fitText(frame.y.label, theme.fontSize, p.height, minScale);
        float middle = p.y + p.height / 2;
        // A short plot (a projector's font, a small window): rather than cut the label, let it
        // run on down its own strip past the plot's bottom, where only the x axis's text is.
        if (label.text != frame.y.label && area.bottom() - 2 - p.y > p.height) {
            const float length = area.bottom() - 2 - p.y;
            label = fitText(frame.y.label, theme.fontSize, length, minScale);
            middle = p.y + length / 2;
        }
        // Still cut: the label without its trailing "(unit)" when that fits whole.
        const std::size_t unit = frame.y.label.rfind(" (");
        if (label.text != frame.y.label && unit != std::string::npos &&
            frame.y.label.back() == ')') {
            const FittedText head = fitText(frame.y.label.substr(0, unit), theme.fontSize,
                                            std::max(p.height, area.bottom() - 2 - p.y), minScale);
            if (head.text.size() == unit) {
                label = head;
                const float along = estimateTextWidth(head.text, head.size);
                middle = along <= p.height ? p.y + p.height / 2 : p.y + along / 2;
            }
        }
        figure.add(makeText({area.x + 2, middle}, label.text, label.size, axisLabelColor,
                            HorizontalAlign::Center, VerticalAlign::Top, true));
    }
}

// The markers' lines and shading, or their labels (drawn last, over the data, clear of the
// boxes in `avoid`: a legend).
enum class MarkerPart { Lines, Labels };
void drawMarkers(Figure& figure, const PlotFrame& frame, const std::vector<Marker>& markers,
                 const Theme& theme, MarkerPart part, std::vector<Box> avoid = {}) {
    const Box& p = frame.plot;
    figure.add(ClipPush{p});
    // Labels sit on a backing box (they cross data and the shading) and step down, or up, past
    // the labels already placed; one that cannot be placed whole inside the plot is left out.
    std::vector<Box> placed = std::move(avoid);
    const float labelSize = theme.fontSize * 0.9f;
    // Where a label may go outside the plot: inside the enclosing clip (the panel), else the
    // figure, over no text and no data.
    const Box enclosing = figure.clips.size() >= 2 ? figure.clips[figure.clips.size() - 2]
                                                   : Box{0, 0, figure.width, figure.height};
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
            bool clear = t.x >= enclosing.x && t.right() <= enclosing.right() &&
                         t.y >= enclosing.y && clearOfLabels(t) && marksCovered(figure, t) == 0;
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
        if (fitted.text.find_first_not_of(' ') == std::string::npos) return;
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
        if (inPlot(box) && marksCovered(figure, box) > 0) {
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
            for (const Box& t : tries) {
                if (inPlot(t) && marksCovered(figure, t) == 0 && clearOfLabels(t)) {
                    box = t;
                    found = true;
                    break;
                }
            }
            if (!found && !upwards) {
                if (auto t = above(x - 4, width, height)) return draw(*t, fitted, color, true);
            }
        }
        if (!inPlot(box)) return;
        draw(box, fitted, color, false);
    };
    for (const Marker& marker : markers) {
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
        }
    }
    figure.add(ClipPop{});
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Heatmaps
// ---------------------------------------------------------------------------------------------

namespace {

// The title text itself, centred at the top of area (figure titles and plot titles alike).
void drawTitleText(Figure& figure, Box area, const std::string& title, const Theme& theme) {
    // Large (presentation) titles may shrink further than 3/4, as far as normal body text.
    const float minScale = std::min(0.75f, std::max(0.6f, Theme{}.fontSize / theme.titleSize));
    const FittedText fitted =
        fitText(title, theme.titleSize, area.width - theme.titleSize, minScale);
    // 0.2 of a line from the top: the plot's top tick label, half a line above the plot (at
    // 1.7 lines), stays clear of it.
    figure.add(makeText({area.x + area.width / 2, area.y + theme.titleSize * 0.2f}, fitted.text,
                        fitted.size, theme.text, HorizontalAlign::Center, VerticalAlign::Top));
}

// A plot's title in `width`: one line when it fits at 90 % size or more; else two, split at the
// space nearest the middle, each shrunk (or cut with "…" only when even that fails), when the
// plot keeps at least `minPlot` pixels of height below the extra line. `extra`: the added line.
struct TitleLines {
    std::vector<FittedText> lines;
    float extra = 0;
};
TitleLines plotTitleLines(const std::string& title, float width, float plotHeight,
                          const Theme& theme) {
    TitleLines out;
    if (title.empty()) return out;
    const float room = width - theme.titleSize;
    const std::size_t split = estimateTextWidth(title, theme.titleSize * 0.9f) > room
                                  ? titleBreak(title)
                                  : std::string::npos;
    const float line = theme.titleSize * 1.15f;
    if (split == std::string::npos || plotHeight - line < theme.fontSize * 4) {
        const float minScale = std::min(0.75f, std::max(0.6f, Theme{}.fontSize / theme.titleSize));
        out.lines.push_back(fitText(title, theme.titleSize, room, minScale));
        return out;
    }
    FittedText first = fitText(title.substr(0, split), theme.titleSize, room);
    FittedText second = fitText(title.substr(split + 1), theme.titleSize, room);
    const float size = std::min(first.size, second.size);
    first = fitText(first.text, size, room);
    second = fitText(second.text, size, room);
    out.lines = {first, second};
    out.extra = size * 1.15f;
    return out;
}

// The lines of plotTitleLines centred at the top of area, as drawTitleText places one.
void drawTitleLines(Figure& figure, Box area, const TitleLines& title, const Theme& theme) {
    float y = area.y + theme.titleSize * 0.2f;
    for (const FittedText& line : title.lines) {
        figure.add(makeText({area.x + area.width / 2, y}, line.text, line.size, theme.text,
                            HorizontalAlign::Center, VerticalAlign::Top));
        y += title.extra;
    }
}

// Records one plot's items as a PanelSpan. When the theme focuses this plot (--panel N), the plot
// is drawn over the whole figure instead of its area; figure_controls keeps only its items.
class PanelScope {
  public:
    PanelScope(Figure& figure, Box& area, const Theme& theme) : figure_(figure) {
        index_ = figure.panels.size();
        // A view that numbers its own panels (Figure::viewPanels) has drawn the focused one.
        focused_ = figure.viewPanels == 0 && theme.focusPanel == int(index_) + 1;
        if (focused_) area = {0, 0, figure.width, figure.height};
        figure.panels.push_back({area, figure.items.size(), figure.items.size()});
    }
    ~PanelScope() { figure_.panels[index_].end = figure_.items.size(); }
    PanelScope(const PanelScope&) = delete;
    PanelScope& operator=(const PanelScope&) = delete;
    bool focused() const { return focused_; }

  private:
    Figure& figure_;
    std::size_t index_ = 0;
    bool focused_ = false;
};

// AspectMode::Square: the plot box shrinks to a square, centred across; the area shrinks with it
// so that axis labels stay beside the plot.
void makeSquare(Box& area, Box& plot) {
    const float side = std::min(plot.width, plot.height);
    const float spareX = plot.width - side, spareY = plot.height - side;
    if (spareX <= 0 && spareY <= 0) return;
    area = {area.x + spareX / 2, area.y, area.width - spareX, area.height - spareY};
    plot = {plot.x + spareX / 2, plot.y, side, side};
}

// A colour bar's caption runs along the bar, so it may be no longer than the bar: one line when
// it fits at 3/4 size or more, else two, split at the "; ", ", " or space nearest the middle;
// each line then shrinks or ends in "…" as a title does; none when a line would be "…" alone.
std::vector<FittedText> colorbarCaption(const std::string& caption, float length, float size,
                                        const Theme& theme) {
    if (caption.empty()) return {};
    const float minScale = readableMinScale(size, theme);
    if (estimateTextWidth(caption, size * minScale) <= length)
        return {fitText(caption, size, length, minScale)};
    std::size_t split = std::string::npos;
    for (const char* separator : {"; ", ", ", " "}) {
        const std::size_t width = std::string(separator).size();
        double best = 1e300;
        for (std::size_t at = caption.find(separator); at != std::string::npos;
             at = caption.find(separator, at + 1)) {
            const double distance = std::abs(double(at) - double(caption.size()) / 2);
            if (distance < best) best = distance, split = at + width;
        }
        if (split != std::string::npos && best < double(caption.size()) / 4) break;
        split = std::string::npos;
    }
    // A line cut down to a lone "…" says nothing and still takes room: no caption then.
    auto said = [](const std::vector<FittedText>& lines) {
        for (const FittedText& line : lines)
            if (line.text == "…") return std::vector<FittedText>{};
        return lines;
    };
    if (split == std::string::npos) return said({fitText(caption, size, length, minScale)});
    std::string head = caption.substr(0, split), tail = caption.substr(split);
    while (!head.empty() && head.back() == ' ') head.pop_back();
    return said({fitText(head, size, length, minScale), fitText(tail, size, length, minScale)});
}

}  // namespace

void drawHeatmap(Figure& figure, Box area, const HeatmapSpec& given, const Theme& theme,
                 PlotFrame* frameOut) {
    const PanelScope panel(figure, area, theme);
    HeatmapSpec focusedSpec;
    if (panel.focused() && !given.showColorbar) {  // a shared colour bar is not in the panel
        focusedSpec = given;
        focusedSpec.showColorbar = true;
    }
    const HeatmapSpec& spec = panel.focused() && !given.showColorbar ? focusedSpec : given;
    const std::string title = panelTitle(spec.title, theme);
    const float areaRight = area.right();  // before square cells narrow `area`
    const ValueRange range = spec.range;
    const auto barTicks = spec.angleTicks
                              ? piTicks(range.low, range.high, tickCountFor(area.height, 40))
                              : colorbarTicks(range, area.height);
    const float barWidth = spec.showColorbar ? barWidthFor(theme) : 0;
    Margins m = plotMargins(spec.x, spec.y, !title.empty(), theme, area.height);
    // A labelled vertical line ("query 31") has its label above the plot, where it hides no
    // cell: a row of room under the title (heatmaps are data everywhere inside).
    for (const Marker& marker : spec.markers) {
        if (marker.vertical && !marker.label.empty()) {
            m.top += theme.fontSize * 0.9f + 4;
            break;
        }
    }
    const float barLength = std::max(1.f, area.height - m.top - m.bottom);  // the plot's height
    std::vector<FittedText> caption =
        spec.showColorbar ? colorbarCaption(spec.colorbarLabel, barLength, theme.fontSize, theme)
                          : std::vector<FittedText>{};
    const float lineStep = theme.fontSize * 1.2f;  // between caption lines
    const float barBlock =
        spec.showColorbar
            ? barWidth + 8 + strokeWidth(theme, 4) + widestLabel(barTicks, theme.fontSize) +
                  (caption.empty() ? 0
                                   : theme.fontSize * 1.8f + lineStep * float(caption.size() - 1))
            : 0;
    m.right += barBlock;
    const TitleLines titleLines =
        plotTitleLines(title, area.width - barBlock, area.height - m.top - m.bottom, theme);
    m.top += titleLines.extra;

    PlotFrame frame;
    frame.x = spec.x;
    frame.y = spec.y;
    frame.yDown = true;
    frame.plot = {area.x + m.left, area.y + m.top, std::max(1.f, area.width - m.left - m.right),
                  std::max(1.f, area.height - m.top - m.bottom)};
    const Box titleArea{area.x, area.y, area.width - barBlock, area.height};
    if (spec.squareCells) {
        // As many pixels per cell across as down: the area shrinks to the square plot, centred
        // across, so the axis labels and colour bar stay beside it.
        const double cols = std::abs(spec.x.high - spec.x.low);
        const double rows = std::abs(spec.y.high - spec.y.low);
        if (cols > 0 && rows > 0 && std::isfinite(cols) && std::isfinite(rows)) {
            const double perCell = std::min(frame.plot.width / cols, frame.plot.height / rows);
            const float width = float(perCell * cols), height = float(perCell * rows);
            const float spareX = frame.plot.width - width, spareY = frame.plot.height - height;
            if (spareX > 0.5f || spareY > 0.5f) {
                area = {area.x + spareX / 2, area.y, area.width - spareX, area.height - spareY};
                frame.plot = {frame.plot.x + spareX / 2, frame.plot.y, width, height};
            }
        }
    }
    if (theme.aspect == AspectMode::Square) makeSquare(area, frame.plot);
    // Square cells may leave the bar shorter than the caption was fitted to: each line is
    // fitted again to the bar as drawn, keeping the line count the margin was made for.
    if (frame.plot.height < barLength - 0.5f) {
        for (FittedText& line : caption) line = fitText(line.text, line.size, frame.plot.height);
        // A line cut down to a lone "…" says nothing: no caption then.
        for (const FittedText& line : caption) {
            if (line.text == "…") {
                caption.clear();
                break;
            }
        }
    }
    // Centred over the plot and its axis, clear of the colour bar's top tick label.
    if (!title.empty()) drawTitleLines(figure, titleArea, titleLines, theme);

    // Masked (-inf) cells take the theme's masked colour in the heatmap itself: opaque cells
    // need no blending, which software GL pays for per pixel. With no cells, the plot shows it.
    if (!spec.values || spec.values->empty()) {
        RectItem under;
        under.box = frame.plot;
        under.fill = theme.masked;
        figure.add(under);
    }
    if (spec.values && !spec.values->empty()) {
        HeatmapItem heatmap;
        heatmap.box = frame.plot;
        // A zoomed-out sample may cover a little more than the axis range: scale and clip it.
        if (spec.valuesColSpan > 0) {
            heatmap.box.width *= float(spanRatio(spec.valuesColSpan, spec.x.low, spec.x.high));
        }
        if (spec.valuesRowSpan > 0) {
            heatmap.box.height *= float(spanRatio(spec.valuesRowSpan, spec.y.low, spec.y.high));
        }
        figure.add(ClipPush{frame.plot});
        heatmap.values = spec.values;
        heatmap.colormap = spec.colormap;
        heatmap.range = range;
        heatmap.masked = theme.masked;
        heatmap.version = spec.version;
        figure.add(heatmap);
        figure.add(ClipPop{});
    }
    drawMarkers(figure, frame, spec.markers, theme, MarkerPart::Lines);
    drawMarkers(figure, frame, spec.markers, theme, MarkerPart::Labels);
    drawAxes(figure, area, frame, theme, false);
    drawAxisLabels(figure, area, frame, theme);

    if (spec.showColorbar) {
        const Box bar{frame.plot.right() + theme.fontSize * 0.9f, frame.plot.y, barWidth,
                      frame.plot.height};
        drawColorbarRamp(figure, bar, spec.colormap, theme);
        std::optional<Box> lastTick;
        for (const Tick& t : barTicks) {
            if (range.high == range.low) break;
            const float fy = float(rangeFraction(t.value, range.low, range.high));
            if (fy < -1e-4f || fy > 1.0001f) continue;
            const float py = bar.bottom() - fy * bar.height;
            const float tick = strokeWidth(theme, 4);
            figure.add(
                LineItem{{bar.right(), py}, {bar.right() + tick, py}, theme.axis, tick / 4, false});
            addTickLabel(figure,
                         makeText({bar.right() + tick + 4, py}, t.label, theme.fontSize, theme.text,
                                  HorizontalAlign::Left, VerticalAlign::Middle),
                         lastTick, area);
        }
        for (std::size_t line = 0; line < caption.size(); ++line) {
            const float x =
                area.right() - theme.fontSize * 1.5f - lineStep * float(caption.size() - 1 - line);
            figure.add(makeText({x, bar.y + bar.height / 2}, caption[line].text, caption[line].size,
                                theme.mutedText, HorizontalAlign::Center, VerticalAlign::Top,
                                true));
        }
        if (spec.showMaskedLegend) {
            // Below the lowest tick label, which is centred on the bar's bottom edge and hangs
            // half a line under it: with large text (presentation mode) and a narrow bar, 6 px
            // would put the label on top of it.
            const float top = bar.bottom() + std::max({6.0f, theme.fontSize * 0.5f + 2,
                                                       theme.fontSize * 0.95f - barWidth / 2 + 2});
            RectItem swatch;
            swatch.box = {bar.x, top, barWidth, barWidth};
            swatch.fill = theme.masked;
            swatch.stroke = theme.axis;
            figure.add(swatch);
            // Shrunk or cut to stay inside the area it was given (the next panel starts there).
            const FittedText label =
                fitText(spec.maskedLabel, theme.fontSize * 0.9f, areaRight - bar.right() - 6);
            figure.add(makeText({bar.right() + 6, top + barWidth / 2}, label.text, label.size,
                                theme.mutedText, HorizontalAlign::Left, VerticalAlign::Middle));
        }
    }
    if (frameOut) *frameOut = frame;
}

// ---------------------------------------------------------------------------------------------
// Line plots
// ---------------------------------------------------------------------------------------------

namespace {

// The legend's box and rows: in frame.legendColumn when there is one, else where inside(w, h)
// puts a w x h box. Names shrink, then end in "…", to keep the box inside the plot (6 px from its
// left) or inside its column; a plot too short for every row keeps the first ones that fit.
// Where a w x h legend hides no data inside the plot: `first` if free, else the other corners
// (below topInset), else the free place nearest `first`; nullopt when the plot has none.
std::optional<Box> legendPlace(const Figure& figure, const PlotFrame& frame, float w, float h,
                               Box first, float topInset = 0) {
    const Box& p = frame.plot;
    const Box within{p.x + 4, p.y + 4 + topInset, p.width - 8, p.height - 8 - topInset};
    const std::vector<Box> corners = {first,
                                      {p.right() - w - 6, p.y + 6 + topInset, w, h},
                                      {p.x + 6, p.y + 6 + topInset, w, h},
                                      {p.right() - w - 6, p.bottom() - h - 6, w, h},
                                      {p.x + 6, p.bottom() - h - 6, w, h}};
    return placeFree(figure, within, w, h, corners);
}

// A legend's rows laid out for names at most `room` px wide: each name whole on one line, or
// wrapped onto more (a single word too wide shrinks, then ends in "…"), as many keys as fit
// `height`.
struct LegendRows {
    std::vector<std::vector<FittedText>> lines;  // per key shown
    float w = 0, h = 0;
};
LegendRows layoutLegendRows(const std::vector<LegendKey>& keys, const Theme& theme, float room,
                            float height) {
    const float swatch = strokeWidth(theme, 18);
    const float first = theme.fontSize * 1.35f, more = theme.fontSize * 1.15f;
    LegendRows rows;
    float widest = 0, used = 8;
    for (const LegendKey& key : keys) {
        std::vector<FittedText> lines;
        if (estimateTextWidth(key.text, theme.fontSize) <= room + 0.5f) {
            lines.push_back({key.text, theme.fontSize});
        } else {
            for (const std::string& line : wrapText(key.text, theme.fontSize, room))
                lines.push_back(
                    fitText(line, theme.fontSize, room, readableMinScale(theme.fontSize, theme)));
        }
        if (lines.empty()) lines.push_back({"", theme.fontSize});
        const float rowHeight = first + more * float(lines.size() - 1);
        if (used + rowHeight > height) break;
        used += rowHeight;
        for (const FittedText& line : lines)
            widest = std::max(widest, estimateTextWidth(line.text, line.size));
        rows.lines.push_back(std::move(lines));
    }
    rows.w = widest + swatch + 16;
    rows.h = used;
    return rows;
}

// The legend's box and rows: in frame.legendColumn when there is one, else inside the plot where
// freePlace(w, h) finds room hiding no data: names whole on one line first, then wrapped to half
// and a third of the plot's width; when none is free, where fallback(w, h) says, names whole.
template <typename FreePlace, typename Fallback>
std::optional<Box> drawLegendRows(Figure& figure, const PlotFrame& frame,
                                  const std::vector<LegendKey>& keys, const Theme& theme,
                                  FreePlace freePlace, Fallback fallback, float topInset = 0) {
    const bool outside = frame.legendColumn.width > 0;
    const float swatch = strokeWidth(theme, 18);  // the line sample before each name
    const float chrome = swatch + 16;
    std::optional<LegendRows> rows;
    Box box;
    if (outside) {
        rows = layoutLegendRows(keys, theme, std::max(1.f, frame.legendColumn.width - chrome),
                                frame.legendColumn.height);
        box = {frame.legendColumn.x, frame.legendColumn.y, rows->w, rows->h};
    } else {
        const float full = std::max(1.f, frame.plot.width - 12 - chrome);
        const float height = frame.plot.height - 12 - topInset;
        for (float fraction : {1.f, 0.5f, 0.34f}) {
            const float room = std::max(full * fraction, theme.fontSize * 6);
            if (fraction < 1 && room >= full) break;
            LegendRows tried = layoutLegendRows(keys, theme, room, height);
            if (tried.lines.size() < keys.size() && fraction < 1) continue;
            if (tried.lines.empty()) continue;
            if (auto free = freePlace(tried.w, tried.h)) {
                rows = std::move(tried);
                box = *free;
                break;
            }
        }
        if (!rows) {
            rows = layoutLegendRows(keys, theme, full, height);
            box = fallback(rows->w, rows->h);
        }
    }
    if (rows->lines.empty()) return std::nullopt;
    RectItem background;
    background.box = box;
    background.fill = withAlpha(theme.plotBackground, 225);
    background.stroke = theme.grid;
    figure.add(background);
    const float first = theme.fontSize * 1.35f, more = theme.fontSize * 1.15f;
    float top = box.y + 4;
    for (std::size_t shown = 0; shown < rows->lines.size(); ++shown) {
        const LegendKey& key = keys[shown];
        const float cy = top + first / 2;
        if (key.dot) {
            CircleItem dot;
            dot.center = {box.x + 6 + swatch / 2, cy};
            dot.radius = strokeWidth(theme, 4);
            dot.fill = key.color;
            figure.add(dot);
        } else {
            figure.add(LineItem{{box.x + 6, cy},
                                {box.x + 6 + swatch, cy},
                                key.color,
                                strokeWidth(theme, 2.5f),
                                false});
        }
        float y = cy;
        for (const FittedText& line : rows->lines[shown]) {
            figure.add(makeText({box.x + 11 + swatch, y}, line.text, line.size, theme.text,
                                HorizontalAlign::Left, VerticalAlign::Middle));
            y += more;
        }
        top += first + more * float(rows->lines[shown].size() - 1);
    }
    return box;
}

}  // namespace

std::optional<Box> drawLegendAfter(Figure& figure, const PlotFrame& frame,
                                   const std::vector<LegendKey>& keys, LegendCorner corner,
                                   float topInset, const Theme& theme) {
    if (keys.empty() || theme.legend == LegendPlacement::None) return std::nullopt;
    const Box& p = frame.plot;
    auto asked = [&](float w, float h) {
        return corner == LegendCorner::TopRight ? Box{p.right() - w - 6, p.y + 6 + topInset, w, h}
                                                : Box{p.right() - w - 6, p.bottom() - h - 6, w, h};
    };
    return drawLegendRows(
        figure, frame, keys, theme,
        [&](float w, float h) { return legendPlace(figure, frame, w, h, asked(w, h), topInset); },
        asked, topInset);
}

Box drawNoteLines(Figure& figure, const PlotFrame& frame, const std::vector<NoteLine>& lines,
                  const Theme& theme) {
    const Box& p = frame.plot;
    const float size = theme.fontSize, step = size * 1.35f;
    const float full = std::max(1.f, p.width - 16);
    struct Wrapped {
        std::vector<std::pair<FittedText, Rgba>> rows;
        float w = 0, h = 0;
    };
    auto wrap = [&](float room) {
        Wrapped out;
        for (const NoteLine& line : lines) {
            for (const std::string& part : wrapText(line.text, size, room)) {
                out.rows.push_back(
                    {fitText(part, size, full, readableMinScale(size, theme)), line.color});
                out.w = std::max(out.w, estimateTextWidth(out.rows.back().first.text,
                                                          out.rows.back().first.size));
            }
        }
        out.w += 4;
        out.h = step * float(out.rows.size());
        return out;
    };
    std::optional<Wrapped> chosen;
    Box box;
    for (float fraction : {1.f, 0.5f, 0.34f}) {
        const float room = std::max(full * fraction, size * 6);
        if (fraction < 1 && room >= full) break;
        Wrapped tried = wrap(room);
        const float w = tried.w, h = tried.h;
        const std::vector<Box> corners = {{p.x + 6, p.y + 6, w, h},
                                          {p.right() - w - 6, p.y + 6, w, h},
                                          {p.x + 6, p.bottom() - h - 6, w, h},
                                          {p.right() - w - 6, p.bottom() - h - 6, w, h}};
        if (auto free =
                placeFree(figure, {p.x + 4, p.y + 4, p.width - 8, p.height - 8}, w, h, corners)) {
            chosen = std::move(tried);
            box = *free;
            break;
        }
    }
    if (!chosen) {
        // Wrapped when the plot is tall enough, else a line each, shrunk or cut; never past
        // the plot's bottom.
        chosen = wrap(full);
        if (chosen->h > p.height - 12) {
            chosen->rows.clear();
            chosen->w = 0;
            for (const NoteLine& line : lines) {
                chosen->rows.push_back(
                    {fitText(line.text, size, full, readableMinScale(size, theme)), line.color});
                chosen->w = std::max(chosen->w, estimateTextWidth(chosen->rows.back().first.text,
                                                                  chosen->rows.back().first.size));
            }
        }
        // A corner over no text (the legend), else below a legend at the top.
        const float w = chosen->w, h = step * float(chosen->rows.size());
        const float belowLegend = frame.legend.width > 0 && frame.legend.y < p.y + p.height / 2
                                      ? frame.legend.bottom() + 4
                                      : p.y + 6;
        std::vector<Box> texts;
        for (const FigureItem& item : figure.items)
            if (const auto* t = std::get_if<TextItem>(&item); t && !t->text.empty())
                texts.push_back(textBox(*t));
        box = {p.x + 6, belowLegend, w, h};
        for (const Box& corner :
             {Box{p.x + 6, p.y + 6, w, h}, Box{p.right() - w - 6, p.y + 6, w, h},
              Box{p.x + 6, p.bottom() - h - 6, w, h},
              Box{p.right() - w - 6, p.bottom() - h - 6, w, h}}) {
            bool clear = corner.y >= p.y;
            for (const Box& t : texts) clear = clear && !boxesOverlap(corner, t, 1);
            if (clear) {
                box = corner;
                break;
            }
        }
        const std::size_t fit = std::size_t(std::max(0.f, (p.bottom() - 6 - box.y) / step));
        if (chosen->rows.size() > fit) chosen->rows.resize(fit);
        chosen->h = step * float(chosen->rows.size());
        box.height = chosen->h;
    }
    for (std::size_t i = 0; i < chosen->rows.size(); ++i) {
        const auto& [fitted, color] = chosen->rows[i];
        figure.add(makeText({box.x + 2, box.y + float(i) * step}, fitted.text, fitted.size, color));
    }
    return box;
}

float legendBoxWidth(const std::vector<LegendKey>& keys, const Theme& theme) {
    float widest = 0;
    for (const LegendKey& key : keys)
        widest = std::max(widest, estimateTextWidth(key.text, theme.fontSize));
    return keys.empty() ? 0 : widest + strokeWidth(theme, 18) + 16;
}

namespace {

constexpr float kOutsideLegendShare = 0.36f;  // an outside legend's widest column, of the area

// One try of drawLinePlot; *legendFits turns false when an inside legend found no free place.
void drawLinePlotOnce(Figure& figure, Box area, const LinePlotSpec& spec, const Theme& theme,
                      PlotFrame* frameOut, bool* legendFits) {
    const PanelScope panel(figure, area, theme);
    const std::string title = panelTitle(spec.title, theme);
    // The legend's rows: the keys given, or the named series in their colours.
    std::vector<LegendKey> keys = spec.keys;
    if (keys.empty()) {
        for (std::size_t index = 0; index < spec.series.size(); ++index) {
            const LineSeries& s = spec.series[index];
            if (s.name.empty()) continue;
            keys.push_back(
                {s.name, s.color.a == 0 ? seriesColor(int(index), theme) : s.color, false});
        }
    }
    const bool legend = spec.legend && !keys.empty() && theme.legend != LegendPlacement::None;
    const bool outside = legend && theme.legend == LegendPlacement::Outside;
    const bool outsideLater =
        spec.legendLater && !keys.empty() && theme.legend == LegendPlacement::Outside;
    AxisSpec y = spec.y;
    if (spec.autoRangeY) {
        double low = INFINITY, high = -INFINITY;
        for (const LineSeries& s : spec.series) {
            for (std::size_t i = 0; i < s.y.size() && i < s.x.size(); ++i) {
                if (!std::isfinite(s.y[i]) || !std::isfinite(s.x[i])) continue;
                if (s.x[i] < std::min(spec.x.low, spec.x.high) ||
                    s.x[i] > std::max(spec.x.low, spec.x.high))
                    continue;
                if (y.logarithmic && s.y[i] <= 0) continue;
                low = std::min(low, s.y[i]);
                high = std::max(high, s.y[i]);
            }
        }
        if (!(low <= high)) low = 0, high = 1;
        if (y.logarithmic) {
            y.low = low / 1.5;
            y.high = std::min(high * 1.5, kLargestDouble);
        } else {
            const ValueRange padded = paddedRange(low, high, 0.06);
            y.low = padded.low;
            y.high = padded.high;
        }
    }
    Margins m = plotMargins(spec.x, y, !title.empty(), theme, area.height);
    // Outside: the legend takes a column right of the plot, at most kOutsideLegendShare of the
    // area's width (longer names wrap).
    const float gap = theme.fontSize * 0.8f;
    const float outsideWidth = outside || outsideLater ? std::min(legendBoxWidth(keys, theme),
                                                                  area.width * kOutsideLegendShare)
                                                       : 0;
    if (outside || outsideLater) m.right += outsideWidth + gap;
    const TitleLines titleLines =
        plotTitleLines(title, area.width, area.height - m.top - m.bottom, theme);
    m.top += titleLines.extra;
    PlotFrame frame;
    frame.x = spec.x;
    frame.y = y;
    frame.plot = {area.x + m.left, area.y + m.top, std::max(1.f, area.width - m.left - m.right),
                  std::max(1.f, area.height - m.top - m.bottom)};
    const Box titleArea = area;
    if (theme.aspect == AspectMode::Square) makeSquare(area, frame.plot);
    // The column runs from the plot's top to the panel's bottom: nothing else is drawn there.
    if (outside || outsideLater)
        frame.legendColumn = {frame.plot.right() + gap, frame.plot.y, outsideWidth,
                              std::max(frame.plot.height, area.bottom() - frame.plot.y - 2)};
    if (!title.empty()) drawTitleLines(figure, titleArea, titleLines, theme);

    RectItem background;
    background.box = frame.plot;
    background.fill = theme.plotBackground;
    figure.add(background);
    drawAxes(figure, area, frame, theme, true);
    drawMarkers(figure, frame, spec.markers, theme, MarkerPart::Lines);
    std::vector<Point> drawnPoints;  // where the data is, for placing the legend

    figure.add(ClipPush{frame.plot});
    for (std::size_t index = 0; index < spec.series.size(); ++index) {
        const LineSeries& s = spec.series[index];
        const Rgba color = s.color.a == 0 ? seriesColor(int(index), theme) : s.color;
        PolylineItem line;
        line.color = color;
        line.width = strokeWidth(theme, s.width);
        auto flush = [&] {
            if (line.points.size() >= 2) figure.add(line);
            line.points.clear();
        };
        // A series with more dots than the plot has pixel columns (16 draws of 4,096 positions
        // on 1,000 pixels) gets one dot per pixel it touches: the others would land on the same
        // pixel, and each dot costs a circle on screen and in every vector file.
        const bool dense = s.markers && double(s.x.size()) > double(frame.plot.width);
        std::unordered_set<std::uint64_t> dottedPixels;
        for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            const bool valid = std::isfinite(s.x[i]) && std::isfinite(s.y[i]) &&
                               (!spec.x.logarithmic || s.x[i] > 0) &&
                               (!y.logarithmic || s.y[i] > 0);
            if (!valid) {
                flush();
                continue;
            }
            const Point p = frame.toPixel(s.x[i], s.y[i]);
            line.points.push_back(p);
            drawnPoints.push_back(p);
            const auto pixel = [](float v) { return std::uint64_t(std::uint32_t(std::lround(v))); };
            if (s.markers &&
                (!dense || dottedPixels.insert(pixel(p.x) << 32 | pixel(p.y)).second)) {
                CircleItem dot;
                dot.center = p;
                dot.radius = strokeWidth(theme, 2.5f);
                dot.fill = color;
                figure.add(dot);
            }
        }
        flush();
    }
    figure.add(ClipPop{});

    std::optional<Box> legendBox;
    if (legend) {
        // A place that hides no data (corners first); else, when the caller lets it, the
        // legend goes outside (legendFits false: drawLinePlot redraws with it there); else the
        // corner that hides the fewest data points, top right when they tie.
        const Box& p = frame.plot;
        auto free = [&](float w, float h) {
            return legendPlace(figure, frame, w, h, {p.right() - w - 6, p.y + 6, w, h});
        };
        auto corner = [&](float w, float h) {
            if (legendFits) *legendFits = false;
            const Box corners[] = {{p.right() - w - 6, p.y + 6, w, h},
                                   {p.x + 6, p.y + 6, w, h},
                                   {p.right() - w - 6, p.bottom() - h - 6, w, h},
                                   {p.x + 6, p.bottom() - h - 6, w, h}};
            Box box = corners[0];
            double best = INFINITY;
            for (const Box& c : corners) {
                double cost = 0;
                for (Point q : drawnPoints) cost += c.contains(q);
                if (cost < best) best = cost, box = c;
            }
            return box;
        };
        legendBox = drawLegendRows(figure, frame, keys, theme, free, corner);
        if (legendBox) frame.legend = *legendBox;
    }
    drawMarkers(figure, frame, spec.markers, theme, MarkerPart::Labels,
                legendBox ? std::vector<Box>{*legendBox} : std::vector<Box>{});
    drawAxisLabels(figure, area, frame, theme);
    if (frameOut) *frameOut = frame;
}

}  // namespace

void drawLinePlot(Figure& figure, Box area, const LinePlotSpec& spec, const Theme& theme,
                  PlotFrame* frameOut) {
    // An automatic legend that would hide data everywhere inside the plot moves outside (the plot
    // narrows), when the area is wide enough for a column of its names beside a readable plot.
    const bool canMove = theme.legend == LegendPlacement::Auto && spec.legend && !spec.legendLater;
    const std::size_t items = figure.items.size(), marks = figure.marks.size(),
                      panels = figure.panels.size();
    const std::vector<Box> clips = figure.clips;
    bool legendFits = true;
    drawLinePlotOnce(figure, area, spec, theme, frameOut, canMove ? &legendFits : nullptr);
    if (legendFits) return;
    std::vector<LegendKey> keys = spec.keys;
    if (keys.empty()) {
        for (const LineSeries& s : spec.series)
            if (!s.name.empty()) keys.push_back({s.name, {}, false});
    }
    // A column too narrow for the names, or a few words of each, beside the plot: it stays.
    const float column = area.width * kOutsideLegendShare;
    if (legendBoxWidth(keys, theme) > column &&
        column < strokeWidth(theme, 18) + 16 + theme.fontSize * 6)
        return;
    figure.items.resize(items);
    figure.marks.resize(marks);
    figure.panels.resize(panels);
    figure.clips = clips;
    Theme outside = theme;
    outside.legend = LegendPlacement::Outside;
    drawLinePlotOnce(figure, area, spec, outside, frameOut, nullptr);
}

// ---------------------------------------------------------------------------------------------
// Whole figures
// ---------------------------------------------------------------------------------------------

Figure emptyFigure(float width, float height, const Theme& theme) {
    Figure figure;
    figure.width = width;
    figure.height = height;
    figure.background = theme.background;
    return figure;
}

float titleBandHeight(const Theme& theme, float lines) {
    return theme.titleMode == TitleMode::Hidden ? 0 : theme.titleSize * lines;
}

bool drawTitle(Figure& figure, Box area, const std::string& title, const Theme& theme) {
    const bool first = figure.figureTitles++ == 0;
    switch (theme.titleMode) {
        case TitleMode::Hidden:
            return false;
        case TitleMode::Replace:
            // The first figure title becomes the given text; later lines (a subtitle) go.
            if (theme.titleTarget == TitleTarget::PanelTitles) break;
            if (!first) return false;
            drawTitleText(figure, area, theme.titleText, theme);
            return true;
        case TitleMode::Auto:
            break;
    }
    drawTitleText(figure, area, title, theme);
    return true;
}

std::string panelTitle(const std::string& title, const Theme& theme) {
    switch (theme.titleMode) {
        case TitleMode::Hidden:
            return {};
        case TitleMode::Replace:
            return theme.titleTarget == TitleTarget::PanelTitles ? theme.titleText : title;
        case TitleMode::Auto:
            break;
    }
    return title;
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

void drawCornerNote(Figure& figure, Box area, const PlotFrame* frame, const std::string& text,
                    const Theme& theme) {
    if (text.empty()) return;
    const float size = theme.fontSize * 0.85f, right = area.right() - 4;
    float left = area.x;
    if (frame && !frame->x.label.empty()) {  // the label is centred under the plot
        left = frame->plot.x + frame->plot.width / 2 +
               estimateTextWidth(frame->x.label, theme.fontSize) / 2 + theme.fontSize;
    }
    if (right - left < size * 5) return;
    const FittedText fitted = fitText(text, size, right - left, readableMinScale(size, theme));
    figure.add(makeText({right, area.bottom() - 2}, fitted.text, fitted.size, theme.mutedText,
                        HorizontalAlign::Right, VerticalAlign::Bottom));
}

Figure figureOrNote(Result<Figure> figure, float width, float height, const Theme& theme) {
    if (figure) return std::move(figure).value();
    Figure note = emptyFigure(width, height, theme);
    drawNote(note, {0, 0, width, height}, figure.error().message, theme);
    return note;
}

void drawNote(Figure& figure, Box area, const std::string& message, const Theme& theme) {
    // Words wrapped to the area's width (a long word shrunk or cut), the lines centred.
    const float room = std::max(1.f, area.width - theme.fontSize);
    std::vector<std::string> lines;
    std::size_t at = 0;
    while (at < message.size()) {
        std::size_t end = message.find(' ', at);
        if (end == std::string::npos) end = message.size();
        const std::string word = message.substr(at, end - at);
        if (!lines.empty() &&
            estimateTextWidth(lines.back() + " " + word, theme.fontSize) <= room) {
            lines.back() += " " + word;
        } else {
            lines.push_back(word);
        }
        at = end + 1;
    }
    if (lines.empty()) return;
    const float line = theme.fontSize * 1.3f;
    const std::size_t fit = std::max<std::size_t>(1, std::size_t(area.height / line));
    if (lines.size() > fit) {
        lines.resize(fit);
        lines.back() += " …";
    }
    float y = area.y + area.height / 2 - line * float(lines.size() - 1) / 2;
    for (const std::string& text : lines) {
        const FittedText fitted = fitText(text, theme.fontSize, room);
        figure.add(makeText({area.x + area.width / 2, y}, fitted.text, fitted.size, theme.mutedText,
                            HorizontalAlign::Center, VerticalAlign::Middle));
        y += line;
    }
}

}  // namespace poslab
