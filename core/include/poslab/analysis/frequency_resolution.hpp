// frequency_resolution.hpp — why the sinusoidal table uses many frequencies, not one.
//
// The distance between two rows of an even-width table depends only on their offset:
//   |PE(p + D) - PE(p)|^2 = sum over pairs i of |(sin w_i(p+D), cos w_i(p+D)) - (sin w_i p, cos w_i
//   p)|^2
//                         = sum_i 4 sin^2(w_i D / 2).
// A fast pair (w near 1) changes a lot from one position to the next, so it tells neighbours
// apart, but it comes round again every 2 pi / w positions: on its own it confuses positions a
// wavelength apart. A slow pair barely moves between neighbours and tells far positions apart.
// Give every pair ONE shared frequency w and the whole vector is periodic: PE(p + 2 pi / w) =
// PE(p), so distinct positions collide (exactly when 2 pi / w is a whole number, nearly
// otherwise); with a slow shared w, neighbours are nearly the same vector instead. The standard
// table's geometric ladder of wavelengths (2 pi .. 2 pi base) keeps every pair of positions in
// 0..N-1 apart.
#pragma once

#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"
#include "poslab/encodings/sinusoidal.hpp"

namespace poslab {

inline constexpr int kMaxResolutionDModel = 1024;      // even, 2..1024
inline constexpr int kMaxResolutionPositions = 65536;  // N, 2..65536

struct FrequencyResolutionParams {
    int dModel = 64;      // table width, even, 2..1024
    double base = 10000;  // > 1
    int positions = 512;  // N: positions 0..N-1, offsets 1..N-1, 2..65536
    int sharedPair = 0;   // the one-frequency table uses pair i's frequency for every pair,
                          // 0..d/2-1 (0: the fastest, wavelength 2 pi)
    friend bool operator==(const FrequencyResolutionParams&, const FrequencyResolutionParams&) =
        default;  // member-wise: caches key on it
};
Status validate(const FrequencyResolutionParams& params);  // "shared_pair must be 0..31 (got 40)"

// The standard table these params describe (interleaved; seqLen = positions).
SinusoidalParams standardTable(const FrequencyResolutionParams& params);
double sharedFrequency(const FrequencyResolutionParams& params);  // w of pair sharedPair
// Row p of the one-frequency table: the standard layout with every pair at sharedFrequency.
std::vector<double> sharedFrequencyRow(const FrequencyResolutionParams& params, double position);

struct FrequencyResolution {
    std::vector<double> frequencies;       // the standard table's w_i, one per pair
    double sharedFrequency = 0;            // the one frequency
    std::vector<double> standardDistance;  // [D] |PE(p + D) - PE(p)|, D = 0..N-1 (any p)
    std::vector<double> sharedDistance;    // [D] the same in the one-frequency table
    double standardMinimum = 0;            // min over D = 1..N-1 of standardDistance
    int standardMinimumOffset = 1;
    double sharedMinimum = 0;  // min over D = 1..N-1 of sharedDistance
    int sharedMinimumOffset = 1;
    // Position pairs p < q < N of the one-frequency table closer together than the standard
    // table's closest pair (standardMinimum): sum over such offsets D of N - D.
    long long collidingPairs = 0;
    int collidingOffsets = 0;  // offsets D in 1..N-1 with that
    std::vector<double>
        neighbourByPair;            // [i] |pair i of PE(p+1) - pair i of PE(p)| = 2|sin(w_i/2)|
    std::vector<double> farByPair;  // [i] the same at offset farOffset
    int farOffset = 1;              // N / 2 (at least 1)
};
// `previous`: an earlier result; when it is of the same table (d, base and N: only the shared
// pair moved) its standard distances are reused, the O(N d) part, exactly as computed.
Result<FrequencyResolution> frequencyResolution(const FrequencyResolutionParams& params,
                                                const FrequencyResolution* previous = nullptr);

// N x d: the one-frequency table itself (for export).
Result<Matrix> sharedFrequencyTable(const FrequencyResolutionParams& params);

}  // namespace poslab
