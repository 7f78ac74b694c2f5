// comparison_commands.cpp — the Extrapolation and Compare views' options (the ALiBi and T5
// settings both take) and their `render` views; see comparison_commands.hpp.
#include "commands/comparison_commands.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "commands/option_reader.hpp"
#include "poslab/base/format.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/io/hf_config.hpp"
#include "poslab/views/compare_ab_figures.hpp"
#include "poslab/views/compare_figures.hpp"
#include "poslab/views/extrapolation_figures.hpp"
#include "state/ranges.hpp"

namespace poslab::commands {

namespace {

// ---- Extrapolation and comparison: the ALiBi and T5 settings both figures take

std::vector<OptionSpec> biasSettingOptions(const std::string& alibiHeadsHelp) {
    return {{"alibi-heads", "H", alibiHeadsHelp},
            {"t5-buckets", "N", "T5 buckets (default 32)"},
            {"t5-max-distance", "N", "T5 max distance (default 128)"}};
}

template <class Options>  // ExtrapolationOptions, CompareOptions
void readBiasSettings(OptionReader& read, Options& o) {
    read.integer("alibi-heads", o.alibiHeads, state::kAlibiHeadsRange.low,
                 state::kAlibiHeadsRange.high);
    read.integer("t5-buckets", o.t5Buckets, 2, 1024);
    read.integer("t5-max-distance", o.t5MaxDistance, 1, kMaxSeqLen);
}

}  // namespace

void registerComparisonCommands(CommandRegistry& registry) {
    // ---- extrapolation
    registry.renders.push_back(
        {"extrapolation",
         "past the training length: sinusoidal, learned, RoPE (and its scalings), ALiBi, T5",
         joinOptions(
             {{"training-length", "N", "positions seen in training, 2..65536 (default 512)"},
              {"eval-length", "N",
               "positions used now, > training length, ..262144 (default 2048)"},
              {"d-model", "D", "sinusoidal / learned width, 2..1024 (default 64)"},
              {"head-dim", "D", "RoPE head dimension, even, 4..1024 (default 64)"},
              {"base", "B", "RoPE base, > 1 (default 10000)"},
              {"set", "NAME",
               "textbook (default: sinusoidal, learned, RoPE, scalings, ALiBi, T5) or relative "
               "(KERPLE, Sandwich, FIRE, xPos, DeBERTa, the whole family)"}},
             biasSettingOptions("ALiBi heads, " + state::kAlibiHeadsRange.rangeText() +
                                " (default 8)")),
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             ExtrapolationOptions o;
             OptionReader read(args);
             read.integer("training-length", o.trainingLength, 2, 65536);
             read.integer("eval-length", o.evaluationLength, 3, 262144);
             read.integer("d-model", o.dModel, 2, 1024);
             read.integer("head-dim", o.headDim, 4, 1024);
             read.number("base", o.ropeBase);
             read.choice("set", o.set, parseExtrapolationSet);
             readBiasSettings(read, o);
             if (!read.ok()) return read.error();
             if (o.evaluationLength <= o.trainingLength) {
                 return Error{"--eval-length must be greater than --training-length (got " +
                              std::to_string(o.evaluationLength) +
                              " <= " + std::to_string(o.trainingLength) + ")"};
             }
             return extrapolationFigure(o, float(settings.width), float(settings.height),
                                        settings.theme);
         }});

    // ---- comparison
    std::vector<OptionSpec> compareOptions =
        joinOptions({{"d-model", "D", "width (and RoPE head dim), even, 4..1024 (default 64)"},
                     {"seq-len", "L", "positions, 2..2048 (default 128)"},
                     {"base", "B", "sinusoidal and RoPE base (default 10000)"}},
                    biasSettingOptions("ALiBi heads; head 0 is shown (default 8)"));
    compareOptions.push_back(
        {"seed", "S",
         "learned table, T5 bucket values, FIRE's MLP, DeBERTa's vectors (default 0)"});
    for (const char* slot : {"bias-a", "bias-b"}) {
        compareOptions.push_back({slot, "NAME",
                                  std::string(slot == std::string("bias-a") ? "first" : "second") +
                                      " bias panel: " + enumNameList(kCompareBiasNames) +
                                      " (default " +
                                      (slot == std::string("bias-a") ? "alibi" : "t5") + ")"});
    }
    // The relative members' parameters, under `render relative-family`'s option names.
    const std::vector<OptionSpec> relativeMembers = {
        {"power-r1", "X", "KERPLE power: scale r1, 0..1000, clamped to >= 0.01 (default 0.5)"},
        {"power-r2", "X", "KERPLE power: exponent r2, 0..1000, clamped to 0.01..2 (default 0.8)"},
        {"log-r1", "X", "KERPLE log: scale r1, 0..1000, clamped to >= 0.01 (default 1)"},
        {"log-r2", "X", "KERPLE log: scale inside r2, 0..1000, clamped to >= 0.01 (default 1)"},
        {"sandwich-dim", "D", "Sandwich: d of the sinusoids, even, 2..8192 (default 128)"},
        {"sandwich-heads", "H", "Sandwich: heads H, 1..128 (default 8)"},
        {"sandwich-head", "K", "Sandwich: head, 0..H-1, compression 8 (K + 1)/H (default 0)"},
        {"c", "X", "FIRE: psi(x) = log(c x + 1), 1e-6..1000 (default 0.1)"},
        {"threshold", "L", "FIRE: normaliser psi(max(i, L)), 1..1e9 (default 512)"},
        {"mlp-width", "W", "FIRE: hidden units of the MLP, 1..1024 (default 32)"},
        {"fire-heads", "H", "FIRE: MLP outputs, 1..128 (default 8)"},
        {"fire-head", "K", "FIRE: which output, 0..H-1 (default 0)"},
        {"gamma", "G", "xPos: zeta_i = (2i/d + gamma)/(1 + gamma), 0..10 (default 0.4)"},
        {"scale-base", "B", "xPos: scale_base, zeta^(distance / B), 1..1e9 (default 512)"}};
    compareOptions.insert(compareOptions.end(), relativeMembers.begin(), relativeMembers.end());
    registry.renders.push_back(
        {"compare", "every encoding side by side under the same width and length", compareOptions,
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             CompareOptions o;
             OptionReader read(args);
             read.integer("d-model", o.dModel, 4, 1024);
             read.integer("seq-len", o.seqLen, 2, 2048);
             read.number("base", o.base);
             readBiasSettings(read, o);
             read.seed(o.seed);
             read.choice("bias-a", o.biasA, [](std::string_view name) {
                 return parseEnum(kCompareBiasNames, name, "bias-a");
             });
             read.choice("bias-b", o.biasB, [](std::string_view name) {
                 return parseEnum(kCompareBiasNames, name, "bias-b");
             });
             read.number("power-r1", o.kerplePower.r1);
             read.number("power-r2", o.kerplePower.r2);
             read.number("log-r1", o.kerpleLog.r1);
             read.number("log-r2", o.kerpleLog.r2);
             read.coreInt("sandwich-dim", o.sandwich.headDim, "head_dim", 2, kMaxDModel);
             read.coreInt("sandwich-heads", o.sandwich.heads, "heads", 1, kMaxSandwichHeads);
             read.coreInt("sandwich-head", o.sandwich.head, "head", 0, kMaxSandwichHeads - 1);
             read.number("c", o.fire.c);
             read.number("threshold", o.fire.threshold);
             read.coreInt("mlp-width", o.fire.mlpWidth, "mlp_width", 1, kMaxFireMlpWidth);
             read.coreInt("fire-heads", o.fire.heads, "heads", 1, kMaxFireHeads);
             read.coreInt("fire-head", o.fire.head, "head", 0, kMaxFireHeads - 1);
             read.number("gamma", o.xposGamma);
             read.number("scale-base", o.xposScaleBase);
             if (!read.ok()) return read.error();
             return comparisonFigure(o, float(settings.width), float(settings.height),
                                     settings.theme);
         }});
    registry.renders.push_back(
        {"compare-ab",
         "two RoPE configurations (config.json files or bases) and their difference",
         {{"a-config", "FILE", "configuration A: a Hugging Face config.json"},
          {"b-config", "FILE", "configuration B: a Hugging Face config.json"},
          {"a-base", "B", "without --a-config: A's rope_theta (default 10000)"},
          {"b-base", "B", "without --b-config: B's rope_theta (default 500000)"},
          {"head-dim", "D", "without config files: head dimension (default 128)"},
          {"training-length", "N", "without config files: training context (default 4096)"},
          {"max-offset", "K", "offsets 0..K compared, 2..1048575 (default 8192)"}},
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             int head = 128, training = 4096, reach = 8192;
             OptionReader read(args);
             read.integer("head-dim", head, 2, 8192);
             read.integer("training-length", training, 1, kMaxRopePositions);
             read.integer("max-offset", reach, 2, kMaxSeqLen - 1);  // K + 1 positions
             if (!read.ok()) return read.error();
             RopeConfiguration configs[2];
             const char* names[2] = {"a", "b"};
             const double bases[2] = {10000, 500000};
             for (int k = 0; k < 2; ++k) {
                 const std::string side = names[k];
                 const std::string letter = k == 0 ? "A" : "B";
                 std::optional<std::string> path;
                 read.path(side + "-config", path);
                 if (path) {
                     if (args.has(side + "-base")) {
                         return Error{"--" + side + "-base and --" + side +
                                      "-config exclude each other"};
                     }
                     auto config = loadHfConfig(*path);
                     if (!config) return config.error();
                     configs[k].rope = config->rope;
                     std::string name = *path;
                     const auto slash = name.find_last_of('/');
                     if (slash != std::string::npos && slash > 0) {
                         const auto previous = name.find_last_of('/', slash - 1);
                         name = name.substr(previous == std::string::npos ? 0 : previous + 1);
                     }
                     const RopeScalingParams& scaling = config->rope.scaling;
                     configs[k].label = letter + ": " +
                                        (config->modelType.empty() ? name : config->modelType) +
                                        " (base " + formatValue(config->rope.base, 6) +
                                        (scaling.type != RopeScaling::None
                                             ? ", " + std::string(scalingName(scaling.type)) +
                                                   " x" + formatValue(scaling.factor, 4)
                                             : std::string()) +
                                        ")";
                 } else {
                     double base = bases[k];
                     read.number(side + "-base", base);
                     if (!read.ok()) return read.error();
                     configs[k].rope.base = base;
                     configs[k].rope.headDim = head;
                     configs[k].rope.trainingLength = training;
                     configs[k].label = letter + ": base " + formatValue(base, 6);
                     // "--a-base must be > 1 ...", not "A: base must be ...": name the option.
                     if (auto s = validate(configs[k].rope);
                         !s && s.error().message.rfind("base ", 0) == 0) {
                         return Error{"--" + side + "-" + s.error().message};
                     }
                 }
             }
             return abComparisonFigure(configs[0], configs[1], reach, float(settings.width),
                                       float(settings.height), settings.theme);
         }});
}

}  // namespace poslab::commands
