#include "poslab/figure/plot.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "poslab/figure/text_boxes.hpp"

namespace poslab {

Figure emptyFigure(float width, float height, const Theme& theme) {
    Figure figure;
    figure.width = width;
    figure.height = height;
    figure.background = theme.background;
    return figure;
}

void drawCornerNote(Figure& figure, Box area, const PlotFrame* frame, const std::string& text,
                    const Theme& theme) {
    if (text.empty()) return;
    const float size = atLeastMinText(theme.fontSize * 0.85f, theme), right = area.right() - 4;
    float left = area.x;
    if (frame && !frame->x.label.empty()) {  // the label is centred under the plot
        // (a label longer than the plot is wrapped to its width: drawAxisLabels)
        left = frame->plot.x + frame->plot.width / 2 +
               std::min(frame->plot.width, estimateTextWidth(frame->x.label, theme.fontSize)) / 2 +
               theme.fontSize;
    }
    if (right - left < size * 5) return;
    const float minScale = readableMinScale(size, theme);
    const FittedText fitted = fitText(text, size, right - left, minScale);
    // Too long for one line: wrapped onto lines stacked up from the label's line (at full size,
    // else the smallest readable one), when they stay below the plot and over no other text —
    // right of the label, at narrower widths when a wide line would meet a tick label, else left
    // of the label; only then shrunk and cut ("each pixel: mean of 2x1 cel…" at 1024x768 F5).
    if (fitted.text != text) {
        // Obstacles: every text, and the filled chrome (a colour bar, a frame) beside the plot;
        // a background as large as the area is not one.
        std::vector<Box> texts;
        // The plot's last x tick label may give way to the note where four or more are drawn
        // (three still name the axis's scale): "0 20 40 60" under Learned's table at one column
        // left the note no room but "each pixel: mean of…".
        AxisRecord* xAxis = nullptr;
        if (frame) {
            for (AxisRecord& axis : figure.axes)
                if (!axis.vertical && axis.plot.x == frame->plot.x &&
                    axis.plot.y == frame->plot.y && axis.plot.width == frame->plot.width)
                    xAxis = &axis;
        }
        std::size_t lastTick = figure.items.size();
        for (std::size_t i = 0; xAxis && xAxis->labelled.size() >= 4 && i < figure.items.size();
             ++i) {
            const auto* t = std::get_if<TextItem>(&figure.items[i]);
            if (t && !t->text.empty() && t->horizontal == HorizontalAlign::Center &&
                t->vertical == VerticalAlign::Top && !t->vertical90 &&
                t->anchor.y > frame->plot.bottom() &&
                t->anchor.y < frame->plot.bottom() + theme.fontSize * 0.6f &&
                t->anchor.x >= frame->plot.x - 1 && t->anchor.x <= frame->plot.right() + 1 &&
                (lastTick == figure.items.size() ||
                 t->anchor.x > std::get<TextItem>(figure.items[lastTick]).anchor.x))
                lastTick = i;
        }
        const Box lastTickBox = lastTick < figure.items.size()
                                    ? textBox(std::get<TextItem>(figure.items[lastTick]))
                                    : Box{};
        bool yielding = false, yielded = false;
        for (std::size_t i = 0; i < figure.items.size(); ++i) {
            const FigureItem& item = figure.items[i];
            if (const auto* t = std::get_if<TextItem>(&item);
                t && !t->text.empty() && i != lastTick)
                texts.push_back(textBox(*t));
            Box solid{};
            if (const auto* r = std::get_if<RectItem>(&item)) solid = r->box;
            if (const auto* h = std::get_if<HeatmapItem>(&item)) solid = h->box;
            if (solid.width > 0 && solid.height > 0 &&
                !(solid.width >= area.width * 0.9f && solid.height >= area.height * 0.9f))
                texts.push_back(solid);
        }
        // Below the plot where a line reaches under it; beside it (right of the plot, clear of a
        // colour bar) it may rise higher, up to the area's top.
        const float floor = frame ? frame->plot.bottom() + 2 : area.y;
        const float plotRight = frame ? frame->plot.right() + 2 : area.x;
        // Left of the label: from the area's left edge to the label's left end.
        float leftRoom = 0;
        if (frame && !frame->x.label.empty()) {
            leftRoom =
                frame->plot.x + frame->plot.width / 2 -
                std::min(frame->plot.width, estimateTextWidth(frame->x.label, theme.fontSize)) / 2 -
                theme.fontSize - (area.x + 2);
        }
        auto tryPlace = [&](float lineSize, float anchorX, float width, HorizontalAlign align) {
            const std::vector<std::string> lines = wrapText(text, lineSize, width);
            const float step = lineSize * 1.15f;
            std::vector<TextItem> placed;
            bool fits = lines.size() > 1;
            yielded = false;
            for (std::size_t i = 0; fits && i < lines.size(); ++i) {
                const float bottom = area.bottom() - 2 - step * float(lines.size() - 1 - i);
                TextItem line = makeText({anchorX, bottom}, lines[i], lineSize, theme.mutedText,
                                         align, VerticalAlign::Bottom);
                const Box box = textBox(line);
                fits = estimateTextWidth(lines[i], lineSize) <= width + 0.5f &&
                       box.y >= (box.x >= plotRight ? area.y : floor) &&
                       marksCovered(figure, box) == 0;
                for (const Box& other : texts) fits = fits && !boxesOverlap(box, other, 0);
                const bool overTick = lastTickBox.width > 0 && boxesOverlap(box, lastTickBox, 0);
                fits = fits && (yielding || !overTick);
                yielded = yielded || overTick;
                placed.push_back(std::move(line));
            }
            if (!fits) return false;
            if (yielded) {
                xAxis->labelled.erase(
                    std::max_element(xAxis->labelled.begin(), xAxis->labelled.end()));
                figure.removeText(lastTick);
            }
            for (TextItem& line : placed) figure.add(std::move(line));
            return true;
        };
        // The second round lets the last tick label give way (see above).
        for (const bool yieldTick : {false, true}) {
            if (yieldTick && lastTickBox.width <= 0) break;
            yielding = yieldTick;
            for (const float lineSize : {size, size * minScale}) {
                // At most a dozen narrower widths each (an infinite area, a non-finite size: none).
                float width = right - left;
                for (int step = 0; step < 12 && std::isfinite(width) && width >= lineSize * 5;
                     ++step, width *= 0.85f)
                    if (tryPlace(lineSize, right, width, HorizontalAlign::Right)) return;
                width = leftRoom;
                for (int step = 0; step < 12 && std::isfinite(width) && width >= lineSize * 5;
                     ++step, width *= 0.85f)
                    if (tryPlace(lineSize, area.x + 2, width, HorizontalAlign::Left)) return;
            }
        }
    }
    // Cut on one line at its floor. Presentation's floor (19.6 px) may make that line taller than
    // the room under the text above it (a 1010x630 file at 1.75x: over a colour bar's "0"): then
    // the screen's 14 px, as before that floor, when it keeps the line clear.
    TextItem line = makeText({right, area.bottom() - 2}, fitted.text, fitted.size, theme.mutedText,
                             HorizontalAlign::Right, VerticalAlign::Bottom);
    auto overlapsText = [&](const TextItem& candidate) {
        const Box box = textBox(candidate);
        for (const FigureItem& item : figure.items)
            if (const auto* t = std::get_if<TextItem>(&item);
                t && !t->text.empty() && boxesOverlap(box, textBox(*t), 0))
                return true;
        return false;
    };
    if (scaledMinTextPx(theme) > kReadableTextPx && overlapsText(line)) {
        const FittedText smaller = fitText(
            text, size, right - left, std::min(minScale, std::max(0.55f, kReadableTextPx / size)));
        TextItem small = makeText({right, area.bottom() - 2}, smaller.text, smaller.size,
                                  theme.mutedText, HorizontalAlign::Right, VerticalAlign::Bottom);
        if (!overlapsText(small)) line = std::move(small);
    }
    figure.add(std::move(line));
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
