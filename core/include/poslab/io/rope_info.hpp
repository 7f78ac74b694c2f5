// rope_info.hpp — everything PosLab read from a config.json about RoPE, as one JSON object.
//
// For `poslab export rope-info` and the GUI's config panel: head size and where it came from,
// rotated dims, pairing, the RoPE of each layer type (base, rope type, factor, inv_freq,
// attention factor, which LongRoPE list is active), the layer list, training and original
// context, and every note and warning (HF's validation: unknown rope_scaling keys, an explicit
// factor that disagrees with the implied one), and for Qwen VL models "multimodal_rope" (model,
// layout, mrope_section, merge size, the T/H/W stream of each pair). A config PosLab cannot use
// gives the one-line Error of parseHfConfig() instead.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "poslab/base/result.hpp"
#include "poslab/io/hf_config.hpp"

namespace poslab {

// seqLen: the sequence length dynamic scalings (dynamic NTK, LongRoPE) are evaluated at; 0 means
// each variant's training length. Fails only when seqLen is out of 0..kMaxRopePositions.
Result<nlohmann::json> ropeInfoJson(const HfModelConfig& config, int seqLen = 0);
Result<nlohmann::json> ropeInfoFromText(std::string_view jsonText, int seqLen = 0);
Result<nlohmann::json> ropeInfoFromFile(const std::string& path, int seqLen = 0);

}  // namespace poslab
