// compare_ab_figures.hpp — two RoPE configurations A/B as one figure: each pair's wavelength, the
// expected q.k against offset for both, and their difference. Used by the Compare view's RoPE A/B
// tab and `poslab render compare-ab`; every encoding at once is compare_figures.hpp.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "poslab/encodings/rope.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// A/B: two RoPE configurations (e.g. two config.json files, or base 10000 vs 500000).
struct RopeConfiguration {
    std::string label;  // "A: Llama-2 (base 10000)"
    RopeParams rope;
    friend bool operator==(const RopeConfiguration&,
                           const RopeConfiguration&) = default;  // member-wise: caches key on it
};
// One configuration's expected cosine of q_m·k_n at offsets 0, step, ..., (points - 1) step: the
// A/B figure's curve, O(points x head_dim / 2). The GUI moves one side's base while the other
// holds, so a cache of the last curves lets the side that holds skip its half of the work.
// Thread-safe: the panel's worker and its UI thread both build figures.
class AbCurveCache {
  public:
    struct Key {
        RopeParams rope;  // the side's parameters as drawAbComparison evaluates them
        int maxOffset = 0;
        long long step = 0, points = 0;
        bool operator==(const Key&) const = default;
    };
    using Curve = std::shared_ptr<const std::vector<double>>;
    // The curve for `key`: a kept one, else make() kept in place of the least recently used.
    template <class Make>
    Curve get(const Key& key, Make make) {
        {
            std::lock_guard lock(mutex_);
            for (Entry& entry : entries_) {
                if (entry.curve && entry.key == key) {
                    entry.used = ++clock_;
                    return entry.curve;
                }
            }
        }
        Curve made = make();
        if (!made) return made;
        std::lock_guard lock(mutex_);
        Entry* oldest = &entries_[0];
        for (Entry& entry : entries_)
            if (entry.used < oldest->used) oldest = &entry;
        *oldest = {key, made, ++clock_};
        return made;
    }

  private:
    struct Entry {
        Key key;
        Curve curve;
        unsigned long long used = 0;
    };
    // Both sides' coarse and exact curves (the GUI's slider shows coarse, then exact).
    static constexpr std::size_t kEntries = 4;
    std::mutex mutex_;
    Entry entries_[kEntries];
    unsigned long long clock_ = 0;
};

// Wavelength per pair, expected q.k against offset for both, and their difference B - A: two
// plots over a wide one while they have room (kAbPanels), else one column, else `panel` alone.
// samplesPerColumn: offsets evaluated per pixel column of the figure, at most (every offset
// while there are fewer); each curve is drawn as its min/max per column of them. The default is
// the exact picture; the GUI passes kAbCoarseSamples while a slider moves (an eighth of the work).
// cache: each side's curve is reused while its parameters, the offsets and the sampling hold
// (nullptr: both computed).
inline constexpr PanelShape kAbPanels{3, 2, 20, 13, 16};
inline constexpr int kAbExactSamples = 16;
inline constexpr int kAbCoarseSamples = 2;
Status drawAbComparison(Figure& figure, Box area, const RopeConfiguration& a,
                        const RopeConfiguration& b, int maxOffset, const Theme& theme,
                        int panel = 0, int samplesPerColumn = kAbExactSamples,
                        AbCurveCache* cache = nullptr);
Result<Figure> abComparisonFigure(const RopeConfiguration& a, const RopeConfiguration& b,
                                  int maxOffset, float width, float height, const Theme& theme,
                                  int panel = 0, int samplesPerColumn = kAbExactSamples,
                                  AbCurveCache* cache = nullptr);
// The figure's title: "RoPE A/B: " and the two labels.
std::string abComparisonTitle(const RopeConfiguration& a, const RopeConfiguration& b);
// Where abComparisonFigure puts its panels in a figure of that size under that title (the GUI's
// selector): below the title's band, which a long title wraps in.
PanelGrid abComparisonPanels(const std::string& title, float width, float height,
                             const Theme& theme, int panel = 0);

}  // namespace poslab
