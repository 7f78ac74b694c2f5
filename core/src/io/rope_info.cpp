#include "poslab/io/rope_info.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "poslab/base/validate.hpp"

namespace poslab {

namespace {

using nlohmann::json;

json variantJson(const HfRopeVariant& variant, int seqLen, const std::vector<HfLayer>& layers,
                 int index) {
    RopeParams rope = variant.rope;
    rope.seqLen = seqLen > 0 ? seqLen : rope.trainingLength;
    json out;
    out["layer_type"] = variant.layerType;
    out["rope_type"] = std::string(scalingName(rope.scaling.type));
    out["base"] = rope.base;
    out["head_dim"] = rope.headDim;
    out["rotary_dims"] = rotatedDims(rope);
    out["pairing"] = std::string(pairingName(rope.pairing));
    out["seq_len"] = rope.seqLen;
    out["training_length"] = rope.trainingLength;
    out["original_max_position_embeddings"] = originalMaxPositions(rope);
    if (rope.scaling.type != RopeScaling::None && rope.scaling.type != RopeScaling::Proportional) {
        out["factor"] = rope.scaling.factor;
    }
    if (rope.scaling.type == RopeScaling::Proportional) {
        out["rope_proportion"] = rope.scaling.ropeProportion;
    }
    // validate() passed in parseHfConfig(), so this only fails for a bad seqLen (checked above).
    if (auto freqs = ropeFrequencies(rope); freqs.ok()) {
        out["inv_freq"] = freqs->inverse;
        out["attention_factor"] = freqs->attentionFactor;
        if (freqs->longRopeList) {
            out["longrope_list"] = *freqs->longRopeList == LongRopeList::Long ? "long" : "short";
        }
        if (freqs->zeroFrequencyPairs > 0) out["nope_pairs"] = freqs->zeroFrequencyPairs;
    }
    std::vector<int> indices;
    for (std::size_t i = 0; i < layers.size(); ++i) {
        if (layers[i].ropeVariant == index) indices.push_back(int(i));
    }
    out["layers"] = indices;
    return out;
}

}  // namespace

Result<json> ropeInfoJson(const HfModelConfig& config, int seqLen) {
    if (auto s = requireIntInRange("seq_len", seqLen, 0, kMaxRopePositions); !s) return s.error();
    json out;
    out["model_type"] = config.modelType;
    out["head_dim"] = config.rope.headDim;
    out["head_dim_source"] = config.headDimSource;
    out["rotary_dims"] = rotatedDims(config.rope);
    out["pairing"] = std::string(pairingName(config.rope.pairing));
    out["base"] = config.rope.base;
    out["rope_type"] = std::string(scalingName(config.rope.scaling.type));
    out["max_position_embeddings"] = config.maxPositionEmbeddings;
    out["training_length"] = config.rope.trainingLength;
    out["original_max_position_embeddings"] = originalMaxPositions(config.rope);
    out["default_layer_type"] =
        config.ropeVariants.empty() ? "full_attention" : config.ropeVariants[0].layerType;
    json variants = json::array();
    for (std::size_t i = 0; i < config.ropeVariants.size(); ++i) {
        variants.push_back(variantJson(config.ropeVariants[i], seqLen, config.layers, int(i)));
    }
    if (config.ropeVariants.empty()) {
        variants.push_back(
            variantJson(HfRopeVariant{"full_attention", config.rope}, seqLen, config.layers, 0));
    }
    out["rope_by_layer_type"] = variants;
    json layers = json::array();
    std::vector<int> nope;
    for (std::size_t i = 0; i < config.layers.size(); ++i) {
        const HfLayer& layer = config.layers[i];
        json entry;
        entry["index"] = int(i);
        entry["layer_type"] = layer.layerType;
        const char* windows[] = {"full", "sliding", "chunked", "linear"};
        entry["window"] = windows[int(layer.window)];
        if (layer.window == AttentionWindow::Sliding) entry["sliding_window"] = layer.slidingWindow;
        if (layer.window == AttentionWindow::Chunked) {
            entry["attention_chunk_size"] = layer.slidingWindow;
        }
        if (layer.ropeVariant < 0) {
            entry["rope"] = nullptr;
            entry["no_rope_reason"] = layer.noRopeReason;
            nope.push_back(int(i));
        } else {
            entry["rope"] = config.ropeVariants[std::size_t(layer.ropeVariant)].layerType;
        }
        layers.push_back(entry);
    }
    out["num_layers"] = int(config.layers.size());
    out["layers"] = layers;
    out["nope_layers"] = nope;
    // Every layer type, with its RoPE or the reason it has none.
    json types = json::array();
    std::vector<std::string> seen;
    for (const HfLayer& layer : config.layers) {
        if (std::find(seen.begin(), seen.end(), layer.layerType) != seen.end()) continue;
        seen.push_back(layer.layerType);
        json type;
        type["layer_type"] = layer.layerType;
        int count = 0, rotating = 0, variant = -1;
        std::string reason;
        for (const HfLayer& other : config.layers) {
            if (other.layerType != layer.layerType) continue;
            ++count;
            if (other.ropeVariant >= 0) {
                ++rotating;
                variant = other.ropeVariant;
            } else if (reason.empty()) {
                reason = other.noRopeReason;
            }
        }
        type["layers"] = count;
        type["layers_with_rope"] = rotating;
        type["rope"] = variant >= 0 ? json(config.ropeVariants[std::size_t(variant)].layerType)
                                    : json(nullptr);
        if (rotating < count) type["no_rope_reason"] = reason;
        types.push_back(type);
    }
    out["layer_types"] = types;
    if (config.attentionTemperature) {
        // Llama 4: the NoPE layers' query scale, where rope_by_layer_type gives attention_factor.
        const AttentionTemperatureParams& t = *config.attentionTemperature;
        json temperature;
        temperature["floor_scale"] = t.floorScale;
        temperature["attn_scale"] = t.attnScale;
        temperature["formula"] = "log1p(floor((position + 1) / floor_scale)) * attn_scale + 1";
        json samples = json::array();
        for (std::int64_t position : {std::int64_t(0), std::int64_t(8191), std::int64_t(131071),
                                      std::int64_t(1048575), std::int64_t(9999999)}) {
            samples.push_back(
                {{"position", position}, {"scale", attentionTemperature(t, position)}});
        }
        temperature["samples"] = samples;
        out["nope_attention_temperature"] = temperature;
    }
    std::vector<std::string> notes = config.notes;
    if (config.ropeVariants.size() > 1) {
        notes.push_back(
            "the top-level RoPE fields describe the full-attention layers; see rope_by_layer_type");
    }
    if (config.mrope) {
        // Multimodal RoPE: which position stream (T, H, W) drives each rotary pair.
        const MropeSettings& m = *config.mrope;
        json mrope;
        mrope["model"] = std::string(mropeModelName(m.model));
        mrope["layout"] = std::string(mropeLayoutName(m.layout));
        mrope["mrope_section"] = std::vector<int>(m.section.begin(), m.section.end());
        mrope["spatial_merge_size"] = m.spatialMergeSize;
        if (m.model == MropeModel::Qwen25VL) mrope["tokens_per_second"] = m.tokensPerSecond;
        std::string streams;
        if (auto pairs = mropePairStreams(m.section, m.headDim, m.layout)) {
            for (PositionStream stream : *pairs) streams += positionStreamName(stream);
        }
        mrope["pair_streams"] = streams;
        out["multimodal_rope"] = mrope;
    }
    out["notes"] = notes;
    out["warnings"] = config.warnings;
    return out;
}

Result<json> ropeInfoFromText(std::string_view jsonText, int seqLen) {
    auto config = parseHfConfig(jsonText);
    if (!config) return config.error();
    return ropeInfoJson(*config, seqLen);
}

Result<json> ropeInfoFromFile(const std::string& path, int seqLen) {
    auto config = loadHfConfig(path);
    if (!config) return config.error();
    return ropeInfoJson(*config, seqLen);
}

}  // namespace poslab
