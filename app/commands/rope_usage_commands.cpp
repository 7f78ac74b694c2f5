// `poslab export rope-usage` and `poslab render rope-usage`: which rotary frequencies a trained
// checkpoint's weights use (views/rope_usage_figures.hpp). Only the q and k projection rows are
// read, streamed in blocks: any checkpoint size runs in well under 512 MiB.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "commands/commands.hpp"
#include "commands/option_reader.hpp"
#include "poslab/base/format.hpp"
#include "poslab/io/output_file.hpp"
#include "poslab/views/rope_usage_figures.hpp"

namespace poslab::commands {

namespace {

std::vector<OptionSpec> sourceOptions() {
    return {{"from", "PATH",
             "the checkpoint: a folder with config.json and model.safetensors (or a sharded "
             "model.safetensors.index.json), or one of those files; required"},
            {"pairing", "NAME",
             "half (rows i, i + d/2 of a head: HF's Llama-family layout) or interleaved (rows "
             "2i, 2i + 1: GPT-J); default: as the config's model_type says"}};
}

Result<RopeUsageData> readUsage(const ArgMap& args) {
    std::string path;
    AttentionOverrides overrides;
    OptionReader read(args);
    read.path("from", path, "--from PATH is required (a checkpoint folder, index or file)");
    read.choice("pairing", overrides.pairing, parsePairing);
    if (!read.ok()) return read.error();
    return loadRopeUsage(path, overrides);
}

// numpy's .npy 1.0 header for a C-order float64 array of this shape, padded as numpy pads it.
std::string npyHeader3(std::size_t a, std::size_t b, std::size_t c) {
    std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(a) +
                       ", " + std::to_string(b) + ", " + std::to_string(c) + "), }";
    const std::size_t unpadded = 10 + dict.size() + 1;
    dict.append((64 - unpadded % 64) % 64, ' ');
    dict.push_back('\n');
    std::string header("\x93NUMPY\x01\x00", 8);
    header.push_back(char(dict.size() & 0xff));
    header.push_back(char(dict.size() >> 8));
    return header + dict;
}

// What every output says about its numbers; `arrays` adds them (the .json form).
nlohmann::ordered_json describeUsage(const RopeUsageData& data, bool arrays) {
    nlohmann::ordered_json doc;
    const RopeUsage& u = data.usage;
    doc["format"] = "poslab-rope-usage";
    doc["source"] = data.source;
    // ASCII as before ("32 heads x 128"): the figure's line sets × (U+00D7), a script reading
    // the field need not.
    std::string model = data.model;
    for (std::size_t at = model.find("×"); at != std::string::npos; at = model.find("×", at))
        model.replace(at, std::string("×").size(), "x");
    doc["model"] = model;
    doc["measure"] =
        "usage[layer][head][pair] = |W_q rows of the pair in query head| * |W_k rows of the pair "
        "in its key head| (Frobenius norms); a weights-only measure";
    doc["axes"] = {"layer", "head", "pair"};
    doc["shape"] = {u.layers, u.heads, u.pairs};
    doc["pair_order"] = "pair 0 is the fastest (theta_0 = 1 rad/token), the last the slowest";
    doc["pairing"] = std::string(pairingName(data.rope.pairing));
    doc["head_dim"] = data.rope.headDim;
    doc["rotated_dims"] = 2 * u.pairs;
    doc["rope_theta"] = data.rope.base;
    doc["training_context"] = data.trainingContext;
    doc["kv_heads"] = u.kvHeads;
    std::vector<int> keyHeads;
    for (int h = 0; h < u.heads; ++h) keyHeads.push_back(u.keyHeadOf(h));
    doc["key_head_of_query_head"] = keyHeads;
    nlohmann::ordered_json wavelengths = nlohmann::ordered_json::array();
    for (double w : data.wavelengths) {
        if (std::isfinite(w)) {
            wavelengths.push_back(w);
        } else {
            wavelengths.push_back(nullptr);
        }
    }
    doc["wavelengths"] = wavelengths;
    doc["notes"] = data.notes;
    if (!arrays) return doc;
    auto cube = [](const std::vector<double>& values, int a, int b, int c) {
        nlohmann::ordered_json out = nlohmann::ordered_json::array();
        for (int i = 0; i < a; ++i) {
            nlohmann::ordered_json plane = nlohmann::ordered_json::array();
            for (int j = 0; j < b; ++j) {
                const auto first = values.begin() + (std::ptrdiff_t(i) * b + j) * c;
                plane.push_back(std::vector<double>(first, first + c));
            }
            out.push_back(std::move(plane));
        }
        return out;
    };
    doc["usage"] = cube(u.usage, u.layers, u.heads, u.pairs);
    doc["query_norm"] = cube(u.query, u.layers, u.heads, u.pairs);
    doc["key_norm"] = cube(u.key, u.layers, u.kvHeads, u.pairs);
    return doc;
}

Status writeText(const std::string& path, const std::string& text) {
    return writeFileAtomically(path, [&](std::FILE* file) -> Status {
        if (std::fwrite(text.data(), 1, text.size(), file) != text.size()) {
            return Error{"cannot write '" + path + "'"};
        }
        return success();
    });
}

Result<std::string> exportUsage(const ArgMap& args, const std::string& out) {
    const std::string extension = fileExtension(out);
    if (extension != ".npy" && extension != ".json") {
        return Error{
            "--out must end in .npy (with a .npy.json sidecar) or .json for rope-usage "
            "(got '" +
            out + "')"};
    }
    auto data = readUsage(args);
    if (!data) return data.error();
    const RopeUsage& u = data->usage;
    const std::string shape = std::to_string(u.layers) + " x " + std::to_string(u.heads) + " x " +
                              std::to_string(u.pairs);
    if (extension == ".json") {
        if (auto s = writeText(out, describeUsage(*data, true).dump(1) + "\n"); !s) {
            return s.error();
        }
        return "wrote " + out + " (layers x heads x pairs = " + shape + ")";
    }
    const std::string sidecar = out + ".json";
    if (auto s = writeText(sidecar, describeUsage(*data, false).dump(1) + "\n"); !s) {
        return s.error();
    }
    auto status = writeFileAtomically(out, [&](std::FILE* file) -> Status {
        const std::string header =
            npyHeader3(std::size_t(u.layers), std::size_t(u.heads), std::size_t(u.pairs));
        if (std::fwrite(header.data(), 1, header.size(), file) != header.size() ||
            std::fwrite(u.usage.data(), sizeof(double), u.usage.size(), file) != u.usage.size()) {
            return Error{"cannot write '" + out + "'"};
        }
        return success();
    });
    if (!status) {
        std::remove(sidecar.c_str());
        return status.error();
    }
    return "wrote " + out + " (layers x heads x pairs = " + shape + ") and " + sidecar;
}

Result<Figure> renderUsage(const ArgMap& args, const RenderSettings& settings) {
    RopeUsageViewParams params;
    OptionReader read(args);
    read.integer("layer", params.layer, 0, 1 << 20);
    read.number("keep", params.keepFraction, 0, 1, "in (0, 1]");
    if (!read.ok()) return read.error();
    auto data = readUsage(args);
    if (!data) return data.error();
    if (auto s = validate(params, *data); !s) return s.error();
    Figure figure = emptyFigure(float(settings.width), float(settings.height), settings.theme);
    drawRopeUsage(figure, {0, 0, float(settings.width), float(settings.height)}, *data, params,
                  settings.theme);
    return figure;
}

}  // namespace

void registerRopeUsageCommands(CommandRegistry& registry) {
    ExportKind usage;
    usage.name = "rope-usage";
    usage.summary =
        "layers x heads x pairs (float64): each rotary pair's |W_q rows| x |W_k rows| in a "
        "checkpoint's weights (.npy with a .npy.json sidecar naming the axes, or .json)";
    usage.options = sourceOptions();
    usage.files = exportUsage;
    usage.formats = ".npy or .json";
    registry.exports.push_back(std::move(usage));

    std::vector<OptionSpec> renderOptions = sourceOptions();
    renderOptions.push_back(
        {"layer", "N", "the layer drawn head by head, 0..layers-1 (default 0)"});
    renderOptions.push_back(
        {"keep", "P",
         "p-RoPE fraction marked: the fastest floor(P * pairs) pairs kept, in (0, 1] (default "
         "0.75)"});
    registry.renders.push_back(
        {"rope-usage",
         "which rotary frequencies a checkpoint uses, from its q and k weights: layers x pairs, "
         "heads x pairs of one layer, usage against wavelength, the p-RoPE cut",
         renderOptions, renderUsage});
}

}  // namespace poslab::commands
