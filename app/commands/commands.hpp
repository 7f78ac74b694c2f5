// commands.hpp — what `poslab export KIND` and `poslab render VIEW` can do.
//
// Each encoding registers its kinds and views from its own file (sinusoidal_commands.cpp, …);
// the dispatcher in cli.cpp handles --help, --out, file formats and exit codes for all of them.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "commands/args.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/figure/figure.hpp"
#include "poslab/figure/plot.hpp"
#include "poslab/io/matrix_export.hpp"

namespace poslab::commands {

// A CSV of text cells, a header line then one line per row (`poslab export tensors`).
struct TextTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;  // each as long as header
};

struct ExportKind {
    std::string name;                 // "sinusoidal"
    std::string summary;              // one line: what the rows and columns are
    std::vector<OptionSpec> options;  // without --out (added by the dispatcher)
    std::function<Result<Matrix>(const ArgMap&)> compute;
    // Optional: for tables too large to hold, the shape and a row producer (used when set).
    struct Stream {
        std::size_t rows = 0, cols = 0;
        RowProducer produce;
    };
    std::function<Result<Stream>(const ArgMap&)> stream;
    // Optional: a JSON document instead of a matrix (--out FILE.json; used when set).
    std::function<Result<std::string>(const ArgMap&)> document = nullptr;
    // Optional: a table of text (names, shapes) instead of numbers; .csv only (used when set).
    std::function<Result<TextTable>(const ArgMap&)> text = nullptr;
    // Optional: writes its own file(s) to --out and returns the line to print (rope-usage: a 3-D
    // .npy and its sidecar, or .json); used when set, with `formats` naming the extensions.
    std::function<Result<std::string>(const ArgMap&, const std::string& out)> files = nullptr;
    const char* formats = nullptr;
    // The --out extensions this kind writes: ".json" for documents, ".csv" for text tables.
    const char* outFormats() const {
        return formats ? formats : document ? ".json" : text ? ".csv" : ".csv or .npy";
    }
};

struct RenderSettings {
    int width = 1200, height = 800;  // figure size in figure pixels
    float scale = 1.0f;              // device pixels per figure pixel
    Theme theme = paperTheme();
    ColormapId colormap = ColormapId::Viridis;
    bool colormapGiven = false;  // false: the view picks its natural colormap
};

struct RenderView {
    std::string name;  // "sinusoidal"
    std::string summary;
    std::vector<OptionSpec> options;  // view options; size/theme/colormap/out are added
    std::function<Result<Figure>(const ArgMap&, const RenderSettings&)> build;
};

struct CommandRegistry {
    std::vector<ExportKind> exports;
    std::vector<RenderView> renders;
};

CommandRegistry buildRegistry();  // every kind and view PosLab has
// An export kind that computes a matrix, built field by field so that fields added to ExportKind
// later keep their defaults.
ExportKind matrixExport(std::string name, std::string summary, std::vector<OptionSpec> options,
                        std::function<Result<Matrix>(const ArgMap&)> compute);

// A render view built field by field, like matrixExport; and the empty figure a view draws into.
RenderView renderView(std::string name, std::string summary, std::vector<OptionSpec> options,
                      std::function<Result<Figure>(const ArgMap&, const RenderSettings&)> build);
Figure figureFor(const RenderSettings& settings);  // settings' size and theme, nothing drawn
// a's options, then b's (a view's own options before those it shares with others).
std::vector<OptionSpec> joinOptions(std::vector<OptionSpec> a, const std::vector<OptionSpec>& b);
// "--name VALUE is required" unless the option is given.
Status requireOption(const ArgMap& args, const std::string& name, const std::string& valueName);

// Registration, one function per encoding family (encodings added as plug-ins register theirs
// through state/encoding_registry.hpp: buildRegistry() adds them after these).
void registerSinusoidalCommands(CommandRegistry& registry);
void registerRopeCommands(CommandRegistry& registry);
void registerVisionRopeCommands(CommandRegistry& registry);  // mrope, axial-rope
void registerBiasCommands(CommandRegistry& registry);  // ALiBi, T5, learned (bias_commands.cpp)
void registerUnderstandingCommands(
    CommandRegistry& registry);                             // similarity, meaning, intuitions, …
void registerRopeUsageCommands(CommandRegistry& registry);  // rope_usage_commands.cpp

// Options shared by all render views, and how to read them.
std::vector<OptionSpec> renderCommonOptions();
Result<RenderSettings> readRenderSettings(const ArgMap& args);

}  // namespace poslab::commands
