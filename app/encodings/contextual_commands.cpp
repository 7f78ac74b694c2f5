// `poslab export cope|deberta-buckets|deberta|nope|irope-layers|irope-mask|randomized-positions|
// randomized-order-stats` and `poslab render cope|deberta|nope|irope|randomized-positions`: the
// Context view's encodings (views/contextual_figures.hpp).
#include <algorithm>
#include <cmath>
#include <string>

#include "commands/commands.hpp"
#include "commands/option_reader.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/views/contextual_figures.hpp"

namespace poslab::encodings {

namespace {

// A figure drawn by one of the view's draw functions, or its error.
template <class Draw>
Result<Figure> drawn(const commands::RenderSettings& settings, Draw draw) {
    Figure figure = commands::figureFor(settings);
    if (Status s = draw(figure, Box{0, 0, figure.width, figure.height}); !s) return s.error();
    return figure;
}

// ---- CoPE

std::vector<commands::OptionSpec> copeOptions() {
    return {{"sentence", "TEXT",
             "the sentence, 2..64 tokens (words; . , ! ? ; : are tokens of their own)"},
            {"gates", "KIND",
             "seeded (sigmoid(q.k/sqrt(d)) of the toy head; default), tokens, words or sentences"},
            {"d-model", "D", "head width, even, 2..64 (default 16)"},
            {"seed", "S", "seed of W_q and W_k (default 0)"},
            {"table-seed", "S", "seed of the position table e (default 1)"},
            {"npos", "N", "positions with an embedding, 1..65536; 0: tokens + 1 (default)"},
            {"paper-gates", "", "sigmoid(q.k) as the paper writes it, not divided by sqrt(d)"}};
}

Result<CopeSentenceParams> readCope(const commands::ArgMap& args) {
    CopeSentenceParams p;
    commands::OptionReader read(args);
    read.text("sentence", p.sentence);
    read.choice("gates", p.gates, parseCopeGateSource);
    p.tableSeed = 1;
    p.npos = 0;
    read.wideInt("d-model", p.dModel);
    read.seed("seed", p.seed);
    read.seed("table-seed", p.tableSeed);
    read.wideInt("npos", p.npos);
    if (!read.ok()) return read.error();
    p.divideGates = !args.flag("paper-gates");
    if (auto s = validate(p); !s) return s.error();
    return p;
}

// ---- DeBERTa

std::vector<commands::OptionSpec> debertaOptions(const std::string& lengthHelp) {
    return {{"seq-len", "L", lengthHelp},
            {"position-buckets", "B",
             "position_buckets (bucket_size), 2..65536, or 0 for none (default 256, v3)"},
            {"max-relative-positions", "M",
             "max_relative_positions (max_position), > B/2 + 1 (default 512)"},
            {"head-dim", "D", "head width d, 1..256 (default 64)"},
            {"seed", "S", "seed of q, k and the relative embeddings Kr, Qr (default 0)"},
            {"no-c2p", "", "pos_att_type without c2p"},
            {"no-p2c", "", "pos_att_type without p2c"}};
}

Result<DebertaParams> readDeberta(const commands::ArgMap& args, int defaultLength) {
    DebertaParams p;
    p.seqLen = defaultLength;
    commands::OptionReader read(args);
    read.wideInt("seq-len", p.seqLen);
    read.wideInt("position-buckets", p.positionBuckets);
    read.wideInt("max-relative-positions", p.maxRelativePositions);
    read.wideInt("head-dim", p.headDim);
    read.seed("seed", p.seed);
    if (!read.ok()) return read.error();
    p.c2p = !args.flag("no-c2p");
    p.p2c = !args.flag("no-p2c");
    if (auto s = validate(p); !s) return s.error();
    return p;
}

// ---- NoPE and iRoPE

std::vector<commands::OptionSpec> iropeOptions() {
    return {{"num-layers", "N", "num_hidden_layers, 1..256 (default 48, Llama 4 Scout)"},
            {"no-rope-layer-interval", "K",
             "no_rope_layer_interval: every K-th layer is NoPE, 1..256 (default 4)"},
            {"no-rope-layers", "LIST",
             "no_rope_layers, N comma-separated 0/1 (1 = uses RoPE) instead of the interval"},
            {"attention-chunk-size", "C",
             "attention_chunk_size of the RoPE layers, 0 (none)..2^30 (default 8192)"}};
}

Result<IropeParams> readIrope(const commands::ArgMap& args) {
    IropeParams p;
    commands::OptionReader read(args);
    read.wideInt("num-layers", p.numLayers);
    read.wideInt("no-rope-layer-interval", p.noRopeLayerInterval);
    read.wideInt("attention-chunk-size", p.attentionChunkSize);
    if (!read.ok()) return read.error();
    if (args.has("no-rope-layers")) {
        read.list("no-rope-layers", p.noRopeLayers, std::size_t(kMaxIropeLayers), 0, 1);
        if (!read.ok()) return read.error();
        if (!args.has("num-layers")) p.numLayers = int(p.noRopeLayers.size());
    }
    if (auto s = validate(p); !s) return s.error();
    return p;
}

std::vector<commands::OptionSpec> nopeFigureOptions() {
    std::vector<commands::OptionSpec> options = iropeOptions();
    options.push_back(
        {"seq-len", "L", "positions in the curves and the mask, 2..1048576 (default 32768)"});
    options.push_back({"layer", "I", "the layer whose attention mask is drawn (default 0)"});
    options.push_back({"floor-scale", "F", "floor_scale of the NoPE temperature (default 8192)"});
    options.push_back({"attn-scale", "A", "attn_scale of the NoPE temperature (default 0.1)"});
    return options;
}

Result<NopeFigureOptions> readNopeFigure(const commands::ArgMap& args, NopeSections sections) {
    NopeFigureOptions o;
    o.sections = sections;
    auto irope = readIrope(args);
    if (!irope) return irope.error();
    o.irope = *irope;
    o.maskLayer = 0;
    commands::OptionReader read(args);
    read.wideInt("seq-len", o.seqLen);
    read.wideInt("layer", o.maskLayer);
    read.number("floor-scale", o.temperature.floorScale);
    read.number("attn-scale", o.temperature.attnScale);
    if (!read.ok()) return read.error();
    if (auto s = validate(o); !s) return s.error();
    return o;
}

// ---- Randomized positions

std::vector<commands::OptionSpec> randomizedOptions() {
    return {{"length", "L", "positions per sequence, 1..min(N, 65536) (default 40)"},
            {"max-length", "N", "positions are drawn from 0..N-1, 1..16777216 (default 2048)"},
            {"draws", "K", "sequences drawn, 1..64 (default 4)"},
            {"seed", "S", "seed of the draws (default 0)"}};
}

Result<RandomizedPositionsParams> readRandomized(const commands::ArgMap& args) {
    RandomizedPositionsParams p;
    commands::OptionReader read(args);
    read.wideInt("length", p.length);
    read.wideInt("max-length", p.maxLength);
    read.wideInt("draws", p.draws);
    read.seed("seed", p.seed);
    if (!read.ok()) return read.error();
    if (auto s = validate(p); !s) return s.error();
    return p;
}

}  // namespace

void registerContextualCommands(commands::CommandRegistry& registry) {
    // ---- Exports
    std::vector<commands::OptionSpec> copeExport = copeOptions();
    copeExport.push_back(
        {"what", "WHICH", "gates, positions (default), bias or weights: the n x n matrix"});
    registry.exports.push_back(commands::matrixExport(
        "cope", "n x n CoPE head over the sentence's tokens: gates, positions, bias or weights",
        copeExport, [](const commands::ArgMap& args) -> Result<Matrix> {
            auto p = readCope(args);
            if (!p) return p.error();
            std::string what = "positions";
            commands::OptionReader read(args);
            read.text("what", what);
            auto head = copeSentence(*p);
            if (!head) return head.error();
            if (what == "gates") return head->gates;
            if (what == "positions") return head->positions;
            if (what == "bias") return head->bias;
            if (what == "weights") return head->weights;
            return Error{"--what must be gates, positions, bias or weights (got '" + what + "')"};
        }));
    registry.exports.push_back(commands::matrixExport(
        "deberta-buckets",
        "L x L build_relative_position: [i][j] = make_log_bucket_position(i - j)",
        debertaOptions("rows and columns, 1..1048576 within the memory cap (default 512)"),
        [](const commands::ArgMap& args) -> Result<Matrix> {
            auto p = readDeberta(args, 512);
            if (!p) return p.error();
            return debertaRelativePositionMatrix(*p);
        }));
    std::vector<commands::OptionSpec> debertaExport =
        debertaOptions("rows and columns, 1..1048576 within the memory cap (default 512)");
    debertaExport.push_back({"term", "T", "c2c, c2p, p2c or sum (default sum)"});
    registry.exports.push_back(commands::matrixExport(
        "deberta", "L x L disentangled scores (seeded q, k, Kr, Qr), already / sqrt(d s)",
        debertaExport, [](const commands::ArgMap& args) -> Result<Matrix> {
            auto p = readDeberta(args, 512);
            if (!p) return p.error();
            DebertaTerm term = DebertaTerm::Sum;
            commands::OptionReader read(args);
            read.choice("term", term, parseDebertaTerm);
            if (!read.ok()) return read.error();
            return debertaTermMatrix(*p, term);
        }));
    registry.exports.push_back(commands::matrixExport(
        "nope", "L x 4: position t, 1/(t+1), and t read back from it in float32 and in bfloat16",
        {{"seq-len", "L", "positions, 1..1048576 (default 4096)"}},
        [](const commands::ArgMap& args) -> Result<Matrix> {
            int length = 4096;
            commands::OptionReader read(args);
            read.wideInt("seq-len", length);
            if (!read.ok()) return read.error();
            if (auto s = requireIntInRange("seq_len", length, 1, kMaxSeqLen); !s) return s.error();
            Matrix m(std::size_t(length), 4);
            for (long long t = 0; t < length; ++t) {
                m(std::size_t(t), 0) = double(t);
                m(std::size_t(t), 1) = nopeFirstTokenSignal(t);
                m(std::size_t(t), 2) = double(nopeRecoveredPosition(t, SignalPrecision::Float32));
                m(std::size_t(t), 3) = double(nopeRecoveredPosition(t, SignalPrecision::BFloat16));
            }
            return m;
        }));
    registry.exports.push_back(commands::matrixExport(
        "irope-layers", "N x 2: layer, uses RoPE (1) or NoPE (0), as no_rope_layers says",
        iropeOptions(), [](const commands::ArgMap& args) -> Result<Matrix> {
            auto p = readIrope(args);
            if (!p) return p.error();
            Matrix m(std::size_t(p->numLayers), 2);
            for (int l = 0; l < p->numLayers; ++l) {
                m(std::size_t(l), 0) = l;
                m(std::size_t(l), 1) = layerUsesRope(*p, l) ? 1 : 0;
            }
            return m;
        }));
    std::vector<commands::OptionSpec> maskExport = iropeOptions();
    maskExport.push_back(
        {"seq-len", "L", "rows and columns, 1..1048576 within the memory cap (default 64)"});
    maskExport.push_back({"layer", "I", "the layer, 0..N-1 (default 0)"});
    registry.exports.push_back(commands::matrixExport(
        "irope-mask",
        "L x L attention mask of one layer: 1 visible, 0 masked (chunked on RoPE layers)",
        maskExport, [](const commands::ArgMap& args) -> Result<Matrix> {
            auto p = readIrope(args);
            if (!p) return p.error();
            int length = 64, layer = 0;
            commands::OptionReader read(args);
            read.wideInt("seq-len", length);
            if (!read.ok()) return read.error();
            if (auto s = requireIntInRange("seq_len", length, 1, kMaxSeqLen); !s) return s.error();
            read.wideInt("layer", layer);
            if (!read.ok()) return read.error();
            if (auto s = requireIntInRange("layer", layer, 0, p->numLayers - 1); !s)
                return s.error();
            const std::size_t n = std::size_t(length);
            if (auto s = checkMatrixSize(n, n, "the iRoPE mask"); !s) return s.error();
            Matrix m(n, n);
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j <= i; ++j)
                    m(i, j) = iropeAttends(*p, layer, (long long)i, (long long)j) ? 1 : 0;
            return m;
        }));
    registry.exports.push_back(commands::matrixExport(
        "randomized-positions", "K x L: each row one draw's sorted positions from 0..N-1",
        randomizedOptions(), [](const commands::ArgMap& args) -> Result<Matrix> {
            auto p = readRandomized(args);
            if (!p) return p.error();
            Matrix m(std::size_t(p->draws), std::size_t(p->length));
            for (int d = 0; d < p->draws; ++d) {
                const std::vector<long long> draw = randomizedDraw(*p, d);
                for (std::size_t k = 0; k < draw.size(); ++k)
                    m(std::size_t(d), k) = double(draw[k]);
            }
            return m;
        }));
    registry.exports.push_back(commands::matrixExport(
        "randomized-order-stats",
        "L x 3: rank k, E[k-th position] = (k+1)(N+1)/(L+1) - 1, its standard deviation",
        randomizedOptions(), [](const commands::ArgMap& args) -> Result<Matrix> {
            auto p = readRandomized(args);
            if (!p) return p.error();
            Matrix m(std::size_t(p->length), 3);
            for (int k = 0; k < p->length; ++k) {
                m(std::size_t(k), 0) = k;
                m(std::size_t(k), 1) = expectedOrderStatistic(k, p->length, p->maxLength);
                m(std::size_t(k), 2) = orderStatisticStd(k, p->length, p->maxLength);
            }
            return m;
        }));

    // ---- Renders
    registry.renders.push_back(commands::renderView(
        "cope", "CoPE over a sentence: gates, contextual positions, the last query's row, bias",
        copeOptions(),
        [](const commands::ArgMap& args,
           const commands::RenderSettings& settings) -> Result<Figure> {
            auto p = readCope(args);
            if (!p) return p.error();
            return drawn(settings, [&](Figure& f, Box area) {
                return drawCopeFigure(f, area, *p, settings.theme);
            });
        }));
    registry.renders.push_back(commands::renderView(
        "deberta", "DeBERTa: make_log_bucket_position, c2c, c2p and p2c as HF gathers them",
        debertaOptions("rows and columns, 1..1048576 (default 512)"),
        [](const commands::ArgMap& args,
           const commands::RenderSettings& settings) -> Result<Figure> {
            auto p = readDeberta(args, 512);
            if (!p) return p.error();
            return drawn(settings, [&](Figure& f, Box area) {
                return drawDebertaFigure(f, area, *p, settings.theme);
            });
        }));
    registry.renders.push_back(commands::renderView(
        "nope", "NoPE: the position a causal mask gives away, 1/(t+1), read back per precision",
        {{"seq-len", "L", "positions, 2..1048576 (default 32768)"}},
        [](const commands::ArgMap& args,
           const commands::RenderSettings& settings) -> Result<Figure> {
            auto o = readNopeFigure(args, NopeSections::Nope);
            if (!o) return o.error();
            return drawn(settings, [&](Figure& f, Box area) {
                return drawNopeFigure(f, area, *o, settings.theme);
            });
        }));
    registry.renders.push_back(commands::renderView(
        "irope", "Llama 4 iRoPE: RoPE/NoPE layers, a layer's chunked mask, the NoPE temperature",
        nopeFigureOptions(),
        [](const commands::ArgMap& args,
           const commands::RenderSettings& settings) -> Result<Figure> {
            auto o = readNopeFigure(args, NopeSections::Irope);
            if (!o) return o.error();
            return drawn(settings, [&](Figure& f, Box area) {
                return drawNopeFigure(f, area, *o, settings.theme);
            });
        }));
    registry.renders.push_back(commands::renderView(
        "randomized-positions",
        "Randomized positions: sorted draws from 0..N-1, order statistics against 0..L-1",
        randomizedOptions(),
        [](const commands::ArgMap& args,
           const commands::RenderSettings& settings) -> Result<Figure> {
            auto p = readRandomized(args);
            if (!p) return p.error();
            return drawn(settings, [&](Figure& f, Box area) {
                return drawRandomizedFigure(f, area, *p, settings.theme);
            });
        }));
}

}  // namespace poslab::encodings
