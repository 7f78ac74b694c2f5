#include "poslab/figure/heatmap_plot.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "plot_parts.hpp"
#include "poslab/figure/colorbar.hpp"
#include "poslab/figure/titles.hpp"

namespace poslab {

namespace {

// A figure meant for a file: a vector file (its texels are cells) or one sized for print (a
// readable floor, forFiles); neither has a hover to tell the sampling the caption leaves out.
bool inFile(const Theme& theme) {
    return theme.cellResolution || theme.minTextSize > 0;
}

// A colour bar's caption runs along the bar, so it may be no longer than the bar: one line when
// it fits at full size, else two, split at the "; ", ", " or space nearest the middle; each
// line then shrinks or ends in "…" as a title does; none when a line would be "…" alone.
// Presentation mode (fontScale > 1) keeps the caption at full size for the projector: one line,
// else two, else without its sampling detail (after the last ", ", which the hover and the export
// state; a file, with no hover, keeps it on a line of its own), else run past the bar's ends along
// its free column (`reach`), shrinking at most to the presentation floor (0.8: the check's
// threshold).
std::vector<FittedText> colorbarCaption(const std::string& caption, float length, float size,
                                        const Theme& theme, std::size_t maxLines = 2,
                                        float reach = 0) {
    if (caption.empty() || maxLines == 0) return {};
    const bool presentation = theme.fontScale > 1;
    const float minScale = presentation ? std::max(0.8f, readableMinScale(size, theme))
                                        : readableMinScale(size, theme);
    auto splitAt = [](const std::string& text) {
        std::size_t split = std::string::npos;
        for (const char* separator : {"; ", ", ", " "}) {
            const std::size_t width = std::string(separator).size();
            double best = 1e300;
            for (std::size_t at = text.find(separator); at != std::string::npos;
                 at = text.find(separator, at + 1)) {
                const double distance = std::abs(double(at) - double(text.size()) / 2);
                if (distance < best) best = distance, split = at + width;
            }
            if (split != std::string::npos && best < double(text.size()) / 4) break;
            split = std::string::npos;
        }
        return split;
    };
    auto twoLines = [&](const std::string& text) -> std::vector<std::string> {
        const std::size_t split = splitAt(text);
        if (split == std::string::npos) return {text};
        std::string head = text.substr(0, split), tail = text.substr(split);
        while (!head.empty() && head.back() == ' ') head.pop_back();
        return {head, tail};
    };
    if (presentation) {
        auto fullSize = [&](const std::vector<std::string>& lines, float room) {
            if (lines.size() > maxLines) return false;
            for (const std::string& line : lines)
                if (estimateTextWidth(line, size) > room) return false;
            return true;
        };
        auto full = [&](const std::vector<std::string>& lines) {
            std::vector<FittedText> fitted;
            for (const std::string& line : lines) fitted.push_back({line, size});
            return fitted;
        };
        // Without the sampling detail: "…, mean of 12 × 12 cells per pixel" and "value (mean,
        // 2×1 cells/px)" lose the part after the last ", " (and an opening bracket left open).
        std::string brief = caption, detail;
        if (const std::size_t comma = caption.rfind(", "); comma != std::string::npos) {
            brief = caption.substr(0, comma);
            detail = caption.substr(comma + 2);
            const std::size_t open = brief.rfind('(');
            if (open != std::string::npos && brief.find(')', open) == std::string::npos) {
                detail = caption.substr(open);
                brief = brief.substr(0, open);
                while (!brief.empty() && brief.back() == ' ') brief.pop_back();
            }
            if (brief.empty()) brief = caption, detail.clear();
        }
        // A file has no hover to state the sampling: its caption keeps the detail on a line
        // of its own after the brief's (a third column beside the bar), never dropped.
        std::vector<std::vector<std::string>> withDetail;  // fewest lines first
        if (inFile(theme) && !detail.empty() && maxLines >= 2) {
            std::vector<std::string> briefLines = twoLines(brief), detailLines = twoLines(detail);
            withDetail.push_back({brief, detail});
            std::vector<std::string> wrappedBrief = briefLines, wrappedDetail{brief};
            wrappedBrief.push_back(detail);
            wrappedDetail.insert(wrappedDetail.end(), detailLines.begin(), detailLines.end());
            for (const auto& lines : {wrappedBrief, wrappedDetail})
                if (lines.size() <= maxLines && lines.size() > 2) withDetail.push_back(lines);
        }
        for (float room : {length, std::max(length, reach)}) {
            if (fullSize({caption}, room)) return full({caption});
            if (fullSize(twoLines(caption), room)) return full(twoLines(caption));
            if (!withDetail.empty()) {
                for (const std::vector<std::string>& lines : withDetail)
                    if (fullSize(lines, room)) return full(lines);
                continue;
            }
            if (fullSize({brief}, room)) return full({brief});
            if (fullSize(twoLines(brief), room)) return full(twoLines(brief));
        }
        length = std::max(length, reach);
        // Shrunk to the floor, cut only when every way of keeping the detail would be: the
        // lines that fit whole, else the most lines (the least cut).
        std::vector<FittedText> kept;
        for (const std::vector<std::string>& lines : withDetail) {
            std::vector<FittedText> fitted;
            bool whole = true;
            for (const std::string& line : lines) {
                fitted.push_back(fitText(line, size, length, minScale));
                whole = whole && fitted.back().text == line;
            }
            if (whole) return fitted;
            kept = std::move(fitted);
        }
        if (!kept.empty()) {
            for (const FittedText& line : kept)
                if (line.text == "…") return {};
            return kept;
        }
    }
    // Wrapped before shrunk: two lines at the view's size read better than one line at 3/4 of
    // it (Similarity's caption at 1024x768 was one line of 10.5 px beside 14 px text).
    std::vector<std::string> lines{caption};
    if (maxLines >= 2 && estimateTextWidth(caption, size) > length) lines = twoLines(caption);
    std::vector<FittedText> fitted;
    for (const std::string& line : lines) {
        fitted.push_back(fitText(line, size, length, minScale));
        // A line cut down to a lone "…" says nothing and still takes room: no caption then.
        if (fitted.back().text == "…") return {};
    }
    return fitted;
}

// A heatmap's cells are data everywhere inside its plot, so a horizontal line's label ("training
// length 2048", "table ends") goes beside the plot instead: right of it at the line's height, in
// a strip kept between the plot and the colour bar, wrapped at spaces to its widest word (at
// least eight characters a line when it has more than one) and never wider than a fifth of the
// area.
struct SideLabel {
    double value = 0;
    std::string text;  // the marker's label, whole
    std::vector<FittedText> lines;
    Rgba color;
    bool dashed = true;  // the line's style, for its swatch above a narrow plot
};
float sideLabelSize(const Theme& theme) {
    return atLeastMinText(theme.fontSize * 0.9f, theme);  // as drawMarkers' labels inside a plot
}
std::vector<SideLabel> sideLabels(const HeatmapSpec& spec, float areaWidth, const Theme& theme) {
    std::vector<SideLabel> labels;
    const float size = sideLabelSize(theme);
    const double low = std::min(spec.y.low, spec.y.high), high = std::max(spec.y.low, spec.y.high);
    for (const Marker& marker : spec.markers) {
        if (marker.vertical || marker.label.empty() ||
            !(marker.value >= low && marker.value <= high))
            continue;
        // A one-word label ("trained") needs no more than its word.
        const std::vector<std::string> words = wrapText(marker.label, size, 0);
        float widestWord = words.size() > 1 ? estimateTextWidth("training", size) : 0;
        for (const std::string& word : words)
            widestWord = std::max(widestWord, estimateTextWidth(word, size));
        const float room = std::min(widestWord, std::max(1.f, areaWidth * 0.2f));
        SideLabel label{marker.value, marker.label, {}, marker.color, marker.dashed};
        for (const std::string& line : wrapText(marker.label, size, room))
            label.lines.push_back(fitText(line, size, room, readableMinScale(size, theme)));
        labels.push_back(std::move(label));
    }
    return labels;
}
float sideStripWidth(const std::vector<SideLabel>& labels) {
    float widest = 0;
    for (const SideLabel& label : labels)
        for (const FittedText& line : label.lines)
            widest = std::max(widest, estimateTextWidth(line.text, line.size));
    return labels.empty() ? 0 : widest + 8;
}
// The labels in the strip right of the plot, each centred on its line, moved down past the one
// above it and kept within the plot's height where they fit.
void drawSideLabels(Figure& figure, const PlotFrame& frame, std::vector<SideLabel> labels,
                    const Theme& theme) {
    const Box& p = frame.plot;
    const float step = sideLabelSize(theme) * 1.15f;
    std::stable_sort(labels.begin(), labels.end(), [&](const SideLabel& a, const SideLabel& b) {
        return frame.toPixel(frame.x.low, a.value).y < frame.toPixel(frame.x.low, b.value).y;
    });
    float below = p.y;  // where the next label may start
    for (const SideLabel& label : labels) {
        const float height = step * float(label.lines.size());
        const float lineY = frame.toPixel(frame.x.low, label.value).y;
        float top = std::max(lineY - height / 2, below);
        if (top + height > p.bottom()) top = std::max(below, p.bottom() - height);
        for (std::size_t i = 0; i < label.lines.size(); ++i)
            figure.add(makeText({p.right() + 6, top + float(i) * step}, label.lines[i].text,
                                label.lines[i].size, label.color));
        below = top + height + 2;
    }
}

// The horizontal lines' labels with no strip beside a narrow plot: rows above it across the
// area (above a vertical line's label row), each a swatch in the line's colour and style, then
// the label (wrapped to the area's width when it must be).
void drawKeysAbove(Figure& figure, Box area, const PlotFrame& frame,
                   const std::vector<SideLabel>& keys, float verticalRow, float row,
                   const Theme& theme) {
    const Box& p = frame.plot;
    const float swatch = strokeWidth(theme, 18);
    std::size_t rows = 0;
    for (const SideLabel& key : keys) rows += key.lines.size();
    float top = p.y - verticalRow - theme.fontSize * 0.6f - row * float(rows);
    const float left = area.x + 2;
    for (const SideLabel& key : keys) {
        const float cy = top + row / 2;
        figure.add(LineItem{
            {left, cy}, {left + swatch, cy}, key.color, strokeWidth(theme, 1.5f), key.dashed});
        for (const FittedText& line : key.lines) {
            figure.add(makeText({left + swatch + 4, top + row / 2}, line.text, line.size, key.color,
                                HorizontalAlign::Left, VerticalAlign::Middle));
            top += row;
        }
    }
}

// Where every part of a heatmap goes: drawHeatmap draws it, measureHeatmap reports it.
struct HeatmapLayout {
    Box area;  // the area given, narrowed to a square plot and its axes
    PlotFrame frame;
    std::vector<Tick> barTicks;  // the colour bar's
    float barLength = 0;         // the plot's height before square cells shortened it
    std::vector<FittedText> caption;
    bool captionAbove = false;         // caption across the bar's top (else rotated beside it)
    std::vector<SideLabel> side;       // horizontal lines' labels beside the plot
    std::vector<SideLabel> keysAbove;  // or above a narrow one
    float strip = 0;                   // the side labels' column
    float verticalRow = 0;             // a vertical line's label row
    plot_parts::TitleLines titleLines;
    Box titleArea;
};

float keyRowHeight(const Theme& theme) {
    return sideLabelSize(theme) * 1.15f + 2;
}

// A caption across the bar's top ("bias", "q·k"): one line, or two at a space when longer than
// a third of the area is wide (the bar's block widens to the longer line), a line longer than
// half the area shrunk no smaller than readable. Its last line ends clear of the top tick
// label, which hangs half a line above the bar.
constexpr float kCaptionAboveStep = 1.1f;  // line to line, in sizes
std::vector<FittedText> captionAboveLines(const std::string& caption, float areaWidth,
                                          const Theme& theme) {
    const float size = theme.fontSize;
    std::vector<std::string> lines{caption};
    if (estimateTextWidth(caption, size) > areaWidth / 3)
        lines = wrapText(caption, size, areaWidth / 3);
    if (lines.size() > 2) lines = {caption};
    std::vector<FittedText> fitted;
    for (const std::string& line : lines)
        fitted.push_back(fitText(line, size, areaWidth / 2, readableMinScale(size, theme)));
    return fitted;
}
float captionAboveHeight(const std::vector<FittedText>& lines, const Theme& theme) {
    if (lines.empty()) return 0;
    return theme.fontSize * (0.5f + kCaptionAboveStep * float(lines.size())) + 4;
}

// The colour bar beside the plot, past the side labels' column.
Box colorbarBox(const HeatmapLayout& layout, const Theme& theme) {
    const Box& plot = layout.frame.plot;
    return {plot.right() + layout.strip + theme.fontSize * 0.9f, plot.y, barWidthFor(theme),
            plot.height};
}

// Where a caption across the bar's top starts: ending with the bar's tick labels, from the
// bar's left edge at the leftmost (the title, beside it in the same row, ends before it).
float captionAboveLeft(const HeatmapLayout& layout, const Theme& theme) {
    const Box bar = colorbarBox(layout, theme);
    float widest = 0;
    for (const FittedText& line : layout.caption)
        widest = std::max(widest, estimateTextWidth(line.text, line.size));
    const float blockRight = bar.right() + strokeWidth(theme, 4) + colorbarLabelGap(theme) +
                             plot_parts::widestLabel(layout.barTicks, theme.fontSize);
    return std::max(bar.x, blockRight - widest);
}

// The layout for the colour bar's ticks given (their labels set the bar block's width).
HeatmapLayout layoutWithTicks(const Box areaGiven, const HeatmapSpec& spec,
                              const std::string& title, const Theme& theme,
                              std::vector<Tick> barTicks) {
    HeatmapLayout out;
    out.barTicks = std::move(barTicks);
    const float barWidth = spec.showColorbar ? barWidthFor(theme) : 0;
    // Laid out twice when square cells leave the colour bar too short for the caption fitted to
    // the plot's full height (a wide, short area: Similarity at 1024x768): the second pass fits
    // it to the bar the square leaves, on two lines when it needs them, and the block beside
    // the plot makes room for them.
    Box area = areaGiven;
    plot_parts::Margins m{};
    std::vector<SideLabel>& side = out.side;
    float& strip = out.strip;
    float& barLength = out.barLength;
    float barBlock = 0;
    std::vector<FittedText>& caption = out.caption;
    plot_parts::TitleLines& titleLines = out.titleLines;
    Box& titleArea = out.titleArea;
    PlotFrame& frame = out.frame;
    const float lineStep = theme.fontSize * 1.2f;  // between caption lines
    std::optional<float> captionLength;            // the bar the second pass fits it to
    std::optional<float> titleRoom;                // the title's width in the second pass
    float& verticalRow = out.verticalRow;
    std::vector<SideLabel>& keysAbove = out.keysAbove;
    const float keyRow = keyRowHeight(theme);
    bool& above = out.captionAbove;
    above = spec.showColorbar && spec.colorbarLabelAbove && !spec.colorbarLabel.empty() &&
            std::none_of(spec.markers.begin(), spec.markers.end(), [](const Marker& marker) {
                return !marker.vertical && !marker.label.empty();
            });
    for (int pass = 0; pass < 2; ++pass) {
        area = areaGiven;
        m = plot_parts::plotMargins(spec.x, spec.y, !title.empty(), theme, area.height, area.width);
        // A labelled vertical line ("query 31") has its label above the plot, where it hides no
        // cell: a row of room under the title (heatmaps are data everywhere inside).
        verticalRow = 0;
        for (const Marker& marker : spec.markers) {
            if (marker.vertical && !marker.label.empty()) {
                verticalRow = theme.fontSize * 0.9f + 4;
                m.top += verticalRow;
                break;
            }
        }
        side = sideLabels(spec, area.width, theme);
        strip = sideStripWidth(side);                               // between plot and colour bar
        barLength = std::max(1.f, area.height - m.top - m.bottom);  // the plot's height
        const float fitLength = captionLength.value_or(barLength);
        caption = !spec.showColorbar ? std::vector<FittedText>{}
                  : above            ? captionAboveLines(spec.colorbarLabel, area.width, theme)
                          : colorbarCaption(spec.colorbarLabel, fitLength, theme.fontSize, theme,
                                            inFile(theme) ? 3 : 2,
                                            fitLength + 1.6f * std::min(m.top, m.bottom));
        // The caption's column at the bar's outer edge (a title too long beside the bar may
        // reach it, below).
        const float captionColumn =
            caption.empty() || above ? 0
                                     : theme.fontSize * 1.8f + lineStep * float(caption.size() - 1);
        barBlock = spec.showColorbar
                       ? barWidth + 4 + colorbarLabelGap(theme) + strokeWidth(theme, 4) +
                             plot_parts::widestLabel(out.barTicks, theme.fontSize) + captionColumn
                       : 0;
        if (above) {
            // From the bar's left edge to the area's right one (0.3 em more than the block: the
            // gap before the bar is 0.9 em of the 1.2 em right margin), and its rows above the
            // plot where the title row has too few.
            float widest = 0;
            for (const FittedText& line : caption)
                widest = std::max(widest, estimateTextWidth(line.text, line.size));
            barBlock = std::max(barBlock, widest + 2 - theme.fontSize * 0.3f);
            m.top = std::max(m.top, captionAboveHeight(caption, theme));
        }
        // A plot already narrow (480x320) would lose over 30 % of its width to the strip: its
        // labels go above it as keys instead: a swatch in the line's colour and style, then the
        // label (inside the plot a label hides cells wherever it goes: "training…" at 480x320).
        keysAbove.clear();
        if (strip > 0.3f * (area.width - m.left - m.right - barBlock)) {
            // Across the area, as the title (over the y tick labels and the colour bar: the plot
            // alone is some 60 px wide at 480x320), and half a line above the top tick labels.
            const float room = std::max(1.f, area.width - 4 - strokeWidth(theme, 18) - 4);
            m.top += theme.fontSize * 0.6f;
            const float size = sideLabelSize(theme);
            for (SideLabel& key : side) {
                key.lines.clear();
                for (const std::string& line : wrapText(key.text, size, room))
                    key.lines.push_back(fitText(line, size, room, readableMinScale(size, theme)));
                m.top += keyRow * float(key.lines.size());
            }
            keysAbove = std::move(side);
            side.clear();
            strip = 0;
        }
        m.right += barBlock + strip;
        plot_parts::fitXLabelRows(m, spec.x, theme, area.width, area.height);  // narrower plot
        if (spec.squareCells) {
            // Square cells narrow the plot below (a one-column print): the label's rows for the
            // width it will have, twice, as the rows taken shorten the square a little.
            const double cols = std::abs(spec.x.high - spec.x.low);
            const double rows = std::abs(spec.y.high - spec.y.low);
            for (int again = 0; again < 2 && cols > 0 && rows > 0 && std::isfinite(cols / rows);
                 ++again) {
                const float plotWidth = std::max(1.f, area.width - m.left - m.right);
                const float plotHeight = std::max(1.f, area.height - m.top - m.bottom);
                float squareWidth = float(std::min(double(plotWidth), plotHeight * cols / rows));
                if (spec.maxSquareSide > 0)
                    squareWidth = std::min(squareWidth,
                                           float(spec.maxSquareSide * cols / std::max(cols, rows)));
                plot_parts::fitXLabelRows(m, spec.x, theme, squareWidth + m.left + m.right,
                                          area.height);
            }
        }
        const float titleWidth = titleRoom.value_or(area.width - barBlock - strip);
        titleLines = plot_parts::plotTitleLines(title, titleWidth, area.height - m.top - m.bottom,
                                                theme, spec.titleWrapsAtFullSize);
        titleArea = {area.x, area.y, titleWidth, area.height};
        // Cut beside the colour bar (a narrow heatmap: the binary clock's at 1024x768): over the
        // whole width up to the caption's column instead, which it may pass (presentation).
        // Clear of the bar's top tick label still: that hangs half a line above the plot, the
        // title's last line ends 0.2 of a title size above that (m.top is 1.7 title sizes).
        if (titleLines.cut && barBlock + strip > 0 && !above) {
            const plot_parts::TitleLines wide = plot_parts::plotTitleLines(
                title, area.width - captionColumn, area.height - m.top - m.bottom, theme,
                spec.titleWrapsAtFullSize);
            if (!wide.cut) {
                titleLines = wide;
                titleArea.width = area.width - captionColumn;
            }
        }
        m.top += titleLines.extra;
        m.top = std::max(m.top, spec.plotTopAtLeast);

        frame = PlotFrame{};
        frame.x = spec.x;
        frame.y = spec.y;
        frame.yDown = true;
        // A label cut under a narrow plot may run past its sides: up to the colour bar, or on
        // under it (the row below the bar's lowest tick label is free) unless the masked
        // swatch and its label sit there.
        frame.xLabelReach = spec.showColorbar && !spec.showMaskedLegend
                                ? strip + theme.fontSize * 0.9f + barBlock
                                : strip + theme.fontSize * 0.9f - 4;
        frame.plot = {area.x + m.left, area.y + m.top, std::max(1.f, area.width - m.left - m.right),
                      std::max(1.f, area.height - m.top - m.bottom)};
        if (spec.squareCells) {
            // As many pixels per cell across as down: the area shrinks to the square plot,
            // centred across, so the axis labels and colour bar stay beside it.
            const double cols = std::abs(spec.x.high - spec.x.low);
            const double rows = std::abs(spec.y.high - spec.y.low);
            if (cols > 0 && rows > 0 && std::isfinite(cols) && std::isfinite(rows)) {
                double perCell = std::min(frame.plot.width / cols, frame.plot.height / rows);
                if (spec.maxSquareSide > 0)
                    perCell = std::min(perCell, spec.maxSquareSide / std::max(cols, rows));
                const float width = float(perCell * cols), height = float(perCell * rows);
                const float spareX = frame.plot.width - width, spareY = frame.plot.height - height;
                if (spareX > 0.5f || spareY > 0.5f) {
                    area = {area.x + spareX / 2, area.y, area.width - spareX, area.height - spareY};
                    frame.plot = {frame.plot.x + spareX / 2, frame.plot.y, width, height};
                }
            }
        }
        if (above) {
            // The caption shares the title's row: a square plot, centred, moved the bar (and the
            // caption with it) under the title's right end ("KERPLE power" over "bias"). The
            // title ends 0.6 em before the caption then (its area's half-title margin is that
            // gap), laid out again for that room when its lines change.
            const float room = captionAboveLeft(out, theme) - theme.fontSize * 0.6f +
                               theme.titleSize / 2 - areaGiven.x;
            if (title.empty() || room >= titleArea.width - 0.5f) break;
            if (pass == 0 && plot_parts::plotTitleLines(title, room, area.height - m.top - m.bottom,
                                                        theme, spec.titleWrapsAtFullSize)
                                     .lines.size() != titleLines.lines.size()) {
                titleRoom = room;
                continue;
            }
            titleLines = plot_parts::plotTitleLines(title, room, area.height - m.top - m.bottom,
                                                    theme, spec.titleWrapsAtFullSize);
            titleArea.width = room;
            break;
        }
        // Once more only when the caption fitted to the full height would be cut (or left
        // out) on the bar the square leaves, and two lines may save it.
        const bool shorter = frame.plot.height < barLength - 0.5f;
        if (pass > 0 || !shorter || caption.empty() || caption.size() >= 2 || above) break;
        const std::vector<FittedText> onBar = colorbarCaption(
            spec.colorbarLabel, frame.plot.height, theme.fontSize, theme, 1, frame.plot.height);
        if (!onBar.empty() && onBar.front().text == caption.front().text) break;
        captionLength = frame.plot.height;
    }
    if (theme.aspect == AspectMode::Square) plot_parts::makeSquare(area, frame.plot);
    // Square cells may leave the bar shorter than the caption was fitted to: each line is
    // fitted again to the bar as drawn, keeping the line count the margin was made for.
    if (frame.plot.height < barLength - 0.5f && !caption.empty() && !above) {
        // From the theme's size with its readable floor, as the first fit: refitting the fitted
        // size at the default 75 % shrank presentation text below the projector's 14 px.
        const float middle = frame.plot.y + frame.plot.height / 2;
        const float reach = 1.6f * std::min(middle - area.y, area.bottom() - middle);
        caption = colorbarCaption(spec.colorbarLabel, frame.plot.height, theme.fontSize, theme,
                                  caption.size(), std::max(frame.plot.height, reach));
    }
    out.area = area;
    return out;
}

// The colour bar's ticks for a bar `length` long.
std::vector<Tick> colorbarTicksFor(const HeatmapSpec& spec, float length, const Theme& theme) {
    return colorbarTicks(spec.range, length, theme.fontSize, spec.barTicks);
}
bool sameTicks(const std::vector<Tick>& a, const std::vector<Tick>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t k = 0; k < a.size(); ++k)
        if (a[k].value != b[k].value || a[k].label != b[k].label) return false;
    return true;
}

// The colour bar's ticks are chosen for the bar as drawn, the plot's height. Square cells make
// that depend on the ticks in turn: their labels' width comes off the plot's, and so off the
// square's side. Laid out with the ticks for the whole area first, then with those for the bar
// that leaves, kept while the plot grows (FIRE's map in the Relative family: ticks for the cell,
// at 0.0125 steps, set labels such as −0.3125 beside a map half the size of its neighbours');
// a tick set whose longer labels would shrink the plot again is not taken.
HeatmapLayout layoutHeatmap(Box area, const HeatmapSpec& spec, const std::string& title,
                            const Theme& theme) {
    if (!spec.showColorbar) return layoutWithTicks(area, spec, title, theme, {});
    HeatmapLayout layout =
        layoutWithTicks(area, spec, title, theme, colorbarTicksFor(spec, area.height, theme));
    for (int again = 0; again < 2; ++again) {
        std::vector<Tick> ticks = colorbarTicksFor(spec, layout.frame.plot.height, theme);
        if (sameTicks(ticks, layout.barTicks)) break;
        HeatmapLayout next = layoutWithTicks(area, spec, title, theme, std::move(ticks));
        if (next.frame.plot.height < layout.frame.plot.height - 0.5f) break;
        layout = std::move(next);
    }
    return layout;
}

}  // namespace

HeatmapPlacement measureHeatmap(Box area, const HeatmapSpec& spec, const Theme& theme) {
    const HeatmapLayout layout = layoutHeatmap(area, spec, panelTitle(spec.title, theme), theme);
    HeatmapPlacement placement;
    placement.plot = layout.frame.plot;
    if (spec.showColorbar) placement.bar = colorbarBox(layout, theme);
    return placement;
}

float heatmapHeightForWidth(float width, const HeatmapSpec& spec, const Theme& theme) {
    if (!spec.squareCells || !(width > 0) || !std::isfinite(width)) return 0;
    // Laid out in an area far taller than wide: the square is bound by the width, and square
    // cells shorten the area to the plot and its margins (layoutWithTicks).
    const Box tall{0, 0, width, 4 * width + 40 * theme.fontSize};
    const HeatmapLayout layout = layoutHeatmap(tall, spec, panelTitle(spec.title, theme), theme);
    return std::ceil(layout.area.height) + 1;
}

void drawHeatmap(Figure& figure, Box area, const HeatmapSpec& given, const Theme& theme,
                 PlotFrame* frameOut) {
    const plot_parts::PanelScope panel(figure, area, theme);
    HeatmapSpec focusedSpec;
    if (panel.focused() && !given.showColorbar) {  // a shared colour bar is not in the panel
        focusedSpec = given;
        focusedSpec.showColorbar = true;
    }
    const HeatmapSpec& spec = panel.focused() && !given.showColorbar ? focusedSpec : given;
    const std::string title = panelTitle(spec.title, theme);
    const float areaRight = area.right();  // before square cells narrow `area`
    const ValueRange range = spec.range;
    const float barWidth = spec.showColorbar ? barWidthFor(theme) : 0;
    const float lineStep = theme.fontSize * 1.2f;  // between caption lines
    const float keyRow = keyRowHeight(theme);
    HeatmapLayout layout = layoutHeatmap(area, spec, title, theme);
    area = layout.area;
    const PlotFrame& frame = layout.frame;
    const std::vector<FittedText>& caption = layout.caption;
    const std::vector<SideLabel>& side = layout.side;
    const std::vector<SideLabel>& keysAbove = layout.keysAbove;
    const float verticalRow = layout.verticalRow;
    const Box& titleArea = layout.titleArea;
    const plot_parts::TitleLines& titleLines = layout.titleLines;
    const std::vector<Tick>& barTicks = layout.barTicks;
    // Centred over the plot and its axis, clear of the colour bar's top tick label.
    if (!title.empty()) plot_parts::drawTitleLines(figure, titleArea, titleLines, theme);

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
    plot_parts::drawMarkers(figure, frame, spec.markers, theme, plot_parts::MarkerPart::Lines);
    std::vector<Marker> inPlot = spec.markers;  // the labels not drawn beside the plot
    for (Marker& marker : inPlot)
        if (!marker.vertical && (!side.empty() || !keysAbove.empty())) marker.label.clear();
    drawKeysAbove(figure, titleArea, frame, keysAbove, verticalRow, keyRow, theme);
    // The colour bar is drawn after the labels but is a mark too: a vertical line's label above
    // the plot keeps off it and its top tick label ("query 31" sat on ALiBi's bar, #28), over
    // the plot's own columns. A label that has no such place (RoPE's "training length 2048" at
    // F5, longer than the room either side of its line) is placed as before, over the bar's
    // column, rather than left of the plot over the y tick labels or cut.
    std::vector<Box> barRoom;
    if (spec.showColorbar) {
        const Box bar = colorbarBox(layout, theme);
        barRoom.push_back({bar.x - 2, bar.y - theme.fontSize * 0.6f, areaRight - bar.x + 2,
                           bar.height + theme.fontSize * 1.2f});
        // and the y tick labels' column, drawn after the labels too.
        const Box& p = frame.plot;
        barRoom.push_back({area.x, p.y - theme.fontSize, p.x - area.x, p.height + theme.fontSize});
    }
    const Figure::Checkpoint beforeLabels = figure.checkpoint();
    plot_parts::drawMarkers(figure, frame, inPlot, theme, plot_parts::MarkerPart::Labels,
                            std::move(barRoom));
    bool whole = true;  // every label drawn is a marker's label, none cut
    for (std::size_t i = beforeLabels.items; i < figure.items.size(); ++i) {
        const auto* text = std::get_if<TextItem>(&figure.items[i]);
        if (!text || text->text.empty()) continue;
        whole = whole && std::any_of(inPlot.begin(), inPlot.end(), [&](const Marker& marker) {
                    return marker.label == text->text;
                });
    }
    if (!whole) {
        figure.rollBack(beforeLabels);
        plot_parts::drawMarkers(figure, frame, inPlot, theme, plot_parts::MarkerPart::Labels);
    }
    drawSideLabels(figure, frame, side, theme);
    plot_parts::drawAxes(figure, area, frame, theme, false);
    plot_parts::drawAxisLabels(figure, area, frame, theme);

    if (spec.showColorbar) {
        const Box bar = colorbarBox(layout, theme);
        drawColorbarTicks(figure, bar, spec.colormap, range, barTicks, theme, &area);
        // Across the top: the last line's bottom clear of the top tick label.
        for (std::size_t line = 0; layout.captionAbove && line < caption.size(); ++line) {
            const float bottom =
                bar.y - theme.fontSize * 0.5f - 3 -
                theme.fontSize * kCaptionAboveStep * float(caption.size() - 1 - line);
            figure.add(makeText({captionAboveLeft(layout, theme), bottom}, caption[line].text,
                                caption[line].size, theme.mutedText, HorizontalAlign::Left,
                                VerticalAlign::Bottom));
        }
        for (std::size_t line = 0; !layout.captionAbove && line < caption.size(); ++line) {
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
            // Inside the area it was given (the next panel starts there): wrapped under the
            // swatch when too long ("future (causal mask)" at one column in print), a word still
            // too long shrunk no smaller than readable, then cut.
            const float size = atLeastMinText(theme.fontSize * 0.9f, theme);
            const float room = areaRight - bar.right() - 6;
            // A word too long beside the swatch (a half-width cell at one column in print):
            // the label under the swatch, from the bar's left edge, rather than "mas…".
            bool under = false;
            for (const std::string& word : wrapText(spec.maskedLabel, size, 1))
                under = under || estimateTextWidth(word, size) > room;
            const float x = under ? bar.x : bar.right() + 6;
            const float width = under ? areaRight - bar.x - 2 : room;
            const std::vector<std::string> lines =
                estimateTextWidth(spec.maskedLabel, size) <= width
                    ? std::vector<std::string>{spec.maskedLabel}
                    : wrapText(spec.maskedLabel, size, width);
            const float first = under ? top + barWidth + 3 + size / 2 : top + barWidth / 2;
            for (std::size_t i = 0; i < lines.size(); ++i) {
                const FittedText label =
                    fitText(lines[i], size, width, readableMinScale(size, theme));
                figure.add(makeText({x, first + float(i) * size * 1.1f}, label.text, label.size,
                                    theme.mutedText, HorizontalAlign::Left, VerticalAlign::Middle));
            }
        }
    }
    panel.setPlot(frame.plot);
    if (frameOut) *frameOut = frame;
}

}  // namespace poslab
