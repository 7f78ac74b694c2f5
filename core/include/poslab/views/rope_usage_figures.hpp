// rope_usage_figures.hpp — which rotary frequencies a checkpoint's weights use (analysis/
// rope_usage.hpp), as `poslab render rope-usage` and the RoPE view's Usage tab draw it.
//
// Four panels (reflowed by figure/panel_grid to the room they have):
//   1 layers x pairs    mean usage over heads; pairs fast -> slow, wavelength marks on the top
//                       edge, the pairs that never turn once within the training context shaded
//   2 heads x pairs     one chosen layer
//   3 usage vs λ        mean usage over layers and heads against the wavelength (log), the
//                       never-a-full-turn band shaded, the p-RoPE cut marked
//   4 notes             the model, what p-RoPE at p keeps, and that this is a weights-only measure
//
// Usage:
//   auto data = loadRopeUsage("Llama-3-8B/", {}, progress);   // reads q/k rows (io), measures
//   Figure figure = emptyFigure(w, h, theme);
//   drawRopeUsage(figure, {0, 0, w, h}, *data, {layer, 0.75}, theme);
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "poslab/analysis/rope_usage.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"
#include "poslab/io/checkpoint_reader.hpp"

namespace poslab {

// ---- The data a figure needs: the measure and the frequencies it is read against
struct RopeUsageData {
    RopeUsage usage;
    RopeParams rope;                        // head size, base, scaling, pairing as read
    std::vector<double> wavelengths;        // per pair, tokens: 2 pi / theta_i (inf when theta 0)
    int trainingContext = 0;                // originalMaxPositions(rope)
    std::string model;                      // "llama: 32 layers, 32 heads × 128, 8 KV heads"
    std::string source;                     // the checkpoint as the user named it
    std::vector<std::string> notes;         // how the layout was read (pairing, packing, ...)
    std::shared_ptr<const Matrix> byLayer;  // usageByLayer, shared with the heatmap
    std::vector<std::shared_ptr<const Matrix>> byHead;  // usageOfLayer, one per layer
    std::vector<std::uint64_t> versions;  // [0] byLayer's, [1 + l] byHead[l]'s: the screen's
                                          // texture cache keys on them (nextMatrixVersion)
    std::vector<double> meanPerPair;      // meanUsagePerPair
};
// Reads the checkpoint's q and k rows (io/checkpoint_reader) and measures them. progress as
// readQkRowSquares takes it (false cancels).
Result<RopeUsageData> loadRopeUsage(const std::string& path,
                                    const AttentionOverrides& overrides = {},
                                    const ReadProgress& progress = {});
// The same from a description already made and rows already read (tests, the GUI's worker).
Result<RopeUsageData> ropeUsageData(const CheckpointAttention& attention, const QkRowSquares& rows);

// ---- What the user chooses
struct RopeUsageViewParams {
    int layer = 0;               // panel 2's layer, 0..layers-1
    double keepFraction = 0.75;  // p of p-RoPE: the fastest floor(p * pairs) pairs kept, (0, 1]
    friend bool operator==(const RopeUsageViewParams&, const RopeUsageViewParams&) = default;
};
Status validate(const RopeUsageViewParams& params, const RopeUsageData& data);

inline constexpr PanelShape kRopeUsagePanels{4, 2, 22, 13, 14};
// The first pair whose wavelength exceeds the training context (pairs if none does).
int firstIncompletePair(const RopeUsageData& data);
// The pairs p-RoPE keeps at fraction p: floor(p * pairs).
int keptPairs(const RopeUsageData& data, double keepFraction);

// Where the panels go in area (below the title band, which a long model name wraps in): what the
// GUI asks to show a panel selector.
PanelGrid ropeUsagePanels(Box area, const RopeUsageData& data, const Theme& theme,
                          int selected = 0);
// selected: the panel shown when the area allows only one at a time.
void drawRopeUsage(Figure& figure, Box area, const RopeUsageData& data,
                   const RopeUsageViewParams& params, const Theme& theme, int selected = 0);
inline constexpr const char* kRopeUsageWeightsOnly =
    "Weights-only measure: |W_q pair| x |W_k pair| bounds how much each pair can move q . k; it "
    "does not see the activations a prompt produces.";

}  // namespace poslab
