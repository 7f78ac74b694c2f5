// rope_figure_checks.hpp — what the RoPE figure tests share: a setting, RoPE written out
// (theta_i, rotate, dot) and what they look for in a figure.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "../test_math.hpp"
#include "figure_checks.hpp"
#include "poslab/encodings/rope.hpp"
#include "poslab/figure/figure.hpp"

namespace poslab::rope_checks {

inline RopeParams params(int headDim, int seqLen = 256, double base = 10000) {
    RopeParams p;
    p.headDim = headDim;
    p.seqLen = seqLen;
    p.trainingLength = seqLen;
    p.base = base;
    return p;
}

// theta_i = base^(-2i/d), written out.
inline double theta(int i, int d, double base) {
    return 1.0 / std::pow(base, 2.0 * i / d);
}

// rotate(v, p) for half pairing, written out: dims (i, i + d/2) turned by p theta_i.
inline std::vector<double> rotateHalf(const std::vector<double>& v, double p, double base) {
    const int d = int(v.size()), half = d / 2;
    std::vector<double> out = v;
    for (int i = 0; i < half; ++i) {
        const double a = p * theta(i, d, base);
        out[i] = v[i] * std::cos(a) - v[i + half] * std::sin(a);
        out[i + half] = v[i + half] * std::cos(a) + v[i] * std::sin(a);
    }
    return out;
}

inline int countTextsStartingWith(const Figure& figure, const std::string& prefix) {
    int count = 0;
    for (const std::string& t : texts(figure)) count += t.rfind(prefix, 0) == 0;
    return count;
}

inline const HeatmapItem* firstDataHeatmap(const Figure& figure) {
    // The colour bar is a 256 x 1 ramp; the data heatmap comes first.
    for (const FigureItem& item : figure.items) {
        if (auto* heatmap = std::get_if<HeatmapItem>(&item)) return heatmap;
    }
    return nullptr;
}

}  // namespace poslab::rope_checks
