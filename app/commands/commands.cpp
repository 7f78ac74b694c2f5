// commands.hpp's GL-free part: the registry of every kind and view, and the options every render
// view takes. Kept out of cli.cpp (which writes files through gfx) so that reading a figure spec
// links without GL: the spec fuzzer (tests/fuzz/spec_fuzz.cpp) builds figures with these.
#include "commands/commands.hpp"
#include "commands/option_reader.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "poslab/base/format.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/figure/figure_controls.hpp"
#include "state/encoding_registry.hpp"

namespace poslab::commands {

std::vector<OptionSpec> renderCommonOptions() {
    return {
        {"width", "W", state::kFigureWidthRange.help()},
        {"height", "H", state::kFigureHeightRange.help()},
        {"scale", "S", state::kPngScaleRange.help()},
        {"theme", "NAME", "paper (white, for print; default) or dark (the screen theme)"},
        {"colormap", "NAME", "viridis, magma, cividis, twilight, blue-white-red, categorical"},
        {"transparent", "", "no background (PNG with alpha; SVG/PDF without the page fill)"},
        {"renderer", "NAME",
         "PNG: cairo (default; print quality, fast) or gl (the screen's pixels)"},
        {"font-scale", "X", "all figure text X times its size, 0.5..3 (default 1)"},
        {"title", "TEXT", "the figure's title (one panel's with --panel) instead of the view's"},
        {"no-title", "", "no title (the plots' own titles too)"},
        {"legend", "WHERE",
         "auto (the corner hiding the least data; default), outside (right of the plot) or "
         "none"},
        {"aspect", "WHAT", "square (plot boxes as wide as tall) or auto (default)"},
        {"panel", "N",
         "only panel N (1-based) of a multi-panel view, over the whole figure; the error "
         "names the view's range"},
        {"out", "FILE", "output: .png, .svg or .pdf (chosen by the extension); required"}};
}

Result<RenderSettings> readRenderSettings(const ArgMap& args) {
    RenderSettings settings;
    double scale = settings.scale;
    OptionReader read(args);
    read.integer(state::kFigureWidthRange, settings.width);
    read.integer(state::kFigureHeightRange, settings.height);
    read.number(state::kPngScaleRange, scale);
    if (!read.ok()) return read.error();
    if (args.has("width") && !args.has("height")) {
        // --width alone keeps the default canvas's 3:2: a one-column `--width 600` is 600 x 400.
        settings.height =
            std::clamp(int(std::lround(settings.width * 2.0 / 3.0)),
                       int(state::kFigureHeightRange.low), int(state::kFigureHeightRange.high));
    }
    if (settings.width * scale > 16384 || settings.height * scale > 16384) {
        return Error{"--width/--height times --scale must stay within 16384 pixels"};
    }
    settings.scale = float(scale);
    double fontScale = 1;
    read.number("font-scale", fontScale, kMinFontScale, kMaxFontScale,
                formatValue(kMinFontScale) + ".." + formatValue(kMaxFontScale));
    read.choice("legend", settings.theme.legend, parseLegendPlacement);
    read.choice("aspect", settings.theme.aspect, parseAspect);
    // Any int: 0 and below are refused with the view's own range once it is built (spec_format).
    read.integer("panel", settings.theme.focusPanel, -(1 << 30), 1 << 30);
    if (!read.ok()) return read.error();
    if (args.has("title") && args.flag("no-title"))
        return Error{"--title and --no-title go separately (choose one)"};
    std::optional<std::string> title;
    read.text("title", title);
    if (title) {
        // Cairo refuses invalid UTF-8 only when drawing ("drawing failed: ..."): say which option.
        if (escapeForMessage(*title, std::string::npos) != *title) {
            return Error{"--title must be UTF-8 text without control characters (got " +
                         quoteForMessage(*title) + ")"};
        }
        settings.theme.titleMode = TitleMode::Replace;
        settings.theme.titleText = *title;
    } else if (args.flag("no-title")) {
        settings.theme.titleMode = TitleMode::Hidden;
    }
    std::optional<ThemeId> theme;
    read.choice("theme", theme, parseTheme);
    if (!read.ok()) return read.error();
    if (theme) {
        const Theme controls = settings.theme;  // the paper controls read above
        settings.theme = themeFor(*theme);
        settings.theme.legend = controls.legend;
        settings.theme.aspect = controls.aspect;
        settings.theme.focusPanel = controls.focusPanel;
        settings.theme.titleMode = controls.titleMode;
        settings.theme.titleText = controls.titleText;
    }
    settings.theme = forFiles(settings.theme, float(fontScale));  // paper: sized for print
    read.choice("colormap", settings.colormap, parseColormap);
    if (!read.ok()) return read.error();
    settings.colormapGiven = args.has("colormap");
    return settings;
}

CommandRegistry buildRegistry() {
    CommandRegistry registry;
    registerSinusoidalCommands(registry);
    registerRopeCommands(registry);
    registerVisionRopeCommands(registry);
    registerBiasCommands(registry);
    registerUnderstandingCommands(registry);
    registerRopeUsageCommands(registry);
    for (const state::EncodingPlugin& plugin : state::encodingPlugins()) {
        if (plugin.registerCommands) plugin.registerCommands(registry);
    }
    return registry;
}

ExportKind matrixExport(std::string name, std::string summary, std::vector<OptionSpec> options,
                        std::function<Result<Matrix>(const ArgMap&)> compute) {
    ExportKind kind;
    kind.name = std::move(name);
    kind.summary = std::move(summary);
    kind.options = std::move(options);
    kind.compute = std::move(compute);
    return kind;
}

RenderView renderView(std::string name, std::string summary, std::vector<OptionSpec> options,
                      std::function<Result<Figure>(const ArgMap&, const RenderSettings&)> build) {
    RenderView view;
    view.name = std::move(name);
    view.summary = std::move(summary);
    view.options = std::move(options);
    view.build = std::move(build);
    return view;
}

Figure figureFor(const RenderSettings& settings) {
    return emptyFigure(float(settings.width), float(settings.height), settings.theme);
}

std::vector<OptionSpec> joinOptions(std::vector<OptionSpec> a, const std::vector<OptionSpec>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

Status requireOption(const ArgMap& args, const std::string& name, const std::string& valueName) {
    if (!args.has(name)) return Error{"--" + name + " " + valueName + " is required"};
    return success();
}

}  // namespace poslab::commands
