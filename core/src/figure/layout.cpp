#include "poslab/figure/layout.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "plot_parts.hpp"
#include "poslab/base/format.hpp"
#include "poslab/figure/text_fit.hpp"

namespace poslab {

std::shared_ptr<const Matrix> share(Matrix m) {
    return std::make_shared<const Matrix>(std::move(m));
}

void envelope(const std::vector<double>& x, const std::vector<double>& y, double low, double high,
              int pixels, std::vector<double>& outX, std::vector<double>& outY) {
    outX.clear();
    outY.clear();
    std::size_t inside = 0;
    for (double v : x) inside += v >= low && v <= high;
    if (pixels <= 0 || inside <= std::size_t(2 * pixels)) {
        for (std::size_t i = 0; i < x.size(); ++i) {
            if (x[i] >= low && x[i] <= high) outX.push_back(x[i]), outY.push_back(y[i]);
        }
        return;
    }
    int bucket = -1;
    double minY = 0, maxY = 0;
    bool any = false;
    auto flush = [&] {
        if (!any) return;
        const double centre = rangeValue((bucket + 0.5) / pixels, low, high);
        const bool rising = bucket % 2 == 0;
        outX.push_back(centre), outY.push_back(rising ? minY : maxY);
        outX.push_back(centre), outY.push_back(rising ? maxY : minY);
        any = false;
    };
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (!(x[i] >= low && x[i] <= high)) continue;
        // Fractions, not (x - low) / width: a range of +-1.7e308 has an infinite width.
        const int b = std::clamp(int(rangeFraction(x[i], low, high) * pixels), 0, pixels - 1);
        if (b != bucket) flush(), bucket = b;
        if (!std::isfinite(y[i])) {
            flush();
            outX.push_back(x[i]), outY.push_back(y[i]);  // keeps the break in the line
            continue;
        }
        if (!any) {
            minY = maxY = y[i];
            any = true;
        } else {
            minY = std::min(minY, y[i]);
            maxY = std::max(maxY, y[i]);
        }
    }
    flush();
}

double maxAbs(const Matrix& m) {
    double top = 0;
    for (double v : m.values) {
        if (std::isfinite(v)) top = std::max(top, std::abs(v));
    }
    return top;
}

// A heatmap of a whole (small) matrix, block-averaged to at most one texel per pixel.
HeatmapSpec matrixSpec(const std::string& title, const Matrix& values, Box area,
                       ColormapId colormap, ValueRange range) {
    const long long rpt = cellsPerTexel((long long)values.rows, texelBudget(area.height));
    const long long cpt = cellsPerTexel((long long)values.cols, texelBudget(area.width));
    HeatmapSpec spec;
    spec.title = title;
    spec.x = {"", 0, double(values.cols), false, true};
    spec.y = {"", 0, double(values.rows), false, true};
    if (rpt == 1 && cpt == 1) {
        spec.values = share(values);
    } else {
        spec.values = share(averageBlocks(values, rpt, cpt));
        spec.valuesRowSpan = double(((long long)values.rows + rpt - 1) / rpt * rpt);
        spec.valuesColSpan = double(((long long)values.cols + cpt - 1) / cpt * cpt);
    }
    spec.version = nextMatrixVersion();
    spec.colormap = colormap;
    spec.range = range;
    return spec;
}

Marker trainingMarker(double value, bool vertical, const Theme& theme, std::string label) {
    Marker marker;
    marker.vertical = vertical;
    marker.value = value;
    marker.label = label.empty() ? "training length " + formatValue(value) : std::move(label);
    marker.color = theme.accent;
    marker.shadeBeyond = true;
    return marker;
}

Box gridCell(Box area, int rows, int cols, int row, int col, float gap) {
    const float w = (area.width - gap * float(cols - 1)) / float(cols);
    const float h = (area.height - gap * float(rows - 1)) / float(rows);
    return {std::floor(area.x + float(col) * (w + gap)),
            std::floor(area.y + float(row) * (h + gap)), std::floor(w), std::floor(h)};
}

namespace {

struct WrappedLine {
    std::string text;
    float y = 0;  // top, from the paragraph's top
};

// Words wrapped to `width` at `size`; a blank line in the text is a short gap.
std::vector<WrappedLine> wrapWords(const std::string& text, float width, float size,
                                   float& height) {
    const float lineHeight = size * 1.3f;
    std::vector<WrappedLine> lines;
    float y = 0;
    std::istringstream paragraphs(text);
    std::string paragraph;
    while (std::getline(paragraphs, paragraph)) {
        // Words split at spaces outside $...$ only: a line holds whole maths (broken inside it,
        // "$\\mathrm{argmax}_j (x_i +" ended a line and the next ran on in maths).
        std::vector<std::string> words;
        {
            std::istringstream split(paragraph);
            std::string piece;
            bool open = false;  // an odd number of unescaped '$' so far in the word
            while (split >> piece) {
                if (open)
                    words.back() += " " + piece;
                else
                    words.push_back(piece);
                for (std::size_t k = 0; k < piece.size(); ++k)
                    if (piece[k] == '$' && (k == 0 || piece[k - 1] != '\\')) open = !open;
            }
        }
        std::string line;
        auto emit = [&] {
            lines.push_back({line, y});
            y += lineHeight;
            line.clear();
        };
        for (const std::string& word : words) {
            const std::string candidate = line.empty() ? word : line + " " + word;
            if (!line.empty() && estimateTextWidth(candidate, size) > width) emit();
            line = line.empty() ? word : line + " " + word;
        }
        if (!line.empty()) emit();
        if (paragraph.empty()) y += lineHeight * 0.4f;
    }
    height = y;
    return lines;
}

}  // namespace

float drawParagraph(Figure& figure, Box box, const std::string& text, const Theme& theme,
                    float size, Rgba color) {
    if (size <= 0) size = theme.fontSize;
    if (color.a == 0) color = theme.text;
    // A paragraph too long for its box is set smaller, down to 80 %; one still too long keeps
    // the lines that fit, the last ending in "…": a cut is visible, never silent.
    float height = 0;
    std::vector<WrappedLine> lines;
    const float fullSize = size;
    // Print's 8 pt floor (Theme::minTextSize) and a projector's (scaledMinTextPx: 80 % of the
    // scaled body text, which a paragraph set at 92 % passed at 85 %) hold while the text fits
    // at them; a paragraph that would be cut even so is set smaller instead, whole (what a view
    // sampled must be said).
    const float floorSize = std::max(theme.minTextSize, scaledMinTextPx(theme));
    bool fits = false;
    for (float scale : {1.0f, 0.95f, 0.9f, 0.85f, 0.8f}) {
        size = std::max(fullSize * scale, std::min(fullSize, floorSize));
        lines = wrapWords(text, box.width, size, height);
        if ((fits = height <= box.height + 0.5f)) break;
    }
    for (float scale : {0.9f, 0.8f, 0.7f}) {
        if (fits || fullSize * scale >= size) continue;
        size = fullSize * scale;
        lines = wrapWords(text, box.width, size, height);
        fits = height <= box.height + 0.5f;
    }
    const float lineHeight = size * 1.3f;
    std::size_t shown = 0;
    while (shown < lines.size() && lines[shown].y + lineHeight <= box.height + 0.5f) ++shown;
    for (std::size_t i = 0; i < shown; ++i) {
        std::string line = lines[i].text;
        if (i + 1 == shown && shown < lines.size())
            line = fitText(line + " …", size, box.width, 1).text;  // the sentence goes on
        figure.add(makeText({box.x, box.y + lines[i].y}, line, size, color));
    }
    return height;
}

PlotAndText splitCell(Box cell, float textFraction) {
    const float textHeight = std::floor(cell.height * textFraction);
    return {{cell.x, cell.y, cell.width, cell.height - textHeight},
            {cell.x + 6, cell.bottom() - textHeight + 2, cell.width - 12, textHeight - 2}};
}

Box drawWrappedTitle(Figure& figure, Box area, const std::string& title, const Theme& theme) {
    // drawLinePlot's top margin is 1.7 title sizes with a title and 0.8 font sizes without.
    const float untitledTop = theme.fontSize * 0.8f, oneLineTop = theme.titleSize * 1.7f;
    auto below = [&](float top) {
        const float shift = std::min(area.height - 1, std::max(0.f, top - untitledTop));
        return Box{area.x, area.y + shift, area.width, area.height - shift};
    };
    if (title.empty()) return area;
    const float room = area.width - theme.titleSize;
    // Shrunk a little, a title still matches its neighbours; shrunk more, two lines read better.
    if (estimateTextWidth(title, theme.titleSize * 0.9f) <= room) {
        drawTitle(figure, area, title, theme);
        return below(oneLineTop);
    }
    // Two lines, split at the space nearest the middle (counted in characters, as the estimate).
    const std::size_t split = titleBreak(title);
    if (split == std::string::npos) {
        drawTitle(figure, area, title, theme);
        return below(oneLineTop);
    }
    const auto [head, tail] = titleHalves(title, split);
    const FittedText first = fitText(head, theme.titleSize, room);
    const FittedText second = fitText(tail, theme.titleSize, room);
    // A step below the figure's title (plotTitleCap), as every plot title.
    const float cap = plot_parts::plotTitleCap(figure, theme);
    const float size = std::min({first.size, second.size, cap > 0 ? cap : first.size}),
                line = size * 1.15f;
    const float x = area.x + area.width / 2, y = area.y + theme.titleSize * 0.2f;
    figure.add(makeText({x, y}, first.text, size, theme.text, HorizontalAlign::Center));
    figure.add(makeText({x, y + line}, second.text, size, theme.text, HorizontalAlign::Center));
    return below(oneLineTop + line);
}

TextItem centredText(Point at, std::string text, float size, Rgba color, HorizontalAlign h,
                     VerticalAlign v, bool vertical90) {
    return makeText(at, std::move(text), size, color, h, v, vertical90);
}

RectItem filledRect(Box box, Rgba fill, Rgba stroke, float strokeWidth) {
    RectItem rect;
    rect.box = box;
    rect.fill = fill;
    rect.stroke = stroke;
    rect.strokeWidth = strokeWidth;
    return rect;
}

HeatmapSpec specFor(const HeatmapSample& sample, const std::string& xLabel,
                    const std::string& yLabel) {
    const CellWindow& w = sample.window;
    HeatmapSpec spec;
    spec.x = {xLabel, double(w.firstCol), double(w.firstCol + w.colCount), false, true};
    spec.y = {yLabel, double(w.firstRow), double(w.firstRow + w.rowCount), false, true};
    spec.values = sample.values;
    spec.version = sample.version;
    spec.valuesRowSpan = sample.rowSpan;
    spec.valuesColSpan = sample.colSpan;
    return spec;
}

}  // namespace poslab
