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
// figures wherever it is run from. Reading and checking a spec is GL-free: spec_format.hpp.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands/args.hpp"
#include "commands/commands.hpp"
#include "commands/spec_format.hpp"  // reading specs and building their figures (GL-free)
#include "poslab/base/result.hpp"

namespace poslab::gfx {
class OffscreenRenderer;
}

namespace poslab::cli {

// Builds a view's figure from parsed options and writes it where --out says, in the format its
// extension names: SVG and PDF through Cairo (gfx/cairo_renderer.hpp); PNG through Cairo too
// (--renderer cairo, the default: the print path, no GL start-up) or with --renderer gl through
// the EGL/ImGui renderer (the screen's own pixels). --transparent drops the figure's background.
// One EGL context serves a whole batch; it is made on the first GL PNG.
class FigureFileWriter {
  public:
    FigureFileWriter();
    ~FigureFileWriter();
    FigureFileWriter(const FigureFileWriter&) = delete;
    FigureFileWriter& operator=(const FigureFileWriter&) = delete;

    // `options` are what args were parsed against (for "--d-model must ..." messages). Returns the
    // line to print, "wrote fig.pdf (1200 x 800, PDF)", or a one-line error.
    Result<std::string> render(const commands::RenderView& view,
                               const std::vector<commands::OptionSpec>& options,
                               const commands::ArgMap& args);

  private:
    std::unique_ptr<gfx::OffscreenRenderer> offscreen_;
    std::optional<Error> offscreenError_;  // EGL failed once: say so for every later PNG
};

// `poslab render --spec FILE.json`: renders every figure in order, printing "[3/10] wrote …";
// a bad entry prints "poslab: figure 3: …", writes nothing, and the rest still render. Returns
// kExitBadInput if the file or any entry was bad, kExitOk otherwise. Files over kMaxSpecBytes
// are refused.
inline constexpr std::size_t kMaxSpecBytes = std::size_t(16) << 20;
int runSpec(const commands::CommandRegistry& registry, const std::string& specPath);

}  // namespace poslab::cli
