// `poslab export t5-buckets|learned|tensors|learned-pca` and `poslab render
// t5|learned|learned-pca`. (ALiBi's are registered by its plug-in,
// app/encodings/alibi_encoding.cpp.)
#include <climits>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "commands/commands.hpp"
#include "commands/option_reader.hpp"
#include "poslab/analysis/table_structure.hpp"
#include "poslab/base/format.hpp"
#include "poslab/encodings/sinusoidal.hpp"
#include "poslab/io/safetensors.hpp"
#include "poslab/io/safetensors_index.hpp"
#include "poslab/views/learned_figures.hpp"
#include "poslab/views/learned_structure_figures.hpp"
#include "poslab/views/t5_figures.hpp"
#include "state/ranges.hpp"
#include "state/table_file.hpp"

namespace poslab::commands {

namespace {

Status require(const ArgMap& args, const std::string& name, const std::string& valueName) {
    if (!args.has(name)) return Error{"--" + name + " " + valueName + " is required"};
    return success();
}

// ---- T5

std::vector<OptionSpec> t5Options() {
    return {{"seq-len", "L", "rows and columns, 1..1048576 (export: within the memory cap)"},
            {"num-buckets", "B",
             "relative_attention_num_buckets, 4..1024 (2.. unidirectional; "
             "default 32)"},
            {"max-distance", "M", "relative_attention_max_distance, > max_exact (default 128)"},
            {"unidirectional", "",
             "decoder buckets (every future key in bucket 0); default "
             "bidirectional"}};
}

Result<T5Params> readT5Params(const ArgMap& args, int defaultLength) {
    T5Params params;
    params.seqLen = defaultLength;
    params.numBuckets = 32;
    params.maxDistance = 128;
    OptionReader read(args);
    read.wideInt("seq-len", params.seqLen);
    read.wideInt("num-buckets", params.numBuckets);
    read.wideInt("max-distance", params.maxDistance);
    if (!read.ok()) return read.error();
    params.bidirectional = !args.flag("unidirectional");
    return params;
}

// ---- Learned

std::vector<OptionSpec> learnedOptions(bool forExport) {
    return {{"seq-len", "L",
             forExport ? "table length (positions), 1..1048576; required unless --from"
                       : "table length (positions), 1..1048576 (default 512)"},
            {"d-model", "D",
             forExport ? "dimensions, 1..8192; required unless --from"
                       : "dimensions, 1..8192 (default 64)"},
            {"seed", "S", "seed of the normal initialisation, >= 0 (default 0)"},
            {"std", "X", "standard deviation of the initialisation, 0..100 (default 0.02)"},
            {"from", "FILE",
             "a trained table instead, rows = positions (--seq-len L keeps the first L rows): "
             "a 2-D float32/float64 .npy, or a .safetensors checkpoint, single or sharded (a "
             "model.safetensors.index.json or its folder) (its position table, "
             "offset rows dropped as config.json beside it says; the note goes to stderr)"},
            {"tensor", "NAME",
             "with --from FILE.safetensors: the tensor to read (default: the position table "
             "found by name, e.g. transformer.wpe.weight); list them with `export tensors`"}};
}

struct LearnedTable {
    std::shared_ptr<const Matrix> table;
    std::string source;
};

Result<LearnedParams> readSeededLearnedParams(const ArgMap& args);

Result<LearnedTable> readLearnedTable(const ArgMap& args, bool forExport) {
    std::optional<std::string> path;
    std::string tensor;  // a tensor name in the file; empty: the file's one table
    OptionReader readFile(args);
    readFile.path("from", path);
    readFile.text("tensor", tensor);
    if (path) {
        for (const char* option : {"seed", "std"}) {
            if (args.has(option)) {
                return Error{std::string("--") + option +
                             " cannot be combined with --from (the file holds the values)"};
            }
        }
        auto loaded = state::loadTableFile(*path, tensor);
        if (!loaded) return loaded.error();
        if (!loaded->note.empty())
            std::fprintf(stderr, "poslab: %s\n",
                         escapeForMessage(loaded->note, 2 * kMessagePathLength).c_str());
        Matrix table = std::move(loaded->table);
        if (args.has("d-model")) {
            long long d = 0;
            OptionReader read(args);
            read.integer("d-model", d);
            if (!read.ok()) return read.error();
            if (d != (long long)table.cols) {
                return Error{"--d-model must match the " + std::to_string(table.cols) +
                             " columns of " + *path + " (got " + std::to_string(d) + ")"};
            }
        }
        if (args.has("seq-len")) {
            long long length = 0;
            OptionReader read(args);
            read.integer("seq-len", length);
            if (!read.ok()) return read.error();
            if (length < 1 || length > (long long)table.rows) {
                return Error{"--seq-len must be 1.." + std::to_string(table.rows) +
                             ", the rows of " + *path + " (got " + std::to_string(length) + ")"};
            }
            table.rows = std::size_t(length);
            table.values.resize(table.rows * table.cols);
        }
        return LearnedTable{std::make_shared<const Matrix>(std::move(table)), loaded->source};
    }
    if (args.has("tensor")) return Error{"--tensor needs --from FILE.safetensors"};
    if (forExport) {
        if (auto s = require(args, "seq-len", "L"); !s) return s.error();
        if (auto s = require(args, "d-model", "D"); !s) return s.error();
    }
    auto params = readSeededLearnedParams(args);
    if (!params) return params.error();
    auto table = learnedTable(*params);
    if (!table) return table.error();
    return LearnedTable{std::make_shared<const Matrix>(std::move(table).value()),
                        learnedSourceText(*params)};
}

// --seq-len, --d-model, --seed, --std of the seeded table (validated: ranges and memory cap).
Result<LearnedParams> readSeededLearnedParams(const ArgMap& args) {
    LearnedParams params;
    params.seqLen = 512;
    params.dModel = 64;
    params.seed = 0;
    params.std = 0.02;
    OptionReader read(args);
    read.wideInt("seq-len", params.seqLen);
    read.wideInt("d-model", params.dModel);
    read.seed(params.seed);
    read.number("std", params.std);
    if (!read.ok()) return read.error();
    if (auto status = validate(params); !status) return status.error();
    return params;
}

// ---- Table structure (PCA, spectrum): a file's table, the seeded one, or a sinusoidal one

std::vector<OptionSpec> structureOptions(bool forExport) {
    std::vector<OptionSpec> options = learnedOptions(false);
    options.push_back({"table", "KIND",
                       "without --from: learned (default; the seeded table of --seq-len x "
                       "--d-model, default 512 x 64: no structure) or sinusoidal (the paper's "
                       "interleaved table, --base)"});
    options.push_back({"base", "B", "--table sinusoidal: frequency base, > 1 (default 10000)"});
    options.push_back(
        {"components", "K",
         std::string(forExport ? "columns: the first K principal components, 1..64 (default 3; "
                                 "fewer when the table has fewer positions or dimensions)"
                               : "explained-variance bars, 1..64 (default 12)") +
             "; exact up to " + std::to_string(kJacobiLimit) +
             " positions or dimensions, else block Lanczos to a residual |C v - lambda v| <= "
             "1e-10 x the top eigenvalue"});
    if (!forExport) {
        options.push_back({"trajectory", "STYLE",
                           "2d (default: PC1 vs PC2) or 3d (PC1-PC3 seen from --yaw and --pitch, "
                           "positions joined in order)"});
        options.push_back({std::string(state::kStructureYawRange.option), "DEG",
                           state::kStructureYawRange.help() + "; needs --trajectory 3d"});
        options.push_back({std::string(state::kStructurePitchRange.option), "DEG",
                           state::kStructurePitchRange.help() + "; needs --trajectory 3d"});
    }
    return options;
}

// --trajectory, --yaw, --pitch of `render learned-pca` into the figure's options.
Status readTrajectoryOptions(const ArgMap& args, LearnedStructureOptions& options) {
    OptionReader read(args);
    read.choice("trajectory", options.trajectory, parseTrajectoryStyle);
    double yaw = state::kStructureYawRange.fallback, pitch = state::kStructurePitchRange.fallback;
    const state::DoubleRange &yawRange = state::kStructureYawRange,
                             &pitchRange = state::kStructurePitchRange;
    read.number(std::string(yawRange.option), yaw, yawRange.low, yawRange.high,
                yawRange.rangeText());
    read.number(std::string(pitchRange.option), pitch, pitchRange.low, pitchRange.high,
                pitchRange.rangeText());
    if (!read.ok()) return read.error();
    for (const char* option : {"yaw", "pitch"}) {
        if (args.has(option) && options.trajectory != TrajectoryStyle::Rotatable)
            return Error{std::string("--") + option + " needs --trajectory 3d"};
    }
    options.angles = {yaw, pitch};
    return success();
}

struct StructureTable {
    std::shared_ptr<const Matrix> table;
    std::string source;
    double base = 10000;  // the sinusoidal ladder the spectrum is set beside
};

Result<StructureTable> readStructureTable(const ArgMap& args) {
    std::string kind = "learned";
    OptionReader read(args);
    read.choice("table", kind, [](std::string_view name) -> Result<std::string> {
        if (name == "learned" || name == "sinusoidal") return std::string(name);
        return Error{"table must be learned or sinusoidal (got " + quoteForMessage(name) + ")"};
    });
    if (!read.ok()) return read.error();
    if (args.has("from") && args.has("table"))
        return Error{"--table cannot be combined with --from (the file holds the table)"};
    StructureTable result;
    result.base = 10000;
    read.number("base", result.base);
    if (!read.ok()) return read.error();
    if (args.has("base") && kind != "sinusoidal") return Error{"--base needs --table sinusoidal"};
    if (kind == "learned") {
        if (!args.has("from")) {  // refused before the table is made (it may be gigabytes)
            auto params = readSeededLearnedParams(args);
            if (!params) return params.error();
            if (auto s =
                    checkStructureSize(std::size_t(params->seqLen), std::size_t(params->dModel));
                !s) {
                return s.error();
            }
        }
        auto table = readLearnedTable(args, false);
        if (!table) return table.error();
        result.table = table->table;
        result.source = table->source;
        return result;
    }
    for (const char* option : {"seed", "std", "tensor"}) {
        if (args.has(option))
            return Error{std::string("--") + option + " does not apply to --table sinusoidal"};
    }
    SinusoidalParams params;
    params.seqLen = 512;
    params.dModel = 64;
    read.wideInt("seq-len", params.seqLen);
    read.wideInt("d-model", params.dModel);
    if (!read.ok()) return read.error();
    params.base = result.base;
    if (auto s = checkStructureSize(std::size_t(params.seqLen), std::size_t(params.dModel)); !s)
        return s.error();
    auto table = sinusoidalTable(params);
    if (!table) return table.error();
    result.table = std::make_shared<const Matrix>(std::move(table).value());
    result.source = "sinusoidal, d_model " + std::to_string(params.dModel) + ", base " +
                    formatValue(params.base, 6);
    return result;
}

Result<int> readComponents(const ArgMap& args, int fallback) {
    int components = fallback;
    OptionReader read(args);
    read.wideInt("components", components);
    if (!read.ok()) return read.error();
    if (auto s = rangeError("components", components, 1, kMaxStructureComponents); !s)
        return s.error();
    return components;
}

}  // namespace

void registerBiasCommands(CommandRegistry& registry) {
    // ---- Exports
    std::vector<OptionSpec> t5Export = t5Options();
    t5Export.front().help = "rows and columns, 1..1048576 within the memory cap; required";
    registry.exports.push_back(
        matrixExport("t5-buckets", "L x L bucket ids, entry [i][j] = bucket(j - i) (key - query)",
                     t5Export, [](const ArgMap& args) -> Result<Matrix> {
                         if (auto s = require(args, "seq-len", "L"); !s) return s.error();
                         auto params = readT5Params(args, 64);
                         if (!params) return params.error();
                         return t5BucketMatrix(*params);
                     }));

    ExportKind learned = matrixExport(
        "learned", "L x D learned table at initialisation (or read from --from), row = position",
        learnedOptions(true), [](const ArgMap& args) -> Result<Matrix> {
            auto table = readLearnedTable(args, true);
            if (!table) return table.error();
            return *table->table;
        });
    // Streamed from the one table in memory: returning it as a Matrix would copy it, and a
    // table at the memory cap would need twice the cap.
    learned.stream = [](const ArgMap& args) -> Result<ExportKind::Stream> {
        auto table = readLearnedTable(args, true);
        if (!table) return table.error();
        ExportKind::Stream stream;
        stream.rows = table->table->rows;
        stream.cols = table->table->cols;
        stream.produce = [values = table->table](std::size_t first, std::size_t count,
                                                 Matrix& chunk) -> Status {
            if (chunk.rows != count || chunk.cols != values->cols)
                chunk = Matrix(count, values->cols);
            std::copy_n(values->row(first), count * values->cols, chunk.values.begin());
            return success();
        };
        return stream;
    };
    registry.exports.push_back(std::move(learned));

    ExportKind tensors = matrixExport(
        "tensors",
        "the tensors of a .safetensors checkpoint, single or sharded: one row each, name, dtype, "
        "shape (header line \"name,dtype,shape\"), in the file's (or the index's) order",
        {{"from", "PATH",
          "the checkpoint to list: a .safetensors file, a model.safetensors.index.json with its "
          "shards, or their folder; required"}},
        nullptr);
    tensors.text = [](const ArgMap& args) -> Result<TextTable> {
        std::string path;
        OptionReader read(args);
        read.path("from", path, "--from PATH is required (a .safetensors file, index or folder)");
        if (!read.ok()) return read.error();
        auto list = listCheckpointTensors(path);  // a file, an index with shards, a folder
        if (!list) return list.error();
        TextTable table;
        table.header = {"name", "dtype", "shape"};
        for (const SafetensorsTensorInfo& info : *list) {
            table.rows.push_back(
                {info.name, std::string(dtypeName(info.dtype)), shapeText(info.shape)});
        }
        return table;
    };
    registry.exports.push_back(std::move(tensors));

    registry.exports.push_back(matrixExport(
        "learned-pca",
        "L x K: each position's coordinates on the table's first K principal components (rows "
        "centred; each component's sign chosen to rise with position), row = position",
        structureOptions(true), [](const ArgMap& args) -> Result<Matrix> {
            auto table = readStructureTable(args);
            if (!table) return table.error();
            auto components = readComponents(args, 3);
            if (!components) return components.error();
            auto pca = principalComponents(*table->table, *components, *components);
            if (!pca) return pca.error();
            return std::move(pca->projections);
        }));

    // ---- Renders
    std::vector<OptionSpec> t5Render = t5Options();
    t5Render.front().help = "rows and columns, 1..1048576 (default 160)";
    t5Render.push_back(
        {"bias-seed", "SEED", "seed of the per-bucket bias values ~ N(0, 1) (default 0)"});
    t5Render.push_back({"biases", "LIST",
                        "the per-bucket bias values instead, B comma-separated numbers (B <= " +
                            std::to_string(kMaxT5Buckets) + ")"});
    registry.renders.push_back(renderView(
        "t5", "bucket ids (key - query), bias matrix, bucket edges and bias against distance",
        t5Render, [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
            T5FigureOptions options;
            auto params = readT5Params(args, 160);
            if (!params) return params.error();
            options.params = *params;
            OptionReader read(args);
            read.seed("bias-seed", options.biasSeed);
            if (!read.ok()) return read.error();
            if (args.has("biases")) {
                // Its own message for the count (entries are finite: the one number syntax).
                std::vector<double> biases;
                read.list("biases", biases, std::size_t(kMaxT5Buckets));
                if (!read.ok()) return read.error();
                if (biases.size() != std::size_t(params->numBuckets)) {
                    return Error{
                        "--biases must list num_buckets = " + std::to_string(params->numBuckets) +
                        " values (got " + std::to_string(biases.size()) + ")"};
                }
                options.bucketBiases = std::move(biases);
            }
            Figure figure = figureFor(settings);
            if (auto s = drawT5Figure(figure, {0, 0, figure.width, figure.height}, options,
                                      settings.theme);
                !s) {
                return s.error();
            }
            return figure;
        }));

    std::vector<OptionSpec> learnedRender = learnedOptions(false);
    learnedRender.push_back({"positions", "P",
                             "positions to show, may exceed the table to show "
                             "what is undefined, 1..1048576 (default: the table)"});
    learnedRender.push_back({"first-dimension", "K", "first dimension of the curves (default 0)"});
    learnedRender.push_back({"curves", "C", state::kCurveCountRange.help()});
    registry.renders.push_back(renderView(
        "learned", "the table, cosine similarity between positions, dimensions against position",
        learnedRender, [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
            // The seeded table is drawn as its values are generated, never held whole (up to
            // 2^20 x 8192 values: 64 GiB as a table); a file's table is already in memory.
            std::optional<LearnedParams> seeded;
            LearnedTable table;
            if (!args.has("from") && !args.has("tensor")) {
                auto params = readSeededLearnedParams(args);
                if (!params) return params.error();
                seeded = *params;
                table.source = learnedSourceText(*params);
            } else {
                auto read = readLearnedTable(args, false);
                if (!read) return read.error();
                table = std::move(read).value();
            }
            LearnedFigureOptions options;
            options.table = table.table;
            options.source = table.source;
            options.positionsShown = 0;
            options.firstCurveDimension = 0;
            options.curveCount = state::kCurveCountRange.fallback;
            OptionReader read(args);
            read.wideInt("positions", options.positionsShown);
            if (read.ok() && args.has("positions") && options.positionsShown < 1) {
                return Error{"--positions must be 1..1048576 (got " +
                             std::to_string(options.positionsShown) + ")"};
            }
            read.wideInt("first-dimension", options.firstCurveDimension);
            read.wideInt("curves", options.curveCount);
            if (!read.ok()) return read.error();
            if (settings.colormapGiven) options.colormap = settings.colormap;
            Figure figure = figureFor(settings);
            const Box area{0, 0, figure.width, figure.height};
            if (auto s =
                    seeded ? drawSeededLearnedFigure(figure, area, *seeded, options, settings.theme)
                           : drawLearnedFigure(figure, area, options, settings.theme);
                !s) {
                return s.error();
            }
            return figure;
        }));

    registry.renders.push_back(renderView(
        "learned-pca",
        "a table's structure: explained variance, principal components against position, PC1 "
        "vs PC2 (or PC1-PC3 in 3-D), spectrum and dominant frequencies beside the sinusoidal "
        "ladder, shuffled rows",
        structureOptions(false),
        [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
            auto table = readStructureTable(args);
            if (!table) return table.error();
            auto components = readComponents(args, 12);
            if (!components) return components.error();
            LearnedStructureOptions options;
            options.source = table->source;
            options.components = *components;
            options.sinusoidalBase = table->base;
            if (auto s = readTrajectoryOptions(args, options); !s) return s.error();
            if (settings.colormapGiven) options.positionColormap = settings.colormap;
            return learnedStructureFigure(*table->table, options, float(settings.width),
                                          float(settings.height), settings.theme);
        }));
}

}  // namespace poslab::commands
