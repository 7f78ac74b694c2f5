// `poslab export rope-freqs|rope-rotate|rope-scores|rope-decay` and
// `poslab render rope-rotation|rope-angles|rope-scores|rope-frequencies|rope-decay`.
//
// Every RoPE setting can come from a Hugging Face config.json (--config FILE, read exactly as
// transformers reads it); flags given as well override the file's values.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "commands/commands.hpp"
#include "commands/option_reader.hpp"
#include "poslab/base/format.hpp"
#include "poslab/io/hf_config.hpp"
#include "poslab/io/rope_info.hpp"
#include "poslab/views/rope_figures.hpp"
#include "poslab/views/rope_layers_figures.hpp"
#include "poslab/views/rope_precision_figures.hpp"
#include "poslab/views/rope_scalings_figures.hpp"

namespace poslab::commands {

namespace {

inline constexpr std::size_t kMaxRotationPairs = 256;  // --pairs: one circle each

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
    auto name = args.raw("layer-type");
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

struct RopeInputs {
    RopeParams params;
    bool headDimKnown = false;  // from --head-dim or --config (else vectors may set it)
};

// The RoPE parameters from --config and the flags, not yet validated (vectors may still set
// head_dim). Flags that the final scaling type does not read are refused, not ignored.
Result<RopeInputs> readRopeInputs(const ArgMap& args, int maxSeqLen = kMaxRopePositions) {
    RopeInputs inputs;
    RopeParams& p = inputs.params;
    if (auto path = args.raw("config")) {
        auto config = loadHfConfig(*path);
        if (!config) return Error{"--config " + config.error().message};
        auto rope = ropeForLayerType(*config, args);
        if (!rope) return rope.error();
        p = *rope;
        inputs.headDimKnown = true;
        // The model's context: max_position_embeddings (the training length is already
        // original_max_position_embeddings for llama3 and yarn, else the same). --seq-len wins.
        if (config->maxPositionEmbeddings > 0)
            p.seqLen = std::min(config->maxPositionEmbeddings, maxSeqLen);
    } else if (args.has("layer-type")) {
        return Error{"--layer-type needs --config FILE (it picks among the config's layers)"};
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
struct Vectors {
    std::vector<double> q, k;
};
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

Figure blankFigure(const RenderSettings& settings) {
    return emptyFigure(float(settings.width), float(settings.height), settings.theme);
}

Box wholeFigure(const RenderSettings& settings) {
    return {0, 0, float(settings.width), float(settings.height)};
}

// ---- Exports

Result<Matrix> exportFrequencies(const ArgMap& args) {
    auto inputs = readRopeInputs(args);
    if (!inputs) return inputs.error();
    // Without --head-dim or --config: the documented default, 128 (RopeParams).
    if (auto s = validated(inputs->params); !s) return s.error();
    auto freqs = ropeFrequencies(inputs->params);
    if (!freqs) return freqs.error();
    Matrix out(freqs->inverse.size(), 1);
    for (std::size_t i = 0; i < freqs->inverse.size(); ++i) out(i, 0) = freqs->inverse[i];
    return out;
}

constexpr double kMaxRotatedComponent = 1e300;  // |x cos - y sin| <= hypot(x, y) < 1.5e300

Result<Matrix> exportRotate(const ArgMap& args) {
    if (!args.has("vector")) return Error{"--vector LIST is required (comma-separated numbers)"};
    if (!args.has("positions")) return Error{"--positions LIST is required (comma-separated)"};
    auto inputs = readRopeInputs(args);
    if (!inputs) return inputs.error();
    auto vector = finiteList(args, "vector");
    if (!vector) return vector.error();
    // A rotation keeps each pair's length, which for components near the largest double exceeds
    // it: bound the components so that every rotated value stays finite.
    for (double component : *vector) {
        if (std::fabs(component) > kMaxRotatedComponent) {
            return Error{"--vector components must be at most 1e300 in magnitude (got " +
                         formatValue(component) + "; a rotated pair of larger ones overflows)"};
        }
    }
    RopeParams& p = inputs.value().params;
    if (!inputs->headDimKnown) {
        p.headDim = int(vector->size());
    } else if (int(vector->size()) != p.headDim) {
        return Error{"--vector must have head_dim = " + std::to_string(p.headDim) +
                     " entries (got " + std::to_string(vector->size()) + ")"};
    }
    if (auto s = validated(p); !s) return s.error();
    auto positions = finiteList(args, "positions");
    if (!positions) return positions.error();
    if (auto s = checkMatrixSize(positions->size(), vector->size(), "the rotated vectors"); !s) {
        return s.error();
    }
    auto freqs = ropeFrequencies(p);
    if (!freqs) return freqs.error();
    Matrix out(positions->size(), vector->size());
    for (std::size_t r = 0; r < positions->size(); ++r) {
        const std::vector<double> rotated = ropeRotate(*vector, (*positions)[r], *freqs, p.pairing);
        std::copy(rotated.begin(), rotated.end(), out.row(r));
    }
    return out;
}

Result<Matrix> exportScores(const ArgMap& args) {
    if (!args.has("seq-len")) return Error{"--seq-len L is required"};
    auto inputs = readRopeInputs(args, kMaxSeqLen);
    if (!inputs) return inputs.error();
    auto vectors = readVectors(args, inputs.value());
    if (!vectors) return vectors.error();
    const RopeParams& p = inputs->params;
    if (auto s = validated(p); !s) return s.error();
    auto freqs = ropeFrequencies(p);
    if (!freqs) return freqs.error();
    return ropeScoreMatrix(vectors->q, vectors->k, p.seqLen, *freqs, p.pairing);
}

std::vector<OptionSpec> decayOptions(const std::string& distanceHelp) {
    return {{"config", "FILE", "Hugging Face config.json (head_dim, rope_theta, ...); flags win"},
            layerTypeOption(),
            {"head-dim", "D", "dimensions per attention head, even, 2..8192"},
            {"base", "B", "rope_theta, > 1 and <= 1e12 (default 10000)"},
            {"rotary-fraction", "F", "the bound is over the int(D*F) rotated dims (default 1)"},
            {"max-distance", "R", distanceHelp}};
}

struct DecayInputs {
    int dims = 128;
    double base = 10000;
    int maxDistance = 250;
};
Result<DecayInputs> readDecayInputs(const ArgMap& args, bool requireAll) {
    auto inputs = readRopeInputs(args);
    if (!inputs) return inputs.error();
    if (requireAll && !inputs->headDimKnown) {
        return Error{"--head-dim D is required (or --config FILE)"};
    }
    if (requireAll && !args.has("max-distance")) return Error{"--max-distance R is required"};
    if (auto s = validated(inputs->params); !s) return s.error();
    DecayInputs decay;
    decay.dims = rotatedDims(inputs->params);
    decay.base = inputs->params.base;
    OptionReader read(args);
    read.integer("max-distance", decay.maxDistance, 0, kMaxSeqLen);
    if (!read.ok()) return read.error();
    return decay;
}

Result<Matrix> exportDecay(const ArgMap& args) {
    auto decay = readDecayInputs(args, true);
    if (!decay) return decay.error();
    auto bound = ropeDecayBound(decay->dims, decay->base, decay->maxDistance);
    if (!bound) return bound.error();
    Matrix out(bound->size(), 1);
    for (std::size_t r = 0; r < bound->size(); ++r) out(r, 0) = (*bound)[r];
    return out;
}

Result<std::string> exportRopeInfo(const ArgMap& args) {
    auto path = args.raw("config");
    if (!path) return Error{"--config FILE is required (a Hugging Face config.json)"};
    int seqLen = 0;  // 0: the config's own
    OptionReader read(args);
    read.integer("seq-len", seqLen, 1, kMaxRopePositions);
    if (!read.ok()) return read.error();
    auto info = ropeInfoFromFile(*path, seqLen);
    if (!info) return Error{"--config " + info.error().message};
    return info->dump(2) + "\n";
}

// ---- Renders

Result<Figure> renderRotation(const ArgMap& args, const RenderSettings& settings) {
    auto inputs = readRopeInputs(args);
    if (!inputs) return inputs.error();
    auto vectors = readVectors(args, inputs.value());
    if (!vectors) return vectors.error();
    const RopeParams& p = inputs->params;
    if (auto s = validated(p); !s) return s.error();
    RopeRotationOptions options;
    options.q = vectors->q;
    options.k = vectors->k;
    options.m = 10;
    options.n = 4;
    options.trail = state::kRopeTrailRange.fallback;
    constexpr double kExact = 9007199254740992.0;  // 2^53: positions stay exact integers
    OptionReader read(args);
    read.number("m", options.m, -kExact, kExact, "a finite position within 2^53");
    read.number("n", options.n, -kExact, kExact, "a finite position within 2^53");
    read.integer(state::kRopeTrailRange, options.trail);
    if (!read.ok()) return read.error();
    const int pairCount = rotatedDims(p) / 2;
    read.list("pairs", options.pairs, kMaxRotationPairs, 0, pairCount - 1);
    if (!read.ok()) return read.error();
    Figure figure = blankFigure(settings);
    drawRopeRotation(figure, wholeFigure(settings), p, options, settings.theme);
    return figure;
}

Result<Figure> renderAngles(const ArgMap& args, const RenderSettings& settings) {
    auto inputs = readRopeInputs(args, kMaxSeqLen);
    if (!inputs) return inputs.error();
    const RopeParams& p = inputs->params;
    if (auto s = validated(p); !s) return s.error();
    RopeAngleOptions options;
    if (p.trainingLength < p.seqLen) options.trainingLength = p.trainingLength;
    if (settings.colormapGiven) options.colormap = settings.colormap;
    Figure figure = blankFigure(settings);
    drawRopeAngles(figure, wholeFigure(settings), p, options, settings.theme, nullptr);
    return figure;
}

Result<Figure> renderScores(const ArgMap& args, const RenderSettings& settings) {
    auto inputs = readRopeInputs(args, kMaxSeqLen);
    if (!inputs) return inputs.error();
    // 512 positions by default; a config's own context (max_position_embeddings) otherwise.
    if (!args.has("seq-len") && !args.has("config")) inputs.value().params.seqLen = 512;
    auto vectors = readVectors(args, inputs.value());
    if (!vectors) return vectors.error();
    const RopeParams& p = inputs->params;
    if (auto s = validated(p); !s) return s.error();
    // Vectors whose scores would overflow are refused here in one line (exit 2), not drawn as a
    // note in a figure written with exit 0 (as they were with components near 1e308).
    auto freqs = ropeFrequencies(p);
    if (!freqs) return freqs.error();
    if (auto s = ropeOffsetScores(vectors->q, vectors->k, 1, *freqs, p.pairing); !s)
        return s.error();
    RopeScoreOptions options;
    options.q = vectors->q;
    options.k = vectors->k;
    if (settings.colormapGiven) options.colormap = settings.colormap;
    if (p.trainingLength < p.seqLen) options.trainingLength = p.trainingLength;
    Figure figure = blankFigure(settings);
    drawRopeScores(figure, wholeFigure(settings), p, options, settings.theme, nullptr);
    return figure;
}

Result<Figure> renderFrequencies(const ArgMap& args, const RenderSettings& settings) {
    auto inputs = readRopeInputs(args);
    if (!inputs) return inputs.error();
    const RopeParams& p = inputs->params;
    if (auto s = validated(p); !s) return s.error();
    RopeFrequencyOptions options;
    if (auto name = args.raw("incomplete-within")) {
        auto reference = parseTurnReference(*name);
        if (!reference) return reference.error();  // the dispatcher names --incomplete-within
        options.incompleteWithin = *reference;
    }
    Figure figure = blankFigure(settings);
    drawRopeFrequencies(figure, wholeFigure(settings), p, options, settings.theme);
    return figure;
}

// rope-scalings: the config (or flags) give the RoPE and each scaling's own settings; the factor
// is one for all. Read here, not by readRopeInputs, which refuses a factor without --scaling.
Result<Figure> renderScalings(const ArgMap& args, const RenderSettings& settings) {
    RopeParams p;
    RopeScalingsOptions options;
    if (auto path = args.raw("config")) {
        auto config = loadHfConfig(*path);
        if (!config) return Error{"--config " + config.error().message};
        auto rope = ropeForLayerType(*config, args);
        if (!rope) return rope.error();
        p = *rope;
        // The model's context: dynamic NTK is evaluated there when it reaches past L0.
        if (config->maxPositionEmbeddings > 0) p.seqLen = config->maxPositionEmbeddings;
        if (p.scaling.type != RopeScaling::None) options.factor = p.scaling.factor;
    } else if (args.has("layer-type")) {
        return Error{"--layer-type needs --config FILE (it picks among the config's layers)"};
    }
    OptionReader read(args);
    read.integer("head-dim", p.headDim, 2, kMaxDModel);
    read.number("base", p.base);
    read.number("rotary-fraction", p.rotaryFraction);
    read.number("factor", options.factor, 1, 65536, "1..65536");
    // L0 may be 0 (unset: the training length) until given; OptionReader checks the kept value.
    if (args.has("original-max-pos"))
        read.integer("original-max-pos", p.scaling.originalMaxPositions, 1, kMaxRopePositions);
    read.integer("training-length", p.trainingLength, 1, kMaxRopePositions);
    if (args.has("seq-len")) read.integer("seq-len", options.dynamicSeqLen, 1, kMaxRopePositions);
    read.choice("x-axis", options.axis, parseScalingsAxis);
    if (!read.ok()) return read.error();
    // The scaling the config names only supplies its own settings here: the figure shows all.
    RopeParams plain = p;
    plain.scaling.type = RopeScaling::None;
    if (auto s = validated(plain); !s) return s.error();
    Figure figure = blankFigure(settings);
    drawRopeScalings(figure, wholeFigure(settings), p, options, settings.theme);
    return figure;
}

Result<Figure> renderDecay(const ArgMap& args, const RenderSettings& settings) {
    auto decay = readDecayInputs(args, false);
    if (!decay) return decay.error();
    Figure figure = blankFigure(settings);
    drawRopeDecay(figure, wholeFigure(settings), decay->dims, decay->base, decay->maxDistance,
                  settings.theme, nullptr);
    return figure;
}

Result<Figure> renderLayers(const ArgMap& args, const RenderSettings& settings) {
    auto path = args.raw("config");
    if (!path) return Error{"--config FILE is required (a Hugging Face config.json)"};
    auto config = loadHfConfig(*path);
    if (!config) return Error{"--config " + config.error().message};
    Figure figure = blankFigure(settings);
    drawRopeLayers(figure, wholeFigure(settings), *config, settings.theme);
    return figure;
}

inline constexpr long long kDefaultPrecisionPositions = 65536;
// The GUI's slider stops at 2^18 too; the scan is exact at every position, O(pairs x N) per
// format, so its total is capped as well: a render stays within seconds.
inline constexpr long long kMaxPrecisionPositions = 1 << 18;
inline constexpr long long kMaxPrecisionAngles = 1 << 25;  // pairs x (N + 1) x formats

Result<std::vector<FloatFormat>> readFormats(const ArgMap& args) {
    std::vector<FloatFormat> formats;
    auto raw = args.raw("formats");
    if (!raw)
        return std::vector<FloatFormat>{FloatFormat::Float32, FloatFormat::BFloat16,
                                        FloatFormat::Float16};
    std::vector<std::string> words;
    OptionReader read(args);
    read.list("formats", words, kFloatFormatNames.size());
    if (!read.ok()) return read.error();
    for (const std::string& word : words) {
        auto format = parseEnum(kFloatFormatNames, word, "--formats entries");
        if (!format) return format.error();
        if (std::find(formats.begin(), formats.end(), *format) == formats.end())
            formats.push_back(*format);
    }
    return formats;
}

Result<Figure> renderPrecision(const ArgMap& args, const RenderSettings& settings) {
    auto inputs = readRopeInputs(args);
    if (!inputs) return inputs.error();
    const RopeParams& p = inputs->params;
    if (auto s = validated(p); !s) return s.error();
    int positions = int(kDefaultPrecisionPositions);
    double radians = 0.1;
    OptionReader read(args);
    read.integer("max-position", positions, 1, int(kMaxPrecisionPositions));
    read.number("threshold", radians);
    if (!read.ok()) return read.error();
    if (!(radians > 0 && radians <= 3.14159)) {
        return Error{"--threshold must be in (0, pi] radians (got " + *args.raw("threshold") + ")"};
    }
    auto formats = readFormats(args);
    if (!formats) return formats.error();
    const long long angles =
        (long long)(rotatedDims(p) / 2) * (positions + 1) * (long long)formats->size();
    if (angles > kMaxPrecisionAngles) {
        return Error{"--max-position " + std::to_string(positions) + " with " +
                     std::to_string(rotatedDims(p) / 2) + " rotated pairs and " +
                     std::to_string(formats->size()) + " formats scans " + std::to_string(angles) +
                     " angles, over the limit of " + std::to_string(kMaxPrecisionAngles) +
                     ": lower --max-position, --head-dim or --formats"};
    }
    auto reports = ropePrecisionReports(p, *formats, positions, radians);
    if (!reports) return reports.error();
    Figure figure = blankFigure(settings);
    drawRopePrecision(figure, wholeFigure(settings), p, *reports, settings.theme);
    return figure;
}

}  // namespace

void registerRopeCommands(CommandRegistry& registry) {
    const std::string formulaSeqLen =
        "current sequence length (dynamic-ntk reads it), 1..1073741824 (default 4096)";
    registry.exports.push_back(
        matrixExport("rope-freqs",
                     "one row per rotated pair i: its inverse frequency theta_i "
                     "(radians per position), after the scaling",
                     ropeOptions(formulaSeqLen), exportFrequencies));
    registry.exports.push_back(matrixExport(
        "rope-rotate",
        "one row per position: the vector rotated to that position (head_dim columns)",
        joinOptions(ropeOptions(formulaSeqLen),
                    {{"vector", "LIST",
                      "the vector, comma-separated; its length is head_dim (<= 8192); required"},
                     {"positions", "LIST",
                      "positions to rotate to, comma-separated, at most 1048576; required"},
                     pairingOption()}),
        exportRotate));
    registry.exports.push_back(matrixExport(
        "rope-scores",
        "L x L, row m, column n: rotate(q, m) . rotate(k, n), which depends on m - n only",
        joinOptions(
            joinOptions(ropeOptions("positions 0..L-1, 1..1048576 within the memory cap; required"),
                        vectorOptions()),
            {pairingOption()}),
        exportScores));
    registry.exports.push_back(matrixExport(
        "rope-decay",
        "one row per distance r = 0..R: RoFormer's relative upper bound (1/(d/2)) sum_j |S_j|",
        decayOptions("largest relative distance, 0..1048576; required"), exportDecay));
    ExportKind info;
    info.name = "rope-info";
    info.summary =
        "JSON: everything PosLab read from a config.json about RoPE: head size and its source, "
        "RoPE per layer type (base, rope_type, factor, inv_freq, attention_factor, LongRoPE "
        "list), every layer, notes and warnings";
    info.options = {{"config", "FILE", "Hugging Face config.json; required"},
                    {"seq-len", "L",
                     "sequence length dynamic scalings (dynamic NTK, LongRoPE) are evaluated at, "
                     "1..1073741824 (default: each layer type's training length)"}};
    info.document = exportRopeInfo;
    registry.exports.push_back(std::move(info));

    const std::string rowsSeqLen =
        "positions shown (rows), 1..1048576; sampled to the pixels (default 4096)";
    registry.renders.push_back(
        {"rope-rotation",
         "one small 2-D panel per pair: q at m and k at n as rotated arrows, the angle between "
         "them, a trail of earlier positions, and q.k",
         joinOptions(joinOptions(ropeOptions(formulaSeqLen), vectorOptions()),
                     {pairingOption(),
                      {"m", "M", "query position (default 10)"},
                      {"n", "N", "key position (default 4)"},
                      {"pairs", "LIST",
                       "pairs to draw, at most 256 (default: all up to 16, else 16 spread evenly)"},
                      {"trail", "T", state::kRopeTrailRange.help()}}),
         renderRotation});
    registry.renders.push_back(
        {"rope-angles",
         "position x pair heatmap of m theta_i mod 2 pi on the cyclic twilight colormap",
         ropeOptions(rowsSeqLen), renderAngles});
    registry.renders.push_back(
        {"rope-scores", "the L x L score heatmap q_m . k_n (block means when L exceeds the pixels)",
         joinOptions(
             joinOptions(ropeOptions("positions 0..L-1, 1..1048576 (default 512; with --config its "
                                     "max_position_embeddings)"),
                         vectorOptions()),
             {pairingOption()}),
         renderScores});
    registry.renders.push_back(
        {"rope-frequencies",
         "wavelength of each pair on a log axis; context and training length marked; pairs "
         "without a full turn highlighted; unscaled wavelengths overlaid when scaling",
         joinOptions(
             ropeOptions(formulaSeqLen),
             {{"incomplete-within", "WHAT",
               "highlight pairs with no full turn within the context (default) or training"}}),
         renderFrequencies});
    registry.renders.push_back(
        {"rope-scalings",
         "per pair, the scaled over the unscaled frequency (log) for none, linear, NTK, dynamic "
         "NTK, YaRN, Llama 3 and (from a config with lists) LongRoPE at one factor, overlaid",
         {{"config", "FILE",
           "Hugging Face config.json: head_dim, rope_theta, L0, the scalings' own settings "
           "(llama3 frequency factors, yarn betas, longrope lists), factor; flags given too win"},
          layerTypeOption(),
          {"head-dim", "D", "dimensions per attention head, even, 2..8192 (default 128)"},
          {"base", "B", "rope_theta, > 1 and <= 1e12 (default 10000)"},
          {"rotary-fraction", "F", "partial_rotary_factor, (0, 1] (default 1)"},
          {"factor", "S",
           "the scaling factor s of every curve, 1..65536 (default: the config's, else 8)"},
          {"original-max-pos", "N", "L0, 1..1073741824 (default: --training-length)"},
          {"training-length", "N", "training context, 1..1073741824 (default 4096)"},
          {"seq-len", "L",
           "dynamic NTK (and LongRoPE's list) evaluated at L, 1..1073741824 (default: the "
           "config's max_position_embeddings when past L0, else s * L0)"},
          {"x-axis", "WHAT", "pair (pair index; default) or wavelength (unscaled, log)"}},
         renderScalings});
    registry.renders.push_back({"rope-decay",
                                "RoFormer's long-term decay: the relative upper bound against "
                                "relative distance (Su et al. 2021, Fig. 2)",
                                decayOptions("largest relative distance, 0..1048576 (default "
                                             "250); at most 16 distances a pixel column"),
                                renderDecay});
    registry.renders.push_back(
        {"rope-layers",
         "every layer of a config.json as a table: layer type, attention window, RoPE or none "
         "(NoPE), base and scaling; consecutive alike layers share a row",
         {{"config", "FILE", "Hugging Face config.json; required"}},
         renderLayers});
    registry.renders.push_back(
        {"rope-precision",
         "per pair, the first position where the phase error of float32, bfloat16 and float16 "
         "angles (vs float64) passes 0.1 rad",
         joinOptions(
             ropeOptions(formulaSeqLen),
             {{"max-position", "N",
               "positions scanned, 0..N, 1..262144 (default 65536), and rotated pairs x "
               "(N + 1) x formats at most 33554432: the scan is exact at every position"},
              {"formats", "LIST",
               "comma-separated, at most 3: float32, bfloat16, float16 (default all three)"},
              {"threshold", "RAD", "phase error that counts as wrong, (0, pi] (default 0.1)"}}),
         renderPrecision});
}

}  // namespace poslab::commands
