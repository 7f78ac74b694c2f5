#include "poslab/views/learned_structure_figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

#include "poslab/figure/layout.hpp"
#include "poslab/figure/legend.hpp"
#include "poslab/views/print_room.hpp"

namespace poslab {

namespace {

std::string percent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", 100 * fraction);
    return text;
}

std::string twoDecimals(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", value);
    return withMinusSign(text);
}

// Every step-th index, so no plot draws more than kMaxStructurePoints points.
std::size_t strideFor(std::size_t count) {
    return std::max<std::size_t>(1, (count + kMaxStructurePoints - 1) / kMaxStructurePoints);
}

AxisSpec paddedAxis(std::string label, double low, double high) {
    if (!(low < high)) low -= 0.5, high += 0.5;
    const double pad = 0.06 * (high - low);
    return {std::move(label), low - pad, high + pad};
}

void drawVariance(Figure& figure, Box area, const TableStructure& structure, const Theme& theme,
                  PlotFrame* frameOut) {
    const TablePca& pca = structure.pca;
    const std::size_t count = pca.explained.size();
    double highest = 0;
    for (double e : pca.explained) highest = std::max(highest, 100 * e);
    LinePlotSpec spec;
    // Whole components only: at 1440x900 the axis read 2.5, 5, 7.5, 10, 12.5 under 12 bars.
    spec.x = integerAxis("component", 0.5, double(count) + 0.5);
    spec.y = {"% of variance", 0, highest > 0 ? highest * 1.12 : 1};
    spec.autoRangeY = false;
    spec.legend = false;
    PlotFrame frame;
    drawLinePlot(figure, drawWrappedTitle(figure, area, "explained variance per component", theme),
                 spec, theme, &frame);
    figure.add(ClipPush{frame.plot});
    for (std::size_t j = 0; j < count; ++j) {
        const Point top = frame.toPixel(double(j + 1) - 0.36, 100 * pca.explained[j]);
        const Point bottom = frame.toPixel(double(j + 1) + 0.36, 0);
        RectItem bar;
        bar.box = {top.x, top.y, bottom.x - top.x, bottom.y - top.y};
        bar.fill = seriesColor(0);
        figure.add(bar);
    }
    figure.add(ClipPop{});
    double firstThree = 0;
    for (std::size_t j = 0; j < count && j < 3; ++j) firstThree += pca.explained[j];
    // At the top right inside the plot: above every bar (the axis reaches 1.12 times the
    // tallest), where it is not squeezed beside the x-axis label as a corner note would be.
    const FittedText note =
        fitText("components 1-" + std::to_string(std::min<std::size_t>(3, count)) + ": " +
                    percent(firstThree) + " of " + std::to_string(pca.rank),
                atLeastMinText(theme.fontSize * 0.85f, theme), frame.plot.width - 8);
    figure.add(makeText({frame.plot.right() - 4, frame.plot.y + 2}, note.text, note.size,
                        theme.mutedText, HorizontalAlign::Right, VerticalAlign::Top));
    if (frameOut) *frameOut = frame;
}

void drawComponents(Figure& figure, Box area, const TableStructure& structure, const Theme& theme,
                    PlotFrame* frameOut) {
    const Matrix& projections = structure.pca.projections;
    LinePlotSpec spec;
    spec.x = integerAxis("position", 0, double(std::max<std::size_t>(1, projections.rows - 1)));
    spec.y = {"coordinate", 0, 1};
    const std::size_t step = strideFor(projections.rows);
    for (std::size_t j = 0; j < projections.cols; ++j) {
        LineSeries series;
        series.name =
            "PC" + std::to_string(j + 1) + " (lag-1 r " + twoDecimals(structure.lag1[j]) + ")";
        for (std::size_t r = 0; r < projections.rows; r += step) {
            series.x.push_back(double(r));
            series.y.push_back(projections(r, j));
        }
        series.color = seriesColor(int(j), theme);
        spec.series.push_back(std::move(series));
    }
    const Box plotArea =
        drawWrappedTitle(figure, area, "principal components against position", theme);
    // The legend where drawLinePlot's one rule puts it: the curves fill the plot, so in rows
    // under it (its x label) rather than beside it. The keys above the plot, a view's own rule,
    // stood between the plot's title and the plot at one column (#28).
    drawLinePlot(figure, plotArea, spec, theme, frameOut);
}

// PC1 against PC2, a dot per position coloured by its index, with the index's colour bar.
void drawTrajectory(Figure& figure, Box area, const std::string& title, const Matrix& projections,
                    AxisSpec x, AxisSpec y, const LearnedStructureOptions& options,
                    const Theme& theme, PlotFrame* frameOut) {
    const std::size_t rows = projections.rows;
    const ValueRange indexRange{0, double(std::max<std::size_t>(1, rows - 1))};
    const float barWidth = std::max(10.f, theme.fontSize * 0.9f);
    const float barBlock = barWidth + theme.fontSize * 0.3f +
                           colorbarTickWidth(indexRange, area.height, theme, true) +
                           theme.fontSize * 1.6f;
    const Box plotArea{area.x, area.y, std::max(1.f, area.width - barBlock), area.height};

    LinePlotSpec spec;
    spec.x = std::move(x);
    spec.y = std::move(y);
    spec.autoRangeY = false;
    spec.legend = false;
    const std::size_t step = strideFor(rows);
    const bool twoComponents = projections.cols >= 2;
    LineSeries path;  // the order the dots come in, faint under them
    path.color = withAlpha(theme.mutedText, 70);
    path.width = 1;
    for (std::size_t r = 0; r < rows; r += step) {
        path.x.push_back(projections(r, 0));
        path.y.push_back(twoComponents ? projections(r, 1) : 0.0);
    }
    spec.series.push_back(path);
    PlotFrame frame;
    drawLinePlot(figure, drawWrappedTitle(figure, plotArea, title, theme), spec, theme, &frame);

    figure.add(ClipPush{frame.plot});
    const float radius = rows / step > 600 ? 2.f : 3.f;
    for (std::size_t i = 0; i < path.x.size(); ++i) {
        CircleItem dot;
        dot.center = frame.toPixel(path.x[i], path.y[i]);
        dot.radius = radius;
        dot.fill = sampleColormap(options.positionColormap,
                                  double(i * step) / std::max(1.0, indexRange.high));
        figure.add(dot);
    }
    figure.add(ClipPop{});

    const Box bar{plotArea.right() + theme.fontSize * 0.3f, frame.plot.y, barWidth,
                  frame.plot.height};
    drawColorbar(figure, bar, options.positionColormap, indexRange, theme, true);
    // Centred on the bar and inside this plot's cell (a small cell shrinks it).
    const float middle = bar.y + bar.height / 2;
    const FittedText indexLabel =
        fitText("position index", theme.fontSize,
                2 * std::min(middle - area.y, area.bottom() - middle) - 2, 0.6f);
    figure.add(makeText({area.right() - theme.fontSize * 1.4f, middle}, indexLabel.text,
                        indexLabel.size, theme.mutedText, HorizontalAlign::Center,
                        VerticalAlign::Top, true));
    if (frameOut) *frameOut = frame;
}

void drawSpectrum(Figure& figure, Box area, const TableStructure& structure, const Theme& theme,
                  PlotFrame* frameOut) {
    const TableSpectrum& real = structure.spectrum;
    LinePlotSpec spec;
    const double lowest = real.frequency.empty() ? 1e-3 : real.frequency.front();
    spec.x = {"cycles per position", lowest, 0.5, true};
    spec.y = {"mean |DFT| / positions", 0, 1};
    const std::size_t step = strideFor(real.frequency.size());
    auto series = [&](const TableSpectrum& spectrum, std::string name) {
        LineSeries s;
        s.name = std::move(name);
        for (std::size_t k = 0; k < spectrum.frequency.size(); k += step) {
            s.x.push_back(spectrum.frequency[k]);
            s.y.push_back(spectrum.meanMagnitude[k]);
        }
        return s;
    };
    spec.series.push_back(series(real, "table"));
    spec.series.push_back(series(structure.shuffledSpectrum, "rows shuffled"));
    Marker fastest;
    fastest.value = 1 / (2 * 3.14159265358979323846);
    fastest.color = theme.accent;
    spec.markers.push_back(fastest);
    const Box plotArea = drawWrappedTitle(
        figure, area, "mean spectrum over dimensions (dashed: sinusoidal \u03C9\u2080)", theme);
    drawLinePlot(figure, plotArea, spec, theme, frameOut);
}

void drawFrequencies(Figure& figure, Box area, const TableStructure& structure,
                     const LearnedStructureOptions& options, const Theme& theme,
                     PlotFrame* frameOut) {
    std::vector<double> dominant;
    for (double f : structure.spectrum.dominantFrequency) {
        if (std::isfinite(f)) dominant.push_back(f);
    }
    std::sort(dominant.rbegin(), dominant.rend());
    const std::vector<double> omega =
        sinusoidalFrequencies(int(structure.cols), options.sinusoidalBase);
    LinePlotSpec spec;
    spec.x = {"dimension (sorted by frequency)", 0,
              double(std::max<std::size_t>(1, structure.cols - 1))};
    spec.y = {"cycles per position", 1e-3, 1, true};
    const std::size_t step = strideFor(structure.cols);
    LineSeries table{"table", {}, {}};
    for (std::size_t j = 0; j < dominant.size(); j += step) {
        table.x.push_back(double(j));
        table.y.push_back(dominant[j]);
    }
    table.markers = dominant.size() / step <= 128;
    LineSeries ladder{"sinusoidal, base " + formatValue(options.sinusoidalBase), {}, {}};
    for (std::size_t j = 0; j < structure.cols; j += step) {
        ladder.x.push_back(double(j));
        ladder.y.push_back(omega[std::min(omega.size() - 1, j / 2)]);  // a sin and a cos each
    }
    spec.series.push_back(std::move(table));
    spec.series.push_back(std::move(ladder));
    Marker resolution;
    resolution.vertical = false;
    resolution.value = 1.0 / double(structure.rows);
    resolution.label = "1 cycle over the table";
    resolution.color = theme.mutedText;
    spec.markers.push_back(resolution);
    const Box plotArea =
        drawWrappedTitle(figure, area, "dominant frequency per dimension vs sinusoidal", theme);
    drawLinePlot(figure, plotArea, spec, theme, frameOut);
}

}  // namespace

Status validate(const LearnedStructureOptions& options) {
    StructureOptions structure;
    structure.components = options.components;
    if (auto s = validate(structure); !s) return s;
    if (!(options.sinusoidalBase > 1) || !std::isfinite(options.sinusoidalBase)) {
        return Error{"sinusoidal base must be a finite number > 1 (got " +
                     formatValue(options.sinusoidalBase) + ")"};
    }
    return validate(options.angles);
}

namespace {

// The figure's title above the plots, its note below them.
Box structurePlotsArea(Box area) {
    const float top = area.y + 30, bottom = area.bottom() - 20;
    return {area.x, top, area.width, std::max(1.f, bottom - top)};
}

LearnedStructureLayout layoutFromGrid(Box area, const PanelGrid& grid) {
    LearnedStructureLayout layout;
    layout.area = area;
    layout.grid = grid;
    layout.variance = grid.cell(0);
    layout.components = grid.cell(1);
    layout.trajectory = grid.cell(2);
    layout.spectrum = grid.cell(3);
    layout.frequencies = grid.cell(4);
    layout.shuffled = grid.cell(5);
    return layout;
}

constexpr PanelShape kStructureShape{6, 3, 20, 12, 0};

}  // namespace

LearnedStructureLayout learnedStructureLayout(Box area) {
    PanelGrid grid;
    grid.area = structurePlotsArea(area);
    grid.count = 6;
    grid.columns = 3;
    grid.rows = 2;
    grid.gap = 0;
    return layoutFromGrid(area, grid);
}

LearnedStructureLayout learnedStructureLayout(Box area, const Theme& theme, int selected,
                                              const std::string& note, const std::string& title) {
    Box plots = structurePlotsArea(area);
    // A file showing every panel (the canvas grows) too narrow for two 20-em columns (one
    // column in print, whose 8 pt is a large em).
    const bool narrowPrint =
        heightMayGrow(theme) && area.width < theme.fontSize * kStructureShape.minWidthEm * 2;
    // The title takes two full lines in narrow print; else its line and a gap: a projector's
    // title (30 px in F5) filled the 30 px band and the first plot's title touched it.
    // With the title known, at least the band that lets drawTitle wrap it at full size rather
    // than shrink it to 0.82-0.86 of the title size (one column, a projector: #28).
    const float titleBand =
        title.empty() ? 0 : titleBandHeight(theme, title, area.width, area.height);
    // (--no-title: no band at all, the panels take it.)
    const float least = theme.titleMode == TitleMode::Hidden ? 0.f : 30.f;
    const float top = area.y + std::max({least, titleBand,
                                         narrowPrint ? titleBandHeight(theme, 2.6f)
                                                     : titleBandHeight(theme, 1.45f)});
    plots.height = std::max(1.f, plots.bottom() - top);
    plots.y = top;
    Box noteBox{area.x + 4, plots.bottom(), std::max(1.f, area.width - 8), 0};
    if (!note.empty()) {  // measured by drawing it once: the same wrap drawLearnedStructureFigure
        Figure scratch = emptyFigure(area.width, area.height, theme);
        // At most a fifth of a small figure (two lines at least): the plots come first there,
        // and drawParagraph ends a note it had to cut with "…".
        const float lines =
            drawParagraph(scratch, {0, 0, noteBox.width, area.height}, note, theme,
                          atLeastMinText(theme.fontSize * 0.85f, theme), theme.mutedText);
        const float tall = std::min(lines, std::max(2.3f * theme.fontSize, area.height * 0.2f)) + 4;
        plots.height = std::max(1.f, area.bottom() - tall - plots.y);
        noteBox.y = plots.bottom() + 2;
        noteBox.height = std::max(1.f, area.bottom() - noteBox.y);
    }
    // Narrow print: one column of 15 ems, six panels one a row, rather than three squeezed to
    // labels cut at 0.6 (two columns still cut their titles).
    PanelShape shape = kStructureShape;
    if (narrowPrint) {
        shape.minWidthEm = 15;
        shape.minHeightEm = 14;
    }
    LearnedStructureLayout layout =
        layoutFromGrid(area, reflowOrFocus(plots, shape, theme, selected));
    layout.note = noteBox;
    return layout;
}

std::string learnedStructureTitle(const LearnedStructureOptions& options,
                                  const TableStructure& structure) {
    return "Structure of " + (options.source.empty() ? std::string("the table") : options.source) +
           " (" + std::to_string(structure.rows) + " positions × " +
           std::to_string(structure.cols) + " dims)";
}

void drawLearnedStructureFigure(Figure& figure, const LearnedStructureLayout& layout,
                                const LearnedStructureOptions& options,
                                const TableStructure& structure, const Theme& theme,
                                LearnedStructureFrames* frames) {
    LearnedStructureFrames local;
    LearnedStructureFrames& out = frames ? *frames : local;
    figure.viewPanels = kStructureShape.count;  // --panel N: the GUI's panel N
    const float titleHeight = std::max(30.f, layout.grid.area.y - layout.area.y);
    drawTitle(figure, {layout.area.x, layout.area.y, layout.area.width, titleHeight},
              learnedStructureTitle(options, structure), theme);

    const PanelGrid& grid = layout.grid;  // one plot at a time on a projector
    if (grid.shows(0)) drawVariance(figure, layout.variance, structure, theme, &out.variance);
    if (grid.shows(1)) drawComponents(figure, layout.components, structure, theme, &out.components);

    // Both trajectories share their axes, so the shuffled cloud is seen to be the same cloud.
    double low[2] = {INFINITY, INFINITY}, high[2] = {-INFINITY, -INFINITY};
    for (const Matrix* projections :
         {&structure.pca.projections, &structure.shuffledPca.projections}) {
        for (std::size_t r = 0; r < projections->rows; ++r) {
            for (std::size_t j = 0; j < 2 && j < projections->cols; ++j) {
                low[j] = std::min(low[j], (*projections)(r, j));
                high[j] = std::max(high[j], (*projections)(r, j));
            }
        }
    }
    if (structure.pca.projections.cols < 2) low[1] = high[1] = 0;
    const AxisSpec x = paddedAxis("PC1", low[0], high[0]);
    const AxisSpec y = paddedAxis("PC2", low[1], high[1]);
    const bool rotatable = options.trajectory == TrajectoryStyle::Rotatable;
    Trajectory3dOptions view;
    view.angles = options.angles;
    view.colormap = options.positionColormap;
    view.explained = structure.pca.explained;
    if (!grid.shows(2)) {
    } else if (rotatable) {
        view.title = "PC1-PC3 trajectory, coloured by position";
        drawTrajectory3d(figure, layout.trajectory, structure.pca.projections, view, theme,
                         &out.trajectory3d);
    } else {
        drawTrajectory(figure, layout.trajectory, "PC1 vs PC2, coloured by position",
                       structure.pca.projections, x, y, options, theme, &out.trajectory);
    }
    if (grid.shows(3)) drawSpectrum(figure, layout.spectrum, structure, theme, &out.spectrum);
    if (grid.shows(4))
        drawFrequencies(figure, layout.frequencies, structure, options, theme, &out.frequencies);
    const std::string lag = structure.shuffledLag1.empty() || structure.lag1.empty()
                                ? ""
                                : ": lag-1 r " + twoDecimals(structure.shuffledLag1[0]) + " vs " +
                                      twoDecimals(structure.lag1[0]);
    const std::string shuffledTitle =
        "rows shuffled (seed " + std::to_string(options.shuffleSeed) + ")" + lag;
    if (!grid.shows(5)) {
    } else if (rotatable) {
        view.title = shuffledTitle;
        view.explained = structure.shuffledPca.explained;
        view.pathAlpha = 50;  // the order is random: a faint tangle behind the dots
        drawTrajectory3d(figure, layout.shuffled, structure.shuffledPca.projections, view, theme,
                         &out.shuffled3d);
    } else {
        drawTrajectory(figure, layout.shuffled, shuffledTitle, structure.shuffledPca.projections, x,
                       y, options, theme, &out.shuffled);
    }
    if (layout.note.height > 0)
        drawParagraph(figure, layout.note, structure.note, theme,
                      atLeastMinText(theme.fontSize * 0.85f, theme), theme.mutedText);
    else
        drawCornerNote(figure, layout.area, nullptr, structure.note, theme);
}

Result<Figure> learnedStructureFigure(const Matrix& table, const LearnedStructureOptions& options,
                                      float width, float height, const Theme& theme, int selected) {
    if (auto s = validate(options); !s) return s.error();
    if (!(width >= 200 && height >= 150 && width <= 16384 && height <= 16384)) {
        return Error{"figure size must be 200..16384 x 150..16384 pixels (got " +
                     formatValue(width) + " x " + formatValue(height) + ")"};
    }
    StructureOptions analysis;
    analysis.components = options.components;
    analysis.shuffleSeed = options.shuffleSeed;
    auto structure = analyzeTableStructure(table, analysis);
    if (!structure) return structure.error();
    Figure figure = emptyFigure(width, height, theme);
    // The designed 3 x 2 grid where its cells hold a legible plot and its 30 px band the title on
    // one line; else the GUI's layout (panels reflowed for the canvas, the note wrapped below
    // them): one column in print, the `selected` plot alone in a window too small for the grid.
    // The grid at 480 x 320 left plots 47 px tall under their legends' keys (#28).
    const Box area{0, 0, width, height};
    const std::string title = learnedStructureTitle(options, *structure);
    LearnedStructureLayout layout = learnedStructureLayout(area);
    const bool narrowPrint =
        heightMayGrow(theme) && width < theme.fontSize * kStructureShape.minWidthEm * 2;
    const bool legibleCells =
        layout.variance.width >= theme.fontSize * kStructureShape.minWidthEm &&
        layout.variance.height >= theme.fontSize * kStructureShape.minHeightEm;
    const bool titleFits =
        layout.grid.area.y - area.y >= titleBandHeight(theme, title, width, height);
    const bool titleHidden = theme.titleMode == TitleMode::Hidden;  // the 30 px band given back
    if (narrowPrint || !legibleCells || !titleFits || titleHidden || theme.focusPanel > 0)
        layout = learnedStructureLayout(area, theme, selected, structure->note, title);
    drawLearnedStructureFigure(figure, layout, options, *structure, theme);
    return figure;
}

}  // namespace poslab
