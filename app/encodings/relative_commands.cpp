// `poslab export xpos|kerple|sandwich|fire` and
// `poslab render relative-family|xpos|kerple|sandwich|fire`: the relative-position family
// (encodings/xpos, kerple, sandwich, fire; views/relative_figures).
#include <string>
#include <vector>

#include "commands/commands.hpp"
#include "commands/option_reader.hpp"
#include "poslab/encodings/fire.hpp"
#include "poslab/encodings/kerple.hpp"
#include "poslab/encodings/sandwich.hpp"
#include "poslab/encodings/xpos.hpp"
#include "poslab/views/relative_figures.hpp"

namespace poslab::encodings {

namespace {

constexpr const char* kSeqLenExportHelp =
    "rows (queries i) and columns (keys j), 1..1048576 within the memory cap; required";

// ---- Options of each encoding (export and render read the same lists)
std::vector<commands::OptionSpec> xposOptions() {
    return {{"head-dim", "D", "head dimension d, even, 2..8192 (default 64)"},
            {"gamma", "G", "zeta_i = (2i/d + gamma)/(1 + gamma), 0..10 (default 0.4)"},
            {"scale-base", "B", "scale_base: zeta^(distance / B), 1..1e9 (default 512)"},
            {"base", "X", "rotation base, > 1 (default 10000)"}};
}
std::vector<commands::OptionSpec> kerpleOptions(bool withKernel) {
    std::vector<commands::OptionSpec> options;
    if (withKernel) options.push_back({"kernel", "NAME", "power or log (default log)"});
    options.push_back({"r1", "X",
                       "scale outside the kernel, 0..1000, clamped to >= 0.01 as the authors' "
                       "code does (default 1)"});
    options.push_back({"r2", "X",
                       "power: exponent, clamped to 0.01..2; log: scale inside, clamped to "
                       ">= 0.01; 0..1000 (default 1)"});
    return options;
}
std::vector<commands::OptionSpec> sandwichOptions() {
    return {{"sandwich-dim", "D", "Sandwich: d of the sinusoids, even, 2..8192 (default 128)"},
            {"sandwich-heads", "H", "Sandwich: heads H, 1..128 (default 8)"},
            {"sandwich-head", "K", "Sandwich: head, 0..H-1, compression 8 (K + 1)/H (default 0)"}};
}
std::vector<commands::OptionSpec> fireOptions() {
    return {{"c", "X", "FIRE: psi(x) = log(c x + 1), 1e-6..1000 (default 0.1)"},
            {"threshold", "L", "FIRE: normaliser psi(max(i, L)), 1..1e9 (default 512)"},
            {"mlp-width", "W", "FIRE: hidden units of the MLP, 1..1024 (default 32)"},
            {"fire-heads", "H", "FIRE: MLP outputs, 1..128 (default 8)"},
            {"fire-head", "K", "FIRE: which output, 0..H-1 (default 0)"},
            {"seed", "S", "FIRE: seed of the MLP's weights, >= 0 (default 0)"}};
}

void readXpos(commands::OptionReader& read, XposParams& p) {
    read.coreInt("head-dim", p.headDim, "head_dim", 2, kMaxDModel);
    read.number("gamma", p.gamma);
    read.number("scale-base", p.scaleBase);
    read.number("base", p.base);
}
void readKerple(commands::OptionReader& read, KerpleParams& p) {
    read.number("r1", p.r1);
    read.number("r2", p.r2);
}
void readSandwich(commands::OptionReader& read, SandwichParams& p) {
    read.coreInt("sandwich-dim", p.headDim, "head_dim", 2, kMaxDModel);
    read.coreInt("sandwich-heads", p.heads, "heads", 1, kMaxSandwichHeads);
    read.coreInt("sandwich-head", p.head, "head", 0, kMaxSandwichHeads - 1);
}
void readFire(commands::OptionReader& read, FireParams& p) {
    read.number("c", p.c);
    read.number("threshold", p.threshold);
    read.coreInt("mlp-width", p.mlpWidth, "mlp_width", 1, kMaxFireMlpWidth);
    read.coreInt("fire-heads", p.heads, "heads", 1, kMaxFireHeads);
    read.coreInt("fire-head", p.head, "head", 0, kMaxFireHeads - 1);
    read.seed(p.seed);
}

Result<int> requiredLength(const commands::ArgMap& args) {
    if (!args.has("seq-len")) return Error{"--seq-len L is required"};
    int length = 0;
    commands::OptionReader read(args);
    read.coreInt("seq-len", length, "seq_len", 1, kMaxSeqLen);
    if (!read.ok()) return read.error();
    return length;
}

Result<KerpleKernel> parseKerpleKernel(std::string_view text) {
    return parseEnum(kKerpleKernelNames, text, "kernel");
}

// ---- Render: one option list for every tab, so a command line can switch tabs unchanged
std::vector<commands::OptionSpec> relativeRenderOptions() {
    std::vector<commands::OptionSpec> options = {
        {"seq-len", "L",
         "L of the matrices and the reach of the distance axes, 2..1048576 "
         "(default 2048)"},
        {"training-length", "T", "marked on the distance axes, 1..1048576 (default 512)"},
        {"log-distance", "", "family curves: log distance axis"},
        {"bias-floor", "Y", "family curves: lowest value shown, -1e6..-0.1 (default -20)"},
        {"power-r1", "X", "KERPLE power: scale r1 (default 0.5)"},
        {"power-r2", "X", "KERPLE power: exponent r2, clamped to 0.01..2 (default 0.8)"},
        {"log-r1", "X", "KERPLE log: scale r1 (default 1)"},
        {"log-r2", "X", "KERPLE log: scale inside r2 (default 1)"},
        {"alibi-heads", "N", "the ALiBi curve: heads, 1..128 (default 8)"},
        {"alibi-head", "K", "the ALiBi curve: head, 0..N-1 (default 0)"},
        {"t5-seed", "S", "the T5 curve: seed of its bucket values (default 0)"}};
    for (auto list : {xposOptions(), sandwichOptions(), fireOptions()})
        options.insert(options.end(), list.begin(), list.end());
    return options;
}

Result<RelativeFigureOptions> readRelativeOptions(const commands::ArgMap& args) {
    RelativeFigureOptions o;
    commands::OptionReader read(args);
    read.coreInt("seq-len", o.seqLen, "seq_len", 2, kMaxSeqLen);
    read.coreInt("training-length", o.trainingLength, "training_length", 1, kMaxSeqLen);
    read.number("bias-floor", o.biasFloor);
    read.number("power-r1", o.kerplePower.r1);
    read.number("power-r2", o.kerplePower.r2);
    read.number("log-r1", o.kerpleLog.r1);
    read.number("log-r2", o.kerpleLog.r2);
    read.coreInt("alibi-heads", o.alibiHeads, "alibi_heads", 1, kMaxAlibiHeads);
    read.coreInt("alibi-head", o.alibiHead, "alibi_head", 0, kMaxAlibiHeads - 1);
    readXpos(read, o.xpos);
    readSandwich(read, o.sandwich);
    readFire(read, o.fire);
    read.seed("t5-seed", o.t5Seed);
    if (!read.ok()) return read.error();
    o.logDistance = args.flag("log-distance");
    if (auto s = validate(o); !s) return s.error();
    return o;
}

commands::RenderView relativeRender(std::string name, std::string summary, RelativeTab tab) {
    commands::RenderView view;
    view.name = std::move(name);
    view.summary = std::move(summary);
    view.options = relativeRenderOptions();
    view.build = [tab](const commands::ArgMap& args,
                       const commands::RenderSettings& settings) -> Result<Figure> {
        auto options = readRelativeOptions(args);
        if (!options) return options.error();
        Figure figure = emptyFigure(float(settings.width), float(settings.height), settings.theme);
        if (auto s = drawRelativeFigure(figure, {0, 0, figure.width, figure.height}, *options, tab,
                                        settings.theme);
            !s) {
            return s.error();
        }
        return figure;
    };
    return view;
}

}  // namespace

void registerRelativeCommands(commands::CommandRegistry& registry) {
    // ---- Exports: causal L x L matrices, row = query i, column = key j, -inf after the query
    std::vector<commands::OptionSpec> xposExport = {{"seq-len", "L", kSeqLenExportHelp}};
    for (auto& o : xposOptions()) xposExport.push_back(o);
    registry.exports.push_back(commands::matrixExport(
        "xpos", "L x L xPos scores q_i . k_j for q = k = ones (torchscale XPOS), -inf for j > i",
        xposExport, [](const commands::ArgMap& args) -> Result<Matrix> {
            auto length = requiredLength(args);
            if (!length) return length.error();
            XposParams p;
            commands::OptionReader read(args);
            readXpos(read, p);
            if (!read.ok()) return read.error();
            return xposScoreMatrix(p, *length);
        }));

    std::vector<commands::OptionSpec> kerpleExport = {{"seq-len", "L", kSeqLenExportHelp}};
    for (auto& o : kerpleOptions(true)) kerpleExport.push_back(o);
    registry.exports.push_back(
        commands::matrixExport("kerple",
                               "L x L KERPLE bias, -r1 (i-j)^r2 or -r1 log(1 + r2 "
                               "(i-j)) (authors' clamps), -inf for j > i",
                               kerpleExport, [](const commands::ArgMap& args) -> Result<Matrix> {
                                   auto length = requiredLength(args);
                                   if (!length) return length.error();
                                   KerpleParams p;
                                   commands::OptionReader read(args);
                                   read.choice("kernel", p.kernel, parseKerpleKernel);
                                   readKerple(read, p);
                                   if (!read.ok()) return read.error();
                                   return kerpleBiasMatrix(p, *length);
                               }));

    std::vector<commands::OptionSpec> sandwichExport = {
        {"seq-len", "L", kSeqLenExportHelp},
        {"head-dim", "D", "d of the sinusoids, even, 2..8192 (default 128)"},
        {"heads", "H", "heads, 1..128 (default 8)"},
        {"head", "K", "head, 0..H-1: compression 8 (K + 1)/H (default 0)"}};
    registry.exports.push_back(commands::matrixExport(
        "sandwich",
        "L x L Sandwich bias (sum_{i=1..d/2} cos((i-j) 10000^(-2i/d)) - d/2) / (8 (K+1)/H), -inf "
        "for j > i",
        sandwichExport, [](const commands::ArgMap& args) -> Result<Matrix> {
            auto length = requiredLength(args);
            if (!length) return length.error();
            SandwichParams p;
            commands::OptionReader read(args);
            read.coreInt("head-dim", p.headDim, "head_dim", 2, kMaxDModel);
            read.coreInt("heads", p.heads, "heads", 1, kMaxSandwichHeads);
            read.coreInt("head", p.head, "head", 0, kMaxSandwichHeads - 1);
            if (!read.ok()) return read.error();
            return sandwichBiasMatrix(p, *length);
        }));

    std::vector<commands::OptionSpec> fireExport = {{"seq-len", "L", kSeqLenExportHelp}};
    for (auto& o : fireOptions()) fireExport.push_back(o);
    fireExport.push_back({"phi", "", "export phi(i, j) itself instead of the seeded MLP's bias"});
    registry.exports.push_back(commands::matrixExport(
        "fire",
        "L x L FIRE bias MLP(phi(i, j)) of a seeded MLP (or phi with --phi), -inf for j > i",
        fireExport, [](const commands::ArgMap& args) -> Result<Matrix> {
            auto length = requiredLength(args);
            if (!length) return length.error();
            FireParams p;
            commands::OptionReader read(args);
            readFire(read, p);
            if (!read.ok()) return read.error();
            return args.flag("phi") ? firePhiMatrix(p, *length) : fireBiasMatrix(p, *length);
        }));

    // ---- Renders
    registry.renders.push_back(relativeRender(
        "relative-family",
        "ALiBi, T5, KERPLE, Sandwich, FIRE, xPos and RoPE: bias against distance, and their "
        "L x L matrices",
        RelativeTab::Family));
    registry.renders.push_back(relativeRender(
        "xpos", "xPos score matrix and score against distance beside RoPE's", RelativeTab::Xpos));
    registry.renders.push_back(
        relativeRender("kerple", "KERPLE power and log bias matrices and kernels against distance",
                       RelativeTab::Kerple));
    registry.renders.push_back(
        relativeRender("sandwich", "Sandwich bias matrix and every head's bias against distance",
                       RelativeTab::Sandwich));
    registry.renders.push_back(relativeRender(
        "fire", "FIRE's phi, a seeded MLP's bias, and phi against distance", RelativeTab::Fire));
}

}  // namespace poslab::encodings
