// rope_inputs.cpp — the RoPE commands' options and how they are read (rope_inputs.hpp).
#include "commands/rope_inputs.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>

#include "commands/option_reader.hpp"
#include "poslab/base/format.hpp"
#include "poslab/base/random.hpp"
#include "poslab/views/rope_layers_figures.hpp"

namespace poslab::commands {

// ---- Options

OptionSpec layerTypeOption() {
    return {"layer-type", "NAME",
            "with --config: the layers whose RoPE to use, e.g. full_attention or "
            "sliding_attention (default: full_attention; a note says so when there are others)"};
}

std::vector<OptionSpec> ropeOptions(const std::string& seqLenHelp) {
    return {{"config", "FILE",
             "Hugging Face config.json: head_dim, rope_theta, partial_rotary_factor, rope_scaling, "
             "max_position_embeddings; flags given too win"},
            layerTypeOption(),
            {"head-dim", "D", "dimensions per attention head, even, 2..8192 (default 128)"},
            {"base", "B", "rope_theta, > 1 and <= 1e12 (default 10000)"},
            {"rotary-fraction", "F",
             "partial_rotary_factor: int(D*F) dims are rotated, (0, 1] (default 1)"},
            {"scaling", "TYPE", "none, linear, ntk, dynamic-ntk, yarn or llama3 (default none)"},
            {"factor", "S", "scaling factor s, 1..65536"},
            {"original-max-pos", "N",
             "L0, the context before extension, 1..1073741824 (default: --training-length)"},
            {"low-freq-factor", "A", "llama3: wavelengths above L0/A are divided by s (default 1)"},
            {"high-freq-factor", "B", "llama3: wavelengths below L0/B are kept; > A (default 4)"},
            {"beta-fast", "X", "yarn: pairs turning more than X times in L0 are kept (default 32)"},
            {"beta-slow", "Y", "yarn: pairs turning fewer than Y times are divided (default 1)"},
            {"seq-len", "L", seqLenHelp + "; with --config: max_position_embeddings"},
            {"training-length", "N",
             "training context, 1..1073741824 (default 4096; with --config: "
             "original_max_position_embeddings, else max_position_embeddings)"}};
}

OptionSpec pairingOption() {
    return {"pairing", "NAME",
            "half (Llama, GPT-NeoX: dim j with j + d/2; default) or interleaved (GPT-J: 2i, 2i+1)"};
}

std::vector<OptionSpec> vectorOptions() {
    return {
        {"q", "LIST", "query vector, comma-separated, head_dim entries (<= 8192; with --k)"},
        {"k", "LIST", "key vector, comma-separated, head_dim entries (<= 8192; with --q)"},
        {"seed", "S",
         "without --q/--k: q and k are N(0,1) draws with seeds S and S+1, 0..2^63 (default 1)"}};
}

// ---- Reading

// A vector (--q, --k, --vector: at most kMaxDModel entries) or positions (kMaxSeqLen).
Result<std::vector<double>> finiteList(const ArgMap& args, const std::string& name) {
    const std::size_t cap = name == "positions" ? std::size_t(kMaxSeqLen) : std::size_t(kMaxDModel);
    std::vector<double> values;
    OptionReader read(args);
    read.list(name, values, cap);
    if (!read.ok()) return read.error();
    return values;
}

// The RoPE of the layers --layer-type names, or of the full-attention layers. When the config
// has more than one, the default is stated on stderr, so that nobody mistakes it for the model.
Result<RopeParams> ropeForLayerType(const HfModelConfig& config, const ArgMap& args) {
    const std::vector<std::string> types = ropeLayerTypes(config);
    std::optional<std::string> name;  // one of the config's layer types, checked below
    OptionReader read(args);
    read.text("layer-type", name);
    if (!name) {
        if (types.size() > 1) {
            std::string names;
            for (const std::string& t : types)
                names += (names.empty() ? "" : ", ") + escapeForMessage(t);
            std::fprintf(stderr,
                         "poslab: note: the config has layer types %s; using the "
                         "%s layers' RoPE (choose with --layer-type)\n",
                         names.c_str(),
                         config.ropeVariants.empty() ? "full_attention"
                                                     : config.ropeVariants[0].layerType.c_str());
        }
        return config.rope;
    }
    auto variant = ropeVariantForLayerType(config, *name);
    if (!variant) return Error{"--layer-type " + variant.error().message};
    if (*variant < 0) {
        // NoPE or linear-attention layers: there are no frequencies to give.
        return Error{"layer type " + escapeForMessage(*name) + " has no RoPE in this model (" +
                     noRopeReasonOf(config, *name) + ")"};
    }
    return config.ropeVariants[std::size_t(*variant)].rope;
}

Result<std::optional<ConfigRope>> readConfigRope(const ArgMap& args) {
    std::optional<std::string> path;
    OptionReader read(args);
    read.path("config", path);
    if (!path) {
        if (args.has("layer-type"))
            return Error{"--layer-type needs --config FILE (it picks among the config's layers)"};
        return std::optional<ConfigRope>();
    }
    auto config = loadHfConfig(*path);
    if (!config) return Error{"--config " + config.error().message};
    auto rope = ropeForLayerType(*config, args);
    if (!rope) return rope.error();
    return std::optional<ConfigRope>(ConfigRope{std::move(config).value(), *rope});
}

// The RoPE parameters from --config and the flags, not yet validated (vectors may still set
// head_dim). Flags that the final scaling type does not read are refused, not ignored.
Result<RopeInputs> readRopeInputs(const ArgMap& args, int maxSeqLen) {
    RopeInputs inputs;
    RopeParams& p = inputs.params;
    auto configured = readConfigRope(args);
    if (!configured) return configured.error();
    if (*configured) {
        p = (*configured)->rope;
        inputs.headDimKnown = true;
        // The model's context: max_position_embeddings (the training length is already
        // original_max_position_embeddings for llama3 and yarn, else the same). --seq-len wins.
        const int context = (*configured)->config.maxPositionEmbeddings;
        if (context > 0) p.seqLen = std::min(context, maxSeqLen);
    }
    OptionReader read(args);
    read.integer("head-dim", p.headDim, 2, kMaxDModel);
    inputs.headDimKnown = inputs.headDimKnown || args.has("head-dim");
    read.number("base", p.base);
    read.number("rotary-fraction", p.rotaryFraction);
    read.choice("pairing", p.pairing, parsePairing);
    read.choice("scaling", p.scaling.type, parseScaling);
    read.number("factor", p.scaling.factor);
    read.number("low-freq-factor", p.scaling.lowFreqFactor);
    read.number("high-freq-factor", p.scaling.highFreqFactor);
    read.number("beta-fast", p.scaling.betaFast);
    read.number("beta-slow", p.scaling.betaSlow);
    read.integer("original-max-pos", p.scaling.originalMaxPositions, 1, kMaxRopePositions);
    read.integer("seq-len", p.seqLen, 1, maxSeqLen);
    read.integer("training-length", p.trainingLength, 1, kMaxRopePositions);
    if (!read.ok()) return read.error();

    // A scaling flag the chosen type never reads is a mistake worth reporting.
    const RopeScaling type = p.scaling.type;
    const std::string typeName(scalingName(type));
    auto refuse = [&](const char* option, bool read) -> Status {
        if (!args.has(option) || read) return success();
        if (type == RopeScaling::None) {
            return Error{std::string("--") + option +
                         " has no effect without --scaling (linear, ntk, dynamic-ntk, yarn, "
                         "llama3)"};
        }
        return Error{std::string("--") + option + " does not apply to --scaling " + typeName};
    };
    const bool readsL0 =
        type == RopeScaling::DynamicNtk || type == RopeScaling::Yarn || type == RopeScaling::Llama3;
    for (const Status& s :
         {refuse("factor", type != RopeScaling::None), refuse("original-max-pos", readsL0),
          refuse("low-freq-factor", type == RopeScaling::Llama3),
          refuse("high-freq-factor", type == RopeScaling::Llama3),
          refuse("beta-fast", type == RopeScaling::Yarn),
          refuse("beta-slow", type == RopeScaling::Yarn)}) {
        if (!s) return s.error();
    }
    return inputs;
}

// Core messages name fields as the structs do; the one that differs from its option is renamed.
Status validated(const RopeParams& params) {
    auto status = validate(params);
    if (status) return status;
    std::string message = status.error().message;
    const std::string field = "original_max_positions";
    if (message.rfind(field, 0) == 0) message = "--original-max-pos" + message.substr(field.size());
    return Error{message};
}

// q and k from --q/--k (setting head_dim when nothing else did) or seeded from --seed.
Result<Vectors> readVectors(const ArgMap& args, RopeInputs& inputs) {
    RopeParams& p = inputs.params;
    Vectors vectors;
    if (args.has("q") || args.has("k")) {
        if (!args.has("q") || !args.has("k")) {
            return Error{"--q and --k go together (or give neither, for --seed vectors)"};
        }
        if (args.has("seed")) return Error{"--seed is for random vectors; drop it with --q/--k"};
        auto q = finiteList(args, "q");
        if (!q) return q.error();
        auto k = finiteList(args, "k");
        if (!k) return k.error();
        if (k->size() != q->size()) {
            return Error{"--k must have as many entries as --q (" + std::to_string(q->size()) +
                         ") (got " + std::to_string(k->size()) + ")"};
        }
        if (!inputs.headDimKnown) {
            p.headDim = int(q->size());
        } else if (int(q->size()) != p.headDim) {
            return Error{"--q and --k must have head_dim = " + std::to_string(p.headDim) +
                         " entries (got " + std::to_string(q->size()) + ")"};
        }
        vectors.q = std::move(q.value());
        vectors.k = std::move(k.value());
        return vectors;
    }
    // k uses seed + 1, so the top seed is one below the other seeds' top.
    std::uint64_t seed = 1;
    OptionReader read(args);
    read.seed("seed", seed, std::numeric_limits<long long>::max() - 1);
    if (!read.ok()) return read.error();
    vectors.q = seededGaussianVector(p.headDim, seed);
    vectors.k = seededGaussianVector(p.headDim, seed + 1);
    return vectors;
}

}  // namespace poslab::commands
