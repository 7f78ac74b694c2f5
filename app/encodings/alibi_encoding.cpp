// alibi_encoding.cpp — ALiBi registered as a plug-in (state/encoding_registry.hpp): its view
// state's session section, its `poslab export alibi-slopes|alibi-bias` and `poslab render alibi`,
// and its panel (panels/alibi_panel.*), placed after the Vision RoPE tab. Nothing else in the app
// names ALiBi: this file is found by the app/encodings/ glob.
#include <algorithm>
#include <memory>

#include "commands/commands.hpp"
#include "commands/option_reader.hpp"
#include "panels/alibi_panel.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/views/alibi_figures.hpp"
#include "state/bias_state.hpp"
#include "state/encoding_registry.hpp"
#include "state/ranges.hpp"
#include "state/session_fields.hpp"

namespace poslab {

// ---- Session section: the fields, listed once, and what the descriptors alone do not check
namespace state {

inline constexpr state::EnumCodec<ColormapId> kAlibiColormapCodec{colormapName, parseColormap};

// In the state struct's namespace: pluginStateType finds it by argument-dependent lookup.
template <class F, Is<state::AlibiViewState> V>
void visitFields(F& f, V& v) {
    f.parameter(kAlibiHeadsParam, v.heads);
    f.integer("seqLen", v.seqLen);
    f.boolean("symmetric", v.symmetric);
    f.integer("enlargedHead", v.enlargedHead);
    f.integer("queryIndex", v.queryIndex);
    f.integer("previewKeys", v.previewKeys);
    f.boolean("randomContent", v.randomContent);
    f.integer("contentSeed", v.contentSeed);
    f.number("contentScale", v.contentScale);
    f.name("colormap", v.colormap, kAlibiColormapCodec);
}

namespace {

Status validateAlibiView(const state::AlibiViewState& v) {
    if (auto s = requireIntInRange("seqLen", v.seqLen, 1, kMaxGuiSeqLen); !s) return s;
    if (auto s = requireIntInRange("enlargedHead", v.enlargedHead, 0, v.heads - 1); !s) return s;
    if (auto s = requireIntInRange("queryIndex", v.queryIndex, 0, kMaxGuiSeqLen); !s) return s;
    if (auto s = requireIntInRange("previewKeys", v.previewKeys, 0, kMaxGuiSeqLen); !s) return s;
    return requireInRange("contentScale", v.contentScale, 0, 1e3);
}

}  // namespace
}  // namespace state

// ---- Commands
namespace encodings {
namespace {

std::vector<commands::OptionSpec> alibiBiasOptions() {
    return {{"heads", "N", state::kAlibiHeadsRange.help("(sets the slopes); required")},
            {"head", "H", "which head's slope, 0..N-1 (fairseq's order); required"},
            {"seq-len", "L", "rows and columns, 1..1048576 within the memory cap; required"},
            {"symmetric", "", "-m|i - j| with no mask (encoder form) instead of causal"}};
}

Result<AlibiFigureOptions> readAlibiFigureOptions(const commands::ArgMap& args) {
    AlibiFigureOptions options;
    options.heads = 8;
    options.seqLen = 32;
    options.enlargedHead = 0;
    options.queryIndex = -1;  // the last row
    options.previewKeys = 0;
    options.contentScale = 0;
    options.contentSeed = 0;
    commands::OptionReader read(args);
    read.wideInt("heads", options.heads);
    read.wideInt("seq-len", options.seqLen);
    read.wideInt("head", options.enlargedHead);
    read.wideInt("query", options.queryIndex);
    read.wideInt("preview-keys", options.previewKeys);
    read.number("content-scale", options.contentScale);
    read.seed("content-seed", options.contentSeed);
    if (!read.ok()) return read.error();
    options.symmetric = args.flag("symmetric");
    if (args.has("query") && options.queryIndex < 0) {
        return Error{"query must be 0.." + std::to_string(std::max(0, options.seqLen - 1)) +
                     " (got " + std::to_string(options.queryIndex) + ")"};
    }
    if (auto status = validate(options); !status) return status.error();
    return options;
}

void registerAlibiCommands(commands::CommandRegistry& registry) {
    registry.exports.push_back(commands::matrixExport(
        "alibi-slopes", "N x 1: the slope of each head, one row per head in fairseq's order",
        {{"heads", "N",
          std::string(state::kAlibiHeadsRange.meaning) + ", " +
              state::kAlibiHeadsRange.rangeText() + "; required"}},
        [](const commands::ArgMap& args) -> Result<Matrix> {
            if (auto s = commands::requireOption(args, "heads", "N"); !s) return s.error();
            AlibiParams params;
            params.heads = 8;
            params.seqLen = 1;
            commands::OptionReader read(args);
            read.wideInt("heads", params.heads);
            if (!read.ok()) return read.error();
            if (auto status = validate(params); !status) return status.error();
            const std::vector<double> slopes = alibiSlopes(params.heads);
            Matrix matrix(slopes.size(), 1);
            matrix.values = slopes;
            return matrix;
        }));

    registry.exports.push_back(commands::matrixExport(
        "alibi-bias", "L x L bias of one head, row = query i, column = key j; masked cells -inf",
        alibiBiasOptions(), [](const commands::ArgMap& args) -> Result<Matrix> {
            for (auto [name, value] : {std::pair{"heads", "N"}, {"head", "H"}, {"seq-len", "L"}}) {
                if (auto s = commands::requireOption(args, name, value); !s) return s.error();
            }
            AlibiParams params;
            params.heads = 8;
            params.head = 0;
            params.seqLen = 32;
            commands::OptionReader read(args);
            read.wideInt("heads", params.heads);
            read.wideInt("head", params.head);
            read.wideInt("seq-len", params.seqLen);
            if (!read.ok()) return read.error();
            params.symmetric = args.flag("symmetric");
            return alibiBias(params);
        }));

    std::vector<commands::OptionSpec> alibiRender = {
        {"heads", "N", state::kAlibiHeadsRange.help()},
        {"seq-len", "L", "rows and columns of each bias matrix, 1..1048576 (default 32)"},
        {"symmetric", "", "-m|i - j| with no mask (encoder form) instead of causal"},
        {"head", "H", "the head drawn large, 0..N-1 (default 0)"},
        {"query", "I", "the query row of the attention preview, 0..L-1 (default L-1)"},
        {"preview-keys", "K", "keys in the preview, ending at the query; 0 = all (default 0)"},
        {"content-scale", "S",
         "content logits ~ S * N(0, 1) added to the bias, 0..100 (default 0)"},
        {"content-seed", "SEED", "seed of the content logits (default 0)"}};
    registry.renders.push_back(commands::renderView(
        "alibi",
        "every head's bias as a grid, one head enlarged, slopes per head, attention preview",
        alibiRender,
        [](const commands::ArgMap& args,
           const commands::RenderSettings& settings) -> Result<Figure> {
            auto read = readAlibiFigureOptions(args);
            if (!read) return read.error();
            AlibiFigureOptions options = *read;
            if (settings.colormapGiven) options.colormap = settings.colormap;
            Figure figure = commands::figureFor(settings);
            if (auto s = drawAlibiFigure(figure, {0, 0, figure.width, figure.height}, options,
                                         settings.theme);
                !s) {
                return s.error();
            }
            return figure;
        }));
}

}  // namespace
}  // namespace encodings

// ---- Registration
namespace encodings {

POSLAB_REGISTER_ENCODING(alibi) {
    state::EncodingPlugin plugin;
    plugin.key = state::kAlibiKey;
    plugin.after = "Vision RoPE";
    plugin.state = state::pluginStateType<state::AlibiViewState>(state::validateAlibiView);
    plugin.registerCommands = registerAlibiCommands;
    plugin.makePanel = [] {
        return std::unique_ptr<ui::Panel>(std::make_unique<panels::AlibiPanel>());
    };
    return plugin;
}

}  // namespace encodings
}  // namespace poslab
