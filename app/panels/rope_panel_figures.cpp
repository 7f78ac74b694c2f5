// rope_panel_figures.cpp — the RoPE panel's tabs, one function each: Rotation, Angles, Scores,
// Frequencies, Decay, Scalings, Precision and Layers. Each draws its figure from views/ through
// the panel's caches and shows exact values on hover.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "panels/rope_panel.hpp"
#include "poslab/base/background.hpp"
#include "poslab/base/format.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/views/rope_layers_figures.hpp"
#include "state/ranges.hpp"
#include "ui/markup_text.hpp"
#include "ui/widgets.hpp"

namespace poslab::panels {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr double kDegrees = 180.0 / std::numbers::pi;

Box wholeCanvas(const ui::Canvas& canvas) {
    return {0, 0, canvas.box.width, canvas.box.height};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------------------------

void RopePanel::drawRotation(state::RopeViewState& view, ui::FrameContext& context) {
    RopeRotationOptions options;
    options.q = vectors().q;
    options.k = vectors().k;
    options.m = view.m;
    options.n = view.n;
    options.pairs = shownPairs(view);
    options.trail = view.trail;
    // Circles too small to read (16 pairs at 1024x768 F5): pages of fewer pairs, stepped through
    // as a view's panels are ("panel 2 of 3", Up/Down; a lesson's "panel" picks one). The
    // selector's row comes off the canvas, so the pages are counted without it.
    const ImVec2 room = ImGui::GetContentRegionAvail();
    RopeRotationPaging paging =
        ropeRotationPaging({0, 0, room.x, room.y}, view.params, options, context.theme);
    if (paging.pages > 1) {
        paging = ropeRotationPaging({0, 0, room.x, room.y - ImGui::GetFrameHeightWithSpacing()},
                                    view.params, options, context.theme);
        ui::takeRequestedPanel(context, paging.pages, &rotationPage_);
        PanelGrid pages;
        pages.count = paging.pages;
        pages.shown = rotationPage_ = std::clamp(rotationPage_, 0, paging.pages - 1);
        ui::panelSelector(pages, &rotationPage_);
        options.perPage = paging.perPage;
        options.page = rotationPage_;
    }
    const ui::Canvas canvas = ui::beginCanvas("rotation");
    if (canvas.hovered && canvas.wheel != 0) {
        // The wheel steps m (and n with it when scrubbing together) by whole positions.
        const double last = std::max(0, view.params.seqLen - 1);
        const double step = canvas.wheel > 0 ? 1 : -1;
        const double m = std::clamp(view.m + step, 0.0, last);
        if (view.scrubTogether) view.n = std::clamp(view.n + (m - view.m), 0.0, last);
        view.m = m;
        options.m = view.m;
        options.n = view.n;
    }
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    // What moves with m and n within a position (arrows, arcs, the legend's values) is a figure
    // of its own drawn over the rest, which then stays the same and is copied from its figure
    // layer (a trail's dots and the circles are most of the triangles). A layout audit sees the
    // whole figure.
    // The trails' dots, which move only when a whole position passes, are a figure between the
    // two, stacked on the first (figure_layers.hpp): a passing position draws the dots alone
    // over the copied circles, and copies them too until the next one.
    Figure moving = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    moving.background = {0, 0, 0, 0};
    Figure trails = moving;
    std::vector<RopeRotationCell> cells;
    drawRopeRotation(figure, wholeCanvas(canvas), view.params, options, context.theme, &cells,
                     context.layoutAudit ? nullptr : &moving,
                     context.layoutAudit ? nullptr : &trails);
    ui::drawCanvasFigure(canvas, figure, context);
    if (!trails.items.empty()) ui::drawCanvasFigure(canvas, trails, context);
    if (!moving.items.empty()) ui::drawCanvasFigure(canvas, moving, context);

    if (!canvas.hovered) return;
    auto freqs = ropeFrequencies(view.params);
    if (!freqs) return;
    for (const RopeRotationCell& cell : cells) {
        if (!cell.box.contains(canvas.mouse)) continue;
        const int pairs = int(freqs->inverse.size()), i = cell.pair;
        const int first = view.params.pairing == RopePairing::Half ? i : 2 * i;
        const int second = view.params.pairing == RopePairing::Half ? i + pairs : 2 * i + 1;
        const double theta = freqs->inverse[std::size_t(i)];
        const std::vector<double> rq = ropeRotate(vectors().q, view.m, *freqs, view.params.pairing);
        const std::vector<double> rk = ropeRotate(vectors().k, view.n, *freqs, view.params.pairing);
        ImGui::BeginTooltip();
        ui::tooltipText("pair %d: dimensions %d and %d", i, first, second);
        ui::tooltipText("θ = %.6g rad per position, wavelength %.6g positions", theta,
                        kTwoPi / theta);
        ui::tooltipText("q (%.4f, %.4f) turned by m·θ = %.4f rad -> (%.4f, %.4f)",
                        vectors().q[first], vectors().q[second], std::fmod(view.m * theta, kTwoPi),
                        rq[first], rq[second]);
        ui::tooltipText("k (%.4f, %.4f) turned by n·θ = %.4f rad -> (%.4f, %.4f)",
                        vectors().k[first], vectors().k[second], std::fmod(view.n * theta, kTwoPi),
                        rk[first], rk[second]);
        ui::tooltipText("angle from k to q: %+.3f°",
                        kDegrees * ropePairAngleBetween(vectors().q, vectors().k, view.m, view.n,
                                                        *freqs, view.params.pairing, i));
        ui::tooltipText("this pair's share of q·k: %+.6f",
                        ropePairScore(vectors().q, vectors().k, view.m, view.n, *freqs,
                                      view.params.pairing, i));
        if (freqs->attentionFactor != 1.0) {
            ui::tooltipTextDisabled(
                "includes the attention factor² = %.4f² (cos and sin are scaled)",
                freqs->attentionFactor);
        }
        ui::tooltipTextDisabled("Wheel: step m%s by one position.",
                                view.scrubTogether ? " and n" : "");
        ImGui::EndTooltip();
        break;
    }
}

void RopePanel::drawAngles(state::RopeViewState& view, ui::FrameContext& context) {
    const ui::Canvas canvas = ui::beginCanvas("angles");
    auto freqs = ropeFrequencies(view.params);
    if (!freqs) return;
    const long long positions = view.params.seqLen;
    const long long pairs = static_cast<long long>(freqs->inverse.size());
    ui::zoomAndPan(view.angleWindow, canvas, angleFrame_, positions, pairs,
                   ui::ZoomAxes::RowsOrColumns);

    RopeAngleOptions options;
    options.window = view.angleWindow;
    const int training = originalMaxPositions(view.params);
    if (training < view.params.seqLen) options.trainingLength = training;
    options.queryKey = {view.m, view.n};
    const Box plot = ropeAnglePlotBox(wholeCanvas(canvas), view.params, options, context.theme);
    const AngleKey key{view.params, view.angleWindow, int(plot.width), int(plot.height)};
    // Only the visible window, one texel per plot pixel at most (each the circular mean of the
    // angles under it): L = 65536 costs as little as L = 512.
    const HeatmapSample& angleSample = angles_.get(key, [&] {
        return ropeAngleSample(*freqs, positions, view.angleWindow, std::max(1, key.height),
                               std::max(1, key.width));
    });
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    drawRopeAngles(figure, wholeCanvas(canvas), view.params, options, context.theme, &angleSample,
                   &angleFrame_);
    ui::drawCanvasFigure(canvas, figure, context);

    if (canvas.hovered && angleFrame_.plot.contains(canvas.mouse)) {
        const auto [x, y] = angleFrame_.toData(canvas.mouse);
        const long long pair = std::clamp<long long>((long long)std::floor(x), 0, pairs - 1);
        const long long position =
            std::clamp<long long>((long long)std::floor(y), 0, positions - 1);
        const double theta = freqs->inverse[std::size_t(pair)];
        const double angle = std::fmod(double(position) * theta, kTwoPi);
        ImGui::BeginTooltip();
        ui::tooltipText("position %lld, pair %lld", position, pair);
        ui::tooltipText("angle %lld·θ mod 2π = %.6f rad (%.2f°)", position, angle,
                        angle * kDegrees);
        ui::tooltipText("%.4f full turns so far; θ = %.6g, wavelength %.6g",
                        position * theta / kTwoPi, theta, kTwoPi / theta);
        if (angleSample.rowsPerTexel > 1 || angleSample.colsPerTexel > 1) {
            ImGui::TextDisabled(
                "zoomed out: each pixel is the circular mean of %lld positions x %lld pairs;\n"
                "'mixed' where those angles spread over more than half a turn (zoom in)",
                angleSample.rowsPerTexel, angleSample.colsPerTexel);
        }
        ImGui::EndTooltip();
    }
}

void RopePanel::drawScores(state::RopeViewState& view, ui::FrameContext& context) {
    const ui::Canvas canvas = ui::beginCanvas("scores");
    refreshOffsets(view);
    const ScoreOffsets& offsets = this->offsets();
    if (!offsets.valid) return;
    const long long length = view.params.seqLen;
    ui::zoomAndPan(view.scoreWindow, canvas, scoreFrame_, length, length, ui::ZoomAxes::Both);
    RopeScoreOptions options;
    options.q = vectors().q;
    options.k = vectors().k;
    options.window = view.scoreWindow;
    options.colormap = view.scoreColormap;
    options.range = {-offsets.range.largest, offsets.range.largest};
    if (!offsets.range.allOffsets) options.rangeOffsets = offsets.range.offsetsCovered;
    const int training = originalMaxPositions(view.params);
    if (training < view.params.seqLen) options.trainingLength = training;
    options.queryKey = {view.m, view.n};
    const Box plot = ropeScorePlotBox(wholeCanvas(canvas), view.params, options, context.theme);
    const ScoreKey key{offsets_.version(), view.scoreWindow, int(plot.width), int(plot.height)};
    const HeatmapSample* sampled = nullptr;
    if (!offsets.scores.empty()) {
        // Block means of the visible window straight from the 2L-1 distinct scores: no L x L
        // matrix is built, so L = 4096 (or 65536) recomputes within a frame.
        sampled = &scores_.get(key, [&] {
            return ropeScoreSample(offsets.scores, view.params.seqLen, view.scoreWindow,
                                   std::max(1, key.height), std::max(1, key.width));
        });
    } else if (auto freqs = ropeFrequencies(view.params)) {
        // Past the budget, from q and k (a bounded number of terms per sample): coarse while the
        // window moves, exact on a worker when it stops. The worker copies what it reads.
        const Refined<HeatmapSample> shown = profiledScores_.get(
            key,
            [q = vectors().q, k = vectors().k, freqs = *freqs, seqLen = view.params.seqLen,
             pairing = view.params.pairing](const ScoreKey& s, Detail detail,
                                            const std::atomic<bool>&) {
                return ropeScoreSample(
                    q, k, seqLen, freqs, pairing, s.window, std::max(1, s.height),
                    std::max(1, s.width),
                    detail == Detail::Coarse ? kRopeScoreBudget / 64 : kRopeScoreBudget);
            },
            true);
        if (!shown.exact) context.waiting = context.animating = true;  // screenshots: exact
        sampled = shown.value;
    }
    static const HeatmapSample kNoSample;
    const HeatmapSample& scoreSample = sampled ? *sampled : kNoSample;
    if (!isDiverging(view.scoreColormap)) {
        // Sequential maps: the full range of all scores (those evaluated), low to high.
        const double low = offsets.range.low, high = offsets.range.high;
        options.range = {low, high > low ? high : low + 1};
    }
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    drawRopeScores(figure, wholeCanvas(canvas), view.params, options, context.theme, &scoreSample,
                   &scoreFrame_);
    ui::drawCanvasFigure(canvas, figure, context);

    if (canvas.hovered && scoreFrame_.plot.contains(canvas.mouse)) {
        auto freqs = ropeFrequencies(view.params);
        if (!freqs) return;
        const auto [x, y] = scoreFrame_.toData(canvas.mouse);
        const long long n = std::clamp<long long>((long long)std::floor(x), 0, length - 1);
        const long long m = std::clamp<long long>((long long)std::floor(y), 0, length - 1);
        ImGui::BeginTooltip();
        ui::tooltipText("query m = %lld, key n = %lld, m − n = %lld", m, n, m - n);
        ui::tooltipText("q_m·k_n = %.8g", ropeScore(vectors().q, vectors().k, double(m), double(n),
                                                    *freqs, view.params.pairing));
        ui::tooltipTextDisabled("the same on the whole diagonal m − n = %lld", m - n);
        if (freqs->attentionFactor != 1.0) {
            ui::tooltipTextDisabled(
                "includes the attention factor² = %.4f² (cos and sin are scaled)",
                freqs->attentionFactor);
        }
        if (scoreSample.rowsPerTexel > 1 || scoreSample.colsPerTexel > 1) {
            ui::tooltipTextDisabled("zoomed out: a pixel shows the mean of %lld × %lld cells",
                                    scoreSample.rowsPerTexel, scoreSample.colsPerTexel);
        }
        ImGui::EndTooltip();
    }
}

void RopePanel::drawFrequencies(state::RopeViewState& view, ui::FrameContext& context) {
    const ui::Canvas canvas = ui::beginCanvas("frequencies");
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    PlotFrame frame;
    drawRopeFrequencies(figure, wholeCanvas(canvas), view.params, {view.incompleteWithin},
                        context.theme, &frame);
    ui::drawCanvasFigure(canvas, figure, context);
    if (!canvas.hovered || !frame.plot.contains(canvas.mouse)) return;
    auto freqs = ropeFrequencies(view.params);
    auto plain = unscaledFrequencies(view.params);
    if (!freqs || !plain) return;
    const int pairs = int(freqs->inverse.size());
    const int i = std::clamp(int(std::lround(frame.toData(canvas.mouse).first)), 0, pairs - 1);
    const double theta = freqs->inverse[std::size_t(i)];
    const double wavelength = kTwoPi / theta;
    ImGui::BeginTooltip();
    ui::tooltipText("pair %d: θ = %.6g rad per position", i, theta);
    ui::tooltipText("wavelength %.6g positions", wavelength);
    if (view.params.scaling.type != RopeScaling::None) {
        const double original = plain->inverse[std::size_t(i)];
        ui::tooltipText("unscaled θ = %.6g (wavelength %.6g): divided by %.4g", original,
                        kTwoPi / original, original / theta);
    }
    ui::tooltipText("%.4g turns within the context (%d)", view.params.seqLen / wavelength,
                    view.params.seqLen);
    ui::tooltipText("%.4g turns within the training length (%d)",
                    originalMaxPositions(view.params) / wavelength,
                    originalMaxPositions(view.params));
    ImGui::EndTooltip();
}

void RopePanel::drawDecay(state::RopeViewState& view, ui::FrameContext& context) {
    const ui::Canvas canvas = ui::beginCanvas("decay");
    const Theme theme = context.theme;
    const DecayKey key{rotatedDims(view.params),
                       view.decayDistance,
                       view.params.base,
                       std::max(1, int(canvas.box.width)),
                       view.decayLogAxis,
                       canvas.box.width,
                       canvas.box.height,
                       theme.id,
                       theme.fontSize};
    const Refined<DecayFigure> shown =
        decay_.getExact(key, [theme](const DecayKey& k, Detail, const std::atomic<bool>&) {
            DecayFigure made;
            made.figure = emptyFigure(k.width, k.height, theme);
            if (k.logAxis) {  // its own log-spaced distances: the linear curve is not read
                drawRopeDecay(made.figure, {0, 0, k.width, k.height}, k.dims, k.base, k.distance,
                              theme, nullptr, &made.frame, DistanceAxis::Logarithmic);
                return made;
            }
            // At most 16 distances per pixel column (every distance up to that).
            auto curve = ropeDecayCurve(k.dims, k.base, k.distance, k.columns);
            const RopeDecayCurve decayCurve = curve ? std::move(curve.value()) : RopeDecayCurve{};
            drawRopeDecay(made.figure, {0, 0, k.width, k.height}, k.dims, k.base, k.distance, theme,
                          &decayCurve, &made.frame, DistanceAxis::Linear);
            return made;
        });
    if (!shown.exact) context.waiting = context.animating = true;  // screenshots: the exact one
    if (!shown.value) {
        Figure note = emptyFigure(canvas.box.width, canvas.box.height, theme);
        drawNote(note, wholeCanvas(canvas), "computing…", theme);
        ui::drawCanvasFigure(canvas, note, context);
        return;
    }
    ui::drawCanvasFigure(canvas, shown.value->figure, context);
    const PlotFrame& frame = shown.value->frame;
    if (shown.exact && canvas.hovered && frame.plot.contains(canvas.mouse)) {
        const long long r =
            std::clamp<long long>(std::llround(frame.toData(canvas.mouse).first), 0, key.distance);
        ImGui::BeginTooltip();
        // The hovered distance itself, exactly.
        ui::tooltipText("distance %lld: bound %.6f", r,
                        ropeDecayBoundAt(key.dims, key.base, double(r)));
        ui::tooltipTextDisabled("(1/(d/2)) Σ_j |Σ_{k<j} e^(i·r·θ_k)|, d = %d", key.dims);
        ImGui::EndTooltip();
    }
}

// The scalings figure (views/rope_scalings_figures): its factor, L and x axis above it.
void RopePanel::drawScalings(state::RopeViewState& view, ui::FrameContext& context) {
    RopeScalingsOptions& options = view.scalings;
    const float width = ImGui::GetFontSize() * 11;
    ImGui::SetNextItemWidth(width);
    ui::sliderDouble(
        state::kRopeScalingsFactorRange, &options.factor,
        "One scaling factor for every curve. The other settings (Llama 3's frequency "
        "factors, YaRN's betas, L0, LongRoPE's lists) are the scaling controls' or the "
        "loaded config's.");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(width);
    ui::sliderInt(
        state::kRopeScalingsSeqLenRange, &options.dynamicSeqLen,
        ui::SliderBounds{state::kRopeScalingsSeqLenRange.low, state::kRopeContextRange.high},
        "The sequence length dynamic NTK (and LongRoPE's list choice) is evaluated at; 0: "
        "the sequence length when it is past L0, else s × L0.");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(width);
    ui::comboEnum("x axis", &options.axis,
                  std::vector{RopeScalingsAxis::Pair, RopeScalingsAxis::Wavelength},
                  scalingsAxisName, "pair index, or the unscaled wavelength 2π/θ_i on a log axis");
    const ui::Canvas canvas = ui::beginCanvas("scalings");
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    drawRopeScalings(figure, wholeCanvas(canvas), view.params, options, context.theme);
    ui::drawCanvasFigure(canvas, figure, context);
}

void RopePanel::drawPrecision(state::RopeViewState& view, ui::FrameContext& context) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
    ui::sliderInt(
        state::kRopePrecisionPositions, &view.precisionPositions,
        "Positions 0..N are checked, for every pair and format, on a worker thread: the "
        "work grows with N (about a second per 65536 positions at head_dim 128). bfloat16 "
        "already fails within a few "
        "hundred positions; float16 overflows past 65504.");
    const ui::Canvas canvas = ui::beginCanvas("precision");
    const PrecisionKey wanted{view.params, view.precisionPositions};
    // The params are in the key, which the worker gets as a copy: the controls may change while
    // it runs.
    const Refined<PrecisionScan> shown = precision_.get(
        wanted,
        [](const PrecisionKey& key, Detail detail, const std::atomic<bool>& cancelled) {
            const std::vector<FloatFormat> formats = {FloatFormat::Float32, FloatFormat::BFloat16,
                                                      FloatFormat::Float16};
            auto reports =
                detail == Detail::Coarse
                    ? ropePrecisionSampledReports(key.params, formats, key.positions)
                    : ropePrecisionReports(key.params, formats, key.positions, 0.1, &cancelled);
            PrecisionScan scan;
            if (reports) {
                scan.reports = std::move(reports.value());
            } else {
                scan.error = reports.error().message;
            }
            return scan;
        },
        true);
    // Redraw until the exact scan is in; a scripted screenshot waits for it.
    if (!shown.exact) context.animating = context.waiting = true;
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    const PrecisionScan* scan = shown.value;
    if (scan && !scan->error.empty()) {
        drawNote(figure, wholeCanvas(canvas), scan->error, context.theme);
    } else if (!scan || scan->reports.empty()) {
        drawNote(figure, wholeCanvas(canvas),
                 "scanning " + std::to_string(view.precisionPositions) + " positions…",
                 context.theme);
    } else {
        drawRopePrecision(figure, wholeCanvas(canvas),
                          shown.current ? view.params : precision_.exactKey()->params,
                          scan->reports, context.theme);
        if (!shown.exact) {  // the coarse scan's (sampled positions) or an earlier key's
            figure.add(makeText({canvas.box.width - 12, 8}, "updating…", context.theme.fontSize,
                                context.theme.accent, HorizontalAlign::Right));
        }
    }
    ui::drawCanvasFigure(canvas, figure, context);
}

void RopePanel::drawLayers(state::RopeViewState& view, ui::FrameContext& context) {
    const ui::Canvas canvas = ui::beginCanvas("layers");
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    if (view.config) {
        drawRopeLayers(figure, wholeCanvas(canvas), *view.config, context.theme);
    } else {
        drawNote(figure, wholeCanvas(canvas),
                 "load a config.json (path and Load, or drop it here) to see its layers",
                 context.theme);
    }
    ui::drawCanvasFigure(canvas, figure, context);
}

}  // namespace poslab::panels
