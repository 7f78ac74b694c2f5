// rope_panel_export.cpp — File > Export for the RoPE panel: the shown tab's figure at the
// requested size (the same views/ functions the tabs call) and its data as a matrix.
#include "panels/rope_panel.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/views/rope_layers_figures.hpp"

namespace poslab::panels {

// ---------------------------------------------------------------------------------------------
// Export
// ---------------------------------------------------------------------------------------------

Figure RopePanel::exportFigure(const state::AppState& state, float width, float height,
                               const Theme& theme) const {
    const state::RopeViewState& view = state.rope;
    Figure figure = emptyFigure(width, height, theme);
    const Box area{0, 0, width, height};
    if (auto s = validate(view.params); !s) {
        drawNote(figure, area, s.error().message, theme);
        return figure;
    }
    auto vectors = queryKeyFor(view);
    if (!vectors) {
        state::RopeViewState seeded = view;
        seeded.vectors = state::RopeVectorSource::Seeded;
        vectors = queryKeyFor(seeded);
    }
    const int training = originalMaxPositions(view.params);
    switch (view.figure) {
        case state::RopeFigureId::Rotation: {
            RopeRotationOptions options;
            options.q = vectors->q;
            options.k = vectors->k;
            options.m = view.m;
            options.n = view.n;
            options.pairs = shownPairs(view);
            options.trail = view.trail;
            drawRopeRotation(figure, area, view.params, options, theme);
            break;
        }
        case state::RopeFigureId::Angles: {
            RopeAngleOptions options;
            options.window = view.angleWindow;
            if (training < view.params.seqLen) options.trainingLength = training;
            options.queryKey = {view.m, view.n};
            drawRopeAngles(figure, area, view.params, options, theme, nullptr);
            break;
        }
        case state::RopeFigureId::Scores: {
            RopeScoreOptions options;
            options.q = vectors->q;
            options.k = vectors->k;
            options.window = view.scoreWindow;
            options.colormap = view.scoreColormap;
            if (training < view.params.seqLen) options.trainingLength = training;
            options.queryKey = {view.m, view.n};
            drawRopeScores(figure, area, view.params, options, theme, nullptr);
            break;
        }
        case state::RopeFigureId::Frequencies:
            drawRopeFrequencies(figure, area, view.params, {view.incompleteWithin}, theme);
            break;
        case state::RopeFigureId::Decay:
            drawRopeDecay(figure, area, rotatedDims(view.params), view.params.base,
                          view.decayDistance, theme, nullptr, nullptr,
                          view.decayLogAxis ? DistanceAxis::Logarithmic : DistanceAxis::Linear);
            break;
        case state::RopeFigureId::Precision: {
            auto reports = ropePrecisionReports(
                view.params, {FloatFormat::Float32, FloatFormat::BFloat16, FloatFormat::Float16},
                view.precisionPositions);
            if (!reports) {
                drawNote(figure, area, reports.error().message, theme);
                break;
            }
            drawRopePrecision(figure, area, view.params, *reports, theme);
            break;
        }
        case state::RopeFigureId::Layers:
            if (view.config) {
                drawRopeLayers(figure, area, *view.config, theme);
            } else {
                drawNote(figure, area, "no config.json loaded", theme);
            }
            break;
        case state::RopeFigureId::Scalings:
            drawRopeScalings(figure, area, view.params, view.scalings, theme);
            break;
        case state::RopeFigureId::Usage:
            usageTab_.drawFigure(figure, area, view.usage, theme, view.usage.selectedPanel);
            break;
    }
    return figure;
}

Result<Matrix> RopePanel::exportData(const state::AppState& state) const {
    const state::RopeViewState& view = state.rope;
    auto freqs = ropeFrequencies(view.params);
    if (!freqs) return freqs.error();
    auto vectors = queryKeyFor(view);
    if (!vectors) return vectors.error();
    const RopePairing pairing = view.params.pairing;
    switch (view.figure) {
        case state::RopeFigureId::Rotation: {
            // Row 0: q rotated to m; row 1: k rotated to n.
            Matrix out(2, std::size_t(view.params.headDim));
            const auto q = ropeRotate(vectors->q, view.m, *freqs, pairing);
            const auto k = ropeRotate(vectors->k, view.n, *freqs, pairing);
            std::copy(q.begin(), q.end(), out.row(0));
            std::copy(k.begin(), k.end(), out.row(1));
            return out;
        }
        case state::RopeFigureId::Angles:
            return ropeAngleTable(*freqs, view.params.seqLen);
        case state::RopeFigureId::Scores:
            return ropeScoreMatrix(vectors->q, vectors->k, view.params.seqLen, *freqs, pairing);
        case state::RopeFigureId::Frequencies: {
            Matrix out(freqs->inverse.size(), 1);
            for (std::size_t i = 0; i < freqs->inverse.size(); ++i) out(i, 0) = freqs->inverse[i];
            return out;
        }
        case state::RopeFigureId::Decay: {
            auto bound =
                ropeDecayBound(rotatedDims(view.params), view.params.base, view.decayDistance);
            if (!bound) return bound.error();
            Matrix out(bound->size(), 1);
            for (std::size_t r = 0; r < bound->size(); ++r) out(r, 0) = (*bound)[r];
            return out;
        }
        case state::RopeFigureId::Precision: {
            // One row per pair: theta_i, then the first failing position per format (-1: none).
            const std::vector<FloatFormat> formats = {FloatFormat::Float32, FloatFormat::BFloat16,
                                                      FloatFormat::Float16};
            auto reports = ropePrecisionReports(view.params, formats, view.precisionPositions);
            if (!reports) return reports.error();
            Matrix out(freqs->inverse.size(), 1 + formats.size());
            for (std::size_t i = 0; i < freqs->inverse.size(); ++i) {
                out(i, 0) = freqs->inverse[i];
                for (std::size_t f = 0; f < formats.size(); ++f) {
                    out(i, 1 + f) = double((*reports)[f].pairs[i].firstPositionOver);
                }
            }
            return out;
        }
        case state::RopeFigureId::Layers: {
            // One row per layer: RoPE variant (-1: NoPE), base (0: NoPE), sliding window (0: full).
            if (!view.config || view.config->layers.empty()) {
                return Error{"no config.json with layers is loaded"};
            }
            const HfModelConfig& config = *view.config;
            Matrix out(config.layers.size(), 3);
            for (std::size_t i = 0; i < config.layers.size(); ++i) {
                const HfLayer& layer = config.layers[i];
                out(i, 0) = layer.ropeVariant;
                out(i, 1) = layer.ropeVariant >= 0
                                ? config.ropeVariants[std::size_t(layer.ropeVariant)].rope.base
                                : 0.0;
                out(i, 2) = layer.slidingWindow;
            }
            return out;
        }
        case state::RopeFigureId::Scalings: {
            // One row per pair, one column per scaling (ropeScalingRatios' order).
            auto curves = ropeScalingRatios(view.params, view.scalings);
            if (!curves) return curves.error();
            Matrix out(freqs->inverse.size(), curves->size());
            for (std::size_t c = 0; c < curves->size(); ++c)
                for (std::size_t i = 0; i < out.rows; ++i) out(i, c) = (*curves)[c].ratio[i];
            return out;
        }
        case state::RopeFigureId::Usage: {
            // Layers x pairs, the mean over heads (`poslab export rope-usage` writes all heads).
            if (!usageTab_.data()) return Error{"no checkpoint read yet (Usage tab)"};
            return *usageTab_.data()->byLayer;
        }
    }
    return Error{"unknown RoPE figure"};
}

}  // namespace poslab::panels
