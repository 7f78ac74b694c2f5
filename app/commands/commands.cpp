// commands.hpp's GL-free part: the registry of every kind and view, and the options every render
// view takes. Kept out of cli.cpp (which writes files through gfx) so that reading a figure spec
// links without GL: the spec fuzzer (tests/fuzz/spec_fuzz.cpp) builds figures with these.
#include "commands/commands.hpp"

#include <string>

#include "poslab/figure/colormap.hpp"

namespace poslab::cli {

std::vector<OptionSpec> renderCommonOptions() {
    return {{"width", "W", "figure width in pixels, 64..8192 (default 1200)"},
            {"height", "H", "figure height in pixels, 64..8192 (default 800)"},
            {"scale", "S", "PNG: device pixels per figure pixel for HiDPI, 0.25..8 (default 1)"},
            {"theme", "NAME", "paper (white, for print; default) or dark (the screen theme)"},
            {"colormap", "NAME", "viridis, magma, cividis, twilight, blue-white-red, categorical"},
            {"transparent", "", "no background (PNG with alpha; SVG/PDF without the page fill)"},
            {"renderer", "NAME",
             "PNG: cairo (default; print quality, fast) or gl (the screen's pixels)"},
            {"out", "FILE", "output: .png, .svg or .pdf (chosen by the extension); required"}};
}

Result<RenderSettings> readRenderSettings(const ArgMap& args) {
    RenderSettings settings;
    auto width = args.integer("width", settings.width);
    if (!width) return width.error();
    auto height = args.integer("height", settings.height);
    if (!height) return height.error();
    auto scale = args.number("scale", settings.scale);
    if (!scale) return scale.error();
    if (*width < 64 || *width > 8192)
        return Error{"--width must be 64..8192 (got " + std::to_string(*width) + ")"};
    if (*height < 64 || *height > 8192)
        return Error{"--height must be 64..8192 (got " + std::to_string(*height) + ")"};
    if (!(*scale >= 0.25 && *scale <= 8))
        return Error{"--scale must be 0.25..8 (got " + *args.raw("scale") + ")"};
    if (*width * *scale > 16384 || *height * *scale > 16384) {
        return Error{"--width/--height times --scale must stay within 16384 pixels"};
    }
    settings.width = int(*width);
    settings.height = int(*height);
    settings.scale = float(*scale);
    if (auto themeName = args.raw("theme")) {
        auto theme = parseTheme(*themeName);
        if (!theme) return Error{"--" + theme.error().message};
        settings.theme = themeFor(*theme);
    }
    if (auto colormapName = args.raw("colormap")) {
        auto colormap = parseColormap(*colormapName);
        if (!colormap) return Error{"--" + colormap.error().message};
        settings.colormap = *colormap;
        settings.colormapGiven = true;
    }
    return settings;
}

CommandRegistry buildRegistry() {
    CommandRegistry registry;
    registerSinusoidalCommands(registry);
    registerRopeCommands(registry);
    registerBiasCommands(registry);
    registerUnderstandingCommands(registry);
    return registry;
}

}  // namespace poslab::cli
