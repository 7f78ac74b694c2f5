// `poslab export sinusoidal`, `poslab render sinusoidal` and `poslab render sinusoidal-curves`.
#include "commands/commands.hpp"
#include "commands/option_reader.hpp"

#include <memory>

#include "poslab/views/icon_figures.hpp"
#include "poslab/views/sinusoidal_figures.hpp"

namespace poslab::commands {

// --dims: as many curves as the GUI's curve count allows (8). Past a few thousand positions each
// curve is a band of oscillations that the rasteriser strokes at ~0.3 s a curve; 8 stay within
// seconds, and more would only overdraw the same band.
inline constexpr std::size_t kMaxCurveDimensions = std::size_t(state::kCurveCountRange.high);

namespace {

std::vector<OptionSpec> sinusoidalOptions() {
    return {
        {"d-model", "D", "columns (dimensions), 1..8192; required"},
        {"seq-len", "L", "rows (positions 0..L-1), 1..1048576 within the memory cap; required"},
        {"base", "B", "frequency base, > 1 (default 10000)"},
        {"layout", "NAME", "interleaved (paper), concat (HF [sin|cos]) or t2t (tensor2tensor)"}};
}

Result<SinusoidalParams> readSinusoidalParams(const ArgMap& args, bool requireSizes) {
    if (requireSizes && !args.has("d-model")) return Error{"--d-model D is required"};
    if (requireSizes && !args.has("seq-len")) return Error{"--seq-len L is required"};
    SinusoidalParams params;
    params.dModel = 128;
    params.seqLen = 256;
    params.base = 10000;
    // Range checks happen in validate(); only what would overflow an int is refused first.
    OptionReader read(args);
    read.coreInt("d-model", params.dModel, "d_model", 1, kMaxDModel);
    read.coreInt("seq-len", params.seqLen, "seq_len", 1, kMaxSeqLen);
    read.number("base", params.base);
    read.choice("layout", params.layout, parseLayout);
    if (!read.ok()) return read.error();
    if (auto status = validate(params); !status) return status.error();
    return params;
}

}  // namespace

void registerSinusoidalCommands(CommandRegistry& registry) {
    registry.exports.push_back(
        {"sinusoidal", "the L x D sinusoidal table, row = position", sinusoidalOptions(),
         [](const ArgMap& args) -> Result<Matrix> {
             auto params = readSinusoidalParams(args, true);
             if (!params) return params.error();
             return sinusoidalTable(*params);
         },
         // Streamed: rows are computed in cache-sized chunks and written as they come.
         [](const ArgMap& args) -> Result<ExportKind::Stream> {
             auto params = readSinusoidalParams(args, true);
             if (!params) return params.error();
             ExportKind::Stream stream;
             stream.rows = std::size_t(params->seqLen);
             stream.cols = std::size_t(params->dModel);
             // One generator for the whole file: its tables are built once, not per chunk.
             auto generator = std::make_shared<const SinusoidalBlockGenerator>(*params, 1);
             stream.produce = [generator](std::size_t first, std::size_t count, Matrix& chunk) {
                 generator->fill(chunk, (long long)first, int(count));
                 return success();
             };
             return stream;
         }});

    std::vector<OptionSpec> heatmapOptions = sinusoidalOptions();
    heatmapOptions.push_back(
        {"training-length", "N", "mark N positions as the training length (default: none)"});
    registry.renders.push_back(
        {"sinusoidal", "heatmap of the table (positions down, dimensions across)", heatmapOptions,
         [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             auto params = readSinusoidalParams(args, false);
             if (!params) return params.error();
             SinusoidalHeatmapOptions options;
             options.trainingLength = 0;
             OptionReader read(args);
             read.integer("training-length", options.trainingLength, 0, kMaxSeqLen);
             if (!read.ok()) return read.error();
             if (settings.colormapGiven) options.colormap = settings.colormap;
             Figure figure =
                 emptyFigure(float(settings.width), float(settings.height), settings.theme);
             drawSinusoidalHeatmap(figure, {0, 0, figure.width, figure.height}, *params, options,
                                   settings.theme, nullptr);
             return figure;
         }});

    std::vector<OptionSpec> curveOptions = sinusoidalOptions();
    curveOptions.push_back({"dims", "LIST",
                            "dimensions to plot, comma-separated, at most " +
                                std::to_string(kMaxCurveDimensions) + " (default 4,5,6,7)"});
    curveOptions.push_back({"positions", "N", "plot positions 0..N (default 100)"});
    registry.renders.push_back(
        {"sinusoidal-curves", "chosen dimensions against position: the ladder of frequencies",
         curveOptions, [](const ArgMap& args, const RenderSettings& settings) -> Result<Figure> {
             auto params = readSinusoidalParams(args, false);
             if (!params) return params.error();
             SinusoidalCurveOptions options;
             OptionReader read(args);
             read.list("dims", options.dimensions, kMaxCurveDimensions, 0, params->dModel - 1);
             options.lastPosition = 100;
             read.number("positions", options.lastPosition, 1, kMaxSeqLen,
                         "1.." + std::to_string(kMaxSeqLen));
             if (!read.ok()) return read.error();
             Figure figure =
                 emptyFigure(float(settings.width), float(settings.height), settings.theme);
             drawSinusoidalCurves(figure, {0, 0, figure.width, figure.height}, *params, options,
                                  settings.theme);
             return figure;
         }});

    // The application icon (a corner of the table): the build writes the desktop icons with it.
    registry.renders.push_back(
        {"icon",
         "PosLab's application icon: a corner of the sinusoidal table on a dark tile",
         {{"size", "S",
           "icon size in pixels, 16..1024 (default 256; --width/--height are ignored)"}},
         [](const ArgMap& args, const RenderSettings&) -> Result<Figure> {
             int size = 256;
             OptionReader read(args);
             read.integer("size", size, 16, 1024);
             if (!read.ok()) return read.error();
             return iconFigure(float(size));
         }});
}

}  // namespace poslab::commands
