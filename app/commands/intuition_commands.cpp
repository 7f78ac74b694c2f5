// intuition_commands.cpp — the intuition views' options (why position, why sin and cos, why
// many frequencies) and their `export` kinds and `render` views; see intuition_commands.hpp.
#include "commands/intuition_commands.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "commands/option_reader.hpp"
#include "poslab/base/format.hpp"
#include "poslab/views/intuition_figures.hpp"
#include "state/ranges.hpp"

namespace poslab::commands {

namespace {

std::vector<OptionSpec> attentionShuffleOptions() {
    return {{"sentence", "TEXT",
             "the sentence, 2..16 words split at spaces (default \"The cat chased the mouse\")"},
            {"shuffled", "TEXT",
             "the same words in another order, any case (default \"The mouse chased the cat\")"},
            {"shuffle-seed", "S", "instead of --shuffled: a seeded random order (never the same)"},
            {"position", "NAME", "none (default), sinusoidal, learned, rope or alibi"},
            {"d-model", "D", "word vector and head width, even, 2..64 (default 16)"},
            {"seed", "S", "W_q, W_k, W_v and the learned table (default 0)"},
            {"base", "B", "sinusoidal / RoPE base, > 1 (default 10000)"}};
}

Result<ToyAttentionParams> readAttentionShuffleParams(const ArgMap& args) {
    ToyAttentionParams params;
    if (args.has("shuffled") && args.has("shuffle-seed"))
        return Error{"--shuffled and --shuffle-seed exclude each other"};
    OptionReader read(args);
    read.text("sentence", params.sentence);
    if (args.has("sentence") && !args.has("shuffled"))
        params.shuffled.clear();  // the default reordering is for the default sentence
    read.text("shuffled", params.shuffled);
    if (args.has("shuffle-seed")) {
        read.seed("shuffle-seed", params.shuffleSeed);
        if (!read.ok()) return read.error();
        params.shuffled.clear();
    }
    read.choice("position", params.position, parseToyPosition);
    read.coreInt("d-model", params.dModel, "d_model", 2, kMaxToyDModel);
    read.seed(params.seed);
    read.number("base", params.base);
    if (!read.ok()) return read.error();
    if (auto s = validate(params); !s) return s.error();
    return params;
}

std::vector<OptionSpec> frequencyResolutionOptions() {
    return {{"d-model", "D", "table width, even, 2..1024 (default 64)"},
            {"base", "B", "frequency base, > 1 (default 10000)"},
            {"positions", "N", "positions 0..N-1 compared, 2..65536 (default 512)"},
            {"shared-pair", "I",
             "the one-frequency table gives every pair pair I's frequency, 0..d/2-1 (default 0, "
             "the fastest)"}};
}

Result<FrequencyResolutionParams> readFrequencyResolutionParams(const ArgMap& args) {
    FrequencyResolutionParams params;
    OptionReader read(args);
    read.coreInt("d-model", params.dModel, "d_model", 2, kMaxResolutionDModel);
    read.number("base", params.base);
    read.coreInt("positions", params.positions, "positions", 2, kMaxResolutionPositions);
    read.coreInt("shared-pair", params.sharedPair, "shared_pair", 0, kMaxResolutionDModel / 2 - 1);
    if (!read.ok()) return read.error();
    if (auto s = validate(params); !s) return s.error();
    return params;
}

std::vector<OptionSpec> linearShiftOptions() {
    return {{"d-model", "D", "sinusoidal width, 1..8192 (default 16); with --sin-only 1..512"},
            {"base", "B", "sinusoidal base, > 1 (default 10000)"},
            {"layout", "NAME", "interleaved (default), concat or t2t"},
            {"shift", "K", "the shift k, any real number (default 5)"},
            {"position", "P", "the position whose vector is shown (default 10)"},
            {"positions", "N",
             "residual checked for p = 0..N-1, 1..1048576 (default 256); 2048 evenly spaced p "
             "when N is larger"},
            {"dims", "N", "corner of T_k drawn, 2..d-model (default 16)"},
            {"sin-only", "",
             "drop the cosine columns: the best least-squares map on the sines beside the exact "
             "rotation (why sin AND cos)"}};
}

Result<LinearShiftOptions> readLinearShiftOptions(const ArgMap& args) {
    LinearShiftOptions options;
    options.sinOnly = args.flag("sin-only");
    OptionReader read(args);
    read.integer("d-model", options.sinusoidal.dModel, 1,
                 options.sinOnly ? kMaxSineOnlyDModel : 8192);
    read.number("base", options.sinusoidal.base);
    read.choice("layout", options.sinusoidal.layout, parseLayout);
    read.number("shift", options.shift);
    read.integer("position", options.position, 0, kMaxSeqLen);
    read.integer("positions", options.positions, 1, kMaxSeqLen);
    const int d = options.sinusoidal.dModel;
    options.shownDims = std::min(options.shownDims, d);  // default: 16, or d when smaller
    read.integer("dims", options.shownDims, 2, std::max(2, d));
    if (!read.ok()) return read.error();
    if (auto s = validate(options); !s) return s.error();
    return options;
}

}  // namespace

void registerIntuitionCommands(CommandRegistry& registry) {
    registry.renders.push_back(
        {"binary-clock",
         "bits of the position counter beside sinusoids of the same period",
         {{"bits", "N", state::kClockBitsRange.help()},
          {"positions", "N", state::kClockPositionsRange.help()},
          {"d-model", "D", "sinusoidal width, 1..8192 (default 64)"},
          {"base", "B", "sinusoidal base, > 1 (default 10000)"}},
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             BinaryClockOptions options;
             OptionReader read(args);
             read.integer(state::kClockBitsRange, options.bits);
             read.integer(state::kClockPositionsRange, options.positions);
             read.integer("d-model", options.sinusoidal.dModel, 1, 8192);
             read.number("base", options.sinusoidal.base);
             if (!read.ok()) return read.error();
             return binaryClockFigure(options, float(settings.width), float(settings.height),
                                      settings.theme);
         }});
    registry.renders.push_back(
        {"linear-shift",
         "T_k as a block-diagonal matrix and the residual of T_k PE(p) = PE(p+k); --sin-only: "
         "the best map without the cosines, and its residual",
         linearShiftOptions(),
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             auto options = readLinearShiftOptions(args);
             if (!options) return options.error();
             return linearShiftFigure(*options, float(settings.width), float(settings.height),
                                      settings.theme);
         }});
    registry.exports.push_back(matrixExport(
        "linear-shift",
        "d x d T_k with T_k PE(p) = PE(p+k); --sin-only: the m x m ridge least-squares map on "
        "the m sine components (row = output, column = input; lambda 1e-4 x mean column norm^2)",
        linearShiftOptions(), [](const ArgMap& args) -> Result<Matrix> {
            auto options = readLinearShiftOptions(args);
            if (!options) return options.error();
            if (!options->sinOnly) return shiftMatrix(options->sinusoidal, options->shift);
            auto fit = sineOnlyShiftFit(options->sinusoidal, options->shift, options->positions,
                                        kShiftCheckSamples, kSineOnlyRidge);
            if (!fit) return fit.error();
            return fit->map;
        }));
    registry.renders.push_back(
        {"attention-shuffle",
         "why position at all: one seeded attention head over a sentence and a reordering of it; "
         "without position the outputs are merely permuted",
         attentionShuffleOptions(),
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             auto params = readAttentionShuffleParams(args);
             if (!params) return params.error();
             return attentionShuffleFigure(*params, float(settings.width), float(settings.height),
                                           settings.theme);
         }});
    std::vector<OptionSpec> shuffleExport = attentionShuffleOptions();
    shuffleExport.push_back({"matrix", "NAME",
                             "attention (default, n x n), shuffled-attention, output (n x d) or "
                             "shuffled-output"});
    registry.exports.push_back(matrixExport(
        "attention-shuffle",
        "the toy head's softmax weights (row = query word, column = key word) or outputs (row = "
        "word, column = dimension), for the sentence or its reordering",
        shuffleExport, [](const ArgMap& args) -> Result<Matrix> {
            auto params = readAttentionShuffleParams(args);
            if (!params) return params.error();
            std::string which = "attention";
            OptionReader read(args);
            read.text("matrix", which);
            auto c = compareShuffle(*params);
            if (!c) return c.error();
            if (which == "attention") return c->original.weights;
            if (which == "shuffled-attention") return c->shuffled.weights;
            if (which == "output") return c->original.output;
            if (which == "shuffled-output") return c->shuffled.output;
            return Error{
                "--matrix must be attention, shuffled-attention, output or "
                "shuffled-output (got " +
                quoteForMessage(which) + ")"};
        }));
    registry.renders.push_back(
        {"frequency-resolution",
         "why many frequencies: distances between positions for the standard table and for one "
         "shared frequency, and per pair between neighbours and far positions",
         frequencyResolutionOptions(),
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             auto params = readFrequencyResolutionParams(args);
             if (!params) return params.error();
             return frequencyResolutionFigure(*params, float(settings.width),
                                              float(settings.height), settings.theme);
         }});
    std::vector<OptionSpec> resolutionExport = frequencyResolutionOptions();
    resolutionExport.push_back(
        {"matrix", "NAME",
         "distances (default: N x 2, row D = offset, columns standard and one-frequency), pairs "
         "(d/2 x 3: frequency, distance at D = 1, at D = N/2) or table (N x d, one frequency)"});
    registry.exports.push_back(matrixExport(
        "frequency-resolution",
        "|PE(p+D) - PE(p)| by offset for the standard and the one-frequency table, per-pair "
        "distances, or the one-frequency table",
        resolutionExport, [](const ArgMap& args) -> Result<Matrix> {
            auto params = readFrequencyResolutionParams(args);
            if (!params) return params.error();
            std::string which = "distances";
            OptionReader read(args);
            read.text("matrix", which);
            if (which == "table") return sharedFrequencyTable(*params);
            if (which != "distances" && which != "pairs") {
                return Error{"--matrix must be distances, pairs or table (got " +
                             quoteForMessage(which) + ")"};
            }
            auto r = frequencyResolution(*params);
            if (!r) return r.error();
            if (which == "pairs") {
                Matrix m(r->frequencies.size(), 3);
                for (std::size_t i = 0; i < m.rows; ++i) {
                    m(i, 0) = r->frequencies[i];
                    m(i, 1) = r->neighbourByPair[i];
                    m(i, 2) = r->farByPair[i];
                }
                return m;
            }
            Matrix m(r->standardDistance.size(), 2);
            for (std::size_t d = 0; d < m.rows; ++d) {
                m(d, 0) = r->standardDistance[d];
                m(d, 1) = r->sharedDistance[d];
            }
            return m;
        }));
}

}  // namespace poslab::commands
