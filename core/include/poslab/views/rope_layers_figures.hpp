// rope_layers_figures.hpp — a model's layers as a config.json sets them up: which layers rotate
// (and with which base and scaling), which use no position encoding at all (NoPE), and which
// attend through a sliding window. `poslab render rope-layers` and the GUI's RoPE view draw it.
//
//   ropeLayerRows    consecutive layers set up alike, merged into one row ("layers 5-10")
//   drawRopeLayers   those rows as a table: layers, layer type, attention, RoPE, base, scaling
#pragma once

#include <string>
#include <vector>

#include "poslab/figure/plot.hpp"
#include "poslab/io/hf_config.hpp"

namespace poslab {

struct RopeLayerRow {
    int firstLayer = 0, lastLayer = 0;  // inclusive
    std::string layerType;              // "full_attention", "sliding_attention", ...
    std::string attention;     // "full", "sliding 1024", "chunks of 8192" (tokens), "linear"
    std::string rope;          // the variant's layer type, or "none (NoPE)"
    std::string base;          // rope_theta, "" for NoPE layers
    std::string scaling;       // ropeScalingSummary(), "" for NoPE layers
    std::string noRopeReason;  // why the layers have no RoPE ("no_rope_layers", ...)
};
// The layer types a config names, in order of first use (variant names when it lists no layers).
std::vector<std::string> ropeLayerTypes(const HfModelConfig& config);
// The RoPE variant index the layers of `layerType` use; -1 when they have no RoPE (NoPE). An
// error lists the valid names when no layer has that type.
Result<int> ropeVariantForLayerType(const HfModelConfig& config, const std::string& layerType);
// Why no layer of `layerType` rotates ("no_rope_layers", "linear attention ..."); "" when some
// layer of that type has RoPE or none has that type.
std::string noRopeReasonOf(const HfModelConfig& config, const std::string& layerType);

// One row per run of consecutive layers with equal cells; empty when the config lists no layers.
std::vector<RopeLayerRow> ropeLayerRows(const HfModelConfig& config);

// The table, a title naming the model type and layer count, and a line per RoPE variant used.
// A config without num_hidden_layers gets a note instead of rows.
void drawRopeLayers(Figure& figure, Box area, const HfModelConfig& config, const Theme& theme);

}  // namespace poslab
