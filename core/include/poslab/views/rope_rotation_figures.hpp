// rope_rotation_figures.hpp — RoPE's rotation of each dimension pair: a grid of small 2-D
// panels, one per chosen pair, q rotated by m theta_i and k by n theta_i, the angle between them,
// each pair's share of the score and a fading trail of earlier positions. Part of the RoPE view
// (rope_figures.hpp).
#pragma once

#include <vector>

#include "poslab/encodings/rope.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// ---- Rotation animation
// All pairs when there are at most maxPanels, else maxPanels pairs spread evenly from the first
// (fastest) to the last (slowest), both included.
std::vector<int> ropeRotationPairs(int pairCount, int maxPanels);

struct RopeRotationOptions {
    std::vector<double> q, k;  // head_dim entries each (rotated dims first, as the pairing says)
    double m = 0, n = 0;       // query and key positions (fractional during animation)
    std::vector<int> pairs;    // pairs with a panel; empty: ropeRotationPairs(pairCount, 16)
    int trail = 8;             // earlier whole positions drawn as fading dots, 0..64
    int perPage = 0;           // > 0: at most this many pairs at once (ropeRotationPaging)
    int page = 0;              // which perPage pairs: page 0 the first (clamped)
    friend bool operator==(const RopeRotationOptions&,
                           const RopeRotationOptions&) = default;  // member-wise: caches key on it
};
struct RopeRotationCell {  // where a pair's panel landed, for hover
    Box box;
    int pair = 0;
};
// Angle of the rotated q pair minus that of the rotated k pair, in (-pi, pi]: it depends on
// m - n only (plus the unrotated angles of the two pairs).
double ropePairAngleBetween(const std::vector<double>& q, const std::vector<double>& k, double m,
                            double n, const RopeFrequencies& freqs, RopePairing pairing, int pair);
// This pair's share of rotate(q, m) . rotate(k, n); the shares plus the unrotated tail sum to it.
double ropePairScore(const std::vector<double>& q, const std::vector<double>& k, double m, double n,
                     const RopeFrequencies& freqs, RopePairing pairing, int pair);
// The least diameter a pair's circle is drawn at where there is a choice (the GUI pages the
// pairs): ~30 px circles at 1024x768 F5 showed neither arrows nor angles (#28).
float ropeRotationLeastCircle(const Theme& theme);
// The least diameter when the one above would take more than kRopeRotationFewPages pages (a
// 480x320 window: eight pages of two): three lines of text across, and 40 px, where both arrow
// heads (6 px and more) and the angle's arc (at 0.28 of the radius) still read apart.
float ropeRotationSmallestCircle(const Theme& theme);
inline constexpr int kRopeRotationFewPages = 4;
// How many of the chosen pairs the GUI shows at once in `area`: all when each circle is then
// at least ropeRotationLeastCircle across, else pages of ceil(pairs / pages) (16 in three: 6, 6,
// 4), as few as give every circle that size; when that takes more than kRopeRotationFewPages
// pages, as few (up to that many) as give every circle ropeRotationSmallestCircle; else as
// many as the least circle takes (one pair a page when even one does not fit). The GUI
// steps through them as a view's panels (panel_grid's selector, Up/Down) and passes perPage
// and page in the options; a file shows every pair.
struct RopeRotationPaging {
    int perPage = 0;  // pairs on a page (0: no pairs: the figure is a note)
    int pages = 1;
};
RopeRotationPaging ropeRotationPaging(Box area, const RopeParams& params,
                                      const RopeRotationOptions& options, const Theme& theme);
// Every circle drawn is recorded as a plot (Figure::panels, the circle's box), and
// Figure::viewPanels is the number of pages: `--panel 1` is the whole figure of a file.
// moving: when given, what follows m and n between whole positions (the legend with its values,
// the arrows, the arcs between them and the angles under the circles) goes there instead, so
// that `figure` (frames, circles, trails, pair labels) stays the same while m and n move within
// a position and the GUI copies it instead of drawing it again. Drawn over `figure`, the two give
// the same pixels as the one figure: no item of either part overlaps one of the other drawn
// after it in the one figure.
// trails: when given, the trails' dots (which move with each whole position) go there, drawn
// between `figure` and `moving`: `figure` (frames, circles, pair labels) then stays the same for
// every m and n, and a whole position passing draws only the dots (the GUI stacks them on the
// copied figure, gfx/figure_layers.hpp). The dots stay inside their circles' band, clear of the
// pair labels drawn after them in the one figure.
void drawRopeRotation(Figure& figure, Box area, const RopeParams& params,
                      const RopeRotationOptions& options, const Theme& theme,
                      std::vector<RopeRotationCell>* cells = nullptr, Figure* moving = nullptr,
                      Figure* trails = nullptr);

}  // namespace poslab
