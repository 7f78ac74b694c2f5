// The understanding views on the command line:
//   poslab export similarity       the L x L similarity between positions (Toeplitz, streamed)
//   poslab render similarity | meaning | near-orthogonality | add-vs-concat | binary-clock |
//                 linear-shift | extrapolation | compare | compare-ab
#include <memory>
#include <optional>

#include "cli/commands.hpp"
#include "poslab/hf_config.hpp"
#include "poslab/npy_reader.hpp"
#include "poslab/understanding_figures.hpp"

namespace poslab::cli {

namespace {

std::vector<OptionSpec> joined(std::vector<OptionSpec> a, const std::vector<OptionSpec>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

Status rangeError(const std::string& option, long long value, long long low, long long high) {
    if (value >= low && value <= high) return success();
    return Error{"--" + option + " must be " + std::to_string(low) + ".." + std::to_string(high) +
                 " (got " + std::to_string(value) + ")"};
}

Result<int> readInt(const ArgMap& args, const std::string& name, int fallback, int low, int high) {
    auto value = args.integer(name, fallback);
    if (!value) return value.error();
    if (auto s = rangeError(name, *value, low, high); !s) return s.error();
    return int(*value);
}

Result<std::uint64_t> readSeed(const ArgMap& args, std::uint64_t fallback) {
    auto value = args.integer("seed", (long long)fallback);
    if (!value) return value.error();
    if (*value < 0)
        return Error{"--seed must be 0..9223372036854775807 (got " + std::to_string(*value) + ")"};
    return std::uint64_t(*value);
}

// Options that only some encodings read: naming one for another encoding is a mistake.
Status onlyFor(const ArgMap& args, const std::vector<std::string>& names, bool applies,
               const std::string& encoding) {
    if (applies) return success();
    for (const std::string& name : names) {
        if (args.has(name)) return Error{"--" + name + " does not apply to --encoding " + encoding};
    }
    return success();
}

// ---- RoPE settings (the names `poslab render rope-*` uses)

std::vector<OptionSpec> ropeOptions() {
    return {
        {"config", "FILE",
         "rope: a Hugging Face config.json (head_dim, rope_theta, rope_scaling, ...); flags win"},
        {"head-dim", "D", "rope: dimensions per head, even, 2..8192 (default 128)"},
        {"rotary-fraction", "F", "rope: partial_rotary_factor, (0, 1] (default 1)"},
        {"pairing", "NAME", "rope: half (Llama; default) or interleaved (GPT-J)"},
        {"scaling", "TYPE", "rope: none, linear, ntk, dynamic-ntk, yarn or llama3 (default none)"},
        {"factor", "S", "rope: scaling factor, 1..65536"},
        {"original-max-pos", "N",
         "rope: L0, the context before extension (default: --training-length)"},
        {"training-length", "N",
         "rope: max_position_embeddings / training context (default 4096); render: also marked"},
        {"rope-vectors", "KIND",
         "rope: expected (E over random q = k; default), same (one seeded q = k) or independent"}};
}

Result<RopeParams> readRopeParams(const ArgMap& args, int trainingFallback) {
    RopeParams rope;
    rope.trainingLength = trainingFallback;
    if (auto path = args.raw("config")) {
        auto config = loadHfConfig(*path);
        if (!config) return config.error();
        rope = config->rope;
    }
    auto headDim = args.integer("head-dim", rope.headDim);
    if (!headDim) return headDim.error();
    if (auto s = rangeError("head-dim", *headDim, 2, 8192); !s) return s.error();
    rope.headDim = int(*headDim);
    auto base = args.number("base", rope.base);
    if (!base) return base.error();
    rope.base = *base;
    auto fraction = args.number("rotary-fraction", rope.rotaryFraction);
    if (!fraction) return fraction.error();
    rope.rotaryFraction = *fraction;
    if (auto name = args.raw("pairing")) {
        auto pairing = parsePairing(*name);
        if (!pairing) return Error{"--" + pairing.error().message};
        rope.pairing = *pairing;
    }
    if (auto name = args.raw("scaling")) {
        auto type = parseScaling(*name);
        if (!type) return Error{"--" + type.error().message};
        rope.scaling.type = *type;
    }
    auto factor = args.number("factor", rope.scaling.factor);
    if (!factor) return factor.error();
    rope.scaling.factor = *factor;
    if (rope.scaling.type != RopeScaling::None && !args.has("factor") && !args.has("config")) {
        return Error{"--factor S is required with --scaling " +
                     std::string(scalingName(rope.scaling.type))};
    }
    auto training = args.integer("training-length", rope.trainingLength);
    if (!training) return training.error();
    if (auto s = rangeError("training-length", *training, 1, kMaxRopePositions); !s)
        return s.error();
    rope.trainingLength = int(*training);
    auto original = args.integer("original-max-pos", rope.scaling.originalMaxPositions);
    if (!original) return original.error();
    if (auto s = rangeError("original-max-pos", *original, 0, kMaxRopePositions); !s)
        return s.error();
    rope.scaling.originalMaxPositions = int(*original);
    return rope;
}

// ---- Similarity

std::vector<OptionSpec> similarityOptions() {
    std::vector<OptionSpec> options = {
        {"encoding", "NAME", "sinusoidal (default), learned or rope"},
        {"metric", "NAME", "cosine (default) or dot"},
        {"seq-len", "L",
         "positions 0..L-1 compared (L x L result), 1..1048576 within the memory cap"},
        {"d-model", "D", "sinusoidal / learned: width, 1..8192 (default 128)"},
        {"base", "B", "sinusoidal / rope: frequency base, > 1 (default 10000)"},
        {"layout", "NAME", "sinusoidal: interleaved (default), concat or t2t"},
        {"seed", "S", "learned: table seed; rope same/independent: vector seed (default 0)"},
        {"std", "X", "learned: standard deviation of the initial table, 0..100 (default 0.02)"},
        {"table", "FILE.npy",
         "learned: a trained table (rows = positions) instead of the seeded one"}};
    return joined(options, ropeOptions());
}

Result<SimilarityParams> readSimilarityParams(const ArgMap& args, bool requireLength,
                                              int lengthFallback) {
    SimilarityParams params;
    if (auto name = args.raw("encoding")) {
        auto encoding = parseSimilarityEncoding(*name);
        if (!encoding) return Error{"--" + encoding.error().message};
        params.encoding = *encoding;
    }
    if (auto name = args.raw("metric")) {
        auto metric = parseSimilarityMetric(*name);
        if (!metric) return Error{"--" + metric.error().message};
        params.metric = *metric;
    }
    const std::string encoding(similarityEncodingName(params.encoding));
    const bool sinusoidal = params.encoding == SimilarityEncoding::Sinusoidal;
    const bool learned = params.encoding == SimilarityEncoding::Learned;
    const bool rope = params.encoding == SimilarityEncoding::Rope;
    if (auto s = onlyFor(args, {"layout"}, sinusoidal, encoding); !s) return s.error();
    if (auto s = onlyFor(args, {"d-model"}, sinusoidal || learned, encoding); !s) return s.error();
    if (auto s = onlyFor(args, {"base"}, sinusoidal || rope, encoding); !s) return s.error();
    if (auto s = onlyFor(args, {"std", "table"}, learned, encoding); !s) return s.error();
    // Export: only RoPE reads a training length; render also marks it for every encoding.
    if (auto s = onlyFor(args, {"training-length"}, rope || !requireLength, encoding); !s) {
        return s.error();
    }
    if (auto s = onlyFor(args, {"seed"}, learned || rope, encoding); !s) return s.error();
    if (auto s = onlyFor(args,
                         {"config", "head-dim", "rotary-fraction", "pairing", "scaling", "factor",
                          "original-max-pos", "rope-vectors"},
                         rope, encoding);
        !s) {
        return s.error();
    }
    if (requireLength && !args.has("seq-len") && !(learned && args.has("table"))) {
        return Error{"--seq-len L is required"};
    }
    auto length = args.integer("seq-len", lengthFallback);
    if (!length) return length.error();
    if (*length < -1 || *length > 1 << 30) {
        return Error{"seq_len must be 1..1048576 (got " + std::to_string(*length) + ")"};
    }
    params.seqLen = int(*length);
    auto d = args.integer("d-model", 128);
    if (!d) return d.error();
    if (*d < -1 || *d > 1 << 30)
        return Error{"d_model must be 1..8192 (got " + std::to_string(*d) + ")"};
    params.sinusoidal.dModel = int(*d);
    params.learned.dModel = int(*d);
    auto base = args.number("base", 10000);
    if (!base) return base.error();
    params.sinusoidal.base = *base;
    if (auto name = args.raw("layout")) {
        auto layout = parseLayout(*name);
        if (!layout) return Error{"--" + layout.error().message};
        params.sinusoidal.layout = *layout;
    }
    auto seed = readSeed(args, 0);
    if (!seed) return seed.error();
    params.learned.seed = *seed;
    params.ropeSeed = *seed;
    auto spread = args.number("std", 0.02);
    if (!spread) return spread.error();
    params.learned.std = *spread;
    if (auto path = args.raw("table")) {
        auto table = loadNpy(*path);
        if (!table) return table.error();
        if (!args.has("seq-len"))
            params.seqLen = int(std::min<std::size_t>(table->rows, kMaxSeqLen));
        params.learnedTable = std::make_shared<const Matrix>(std::move(table).value());
    }
    if (rope) {
        auto ropeParams = readRopeParams(args, 4096);
        if (!ropeParams) return ropeParams.error();
        params.rope = *ropeParams;
        if (auto name = args.raw("rope-vectors")) {
            auto vectors = parseRopeVectors(*name);
            if (!vectors) return Error{"--" + vectors.error().message};
            params.ropeVectors = *vectors;
        }
    }
    if (auto s = validate(params); !s) return s.error();
    return params;
}

// Rows [first, first + count) of a similarity matrix, for the streamed export.
struct SimilarityRows {
    std::optional<OffsetSimilarity> offsets;  // sinusoidal, RoPE
    std::shared_ptr<const Matrix> full;       // learned: the Gram matrix, computed once
    std::vector<double> reversed;             // offsets reversed: row i is a contiguous slice

    Status produce(std::size_t first, std::size_t count, Matrix& chunk) const {
        const std::size_t L = full ? full->cols : std::size_t(offsets->seqLen);
        if (chunk.rows != count || chunk.cols != L) chunk = Matrix(count, L);
        if (full) {
            std::copy_n(full->row(first), count * L, chunk.values.begin());
            return success();
        }
        for (std::size_t r = 0; r < count; ++r) {
            const std::size_t i = first + r;
            const double* t = reversed.data() + (L - 1 - i);
            double* out = chunk.row(r);
            if (offsets->toeplitz()) {
                std::copy_n(t, L, out);
                continue;
            }
            for (std::size_t j = 0; j < L; ++j) out[j] = offsets->at((long long)i, (long long)j);
        }
        return success();
    }
};

Result<std::shared_ptr<SimilarityRows>> similarityRows(const SimilarityParams& params) {
    auto rows = std::make_shared<SimilarityRows>();
    if (params.encoding == SimilarityEncoding::Learned) {
        auto matrix = similarityMatrix(params);
        if (!matrix) return matrix.error();
        rows->full = std::make_shared<const Matrix>(std::move(matrix).value());
        return rows;
    }
    auto offsets = offsetSimilarity(params);
    if (!offsets) return offsets.error();
    rows->reversed.assign(offsets->byOffset.rbegin(), offsets->byOffset.rend());
    rows->offsets = std::move(offsets).value();
    return rows;
}

// ---- Position and meaning

std::vector<OptionSpec> meaningOptions() {
    return {
        {"d-model", "D", "width of word and position vectors, 2..2048 (default 64)"},
        {"seq-len", "L", "tokens, 2..1024 (default 48)"},
        {"positions", "KIND", "sinusoidal (default) or learned position vectors"},
        {"base", "B", "sinusoidal base, > 1 (default 10000)"},
        {"vocabulary", "V", "distinct random words drawn for the sequence, 1..100000 (default 12)"},
        {"content-scale", "X", "std of each word-vector component, 0..100 (default 1)"},
        {"position-scale", "X", "multiplies the position vectors, 0..100 (default 1)"},
        {"seed", "S", "words, their vectors and a learned table (default 1)"},
        {"tokens", "FILE.npy", "word vectors to use instead (rows = tokens, cols = d-model)"}};
}

Result<MeaningParams> readMeaningParams(const ArgMap& args) {
    MeaningParams params;
    auto d = readInt(args, "d-model", params.dModel, 2, 2048);
    if (!d) return d.error();
    params.dModel = *d;
    auto length = readInt(args, "seq-len", params.seqLen, 2, 1024);
    if (!length) return length.error();
    params.seqLen = *length;
    if (auto name = args.raw("positions")) {
        auto kind = parsePositionTable(*name);
        if (!kind) return Error{"--" + kind.error().message};
        params.positions = *kind;
    }
    auto base = args.number("base", params.base);
    if (!base) return base.error();
    params.base = *base;
    auto vocabulary = readInt(args, "vocabulary", params.vocabulary, 1, 100000);
    if (!vocabulary) return vocabulary.error();
    params.vocabulary = *vocabulary;
    auto content = args.number("content-scale", params.contentScale);
    if (!content) return content.error();
    params.contentScale = *content;
    auto position = args.number("position-scale", params.positionScale);
    if (!position) return position.error();
    params.positionScale = *position;
    auto seed = readSeed(args, params.seed);
    if (!seed) return seed.error();
    params.seed = *seed;
    if (auto path = args.raw("tokens")) {
        auto tokens = loadNpy(*path);
        if (!tokens) return tokens.error();
        if (!args.has("d-model")) params.dModel = int(std::min<std::size_t>(tokens->cols, 2048));
        if (!args.has("seq-len")) params.seqLen = int(std::min<std::size_t>(tokens->rows, 1024));
        params.tokens = std::make_shared<const Matrix>(std::move(tokens).value());
    }
    if (auto s = validate(params); !s) return s.error();
    return params;
}

}  // namespace

void registerUnderstandingCommands(CommandRegistry& registry) {
    // ---- export similarity
    ExportKind similarity;
    similarity.name = "similarity";
    similarity.summary =
        "L x L similarity between positions (row = query i, column = key j): cosine or dot of "
        "sinusoidal or learned rows, or RoPE's q_m·k_n";
    similarity.options = similarityOptions();
    similarity.compute = [](const ArgMap& args) -> Result<Matrix> {
        auto params = readSimilarityParams(args, true, 256);
        if (!params) return params.error();
        return similarityMatrix(*params);
    };
    // Streamed: sinusoidal and RoPE rows are slices of one O(L d) offset profile, so the L x L
    // matrix never exists in memory.
    similarity.stream = [](const ArgMap& args) -> Result<ExportKind::Stream> {
        auto params = readSimilarityParams(args, true, 256);
        if (!params) return params.error();
        // Streaming needs no L x L memory, but the same cap keeps a typo from writing terabytes.
        if (auto s = checkMatrixSize(std::size_t(params->seqLen), std::size_t(params->seqLen),
                                     "the similarity matrix");
            !s) {
            return s.error();
        }
        auto rows = similarityRows(*params);
        if (!rows) return rows.error();
        ExportKind::Stream stream;
        stream.rows = std::size_t(params->seqLen);
        stream.cols = std::size_t(params->seqLen);
        stream.produce = [rows = *rows](std::size_t first, std::size_t count, Matrix& chunk) {
            return rows->produce(first, count, chunk);
        };
        return stream;
    };
    registry.exports.push_back(std::move(similarity));

    // ---- render similarity
    std::vector<OptionSpec> renderSimilarity = similarityOptions();
    renderSimilarity.push_back(
        {"reference", "I", "the query position whose row the curve shows (default 0)"});
    renderSimilarity.push_back(
        {"max-offset", "K", "curve range -K..K (default: the whole sequence)"});
    registry.renders.push_back(
        {"similarity", "similarity between positions: L x L heatmap and the curve against offset",
         renderSimilarity,
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             auto params = readSimilarityParams(args, false, 256);
             if (!params) return params.error();
             SimilarityFigureOptions options;
             if (settings.colormapGiven) options.colormap = settings.colormap;
             auto reference = readInt(args, "reference", 0, 0, params->seqLen - 1);
             if (!reference) return reference.error();
             options.reference = *reference;
             auto reach = readInt(args, "max-offset", 0, 0, kMaxSeqLen);
             if (!reach) return reach.error();
             options.maxOffset = *reach;
             auto training = readInt(args, "training-length", 0, 0, kMaxRopePositions);
             if (!training) return training.error();
             options.trainingLength = *training;
             return similarityFigure(*params, options, float(settings.width),
                                     float(settings.height), settings.theme);
         }});

    // ---- position and meaning
    registry.renders.push_back(
        {"meaning",
         "the logit of (word + position) split into content/position terms beside their sum",
         meaningOptions(),
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             auto params = readMeaningParams(args);
             if (!params) return params.error();
             return meaningFigure(*params, float(settings.width), float(settings.height),
                                  settings.theme);
         }});
    registry.renders.push_back(
        {"add-vs-concat", "adding versus concatenating the position vector: logits, width, cost",
         meaningOptions(),
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             auto params = readMeaningParams(args);
             if (!params) return params.error();
             return addVersusConcatFigure(*params, float(settings.width), float(settings.height),
                                          settings.theme);
         }});
    registry.renders.push_back(
        {"near-orthogonality",
         "histogram of cosines between random vectors and sinusoidal rows, narrowing as 1/sqrt(d)",
         {{"d-model", "D", "vector width, 2..8192 (default 64)"},
          {"samples", "N", "random vectors drawn, 1..1000000 (default 20000)"},
          {"seed", "S", "random draws (default 1)"}},
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             auto d = readInt(args, "d-model", 64, 2, 8192);
             if (!d) return d.error();
             auto samples = readInt(args, "samples", 20000, 1, 1000000);
             if (!samples) return samples.error();
             auto seed = readSeed(args, 1);
             if (!seed) return seed.error();
             return nearOrthogonalityFigure(*d, *samples, *seed, float(settings.width),
                                            float(settings.height), settings.theme);
         }});

    // ---- intuitions
    registry.renders.push_back(
        {"binary-clock",
         "bits of the position counter beside sinusoids of the same period",
         {{"bits", "N", "bits shown, 1..12 (default 5)"},
          {"positions", "N", "positions 0..N-1, 2..4096 (default 64)"},
          {"d-model", "D", "sinusoidal width, 1..8192 (default 64)"},
          {"base", "B", "sinusoidal base, > 1 (default 10000)"}},
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             BinaryClockOptions options;
             auto bits = readInt(args, "bits", options.bits, 1, 12);
             if (!bits) return bits.error();
             auto positions = readInt(args, "positions", options.positions, 2, 4096);
             if (!positions) return positions.error();
             auto d = readInt(args, "d-model", options.sinusoidal.dModel, 1, 8192);
             if (!d) return d.error();
             auto base = args.number("base", options.sinusoidal.base);
             if (!base) return base.error();
             options.bits = *bits;
             options.positions = *positions;
             options.sinusoidal.dModel = *d;
             options.sinusoidal.base = *base;
             return binaryClockFigure(options, float(settings.width), float(settings.height),
                                      settings.theme);
         }});
    registry.renders.push_back(
        {"linear-shift",
         "T_k as a block-diagonal matrix and the residual of T_k PE(p) = PE(p+k)",
         {{"d-model", "D", "sinusoidal width, 1..8192 (default 16)"},
          {"base", "B", "sinusoidal base, > 1 (default 10000)"},
          {"layout", "NAME", "interleaved (default), concat or t2t"},
          {"shift", "K", "the shift k, any real number (default 5)"},
          {"position", "P", "the position whose vector is shown (default 10)"},
          {"positions", "N", "residual checked for p = 0..N-1, 1..1048576 (default 256)"},
          {"dims", "N", "corner of T_k drawn, 2..d-model (default 16)"}},
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             LinearShiftOptions options;
             auto d = readInt(args, "d-model", options.sinusoidal.dModel, 1, 8192);
             if (!d) return d.error();
             options.sinusoidal.dModel = *d;
             auto base = args.number("base", options.sinusoidal.base);
             if (!base) return base.error();
             options.sinusoidal.base = *base;
             if (auto name = args.raw("layout")) {
                 auto layout = parseLayout(*name);
                 if (!layout) return Error{"--" + layout.error().message};
                 options.sinusoidal.layout = *layout;
             }
             auto shift = args.number("shift", options.shift);
             if (!shift) return shift.error();
             options.shift = *shift;
             auto position = readInt(args, "position", options.position, 0, kMaxSeqLen);
             if (!position) return position.error();
             options.position = *position;
             auto positions = readInt(args, "positions", options.positions, 1, kMaxSeqLen);
             if (!positions) return positions.error();
             options.positions = *positions;
             auto dims = readInt(args, "dims", std::min(options.shownDims, *d), 2, std::max(2, *d));
             if (!dims) return dims.error();
             options.shownDims = *dims;
             return linearShiftFigure(options, float(settings.width), float(settings.height),
                                      settings.theme);
         }});

    // ---- extrapolation
    registry.renders.push_back(
        {"extrapolation",
         "past the training length: sinusoidal, learned, RoPE (and its scalings), ALiBi, T5",
         {{"training-length", "N", "positions seen in training, 2..65536 (default 512)"},
          {"eval-length", "N", "positions used now, > training length, ..262144 (default 2048)"},
          {"d-model", "D", "sinusoidal / learned width, 2..1024 (default 64)"},
          {"head-dim", "D", "RoPE head dimension, even, 4..1024 (default 64)"},
          {"base", "B", "RoPE base, > 1 (default 10000)"},
          {"alibi-heads", "H", "ALiBi heads, 1..128 (default 8)"},
          {"t5-buckets", "N", "T5 buckets (default 32)"},
          {"t5-max-distance", "N", "T5 max distance (default 128)"}},
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             ExtrapolationOptions o;
             auto training = readInt(args, "training-length", o.trainingLength, 2, 65536);
             if (!training) return training.error();
             auto eval = readInt(args, "eval-length", o.evaluationLength, 3, 262144);
             if (!eval) return eval.error();
             auto d = readInt(args, "d-model", o.dModel, 2, 1024);
             if (!d) return d.error();
             auto head = readInt(args, "head-dim", o.headDim, 4, 1024);
             if (!head) return head.error();
             auto base = args.number("base", o.ropeBase);
             if (!base) return base.error();
             auto heads = readInt(args, "alibi-heads", o.alibiHeads, 1, 128);
             if (!heads) return heads.error();
             auto buckets = readInt(args, "t5-buckets", o.t5Buckets, 2, 1024);
             if (!buckets) return buckets.error();
             auto distance = readInt(args, "t5-max-distance", o.t5MaxDistance, 1, kMaxSeqLen);
             if (!distance) return distance.error();
             o.trainingLength = *training;
             o.evaluationLength = *eval;
             o.dModel = *d;
             o.headDim = *head;
             o.ropeBase = *base;
             o.alibiHeads = *heads;
             o.t5Buckets = *buckets;
             o.t5MaxDistance = *distance;
             if (o.evaluationLength <= o.trainingLength) {
                 return Error{"--eval-length must be greater than --training-length (got " +
                              std::to_string(o.evaluationLength) +
                              " <= " + std::to_string(o.trainingLength) + ")"};
             }
             return extrapolationFigure(o, float(settings.width), float(settings.height),
                                        settings.theme);
         }});

    // ---- comparison
    registry.renders.push_back(
        {"compare",
         "every encoding side by side under the same width and length",
         {{"d-model", "D", "width (and RoPE head dim), even, 4..1024 (default 64)"},
          {"seq-len", "L", "positions, 2..2048 (default 128)"},
          {"base", "B", "sinusoidal and RoPE base (default 10000)"},
          {"alibi-heads", "H", "ALiBi heads; head 0 is shown (default 8)"},
          {"t5-buckets", "N", "T5 buckets (default 32)"},
          {"t5-max-distance", "N", "T5 max distance (default 128)"},
          {"seed", "S", "learned table and T5 bucket values (default 0)"}},
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             CompareOptions o;
             auto d = readInt(args, "d-model", o.dModel, 4, 1024);
             if (!d) return d.error();
             auto length = readInt(args, "seq-len", o.seqLen, 2, 2048);
             if (!length) return length.error();
             auto base = args.number("base", o.base);
             if (!base) return base.error();
             auto heads = readInt(args, "alibi-heads", o.alibiHeads, 1, 128);
             if (!heads) return heads.error();
             auto buckets = readInt(args, "t5-buckets", o.t5Buckets, 2, 1024);
             if (!buckets) return buckets.error();
             auto distance = readInt(args, "t5-max-distance", o.t5MaxDistance, 1, kMaxSeqLen);
             if (!distance) return distance.error();
             auto seed = readSeed(args, 0);
             if (!seed) return seed.error();
             o.dModel = *d;
             o.seqLen = *length;
             o.base = *base;
             o.alibiHeads = *heads;
             o.t5Buckets = *buckets;
             o.t5MaxDistance = *distance;
             o.seed = *seed;
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
          {"max-offset", "K", "offsets 0..K compared (default 8192)"}},
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             auto head = readInt(args, "head-dim", 128, 2, 8192);
             if (!head) return head.error();
             auto training = readInt(args, "training-length", 4096, 1, kMaxRopePositions);
             if (!training) return training.error();
             auto reach = readInt(args, "max-offset", 8192, 2, kMaxSeqLen);
             if (!reach) return reach.error();
             RopeConfiguration configs[2];
             const char* names[2] = {"a", "b"};
             const double bases[2] = {10000, 500000};
             for (int k = 0; k < 2; ++k) {
                 const std::string side = names[k];
                 const std::string letter = k == 0 ? "A" : "B";
                 if (auto path = args.raw(side + "-config")) {
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
                     auto base = args.number(side + "-base", bases[k]);
                     if (!base) return base.error();
                     configs[k].rope.base = *base;
                     configs[k].rope.headDim = *head;
                     configs[k].rope.trainingLength = *training;
                     configs[k].label = letter + ": base " + formatValue(*base, 6);
                 }
             }
             return abComparisonFigure(configs[0], configs[1], *reach, float(settings.width),
                                       float(settings.height), settings.theme);
         }});
}

}  // namespace poslab::cli
