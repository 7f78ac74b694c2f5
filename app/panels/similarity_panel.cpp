#include "panels/similarity_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "poslab/base/limits.hpp"
#include "state/ranges.hpp"
#include "state/table_file.hpp"
#include "ui/markup_text.hpp"
#include "ui/session.hpp"
#include "ui/widgets.hpp"

namespace poslab::panels {

namespace {

SimilarityFigureOptions figureOptions(const state::SimilarityViewState& view,
                                      long long undefinedRows = 0) {
    SimilarityFigureOptions options;
    options.undefinedRows = undefinedRows;
    options.colormap = view.colormap;
    options.window = view.window;
    options.reference = view.reference;
    options.maxOffset = view.maxOffset;
    options.trainingLength = view.markTrainingLength ? view.trainingLength : 0;
    return options;
}

// The same parameters for export, loading the table from its path (no caches: const).
Result<SimilarityParams> paramsForExport(const state::SimilarityViewState& view) {
    SimilarityParams params = view.params;
    if (params.encoding == SimilarityEncoding::Learned && !view.learnedTablePath.empty()) {
        auto table = state::loadTableFile(view.learnedTablePath);  // .npy, or a checkpoint's table
        if (!table) return table.error();
        params.learnedTable = std::make_shared<const Matrix>(std::move(table->table));
    }
    return params;
}

}  // namespace

Result<SimilarityParams> SimilarityPanel::effectiveParams(const state::SimilarityViewState& view) {
    SimilarityParams params = view.params;
    if (params.encoding != SimilarityEncoding::Learned || view.learnedTablePath.empty())
        return params;
    if (view.learnedTablePath != tablePath_) {  // load once per path, errors included
        tablePath_ = view.learnedTablePath;
        auto table = state::loadTableFile(tablePath_);
        table_ = table ? std::make_shared<const Matrix>(std::move(table->table)) : nullptr;
        tableError_ = table ? "" : table.error().message;
    }
    if (!table_) return Error{tableError_};
    params.learnedTable = table_;
    return params;
}

Status SimilarityPanel::refresh(const state::SimilarityViewState& view) {
    auto params = effectiveParams(view);  // (re)loads the table when its path changed
    const DataKey key{view.params, view.learnedTablePath};
    return data_.get(key, [&] { return computeData(std::move(params)); }).status;
}

SimilarityPanel::SimilarityData SimilarityPanel::computeData(
    Result<SimilarityParams> params) const {
    SimilarityData d;
    if (!params) {
        d.status = params.error();
        return d;
    }
    d.params = *params;
    if (d.params.encoding == SimilarityEncoding::Learned &&
        d.params.seqLen > kMaxGuiLearnedSimilarity) {
        d.status = Error{"a learned table's similarity costs O(L² d): the view stops at " +
                         std::to_string(kMaxGuiLearnedSimilarity) +
                         " positions (poslab export similarity has no such limit)"};
        return d;
    }
    if (d.params.encoding == SimilarityEncoding::Learned) {
        auto table = similarityTable(d.params);
        if (!table) {
            d.status = table.error();
            return d;
        }
        // Zero rows (padding) have no cosine: masked cells and the note, as the command line says.
        d.undefinedRows =
            d.params.metric == SimilarityMetric::Cosine ? undefinedCosineRows(*table) : 0;
        if (!gramFitsBudget((long long)table->rows, (long long)table->cols)) {
            d.rows = std::make_shared<const Matrix>(std::move(table).value());
            return d;
        }
        auto matrix = gramSimilarity(*table, d.params.metric);
        if (!matrix) {
            d.status = matrix.error();
            return d;
        }
        d.full = std::make_shared<const Matrix>(std::move(matrix).value());
    } else {
        auto offsets = offsetSimilarity(d.params);
        if (!offsets) {
            d.status = offsets.error();
            return d;
        }
        d.offsets = std::make_shared<const OffsetSimilarity>(std::move(offsets).value());
    }
    return d;
}

double SimilarityPanel::valueAt(long long i, long long j) const {
    if (data().full) return (*data().full)(std::size_t(i), std::size_t(j));
    if (data().rows) return tableSimilarityAt(*data().rows, data().params.metric, i, j);
    return data().offsets ? data().offsets->at(i, j) : NAN;
}

void SimilarityPanel::prepare(state::AppState& state, ui::FrameContext&) {
    refreshed_ = refresh(state.similarity);
}

void SimilarityPanel::drawControls(state::AppState& state, ui::FrameContext& context) {
    state::SimilarityViewState& view = state.similarity;
    drawControls(view, context);
}

void SimilarityPanel::drawFigures(state::AppState& state, ui::FrameContext& context) {
    state::SimilarityViewState& view = state.similarity;
    if (!refreshed_) {
        ui::noteCanvas("similarity error", refreshed_.error().message, context);
        return;
    }
    const ImVec2 available = ImGui::GetContentRegionAvail();
    // Too narrow for the two side by side (a 480 px window gave the map 138 px, every label of
    // it "…"), or tall enough that the map is larger over the curve (1024x768): the map over
    // the curve, each the full width; the curve keeps 14 lines, room for its legend below it.
    const float line = ImGui::GetFontSize() / context.uiScale;
    const SimilarityLayout layout = similarityLayout(available.x, available.y, line);
    ImGui::BeginChild("similarity heatmap",
                      layout.stacked ? ImVec2(0, layout.mapHeight) : ImVec2(layout.mapWidth, 0),
                      false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    drawHeatmap(view, context);
    ImGui::EndChild();
    if (!layout.stacked) ImGui::SameLine();
    ImGui::BeginChild("similarity curve", ImVec2(0, 0), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    drawCurve(view, context);
    ImGui::EndChild();
}

void SimilarityPanel::drawControls(state::SimilarityViewState& view, ui::FrameContext& context) {
    SimilarityParams& p = view.params;
    ui::sectionHeader("What is compared");
    ui::comboEnum(
        "encoding", &p.encoding,
        std::vector{SimilarityEncoding::Sinusoidal, SimilarityEncoding::Learned,
                    SimilarityEncoding::Rope},
        similarityEncodingName,
        "sinusoidal: rows of the fixed table, PE(i)·PE(j).\nlearned: rows of a learned table "
        "(seeded initial values, or a trained .npy).\nrope: the score of a query rotated to "
        "position i and a key rotated to j.");
    ui::comboEnum("metric", &p.metric, std::vector{SimilarityMetric::Cosine, SimilarityMetric::Dot},
                  similarityMetricName,
                  "cosine: the dot product divided by both lengths, in [-1, 1].\n"
                  "dot: the raw dot product.");
    const int maxLength =
        p.encoding == SimilarityEncoding::Learned ? kMaxGuiLearnedSimilarity : kMaxGuiSeqLen;
    if (ui::sliderInt(
            state::kSimilaritySeqLen, &p.seqLen, ui::SliderBounds{2, maxLength},
            "L: positions 0..L-1 compared with each other. Sinusoidal and RoPE compute one "
            "O(L·d) profile whatever the zoom; learned tables compare rows: the whole product "
            "when it is small, else each pixel from its blocks' mean rows.")) {
        view.window = {};
    }

    switch (p.encoding) {
        case SimilarityEncoding::Sinusoidal:
            ui::sectionHeader("Sinusoidal");
            ui::sliderInt(state::kSimilaritySinusoidalDModel, &p.sinusoidal.dModel,
                          "Width of the table. An odd d_model leaves a lone sine column whose "
                          "contribution depends on i + j, so the matrix is no longer Toeplitz.");
            ui::sliderDouble(state::kSinusoidalBaseSlider, &p.sinusoidal.base,
                             "Frequency base: pair k turns at base^(-2k/d) radians per position.");
            ui::comboEnum(
                "layout", &p.sinusoidal.layout,
                std::vector{SinusoidalLayout::Interleaved, SinusoidalLayout::Concat,
                            SinusoidalLayout::Tensor2Tensor},
                layoutName,
                "The column order does not change dot products; t2t uses other frequencies.");
            break;
        case SimilarityEncoding::Learned: {
            ui::sectionHeader("Learned table");
            if (ImGui::RadioButton("seeded initial table", view.learnedTablePath.empty())) {
                view.learnedTablePath.clear();
            }
            ui::tooltipForLastItem(
                "The table at initialisation: independent normal values per position.");
            if (view.learnedTablePath.empty()) {
                ui::sliderInt(state::kSimilarityLearnedDModel, &p.learned.dModel,
                              "Width of the table.");
                ui::seedSlider(state::kSeedSliderParam, &p.learned.seed,
                               "The same seed always gives the same table.");
                ui::sliderDouble(state::kSimilarityLearnedStd, &p.learned.std,
                                 "Standard deviation of the initial values (GPT-2 and BERT: 0.02). "
                                 "Cosines do not depend on it.");
            }
            ImGui::TextDisabled("or a trained table:");
            std::string path = view.learnedTablePath;
            if (ui::pathField("##npy", "path/to/table.npy", &path, "Load",
                              "A 2-D .npy (float32 or float64): rows are positions, columns "
                              "dimensions, as saved from model.transformer.wpe.weight with "
                              "numpy.save. Enter or Load.") &&
                !path.empty()) {
                view.learnedTablePath = path;
                tablePath_
                    .clear();   // reload even if the path is the same (the file may have changed)
                data_.clear();  // read the file again
            }
            if (!tableError_.empty() && !view.learnedTablePath.empty()) ui::errorText(tableError_);
            if (table_ && !view.learnedTablePath.empty()) {
                ImGui::TextDisabled("%zu positions x %zu dims", table_->rows, table_->cols);
            }
            break;
        }
        case SimilarityEncoding::Rope: {
            ui::sectionHeader("RoPE");
            if (ui::sliderInt(state::kRopeHeadDimSlider, &p.rope.headDim,
                              "Dimensions per attention head (even).")) {
                p.rope.headDim += p.rope.headDim % 2;
            }
            ui::sliderDouble(
                state::kRopeBaseSlider, &p.rope.base,
                "rope_theta: pair i turns at base^(-2i/d) radians per position (Llama 3: 500000).");
            if (ImGui::Button("10000")) p.rope.base = 10000;
            ImGui::SameLine();
            if (ImGui::Button("500000")) p.rope.base = 500000;
            ui::tooltipForLastItem(
                "Llama 3's base: slower pairs, similarity that stays high longer.");
            ui::comboEnum(
                "scaling", &p.rope.scaling.type,
                std::vector{RopeScaling::None, RopeScaling::Linear, RopeScaling::Ntk,
                            RopeScaling::DynamicNtk, RopeScaling::Yarn, RopeScaling::Llama3},
                scalingName,
                "Context extension: how the frequencies are stretched (see the Extrapolation "
                "view).");
            if (p.rope.scaling.type != RopeScaling::None) {
                ui::sliderDouble(state::kRopeFactorSlider, &p.rope.scaling.factor,
                                 "The scaling factor s.");
                ui::sliderInt(state::kRopeOriginalLengthSlider, &p.rope.trainingLength,
                              "The original context L0 the scalings refer to.");
            }
            ui::comboEnum(
                "vectors", &p.ropeVectors,
                std::vector{RopeVectors::Expected, RopeVectors::SameSample,
                            RopeVectors::IndependentSamples},
                ropeVectorsName,
                "expected: the average over random q = k — the same cosine sum as the "
                "sinusoidal table.\nsame: one random q = k.\nindependent: random q and k, whose "
                "expected score is 0 at every offset — RoPE only modulates content similarity.");
            if (p.ropeVectors != RopeVectors::Expected) {
                ui::seedSlider(state::kSeedSliderParam, &p.ropeSeed, "Seed of the random q and k.");
            }
            break;
        }
    }

    ui::sectionHeader("Display");
    ui::comboEnum("colormap", &view.colormap, allColormaps(), colormapName,
                  "Blue-white-red is centred at zero: negative similarity is blue.");
    if (!dependsOnOffsetOnly(p)) {
        ui::sliderInt(
            state::kSimilarityReference, &view.reference, ui::SliderBounds{0, p.seqLen - 1},
            "The query whose row the curve follows (the curve also shows the mean over all "
            "queries).");
    }
    ui::sliderInt(state::kSimilarityCurveRange, &view.maxOffset,
                  ui::SliderBounds{0, std::max(1, p.seqLen - 1)},
                  "The curve shows offsets -K..K; 0 shows the whole sequence.");
    ImGui::Checkbox("mark training length", &view.markTrainingLength);
    ui::tooltipForLastItem(
        "A line at the length a model was trained on, with the positions beyond shaded.");
    if (view.markTrainingLength)
        ui::sliderInt(state::kSimilarityTrainingMark, &view.trainingLength);
    if (ImGui::Button("Reset zoom")) view.window = {};
    ui::tooltipForLastItem("Or double-click the heatmap. Wheel: zoom about the mouse; drag: pan.");
    if (data().offsets) {
        ImGui::Spacing();
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled(
            "%s", data().offsets->toeplitz()
                      ? "Depends on j − i only: every diagonal is constant (one O(L·d) profile)."
                      : "Toeplitz plus a rank-one term: the odd d_model's lone sine adds "
                        "sin(wi)·sin(wj), which depends on i + j too.");
        ImGui::PopTextWrapPos();
    }
    (void)context;
}

void SimilarityPanel::drawHeatmap(state::SimilarityViewState& view, ui::FrameContext& context) {
    const ui::Canvas canvas = ui::beginCanvas("heatmap");
    const long long L = data().params.seqLen;
    CellWindow& w = view.window;
    w = clampWindow(w.rowCount > 0 && w.colCount > 0 ? w : CellWindow{0, L, 0, L}, L, L);

    // The frame of the current layout locates the mouse in cells (zoom and pan need it first).
    PlotFrame frame;
    {
        Figure probe = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
        HeatmapSample empty;
        empty.window = w;
        drawSimilarityHeatmap(probe, {0, 0, canvas.box.width, canvas.box.height}, data().params,
                              empty, figureOptions(view, data().undefinedRows), context.theme,
                              &frame);
    }
    ui::zoomAndPan(w, canvas, frame, L, L, ui::ZoomAxes::Both);

    const SampleKey sampleKey{data_.version(), w, int(canvas.box.width), int(canvas.box.height)};
    const int maxRows = std::max(1, int(canvas.box.height)),
              maxCols = std::max(1, int(canvas.box.width));
    // Every source's texels through one refining memo: while the window moves, a coarse sample
    // (a quarter of the texels a side: a 16th of the work and of the texture upload) on this
    // thread; the exact one on a worker once the window holds still. A Gram matrix or an offset
    // profile's 800 x 800 texels cost several ms a frame (and a texture upload as large).
    const Refined<HeatmapSample> shown = sample_.get(
        sampleKey,
        [full = data().full, rows = data().rows, offsets = data().offsets,
         metric = data().params.metric, maxRows,
         maxCols](const SampleKey& key, Detail detail, const std::atomic<bool>&) {
            const int shrink = detail == Detail::Coarse ? 4 : 1;
            const int texelRows = std::max(1, maxRows / shrink),
                      texelCols = std::max(1, maxCols / shrink);
            if (full) return matrixSample(full, key.window, texelRows, texelCols);
            if (rows) {  // coarse: each block's mean of 4 of its rows, not of every row shown
                return tableSimilaritySample(*rows, metric, key.window, texelRows, texelCols,
                                             detail == Detail::Coarse ? 4 : 0);
            }
            return offsetSimilaritySample(*offsets, key.window, texelRows, texelCols);
        },
        true);
    if (!shown.exact) context.waiting = context.animating = true;  // screenshots: exact
    const HeatmapSample& sample = *shown.value;
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    drawSimilarityHeatmap(figure, {0, 0, canvas.box.width, canvas.box.height}, data().params,
                          sample, figureOptions(view, data().undefinedRows), context.theme, &frame);
    ui::drawCanvasFigure(canvas, figure, context);

    if (canvas.hovered && frame.plot.contains(canvas.mouse)) {
        const auto [x, y] = frame.toData(canvas.mouse);
        const long long j = std::clamp<long long>((long long)std::floor(x), 0, L - 1);
        const long long i = std::clamp<long long>((long long)std::floor(y), 0, L - 1);
        ImGui::BeginTooltip();
        ui::tooltipText("query i = %lld, key j = %lld, offset j − i = %lld", i, j, j - i);
        const double value = valueAt(i, j);
        const char* metric = data().params.metric == SimilarityMetric::Cosine ? "cosine" : "dot";
        if (data().params.metric == SimilarityMetric::Cosine && !std::isfinite(value))
            ui::tooltipText("%s undefined (masked): a zero or non-finite row",
                            metric);  // -inf, NaN
        else
            ui::tooltipText("%s = %.9g", metric, value);
        if (data().params.encoding == SimilarityEncoding::Sinusoidal && data().offsets &&
            data().offsets->toeplitz()) {
            ImGui::TextDisabled(
                "= Σ_k cos(ω_k · (i − j))%s: each sin/cos pair gives cos of the angle difference",
                data().params.metric == SimilarityMetric::Cosine ? " / (d/2)" : "");
        } else if (data().params.encoding == SimilarityEncoding::Rope &&
                   data().params.ropeVectors == RopeVectors::Expected) {
            ImGui::TextDisabled(
                "= 2 Σ_i cos(θ_i · (i − j)) + pass-through dims%s",
                data().params.metric == SimilarityMetric::Cosine ? ", normalised at 0" : "");
        }
        if (sample.rowsPerTexel > 1 || sample.colsPerTexel > 1) {
            ui::tooltipTextDisabled("zoomed out: each pixel shows the mean of %lld x %lld cells",
                                    sample.rowsPerTexel, sample.colsPerTexel);
        }
        ImGui::EndTooltip();
    }
}

void SimilarityPanel::drawCurve(state::SimilarityViewState& view, ui::FrameContext& context) {
    const ui::Canvas canvas = ui::beginCanvas("curve");
    const int reference = std::clamp(view.reference, 0, data().params.seqLen - 1);
    const SimilarityCurve& curve = curve_.get(CurveKey{data_.version(), reference}, [&] {
        if (data().full) return matrixCurve(*data().full, reference);
        if (data().rows)  // the mean over all queries would need the whole product
            return tableCurve(*data().rows, data().params.metric, reference);
        return offsetCurve(*data().offsets, reference);
    });
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    PlotFrame frame;
    drawSimilarityCurve(figure, {0, 0, canvas.box.width, canvas.box.height}, data().params, curve,
                        figureOptions(view, data().undefinedRows), context.theme, &frame);
    ui::drawCanvasFigure(canvas, figure, context);
    if (canvas.hovered && frame.plot.contains(canvas.mouse)) {
        const long long L = data().params.seqLen;
        const long long offset =
            std::clamp<long long>(std::llround(frame.toData(canvas.mouse).first), -(L - 1), L - 1);
        const std::size_t t = std::size_t(offset + L - 1);
        ImGui::BeginTooltip();
        ui::tooltipText("offset j − i = %lld", offset);
        if (t < curve.fromReference.size() && std::isfinite(curve.fromReference[t])) {
            ui::tooltipText("query %d: %.9g", reference, curve.fromReference[t]);
        }
        if (t < curve.diagonalMean.size())
            ui::tooltipText("mean over queries: %.9g", curve.diagonalMean[t]);
        ImGui::EndTooltip();
    }
}

Figure SimilarityPanel::exportFigure(const state::AppState& state, float width, float height,
                                     const Theme& theme) const {
    auto params = paramsForExport(state.similarity);
    Result<Figure> figure =
        params ? similarityFigure(*params, figureOptions(state.similarity), width, height, theme)
               : Result<Figure>(params.error());
    if (figure) return std::move(figure).value();
    Figure note = emptyFigure(width, height, theme);
    drawNote(note, {0, 0, width, height}, figure.error().message, theme);
    return note;
}

Result<Matrix> SimilarityPanel::exportData(const state::AppState& state) const {
    auto params = paramsForExport(state.similarity);
    if (!params) return params.error();
    return similarityMatrix(*params);
}

}  // namespace poslab::panels
