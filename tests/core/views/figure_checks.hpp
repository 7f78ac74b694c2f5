// figure_checks.hpp — what the view and figure tests look for in a built Figure: its texts, how
// many heatmaps and curves it holds, and whether its labels stay inside it (textExtent).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <future>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "poslab/figure/figure.hpp"
#include "poslab/figure/legend.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "poslab/figure/text_fit.hpp"

namespace poslab {

struct Counts {
    int heatmaps = 0, polylines = 0, texts = 0;
    bool insideFigure = true;
};

// Counts the items, failing the test on an empty heatmap or a non-finite curve point.
inline Counts count(const Figure& figure) {
    Counts c;
    auto inside = [&](Point p) {
        if (p.x < -1 || p.y < -1 || p.x > figure.width + 1 || p.y > figure.height + 1)
            c.insideFigure = false;
    };
    for (const FigureItem& item : figure.items) {
        if (const auto* h = std::get_if<HeatmapItem>(&item)) {
            ++c.heatmaps;
            if (!h->values || h->values->empty()) ADD_FAILURE() << "empty heatmap";
        } else if (const auto* p = std::get_if<PolylineItem>(&item)) {
            ++c.polylines;
            for (Point q : p->points) {
                if (!std::isfinite(q.x) || !std::isfinite(q.y)) ADD_FAILURE() << "non-finite point";
            }
        } else if (const auto* t = std::get_if<TextItem>(&item)) {
            ++c.texts;
            inside(t->anchor);
        }
    }
    return c;
}

// Runs `call` on another thread and fails (instead of hanging the suite) past `seconds`.
template <typename Call>
void finishesPromptly(Call call, int seconds = 10) {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
    // The wasm test build has no threads (./dev web-test): the call runs here, unwatched.
    (void)seconds;
    call();
    return;
#endif
    auto done = std::async(std::launch::async, call);
    if (done.wait_for(std::chrono::seconds(seconds)) == std::future_status::ready) return;
    // A hung loop cannot be stopped; report it and end the test run here.
    ADD_FAILURE() << "did not finish within " << seconds << " s";
    std::_Exit(1);
}

// Every coordinate of every item is finite (a NaN tick or texel position draws nowhere, or
// everywhere, depending on the renderer).
inline bool allCoordinatesFinite(const Figure& figure) {
    auto finite = [](Point p) { return std::isfinite(p.x) && std::isfinite(p.y); };
    auto finiteBox = [&](Box b) {
        return finite({b.x, b.y}) && std::isfinite(b.width) && std::isfinite(b.height);
    };
    for (const FigureItem& item : figure.items) {
        bool ok = true;
        if (const auto* t = std::get_if<TextItem>(&item))
            ok = finite(t->anchor);
        else if (const auto* l = std::get_if<LineItem>(&item))
            ok = finite(l->from) && finite(l->to);
        else if (const auto* r = std::get_if<RectItem>(&item))
            ok = finiteBox(r->box);
        else if (const auto* h = std::get_if<HeatmapItem>(&item))
            ok = finiteBox(h->box);
        else if (const auto* c = std::get_if<CircleItem>(&item))
            ok = finite(c->center);
        else if (const auto* p = std::get_if<PolylineItem>(&item)) {
            for (Point q : p->points) ok = ok && finite(q);
        }
        if (!ok) return false;
    }
    return true;
}

// The horizontal extent [left, right] of a text item, by the same estimate the layout uses.
inline std::pair<float, float> textExtent(const TextItem& t) {
    const float width = estimateTextWidth(t.text, t.size);
    switch (t.horizontal) {
        case HorizontalAlign::Left:
            return {t.anchor.x, t.anchor.x + width};
        case HorizontalAlign::Center:
            return {t.anchor.x - width / 2, t.anchor.x + width / 2};
        default:
            return {t.anchor.x - width, t.anchor.x};
    }
}

inline std::vector<std::string> texts(const Figure& figure) {
    std::vector<std::string> out;
    for (const FigureItem& item : figure.items) {
        if (auto* text = std::get_if<TextItem>(&item)) out.push_back(text->text);
    }
    return out;
}

// Every item of one kind, in drawing order.
template <class Item>
std::vector<const Item*> itemsOf(const Figure& figure) {
    std::vector<const Item*> found;
    for (const FigureItem& item : figure.items) {
        if (auto* typed = std::get_if<Item>(&item)) found.push_back(typed);
    }
    return found;
}

// Whether one text item contains `part`.
inline bool hasText(const Figure& figure, const std::string& part) {
    for (const std::string& t : texts(figure)) {
        if (t.find(part) != std::string::npos) return true;
    }
    return false;
}

// Every text of a figure joined by spaces (paragraphs wrap a sentence over several items).
inline std::string allText(const Figure& figure) {
    std::string out;
    for (const std::string& t : texts(figure)) out += t + " ";
    return out;
}

// What --check-layout reports for one figure at every window size, a line each: texts over one
// another or past the figure's edge, texts and legends over data marks (texts cut with "…" it
// counts from 1024x768 up: cutTexts). Empty: none.
inline std::string layoutFaults(const Figure& figure) {
    auto text = [&](std::size_t index) {
        const auto& t = std::get<TextItem>(figure.items[index]);
        const Box b = textBox(t);
        return "\"" + t.text + "\" at (" + std::to_string(int(b.x)) + ", " +
               std::to_string(int(b.y)) + ")";
    };
    std::string out;
    for (const TextOverlap& pair : overlappingTexts(figure))
        out += text(pair.first) + " overlaps " + text(pair.second) + "\n";
    for (std::size_t index : textsOutsideFigure(figure)) out += text(index) + " is outside\n";
    for (const TextOverMark& over : textsOverMarks(figure))
        out += text(over.text) + " hides data\n";
    for (const LegendOverMark& over : legendsOverMarks(figure))
        out += "a legend (item " + std::to_string(over.legend) + ") hides data\n";
    return out;
}

// The texts cut short with "…" (text_boxes' cutTexts), as they read: a test's failure names them.
// Texts left out for want of room (Figure::leftOut: a legend's keys) follow, as "left out: "
// and the text, since the layout check counts them as cut too.
inline std::vector<std::string> textsCutShort(const Figure& figure) {
    std::vector<std::string> out;
    for (std::size_t index : cutTexts(figure))
        out.push_back(std::get<TextItem>(figure.items[index]).text);
    for (const LeftOutText& left : figure.leftOut) out.push_back("left out: " + left.text);
    return out;
}

// The title over the whole figure is never set smaller than the titles of the plots under it
// (#28: Near-orthogonality's at one column, shrunk onto two lines, read as a caption). Its lines:
// the centred texts drawn before the first plot, above every plot's area; a plot's title lines:
// the centred texts of its items above its data area. Empty: none smaller (or no such title).
inline std::string titleSmallerThanPanels(const Figure& figure) {
    if (figure.panels.empty()) return {};
    float top = figure.height;
    for (const PanelSpan& panel : figure.panels) top = std::min(top, panel.area.y);
    auto centredTitle = [](const FigureItem& item) -> const TextItem* {
        const auto* text = std::get_if<TextItem>(&item);
        return text && !text->text.empty() && !text->vertical90 &&
                       text->horizontal == HorizontalAlign::Center &&
                       text->vertical == VerticalAlign::Top
                   ? text
                   : nullptr;
    };
    float figureTitle = 0;  // its smallest line
    for (std::size_t i = 0; i < figure.panels.front().begin; ++i)
        if (const TextItem* text = centredTitle(figure.items[i]); text && text->anchor.y < top)
            figureTitle = figureTitle > 0 ? std::min(figureTitle, text->size) : text->size;
    if (figureTitle <= 0) return {};
    for (const PanelSpan& panel : figure.panels) {
        if (panel.plot.height <= 0) continue;
        for (std::size_t i = panel.begin; i < panel.end && i < figure.items.size(); ++i) {
            const TextItem* text = centredTitle(figure.items[i]);
            if (text && text->anchor.y >= panel.area.y && text->anchor.y < panel.plot.y &&
                text->size > figureTitle + 1e-3f)
                return "the figure title (" + std::to_string(figureTitle) +
                       " px) is smaller than the plot title \"" + text->text + "\" (" +
                       std::to_string(text->size) + " px)";
        }
    }
    return {};
}

// #28: the figure title and its plots' titles read as two levels, not one block. The figure
// title's lines as titleSmallerThanPanels finds them; every plot title at most `step` times its
// smallest line (a step smaller, as the shared title code sets them: 0.88), and at least half
// an em of the figure title between its last line and the highest text below it. Empty: both
// hold (or the figure has no title over its plots).
inline std::string titleHierarchyFaults(const Figure& figure, float step = 0.9f) {
    if (figure.panels.empty()) return {};
    float top = figure.height;
    for (const PanelSpan& panel : figure.panels) top = std::min(top, panel.area.y);
    auto centredTitle = [](const FigureItem& item) -> const TextItem* {
        const auto* text = std::get_if<TextItem>(&item);
        return text && !text->text.empty() && !text->vertical90 &&
                       text->horizontal == HorizontalAlign::Center &&
                       text->vertical == VerticalAlign::Top
                   ? text
                   : nullptr;
    };
    float figureTitle = 0, titleBottom = 0;
    std::vector<std::size_t> titleItems;
    for (std::size_t i = 0; i < figure.panels.front().begin; ++i)
        if (const TextItem* text = centredTitle(figure.items[i]); text && text->anchor.y < top) {
            figureTitle = figureTitle > 0 ? std::min(figureTitle, text->size) : text->size;
            titleBottom = std::max(titleBottom, textBox(*text).bottom());
            titleItems.push_back(i);
        }
    if (figureTitle <= 0) return {};
    std::string out;
    for (const PanelSpan& panel : figure.panels) {
        if (panel.plot.height <= 0) continue;
        for (std::size_t i = panel.begin; i < panel.end && i < figure.items.size(); ++i) {
            const TextItem* text = centredTitle(figure.items[i]);
            if (text && text->anchor.y >= panel.area.y && text->anchor.y < panel.plot.y &&
                text->size > step * figureTitle + 1e-3f)
                out += "the plot title \"" + text->text + "\" (" + std::to_string(text->size) +
                       " px) is not a step below the figure title (" + std::to_string(figureTitle) +
                       " px)\n";
        }
    }
    float next = figure.height;
    for (std::size_t i = 0; i < figure.items.size(); ++i) {
        const auto* text = std::get_if<TextItem>(&figure.items[i]);
        if (!text || text->text.empty() ||
            std::find(titleItems.begin(), titleItems.end(), i) != titleItems.end())
            continue;
        next = std::min(next, textBox(*text).y);
    }
    if (next - titleBottom < 0.5f * figureTitle - 1e-3f)
        out += "the first text below the figure title is " + std::to_string(next - titleBottom) +
               " px under it (half an em: " + std::to_string(0.5f * figureTitle) + " px)\n";
    return out;
}

// The legend boxes drawn in a panel, each with the lines of text in it: one a key while every
// name reads whole (a wrapped name takes two or more).
struct PanelLegend {
    Box box;
    std::size_t lines = 0;
};
inline std::vector<PanelLegend> panelLegends(const Figure& figure, const PanelSpan& span) {
    std::vector<PanelLegend> legends;
    for (std::size_t i = span.begin; i < span.end; ++i) {
        const auto* rect = std::get_if<RectItem>(&figure.items[i]);
        if (!rect || !rect->legend) continue;
        PanelLegend legend{rect->box};
        for (std::size_t j = span.begin; j < span.end; ++j) {
            const auto* text = std::get_if<TextItem>(&figure.items[j]);
            if (!text || text->text.empty()) continue;
            const Box b = textBox(*text);
            legend.lines += rect->box.contains({b.x + b.width / 2, b.y + b.height / 2});
        }
        legends.push_back(legend);
    }
    return legends;
}

inline int heatmapCount(const Figure& figure) {
    int count = 0;
    for (const FigureItem& item : figure.items) count += std::holds_alternative<HeatmapItem>(item);
    return count;
}

}  // namespace poslab
