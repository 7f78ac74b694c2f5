// understanding_state.hpp — what the user chose in the understanding views (Similarity, Meaning,
// Intuitions, Extrapolation, Compare) and the guided tour: plain parameters, members of AppState.
// Loaded files are remembered by path; panels load them into their caches.
#pragma once

#include <string>

#include "poslab/analysis/meaning.hpp"
#include "poslab/analysis/similarity.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/views/compare_figures.hpp"
#include "poslab/views/extrapolation_figures.hpp"
#include "poslab/views/intuition_figures.hpp"
#include "state/enum_names.hpp"

namespace poslab::state {

struct SimilarityViewState {
    // Sinusoidal, cosine, 512 positions; each encoding keeps its own settings while another is
    // shown.
    SimilarityParams params = [] {
        SimilarityParams p;
        p.seqLen = 512;
        p.sinusoidal.dModel = 128;
        p.learned.dModel = 64;
        p.rope.headDim = 64;
        p.rope.trainingLength = 2048;
        return p;
    }();
    std::string learnedTablePath;  // non-empty: a trained .npy table replaces the seeded one
    ColormapId colormap = ColormapId::BlueWhiteRed;
    CellWindow window;  // zoom and pan of the heatmap; zero counts mean everything
    int reference = 0;  // the query row the curve follows (non-Toeplitz cases)
    int maxOffset = 0;  // curve range +-maxOffset; 0: the whole sequence
    bool markTrainingLength = false;
    int trainingLength = 256;
    friend bool operator==(const SimilarityViewState&,
                           const SimilarityViewState&) = default;  // member-wise: caches key on it
};

enum class MeaningFigure { Terms, Orthogonality, AddVersusConcat };  // the figure tabs
inline constexpr EnumNames<MeaningFigure, 3> kMeaningFigureNames{
    "figure",
    {{{MeaningFigure::Terms, "terms"},
      {MeaningFigure::Orthogonality, "near-orthogonality"},
      {MeaningFigure::AddVersusConcat, "add-vs-concat"}}}};

struct MeaningViewState {
    MeaningParams params;    // the sequence: words + positions
    std::string tokensPath;  // non-empty: word vectors from this .npy instead of random ones
    MeaningFigure figure = MeaningFigure::Terms;
    int orthogonalityDModel = 64;  // the histogram's width (its own slider: it goes to 8192)
    int orthogonalitySamples = 20000;
    friend bool operator==(const MeaningViewState&,
                           const MeaningViewState&) = default;  // member-wise: caches key on it
};

// The figure tabs; listed in the order the tabs show them (a lecture's order), values appended.
enum class IntuitionFigure { BinaryClock, LinearShift, AttentionShuffle, FrequencyResolution };
inline constexpr EnumNames<IntuitionFigure, 4> kIntuitionFigureNames{
    "figure",
    {{{IntuitionFigure::BinaryClock, "binary-clock"},
      {IntuitionFigure::LinearShift, "linear-shift"},
      {IntuitionFigure::AttentionShuffle, "attention-shuffle"},
      {IntuitionFigure::FrequencyResolution, "frequency-resolution"}}}};

struct IntuitionViewState {
    IntuitionFigure figure = IntuitionFigure::AttentionShuffle;  // the first tab
    BinaryClockOptions clock;
    LinearShiftOptions shift;               // sinOnly: the "why sin AND cos" comparison
    ToyAttentionParams attention;           // why position at all
    FrequencyResolutionParams frequencies;  // why different frequencies
    friend bool operator==(const IntuitionViewState&,
                           const IntuitionViewState&) = default;  // member-wise: caches key on it
};

struct ExtrapolationViewState {
    ExtrapolationOptions options;
    friend bool operator==(const ExtrapolationViewState&, const ExtrapolationViewState&) =
        default;  // member-wise: caches key on it
};

enum class CompareMode { AllEncodings, RopeAB };
inline constexpr EnumNames<CompareMode, 2> kCompareModeNames{
    "mode", {{{CompareMode::AllEncodings, "all"}, {CompareMode::RopeAB, "rope-ab"}}}};

struct RopeSideState {       // one side of the A/B comparison
    bool useConfig = false;  // true: read configPath (a Hugging Face config.json)
    std::string configPath;
    double base = 10000;  // otherwise: this base with the shared head_dim / training length
    friend bool operator==(const RopeSideState&,
                           const RopeSideState&) = default;  // member-wise: caches key on it
};

struct CompareViewState {
    CompareMode mode = CompareMode::AllEncodings;
    CompareOptions options;
    RopeSideState a{false, "", 10000}, b{false, "", 500000};
    int headDim = 128;
    int trainingLength = 4096;
    int maxOffset = 8192;
    friend bool operator==(const CompareViewState&,
                           const CompareViewState&) = default;  // member-wise: caches key on it
};

// The guided tour and presentation mode (see tour.hpp).
struct TourState {
    int lesson = -1;            // the lesson shown, -1 when the tour is closed
    int step = 0;               // its step (0: the lesson's own text; lessons.hpp)
    bool presentation = false;  // large fonts, controls hidden (F5); F11 adds full screen
    friend bool operator==(const TourState&,
                           const TourState&) = default;  // member-wise: caches key on it
};

}  // namespace poslab::state
