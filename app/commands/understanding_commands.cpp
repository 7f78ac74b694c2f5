// The understanding views on the command line:
//   poslab export similarity       the L x L similarity between positions (Toeplitz, streamed)
//   poslab render similarity | meaning | near-orthogonality | add-vs-concat
// then, in this order, intuition_commands.cpp's (binary-clock, linear-shift, attention-shuffle,
// frequency-resolution) and comparison_commands.cpp's (extrapolation, compare, compare-ab).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

#include "commands/commands.hpp"
#include "commands/comparison_commands.hpp"
#include "commands/intuition_commands.hpp"
#include "commands/option_reader.hpp"
#include "poslab/base/format.hpp"
#include "poslab/io/hf_config.hpp"
#include "poslab/io/npy_reader.hpp"
#include "poslab/views/compare_figures.hpp"
#include "poslab/views/extrapolation_figures.hpp"
#include "poslab/views/intuition_figures.hpp"
#include "poslab/views/meaning_figures.hpp"
#include "poslab/views/similarity_figures.hpp"
#include "state/ranges.hpp"
#include "state/table_file.hpp"

namespace poslab::commands {

namespace {

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
    std::optional<std::string> path;
    OptionReader read(args);
    read.path("config", path);
    if (path) {
        auto config = loadHfConfig(*path);
        if (!config) return config.error();
        rope = config->rope;
    }
    read.integer("head-dim", rope.headDim, 2, 8192);
    read.number("base", rope.base);
    read.number("rotary-fraction", rope.rotaryFraction);
    read.choice("pairing", rope.pairing, parsePairing);
    read.choice("scaling", rope.scaling.type, parseScaling);
    read.number("factor", rope.scaling.factor);
    if (!read.ok()) return read.error();
    if (rope.scaling.type != RopeScaling::None && !args.has("factor") && !args.has("config")) {
        return Error{"--factor S is required with --scaling " +
                     std::string(scalingName(rope.scaling.type))};
    }
    read.integer("training-length", rope.trainingLength, 1, kMaxRopePositions);
    read.integer("original-max-pos", rope.scaling.originalMaxPositions, 0, kMaxRopePositions);
    if (!read.ok()) return read.error();
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
        {"table", "FILE",
         "learned: a trained table (rows = positions) instead of the seeded one: a .npy, or a "
         ".safetensors checkpoint's position table (offset rows dropped; the note to stderr)"},
        {"tensor", "NAME",
         "learned, --table FILE.safetensors: the tensor (default: found by name)"}};
    return joinOptions(options, ropeOptions());
}

Result<SimilarityParams> readSimilarityParams(const ArgMap& args, bool requireLength,
                                              int lengthFallback) {
    SimilarityParams params;
    OptionReader read(args);
    read.choice("encoding", params.encoding, parseSimilarityEncoding);
    read.choice("metric", params.metric, parseSimilarityMetric);
    if (!read.ok()) return read.error();
    const std::string encoding(similarityEncodingName(params.encoding));
    const bool sinusoidal = params.encoding == SimilarityEncoding::Sinusoidal;
    const bool learned = params.encoding == SimilarityEncoding::Learned;
    const bool rope = params.encoding == SimilarityEncoding::Rope;
    if (auto s = onlyFor(args, {"layout"}, sinusoidal, encoding); !s) return s.error();
    if (auto s = onlyFor(args, {"d-model"}, sinusoidal || learned, encoding); !s) return s.error();
    if (auto s = onlyFor(args, {"base"}, sinusoidal || rope, encoding); !s) return s.error();
    if (auto s = onlyFor(args, {"std", "table", "tensor"}, learned, encoding); !s) return s.error();
    if (args.has("tensor") && !args.has("table"))
        return Error{"--tensor needs --table FILE.safetensors"};
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
    params.seqLen = lengthFallback;
    int d = 128;
    read.coreInt("seq-len", params.seqLen, "seq_len", 1, kMaxSeqLen);
    read.coreInt("d-model", d, "d_model", 1, kMaxDModel);
    params.sinusoidal.dModel = d;
    params.learned.dModel = d;
    read.number("base", params.sinusoidal.base);
    read.choice("layout", params.sinusoidal.layout, parseLayout);
    read.seed(params.learned.seed);
    read.number("std", params.learned.std);
    std::optional<std::string> tablePath;
    std::string tensor;  // a tensor name in the file; empty: the file's one table
    read.path("table", tablePath);
    read.text("tensor", tensor);
    if (!read.ok()) return read.error();
    params.ropeSeed = params.learned.seed;
    if (tablePath) {
        auto loaded = state::loadTableFile(*tablePath, tensor);
        if (!loaded) return loaded.error();
        if (!loaded->note.empty())
            std::fprintf(stderr, "poslab: %s\n",
                         escapeForMessage(loaded->note, 2 * kMessagePathLength).c_str());
        if (!args.has("seq-len"))
            params.seqLen = int(std::min<std::size_t>(loaded->table.rows, kMaxSeqLen));
        params.learnedTable = std::make_shared<const Matrix>(std::move(loaded->table));
    }
    if (rope) {
        auto ropeParams = readRopeParams(args, 4096);
        if (!ropeParams) return ropeParams.error();
        params.rope = *ropeParams;
        read.choice("rope-vectors", params.ropeVectors, parseRopeVectors);
        if (!read.ok()) return read.error();
    }
    if (auto s = validate(params); !s) return s.error();
    return params;
}

// A learned table's zero rows have no direction: their cosines are written as -inf (the value
// the figures mask), and stderr says so, as the figure's corner note does.
void noteUndefinedCosines(const SimilarityParams& params) {
    if (params.metric != SimilarityMetric::Cosine || !params.learnedTable) return;
    const long long rows = undefinedCosineRows(*params.learnedTable);
    if (rows > 0) {
        std::fprintf(stderr, "poslab: note: %s, written as -inf\n",
                     undefinedCosineNote(rows).c_str());
    }
}

// A learned similarity export costs L^2 d multiply-adds (every row against every row). Above
// 2^36 (about a minute on one core) it is refused rather than left running for hours: 23170
// positions of 8192 dims would take 4.4e12.
constexpr long long kMaxLearnedExportWork = 1LL << 36;

Status checkLearnedExportWork(const SimilarityParams& params) {
    if (params.encoding != SimilarityEncoding::Learned) return success();
    const long long L = params.seqLen;
    const long long d = params.learnedTable ? (long long)params.learnedTable->cols
                                            : (long long)params.learned.dModel;
    if (L * L <= kMaxLearnedExportWork / d) return success();
    return Error{"--seq-len: a learned similarity of " + std::to_string(L) + " positions x " +
                 std::to_string(d) +
                 " dims needs L^2 d = " + formatValue(double(L) * double(L) * double(d)) +
                 " multiply-adds, over the limit of 2^36 (68719476736); lower --seq-len"};
}

// Rows [first, first + count) of a similarity matrix, for the streamed export.
struct SimilarityRows {
    std::optional<OffsetSimilarity> offsets;  // sinusoidal, RoPE
    std::vector<double> reversed;             // offsets reversed: row i is a contiguous slice
    // Learned: rows computed from the table as they are written, so neither the L x L matrix nor
    // a normalised copy of the table is held (the memory cap counts every buffer).
    std::shared_ptr<const Matrix> table;  // its first `length` rows are compared
    std::size_t length = 0;
    SimilarityMetric metric = SimilarityMetric::Cosine;
    std::vector<double> largest, inverseNorm;  // cosine: row i's unit vector is r / largest * inv
    std::vector<char> undefined;               // cosine: zero or non-finite rows

    void prepareLearned() {
        largest.assign(length, 0);
        inverseNorm.assign(length, 0);
        undefined.assign(length, 0);
        if (metric != SimilarityMetric::Cosine) return;
        for (std::size_t i = 0; i < length; ++i) {
            const double* r = table->row(i);
            bool finite = true;
            for (std::size_t k = 0; k < table->cols; ++k) {
                finite = finite && std::isfinite(r[k]);
                largest[i] = std::max(largest[i], std::abs(r[k]));
            }
            if (!finite || largest[i] == 0) {
                undefined[i] = 1;
                continue;
            }
            double squares = 0;  // of r / largest: each at most 1, so no overflow
            for (std::size_t k = 0; k < table->cols; ++k)
                squares += (r[k] / largest[i]) * (r[k] / largest[i]);
            inverseNorm[i] = 1 / std::sqrt(squares);
        }
    }

    void produceLearned(std::size_t first, std::size_t count, Matrix& chunk) const {
        const std::size_t d = table->cols;
        std::vector<double> unit(d);
        const bool cosine = metric == SimilarityMetric::Cosine;
        for (std::size_t r = 0; r < count; ++r) {
            const std::size_t i = first + r;
            const double* a = table->row(i);
            double* out = chunk.row(r);
            if (!cosine) {
                for (std::size_t j = 0; j < length; ++j) {
                    const double* b = table->row(j);
                    double sum = 0;
                    for (std::size_t k = 0; k < d; ++k) sum += a[k] * b[k];
                    out[j] = sum;
                }
                continue;
            }
            if (undefined[i]) {
                std::fill_n(out, length, kUndefinedCosine);
                continue;
            }
            for (std::size_t k = 0; k < d; ++k) unit[k] = a[k] / largest[i] * inverseNorm[i];
            for (std::size_t j = 0; j < length; ++j) {
                if (undefined[j]) {
                    out[j] = kUndefinedCosine;
                    continue;
                }
                const double* b = table->row(j);
                const double scale = largest[j];
                double sum = 0;
                for (std::size_t k = 0; k < d; ++k) sum += unit[k] * (b[k] / scale);
                out[j] = std::clamp(sum * inverseNorm[j], -1.0, 1.0);
            }
        }
    }

    Status produce(std::size_t first, std::size_t count, Matrix& chunk) const {
        const std::size_t L = table ? length : std::size_t(offsets->seqLen);
        if (chunk.rows != count || chunk.cols != L) chunk = Matrix(count, L);
        if (table) {
            produceLearned(first, count, chunk);
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
        if (params.learnedTable) {
            rows->table = params.learnedTable;  // the file's table itself, not a copy
        } else {
            auto table = similarityTable(params);  // the seeded table, made once
            if (!table) return table.error();
            rows->table = std::make_shared<const Matrix>(std::move(table).value());
        }
        rows->length = std::size_t(params.seqLen);
        rows->metric = params.metric;
        rows->prepareLearned();
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
    OptionReader read(args);
    read.integer("d-model", params.dModel, 2, 2048);
    read.integer("seq-len", params.seqLen, 2, 1024);
    read.choice("positions", params.positions, parsePositionTable);
    read.number("base", params.base);
    read.integer("vocabulary", params.vocabulary, 1, 100000);
    read.number("content-scale", params.contentScale);
    read.number("position-scale", params.positionScale);
    read.seed(params.seed);
    std::optional<std::string> path;
    read.path("tokens", path);
    if (!read.ok()) return read.error();
    if (path) {
        auto tokens = loadNpy(*path);
        if (!tokens) return tokens.error();
        // Finite, at most 1e100: 1e308 word vectors made every logit inf ("rms inf").
        if (auto s = state::checkLoadedTable(
                *tokens, "--tokens " + escapeForMessage(*path, kMessagePathLength));
            !s)
            return s.error();
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
        if (auto s = checkLearnedExportWork(*params); !s) return s.error();
        noteUndefinedCosines(*params);
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
        if (auto s = checkLearnedExportWork(*params); !s) return s.error();
        auto rows = similarityRows(*params);
        if (!rows) return rows.error();
        noteUndefinedCosines(*params);
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
    for (OptionSpec& option : renderSimilarity) {
        if (option.name == "seq-len") {
            option.help = "positions 0..L-1 compared, 1..1048576; learned: L x d <= 33554432";
        }
    }
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
             OptionReader read(args);
             read.integer("reference", options.reference, 0, params->seqLen - 1);
             read.integer("max-offset", options.maxOffset, 0, kMaxSeqLen);
             read.integer("training-length", options.trainingLength, 0, kMaxRopePositions);
             if (!read.ok()) return read.error();
             if (params->encoding == SimilarityEncoding::Learned) {
                 // The figure draws the whole L x d table: bounded, in the options' names.
                 const long long d = params->learnedTable ? (long long)params->learnedTable->cols
                                                          : (long long)params->learned.dModel;
                 if (!learnedFigureSize(params->seqLen, d)) {
                     return Error{"--seq-len x --d-model must be at most " +
                                  std::to_string(kMaxLearnedFigureCells) +
                                  " for --encoding learned (got " + std::to_string(params->seqLen) +
                                  " x " + std::to_string(d) + ")"};
                 }
             }
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
         {{"d-model", "D", state::kOrthogonalityDModelRange.help()},
          {"samples", "N",
           "random vectors asked for, 1..1000000 (default 20000); at most 2^24 components are "
           "drawn: the first of the seeded draws, as the figure says"},
          {"seed", "S", "random draws (default 1)"}},
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             int d = state::kOrthogonalityDModelRange.fallback, samples = 20000;
             std::uint64_t seed = 1;
             OptionReader read(args);
             read.integer(state::kOrthogonalityDModelRange, d);
             read.integer("samples", samples, 1, 1000000);
             read.seed(seed);
             if (!read.ok()) return read.error();
             return nearOrthogonalityFigure(d, samples, seed, float(settings.width),
                                            float(settings.height), settings.theme);
         }});

    // ---- intuitions (intuition_commands.cpp)
    registerIntuitionCommands(registry);

    // ---- extrapolation and comparison (comparison_commands.cpp)
    registerComparisonCommands(registry);
}

}  // namespace poslab::commands
