// attention_shuffle_figures.cpp — why position at all: one attention head over a sentence and
// over its reordering (views/attention_shuffle_figures.hpp).
#include "poslab/views/attention_shuffle_figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/views/print_room.hpp"
#include "poslab/views/sinusoidal_figures.hpp"

namespace poslab {

// ---------------------------------------------------------------------------------------------
// Why position at all
// ---------------------------------------------------------------------------------------------

namespace {

Rgba readableOn(ColormapId colormap, double t) {
    const Rgba c = sampleColormap(colormap, t);
    const double luminance = 0.299 * c.r + 0.587 * c.g + 0.114 * c.b;
    return luminance > 140 ? Rgba{0, 0, 0, 255} : Rgba{255, 255, 255, 255};
}

float widestText(const std::vector<std::string>& texts, float size) {
    float widest = 0;
    for (const std::string& t : texts) widest = std::max(widest, estimateTextWidth(t, size));
    return widest;
}

// A small matrix with words along its rows (and, when given, its columns), a fitted title, and
// each value printed in its cell when the cell has room. Returns the box the cells took.
Box drawWordMatrix(Figure& figure, Box box, const std::string& title,
                   const std::vector<std::string>& rows, const std::vector<std::string>& cols,
                   const Matrix& values, ColormapId colormap, ValueRange range,
                   const std::string& xLabel, const Theme& theme) {
    // A title or axis label too long for a narrow matrix (a projector's font) wraps between
    // words instead of ending in "…" ("attention, se…", "output dime…" at 1024x768 F5), when the
    // box is at least 9 lines tall: a shorter one (under a lesson card) keeps its cells instead.
    // Presentation wraps it in a short box too when one line would be cut or shrunk at all
    // ("attention, se…" under lesson 1's card at 1024x768 F5; then "output, sentence", shrunk
    // to 19 px on one line, stood beside the attention titles' two lines at 25.7 px): the four
    // titles of the row keep one size.
    // In presentation the wrapped title and axis label must still leave every row its words at
    // the projector's size (0.8 font sizes, 0.9 of a row): 30 px more under lesson 1's card made
    // the box "roomy" and shrank the rows' words to 15 px.
    const float rowsNeed =
        theme.fontScale > 1 ? float(values.rows) * 0.8f * theme.fontSize / 0.9f : 0;
    const bool roomy = box.height >= 9 * theme.fontSize + rowsNeed;
    // Never larger than the figure's title (Figure::titleSize): at 1024x768 F5 the one-line
    // figure title fits at 24.6 px, and the matrices' 25.7 px titles read as the headline.
    const float titleSize = figure.titleSize > 0
                                ? std::min(theme.fontSize * 1.05f, figure.titleSize)
                                : theme.fontSize * 1.05f,
                titleStep = titleSize * 1.15f;
    const bool wrapTitle =
        roomy || (theme.fontScale > 1 && estimateTextWidth(title, titleSize) > box.width);
    const std::vector<std::string> titleLines =
        wrapTitle ? wrapText(title, titleSize, box.width) : std::vector<std::string>{title};
    const float titleHeight =
        theme.fontSize * 1.6f + titleStep * float(std::max<std::size_t>(titleLines.size(), 1) - 1);
    for (std::size_t i = 0; i < titleLines.size(); ++i) {
        const FittedText fitted =
            fitText(titleLines[i], titleSize, box.width, readableMinScale(titleSize, theme));
        figure.add(centredText({box.x + box.width / 2, box.y + titleStep * float(i)}, fitted.text,
                               fitted.size, theme.text));
    }
    const float xLabelSize = atLeastMinText(theme.fontSize * 0.9f, theme),
                xLabelStep = xLabelSize * 1.15f;
    const float n = float(std::max<std::size_t>(values.rows, 1));
    // In presentation a short box keeps its rows readable (14 px words need ~15 px rows) before
    // its axis label: the title already says what the columns are.
    const bool keepXLabel = roomy || theme.fontScale <= 1;
    const float available =
        box.height - titleHeight - (keepXLabel && !xLabel.empty() ? theme.fontSize * 1.6f : 0);
    float labelSize = std::clamp(available / n * 0.8f, 0.f, theme.fontSize);
    if (theme.fontScale > 1)  // presentation: rows' words at the projector's size when rows allow
        labelSize = std::max(labelSize, std::min(std::max(kReadableTextPx, 0.8f * theme.fontSize),
                                                 available / n * 0.9f));
    const bool rowLabels = labelSize >= 7;
    // Words whole beside their rows: up to 55 % of the box ("chased", "mouse" at F5).
    const float rowLabelWidth =
        rowLabels ? std::min(widestText(rows, labelSize) + 6, box.width * 0.55f) : 0;
    float colLabelHeight = 0;
    bool rotated = false;
    const float cellGuess =
        (box.width - rowLabelWidth) / float(std::max<std::size_t>(values.cols, 1));
    if (!cols.empty() && rowLabels) {
        if (widestText(cols, labelSize) + 4 <= cellGuess) {
            colLabelHeight = labelSize * 1.4f;
        } else if (cellGuess >= labelSize) {  // narrower cells get no column labels
            // Rotated, whole or not at all: cut to "ch…" they said nothing (1024x768 F5); the
            // keys are the rows' words in the same order, as "query × key" below says.
            const float needed = widestText(cols, labelSize) + 6;
            if (needed <= available * 0.35f) {
                rotated = true;
                colLabelHeight = needed;
            }
        }
    }
    const std::vector<std::string> xLabelLines =
        xLabel.empty() || !keepXLabel ? std::vector<std::string>{}
        : roomy                       ? wrapText(xLabel, xLabelSize, box.width - rowLabelWidth)
                                      : std::vector<std::string>{xLabel};
    // Without its label the bottom keeps half a line: the colour bars' end ticks reach below
    // the cells.
    const float bottomLabel =
        xLabelLines.empty() ? (keepXLabel ? 0 : theme.fontSize * 0.5f)
                            : theme.fontSize * 1.5f + xLabelStep * float(xLabelLines.size() - 1);
    Box cells{box.x + rowLabelWidth, box.y + titleHeight + colLabelHeight,
              box.width - rowLabelWidth, box.height - titleHeight - colLabelHeight - bottomLabel};
    if (cells.width < 4 || cells.height < 4) return cells;
    const float cellW = cells.width / float(values.cols), cellH = cells.height / float(values.rows);
    HeatmapItem heat;
    heat.box = cells;
    heat.values = share(values);
    heat.colormap = colormap;
    heat.range = range;
    heat.version = nextMatrixVersion();
    figure.add(heat);
    figure.add(filledRect(cells, {0, 0, 0, 0}, theme.axis));
    // A row's word is never taller than its row (its glyphs are ~0.95 of a size high): the column
    // labels and a wrapped title can leave the cells shorter than labelSize was guessed from.
    const float rowLabelSize = std::min(labelSize, cellH * 0.95f);
    if (rowLabels && rowLabelSize >= 6) {
        for (std::size_t r = 0; r < values.rows && r < rows.size(); ++r) {
            const FittedText label = fitText(rows[r], rowLabelSize, rowLabelWidth - 4, 0.75f);
            figure.add(makeText({cells.x - 4, cells.y + (float(r) + 0.5f) * cellH}, label.text,
                                label.size, theme.text, HorizontalAlign::Right,
                                VerticalAlign::Middle));
        }
        for (std::size_t c = 0; colLabelHeight > 0 && c < values.cols && c < cols.size(); ++c) {
            const float x = cells.x + (float(c) + 0.5f) * cellW;
            if (rotated) {
                if (cellW < labelSize) continue;
                const FittedText label = fitText(cols[c], labelSize, colLabelHeight - 4, 0.9f);
                figure.add(makeText({x, cells.y - 3}, label.text, label.size, theme.text,
                                    HorizontalAlign::Left, VerticalAlign::Middle, true));
            } else {
                figure.add(makeText({x, cells.y - 3}, cols[c], labelSize, theme.text,
                                    HorizontalAlign::Center, VerticalAlign::Bottom));
            }
        }
    }
    // The numbers themselves, where a cell holds "0.00" comfortably.
    // (None in presentation below its floor: 9.7 px numbers at 1280x720 F5 read as noise.)
    const float valueSize = std::min(theme.fontSize * 0.85f, cellH * 0.5f);
    if (valueSize >= std::max(8.f, scaledMinTextPx(theme)) &&
        estimateTextWidth("0.00", valueSize) + 4 <= cellW) {
        for (std::size_t r = 0; r < values.rows; ++r) {
            for (std::size_t c = 0; c < values.cols; ++c) {
                const double v = values(r, c);
                const double t = rangeFraction(v, range.low, range.high);
                char text[32];
                std::snprintf(text, sizeof text, "%.2f", v);
                figure.add(makeText(
                    {cells.x + (float(c) + 0.5f) * cellW, cells.y + (float(r) + 0.5f) * cellH},
                    text, valueSize, readableOn(colormap, t), HorizontalAlign::Center,
                    VerticalAlign::Middle));
            }
        }
    }
    for (std::size_t i = 0; i < xLabelLines.size(); ++i) {
        const FittedText label =
            fitText(xLabelLines[i], xLabelSize, cells.width, readableMinScale(xLabelSize, theme));
        figure.add(
            centredText({cells.x + cells.width / 2, cells.bottom() + 3 + xLabelStep * float(i)},
                        label.text, label.size, theme.mutedText));
    }
    return cells;
}

std::string positionSentence(ToyPosition position) {
    switch (position) {
        case ToyPosition::None:
            return "no position signal";
        case ToyPosition::Sinusoidal:
            return "sinusoidal PE added to the word vectors";
        case ToyPosition::Learned:
            return "a seeded learned table added to the word vectors";
        case ToyPosition::Rope:
            return "RoPE rotating q and k by position";
        case ToyPosition::Alibi:
            return "ALiBi's −½|i − j| added to the scores";
    }
    return "";
}

}  // namespace

void drawAttentionShuffle(Figure& figure, Box area, const ShuffleComparison& c,
                          const ToyAttentionParams& params, const Theme& theme) {
    const std::size_t n = c.words.size();
    // ---- The reordering: the sentence above, the shuffled sentence below, a line per word.
    // Presentation: the diagram at its least (words still full size) so the four matrices get
    // rows tall enough for full-size words (at 1024x768 F5 they were fitted down to 16 px).
    // A file too narrow for the four matrices in a row at legible words (a one-column print,
    // --width 600: their words were fitted to 0.6 and their titles cut) sets them two by two,
    // the canvas as tall as they need (print_room); 50 ems keeps the default 1200 px in a row.
    const bool stacked = heightMayGrow(theme) && area.width < 50 * theme.fontSize;
    if (stacked) {  // the title's two lines fill its band: the sentence's words start lower
        area.y += 0.4f * theme.fontSize;
        area.height -= 0.4f * theme.fontSize;
    }
    const float usualDiagram =
        std::clamp(area.height * 0.22f, 3.2f * theme.fontSize, 9.f * theme.fontSize);
    float diagramHeight = stacked               ? 5 * theme.fontSize
                          : theme.fontScale > 1 ? std::min(usualDiagram, 3.3f * theme.fontSize)
                                                : usualDiagram;

    // ---- The verdict (drawn last, below the matrices).
    const bool merelyPermuted = c.outputDeviation < 1e-12;
    // The number first: a small figure drops the paragraph's last lines.
    const std::string deviation = c.outputDeviation == 0 ? std::string("0")
                                  : merelyPermuted
                                      ? formatValue(c.outputDeviation, 2) + ", rounding"
                                      : formatValue(c.outputDeviation, 3);
    const std::string measured = " = " + deviation + " (outputs up to " +
                                 formatValue(c.outputScale, 2) + ") with " +
                                 positionSentence(params.position);
    std::string verdict =
        "Max |output(shuffled word) − output(same word in the sentence)|" + measured + ". " +
        (merelyPermuted ? "The head sees a bag of words: reorder them and each word's output only "
                          "moves with it, so both sentences mean the same to it."
                        : "The same word at another place now gets another output: order reaches "
                          "the model.");
    // Room for the whole verdict (at F5 its last line was cut), up to 30 % of the height, when
    // the matrices keep at least 9 lines of height; else the short verdict, whole: the paragraph
    // cut or shrunk short of the projector's size said less (1024x768 F5 under a lesson card).
    auto wholeHeight = [&](const std::string& text) {
        return float(wrapText(text, theme.fontSize, area.width).size()) * theme.fontSize * 1.3f + 8;
    };
    const float usualVerdict =
        std::clamp(area.height * 0.16f, 2.4f * theme.fontSize, 5.f * theme.fontSize);
    const float roomBelowDiagram = area.bottom() - (area.y + diagramHeight) - 8;
    const float wholeVerdict = std::min(wholeHeight(verdict), area.height * 0.3f);
    float verdictHeight = usualVerdict;
    if (stacked) {
        verdictHeight = wholeHeight(verdict);
    } else if (roomBelowDiagram - wholeVerdict >= 9 * theme.fontSize) {
        verdictHeight = std::max(usualVerdict, wholeVerdict);
    } else if (theme.fontScale > 1) {  // presentation: every text at the projector's size
        verdict = "Max |Δ output|" + measured + ": " +
                  (merelyPermuted ? "each word's output only moves with it."
                                  : "order reaches the model.");
        verdictHeight = wholeHeight(verdict);
    }

    // The matrices' layout below a diagram of a given height: their boxes left to right.
    const ValueRange weightRange{0, 1};
    const double scale = std::max(c.outputScale, 1e-12);
    const ValueRange outputRange{-scale, scale};
    const float barWidth = barWidthFor(theme);
    const float gap = 10;
    // The Δ column at the rows' words' size (at 0.8 of it, 11 px at 1440x900, it read as a
    // footnote beside 14 px words): room for "0.000" and its gaps.
    const float deviationWidth = estimateTextWidth("0.000", theme.fontSize) + 12;
    struct PanelsLayout {
        Box panels;
        float weightBar = 0, outputBar = 0, attentionWidth = 0, outputWidth = 0;
    };
    auto panelsBelow = [&](float diagramBottom) {
        PanelsLayout l;
        l.panels = {area.x, diagramBottom + 8, area.width,
                    area.bottom() - diagramBottom - 8 - verdictHeight};
        const float barHeight = std::max(10.f, l.panels.height - 4 * theme.fontSize);
        l.weightBar = barWidth + colorbarTickWidth(weightRange, barHeight, theme) + 10;
        l.outputBar = barWidth + colorbarTickWidth(outputRange, barHeight, theme) + 10;
        const float free = l.panels.width - l.weightBar - l.outputBar - deviationWidth - 4 * gap;
        l.attentionWidth = std::floor(free * 0.22f);
        l.outputWidth = std::floor(free * 0.28f);
        return l;
    };
    // Presentation: rows too short for words at the projector's floor (1280x720 F5 under a
    // lesson card: 18.5 px) take the height from the diagram, whose words stay at the floor and
    // whose lines get flatter. Measured on the narrowest matrix, drawn aside.
    const float floorPx = scaledMinTextPx(theme);
    if (floorPx > 0 && !stacked) {
        const float rowNeeded = floorPx / 0.95f + 0.5f;  // a row's word is at most 0.95 of it
        const float leastDiagram = 2 * floorPx + 0.6f * theme.fontSize + 6;
        Figure probe;
        const PanelsLayout l = panelsBelow(area.y + diagramHeight);
        const Box cells =
            drawWordMatrix(probe, {area.x, l.panels.y, l.attentionWidth, l.panels.height},
                           "attention, sentence", c.words, c.words, c.original.weights,
                           ColormapId::Viridis, weightRange, "query × key", theme);
        const float missing = (rowNeeded - cells.height / float(n)) * float(n);
        if (missing > 0 && cells.height > 4)
            diagramHeight =
                std::min(diagramHeight, std::max(leastDiagram, diagramHeight - missing));
    }
    const Box diagram{area.x, area.y, area.width, diagramHeight};
    const float captionWidth =
        std::min(estimateTextWidth("shuffled", theme.fontSize) + 12, area.width * 0.2f);
    const float slot = (diagram.width - captionWidth) / float(n);
    const float wordSize =
        std::min(theme.fontSize * 1.15f, std::max(diagram.height * 0.25f, floorPx));
    auto slotX = [&](std::size_t i) { return diagram.x + captionWidth + (float(i) + 0.5f) * slot; };
    const float topY = diagram.y + 2, bottomY = diagram.bottom() - wordSize - 4;
    for (const auto& [caption, y] : {std::pair{"sentence", topY}, std::pair{"shuffled", bottomY}}) {
        const FittedText text =
            fitText(caption, atLeastMinText(theme.fontSize * 0.9f, theme), captionWidth - 6, 0.6f);
        figure.add(makeText({diagram.x, y + wordSize / 2}, text.text, text.size, theme.mutedText,
                            HorizontalAlign::Left, VerticalAlign::Middle));
    }
    // Print keeps the words at its 8 pt floor at least (a longer word is cut, never smaller).
    const float wordFit = stacked ? readableMinScale(wordSize, theme) : 0.6f;
    for (std::size_t i = 0; i < n; ++i) {
        const FittedText above = fitText(c.words[i], wordSize, slot - 6, wordFit);
        figure.add(centredText({slotX(i), topY}, above.text, above.size, theme.text));
        const FittedText below = fitText(c.shuffledWords[i], wordSize, slot - 6, wordFit);
        figure.add(centredText({slotX(i), bottomY}, below.text, below.size, theme.text));
    }
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t from = std::size_t(c.permutation[k]);
        const Rgba color =
            from == k ? withAlpha(theme.mutedText, 160) : seriesColor(int(from % 8), theme);
        figure.add(LineItem{{slotX(from), topY + wordSize + 3},
                            {slotX(k), bottomY - 3},
                            color,
                            from == k ? 1.2f : 2.f,
                            false});
    }

    // ---- Attention weights and outputs, each for both word orders: four boxes in a row, or
    // (stacked) the two attention matrices over the two outputs, each pair with its colour bar.
    PanelsLayout layout = panelsBelow(diagram.bottom());
    Box boxes[4];
    if (stacked) {
        // A matrix as tall as its title's two lines, its rotated column words, a row of words a
        // line and a quarter tall each and its two-line axis label need; what the area lacks
        // for two of them is asked of the canvas.
        const float rowNeed = 5.6f * theme.fontSize + widestText(c.words, theme.fontSize) + 6 +
                              float(n) * 1.25f * theme.fontSize;
        const float top = diagram.bottom() + 8;
        askForHeight(theme, top + 2 * rowNeed + gap + verdictHeight - area.bottom());
        const float rowHeight = std::max(rowNeed, (area.bottom() - top - verdictHeight - gap) / 2);
        const float right = std::max(layout.weightBar, deviationWidth + layout.outputBar);
        const float width = std::floor((area.width - right - 2 * gap) / 2);
        for (int k = 0; k < 4; ++k)
            boxes[k] = {area.x + float(k % 2) * (width + gap),
                        top + float(k / 2) * (rowHeight + gap), width, rowHeight};
        layout.panels = {area.x, top, area.width, 2 * rowHeight + gap};
    } else {
        float x = layout.panels.x;
        const float widths[4] = {layout.attentionWidth, layout.attentionWidth, layout.outputWidth,
                                 layout.outputWidth};
        for (int k = 0; k < 4; ++k) {
            boxes[k] = {x, layout.panels.y, widths[k], layout.panels.height};
            x += widths[k] + gap + (k == 1 ? layout.weightBar - gap + 4 : 0);
        }
    }
    const Box& panels = layout.panels;
    const std::string by = "query × key";
    const Box cellsA =
        drawWordMatrix(figure, boxes[0], "attention, sentence", c.words, c.words,
                       c.original.weights, ColormapId::Viridis, weightRange, by, theme);
    drawWordMatrix(figure, boxes[1], "attention, shuffled", c.shuffledWords, c.shuffledWords,
                   c.shuffled.weights, ColormapId::Viridis, weightRange, by, theme);
    const Box weightBarBox{boxes[1].right() + 4, cellsA.y, barWidth, cellsA.height};
    if (weightBarBox.height > 8)
        drawColorbar(figure, weightBarBox, ColormapId::Viridis, weightRange, theme);
    const std::string dims = "output dimension 0.." + std::to_string(params.dModel - 1);
    drawWordMatrix(figure, boxes[2], "output, sentence", c.words, {}, c.original.output,
                   ColormapId::BlueWhiteRed, outputRange, dims, theme);
    const Box cellsD =
        drawWordMatrix(figure, boxes[3], "output, shuffled", c.shuffledWords, {}, c.shuffled.output,
                       ColormapId::BlueWhiteRed, outputRange, dims, theme);
    // Per shuffled word: how far its output is from the same word's output in the sentence.
    const float rowHeight = cellsD.height / float(n);
    // The rows' words' size, never taller than a row's glyphs may be (~0.95 of a size).
    const float deviationSize = std::min(theme.fontSize, rowHeight * 0.95f);
    if (deviationSize >= 7) {
        figure.add(makeText({cellsD.right() + 4, cellsD.y - 3}, "Δ", theme.fontSize,
                            theme.mutedText, HorizontalAlign::Left, VerticalAlign::Bottom));
        for (std::size_t i = 0; i < n; ++i) {
            const double d = c.tokenDeviation[i];
            figure.add(makeText({cellsD.right() + 4, cellsD.y + (float(i) + 0.5f) * rowHeight},
                                d < 1e-12 ? "0" : formatValue(d, 2), deviationSize,
                                d < 1e-12 ? theme.mutedText : theme.accent, HorizontalAlign::Left,
                                VerticalAlign::Middle));
        }
    }
    const Box outputBarBox{cellsD.right() + deviationWidth, cellsD.y, barWidth, cellsD.height};
    if (outputBarBox.height > 8)
        drawColorbar(figure, outputBarBox, ColormapId::BlueWhiteRed, outputRange, theme);

    drawParagraph(figure, {area.x, panels.bottom() + 6, area.width, verdictHeight - 6}, verdict,
                  theme, theme.fontSize, merelyPermuted ? theme.text : theme.accent);
}

float attentionShuffleTitleBand(float width, float height, const Theme& theme) {
    // Wrapped where one line would shrink it past where figure titles wrap (a one-line band
    // squeezed it to 0.82 of its size at one column and on a projector, #28); not under a lesson
    // card (titleBandHeight), where the words need the line.
    const float band = titleBandHeight(theme, kAttentionShuffleTitle, width, height);
    return band > titleBandHeight(theme) ? band : titleBandHeight(theme, 1.45f);
}

Result<Figure> attentionShuffleFigure(const ToyAttentionParams& params, float width, float height,
                                      const Theme& theme) {
    auto comparison = compareShuffle(params);
    if (!comparison) return comparison.error();
    Figure figure = emptyFigure(width, height, theme);
    // One line, as on screen: the word grid needs the height more than the title a second line.
    const float titleHeight = attentionShuffleTitleBand(width, height, theme);
    drawTitle(figure, {0, 0, width, titleHeight}, kAttentionShuffleTitle, theme);
    drawAttentionShuffle(figure, {8, titleHeight, width - 16, height - titleHeight - 4},
                         *comparison, params, theme);
    return figure;
}

}  // namespace poslab
