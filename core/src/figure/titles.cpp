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

std::vector<std::string> fullSizeTitleLines(const std::string& title, float width,
                                            const Theme& theme) {
    const float room = width - theme.titleSize;
    // One line shrunk below this reads as small text (the presentation check wants 80 %).
    // A narrow figure (a small window's) needs the height more than the title its size.
    if (title.empty() || width < 24 * theme.titleSize ||
        estimateTextWidth(title, theme.titleSize * kTitleWrapBelow) <= room)
        return {};
    const std::size_t split = titleBreak(title);
    const auto [head, tail] = titleHalves(title, split);
    std::vector<std::string> lines = wrapText(title, theme.titleSize, room);
    if (split != std::string::npos && estimateTextWidth(head, theme.titleSize) <= room &&
        estimateTextWidth(tail, theme.titleSize) <= room)
        lines = {head, tail};
    if (lines.size() != 2 || estimateTextWidth(lines[0], theme.titleSize) > room ||
        estimateTextWidth(lines[1], theme.titleSize) > room)
        return {};
    return lines;
}

FittedText fittedTitle(const std::string& title, float width, const Theme& theme) {
    return fitText(title, theme.titleSize, width - theme.titleSize, titleMinScale(theme));
}

int drawTitleText(Figure& figure, Box area, const std::string& title, const Theme& theme) {
    const float room = area.width - theme.titleSize;
    const float x = area.x + area.width / 2, top = area.y + theme.titleSize * 0.2f;
    // Two lines at full size where the view kept the band for them (titleBandHeight with the
    // title): a title shrunk to one line would read smaller than the figure's body text.
    if (area.height >= theme.titleSize * (kTitleBandLines + kTitleLineStep) - 0.01f) {
        const std::vector<std::string> full = fullSizeTitleLines(title, area.width, theme);
        if (full.size() == 2) {
            for (std::size_t i = 0; i < 2; ++i) {
                figure.add(makeText({x, top + float(i) * theme.titleSize * kTitleLineStep}, full[i],
                                    theme.titleSize, theme.text, HorizontalAlign::Center,
                                    VerticalAlign::Top));
            }
            return 2;
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
        // Never larger than the figure's title (Figure::titleSize).
        const float size = figure.titleSize > 0 ? std::min(line.size, figure.titleSize) : line.size;
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
    const bool twoLines = plot_parts::fullSizeTitleLines(drawn, width, theme).size() == 2;
    // Too long for one line even shrunk, a title is two lines at 3/4 size (drawTitleText), which
    // fill the band of one to its edge and touch the first panel's title. In a file whose height
    // follows its width (a one-column print: Theme::panelRoom) the band grows by the second
    // line's step, which keeps the gap a one-line title leaves; a window keeps its height for
    // the panels.
    if (!twoLines && theme.panelRoom && !drawn.empty() &&
        plot_parts::fittedTitle(drawn, width, theme).text != drawn)
        return theme.titleSize * plot_parts::kTitleBandLines +
               atLeastMinText(theme.titleSize * 0.74f, theme) * plot_parts::kTitleLineStep;
    return theme.titleSize *
           (plot_parts::kTitleBandLines + (twoLines ? plot_parts::kTitleLineStep : 0.f));
}

int drawTitle(Figure& figure, Box area, const std::string& title, const Theme& theme) {
    const bool first = figure.figureTitles++ == 0;
    // The first is the figure's title: its size is recorded (the smaller line of two); later
    // ones (a subtitle, a panel's title) are set no larger.
    Theme capped = theme;
    if (!first && figure.titleSize > 0)
        capped.titleSize = std::min(theme.titleSize, figure.titleSize);
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
