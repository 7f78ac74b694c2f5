// rope_panel.cpp — the RoPE panel's frame: the tabs, the dropped file, the animation clock and
// the caches every tab reads (q and k, the score offsets). Its controls are in
// rope_panel_controls.cpp, its figures (one per tab) in rope_panel_figures.cpp and File > Export
// in rope_panel_export.cpp.
#include "panels/rope_panel.hpp"

#include <GLFW/glfw3.h>  // key codes: Dear ImGui 1.86 takes GLFW's in IsKeyPressed
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "poslab/base/decimal.hpp"
#include "poslab/base/format.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/io/hf_config.hpp"
#include "ui/widgets.hpp"

namespace poslab::panels {

namespace {

// Numbers separated by commas or spaces, each in the options' syntax (base/decimal: plain
// decimal, finite); fewer than `size` are padded with zeros.
Result<std::vector<double>> parseVector(const std::string& text, int size, const char* name) {
    std::vector<double> values;
    std::size_t i = 0;
    const auto separator = [](char c) { return c == ',' || c == ' ' || c == '\t'; };
    while (i < text.size()) {
        while (i < text.size() && separator(text[i])) ++i;
        if (i == text.size()) break;
        std::size_t end = i;
        while (end < text.size() && !separator(text[end])) ++end;
        const std::string_view word(text.data() + i, end - i);
        const ParsedDecimal parsed = parseDecimal(word);
        if (parsed.status != DecimalStatus::Ok) {
            return Error{std::string(name) + " must be comma-separated finite numbers (got " +
                         quoteForMessage(word, 24) + ")"};
        }
        values.push_back(parsed.value);
        i = end;
    }
    if (values.empty()) return Error{std::string(name) + " is empty"};
    if (int(values.size()) > size) {
        return Error{std::string(name) + " has " + std::to_string(values.size()) +
                     " entries; head_dim is " + std::to_string(size)};
    }
    values.resize(std::size_t(size), 0.0);
    return values;
}

const char* figureName(state::RopeFigureId id) {
    switch (id) {
        case state::RopeFigureId::Rotation:
            return "Rotation";
        case state::RopeFigureId::Angles:
            return "Angles";
        case state::RopeFigureId::Scores:
            return "Scores";
        case state::RopeFigureId::Frequencies:
            return "Frequencies";
        case state::RopeFigureId::Decay:
            return "Decay";
        case state::RopeFigureId::Precision:
            return "Precision";
        case state::RopeFigureId::Layers:
            return "Layers";
        case state::RopeFigureId::Scalings:
            return "Scalings";
        case state::RopeFigureId::Usage:
            return "Usage";
    }
    return "Rotation";
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// State-derived inputs
// ---------------------------------------------------------------------------------------------

Result<RopePanel::QueryKey> RopePanel::queryKeyFor(const state::RopeViewState& view) {
    const int d = view.params.headDim;
    QueryKey vectors;
    if (view.vectors == state::RopeVectorSource::Seeded) {
        vectors.q = seededGaussianVector(d, std::uint64_t(std::max(0, view.querySeed)));
        vectors.k = view.keyEqualsQuery
                        ? vectors.q
                        : seededGaussianVector(d, std::uint64_t(std::max(0, view.keySeed)));
        return vectors;
    }
    auto q = parseVector(view.customQuery, d, "q");
    if (!q) return q.error();
    vectors.q = std::move(q.value());
    if (view.keyEqualsQuery) {
        vectors.k = vectors.q;
        return vectors;
    }
    auto k = parseVector(view.customKey, d, "k");
    if (!k) return k.error();
    vectors.k = std::move(k.value());
    return vectors;
}

RopePanel::VectorKey RopePanel::vectorKeyFor(const state::RopeViewState& view) {
    return {view.vectors,        view.querySeed,   view.keySeed,  view.params.headDim,
            view.keyEqualsQuery, view.customQuery, view.customKey};
}

void RopePanel::refreshVectors(const state::RopeViewState& view) {
    vectors_.get(vectorKeyFor(view), [&] {
        Vectors made;
        auto vectors = queryKeyFor(view);
        if (vectors) {
            made.vectors = std::move(vectors.value());
            return made;
        }
        made.error = vectors.error().message;
        if (const Vectors* last = vectors_.value();
            last && int(last->vectors.q.size()) == view.params.headDim) {
            made.vectors = last->vectors;  // the last valid q and k stay on screen
        } else {
            // Nothing valid of the right size yet: seeded vectors until the lists parse.
            state::RopeViewState seeded = view;
            seeded.vectors = state::RopeVectorSource::Seeded;
            made.vectors = queryKeyFor(seeded).value();
        }
        return made;
    });
}

void RopePanel::refreshOffsets(const state::RopeViewState& view) {
    offsets_.get({view.params, vectors_.version()}, [&] {
        ScoreOffsets made;
        auto freqs = ropeFrequencies(view.params);
        if (!freqs || view.params.seqLen > kMaxSeqLen) return made;
        const QueryKey& qk = vectors();
        if (qk.q.size() < 2 * freqs->inverse.size() || qk.q.size() != qk.k.size()) return made;
        made.valid = true;
        // Bounded work whatever a session sets (head_dim 8192 at L = 2^20 would be 2^32 terms).
        made.range = ropeScoreRange(qk.q, qk.k, view.params.seqLen, *freqs, view.params.pairing);
        const long long terms = (2LL * view.params.seqLen - 1) *
                                std::max<long long>(1, (long long)freqs->inverse.size());
        if (terms > kRopeScoreBudget) return made;
        auto offsets =
            ropeOffsetScores(qk.q, qk.k, view.params.seqLen, *freqs, view.params.pairing);
        if (offsets) made.scores = std::move(offsets.value());
        return made;
    });
}

std::vector<int> RopePanel::shownPairs(const state::RopeViewState& view) {
    const int pairs = rotatedDims(view.params) / 2;
    if (view.spreadPairs) return ropeRotationPairs(pairs, view.panels);
    std::vector<int> shown;
    const int first = std::clamp(view.firstPair, 0, std::max(0, pairs - 1));
    for (int i = first; i < pairs && int(shown.size()) < view.panels; ++i) shown.push_back(i);
    return shown;
}

// ---------------------------------------------------------------------------------------------
// Frame
// ---------------------------------------------------------------------------------------------

void RopePanel::prepare(state::AppState& state, ui::FrameContext& context) {
    state::RopeViewState& view = state.rope;
    if (!context.droppedFiles.empty()) {
        // Only the first file counts: a config describes one model.
        const std::string path = context.droppedFiles.front();
        context.droppedFiles.clear();
        if (isCheckpointPath(path)) {  // a checkpoint folder or index: the Usage tab reads it
            view.figure = state::RopeFigureId::Usage;
            usageTab_.open(view.usage, path, context);
        } else {
            view.configPath = path;
            loadConfig(view, view.configPath, context);
        }
    }
    if (!ImGui::GetIO().WantTextInput && ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) {
        view.playing = !view.playing;
    }
    advanceAnimation(view, context);
    refreshVectors(view);
    valid_ = validate(view.params);
}

ui::Panel::FileRead RopePanel::fileRead(const state::AppState& state,
                                        const std::string& path) const {
    if (usageTab_.holds(path)) return {true, ""};
    if (std::string problem = usageTab_.problemWith(path); !problem.empty())
        return {false, problem};
    const state::RopeViewState& view = state.rope;
    if (view.configPath != path) return {};
    if (!view.configError.empty()) return {false, view.configError};
    return {bool(view.config), ""};
}

void RopePanel::drawControls(state::AppState& state, ui::FrameContext& context) {
    state::RopeViewState& view = state.rope;
    drawControls(view, context, valid_);
}

void RopePanel::drawFigures(state::AppState& state, ui::FrameContext& context) {
    state::RopeViewState& view = state.rope;
    if (!valid_) {
        ui::noteCanvas("invalid", valid_.error().message, context);
        return;
    }
    const std::pair<state::RopeFigureId, const char*> tabs[] = {
        {state::RopeFigureId::Rotation, figureName(state::RopeFigureId::Rotation)},
        {state::RopeFigureId::Angles, figureName(state::RopeFigureId::Angles)},
        {state::RopeFigureId::Scores, figureName(state::RopeFigureId::Scores)},
        {state::RopeFigureId::Frequencies, figureName(state::RopeFigureId::Frequencies)},
        {state::RopeFigureId::Decay, figureName(state::RopeFigureId::Decay)},
        {state::RopeFigureId::Precision, figureName(state::RopeFigureId::Precision)},
        {state::RopeFigureId::Layers, figureName(state::RopeFigureId::Layers)},
        {state::RopeFigureId::Scalings, figureName(state::RopeFigureId::Scalings)},
        {state::RopeFigureId::Usage, figureName(state::RopeFigureId::Usage)}};
    ui::stateTabBar("rope figures", tabs, &view.figure, &shownTab_);
    switch (view.figure) {
        case state::RopeFigureId::Rotation:
            drawRotation(view, context);
            break;
        case state::RopeFigureId::Angles:
            drawAngles(view, context);
            break;
        case state::RopeFigureId::Scores:
            drawScores(view, context);
            break;
        case state::RopeFigureId::Frequencies:
            drawFrequencies(view, context);
            break;
        case state::RopeFigureId::Decay:
            drawDecay(view, context);
            break;
        case state::RopeFigureId::Precision:
            drawPrecision(view, context);
            break;
        case state::RopeFigureId::Layers:
            drawLayers(view, context);
            break;
        case state::RopeFigureId::Scalings:
            drawScalings(view, context);
            break;
        case state::RopeFigureId::Usage:
            usageTab_.draw(view.usage, context);
            break;
    }
}

void RopePanel::advanceAnimation(state::RopeViewState& view, ui::FrameContext& context) {
    const double last = std::max(0, view.params.seqLen - 1);
    if (view.playing) {
        context.animating = true;  // the frame loop keeps drawing (at most 60 fps) while playing
        // After an idle sleep the first delta can be long; cap it so nothing jumps.
        const double step = view.speed * std::min(double(ImGui::GetIO().DeltaTime), 0.1);
        view.m += step;
        if (view.playMovesBoth) {
            view.n += step;
            if (std::max(view.m, view.n) > last) {
                // Back to the start, keeping m - n and the fractional phase.
                const double back = std::floor(std::min(view.m, view.n));
                view.m -= back;
                view.n -= back;
            }
        } else if (view.m > last) {
            view.m = std::fmod(view.m, last + 1);
        }
    }
    view.m = std::clamp(view.m, 0.0, last);
    view.n = std::clamp(view.n, 0.0, last);
}

}  // namespace poslab::panels
