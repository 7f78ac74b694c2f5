#include "cli/spec.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cli/cli.hpp"
#include "gfx/cairo_renderer.hpp"
#include "gfx/offscreen.hpp"

namespace poslab::cli {

namespace {

std::string sizeText(const Figure& figure, float scale) {
    return std::to_string(int(std::lround(figure.width * scale))) + " x " +
           std::to_string(int(std::lround(figure.height * scale)));
}

// A JSON scalar as the text a user would type after the option.
Result<std::string> scalarText(const nlohmann::json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number_integer()) return value.dump();
    if (value.is_number_float()) {
        const double number = value.get<double>();
        // 512.0 is an integer to --seq-len; other numbers in their shortest round-trip form.
        if (std::isfinite(number) && number == std::floor(number) && std::fabs(number) < 1e15) {
            return std::to_string(static_cast<long long>(number));
        }
        char buffer[32];
        auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, number);
        if (error != std::errc()) return Error{"unprintable number"};
        return std::string(buffer, end);
    }
    return Error{"not a scalar"};
}

std::string fieldList(const std::vector<OptionSpec>& options) {
    std::string text = "view";
    for (const OptionSpec& o : options) {
        std::string field = o.name;
        std::replace(field.begin(), field.end(), '-', '_');
        text += ", " + field;
    }
    return text;
}

std::string viewNames(const CommandRegistry& registry) {
    std::string names;
    for (const RenderView& v : registry.renders) names += (names.empty() ? "" : ", ") + v.name;
    return names;
}

// "syntax error while parsing ... at line 3, column 5" without nlohmann's "[json.exception…] ".
std::string jsonMessage(const std::exception& error) {
    std::string text = error.what();
    if (text.rfind("[json.exception", 0) == 0) {
        if (auto close = text.find("] "); close != std::string::npos) text = text.substr(close + 2);
    }
    return text;
}

}  // namespace

FigureFileWriter::FigureFileWriter() = default;
FigureFileWriter::~FigureFileWriter() = default;

std::vector<OptionSpec> renderOptionsFor(const RenderView& view) {
    std::vector<OptionSpec> options = view.options;
    for (const OptionSpec& o : renderCommonOptions()) options.push_back(o);
    return options;
}

Result<std::string> FigureFileWriter::render(const RenderView& view,
                                             const std::vector<OptionSpec>& options,
                                             const ArgMap& args) {
    if (!args.has("out")) return Error{"--out FILE is required (.png, .svg or .pdf)"};
    const std::string out = *args.raw("out");
    auto format = gfx::figureFormatFor(out);
    if (!format) return format.error();
    auto settings = readRenderSettings(args);
    if (!settings) return settings.error();
    auto built = view.build(args, *settings);
    if (!built) return Error{withOptionNames(built.error().message, options)};
    Figure figure = std::move(built).value();
    const bool transparent = args.flag("transparent");
    if (transparent) figure.background = Rgba{0, 0, 0, 0};

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
    auto image = offscreen_->render(figure, settings->scale);
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

Result<ArgMap> specEntryArguments(const nlohmann::json& entry, const RenderView& view) {
    const std::vector<OptionSpec> options = renderOptionsFor(view);
    ArgMap args;
    for (const auto& [key, value] : entry.items()) {
        if (key == "view") continue;
        std::string name = key;
        std::replace(name.begin(), name.end(), '_', '-');
        auto option = std::find_if(options.begin(), options.end(),
                                   [&](const OptionSpec& o) { return o.name == name; });
        if (option == options.end()) {
            return Error{"unknown field '" + key + "' (" + view.name +
                         " takes: " + fieldList(options) + ")"};
        }
        if (option->valueName.empty()) {  // a flag
            if (!value.is_boolean())
                return Error{"field '" + key + "' must be true or false (got " + value.dump() +
                             ")"};
            if (value.get<bool>()) args.set(name, "");
            continue;
        }
        const std::string expected = "field '" + key + "' needs a number, text or list, as --" +
                                     name + " " + option->valueName + " would";
        if (value.is_array()) {
            std::string joined;
            for (const nlohmann::json& element : value) {
                auto text = scalarText(element);
                if (!text) return Error{expected + " (got " + value.dump() + ")"};
                joined += (joined.empty() ? "" : ",") + *text;
            }
            args.set(name, joined);
            continue;
        }
        auto text = scalarText(value);
        if (!text) return Error{expected + " (got " + value.dump() + ")"};
        args.set(name, *text);
    }
    return args;
}

int runSpec(const CommandRegistry& registry, const std::string& specPath) {
    std::ifstream in(specPath, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "poslab: cannot read spec '%s'\n", specPath.c_str());
        return kExitBadInput;
    }
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& error) {
        std::fprintf(stderr, "poslab: %s is not valid JSON: %s\n", specPath.c_str(),
                     jsonMessage(error).c_str());
        return kExitBadInput;
    }
    if (!document.is_array()) {
        std::fprintf(stderr,
                     "poslab: %s must hold a JSON list of figures, [{\"view\": ..., \"out\": ...}, "
                     "...] (got %s)\n",
                     specPath.c_str(), document.type_name());
        return kExitBadInput;
    }
    const std::filesystem::path folder = std::filesystem::path(specPath).parent_path();
    const std::size_t count = document.size();
    if (count == 0) std::printf("%s lists no figures\n", specPath.c_str());
    FigureFileWriter writer;
    int failures = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const nlohmann::json& entry = document[i];
        const std::string label = "figure " + std::to_string(i + 1);
        auto report = [&](const std::string& message) {
            std::fprintf(stderr, "poslab: %s: %s\n", label.c_str(), message.c_str());
            std::fflush(stderr);
            ++failures;
        };
        if (!entry.is_object()) {
            report(std::string("expected an object like {\"view\": ..., \"out\": ...} (got ") +
                   entry.type_name() + ")");
            continue;
        }
        auto viewField = entry.find("view");
        if (viewField == entry.end() || !viewField->is_string()) {
            report("field 'view' must name a view (" + viewNames(registry) + ")");
            continue;
        }
        const std::string viewName = viewField->get<std::string>();
        auto view = std::find_if(registry.renders.begin(), registry.renders.end(),
                                 [&](const RenderView& v) { return v.name == viewName; });
        if (view == registry.renders.end()) {
            report("unknown view '" + viewName + "' (views: " + viewNames(registry) + ")");
            continue;
        }
        auto args = specEntryArguments(entry, *view);
        if (!args) {
            report(args.error().message);
            continue;
        }
        if (!args->has("out")) {
            report("field 'out' is required (a .png, .svg or .pdf path)");
            continue;
        }
        const std::filesystem::path out = *args->raw("out");
        if (out.is_relative() && !folder.empty()) args.value().set("out", (folder / out).string());
        auto wrote = writer.render(*view, renderOptionsFor(*view), *args);
        if (!wrote) {
            report(wrote.error().message);
            continue;
        }
        std::printf("[%zu/%zu] %s\n", i + 1, count, wrote->c_str());
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
