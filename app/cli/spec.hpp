// spec.hpp — figures to files: one (`poslab render VIEW --out F`) or a batch from a spec file
// (`poslab render --spec FIGURES.json`).
//
// A spec is a JSON list of objects, one per figure:
//   [{"view": "sinusoidal", "d_model": 128, "seq_len": 512, "out": "fig1.pdf", "theme": "paper"},
//    {"view": "sinusoidal-curves", "d_model": 64, "dims": [4, 5, 6, 7], "out": "fig2.svg"}]
// Every field except `view` is the view's command-line option with underscores for dashes, so
// any view registered in the CommandRegistry works in specs with no code of its own: numbers
// become their text, true a flag that is present (false: absent), lists comma-separated text.
// Relative `out` paths are relative to the spec file's folder, so a spec renders the same
// figures wherever it is run from.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "poslab/result.hpp"

namespace poslab::gfx {
class OffscreenRenderer;
}

namespace poslab::cli {

// Builds a view's figure from parsed options and writes it where --out says, in the format its
// extension names: PNG through the EGL/ImGui renderer (the screen's own pixels), SVG and PDF
// through Cairo (gfx/cairo_renderer.hpp). --transparent drops the figure's background. One EGL
// context serves a whole batch; it is made on the first PNG.
class FigureFileWriter {
  public:
    FigureFileWriter();
    ~FigureFileWriter();
    FigureFileWriter(const FigureFileWriter&) = delete;
    FigureFileWriter& operator=(const FigureFileWriter&) = delete;

    // `options` are what args were parsed against (for "--d-model must ..." messages). Returns the
    // line to print, "wrote fig.pdf (1200 x 800, PDF)", or a one-line error.
    Result<std::string> render(const RenderView& view, const std::vector<OptionSpec>& options,
                               const ArgMap& args);

  private:
    std::unique_ptr<gfx::OffscreenRenderer> offscreen_;
    std::optional<Error> offscreenError_;  // EGL failed once: say so for every later PNG
};

std::vector<OptionSpec> renderOptionsFor(const RenderView& view);  // view's + renderCommonOptions()

// One spec object as the ArgMap the command line would produce for the same figure (`view` is
// skipped). Errors name the field: "unknown field 'colour' (sinusoidal takes: ...)".
Result<ArgMap> specEntryArguments(const nlohmann::json& entry, const RenderView& view);

// `poslab render --spec FILE.json`: renders every figure in order, printing "[3/10] wrote …";
// a bad entry prints "poslab: figure 3: …", writes nothing, and the rest still render. Returns
// kExitBadInput if the file or any entry was bad, kExitOk otherwise.
int runSpec(const CommandRegistry& registry, const std::string& specPath);

}  // namespace poslab::cli
