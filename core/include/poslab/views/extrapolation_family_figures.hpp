// extrapolation_family_figures.hpp — the Extrapolation view's relative-family set
// (ExtrapolationSet::RelativeFamily): KERPLE's two kernels, Sandwich per head, FIRE's phi with and
// without its progressive normaliser, xPos's decay beside RoPE's bound, DeBERTa's buckets and the
// whole family, each panel's curves against distance with its sentences; and the same curves as
// a table. drawExtrapolation (extrapolation_figures.hpp) draws this set when options.set asks.
#pragma once

#include <string>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"
#include "poslab/views/extrapolation_figures.hpp"

namespace poslab {

// The six panels into grid's cells (those grid.shows), each a plot over its paragraph.
Status drawRelativeExtrapolation(Figure& figure, const PanelGrid& grid,
                                 const ExtrapolationOptions& options, const Theme& theme);
// The Relative family tab's curves as numbers (its CSV/NPY export): one row per distance, every
// integer 0..evaluationLength up to 8192, else every k-th integer (familyDistances(eval, 4096):
// at most 8194 rows, the last one evaluationLength); column 0 the distance, then every curve of
// the six panels in order (the family's panel uncut; NaN where a FIRE query has no key that far).
// columnNames: "distance", then "panel title: curve name".
inline constexpr int kRelativeExtrapolationRows = 4096;
Result<Matrix> relativeExtrapolationTable(const ExtrapolationOptions& options,
                                          std::vector<std::string>* columnNames = nullptr);

}  // namespace poslab
