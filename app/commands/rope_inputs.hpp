// rope_inputs.hpp — the options every RoPE command shares and how they are read: a Hugging Face
// config.json (--config, --layer-type) with flags that win over it, and q/k vectors (--q/--k or
// --seed). rope_commands.cpp's exports and renders read their RoPE through these.
//
//   auto inputs = readRopeInputs(args);            // config + flags, not yet validated
//   auto vectors = readVectors(args, *inputs);     // may set head_dim from --q's length
//   if (auto s = validated(inputs->params); !s) return s.error();
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "commands/args.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/result.hpp"
#include "poslab/encodings/rope.hpp"
#include "poslab/encodings/rope_scaling.hpp"
#include "poslab/io/hf_config.hpp"

namespace poslab::commands {

// ---- Options (their help lines)
OptionSpec layerTypeOption();                                        // --layer-type NAME
std::vector<OptionSpec> ropeOptions(const std::string& seqLenHelp);  // --config and the RoPE flags
OptionSpec pairingOption();                                          // --pairing half|interleaved
std::vector<OptionSpec> vectorOptions();                             // --q, --k, --seed

// ---- Reading
struct RopeInputs {
    RopeParams params;
    bool headDimKnown = false;  // from --head-dim or --config (else vectors may set it)
};
// The RoPE parameters from --config and the flags, not yet validated (vectors may still set
// head_dim); --seq-len is 1..maxSeqLen. Flags that the final scaling type does not read are
// refused, not ignored ("--beta-fast does not apply to --scaling llama3").
Result<RopeInputs> readRopeInputs(const ArgMap& args, int maxSeqLen = kMaxRopePositions);
// --config's model and the RoPE of the layers --layer-type names in it; nullopt without --config
// (where --layer-type is refused).
struct ConfigRope {
    HfModelConfig config;
    RopeParams rope;
};
Result<std::optional<ConfigRope>> readConfigRope(const ArgMap& args);
// The RoPE of the layers --layer-type names, or of the full-attention layers (a note on stderr
// when the config has others).
Result<RopeParams> ropeForLayerType(const HfModelConfig& config, const ArgMap& args);
// validate(params), its original_max_positions named --original-max-pos.
Status validated(const RopeParams& params);

struct Vectors {
    std::vector<double> q, k;
};
// --q and --k (together, finite, as many as head_dim, which they set when nothing else did), or
// N(0,1) draws seeded by --seed (q) and --seed + 1 (k).
Result<Vectors> readVectors(const ArgMap& args, RopeInputs& inputs);
// A vector (--q, --k, --vector: at most kMaxDModel finite entries) or --positions (kMaxSeqLen).
Result<std::vector<double>> finiteList(const ArgMap& args, const std::string& name);

}  // namespace poslab::commands
