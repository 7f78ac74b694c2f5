// `poslab render mrope|axial-rope` and `poslab export mrope-positions|axial-rope`: RoPE for
// images. M-RoPE settings can come from a Qwen2-VL / Qwen2.5-VL / Qwen3-VL config.json (--config,
// read as transformers reads it); flags given as well override the file's values.
#include <optional>
#include <string>

#include "commands/commands.hpp"
#include "commands/option_reader.hpp"
#include "poslab/base/decimal.hpp"
#include "poslab/base/format.hpp"
#include "poslab/io/hf_config.hpp"
#include "poslab/views/vision_rope_figures.hpp"

namespace poslab::commands {

namespace {

const char* const kDefaultPrompt = "text:5,image:1x28x42,text:3,video:4x14x14";

std::vector<OptionSpec> mropeOptions() {
    return {
        {"prompt", "SEGMENTS",
         "comma-separated text:N (N tokens, 1..100000), image:TxHxW and video:TxHxW[@S] (grids "
         "in patches before merging: T 1..512, H and W 1..1024, multiples of the merge size; S: "
         "a video's seconds per temporal grid, Qwen2.5-VL, default 1); at most 64 segments and "
         "1048576 tokens (default " +
             std::string(kDefaultPrompt) + ")"},
        {"config", "FILE",
         "Qwen2-VL / Qwen2.5-VL / Qwen3-VL config.json: mrope_section, mrope_interleaved, head "
         "size, rope_theta, vision_config.spatial_merge_size and tokens_per_second; flags win"},
        {"model", "NAME",
         "qwen2-vl (default), qwen2.5-vl or qwen3-vl: whose get_rope_index and defaults "
         "([16,24,24] contiguous, base 1e6; qwen3-vl [24,20,20] interleaved, base 5e6)"},
        {"mrope-section", "T,H,W", "rotary pairs per stream, >= 0, summing to head_dim / 2"},
        {"layout", "NAME", "contiguous (Qwen2-VL, Qwen2.5-VL) or interleaved (Qwen3-VL)"},
        {"head-dim", "D", "rotated dimensions per head, even, 4..1024 (default 128)"},
        {"base", "B", "rope_theta, > 1 and <= 1e12"},
        {"merge-size", "M", "vision_config.spatial_merge_size, 1..8 (default 2)"},
        {"tokens-per-second", "R",
         "Qwen2.5-VL: temporal positions per second of video, > 0 and <= 1000 (default 2)"}};
}

struct MropeInputs {
    std::vector<PromptSegment> prompt;
    MropeSettings settings;
};

Result<MropeInputs> readMropeInputs(const ArgMap& args) {
    MropeInputs inputs;
    std::optional<MropeModel> model;  // nullopt: Qwen2-VL, or the config's
    std::optional<std::string> path;
    OptionReader read(args);
    read.choice("model", model, parseMropeModel);
    read.path("config", path);
    if (!read.ok()) return read.error();
    inputs.settings = mropePreset(model.value_or(MropeModel::Qwen2VL));
    if (path) {
        auto config = loadHfConfig(*path);
        if (!config) return Error{"--config " + config.error().message};
        if (!config->mrope) {
            return Error{"--config " + *path +
                         ": no multimodal RoPE (rope_scaling has no mrope_section)"};
        }
        inputs.settings = *config->mrope;
        if (model) {
            inputs.settings.model = *model;
            if (*model == MropeModel::Qwen3VL) inputs.settings.layout = MropeLayout::Interleaved;
        }
    }
    read.choice("layout", inputs.settings.layout, parseMropeLayout);
    read.integer("head-dim", inputs.settings.headDim, 4, 1024);
    read.number("base", inputs.settings.base, 1, 1e12, "> 1 and <= 1e12");
    read.integer("merge-size", inputs.settings.spatialMergeSize, 1, kMaxSpatialMerge);
    read.number("tokens-per-second", inputs.settings.tokensPerSecond, 0, 1000, "> 0 and <= 1000");
    if (!read.ok()) return read.error();
    if (!(inputs.settings.base > 1)) return Error{"--base must be > 1 and <= 1e12"};
    if (!(inputs.settings.tokensPerSecond > 0)) {
        return Error{"--tokens-per-second must be > 0 and <= 1000"};
    }
    if (args.has("mrope-section")) {
        std::vector<double> values;
        OptionReader read(args);
        read.list("mrope-section", values, 8);
        if (!read.ok()) return read.error();
        if (values.size() != 3) {
            return Error{"--mrope-section must be 3 comma-separated counts T,H,W (got " +
                         std::to_string(values.size()) + ")"};
        }
        for (int i = 0; i < 3; ++i) {
            const double v = values[std::size_t(i)];
            if (!(v >= 0 && v <= 512) || v != double(int(v))) {
                return Error{"--mrope-section entries must be whole numbers 0..512"};
            }
            inputs.settings.section[std::size_t(i)] = int(v);
        }
    }
    if (auto s = validate(inputs.settings); !s) {
        return Error{"--mrope-section/--head-dim: " + s.error().message};
    }
    std::string promptText = kDefaultPrompt;  // parseMropePrompt's syntax
    read.text("prompt", promptText);
    auto prompt = parseMropePrompt(promptText);
    if (!prompt) return Error{"--prompt: " + prompt.error().message};
    if (auto s = validatePrompt(*prompt, inputs.settings.spatialMergeSize); !s) {
        return Error{"--prompt: " + s.error().message};
    }
    inputs.prompt = std::move(*prompt);
    return inputs;
}

Result<Figure> renderMrope(const ArgMap& args, const RenderSettings& settings) {
    auto inputs = readMropeInputs(args);
    if (!inputs) return inputs.error();
    Figure figure = emptyFigure(float(settings.width), float(settings.height), settings.theme);
    drawMropeFigure(figure, {0, 0, float(settings.width), float(settings.height)}, inputs->prompt,
                    inputs->settings, settings.theme);
    return figure;
}

Result<TextTable> exportMropePositions(const ArgMap& args) {
    auto inputs = readMropeInputs(args);
    if (!inputs) return inputs.error();
    auto positions = mropePositions(inputs->prompt, inputs->settings);
    if (!positions) return positions.error();
    TextTable table;
    table.header = {"token", "kind", "t", "h", "w"};
    table.rows.reserve(std::size_t(positions->tokenCount()));
    for (long long n = 0; n < positions->tokenCount(); ++n) {
        const std::size_t i = std::size_t(n);
        const PromptSpan& span = positions->spans[std::size_t(positions->spanOfToken[i])];
        table.rows.push_back({std::to_string(n), std::string(promptSegmentKindName(span.kind)),
                              std::to_string(positions->temporal[i]),
                              std::to_string(positions->height[i]),
                              std::to_string(positions->width[i])});
    }
    return table;
}

// ---- Axial

struct GridSize {
    int width = 0, height = 0;  // patches: columns, rows
};

// "WxH": exactly one 'x' between two plain integers, each 1..kMaxAxialGridSide; "4xx4" and
// "4x4x5" are refused (std::stoi threw on the first and read the second as 4x4).
Result<GridSize> parseGridSize(std::string_view grid) {
    const std::size_t x = grid.find('x');
    const bool oneX = x != std::string::npos && grid.find('x', x + 1) == std::string::npos;
    const ParsedInteger width = oneX ? parseDecimalInteger(grid.substr(0, x)) : ParsedInteger{};
    const ParsedInteger height = oneX ? parseDecimalInteger(grid.substr(x + 1)) : ParsedInteger{};
    const bool good = width.status == DecimalStatus::Ok && height.status == DecimalStatus::Ok &&
                      grid[0] != '-' && grid[x + 1] != '-';
    const long long w = good ? width.value : 0, h = good ? height.value : 0;
    if (!good || w < 1 || h < 1 || w > kMaxAxialGridSide || h > kMaxAxialGridSide) {
        return Error{"grid must be WxH with W and H 1.." + std::to_string(kMaxAxialGridSide) +
                     " (got " + quoteForMessage(grid) + ")"};
    }
    return GridSize{int(w), int(h)};
}

std::vector<OptionSpec> axialOptions() {
    return {{"grid", "WxH",
             "patch grid, columns x rows, each 1.." + std::to_string(kMaxAxialGridSide) +
                 " (default 16x16)"},
            {"query", "X,Y", "the query patch, column,row from 0 (default 5,7)"},
            {"layout", "NAME",
             "rope-vit (default; x pairs then y pairs, theta = base^(-4k/d)) or pixtral (HF "
             "PixtralRotaryEmbedding: rows on even, columns on odd frequencies)"},
            {"head-dim", "D", "dimensions per head, a multiple of 4, 4..1024 (default 64)"},
            {"base", "B", "> 1 and <= 1e12 (default 100 for rope-vit, 10000 for pixtral)"},
            {"vectors", "NAME", "ones (q = k = all ones; default) or random (N(0,1) q and k)"},
            {"seed", "S", "random vectors: q from seed S, k from S+1, 0..2^63 (default 0)"}};
}

Result<AxialRopeParams> readAxialParams(const ArgMap& args) {
    AxialRopeParams params;
    OptionReader read(args);
    read.choice("layout", params.layout, parseAxialRopeLayout);
    if (!read.ok()) return read.error();
    if (params.layout == AxialRopeLayout::Pixtral) params.base = 10000;
    read.choice("vectors", params.vectors, parseAxialVectors);
    read.integer("head-dim", params.headDim, 4, 1024);
    read.number("base", params.base, 1, 1e12, "> 1 and <= 1e12");
    read.seed(params.seed);
    if (!read.ok()) return read.error();
    if (!(params.base > 1)) return Error{"--base must be > 1 and <= 1e12"};
    if (params.headDim % 4 != 0) {
        return Error{"--head-dim must be a multiple of 4, 4..1024 (got " +
                     std::to_string(params.headDim) + ")"};
    }
    GridSize grid{params.gridWidth, params.gridHeight};
    read.choice("grid", grid, parseGridSize);
    if (!read.ok()) return read.error();
    params.gridWidth = grid.width;
    params.gridHeight = grid.height;
    params.queryX = std::min(params.queryX, params.gridWidth - 1);
    params.queryY = std::min(params.queryY, params.gridHeight - 1);
    if (args.has("query")) {
        std::vector<double> values;
        std::string typed;  // as typed, for the message
        read.list("query", values, 8);
        read.text("query", typed);
        if (!read.ok()) return read.error();
        const bool good = values.size() == 2 && values[0] >= 0 && values[1] >= 0 &&
                          values[0] < params.gridWidth && values[1] < params.gridHeight &&
                          values[0] == double(int(values[0])) &&
                          values[1] == double(int(values[1]));
        if (!good) {
            return Error{"--query must be X,Y with X 0.." + std::to_string(params.gridWidth - 1) +
                         " and Y 0.." + std::to_string(params.gridHeight - 1) + " (got " +
                         quoteForMessage(typed) + ")"};
        }
        params.queryX = int(values[0]);
        params.queryY = int(values[1]);
    }
    if (auto s = validate(params); !s) return s.error();
    return params;
}

Result<Figure> renderAxial(const ArgMap& args, const RenderSettings& settings) {
    auto params = readAxialParams(args);
    if (!params) return params.error();
    Figure figure = emptyFigure(float(settings.width), float(settings.height), settings.theme);
    drawAxialRopeFigure(figure, {0, 0, float(settings.width), float(settings.height)}, *params,
                        settings.theme);
    return figure;
}

}  // namespace

void registerVisionRopeCommands(CommandRegistry& registry) {
    ExportKind positions = matrixExport(
        "mrope-positions",
        "one row per prompt token: token, kind (text, image, video) and its temporal, height "
        "and width positions as the model's get_rope_index computes them",
        mropeOptions(), nullptr);
    positions.text = exportMropePositions;
    registry.exports.push_back(std::move(positions));
    registry.exports.push_back(matrixExport(
        "axial-rope",
        "H x W, row y, column x: the 2-D RoPE score of the query patch with patch (x, y), over "
        "|q| |k|",
        axialOptions(), [](const ArgMap& args) -> Result<Matrix> {
            auto params = readAxialParams(args);
            if (!params) return params.error();
            return axialSimilarityMap(*params);
        }));

    registry.renders.push_back(
        {"mrope",
         "multimodal RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL): the temporal, height and width "
         "position streams of a text + image + video prompt, which rotary pairs each drives, and "
         "how far each image moves the text position",
         mropeOptions(), renderMrope});
    registry.renders.push_back(
        {"axial-rope",
         "2-D axial RoPE of vision transformers (RoPE-ViT, Pixtral): the query patch's score "
         "with every patch of the grid",
         axialOptions(), renderAxial});
}

}  // namespace poslab::commands
