#include "poslab/figure/legend.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "plot_parts.hpp"
#include "poslab/figure/text_boxes.hpp"

namespace poslab {

namespace {

// A legend's keys laid out: each name whole on one line when it fits `room` px, else wrapped
// onto more (a single word too wide shrinks, then ends in "…"); the keys in columns filled top
// to bottom, each column as wide as its names, all of them within `width` and `height`. One
// column (what fits no other way, and every legend given width 0) keeps the keys that fit
// `height` and leaves the rest out: the caller counts `lines` against the keys. Of the column
// counts that hold every key, `shape` picks the fewest columns (a plot too short for a column
// of its keys: the keys side by side rather than dropped, the box as narrow as it can be) or
// the fewest rows (a legend below its plot: the shorter, the taller the plot; rows filled left
// to right where that takes fewer rows than columns do).
enum class LegendShape { FewestColumns, FewestRows };
struct LegendRows {
    std::vector<std::vector<FittedText>> lines;  // per key shown
    std::vector<Point> at;                       // per key shown: its row's top left, in the box
    float w = 0, h = 0;
};
LegendRows layoutLegend(const std::vector<LegendKey>& keys, const Theme& theme, float room,
                        float width, float height, LegendShape shape = LegendShape::FewestColumns) {
    const float chrome = strokeWidth(theme, 18) + 16;  // swatch and padding
    const float first = theme.fontSize * 1.35f, more = theme.fontSize * 1.15f;
    const std::size_t n = keys.size();
    std::vector<std::vector<FittedText>> lines;
    std::vector<float> keyWidth, keyHeight;
    for (const LegendKey& key : keys) {
        std::vector<FittedText> wrapped;
        if (estimateTextWidth(key.text, theme.fontSize) <= room + 0.5f) {
            wrapped.push_back({key.text, theme.fontSize});
        } else {
            for (const std::string& line : wrapText(key.text, theme.fontSize, room))
                wrapped.push_back(
                    fitText(line, theme.fontSize, room, readableMinScale(theme.fontSize, theme)));
        }
        if (wrapped.empty()) wrapped.push_back({"", theme.fontSize});
        float widest = 0;
        for (const FittedText& line : wrapped)
            widest = std::max(widest, estimateTextWidth(line.text, line.size));
        keyWidth.push_back(widest + chrome);
        keyHeight.push_back(first + more * float(wrapped.size() - 1));
        lines.push_back(std::move(wrapped));
    }
    // Keys per column: every key in ceil(n / columns) rows, the columns as wide as their names.
    std::size_t perColumn = n;
    auto fits = [&](std::size_t per) {
        float total = 0, tallest = 0;
        for (std::size_t begin = 0; begin < n; begin += per) {
            float wide = 0, tall = 8;
            for (std::size_t k = begin; k < std::min(n, begin + per); ++k)
                wide = std::max(wide, keyWidth[k]), tall += keyHeight[k];
            total += wide;
            tallest = std::max(tallest, tall);
        }
        return total <= width + 0.5f && tallest <= height;
    };
    for (std::size_t step = 2; step <= n; ++step) {
        const std::size_t columns = shape == LegendShape::FewestColumns ? step : n + 2 - step;
        const std::size_t per = (n + columns - 1) / columns;
        if (per < perColumn && fits(per)) {
            perColumn = per;
            if (shape == LegendShape::FewestColumns) break;
        }
        if (shape == LegendShape::FewestRows && perColumn < n) break;
    }
    if (shape == LegendShape::FewestRows && n > 1) {
        // Rows filled left to right, each key as wide as its name, a new row where the next
        // does not fit: fewer rows than columns as wide as their widest names where the names
        // differ in length (six scalings below a one-column plot: four rows, not six), and
        // taken only then (aligned columns read more easily).
        LegendRows flow;
        float x = 0, top = 4, rowHeight = 0;
        for (std::size_t k = 0; k < n; ++k) {
            if (x > 0 && x + keyWidth[k] > width + 0.5f) top += rowHeight, x = 0, rowHeight = 0;
            flow.at.push_back({x, top});
            x += keyWidth[k];
            rowHeight = std::max(rowHeight, keyHeight[k]);
            flow.w = std::max(flow.w, x);
        }
        flow.h = top + rowHeight + 4;
        float gridHeight = 0;
        for (std::size_t begin = 0; begin < n; begin += perColumn) {
            float tall = 8;
            for (std::size_t k = begin; k < std::min(n, begin + perColumn); ++k)
                tall += keyHeight[k];
            gridHeight = std::max(gridHeight, tall);
        }
        if (flow.h < gridHeight - 0.5f && flow.h <= height) {
            flow.lines = std::move(lines);
            return flow;
        }
    }
    LegendRows rows;
    float x = 0, used = 8, wide = 0;
    for (std::size_t k = 0; k < n; ++k) {
        if (k > 0 && k % std::max<std::size_t>(1, perColumn) == 0) x += wide, wide = 0, used = 8;
        if (used + keyHeight[k] > height) break;  // one column: the keys that fit
        rows.at.push_back({x, used - 4});
        used += keyHeight[k];
        wide = std::max(wide, keyWidth[k]);
        rows.h = std::max(rows.h, used);
        rows.lines.push_back(std::move(lines[k]));
    }
    rows.w = x + wide;
    if (rows.h == 0) rows.h = 8;
    return rows;
}

// Every key, one line each, in as few columns as fit `height` and `width`; else, with `wrap`, the
// names wrapped to the share of `width` two, three, ... columns leave each; empty when even that
// does not fit (or there is one key: wrapping it in one column is the better choice).
std::optional<LegendRows> layoutLegendColumns(const std::vector<LegendKey>& keys,
                                              const Theme& theme, float width, float height,
                                              bool wrap) {
    if (keys.size() < 2) return std::nullopt;
    LegendRows rows = layoutLegend(keys, theme, INFINITY, width, height);
    if (rows.lines.size() == keys.size() && rows.w <= width + 0.5f) return rows;
    if (!wrap) return std::nullopt;
    const float chrome = strokeWidth(theme, 18) + 16;
    for (std::size_t columns = 2; columns <= keys.size(); ++columns) {
        const float room = width / float(columns) - chrome;
        if (room < theme.fontSize * 3) break;  // a word or two a line: no longer a legend
        LegendRows wrapped = layoutLegend(keys, theme, room, width, height);
        if (wrapped.lines.size() == keys.size() && wrapped.w <= width + 0.5f) return wrapped;
    }
    return std::nullopt;
}

}  // namespace

namespace plot_parts {

std::optional<Box> legendPlace(const Figure& figure, const PlotFrame& frame, float w, float h,
                               Box first, float topInset) {
    const Box& p = frame.plot;
    const Box within{p.x + 4, p.y + 4 + topInset, p.width - 8, p.height - 8 - topInset};
    const std::vector<Box> corners = {first,
                                      {p.right() - w - 6, p.y + 6 + topInset, w, h},
                                      {p.x + 6, p.y + 6 + topInset, w, h},
                                      {p.right() - w - 6, p.bottom() - h - 6, w, h},
                                      {p.x + 6, p.bottom() - h - 6, w, h}};
    return placeFree(figure, within, w, h, corners);
}

float legendColumnsWidth(const std::vector<LegendKey>& keys, const Theme& theme, float height) {
    const LegendRows column = layoutLegend(keys, theme, INFINITY, 0, height);
    if (column.lines.size() == keys.size()) return column.w;
    const LegendRows columns = layoutLegend(keys, theme, INFINITY, INFINITY, height);
    return columns.lines.size() == keys.size() ? columns.w : INFINITY;
}

float legendRowsHeight(const std::vector<LegendKey>& keys, const Theme& theme, float width) {
    const float chrome = strokeWidth(theme, 18) + 16;
    return layoutLegend(keys, theme, std::max(1.f, width - chrome), width, INFINITY,
                        LegendShape::FewestRows)
        .h;
}

std::optional<Box> drawLegendRows(Figure& figure, const PlotFrame& frame,
                                  const std::vector<LegendKey>& keys, const Theme& theme,
                                  const FreePlace& freePlace, const Fallback& fallback,
                                  float topInset, bool wrapColumns) {
    const bool outside = frame.legendColumn.width > 0;
    const float swatch = strokeWidth(theme, 18);  // the line sample before each name
    const float chrome = swatch + 16;
    std::optional<LegendRows> rows;
    Box box;
    if (outside && frame.legendColumn.y >= frame.plot.bottom()) {
        // Below the plot: side by side in as many columns as the width holds, as
        // legendRowsHeight measured the room, the block centred in it.
        rows = layoutLegend(keys, theme, std::max(1.f, frame.legendColumn.width - chrome),
                            frame.legendColumn.width, INFINITY, LegendShape::FewestRows);
        box = {frame.legendColumn.x + std::max(0.f, (frame.legendColumn.width - rows->w) / 2),
               frame.legendColumn.y, rows->w, rows->h};
    } else if (outside) {
        rows = layoutLegend(keys, theme, std::max(1.f, frame.legendColumn.width - chrome), 0,
                            frame.legendColumn.height);
        // A column too short for every key (a short plot): side by side, as wide as it is.
        if (rows->lines.size() < keys.size()) {
            if (auto columns = layoutLegendColumns(keys, theme, frame.legendColumn.width,
                                                   frame.legendColumn.height, wrapColumns))
                rows = std::move(columns);
        }
        box = {frame.legendColumn.x, frame.legendColumn.y, rows->w, rows->h};
    } else {
        const float full = std::max(1.f, frame.plot.width - 12 - chrome);
        const float height = frame.plot.height - 12 - topInset;
        for (float fraction : {1.f, 0.5f, 0.34f}) {
            const float room = std::max(full * fraction, theme.fontSize * 6);
            if (fraction < 1 && room >= full) break;
            LegendRows tried = layoutLegend(keys, theme, room, 0, height);
            if (tried.lines.size() < keys.size() && fraction < 1) continue;
            if (tried.lines.empty()) continue;
            if (auto free = freePlace(tried.w, tried.h)) {
                rows = std::move(tried);
                box = *free;
                break;
            }
        }
        if (!rows || rows->lines.size() < keys.size()) {
            // Too short for a column of every key: side by side, placed as freely.
            if (auto columns =
                    layoutLegendColumns(keys, theme, frame.plot.width - 12, height, wrapColumns)) {
                if (auto free = freePlace(columns->w, columns->h)) {
                    rows = std::move(columns);
                    box = *free;
                } else if (!rows) {
                    rows = std::move(columns);
                    box = fallback(rows->w, rows->h);
                }
            }
        }
        if (!rows || rows->lines.size() < keys.size()) {
            // No free place holds every key: the caller's fallback (drawLinePlot moves the
            // legend outside), never a free place that silently drops keys.
            rows = layoutLegend(keys, theme, full, 0, height);
            box = fallback(rows->w, rows->h);
        }
    }
    // Keys no layout here could hold are recorded: the layout check counts them as cut text.
    for (std::size_t k = rows->lines.size(); k < keys.size(); ++k) figure.leaveOut(keys[k].text);
    if (rows->lines.empty()) return std::nullopt;
    RectItem background;
    background.box = box;
    background.fill = withAlpha(theme.plotBackground, 225);
    background.stroke = theme.grid;
    background.legend = true;
    figure.add(background);
    // The swatches are the legend's, not data: no marks (the layout check would find the box
    // over its own dots).
    const bool recording = figure.recordingMarks;
    figure.recordingMarks = false;
    const float first = theme.fontSize * 1.35f, more = theme.fontSize * 1.15f;
    for (std::size_t shown = 0; shown < rows->lines.size(); ++shown) {
        const LegendKey& key = keys[shown];
        const float x = box.x + rows->at[shown].x;
        const float cy = box.y + rows->at[shown].y + first / 2;
        if (!key.swatch) {
            // The text alone, where the swatch would be indented as the others are.
        } else if (key.dot) {
            CircleItem dot;
            dot.center = {x + 6 + swatch / 2, cy};
            dot.radius = strokeWidth(theme, 4);
            dot.fill = key.color;
            figure.add(dot);
        } else {
            figure.add(LineItem{{x + 6, cy},
                                {x + 6 + swatch, cy},
                                key.color,
                                strokeWidth(theme, key.dashed ? 1.5f : 2.5f),
                                key.dashed});
        }
        float y = cy;
        for (const FittedText& line : rows->lines[shown]) {
            figure.add(makeText({x + 11 + swatch, y}, line.text, line.size, theme.text,
                                HorizontalAlign::Left, VerticalAlign::Middle));
            y += more;
        }
    }
    figure.recordingMarks = recording;
    return box;
}

}  // namespace plot_parts

std::optional<Box> drawLegendAfter(Figure& figure, const PlotFrame& frame,
                                   const std::vector<LegendKey>& keys, LegendCorner corner,
                                   float topInset, const Theme& theme) {
    if (keys.empty() || theme.legend == LegendPlacement::None) return std::nullopt;
    const Box& p = frame.plot;
    auto asked = [&](float w, float h) {
        return corner == LegendCorner::TopRight ? Box{p.right() - w - 6, p.y + 6 + topInset, w, h}
                                                : Box{p.right() - w - 6, p.bottom() - h - 6, w, h};
    };
    return plot_parts::drawLegendRows(
        figure, frame, keys, theme,
        [&](float w, float h) {
            return plot_parts::legendPlace(figure, frame, w, h, asked(w, h), topInset);
        },
        asked, topInset, frame.legendWrapNames);
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
        // Of the corners over no text, the one over the fewest marks (the first when they tie):
        // a note in a crowded plot hides as little of the data as it can.
        int fewest = INT_MAX;
        for (const Box& corner :
             {Box{p.x + 6, p.y + 6, w, h}, Box{p.right() - w - 6, p.y + 6, w, h},
              Box{p.x + 6, p.bottom() - h - 6, w, h},
              Box{p.right() - w - 6, p.bottom() - h - 6, w, h}}) {
            bool clear = corner.y >= p.y;
            for (const Box& t : texts) clear = clear && !boxesOverlap(corner, t, 1);
            if (!clear) continue;
            const int covered = marksCovered(figure, corner);
            if (covered < fewest) {
                box = corner;
                fewest = covered;
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

std::vector<LegendOverMark> legendsOverMarks(const Figure& figure, float tolerance) {
    std::vector<LegendOverMark> over;
    for (std::size_t i = 0; i < figure.items.size(); ++i) {
        const auto* rect = std::get_if<RectItem>(&figure.items[i]);
        if (!rect || !rect->legend) continue;
        for (std::size_t m = 0; m < figure.marks.size(); ++m) {
            if (boxCoversMark(rect->box, figure.marks[m], tolerance)) {
                over.push_back({i, m});
                break;
            }
        }
    }
    return over;
}

float legendBoxWidth(const std::vector<LegendKey>& keys, const Theme& theme) {
    float widest = 0;
    for (const LegendKey& key : keys)
        widest = std::max(widest, estimateTextWidth(key.text, theme.fontSize));
    return keys.empty() ? 0 : widest + strokeWidth(theme, 18) + 16;
}

}  // namespace poslab
