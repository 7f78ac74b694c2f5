#include "panels/meaning_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "poslab/analysis/meaning.hpp"
#include "poslab/io/npy_reader.hpp"
#include "poslab/views/meaning_figures.hpp"
#include "state/ranges.hpp"
#include "ui/markup_text.hpp"
#include "ui/session.hpp"
#include "ui/widgets.hpp"

namespace poslab::panels {

namespace {

Result<MeaningParams> paramsForExport(const state::MeaningViewState& view) {
    MeaningParams params = view.params;
    if (!view.tokensPath.empty()) {
        auto tokens = loadNpy(view.tokensPath);
        if (!tokens) return tokens.error();
        params.tokens = std::make_shared<const Matrix>(std::move(tokens).value());
    }
    if (auto s = validate(params); !s) return s.error();
    return params;
}

Figure noteFigure(const std::string& message, float width, float height, const Theme& theme) {
    Figure figure = emptyFigure(width, height, theme);
    drawNote(figure, {0, 0, width, height}, message, theme);
    return figure;
}

}  // namespace

Result<MeaningParams> MeaningPanel::effectiveParams(const state::MeaningViewState& view) {
    MeaningParams params = view.params;
    if (!view.tokensPath.empty()) {
        if (view.tokensPath != tokensPath_) {
            tokensPath_ = view.tokensPath;
            auto tokens = loadNpy(tokensPath_);
            tokens_ = tokens ? std::make_shared<const Matrix>(std::move(tokens).value()) : nullptr;
            tokensError_ = tokens ? "" : tokens.error().message;
        }
        if (!tokens_) return Error{tokensError_};
        params.tokens = tokens_;
    }
    if (auto s = validate(params); !s) return s.error();
    return params;
}

void MeaningPanel::drawControls(state::AppState& state, ui::FrameContext&) {
    state::MeaningViewState& view = state.meaning;
    drawControls(view);
}

void MeaningPanel::drawFigures(state::AppState& state, ui::FrameContext& context) {
    state::MeaningViewState& view = state.meaning;
    const std::pair<state::MeaningFigure, const char*> tabs[] = {
        {state::MeaningFigure::Terms, "Logit terms"},
        {state::MeaningFigure::Orthogonality, "Near-orthogonality"},
        {state::MeaningFigure::AddVersusConcat, "Add vs concatenate"}};
    ui::stateTabBar("meaning figures", tabs, &view.figure, &shownTab_);
    switch (view.figure) {
        case state::MeaningFigure::Terms:
            drawTerms(view, context);
            break;
        case state::MeaningFigure::Orthogonality:
            drawOrthogonality(view, context);
            break;
        case state::MeaningFigure::AddVersusConcat:
            drawAddVersusConcat(view, context);
            break;
    }
}

void MeaningPanel::drawOrthogonality(const state::MeaningViewState& view,
                                     ui::FrameContext& context) {
    const int d = view.orthogonalityDModel, samples = view.orthogonalitySamples;
    const std::uint64_t seed = view.params.seed;
    orthogonality_.show("near-orthogonality", {d, samples, seed}, context,
                        [d, samples, seed](float w, float h, const Theme& theme, Detail) {
                            return nearOrthogonalityFigure(d, samples, seed, w, h, theme);
                        });
}

void MeaningPanel::drawAddVersusConcat(const state::MeaningViewState& view,
                                       ui::FrameContext& context) {
    // Read here (the token file is the panel's): the worker gets a copy.
    const Result<MeaningParams> params = effectiveParams(view);
    addConcat_.showPanels(
        "add-vs-concat", view, context,
        [](float w, float h, const Theme& theme, int panel) {
            return addVersusConcatPanels(w, h, theme, panel);
        },
        [params](float w, float h, const Theme& theme, int panel, Detail) -> Result<Figure> {
            if (!params) return params.error();
            return addVersusConcatFigure(*params, w, h, theme, panel);
        });
}

void MeaningPanel::drawTerms(const state::MeaningViewState& view, ui::FrameContext& context) {
    // Full presentation fonts: the panels reflow (fewer columns, or one at a time) instead.
    const Theme& theme = context.theme;
    const ImVec2 room = ImGui::GetContentRegionAvail();
    ui::takeRequestedPanel(context, logitTermPanels({0, 0, room.x, room.y}, theme, 0).count,
                           &termPanel_);  // a lesson's "panel"
    ui::panelSelector(logitTermPanels({0, 0, room.x, room.y}, theme, termPanel_), &termPanel_);
    const ui::Canvas canvas = ui::beginCanvas("terms");
    const Box area{0, 0, canvas.box.width, canvas.box.height};
    const int texels = logitTermTexels(area, view.params.seqLen, theme, termPanel_);
    // Read here (the token file is the panel's): the worker gets a copy.
    const Result<MeaningParams> params = effectiveParams(view);
    const Refined<TermMaps> shown = maps_.getExact(
        MapsKey{view, texels}, [params, texels](const MapsKey&, Detail, const std::atomic<bool>&) {
            // Block means at most one per pixel, and the RMS within a bounded budget: the
            // figure costs the same whatever L and d a session sets.
            TermMaps made;
            made.params = params;
            made.maps =
                params ? logitTermMaps(*params, texels) : Result<LogitTermMaps>(params.error());
            return made;
        });
    if (!shown.exact) context.waiting = context.animating = true;  // a screenshot waits for it
    if (!shown.value) {
        Figure note = emptyFigure(canvas.box.width, canvas.box.height, theme);
        drawNote(note, area, "computing…", theme);
        ui::drawCanvasFigure(canvas, note, context);
        return;
    }
    const Result<LogitTermMaps>& maps = shown.value->maps;
    const FigureKey figureKey{shown.version, shown.exact,    canvas.box.width, canvas.box.height,
                              theme.id,      theme.fontSize, termPanel_};
    const TermsFigure& terms = termsFigure_.get(figureKey, [&] {
        TermsFigure drawn;
        if (maps) {
            drawn.figure = emptyFigure(canvas.box.width, canvas.box.height, theme);
            drawLogitTerms(drawn.figure, area, *shown.value->params, maps.value(), theme,
                           &drawn.frames, termPanel_);
        } else {
            drawn.figure =
                noteFigure(maps.error().message, canvas.box.width, canvas.box.height, theme);
        }
        return drawn;
    });
    ui::drawCanvasFigure(canvas, terms.figure, context);
    if (!shown.exact) {  // an earlier key's maps: say so
        const char* label = "updating…";
        const ImVec2 size = ImGui::CalcTextSize(label);
        ImGui::GetWindowDrawList()->AddText(
            ImVec2(canvas.box.x + canvas.box.width - size.x - 8, canvas.box.y + 4),
            ImGui::GetColorU32(ImGuiCol_TextDisabled), label);
    }
    if (!canvas.hovered || !maps || !shown.exact) return;
    // The word and position vectors, for the cell under the pointer only.
    const Result<MeaningSequence>& sequence = sequence_.get(view, [&] {
        return params ? buildSequence(*params) : Result<MeaningSequence>(params.error());
    });
    if (!sequence) return;
    for (const PlotFrame& frame : terms.frames) {
        if (!frame.plot.contains(canvas.mouse)) continue;
        const MeaningSequence& s = sequence.value();
        const auto [x, y] = frame.toData(canvas.mouse);
        const long long L = (long long)s.tokens.rows;
        const std::size_t j =
            std::size_t(std::clamp<long long>((long long)std::floor(x), 0, L - 1));
        const std::size_t i =
            std::size_t(std::clamp<long long>((long long)std::floor(y), 0, L - 1));
        // The cell itself, exactly: five dot products of d values.
        const std::size_t d = s.tokens.cols;
        const double scale = 1.0 / std::sqrt(double(view.params.dModel));
        auto dot = [&](const Matrix& a, std::size_t r, const Matrix& b, std::size_t c) {
            double sum = 0;
            for (std::size_t k = 0; k < d; ++k) sum += a(r, k) * b(c, k);
            return scale * sum;
        };
        double total = 0;
        {
            double sum = 0;
            for (std::size_t k = 0; k < d; ++k)
                sum += (s.tokens(i, k) + s.positions(i, k)) * (s.tokens(j, k) + s.positions(j, k));
            total = scale * sum;
        }
        ImGui::BeginTooltip();
        ui::tooltipText("query i = %zu, key j = %zu", i, j);
        ui::tooltipText("content·content   x_i·x_j = %+.5f", dot(s.tokens, i, s.tokens, j));
        ui::tooltipText("content·position  x_i·p_j = %+.5f", dot(s.tokens, i, s.positions, j));
        ui::tooltipText("position·content  p_i·x_j = %+.5f", dot(s.positions, i, s.tokens, j));
        ui::tooltipText("position·position p_i·p_j = %+.5f", dot(s.positions, i, s.positions, j));
        ImGui::Separator();
        ui::tooltipText("sum (x_i+p_i)·(x_j+p_j)  = %+.5f  (all divided by √d)", total);
        const LogitTermMaps& drawnMaps = maps.value();
        if (drawnMaps.cellsPerTexel > 1) {
            ui::tooltipTextDisabled("a pixel shows the mean of %lld x %lld cells",
                                    drawnMaps.cellsPerTexel, drawnMaps.cellsPerTexel);
        }
        if (drawnMaps.rmsRows < drawnMaps.seqLen) {
            ui::tooltipTextDisabled("RMS in the titles: over %d evenly spaced query rows of %d",
                                    drawnMaps.rmsRows, drawnMaps.seqLen);
        }
        ImGui::EndTooltip();
        break;
    }
}

void MeaningPanel::drawControls(state::MeaningViewState& view) {
    MeaningParams& p = view.params;
    if (view.figure == state::MeaningFigure::Orthogonality) {
        ui::sectionHeader("Random vectors against positions");
        ui::sliderInt(
            state::kOrthogonalityDModelRange, &view.orthogonalityDModel,
            "Width of the vectors. The cosine between a random vector and any fixed vector "
            "has standard deviation 1/√d: wider vectors are more nearly orthogonal.");
        const std::string samplesHelp =
            "Random vectors drawn. At most " + std::to_string(kOrthogonalityComponents) +
            " components are drawn in all (d each): past that the figure shows the first " +
            std::to_string(nearOrthogonalitySamples(view.orthogonalityDModel, 1000000)) +
            " draws of the seeded stream at this d, and says so.";
        ui::sliderInt(state::kOrthogonalitySamples, &view.orthogonalitySamples,
                      samplesHelp.c_str());
        ui::seedSlider(state::kSeedSliderParam, &p.seed, "Random draws.");
        ImGui::Spacing();
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled(
            "Each cosine compares a fresh N(0, I) vector with the sinusoidal vector of a "
            "random position 0..4095. The orange curve is the exact density, which "
            "depends only on d.");
        ImGui::PopTextWrapPos();
        return;
    }
    ui::sectionHeader("Sequence");
    if (view.tokensPath.empty()) {
        ui::sliderInt(state::kMeaningDModel, &p.dModel, "Width of word and position vectors.");
    } else {
        ImGui::TextDisabled("d_model = %d (the loaded vectors' width)", p.dModel);
    }
    ui::sliderInt(state::kMeaningTokens, &p.seqLen, "Length of the sequence (L x L logits).");
    if (view.tokensPath.empty()) {
        ui::sliderInt(
            state::kMeaningVocabulary, &p.vocabulary,
            "Distinct random words the sequence is drawn from. A small vocabulary repeats "
            "words, which shows up as bright cells in content·content wherever a word meets "
            "itself.");
        ui::sliderDouble(
            state::kMeaningWordScale, &p.contentScale,
            "Standard deviation of each word-vector component. Sinusoidal position components "
            "have RMS 1/√2 ≈ 0.71.");
    }
    ui::seedSlider(state::kSeedSliderParam, &p.seed,
                   "Words, their vectors and (learned) the position table.");
    ui::sectionHeader("Positions");
    ui::comboEnum("positions", &p.positions,
                  std::vector{PositionTableKind::Sinusoidal, PositionTableKind::Learned},
                  positionTableName,
                  "sinusoidal: the fixed table; learned: a random initial table (std 0.02).");
    if (p.positions == PositionTableKind::Sinusoidal) {
        ui::sliderDouble(state::kSinusoidalBaseSlider, &p.base, "Sinusoidal frequency base.");
    }
    ui::sliderDouble(
        state::kMeaningPositionScale, &p.positionScale,
        "Multiplies every position vector. 0 removes position entirely: the logits no longer "
        "depend on order, only on which words meet.");
    if (ImGui::Button("no position")) p.positionScale = 0;
    ui::tooltipForLastItem(
        "Attention without positions: shuffle the words and every logit moves with them.");
    ImGui::SameLine();
    if (ImGui::Button("1")) p.positionScale = 1;

    ui::sectionHeader("Word vectors from a file");
    std::string path = view.tokensPath;
    if (ui::pathField("##tokens", "path/to/embeddings.npy", &path, "Load",
                      "A 2-D .npy: one row per token of the sequence, d_model columns (e.g. a "
                      "model's token embeddings for a sentence). Empty: random words.")) {
        view.tokensPath = path;
        tokensPath_.clear();
        sequence_.clear();  // the file may have changed: read it again
        maps_.clear();
        addConcat_.clear();
        auto params = effectiveParams(view);
        if (tokens_ && !view.tokensPath.empty()) {
            p.dModel = int(std::min<std::size_t>(tokens_->cols, 2048));
            p.seqLen = int(std::clamp<std::size_t>(tokens_->rows, 2, 256));
        }
    }
    if (!view.tokensPath.empty()) {
        if (!tokensError_.empty()) {
            ui::errorText(tokensError_);
        }
        if (ImGui::Button("Use random words")) view.tokensPath.clear();
    }
}

Figure MeaningPanel::exportFigure(const state::AppState& state, float width, float height,
                                  const Theme& theme) const {
    const state::MeaningViewState& view = state.meaning;
    Result<Figure> figure = Error{""};
    if (view.figure == state::MeaningFigure::Orthogonality) {
        figure = nearOrthogonalityFigure(view.orthogonalityDModel, view.orthogonalitySamples,
                                         view.params.seed, width, height, theme);
    } else {
        auto params = paramsForExport(view);
        if (!params) return noteFigure(params.error().message, width, height, theme);
        figure = view.figure == state::MeaningFigure::Terms
                     ? meaningFigure(*params, width, height, theme)
                     : addVersusConcatFigure(*params, width, height, theme);
    }
    if (!figure) return noteFigure(figure.error().message, width, height, theme);
    return std::move(figure).value();
}

Result<Matrix> MeaningPanel::exportData(const state::AppState& state) const {
    const state::MeaningViewState& view = state.meaning;
    if (view.figure == state::MeaningFigure::Orthogonality) {
        // One cosine per row.
        // The draws the figure shows (a prefix of the requested ones when d is large).
        auto cosines = randomPositionCosines(
            view.orthogonalityDModel, 10000,
            nearOrthogonalitySamples(view.orthogonalityDModel, view.orthogonalitySamples), 4096,
            view.params.seed);
        if (!cosines) return cosines.error();
        Matrix column(cosines->size(), 1);
        column.values = *cosines;
        return column;
    }
    auto params = paramsForExport(view);
    if (!params) return params.error();
    // The logit of the summed vectors (L x L, divided by sqrt(d)): one Gram matrix on every
    // core, not the five products of decomposeLogits.
    auto sequence = buildSequence(*params);
    if (!sequence) return sequence.error();
    Matrix sums = sequence->tokens;
    for (std::size_t i = 0; i < sums.values.size(); ++i)
        sums.values[i] += sequence->positions.values[i];
    auto gram = gramSimilarity(sums, SimilarityMetric::Dot);
    if (!gram) return gram.error();
    Matrix total = std::move(gram).value();
    const double scale = 1.0 / std::sqrt(double(params->dModel));
    for (double& v : total.values) v *= scale;
    return total;
}

}  // namespace poslab::panels
