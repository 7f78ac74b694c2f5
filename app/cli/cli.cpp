#include "cli/cli.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "cli/manual.hpp"
#include "cli/spec.hpp"
#include "commands/commands.hpp"
#include "commands/launch_options.hpp"
#include "commands/option_reader.hpp"
#include "gfx/image_io.hpp"
#include "gfx/offscreen.hpp"
#include "poslab/base/format.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/io/matrix_export.hpp"
#include "poslab/io/output_file.hpp"
#include "state/share_link.hpp"

namespace poslab::cli {

namespace {

int fail(const std::string& message) {
    std::fprintf(stderr, "poslab: %s\n",
                 escapeForMessage(message, commands::kMessageLineLength).c_str());
    return kExitBadInput;
}

bool isHelp(const std::string& a) {
    return a == "--help" || a == "-h" || a == "help";
}

// `poslab FILE` opens FILE in the window (the desktop entry's %f): anything that exists, or that
// names one of the types the window reads, so a missing file gets the GUI's own message.
bool looksLikeFileToOpen(const std::string& word) {
    if (state::isLinkAddress(word)) return true;  // a link to the web build (state/share_link.hpp)
    std::error_code error;
    if (std::filesystem::exists(word, error)) return true;
    const std::string extension = fileExtension(word);  // lower case: X.JSON opens as x.json does
    return extension == ".json" || extension == ".npy" || extension == ".safetensors";
}

// RFC 4180: a cell with a comma, a quote or a line break is quoted, its quotes doubled.
std::string csvCell(const std::string& cell) {
    if (cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
    std::string quoted = "\"";
    for (char c : cell) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

Status saveTextTable(const commands::TextTable& table, const std::string& path) {
    if (fileExtension(path) != ".csv") {
        return Error{"--out must end in .csv for this export, a table of text (got " +
                     quoteForMessage(path, kMessagePathLength) + ")"};
    }
    return writeFileAtomically(path, [&](std::FILE* file) -> Status {
        auto line = [&](const std::vector<std::string>& cells) {
            std::string text;
            for (std::size_t i = 0; i < cells.size(); ++i) {
                if (i > 0) text += ',';
                text += csvCell(cells[i]);
            }
            text += "\n";
            return std::fwrite(text.data(), 1, text.size(), file) == text.size();
        };
        if (!line(table.header)) return Error{"cannot write '" + path + "'"};
        for (const auto& row : table.rows) {
            if (!line(row)) return Error{"cannot write '" + path + "'"};
        }
        return success();
    });
}

commands::OptionSpec outOption(const std::string& formats) {
    return {"out", "FILE", "output file (" + formats + ", chosen by the extension); required"};
}

std::string exportHelp(const commands::CommandRegistry& registry) {
    std::string text =
        "Usage: poslab export KIND [options] --out FILE.csv|FILE.npy\n"
        "       poslab export rope-info --config FILE --out FILE.json\n\n"
        "Writes the numbers behind a view. CSV: one row per line, no header, shortest\n"
        "round-trip decimals, inf/-inf/nan spelled out. NPY: float64, C order, what\n"
        "numpy.load reads. rope-info writes JSON. Files are written to a temporary and\n"
        "renamed, so a failed export never leaves a partial file. Exit code 2 on bad\n"
        "input.\n\nKinds:\n";
    for (const commands::ExportKind& kind : registry.exports) {
        std::vector<commands::OptionSpec> options = kind.options;
        options.push_back(outOption(kind.outFormats()));
        text +=
            "\n" + kind.name + " — " + kind.summary + "\n" + commands::formatOptionHelp(options);
    }
    return text;
}

std::string renderHelp(const commands::CommandRegistry& registry) {
    std::string text =
        "Usage: poslab render VIEW [options] --out FILE.png|FILE.svg|FILE.pdf\n"
        "       poslab render --spec FIGURES.json\n\n"
        "Draws a view's figure (title, axes, colour bar) exactly as the GUI does, with no\n"
        "window and no X server. SVG and PDF: vector, drawn with Cairo, text as text.\n"
        "PNG: --renderer cairo (default) draws with Cairo too, the print path: the pixels\n"
        "the PDF rasterises to, text anti-aliased by FreeType, and no GL start-up (about\n"
        "a tenth of a second less per process). --renderer gl draws with the screen's own\n"
        "renderer (Dear ImGui over OpenGL through EGL's Mesa surfaceless platform):\n"
        "exactly the pixels the GUI shows, e.g. to match screenshots.\n\n"
        "--spec renders a batch: a JSON list of objects, each with \"view\", \"out\" and the\n"
        "view's options with underscores, e.g.\n"
        "  [{\"view\": \"sinusoidal\", \"d_model\": 128, \"seq_len\": 512, \"out\": "
        "\"fig1.pdf\"}]\n"
        "Numbers may be JSON numbers, flags true/false, lists JSON arrays. Relative \"out\"\n"
        "paths are relative to the spec file. A bad figure is reported by number and field,\n"
        "the others are still written; the exit code is then 2.\n\n"
        "Options every view takes:\n" +
        commands::formatOptionHelp(commands::renderCommonOptions()) + "\nViews:\n";
    for (const commands::RenderView& view : registry.renders) {
        text += "\n" + view.name + " — " + view.summary + "\n" +
                commands::formatOptionHelp(view.options);
    }
    return text;
}

// A path in a success line: escaped (no control byte reaches the terminal), never cut.
std::string shownPath(const std::string& path) {
    return escapeForMessage(path, kMessagePathLength);
}

int runExport(const commands::CommandRegistry& registry,
              const std::vector<std::string>& arguments) {
    if (arguments.size() < 2) {  // a mistake: the usage goes to stderr, as every error does
        std::fputs(exportHelp(registry).c_str(), stderr);
        return kExitBadInput;
    }
    if (isHelp(arguments[1])) {
        std::fputs(exportHelp(registry).c_str(), stdout);
        return kExitOk;
    }
    const std::string& name = arguments[1];
    auto kind = std::find_if(registry.exports.begin(), registry.exports.end(),
                             [&](const commands::ExportKind& k) { return k.name == name; });
    if (kind == registry.exports.end()) {
        std::string names;
        for (const commands::ExportKind& k : registry.exports)
            names += (names.empty() ? "" : ", ") + k.name;
        return fail("unknown export kind " + quoteForMessage(name) + " (kinds: " + names + ")");
    }
    std::vector<commands::OptionSpec> options = kind->options;
    options.push_back(outOption(kind->outFormats()));
    const std::vector<std::string> rest(arguments.begin() + 2, arguments.end());
    for (const std::string& a : rest) {
        if (isHelp(a)) {
            std::printf("Usage: poslab export %s [options] --out FILE\n%s\n\n%s", name.c_str(),
                        kind->summary.c_str(), commands::formatOptionHelp(options).c_str());
            return kExitOk;
        }
    }
    const std::string command = "poslab export " + name;
    auto args = commands::parseArguments(rest, options, command);
    if (!args) return fail(args.error().message);
    std::string out;
    commands::OptionReader read(*args);
    read.path("out", out, "--out FILE is required (" + std::string(kind->outFormats()) + ")");
    if (!read.ok()) return fail(read.error().message);
    if (kind->files) {
        auto line = kind->files(*args, out);
        if (!line) return fail(commands::withOptionNames(line.error().message, options));
        std::printf("%s\n", line->c_str());
        return kExitOk;
    }
    if (kind->document) {
        if (fileExtension(out) != ".json") {
            return fail("--out must end in .json for " + name + " (got " +
                        quoteForMessage(out, kMessagePathLength) + ")");
        }
        auto text = kind->document(*args);
        if (!text) return fail(commands::withOptionNames(text.error().message, options));
        auto status = writeFileAtomically(out, [&](std::FILE* file) -> Status {
            if (std::fwrite(text->data(), 1, text->size(), file) != text->size()) {
                return Error{"cannot write '" + out + "'"};
            }
            return success();
        });
        if (!status) return fail(status.error().message);
        std::printf("wrote %s\n", shownPath(out).c_str());
        return kExitOk;
    }
    if (kind->text) {
        auto table = kind->text(*args);
        if (!table) return fail(commands::withOptionNames(table.error().message, options));
        if (auto status = saveTextTable(*table, out); !status) return fail(status.error().message);
        std::printf("wrote %s (%zu rows)\n", shownPath(out).c_str(), table->rows.size());
        return kExitOk;
    }
    if (auto status = checkMatrixExtension(out); !status) return fail(status.error().message);
    if (kind->stream) {
        auto stream = kind->stream(*args);
        if (!stream) return fail(commands::withOptionNames(stream.error().message, options));
        if (auto status = saveMatrixStreaming(out, stream->rows, stream->cols, stream->produce);
            !status) {
            return fail(status.error().message);
        }
        std::printf("wrote %s (%zu x %zu)\n", shownPath(out).c_str(), stream->rows, stream->cols);
        return kExitOk;
    }
    auto matrix = kind->compute(*args);
    if (!matrix) return fail(commands::withOptionNames(matrix.error().message, options));
    if (auto status = saveMatrix(*matrix, out); !status) return fail(status.error().message);
    std::printf("wrote %s (%zu x %zu)\n", shownPath(out).c_str(), matrix->rows, matrix->cols);
    return kExitOk;
}

int runRender(const commands::CommandRegistry& registry,
              const std::vector<std::string>& arguments) {
    if (arguments.size() < 2) {
        std::fputs(renderHelp(registry).c_str(), stderr);
        return kExitBadInput;
    }
    if (isHelp(arguments[1])) {
        std::fputs(renderHelp(registry).c_str(), stdout);
        return kExitOk;
    }
    if (arguments[1] == "--spec" || arguments[1].rfind("--spec=", 0) == 0) {
        const bool inlinePath = arguments[1].size() > 6;
        if (arguments.size() != (inlinePath ? 2u : 3u))
            return fail("usage: poslab render --spec FIGURES.json (nothing else)");
        return runSpec(registry, inlinePath ? arguments[1].substr(7) : arguments[2]);
    }
    const std::string& name = arguments[1];
    auto view = std::find_if(registry.renders.begin(), registry.renders.end(),
                             [&](const commands::RenderView& v) { return v.name == name; });
    if (view == registry.renders.end()) {
        std::string names;
        for (const commands::RenderView& v : registry.renders)
            names += (names.empty() ? "" : ", ") + v.name;
        return fail("unknown view " + quoteForMessage(name) + " (views: " + names + ")");
    }
    std::vector<commands::OptionSpec> options = view->options;
    for (const commands::OptionSpec& o : commands::renderCommonOptions()) options.push_back(o);
    const std::vector<std::string> rest(arguments.begin() + 2, arguments.end());
    for (const std::string& a : rest) {
        if (isHelp(a)) {
            std::printf("Usage: poslab render %s [options] --out FILE.png|.svg|.pdf\n%s\n\n%s",
                        name.c_str(), view->summary.c_str(),
                        commands::formatOptionHelp(options).c_str());
            return kExitOk;
        }
    }
    auto args = commands::parseArguments(rest, options, "poslab render " + name);
    if (!args) return fail(args.error().message);
    FigureFileWriter writer;  // PNG through EGL/ImGui, SVG and PDF through Cairo (spec.hpp)
    auto wrote = writer.render(*view, options, *args);
    if (!wrote) return fail(wrote.error().message);
    std::printf("%s\n", commands::printable(*wrote).c_str());
    return kExitOk;
}

}  // namespace

// renderCommonOptions, readRenderSettings and buildRegistry: commands.cpp (GL-free).

std::string mainHelp() {
    return "PosLab " POSLAB_VERSION
           " — see how transformers encode token position.\n\n"
           "Usage:\n"
           "  poslab [options] [FILE]     start the GUI; FILE (config.json, .npy, session) opens\n"
           "                              in the view that reads it\n"
           "  poslab export KIND [...]    write a matrix as CSV or NPY, or a config's RoPE as "
           "JSON\n"
           "                              (poslab export --help)\n"
           "  poslab render VIEW [...]    draw a figure to PNG, SVG or PDF, no display needed "
           "(poslab render --help)\n"
           "  poslab render --spec F.json render a batch of figures listed in a JSON file\n"
           "  poslab --help               this text\n"
           "  poslab --version            the version\n"
           "  poslab --manual             the man page (roff)\n"
           "  poslab --completions SHELL  the completion script for bash or zsh\n\n"
           "GUI options:\n" +
           commands::formatOptionHelp(commands::launchOptionSpecs());
}

bool wantsCommandLine(const std::vector<std::string>& arguments) {
    if (arguments.empty()) return false;
    const std::string& first = arguments[0];
    if (first == "export" || first == "render" || isHelp(first) || first == "--version" ||
        first == "--manual" || first == "--completions") {
        return true;
    }
    // A first word that is not an option: a file to open in the window, or a mistyped command.
    return first.rfind("--", 0) != 0 && !looksLikeFileToOpen(first);
}

namespace {

int runCommand(const std::vector<std::string>& arguments) {
    const std::string& command = arguments[0];
    if (isHelp(command)) {
        std::fputs(mainHelp().c_str(), stdout);
        return kExitOk;
    }
    if (command == "--version") {
        if (arguments.size() > 1) return fail("--version takes no arguments");
        std::puts("poslab " POSLAB_VERSION);
        return kExitOk;
    }
    const commands::CommandRegistry registry = commands::buildRegistry();
    if (command == "--manual") {
        if (arguments.size() > 1) return fail("--manual takes no arguments");
        std::fputs(manualPage(registry, commands::launchOptionSpecs(), POSLAB_VERSION).c_str(),
                   stdout);
        return kExitOk;
    }
    if (command == "--completions") {
        if (arguments.size() != 2) return fail("usage: poslab --completions bash|zsh");
        auto script = completionScript(registry, commands::launchOptionSpecs(), arguments[1]);
        if (!script) return fail(script.error().message);
        std::fputs(script->c_str(), stdout);
        return kExitOk;
    }
    if (command == "export") return runExport(registry, arguments);
    if (command == "render") return runRender(registry, arguments);
    return fail("unknown command " + quoteForMessage(command) +
                " (commands: export, render; a file to open must exist; see poslab --help)");
}

}  // namespace

int runCommandLine(const std::vector<std::string>& arguments) {
    // The command boundary: whatever a reader or a builder throws (memory running out, a bug)
    // ends in one line and exit code 2, never in std::terminate's abort.
    try {
        return runCommand(arguments);
    } catch (const std::bad_alloc&) {
        return fail("out of memory");
    } catch (const std::exception& error) {
        return fail(std::string("unexpected error: ") + error.what());
    }
}

}  // namespace poslab::cli
