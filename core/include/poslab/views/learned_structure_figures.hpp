// learned_structure_figures.hpp — the shape of a position table, as one figure of six plots:
//
//   explained variance per component (bars)  | PC1, PC2, PC3 against position | PC1 vs PC2, each
//   position a dot coloured by its index (colour bar) | mean spectrum over dimensions, the table
//   and its rows shuffled | each dimension's dominant frequency (sorted) beside the sinusoidal
//   ladder omega_i = base^(-2i/d) / (2 pi) | PC1 vs PC2 of the shuffled rows: no structure.
// With TrajectoryStyle::Rotatable both trajectories are PC1-PC3 in 3-D instead, seen from the
// same angles (views/trajectory_3d.hpp): the table's path is a curve, the shuffled rows' a tangle.
//
// Works for any table: one read from a checkpoint (io/safetensors.hpp), a sinusoidal or a random
// learned one. The numbers come from analysis/table_structure.hpp.
//
// Usage:
//   LearnedStructureOptions options;  options.source = "gpt2: transformer.wpe.weight";
//   Figure figure = figureOrNote(learnedStructureFigure(table, options, 1600, 900, theme),
//                                1600, 900, theme);
#pragma once

#include <cstdint>
#include <string>

#include "poslab/analysis/table_structure.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"
#include "poslab/views/trajectory_3d.hpp"

namespace poslab {

inline constexpr int kMaxStructurePoints = 2048;  // dots and curve points drawn per plot

// ---- Options
struct LearnedStructureOptions {
    std::string source;             // for the title: "gpt2: transformer.wpe.weight"
    int components = 12;            // bars in the explained-variance plot, 1..64
    std::uint64_t shuffleSeed = 1;  // the baseline's row order
    double sinusoidalBase = 10000;  // the ladder the spectrum is set beside, > 1 and finite
    ColormapId positionColormap = ColormapId::Viridis;   // dots coloured by position index
    TrajectoryStyle trajectory = TrajectoryStyle::Flat;  // PC1 vs PC2, or PC1-PC3 rotatable
    ViewAngles angles;                                   // the 3-D camera (Rotatable only)
    friend bool operator==(const LearnedStructureOptions&, const LearnedStructureOptions&) =
        default;  // member-wise: caches key on it
};
Status validate(const LearnedStructureOptions& options);

// ---- Layout
struct LearnedStructureLayout {
    Box area;
    Box variance, components, trajectory;  // top row
    Box spectrum, frequencies, shuffled;   // bottom row
    PanelGrid grid;                        // the six plots' grid (empty boxes: not shown)
    Box note;  // the analysis note wrapped below the plots; empty: one line in the corner
};
LearnedStructureLayout learnedStructureLayout(Box area);  // three columns, any font size
// The six plots reflowed for the theme's font (panel_grid.hpp): fewer columns, or the
// `selected` plot alone when even one column is too small for its text (presentation mode);
// below them the room `note` (TableStructure::note) takes wrapped to the figure's width. Given
// the figure's title (learnedStructureTitle), its band is tall enough for it to wrap unshrunk.
LearnedStructureLayout learnedStructureLayout(Box area, const Theme& theme, int selected,
                                              const std::string& note,
                                              const std::string& title = "");

// ---- Drawing
// Plots already computed numbers (analysis); the frames of the plots go to frames.
struct LearnedStructureFrames {
    PlotFrame variance, components, trajectory, spectrum, frequencies, shuffled;  // 2-D plots
    Trajectory3dFrame trajectory3d, shuffled3d;  // TrajectoryStyle::Rotatable: the 3-D ones
};
// "Structure of SOURCE (R positions × C dims)", the figure's title.
std::string learnedStructureTitle(const LearnedStructureOptions& options,
                                  const TableStructure& structure);
void drawLearnedStructureFigure(Figure& figure, const LearnedStructureLayout& layout,
                                const LearnedStructureOptions& options,
                                const TableStructure& structure, const Theme& theme,
                                LearnedStructureFrames* frames = nullptr);
// The whole figure: validates, analyses the table, draws (a window too small for the six
// plots: the `selected` one alone, as the GUI shows it). Errors are one line (bad options,
// an empty or non-finite table, a table over the analysis caps).
Result<Figure> learnedStructureFigure(const Matrix& table, const LearnedStructureOptions& options,
                                      float width, float height, const Theme& theme,
                                      int selected = 0);

}  // namespace poslab
