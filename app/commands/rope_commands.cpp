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
#include "commands/rope_inputs.hpp"
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
    std::string path;
    int seqLen = 0;  // 0: the config's own
    OptionReader read(args);
    read.path("config", path, "--config FILE is required (a Hugging Face config.json)");
    read.integer("seq-len", seqLen, 1, kMaxRopePositions);
    if (!read.ok()) return read.error();
    auto info = ropeInfoFromFile(path, seqLen);
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
    OptionReader read(args);
    read.choice("incomplete-within", options.incompleteWithin, [](std::string_view name) {
        return parseEnum(kTurnReferenceNames, name, "incomplete-within");
    });
    if (!read.ok()) return read.error();
    Figure figure = blankFigure(settings);
    drawRopeFrequencies(figure, wholeFigure(settings), p, options, settings.theme);
    return figure;
}

// rope-scalings: the config (or flags) give the RoPE and each scaling's own settings; the factor
// is one for all. Read here, not by readRopeInputs, which refuses a factor without --scaling.
Result<Figure> renderScalings(const ArgMap& args, const RenderSettings& settings) {
    RopeParams p;
    RopeScalingsOptions options;
    auto configured = readConfigRope(args);
    if (!configured) return configured.error();
    if (*configured) {
        p = (*configured)->rope;
        // The model's context: dynamic NTK is evaluated there when it reaches past L0.
        const int context = (*configured)->config.maxPositionEmbeddings;
        if (context > 0) p.seqLen = context;
        if (p.scaling.type != RopeScaling::None) options.factor = p.scaling.factor;
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
    std::string path;
    OptionReader read(args);
    read.path("config", path, "--config FILE is required (a Hugging Face config.json)");
    if (!read.ok()) return read.error();
    auto config = loadHfConfig(path);
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
    std::vector<FloatFormat> listed = {FloatFormat::Float32, FloatFormat::BFloat16,
                                       FloatFormat::Float16};
    OptionReader read(args);
    read.list("formats", listed, kFloatFormatNames.size(), [](std::string_view word) {
        return parseEnum(kFloatFormatNames, word, "formats entries");
    });
    if (!read.ok()) return read.error();
    std::vector<FloatFormat> formats;  // each once, in the order first given
    for (FloatFormat format : listed) {
        if (std::find(formats.begin(), formats.end(), format) == formats.end())
            formats.push_back(format);
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
    // > 0: the smallest double above zero is the lowest value taken.
    read.number("threshold", radians, std::numeric_limits<double>::denorm_min(), 3.14159,
                "in (0, pi] radians");
    if (!read.ok()) return read.error();
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
