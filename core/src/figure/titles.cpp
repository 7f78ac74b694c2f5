#include "poslab/figure/titles.hpp"

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "plot_parts.hpp"

namespace poslab {

namespace plot_parts {

namespace {

// How far a title may shrink: large (presentation) titles further than 3/4, as far as normal
// body text; never below the theme's smallest text (a file's 8 pt).
float titleMinScale(const Theme& theme) {
    const float scale = std::min(0.75f, std::max(0.6f, Theme{}.fontSize / theme.titleSize));
    return std::clamp(theme.minTextSize / theme.titleSize, scale, 1.f);
}

// wrapText's lines made even: the narrowest width that still wraps onto as many lines, so a
// title does not end on a lone "-462)" (a greedy wrap fills every line but the last).
std::vector<std::string> balancedWrap(const std::string& text, float size, float room) {
    std::vector<std::string> lines = wrapText(text, size, room);
    if (lines.size() < 2) return lines;
    float low = 0;
    for (const std::string& word : wrapText(text, size, 1))  // one word a line
        low = std::max(low, estimateTextWidth(word, size));
    float high = room;
    for (int i = 0; i < 14 && high - low > 0.5f; ++i) {
        const float mid = (low + high) / 2;
        if (wrapText(text, size, mid).size() <= lines.size())
            high = mid;
        else
            low = mid;
    }
    std::vector<std::string> even = wrapText(text, size, high);
    return even.size() <= lines.size() ? even : lines;
}

}  // namespace

float plotTitleFloor(const Theme& theme) {
    return std::max({theme.fontSize, theme.minTextSize, scaledMinTextPx(theme)});
}

float titleWrapBelow(const Theme& theme) {
    if (!(theme.titleSize > 0)) return 1;
    return std::clamp(plotTitleFloor(theme) / (kPlotTitleStep * theme.titleSize), kTitleWrapBelow,
                      1.f);
}

float plotTitleCap(const Figure& figure, const Theme& theme) {
    if (!(figure.titleSize > 0)) return 0;
    return std::min(figure.titleSize,
                    std::max(kPlotTitleStep * figure.titleSize, plotTitleFloor(theme)));
}

namespace {

// `title` in at most maxLines lines of at most `room` at `size`, broken where titleBreak breaks
// (the widest line that does not fit split again), else as wrapText wraps it with the lines made
// even; empty when neither fits.
std::vector<std::string> brokenTitle(const std::string& title, float size, float room,
                                     int maxLines) {
    auto fits = [&](const std::vector<std::string>& lines) {
        if (lines.empty() || int(lines.size()) > maxLines) return false;
        for (const std::string& line : lines)
            if (estimateTextWidth(line, size) > room) return false;
        return true;
    };
    std::vector<std::string> lines{title};
    while (!fits(lines) && int(lines.size()) < maxLines) {
        std::size_t widest = 0;
        for (std::size_t i = 1; i < lines.size(); ++i)
            if (estimateTextWidth(lines[i], size) > estimateTextWidth(lines[widest], size))
                widest = i;
        const std::size_t split = titleBreak(lines[widest]);
        if (split == std::string::npos) break;
        auto [head, tail] = titleHalves(lines[widest], split);
        lines[widest] = std::move(head);
        lines.insert(lines.begin() + std::ptrdiff_t(widest) + 1, std::move(tail));
    }
    if (fits(lines)) return lines;
    // Lines made even: a greedy wrap left "cos ωp" alone under a full second line.
    std::vector<std::string> wrapped = balancedWrap(title, size, room);
    return fits(wrapped) ? wrapped : std::vector<std::string>{};
}

}  // namespace

WrappedTitle wrappedTitleLines(const std::string& title, float width, const Theme& theme) {
    const float room = width - theme.titleSize;
    // One line shrunk below titleWrapBelow reads as small text beside the plot titles a step
    // below it. A narrow window needs the height more than the title its size; a file whose
    // height follows its width (Theme::panelRoom: a one-column print) has it.
    const float lowest = theme.titleSize * titleWrapBelow(theme);
    if (title.empty() || (width < 24 * theme.titleSize && !theme.panelRoom) ||
        estimateTextWidth(title, lowest) <= room)
        return {};
    // The fewest lines, at the largest size down to `lowest` that holds them: a title wraps
    // before it shrinks, and shrinks a little before it takes a third line.
    for (int lines = 2; lines <= kTitleMaxLines; ++lines) {
        for (const float scale : {1.f, 0.98f, 0.96f, 0.94f, 0.f}) {
            const float size = std::max(lowest, theme.titleSize * scale);
            std::vector<std::string> broken = brokenTitle(title, size, room, lines);
            if (!broken.empty()) return {std::move(broken), size};
            if (size <= lowest) break;
        }
    }
    return {};
}

float wrappedTitleBand(const Theme& theme, const WrappedTitle& title) {
    const std::size_t lines = std::max<std::size_t>(1, title.lines.size());
    return theme.titleSize * kTitleBandLines + float(lines - 1) * kTitleLineStep * title.size;
}

FittedText fittedTitle(const std::string& title, float width, const Theme& theme) {
    return fitText(title, theme.titleSize, width - theme.titleSize, titleMinScale(theme));
}

int drawTitleText(Figure& figure, Box area, const std::string& title, const Theme& theme) {
    const float room = area.width - theme.titleSize;
    const float x = area.x + area.width / 2, top = area.y + theme.titleSize * 0.2f;
    // Two or three lines at (nearly) full size where the view kept the band for them
    // (titleBandHeight with the title): a title shrunk to one line would read no larger than
    // the plot titles under it (#28).
    if (area.height >= theme.titleSize * (kTitleBandLines + kTitleLineStep * kTitleWrapBelow)) {
        const WrappedTitle full = wrappedTitleLines(title, area.width, theme);
        if (full.lines.size() >= 2 && area.height >= wrappedTitleBand(theme, full) - 0.01f) {
            for (std::size_t i = 0; i < full.lines.size(); ++i) {
                figure.add(makeText({x, top + float(i) * full.size * kTitleLineStep}, full.lines[i],
                                    full.size, theme.text, HorizontalAlign::Center,
                                    VerticalAlign::Top));
            }
            return int(full.lines.size());
        }
    }
    FittedText fitted = fittedTitle(title, area.width, theme);
    if (fitted.text != title) {
        // Too long for one line even shrunk (a one-column print): two lines in the band the
        // views keep (titleBandHeight: 1.8 title sizes; two lines of 0.74 fill it), not cut.
        const float size = atLeastMinText(theme.titleSize * 0.74f, theme);
        // Balanced halves (the space nearest the middle) when they fit, else words as they come.
        const std::size_t split = titleBreak(title);
        const auto [head, tail] = titleHalves(title, split);
        std::vector<std::string> lines = wrapText(title, size, room);
        if (split != std::string::npos && estimateTextWidth(head, size) <= room &&
            estimateTextWidth(tail, size) <= room)
            lines = {head, tail};
        if (lines.size() == 2 && estimateTextWidth(lines[0], size) <= room &&
            estimateTextWidth(lines[1], size) <= room) {
            for (std::size_t i = 0; i < 2; ++i) {
                figure.add(makeText({x, top + float(i) * size * 1.15f}, lines[i], size, theme.text,
                                    HorizontalAlign::Center, VerticalAlign::Top));
            }
            return 2;
        }
    }
    // 0.2 of a line from the top: the plot's top tick label, half a line above the plot (at
    // 1.7 lines), stays clear of it.
    figure.add(makeText({x, top}, fitted.text, fitted.size, theme.text, HorizontalAlign::Center,
                        VerticalAlign::Top));
    return 1;
}

TitleLines plotTitleLines(const std::string& title, float width, float plotHeight,
                          const Theme& theme, bool wrapAtFullSize) {
    TitleLines out;
    if (title.empty()) return out;
    const float room = width - theme.titleSize;
    const float minScale = titleMinScale(theme);
    // Two lines when one would shrink below 90 % (or at all: wrapAtFullSize), or below the
    // theme's floor (a print's 8 pt, where fitText could only cut).
    const std::size_t split =
        estimateTextWidth(title,
                          theme.titleSize * std::max(wrapAtFullSize ? 1.f : 0.9f, minScale)) > room
            ? titleBreak(title)
            : std::string::npos;
    const float line = theme.titleSize * 1.15f;
    if (split == std::string::npos || plotHeight - line < theme.fontSize * 4) {
        out.lines.push_back(fitText(title, theme.titleSize, room, minScale));
        out.cut = out.lines.back().text != title;
        return out;
    }
    const float halfMin = std::clamp(theme.minTextSize / theme.titleSize, 0.75f, 1.f);
    const auto [head, tail] = titleHalves(title, split);
    FittedText first = fitText(head, theme.titleSize, room, halfMin);
    FittedText second = fitText(tail, theme.titleSize, room, halfMin);
    const float size = std::min(first.size, second.size);
    const float sameMin = std::clamp(theme.minTextSize / size, 0.75f, 1.f);
    first = fitText(first.text, size, room, sameMin);
    second = fitText(second.text, size, room, sameMin);
    if (first.text != head || second.text != tail) {
        // Cut in two halves (a one-column print): three lines of whole words at 3/4 size, where
        // the plot keeps room for its text, rather than "…"; four at print sizes, whose 8 pt
        // floor keeps the lines from shrinking.
        const float small = atLeastMinText(theme.titleSize * 0.75f, theme);
        const std::vector<std::string> words = balancedWrap(title, small, room);
        bool whole = words.size() <= (theme.minTextSize > 0 ? 4u : 3u);
        for (const std::string& word : words)
            whole = whole && estimateTextWidth(word, small) <= room;
        if (whole && plotHeight - small * 1.15f * float(words.size() - 1) >= theme.fontSize * 4) {
            for (const std::string& word : words) out.lines.push_back({word, small});
            out.step = small * 1.15f;
            out.extra = out.step * float(words.size() - 1);
            return out;
        }
    }
    out.cut = first.text != head || second.text != tail;
    out.lines = {first, second};
    out.extra = out.step = size * 1.15f;
    return out;
}

void drawTitleLines(Figure& figure, Box area, const TitleLines& title, const Theme& theme) {
    float y = area.y + theme.titleSize * 0.2f;
    for (const FittedText& line : title.lines) {
        // A step below the figure's title (Figure::titleSize; plotTitleCap).
        const float cap = plotTitleCap(figure, theme);
        const float size = cap > 0 ? std::min(line.size, cap) : line.size;
        figure.add(makeText({area.x + area.width / 2, y}, line.text, size, theme.text,
                            HorizontalAlign::Center, VerticalAlign::Top));
        y += title.step;
    }
}

}  // namespace plot_parts

float titleBandHeight(const Theme& theme, float lines) {
    return theme.titleMode == TitleMode::Hidden ? 0 : theme.titleSize * lines;
}

float titleBandHeight(const Theme& theme, const std::string& title, float width, float height) {
    if (theme.titleMode == TitleMode::Hidden) return 0;
    if (!(height >= 15 * theme.titleSize)) return titleBandHeight(theme);
    const bool replaced =
        theme.titleMode == TitleMode::Replace && theme.titleTarget != TitleTarget::PanelTitles;
    const std::string& drawn = replaced ? theme.titleText : title;
    const plot_parts::WrappedTitle wrapped = plot_parts::wrappedTitleLines(drawn, width, theme);
    const bool twoLines = wrapped.lines.size() >= 2;
    // Too long for one line even shrunk, a title is two lines at 3/4 size (drawTitleText), which
    // fill the band of one to its edge and touch the first panel's title. In a file whose height
    // follows its width (a one-column print: Theme::panelRoom) the band grows by the second
    // line's step, which keeps the gap a one-line title leaves; a window keeps its height for
    // the panels.
    if (!twoLines && theme.panelRoom && !drawn.empty() &&
        plot_parts::fittedTitle(drawn, width, theme).text != drawn)
        return theme.titleSize * plot_parts::kTitleBandLines +
               atLeastMinText(theme.titleSize * 0.74f, theme) * plot_parts::kTitleLineStep;
    return plot_parts::wrappedTitleBand(theme, wrapped);
}

Box belowTitleBand(Box area, const std::string& title, const Theme& theme) {
    const float band =
        std::min(area.height, titleBandHeight(theme, title, area.width, area.height));
    return {area.x, area.y + band, area.width, area.height - band};
}

Box drawTitleBand(Figure& figure, Box area, const std::string& title, const Theme& theme) {
    const Box below = belowTitleBand(area, title, theme);
    drawTitle(figure, {area.x, area.y, area.width, below.y - area.y}, title, theme);
    return below;
}

int drawTitle(Figure& figure, Box area, const std::string& title, const Theme& theme) {
    const bool first = figure.figureTitles++ == 0;
    // The first is the figure's title: its size is recorded (the smallest of its lines); later
    // ones (a subtitle, a panel's title) are set a step below it (plotTitleCap).
    Theme capped = theme;
    if (const float cap = plot_parts::plotTitleCap(figure, theme); !first && cap > 0)
        capped.titleSize = std::min(theme.titleSize, cap);
    const std::size_t before = figure.items.size();
    auto recorded = [&](int lines) {
        if (!first) return lines;
        for (std::size_t i = before; i < figure.items.size(); ++i)
            if (const auto* text = std::get_if<TextItem>(&figure.items[i]))
                figure.titleSize =
                    figure.titleSize > 0 ? std::min(figure.titleSize, text->size) : text->size;
        return lines;
    };
    switch (theme.titleMode) {
        case TitleMode::Hidden:
            return 0;
        case TitleMode::Replace:
            // The first figure title becomes the given text; later lines (a subtitle) go.
            if (theme.titleTarget == TitleTarget::PanelTitles) break;
            if (!first) return 0;
            return recorded(plot_parts::drawTitleText(figure, area, theme.titleText, theme));
        case TitleMode::Auto:
            break;
    }
    return recorded(plot_parts::drawTitleText(figure, area, title, capped));
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

}  // namespace poslab
