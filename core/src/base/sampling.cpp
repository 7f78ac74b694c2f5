#include "poslab/base/sampling.hpp"

#include <algorithm>
#include <cmath>

namespace poslab {

std::vector<int> evenlySpaced(int total, int count) {
    std::vector<int> out;
    if (total <= 0) return out;
    if (count >= total) {
        for (int i = 0; i < total; ++i) out.push_back(i);
        return out;
    }
    count = std::max(count, 1);
    if (count == 1) return {0};
    for (int s = 0; s < count; ++s) {
        const int p = int(std::llround(double(s) * (total - 1) / (count - 1)));
        if (out.empty() || out.back() != p) out.push_back(p);
    }
    return out;
}

}  // namespace poslab
