#include "poslab/encodings/attention_temperature.hpp"

#include <cmath>
#include <string>

#include "poslab/base/validate.hpp"

namespace poslab {

Status validate(const AttentionTemperatureParams& params) {
    if (auto s = requireInRange("floor_scale", params.floorScale, 0.0, kMaxTemperatureFloorScale,
                                /*lowInclusive=*/false);
        !s) {
        return s;
    }
    return requireInRange("attn_scale", params.attnScale, 0.0, kMaxTemperatureAttnScale);
}

double attentionTemperature(const AttentionTemperatureParams& params, std::int64_t position) {
    // Every step in float32, in the order torch evaluates the expression: the cast position plus
    // one, divided by floor_scale, floored, log1p, times attn_scale, plus one.
    const float cachePosition = static_cast<float>(position);
    const float step = std::floor((cachePosition + 1.0f) / static_cast<float>(params.floorScale));
    const float scale = std::log1p(step) * static_cast<float>(params.attnScale) + 1.0f;
    return double(scale);
}

Result<std::vector<double>> attentionTemperatures(const AttentionTemperatureParams& params,
                                                  const std::vector<std::int64_t>& positions) {
    if (auto s = validate(params); !s) return s.error();
    std::vector<double> scales;
    scales.reserve(positions.size());
    for (const std::int64_t position : positions) {
        if (position < 0 || position > kMaxTemperaturePosition) {
            return Error{"position must be 0.." + std::to_string(kMaxTemperaturePosition) +
                         " (got " + std::to_string(position) + ")"};
        }
        scales.push_back(attentionTemperature(params, position));
    }
    return scales;
}

}  // namespace poslab
