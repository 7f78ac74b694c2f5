#include "poslab/encodings/kerple.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/encodings/causal_bias.hpp"

namespace poslab {

Status validate(const KerpleParams& params) {
    if (auto s = requireInRange("r1", params.r1, 0.0, kKerpleMaxInput); !s) return s;
    return requireInRange("r2", params.r2, 0.0, kKerpleMaxInput);
}

KerpleParams kerpleEffective(const KerpleParams& params) {
    KerpleParams out = params;
    out.r1 = std::max(params.r1, kKerpleMinParameter);
    out.r2 = std::max(params.r2, kKerpleMinParameter);
    if (params.kernel == KerpleKernel::Power) out.r2 = std::min(out.r2, kKerpleMaxExponent);
    return out;
}

bool kerpleClamped(const KerpleParams& params) {
    return !(kerpleEffective(params) == params);
}

double kerpleBias(const KerpleParams& params, double distance) {
    const KerpleParams p = kerpleEffective(params);
    if (distance == 0) return 0;  // +0, not -r1 * 0 = -0 (which a CSV would print as "-0")
    if (p.kernel == KerpleKernel::Power) return -p.r1 * std::pow(distance, p.r2);  // 0^r2 = 0
    return -p.r1 * std::log1p(p.r2 * distance);
}

Result<Matrix> kerpleBiasMatrix(const KerpleParams& params, int seqLen) {
    if (auto s = validate(params); !s) return s.error();
    if (auto s = requireIntInRange("seq_len", seqLen, 1, kMaxSeqLen); !s) return s.error();
    if (auto s =
            checkMatrixSize(std::size_t(seqLen), std::size_t(seqLen), "the KERPLE bias matrix");
        !s) {
        return s.error();
    }
    std::vector<double> byDistance(static_cast<std::size_t>(seqLen));
    for (int r = 0; r < seqLen; ++r) byDistance[std::size_t(r)] = kerpleBias(params, r);
    return causalBiasMatrix(byDistance);
}

}  // namespace poslab
