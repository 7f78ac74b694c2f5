// rope_panel.hpp — the live RoPE view. Tabs of figures to the right of the controls:
//
//   Rotation     one small panel per pair: q at m and k at n as rotated arrows, the angle between
//                them and a fading trail; Play animates the positions (Space toggles)
//   Angles       position x pair, m theta_i mod 2 pi on the cyclic twilight map
//   Scores       q_m . k_n for m, n < L, with (m, n) and its constant-offset diagonal marked
//   Frequencies  wavelength per pair (log), context and training length, unscaled overlay
//   Decay        RoFormer's long-term decay bound (linear or log distance axis)
//   Scalings     scaled / unscaled frequency per pair for every scaling at one factor
//   Precision    per pair, the first position where float32/bfloat16/float16 angles are off by
//                0.1 rad (sampled positions while the base moves; every one on a worker thread)
//   Layers       a loaded config's layers: RoPE or none, base, scaling, attention window
//
// Heatmaps zoom with the wheel (Shift: pairs on the angle map), pan by dragging and reset on
// double-click; hovering any figure shows exact values. A Hugging Face config.json can be loaded
// from the path field or dropped onto the window; a file that cannot be used changes nothing.
//
// Sources: rope_panel.cpp (the frame and the caches every tab reads), rope_panel_controls.cpp,
// rope_panel_figures.cpp (one function per tab) and rope_panel_export.cpp (File > Export).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "panels/live_figure.hpp"
#include "panels/rope_usage_tab.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/base/memo.hpp"
#include "poslab/base/refining_memo.hpp"
#include "poslab/views/rope_figures.hpp"
#include "poslab/views/rope_precision_figures.hpp"
#include "ui/panel.hpp"

namespace poslab::panels {

class RopePanel : public ui::Panel {
  public:
    const char* title() const override { return "RoPE"; }
    Figure exportFigure(const state::AppState& state, float width, float height,
                        const Theme& theme) const override;
    Result<Matrix> exportData(const state::AppState& state) const override;
    // A config.json read into every control, or a checkpoint the Usage tab measured.
    FileRead fileRead(const state::AppState& state, const std::string& path) const override;

    // q and k as the state describes them (custom lists padded with zeros to head_dim).
    struct QueryKey {
        std::vector<double> q, k;
    };
    static Result<QueryKey> queryKeyFor(const state::RopeViewState& view);

    // ---- Cache keys: what each cached figure is computed from, compared member-wise (RopeParams'
    // defaulted ==), so every field — LongRoPE's lists and p-RoPE's proportion too — is in the key.
    struct AngleKey {  // the Angles map's texels
        RopeParams params;
        CellWindow window;
        int width = 0, height = 0;  // the plot box in pixels
        bool operator==(const AngleKey&) const = default;
    };
    struct OffsetsKey {  // the 2L-1 distinct scores behind the Scores map
        RopeParams params;
        std::uint64_t vectorsVersion = 0;  // q and k
        bool operator==(const OffsetsKey&) const = default;
    };
    struct VectorKey {  // q and k: every RopeViewState field queryKeyFor reads
        state::RopeVectorSource source = state::RopeVectorSource::Seeded;
        int querySeed = 0, keySeed = 0, headDim = 0;
        bool keyEqualsQuery = false;
        std::string customQuery, customKey;
        bool operator==(const VectorKey&) const = default;
    };
    static VectorKey vectorKeyFor(const state::RopeViewState& view);
    struct PrecisionKey {  // the Precision tab's reports
        RopeParams params;
        int positions = 0;
        bool operator==(const PrecisionKey&) const = default;
    };

  protected:
    void prepare(state::AppState& state, ui::FrameContext& context) override;
    void drawControls(state::AppState& state, ui::FrameContext& context) override;
    void drawFigures(state::AppState& state, ui::FrameContext& context) override;

  private:
    // ---- Controls
    void drawControls(state::RopeViewState& view, ui::FrameContext& context, const Status& valid);
    void drawConfigControls(state::RopeViewState& view, ui::FrameContext& context);
    void drawRopeControls(state::RopeViewState& view);
    void drawScalingControls(state::RopeViewState& view);
    void drawVectorControls(state::RopeViewState& view, const std::string& vectorError);
    void drawPositionControls(state::RopeViewState& view);
    void drawConfigRead(state::RopeViewState& view);  // "What PosLab read", the layer-type combo
    void loadConfig(state::RopeViewState& view, const std::string& path, ui::FrameContext& context);
    void advanceAnimation(state::RopeViewState& view, ui::FrameContext& context);
    Status valid_ = success();  // validate(params) this frame, from prepare(): both columns read it

    // ---- Figures (one per tab)
    void drawRotation(state::RopeViewState& view, ui::FrameContext& context);
    void drawAngles(state::RopeViewState& view, ui::FrameContext& context);
    void drawScores(state::RopeViewState& view, ui::FrameContext& context);
    void drawFrequencies(state::RopeViewState& view, ui::FrameContext& context);
    void drawDecay(state::RopeViewState& view, ui::FrameContext& context);
    void drawScalings(state::RopeViewState& view, ui::FrameContext& context);
    void drawPrecision(state::RopeViewState& view, ui::FrameContext& context);
    void drawLayers(state::RopeViewState& view, ui::FrameContext& context);
    static std::vector<int> shownPairs(const state::RopeViewState& view);

    // ---- Caches (base/memo), each rebuilt only when its key changes
    struct Vectors {
        QueryKey vectors;   // the last valid q and k
        std::string error;  // why the current custom lists were not used
    };
    struct ScoreOffsets {
        // The 2L-1 distinct scores (ropeOffsetScores) when they fit kRopeScoreBudget, so that
        // zooming and panning cost O(texels); empty otherwise (texels then come from q and k).
        std::vector<double> scores;
        bool valid = false;  // the parameters and vectors give scores at all
        RopeScoreRange range;
    };
    void refreshVectors(const state::RopeViewState& view);
    void refreshOffsets(const state::RopeViewState& view);
    const QueryKey& vectors() const { return vectors_.value()->vectors; }  // after refreshVectors
    const ScoreOffsets& offsets() const { return *offsets_.value(); }      // after refreshOffsets

    Memo<VectorKey, Vectors> vectors_;
    Memo<OffsetsKey, ScoreOffsets> offsets_;  // keyed on vectors_.version()

    struct ScoreKey {
        std::uint64_t offsetsVersion = 0;
        CellWindow window;
        int width = 0, height = 0;
        bool operator==(const ScoreKey&) const = default;
    };
    Memo<AngleKey, HeatmapSample> angles_;
    Memo<ScoreKey, HeatmapSample> scores_;
    // Past the budget for the 2L-1 scores (L = 2^20 at head_dim 512), a texel sample from q and
    // k costs up to kRopeScoreBudget pair terms (~0.3 s): while the window moves, a coarse sample
    // (a 64th of the budget: blocks rounded up a little more) on this thread; the exact one on a
    // worker once the window holds still.
    RefiningMemo<ScoreKey, HeatmapSample> profiledScores_;

    struct DecayKey {
        int dims = 0, distance = 0;
        double base = 0;
        int columns = 0;  // the canvas width: the curve has at most 16 distances per pixel
        bool logAxis = false;
        float width = 0, height = 0;  // the figure's
        ThemeId theme{};
        float fontSize = 0;
        bool operator==(const DecayKey&) const = default;
    };
    struct DecayFigure {
        Figure figure;
        PlotFrame frame;  // for hover
    };
    // Built on a worker (2^20 distances x head_dim/2 phases take longer than a frame); the last
    // figure stays up meanwhile, a new one at most every kWholeFigurePace while the base moves.
    RefiningMemo<DecayKey, DecayFigure> decay_{kWholeFigurePace};

    // Precision reports: a scan of pairs x positions x 3 formats takes up to a second of both
    // cores, which llvmpipe needs to draw the frame. While the base (or any key) moves, a coarse
    // scan of ~800 sampled positions per pair on this thread (a few ms); the exact scan on a
    // worker once it holds still, cancelled when it moves again.
    struct PrecisionScan {
        std::vector<RopePrecisionReport> reports;
        std::string error;
    };
    RefiningMemo<PrecisionKey, PrecisionScan> precision_;

    int rotationPage_ = 0;  // Rotation: the page of pairs shown when they do not fit at once
    PlotFrame angleFrame_, scoreFrame_;  // last frame's plot areas, to map the mouse for zooming
    state::RopeFigureId shownTab_ =
        state::RopeFigureId::Rotation;  // the tab ImGui showed last frame
    RopeUsageTab usageTab_;             // Usage: a checkpoint's q/k weights, read on a worker
};

}  // namespace poslab::panels
