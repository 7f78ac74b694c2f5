#include "poslab/encodings/nope.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "poslab/base/validate.hpp"

namespace poslab {

double nopeFirstTokenSignal(long long position) {
    return 1.0 / (double(position) + 1.0);
}

Result<SignalPrecision> parseSignalPrecision(std::string_view name) {
    return parseEnum(kSignalPrecisionNames, name, "precision");
}

double roundToPrecision(double value, SignalPrecision precision) {
    switch (precision) {
        case SignalPrecision::Float64:
            return value;
        case SignalPrecision::Float32:
            return double(float(value));
        case SignalPrecision::BFloat16: {
            // bfloat16 is float32's top 16 bits: round the low 16 to nearest, ties to even.
            const float f = float(value);
            if (!std::isfinite(f)) return double(f);
            std::uint32_t bits = 0;
            std::memcpy(&bits, &f, sizeof bits);
            const std::uint32_t lsb = (bits >> 16) & 1u;
            bits = (bits + 0x7fffu + lsb) & 0xffff0000u;
            float rounded = 0;
            std::memcpy(&rounded, &bits, sizeof rounded);
            return double(rounded);
        }
    }
    return value;
}

long long nopeRecoveredPosition(long long position, SignalPrecision precision) {
    const double stored = roundToPrecision(nopeFirstTokenSignal(position), precision);
    return std::llround(1.0 / stored - 1.0);
}

long long nopeFirstUnresolved(SignalPrecision precision, long long limit) {
    for (long long t = 0; t < limit; ++t) {
        if (nopeRecoveredPosition(t, precision) != t) return t;
    }
    return limit;
}

Matrix uniformCausalAverage(const Matrix& rows) {
    Matrix out(rows.rows, rows.cols);
    std::vector<double> sum(rows.cols, 0.0);
    for (std::size_t t = 0; t < rows.rows; ++t) {
        for (std::size_t c = 0; c < rows.cols; ++c) {
            sum[c] += rows(t, c);
            out(t, c) = sum[c] / double(t + 1);
        }
    }
    return out;
}

Status validate(const IropeParams& params) {
    if (auto s = requireIntInRange("num_layers", params.numLayers, 1, kMaxIropeLayers); !s)
        return s;
    if (auto s = requireIntInRange("no_rope_layer_interval", params.noRopeLayerInterval, 1,
                                   kMaxIropeLayers);
        !s) {
        return s;
    }
    if (!params.noRopeLayers.empty()) {
        if (params.noRopeLayers.size() != std::size_t(params.numLayers)) {
            return Error{
                "no_rope_layers must have num_layers = " + std::to_string(params.numLayers) +
                " entries (got " + std::to_string(params.noRopeLayers.size()) + ")"};
        }
        for (std::size_t l = 0; l < params.noRopeLayers.size(); ++l) {
            if (auto s = requireIntInRange("no_rope_layers[" + std::to_string(l) + "]",
                                           params.noRopeLayers[l], 0, 1);
                !s) {
                return s;
            }
        }
    }
    return requireIntInRange("attention_chunk_size", params.attentionChunkSize, 0, 1 << 30);
}

std::vector<int> defaultNoRopeLayers(int numLayers, int interval) {
    std::vector<int> layers;
    for (int l = 0; l < numLayers; ++l)
        layers.push_back(interval > 0 && (l + 1) % interval != 0 ? 1 : 0);
    return layers;
}

std::vector<int> effectiveNoRopeLayers(const IropeParams& params) {
    if (!params.noRopeLayers.empty()) return params.noRopeLayers;  // `no_rope_layers or default`
    return defaultNoRopeLayers(params.numLayers, params.noRopeLayerInterval);
}

bool layerUsesRope(const IropeParams& params, int layer) {
    if (layer < 0 || layer >= params.numLayers) return false;
    if (!params.noRopeLayers.empty()) {
        return std::size_t(layer) < params.noRopeLayers.size() &&
               params.noRopeLayers[std::size_t(layer)] == 1;
    }
    return params.noRopeLayerInterval > 0 && (layer + 1) % params.noRopeLayerInterval != 0;
}

bool chunkedAttends(long long query, long long key, long long chunk) {
    if (key > query || key < 0) return false;
    return chunk <= 0 || query / chunk == key / chunk;
}

bool iropeAttends(const IropeParams& params, int layer, long long query, long long key) {
    const long long chunk = layerUsesRope(params, layer) ? params.attentionChunkSize : 0;
    return chunkedAttends(query, key, chunk);
}

long long iropeVisibleKeys(const IropeParams& params, int layer, long long query) {
    if (query < 0) return 0;
    const long long chunk = layerUsesRope(params, layer) ? params.attentionChunkSize : 0;
    return chunk > 0 ? query % chunk + 1 : query + 1;
}

}  // namespace poslab
