// rope_state.hpp — what the user has chosen in the RoPE view: plain parameters, no caches (see
// app_state.hpp). Its own header so that app_state.hpp and the panel both include it without a
// cycle.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/encodings/rope.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/io/hf_config.hpp"
#include "poslab/views/rope_figures.hpp"
#include "poslab/views/rope_scalings_figures.hpp"
#include "state/rope_usage_state.hpp"

namespace poslab::state {

// The figure tabs (saved by number: new tabs go at the end).
enum class RopeFigureId {
    Rotation,
    Angles,
    Scores,
    Frequencies,
    Decay,
    Precision,
    Layers,
    Scalings,
    Usage  // a checkpoint's weights: which frequencies it uses (rope_usage_tab.hpp)
};
enum class RopeVectorSource { Seeded, Custom };  // where q and k come from

struct RopeViewState {
    // head_dim 64, base 10000, all dims rotated, half pairs, no scaling, L = 4096, trained on 2048
    RopeParams params{64, 10000, 1.0, RopePairing::Half, {}, 4096, 2048};
    RopeFigureId figure = RopeFigureId::Rotation;  // the tab shown, and what File > Export writes

    // ---- q and k
    RopeVectorSource vectors = RopeVectorSource::Seeded;
    int querySeed = 1;              // q = seededGaussianVector(head_dim, querySeed)
    int keySeed = 2;                // k likewise
    bool keyEqualsQuery = false;    // k = q: every pair starts aligned, so only m - n turns them
    std::string customQuery = "1";  // comma-separated; too few entries are padded with zeros
    std::string customKey = "1";

    // ---- Positions and animation
    double m = 6;               // query position (fractional while playing)
    double n = 2;               // key position
    bool playing = false;       // advance the positions with the clock (Space toggles)
    double speed = 2;           // positions per second
    bool playMovesBoth = true;  // true: m and n advance together (m - n fixed); false: m only
    bool scrubTogether = true;  // dragging m drags n along (keeps m - n)
    int panels = 16;            // rotation panels at most; all pairs when there are fewer
    bool spreadPairs = true;    // spread the panels from fastest to slowest; else consecutive
    int firstPair = 0;          // the first pair shown when not spread
    int trail = 8;              // earlier whole positions drawn as fading dots

    // ---- Heatmaps and charts
    CellWindow angleWindow;  // zoom and pan; zero counts mean everything
    CellWindow scoreWindow;
    ColormapId scoreColormap = ColormapId::BlueWhiteRed;
    RopeTurnReference incompleteWithin = RopeTurnReference::Context;
    int decayDistance = 250;         // RoFormer's Fig. 2 spans about 250 positions
    bool decayLogAxis = false;       // Decay tab: distances on a log axis (each decade as wide)
    RopeScalingsOptions scalings;    // Scalings tab: one factor for every scaling, x axis
    int precisionPositions = 16384;  // Precision tab: positions scanned (O(pairs x this) each)

    // ---- config.json (path field, Load button, or dropped onto the window)
    std::string configPath;
    std::string configLoaded;              // one line about the last file loaded ("" if none)
    std::vector<std::string> configNotes;  // defaults and aliases the reader applied
    std::string configError;               // why the last attempt failed ("" if it did not)
    std::optional<HfModelConfig> config;   // what the loader read (transient, not saved)
    std::string configLayerType = "full_attention";  // whose RoPE the controls show
    RopeUsageState usage;  // Usage tab: the checkpoint read and how it is shown
    friend bool operator==(const RopeViewState&,
                           const RopeViewState&) = default;  // member-wise: caches key on it
};

}  // namespace poslab::state
