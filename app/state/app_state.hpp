// app_state.hpp — the one owner of what the user has chosen: plain parameters, no caches.
//
// Panels read and write these fields; derived data (tables, textures) live in the panels as
// caches keyed on them. Everything here is what a saved session would need to restore.
#pragma once

#include <string>
#include <vector>

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/encodings/sinusoidal.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/figure/plot.hpp"
#include "state/bias_state.hpp"
#include "state/encoding_registry.hpp"
#include "state/rope_state.hpp"
#include "state/understanding_state.hpp"
#include "state/vision_rope_state.hpp"

namespace poslab::state {

struct SinusoidalViewState {
    SinusoidalParams params{128, 256, 10000, SinusoidalLayout::Interleaved};
    ColormapId colormap = ColormapId::BlueWhiteRed;
    CellWindow window;  // zoom and pan; zero counts mean "everything"
    bool markTrainingLength = false;
    int trainingLength = 128;
    int firstCurveDimension = 4;  // the Annotated Transformer plots dims 4..7
    int curveCount = 4;
    int curvePositions = 100;
    friend bool operator==(const SinusoidalViewState&,
                           const SinusoidalViewState&) = default;  // member-wise: caches key on it
};

inline constexpr float kMinUiZoom = 0.5f;  // --zoom, the session's uiZoom and Ctrl+-/Ctrl+=
inline constexpr float kMaxUiZoom = 3.0f;

// Each view's state is a plain struct; a built-in view adds its struct above and one member below,
// an encoding added as a plug-in (state/encoding_registry.hpp) keeps its state in `plugins`.
struct AppState {
    ThemeId theme = ThemeId::Dark;
    bool showControls = true;
    float uiZoom = 1.0f;  // interface zoom on top of the monitor's scale (Ctrl+= / Ctrl+- / Ctrl+0)
    // Where the page (build-web/) is hosted: File > Copy link appends the view's fragment to it.
    std::string linkBase = "http://127.0.0.1:8030/";
    SinusoidalViewState sinusoidal;
    T5ViewState t5;
    LearnedViewState learned;
    RopeViewState rope;              // rope_state.hpp
    VisionRopeViewState visionRope;  // vision_rope_state.hpp
    SimilarityViewState similarity;  // understanding_state.hpp
    MeaningViewState meaning;
    IntuitionViewState intuition;
    ExtrapolationViewState extrapolation;
    CompareViewState compare;
    TourState tour;
    PluginStates plugins;  // encodings registered as plug-ins (app/encodings/): get<State>("key")
    friend bool operator==(const AppState&,
                           const AppState&) = default;  // member-wise: caches key on it
};

}  // namespace poslab::state
