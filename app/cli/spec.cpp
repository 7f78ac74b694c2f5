#include "cli/spec.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>

#include "cli/cli.hpp"
#include "commands/option_reader.hpp"
#include "gfx/cairo_renderer.hpp"
#include "gfx/offscreen.hpp"
#include "poslab/base/format.hpp"
#include "poslab/io/json_reader.hpp"

namespace poslab::cli {

namespace {

std::string sizeText(const Figure& figure, float scale) {
    return std::to_string(int(std::lround(figure.width * scale))) + " x " +
           std::to_string(int(std::lround(figure.height * scale)));
}

// --renderer / "renderer": which engine draws a PNG. Cairo by default: no GL start-up, and the
// same pixels the PDF rasterises to. SVG and PDF are Cairo's alone.
Result<bool> wantsGlRenderer(const commands::ArgMap& args, gfx::FigureFormat format) {
    bool gl = false;
    commands::OptionReader read(args);
    read.choice("renderer", gl, [](std::string_view name) -> Result<bool> {
        if (name == "cairo" || name == "gl") return name == "gl";
        return Error{"renderer must be cairo or gl (got " + quoteForMessage(name) + ")"};
    });
    if (!read.ok()) return read.error();
    if (!gl) return false;
    if (format != gfx::FigureFormat::Png) {
        return Error{std::string("--renderer gl draws PNG only; ") + gfx::figureFormatName(format) +
                     " is always drawn with Cairo"};
    }
    return true;
}

}  // namespace

FigureFileWriter::FigureFileWriter() = default;
FigureFileWriter::~FigureFileWriter() = default;

Result<std::string> FigureFileWriter::render(const commands::RenderView& view,
                                             const std::vector<commands::OptionSpec>& options,
                                             const commands::ArgMap& args) {
    std::string out;
    commands::OptionReader read(args);
    read.path("out", out, "--out FILE is required (.png, .svg or .pdf)");
    if (!read.ok()) return read.error();
    auto format = gfx::figureFormatFor(out);
    if (!format) return format.error();
    auto useGl = wantsGlRenderer(args, *format);
    if (!useGl) return useGl.error();
    auto built =
        commands::buildFigure(view, options, args);  // every value checked (spec_format.hpp)
    if (!built) return built.error();
    const Figure& figure = built->figure;
    const commands::RenderSettings& settings = built->settings;
    const bool transparent = args.flag("transparent");

    const char* formatName = gfx::figureFormatName(*format);
    switch (*format) {
        case gfx::FigureFormat::Svg:
            if (auto status = gfx::writeFigureSvg(figure, out); !status) return status.error();
            return "wrote " + out + " (" + formatName + ", " + sizeText(figure, 1) + ")";
        case gfx::FigureFormat::Pdf:
            if (auto status = gfx::writeFigurePdf(figure, out); !status) return status.error();
            return "wrote " + out + " (" + formatName + ", " + sizeText(figure, 1) + ")";
        case gfx::FigureFormat::Png:
            break;
    }
    if (!*useGl) {
        // Cairo draws straight alpha itself (transparent where the figure has no background).
        auto image = gfx::rasterizeFigure(figure, settings.scale);
        if (!image) return image.error();
        if (auto status = gfx::writePng(*image, out); !status) return status.error();
        return "wrote " + out + " (" + std::to_string(image->width) + " x " +
               std::to_string(image->height) + ")";
    }
    if (offscreenError_) return *offscreenError_;
    if (!offscreen_) {
        auto renderer = gfx::OffscreenRenderer::create();
        if (!renderer) {
            offscreenError_ =
                Error{"cannot render PNG without a display: " + renderer.error().message +
                      " (SVG and PDF still work)"};
            return *offscreenError_;
        }
        offscreen_ = std::move(renderer).value();
    }
    auto image = offscreen_->render(figure, settings.scale);
    if (!image) return image.error();
    ImageRgba pixels = std::move(image).value();
    // Cleared to transparent, ImGui's blending (colour: src-alpha over; alpha: one over) leaves
    // premultiplied colour with correct coverage: dividing by alpha gives an exact straight-alpha
    // PNG, the same pixels the screen would show when composited over any background.
    if (transparent) gfx::unpremultiply(pixels);
    if (auto status = gfx::writePng(pixels, out); !status) return status.error();
    return "wrote " + out + " (" + std::to_string(pixels.width) + " x " +
           std::to_string(pixels.height) + ")";
}

int runSpec(const commands::CommandRegistry& registry, const std::string& specPath) {
    // Regular files only, through InputFile: a FIFO or a device is refused at once.
    auto text = readUserTextFile(specPath, kMaxSpecBytes, "a spec");
    if (!text) {
        std::fprintf(stderr, "poslab: %s\n", commands::printable(text.error().message).c_str());
        return kExitBadInput;
    }
    auto entries = commands::readSpecText(*text, specPath, registry);
    if (!entries) {
        std::fprintf(stderr, "poslab: %s\n", commands::printable(entries.error().message).c_str());
        return kExitBadInput;
    }
    const std::size_t count = entries->size();
    if (count == 0)
        std::printf("%s lists no figures\n",
                    escapeForMessage(specPath, kMessagePathLength).c_str());
    FigureFileWriter writer;
    int failures = 0;
    for (std::size_t i = 0; i < count; ++i) {
        auto report = [&](const std::string& message) {
            std::fprintf(stderr, "poslab: figure %zu: %s\n", i + 1,
                         commands::printable(message).c_str());
            std::fflush(stderr);
            ++failures;
        };
        const Result<commands::SpecEntry>& entry = (*entries)[i];
        if (!entry) {
            report(entry.error().message);
            continue;
        }
        // A figure that throws (a bug, or memory running out) fails alone: the batch goes on.
        Result<std::string> wrote = Error{""};
        try {
            wrote =
                writer.render(*entry->view, commands::renderOptionsFor(*entry->view), entry->args);
        } catch (const std::bad_alloc&) {
            wrote = Error{"out of memory"};
        } catch (const std::exception& error) {
            wrote = Error{std::string("unexpected error: ") + error.what()};
        }
        if (!wrote) {
            report(commands::printable(wrote.error().message));
            continue;
        }
        std::printf("[%zu/%zu] %s\n", i + 1, count, commands::printable(*wrote).c_str());
        std::fflush(stdout);
    }
    if (failures > 0) {
        std::fprintf(stderr, "poslab: %d of %zu figures failed; the others were written\n",
                     failures, count);
        return kExitBadInput;
    }
    return kExitOk;
}

}  // namespace poslab::cli
