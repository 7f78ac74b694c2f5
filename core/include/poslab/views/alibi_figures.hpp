// alibi_figures.hpp — the ALiBi view as figures: every head's bias matrix, one head enlarged, the
// slopes, and the attention a query pays after softmax. Used by the GUI panel, `poslab render
// alibi` and File > Export, so all three draw the same thing.
//
// The bias depends only on the offset j - i between key j and query i, so every heatmap here is
// sampled from the 2L - 1 values per offset (relativeOffsetSample): no L x L matrix is built, and
// the work is O(L + texels) whatever L is.
//
// Usage (the panel caches the data and redraws it every frame; `render` does all three at once):
//   AlibiLayout layout = alibiLayout(area, options, theme);
//   auto data = computeAlibiFigureData(options, layout);      // when the options or area change
//   drawAlibiFigure(figure, layout, options, *data, theme, &frames);
//   frames.headAt(mouse) ...                                   // hover and click
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/encodings/alibi.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

std::string alibiSlopeText(double slope);  // "1/2", "1/256", "2^-0.5", or decimals

// ---- ALiBi
struct AlibiFigureOptions {
    int heads = 8;                  // 1..128
    int seqLen = 32;                // 1..kMaxSeqLen (memory permitting)
    bool symmetric = false;         // encoder form -m|i-j|, no mask
    int enlargedHead = 0;           // the head drawn large, 0..heads-1
    int queryIndex = -1;            // attention preview row, 0..seqLen-1; -1: the last row
    int previewKeys = 0;            // keys shown in the preview, ending at the query; 0: all
    double contentScale = 0;        // 0: content logits all zero; else scale * N(0, 1), 0..100
    std::uint64_t contentSeed = 0;  // seeds the content logits (one vector shared by all heads)
    ColormapId colormap = ColormapId::Viridis;
    friend bool operator==(const AlibiFigureOptions&,
                           const AlibiFigureOptions&) = default;  // member-wise: caches key on it
};
Status validate(const AlibiFigureOptions& options);
int alibiQueryIndex(const AlibiFigureOptions& options);  // queryIndex with -1 resolved
// The content logits the preview adds: empty when contentScale is 0.
std::vector<double> alibiContentLogits(int seqLen, double scale, std::uint64_t seed);
// The keys the preview shows: [first, first + count).
CellWindow alibiPreviewWindow(const AlibiFigureOptions& options);

// The four panels (heads, enlarged head, slopes, attention) in two columns when each gets
// 22 x 13 font sizes; else fewer columns or one at a time (panel_grid.hpp), which the GUI steps.
inline constexpr PanelShape kAlibiPanels{4, 2, 22, 13, 12};
PanelGrid alibiPanels(Box area, const Theme& theme, int panel = 0);

struct AlibiLayout {
    Box area;                     // a panel not shown has an empty box (and the grid no cells)
    Box grid;                     // every head, small multiples, with a shared colour bar
    std::vector<Box> cells;       // one plot box (square) per head inside grid
    float cellTitleSize = 0;      // 0: no per-head titles (too many heads for the space)
    bool cellTitleShort = false;  // titles "h3" only (no room for "h3  m=1/16" at a legible size)
    Box colorbar;                 // the grid's shared colour bar
    Box enlarged, slopes, attention;
    bool cellResolution = false;  // Theme::cellResolution: the enlarged head's texels are cells
};
AlibiLayout alibiLayout(Box area, const AlibiFigureOptions& options, const Theme& theme,
                        int panel = 0);

struct AlibiFigureData {
    std::vector<double> slopes;        // fairseq's get_slopes(heads)
    std::vector<HeatmapSample> heads;  // grid texels, one sample per head
    ValueRange gridRange;              // shared by every head in the grid
    HeatmapSample enlarged;
    ValueRange enlargedRange;
    HeatmapSample attention;  // rows = heads, columns = keys; masked keys -inf
    double attentionMax = 1;
};
// The bias heatmaps (grid and enlarged head) depend on neither the query row nor the content
// logits. A cache of the last ones lets a moving query row reuse them: the same values under the
// same versions, so the GUI keeps their textures instead of colourising and uploading 129 again.
// Thread-safe: the panel's worker fills it.
class AlibiBiasCache {
  public:
    struct Key {
        int heads = 0, seqLen = 0, enlargedHead = 0;
        bool symmetric = false;
        int gridSide = 0, enlargedRows = 0, enlargedCols = 0;  // texel budgets
        bool operator==(const Key&) const = default;
    };
    struct Part {
        std::vector<HeatmapSample> heads;
        HeatmapSample enlarged;
    };
    // The part for `key`: the kept one when the key is the last one's, else make() kept.
    template <class Make>
    Part get(const Key& key, Make make) {
        {
            std::lock_guard lock(mutex_);
            if (held_ && key_ == key) return part_;
        }
        Part made = make();
        std::lock_guard lock(mutex_);
        key_ = key;
        part_ = made;
        held_ = true;
        return made;
    }

  private:
    std::mutex mutex_;
    bool held_ = false;
    Key key_;
    Part part_;
};

// cache: the bias heatmaps of the last call with the same heads, length, form, enlarged head and
// layout sizes are reused (nullptr: always made).
Result<AlibiFigureData> computeAlibiFigureData(const AlibiFigureOptions& options,
                                               const AlibiLayout& layout,
                                               AlibiBiasCache* cache = nullptr);

struct AlibiFigureFrames {
    std::vector<Box> cells;  // as in the layout
    PlotFrame enlarged, slopes, attention;
    int headAt(Point p) const;  // the grid head under p, or -1
};
// preview: when given, the attention preview (what follows the query row) goes there instead,
// so that `figure` (the grid of heads, the enlarged head, the slopes) stays the same while the
// query row moves and the GUI copies it instead of drawing its 128 heatmaps and titles again.
// The preview is the last part of the one figure and no other part overlaps it, so the two
// drawn in turn give the same pixels as the one figure.
void drawAlibiFigure(Figure& figure, const AlibiLayout& layout, const AlibiFigureOptions& options,
                     const AlibiFigureData& data, const Theme& theme,
                     AlibiFigureFrames* frames = nullptr, Figure* preview = nullptr);
// Layout, data and drawing in one call, for `poslab render` and File > Export.
Status drawAlibiFigure(Figure& figure, Box area, const AlibiFigureOptions& options,
                       const Theme& theme, int panel = 0);

}  // namespace poslab
