#include "encodings/contextual_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "poslab/base/limits.hpp"
#include "state/ranges.hpp"
#include "ui/widgets.hpp"

namespace poslab::encodings {

namespace {

PanelGrid gridFor(float w, float h, const Theme& theme, int panel, const PanelShape& shape) {
    return reflowPanels({0, 0, w, h}, shape, theme, panel);
}

// The tab's figure, or a figure that says why it could not be drawn.
template <class Draw>
Figure figureOf(float w, float h, const Theme& theme, Draw draw) {
    Figure figure = emptyFigure(w, h, theme);
    if (Status s = draw(figure, Box{0, 0, w, h}); !s) {
        drawNote(figure, {0, 0, w, h}, s.error().message, theme);
    }
    return figure;
}

}  // namespace

void ContextualPanel::drawControls(state::AppState& state, ui::FrameContext&) {
    state::ContextualViewState& view =
        state.plugins.get<state::ContextualViewState>(state::kContextualKey);
    drawControls(view);
}

void ContextualPanel::drawFigures(state::AppState& state, ui::FrameContext& context) {
    state::ContextualViewState& view =
        state.plugins.get<state::ContextualViewState>(state::kContextualKey);
    const std::pair<state::ContextualTab, const char*> tabs[] = {
        {state::ContextualTab::Cope, "CoPE"},
        {state::ContextualTab::Deberta, "DeBERTa"},
        {state::ContextualTab::Nope, "NoPE & iRoPE"},
        {state::ContextualTab::Randomized, "Randomized"}};
    ui::stateTabBar("context figures", tabs, &view.tab, &shownTab_);
    // One tab's figure: its cache (FigureCache, or LiveFigure for a figure built on a
    // worker, whose build also takes a Detail: the trailing arguments), keyed on its
    // parameters, laid out by its panel shape. The build copies what it reads.
    auto show = [&](auto& cache, const char* id, const auto& params, PanelShape shape,
                    auto drawFigure) {
        cache.showPanels(
            id, params, context,
            [shape](float w, float h, const Theme& t, int panel) {
                return gridFor(w, h, t, panel, shape);
            },
            [params, drawFigure](float w, float h, const Theme& t, int panel,
                                 auto...) -> Result<Figure> {
                return figureOf(w, h, t, [&](Figure& f, Box area) {
                    return drawFigure(f, area, params, t, panel);
                });
            });
    };
    // The same for a figure with a coarse value (LiveFigure): drawFigure also takes the Detail,
    // coarse on this thread while the parameters move (when `coarse`), exact on the worker.
    auto showRefining = [&](auto& cache, const char* id, const auto& params, PanelShape shape,
                            auto drawFigure, bool coarse) {
        cache.showPanels(
            id, params, context,
            [shape](float w, float h, const Theme& t, int panel) {
                return gridFor(w, h, t, panel, shape);
            },
            [params, drawFigure](float w, float h, const Theme& t, int panel,
                                 Detail detail) -> Result<Figure> {
                return figureOf(w, h, t, [&](Figure& f, Box area) {
                    return drawFigure(f, area, params, t, panel, detail);
                });
            },
            coarse);
    };
    switch (view.tab) {
        case state::ContextualTab::Cope:
            show(cope_, "cope", view.cope, kCopePanels, drawCopeFigure);
            break;
        case state::ContextualTab::Deberta: {
            // As Randomized: coarse here while a slider moves, exact on the worker once still;
            // each keeps its vectors and dot products while only the buckets move. While the
            // seed or head_dim moves every vector is new (a coarse figure would cost the frame
            // tens of ms): the worker's last figure stays up instead, as for a figure without a
            // coarse value.
            const DebertaParams& params = view.deberta;
            const bool vectorsMoved = lastDeberta_ && (lastDeberta_->seed != params.seed ||
                                                       lastDeberta_->headDim != params.headDim);
            lastDeberta_ = params;
            showRefining(
                deberta_, "deberta", params, kDebertaPanels,
                [memo = &debertaMemo_, coarseMemo = &debertaCoarseMemo_](
                    Figure& f, Box area, const DebertaParams& p, const Theme& t, int panel,
                    Detail detail) {
                    DebertaFigureMemo* kept = detail == Detail::Coarse ? coarseMemo : memo;
                    return drawDebertaFigure(f, area, p, t, panel, detail, kept);
                },
                !vectorsMoved);
            break;
        }
        case state::ContextualTab::Nope:
            // Built on this thread each time a slider moves; the memo keeps the mask and the
            // layer stack (and their textures) while only the temperature changes.
            show(nope_, "nope", view.nope, nopePanelShape(view.nope.sections),
                 [memo = &nopeMemo_](Figure& f, Box area, const NopeFigureOptions& o,
                                     const Theme& t, int panel) {
                     return drawNopeFigure(f, area, o, t, panel, memo);
                 });
            break;
        case state::ContextualTab::Randomized: {
            // While the seed or a size moves, a coarse figure on this thread (draw 0 as a line
            // instead of a thousand dots: most of the frame's cost); the exact one on the worker
            // once the controls hold still.
            showRefining(
                randomized_, "randomized", view.randomized, kRandomizedPanels,
                [](Figure& f, Box area, const RandomizedPositionsParams& p, const Theme& t,
                   int panel,
                   Detail detail) { return drawRandomizedFigure(f, area, p, t, panel, detail); },
                true);
            break;
        }
    }
}

Figure ContextualPanel::exportFigure(const state::AppState& state, float width, float height,
                                     const Theme& theme) const {
    const state::ContextualViewState& view =
        state.plugins.get<state::ContextualViewState>(state::kContextualKey);
    return figureOf(width, height, theme, [&](Figure& f, Box area) -> Status {
        switch (view.tab) {
            case state::ContextualTab::Cope:
                return drawCopeFigure(f, area, view.cope, theme);
            case state::ContextualTab::Deberta:
                return drawDebertaFigure(f, area, view.deberta, theme);
            case state::ContextualTab::Nope:
                return drawNopeFigure(f, area, view.nope, theme);
            case state::ContextualTab::Randomized:
                return drawRandomizedFigure(f, area, view.randomized, theme);
        }
        return success();
    });
}

Result<Matrix> ContextualPanel::exportData(const state::AppState& state) const {
    const state::ContextualViewState& view =
        state.plugins.get<state::ContextualViewState>(state::kContextualKey);
    switch (view.tab) {
        case state::ContextualTab::Cope: {
            auto head = copeSentence(view.cope);
            if (!head) return head.error();
            return head->positions;
        }
        case state::ContextualTab::Deberta:
            return debertaTermMatrix(view.deberta, DebertaTerm::Sum);
        case state::ContextualTab::Nope: {
            if (auto s = validate(view.nope); !s) return s.error();
            const std::size_t n = std::size_t(view.nope.seqLen);
            if (auto s = checkMatrixSize(n, n, "the iRoPE mask"); !s) return s.error();
            Matrix m(n, n);
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j <= i; ++j)
                    m(i, j) = iropeAttends(view.nope.irope, view.nope.maskLayer, (long long)i,
                                           (long long)j)
                                  ? 1
                                  : 0;
            return m;
        }
        case state::ContextualTab::Randomized: {
            const RandomizedPositionsParams& p = view.randomized;
            if (auto s = validate(p); !s) return s.error();
            Matrix m(std::size_t(p.draws), std::size_t(p.length));
            for (int d = 0; d < p.draws; ++d) {
                const std::vector<long long> draw = randomizedDraw(p, d);
                for (std::size_t k = 0; k < draw.size(); ++k)
                    m(std::size_t(d), k) = double(draw[k]);
            }
            return m;
        }
    }
    return Error{"no tab"};
}

void ContextualPanel::drawControls(state::ContextualViewState& view) {
    switch (view.tab) {
        case state::ContextualTab::Cope:
            drawCopeControls(view.cope);
            break;
        case state::ContextualTab::Deberta:
            drawDebertaControls(view.deberta);
            break;
        case state::ContextualTab::Nope:
            drawNopeControls(view.nope);
            break;
        case state::ContextualTab::Randomized:
            drawRandomizedControls(view.randomized);
            break;
    }
}

void ContextualPanel::drawCopeControls(CopeSentenceParams& p) {
    ui::sectionHeader("CoPE: contextual positions");
    ImGui::SetNextItemWidth(-1);
    ui::inputString("##cope sentence", &p.sentence);
    ui::tooltipForLastItem(
        "The sentence, 2..64 tokens: words split at spaces, and . , ! ? ; : as tokens of their "
        "own, so a head can count words or sentences rather than tokens.");
    const std::size_t tokens = copeTokens(p.sentence).size();
    ImGui::TextDisabled("%zu tokens", tokens);
    if (auto s = validate(p); !s) ui::errorText(s.error().message);

    ui::sectionHeader("Gates");
    const std::pair<CopeGateSource, const char*> choices[] = {
        {CopeGateSource::Seeded,
         "sigmoid(q_i.k_j / sqrt(d)) from the Intuitions view's seeded toy head: an untrained "
         "head, gates anywhere in 0..1."},
        {CopeGateSource::Tokens, "Every gate 1: p_ij = i - j + 1, plain token distance."},
        {CopeGateSource::Words,
         "1 on words, 0 on punctuation: p counts words between key and query."},
        {CopeGateSource::Sentences,
         "1 on . ! ?, 0 elsewhere: p counts the sentence ends between key and query."}};
    for (const auto& [value, help] : choices) {
        if (ImGui::RadioButton(std::string(copeGateSourceName(value)).c_str(), p.gates == value))
            p.gates = value;
        ui::tooltipForLastItem(help);
        if (value != CopeGateSource::Words && value != CopeGateSource::Sentences) ImGui::SameLine();
    }
    ImGui::Checkbox("divide by sqrt(d)", &p.divideGates);
    ui::tooltipForLastItem(
        "The authors' code computes sigmoid(q.k / sqrt(head_dim)); the paper writes sigmoid(q.k). "
        "Only the seeded gates use it.");

    ui::sectionHeader("Head");
    if (ui::sliderInt(state::kCopeDModel, &p.dModel,
                      "Width of the word vectors, q and k and the position table (even)."))
        p.dModel = std::clamp(p.dModel + p.dModel % 2, 2, kMaxCopeDModel);
    ui::seedSlider(state::kWeightsSeedSlider, &p.seed, "Seed of W_q and W_k (the toy head's).");
    ui::seedSlider(state::kTableSeedSlider, &p.tableSeed,
                   "Seed of the position table e (d x npos, N(0, 1)): a stand-in for the learned "
                   "pos_emb, which the authors start at zero.");
    ui::sliderInt(
        state::kCopeNpos, &p.npos,
        "Positions with an embedding; p is clamped to npos - 1 as in the code. 0: tokens + "
        "1, the code's default (block_size + 1).");
    ui::wrappedNote(
        "p_ij sums the gates from key j to query i. Positions are fractional; the bias "
        "interpolates q_i.e[floor p] and q_i.e[ceil p].");
}

void ContextualPanel::drawDebertaControls(DebertaParams& p) {
    ui::sectionHeader("DeBERTa disentangled attention");
    ui::sliderInt(state::kDebertaSeqLen, &p.seqLen,
                  "Queries and keys. The matrices are sampled at one cell per pixel: 65,536 stays "
                  "live.");
    ui::sliderInt(
        state::kDebertaBuckets, &p.positionBuckets,
        "position_buckets, the code's bucket_size (DeBERTa-v3: 256). |i - j| <= buckets/2 "
        "keeps its own index; beyond, "
        "buckets grow logarithmically. 0: no buckets (DeBERTa-v1 style, clamped by the "
        "gather).");
    const int lowest = p.positionBuckets > 0 ? p.positionBuckets / 2 + 2 : 1;
    p.maxRelativePositions = std::clamp(p.maxRelativePositions, lowest, kMaxGuiSeqLen);
    ui::sliderInt(
        state::kDebertaMaxPosition, &p.maxRelativePositions,
        ui::SliderBounds{lowest, kMaxGuiSeqLen},
        "max_relative_positions, the code's max_position (v3: 512): |i - j| = max_position - "
        "1 reaches the last bucket, "
        "2 x (buckets/2) - 1. Must exceed buckets/2 + 1.");
    ui::sliderInt(state::kDebertaHeadDim, &p.headDim, "d: the scores are / sqrt(d s).");
    ImGui::Checkbox("c2p", &p.c2p);
    ui::tooltipForLastItem("Content-to-position: q_i . Kr[delta(i, j) + k].");
    ImGui::SameLine();
    ImGui::Checkbox("p2c", &p.p2c);
    ui::tooltipForLastItem(
        "Position-to-content as HF gathers it: k_j . Qr[-delta(j, i) + k], which equals the "
        "c2p index (buckets are odd-symmetric). The paper's index is delta(j, i) + k.");
    ui::seedSlider(state::kSeedSliderParam, &p.seed,
                   "Seed of q, k and the relative embeddings Kr, Qr (N(0, 1)).");
    if (ImGui::Button("DeBERTa-v3 defaults")) {
        p.positionBuckets = 256;
        p.maxRelativePositions = 512;
        p.headDim = 64;
        p.c2p = p.p2c = true;
    }
    ui::tooltipForLastItem(
        "position_buckets 256, max_relative_positions 512, head_dim 64, p2c|c2p.");
    if (auto s = validate(p); !s) ui::errorText(s.error().message);
}

void ContextualPanel::drawNopeControls(NopeFigureOptions& o) {
    ui::sectionHeader("NoPE and Llama 4's iRoPE");
    ui::comboEnum(
        "show", &o.sections, std::array{NopeSections::All, NopeSections::Nope, NopeSections::Irope},
        [](NopeSections s) {
            return s == NopeSections::All    ? "both"
                   : s == NopeSections::Nope ? "NoPE only"
                                             : "iRoPE only";
        },
        "Which panels: the NoPE signal, the iRoPE panels, or both.");
    int length = int(std::min<long long>(o.seqLen, kMaxGuiSeqLen));
    if (ui::sliderInt(state::kNopeSeqLen, &length,
                      "Positions in the curves and in the mask (sampled to the pixels)."))
        o.seqLen = length;
    ui::sectionHeader("Layers");
    IropeParams& p = o.irope;
    ui::sliderInt(state::kIropeLayers, &p.numLayers, "num_hidden_layers (Llama 4 Scout: 48).");
    ui::sliderInt(
        state::kIropeInterval, &p.noRopeLayerInterval,
        "no_rope_layer_interval K: every K-th layer is NoPE: no_rope_layers[l] = int((l + 1) "
        "% K != 0) (1 = RoPE).");
    p.noRopeLayers.clear();  // the controls edit the interval; --no-rope-layers is the CLI's
    ui::sliderInt(state::kIropeChunk, &p.attentionChunkSize,
                  "attention_chunk_size: RoPE layers attend within chunks of this many positions "
                  "(Llama 4: 8192); 0: no "
                  "chunking. NoPE layers see the whole causal prefix.");
    o.maskLayer = std::clamp(o.maskLayer, 0, p.numLayers - 1);
    ui::sliderInt(state::kNopeMaskLayer, &o.maskLayer, ui::SliderBounds{0, p.numLayers - 1},
                  "The layer whose attention mask is drawn.");
    ImGui::TextDisabled(layerUsesRope(p, o.maskLayer) ? "a RoPE layer (chunked)"
                                                      : "a NoPE layer (full causal)");
    ui::sectionHeader("NoPE temperature");
    ui::sliderDouble(state::kTemperatureFloorScale, &o.temperature.floorScale,
                     "Positions per step of the query scale (Llama 4: 8192).");
    ui::sliderDouble(state::kTemperatureAttnScale, &o.temperature.attnScale,
                     "Scale gained per unit of log(step + 1) (Llama 4: 0.1).");
    if (ImGui::Button("Llama 4 defaults")) {
        p.numLayers = 48;
        p.noRopeLayerInterval = 4;
        p.attentionChunkSize = 8192;
        o.temperature = {};
    }
    ui::tooltipForLastItem(
        "48 layers, every 4th NoPE, chunks of 8192, floor_scale 8192, attn_scale 0.1.");
    ui::wrappedNote(
        "With no position encoding, the causal mask alone lets query t average t + 1 values: a "
        "first-token flag comes out as 1/(t+1), the position. Its precision sets how far it "
        "reaches.");
    if (auto s = validate(o); !s) ui::errorText(s.error().message);
}

void ContextualPanel::drawRandomizedControls(RandomizedPositionsParams& p) {
    ui::sectionHeader("Randomized positions");
    int n = int(std::min<long long>(p.maxLength, kMaxGuiSeqLen));
    if (ui::sliderInt(state::kRandomizedRange, &n,
                      "Training positions are drawn from 0..N-1: N is at least the longest test "
                      "length."))
        p.maxLength = n;
    p.length =
        std::clamp<int>(p.length, state::kRandomizedLength.low,
                        int(std::min<long long>(p.maxLength, state::kRandomizedLength.high)));
    ui::sliderInt(state::kRandomizedLength, &p.length, ui::SliderBounds{1, p.maxLength},
                  "Positions per training sequence: L distinct values, sorted.");
    ui::sliderInt(state::kRandomizedDraws, &p.draws, "Sequences drawn (each with its own seed).");
    ui::seedSlider(state::kSeedSliderParam, &p.seed, "Seed of the draws.");
    ui::wrappedNote(
        "The k-th smallest of L positions drawn from 0..N-1 has mean (k+1)(N+1)/(L+1) - 1: "
        "the spacing is (N+1)/(L+1), not 1. Only the order is informative.");
    if (auto s = validate(p); !s) ui::errorText(s.error().message);
}

}  // namespace poslab::encodings
