#include "panels/sinusoidal_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "poslab/base/limits.hpp"
#include "poslab/views/sinusoidal_figures.hpp"
#include "state/ranges.hpp"
#include "ui/markup_text.hpp"
#include "ui/widgets.hpp"

namespace poslab::panels {

void SinusoidalPanel::drawControls(state::AppState& state, ui::FrameContext&) {
    drawControls(state.sinusoidal);
}

void SinusoidalPanel::drawFigures(state::AppState& state, ui::FrameContext& context) {
    const float available = ImGui::GetContentRegionAvail().y;
    // Presentation mode on a short window (1024x768 under a lesson's card): a third of the room
    // left the curves a strip of one tick label and the map a band (#28). The two are shown one
    // at a time there, each over the whole height, as other views' panels are: the selector
    // row, Up/Down, a lesson's "panel".
    if (state.tour.presentation && available / 3 < 8 * ImGui::GetFontSize()) {
        ui::takeRequestedPanel(context, 2, &shownPanel_);
        PanelGrid grid;
        grid.count = 2;
        grid.shown = shownPanel_;
        ui::panelSelector(grid, &shownPanel_);
        if (shownPanel_ == 0)
            drawHeatmap(state.sinusoidal, context, 0);
        else
            drawCurves(state.sinusoidal, context);
        return;
    }
    // Two thirds for the map, but the curves keep fourteen lines (a short window's scrolling page
    // left them 127 px, their legend over the curves). Presentation mode keeps its two thirds
    // (its text is scaled to fit them; lessons' cards were written against them).
    const float curves = state.tour.presentation
                             ? 0.0f
                             : 14 * ImGui::GetFontSize() / std::max(1.0f, context.uiScale);
    drawHeatmap(
        state.sinusoidal, context,
        std::floor(std::max(available * 0.34f, std::min(available * 0.66f, available - curves))));
    drawCurves(state.sinusoidal, context);
}

Figure SinusoidalPanel::exportFigure(const state::AppState& state, float width, float height,
                                     const Theme& theme) const {
    const state::SinusoidalViewState& view = state.sinusoidal;
    Figure figure = emptyFigure(width, height, theme);
    const float heatmapHeight = std::floor(height * 0.66f);
    SinusoidalHeatmapOptions options;
    options.colormap = view.colormap;
    options.window = view.window;
    options.trainingLength = view.markTrainingLength ? view.trainingLength : 0;
    drawSinusoidalHeatmap(figure, {0, 0, width, heatmapHeight}, view.params, options, theme,
                          nullptr);
    drawSinusoidalCurves(figure, {0, heatmapHeight, width, height - heatmapHeight}, view.params,
                         curveOptions(view), theme);
    return figure;
}

Result<Matrix> SinusoidalPanel::exportData(const state::AppState& state) const {
    return sinusoidalTable(state.sinusoidal.params);
}

SinusoidalCurveOptions SinusoidalPanel::curveOptions(const state::SinusoidalViewState& view) {
    SinusoidalCurveOptions options;
    options.dimensions.clear();
    for (int i = 0; i < view.curveCount; ++i) {
        const int dimension = view.firstCurveDimension + i;
        if (dimension < view.params.dModel) options.dimensions.push_back(dimension);
    }
    options.lastPosition = view.curvePositions;
    return options;
}

void SinusoidalPanel::drawControls(state::SinusoidalViewState& view) {
    SinusoidalParams& p = view.params;
    ui::sectionHeader("Encoding");
    if (ui::sliderInt(
            state::kSinusoidalDModelSlider, &p.dModel,
            "Width of the encoding: the number of dimensions (columns). Each pair of columns "
            "is one frequency.")) {
        view.window.firstCol = 0, view.window.colCount = 0;
    }
    if (ui::sliderInt(
            state::kSinusoidalSeqLenSlider, &p.seqLen,
            "Number of positions (rows) in the table, up to 1,048,576. Only the visible "
            "window is computed, so long tables stay live. Ctrl+click to type a value.")) {
        view.window.firstRow = 0, view.window.rowCount = 0;
    }
    ui::sliderDouble(state::kSinusoidalBaseSlider, &p.base,
                     "Frequency base: column pair i turns at 1 / base^(2i/d) radians per position. "
                     "The paper uses 10000; larger bases stretch the slowest wavelengths.");
    if (ImGui::Button("10000")) p.base = 10000;
    ui::tooltipForLastItem("Reset the base to the paper's value.");
    ImGui::SameLine();
    if (ImGui::Button("500000")) p.base = 500000;
    ui::tooltipForLastItem("Llama 3's RoPE base, for comparison.");
    ui::comboEnum(
        "layout", &p.layout,
        std::vector{SinusoidalLayout::Interleaved, SinusoidalLayout::Concat,
                    SinusoidalLayout::Tensor2Tensor},
        layoutName,
        "interleaved: the paper's sin, cos, sin, cos…\nconcat: Hugging Face's [sin block | cos "
        "block]\n"
        "t2t: tensor2tensor's get_timing_signal_1d — geometric timescales from 1 to base, not "
        "the paper's frequencies.");

    ui::sectionHeader("Display");
    ui::comboEnum("colormap", &view.colormap, allColormaps(), colormapName,
                  "Blue-white-red is centred at zero, which suits values in [-1, 1].");
    ImGui::Checkbox("mark training length", &view.markTrainingLength);
    ui::tooltipForLastItem(
        "Draw a line at the length a model was trained on and shade the positions beyond.");
    if (view.markTrainingLength)
        ui::sliderInt(state::kSinusoidalTrainingSlider, &view.trainingLength);
    if (ImGui::Button("Reset zoom")) view.window = {};
    ui::tooltipForLastItem(
        "Or double-click the heatmap. Wheel: zoom; Shift+wheel: zoom dimensions; drag: pan.");

    ui::sectionHeader("Curves");
    ui::sliderInt(state::kCurveFirstDimension, &view.firstCurveDimension,
                  ui::SliderBounds{0, p.dModel - 1},
                  "The first of the dimensions plotted against position.");
    ui::sliderInt(state::kCurveCountRange, &view.curveCount,
                  "How many consecutive dimensions to plot.");
    ui::sliderInt(state::kSinusoidalCurvePositions, &view.curvePositions, "Plot positions 0..N.");
}

void SinusoidalPanel::drawHeatmap(state::SinusoidalViewState& view, ui::FrameContext& context,
                                  float height) {
    const ui::Canvas canvas = ui::beginCanvas("heatmap", height);
    SinusoidalParams& p = view.params;
    view.window = clampWindow(view.window, p.seqLen, p.dModel);

    SinusoidalHeatmapOptions options;
    options.colormap = view.colormap;
    options.window = view.window;
    options.trainingLength = view.markTrainingLength ? view.trainingLength : 0;
    const Box area{0, 0, canvas.box.width, canvas.box.height};

    // Zoom about the mouse with the wheel (rows; Shift: columns), pan by dragging. The layout
    // before this frame's zoom locates the mouse in cells (and sizes the sample: one texel per
    // plot pixel at most).
    PlotFrame frame;
    {
        Figure probe;
        HeatmapSample layout;
        layout.window = view.window;
        drawSinusoidalHeatmap(probe, area, p, options, context.theme, &layout, &frame);
    }
    CellWindow& w = view.window;
    ui::zoomAndPan(w, canvas, frame, p.seqLen, p.dModel, ui::ZoomAxes::RowsOrColumns);

    const SampleKey key{p, w, int(frame.plot.width), int(frame.plot.height)};
    // One texel per plot pixel at most. At the largest tables the block means and their texture
    // cost more than a frame: while a control moves (base, zoom, pan), a coarse sample (a quarter
    // of the texels a side) on this thread; the exact one on a worker once it holds still.
    const Refined<HeatmapSample> shown = sample_.get(
        key,
        [plot = frame.plot](const SampleKey& k, Detail detail, const std::atomic<bool>&) {
            const float shrink = detail == Detail::Coarse ? 4.0f : 1.0f;
            return sinusoidalSampleForArea(
                k.params, k.window,
                {plot.x, plot.y, std::max(1.0f, std::floor(plot.width / shrink)),
                 std::max(1.0f, std::floor(plot.height / shrink))});
        },
        true);
    if (!shown.exact) context.waiting = context.animating = true;  // screenshots: exact
    const HeatmapSample& sample = *shown.value;

    options.window = w;
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    drawSinusoidalHeatmap(figure, area, p, options, context.theme, &sample, &frame);
    ui::drawCanvasFigure(canvas, figure, context);

    if (canvas.hovered && frame.plot.contains(canvas.mouse)) {
        const auto [x, y] = frame.toData(canvas.mouse);
        const int column = std::clamp(int(std::floor(x)), 0, p.dModel - 1);
        const long long position =
            std::clamp<long long>(std::llround(std::floor(y)), 0, p.seqLen - 1);
        const SinusoidalColumn wave = sinusoidalColumn(p, column);
        ImGui::BeginTooltip();
        ui::tooltipText("position %lld, dimension %d", position, column);
        ui::tooltipText("value %.6f", sinusoidalValue(p, double(position), column));
        ui::markupText(sinusoidalFormula(p, int(position), column));
        if (!wave.isZero) {
            ui::tooltipTextDisabled("wavelength %.4g positions", 2 * M_PI / wave.frequency);
        }
        if (sample.rowsPerTexel > 1 || sample.colsPerTexel > 1) {
            ui::tooltipTextDisabled("zoomed out: each pixel shows the mean of %lld x %lld cells",
                                    sample.rowsPerTexel, sample.colsPerTexel);
        }
        ImGui::EndTooltip();
    }
}

void SinusoidalPanel::drawCurves(state::SinusoidalViewState& view, ui::FrameContext& context) {
    const ui::Canvas canvas = ui::beginCanvas("curves");
    const SinusoidalCurveOptions options = curveOptions(view);
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    PlotFrame frame;
    drawSinusoidalCurves(figure, {0, 0, canvas.box.width, canvas.box.height}, view.params, options,
                         context.theme, &frame);
    ui::drawCanvasFigure(canvas, figure, context);
    if (canvas.hovered && frame.plot.contains(canvas.mouse)) {
        const double position = frame.toData(canvas.mouse).first;
        ImGui::BeginTooltip();
        ui::tooltipText("position %.2f", position);
        for (int dimension : options.dimensions) {
            ui::tooltipText("dim %d: %.5f", dimension,
                            sinusoidalValue(view.params, position, dimension));
        }
        ImGui::EndTooltip();
    }
}

}  // namespace poslab::panels
