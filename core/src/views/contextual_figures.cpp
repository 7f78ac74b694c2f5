#include "poslab/views/contextual_figures.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "poslab/base/format.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/figure/layout.hpp"

namespace poslab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

HeatmapSample sampleOf(Matrix values, long long rows, long long cols, long long rowsPer,
                       long long colsPer) {
    HeatmapSample s;
    s.window = {0, rows, 0, cols};
    s.rowsPerTexel = rowsPer;
    s.colsPerTexel = colsPer;
    s.rowSpan = double(values.rows) * double(rowsPer);
    s.colSpan = double(values.cols) * double(colsPer);
    s.values = share(std::move(values));
    s.version = nextMatrixVersion();
    return s;
}

// A heatmap of a small whole matrix with -inf cells drawn as masked.
HeatmapSpec smallMatrixSpec(const std::string& title, const Matrix& values, Box area,
                            ColormapId colormap, ValueRange range, const std::string& x,
                            const std::string& y) {
    HeatmapSpec spec = matrixSpec(title, values, area, colormap, range);
    spec.x.label = x;
    spec.y.label = y;
    spec.squareCells = true;
    return spec;
}

// The plot box drawHeatmap gives `spec` in `area`, laid out once without values into a scratch
// figure: a map's texels are counted on the map, not on its cell. A square map in a wider cell
// was sampled on the cell's sides (DeBERTa's terms at 1440x900: 2 rows x 1 column a texel; the
// iRoPE mask at 1024x768 F5: 64 x 33), and its note said so while every pixel of the square
// showed as many columns as rows.
Box mapBox(HeatmapSpec spec, Box area, const Theme& theme) {
    spec.values = nullptr;
    Figure scratch;
    PlotFrame frame;
    frame.plot = area;
    drawHeatmap(scratch, area, spec, theme, &frame);
    return frame.plot;
}

// A sample's texels into a spec laid out for its shape (specFor's value fields).
void withValues(HeatmapSpec& spec, const HeatmapSample& sample) {
    spec.values = sample.values;
    spec.version = sample.version;
    spec.valuesRowSpan = sample.rowSpan;
    spec.valuesColSpan = sample.colSpan;
}

// The n x n shape a sample of a square matrix covers, values to come.
HeatmapSample squareShape(long long n) {
    HeatmapSample shape;
    shape.window = {0, n, 0, n};
    shape.rowSpan = shape.colSpan = double(n);
    return shape;
}

// A centre-sampled map's note: none when every texel is a cell; "each pixel: its centre cell"
// on screen and in PNGs, as the Relative views' maps say it (with the block's size, "the centre
// cell of 122×55 cells", it took four to five narrow lines at one column, #28); in a
// vector file, whose texels are cells unless kMaxTexelsPerSide is hit, the blocks' true size.
std::string centreCellNote(const HeatmapSample& sample, const Theme& theme) {
    if (sample.rowsPerTexel <= 1 && sample.colsPerTexel <= 1) return "";
    return theme.cellResolution ? blockNote(sample, "the centre cell of")
                                : "each pixel: its centre cell";
}

Rgba lineColor(const Theme& theme, int index) {
    (void)theme;
    return seriesColor(index);
}

}  // namespace

std::vector<long long> texelCentres(long long count, int texels, long long* perTexel) {
    const long long per = cellsPerTexel(count, texels);
    if (perTexel) *perTexel = per;
    std::vector<long long> centres;
    if (count <= 0) return centres;
    const long long blocks = (count + per - 1) / per;
    centres.reserve(std::size_t(blocks));
    for (long long b = 0; b < blocks; ++b)
        centres.push_back(std::min(b * per + per / 2, count - 1));
    return centres;
}

int debertaTermTexelBudget(double pixels, int headDim, bool cellResolution) {
    const int screen = texelBudget(pixels);
    if (!cellResolution) return screen;
    // c2c's cells are dot products of distinct vectors, and so are c2p's and p2c's when the
    // span has many indices: texels² x head_dim multiply-adds a map, kept within
    // kDebertaVectorTermBudget (2896 a side at head_dim 64, 1448 at 256: the three maps at
    // 65,536 buckets took 9 s at 2850 a side).
    const auto affordable =
        (long long)std::sqrt(double(kDebertaVectorTermBudget) / double(std::max(1, headDim)));
    return int(std::clamp<long long>(affordable, screen, kMaxTexelsPerSide));
}

HeatmapSample debertaTermTexels(const DebertaParams& params, DebertaTerm term, Box plot,
                                Detail detail, DebertaSampleMemo* memo, bool cellResolution) {
    long long rowsPer = 1, colsPer = 1;
    const long long n = params.seqLen;
    const int shrink = detail == Detail::Coarse ? 4 : 1;
    auto budget = [&](float pixels) {
        return std::max(1, debertaTermTexelBudget(pixels, params.headDim, cellResolution) / shrink);
    };
    const auto rows = texelCentres(n, budget(plot.height), &rowsPer);
    const auto cols = texelCentres(n, budget(plot.width), &colsPer);
    return sampleOf(debertaTermSample(params, term, rows, cols, memo), n, n, rowsPer, colsPer);
}

HeatmapSample iropeMaskTexels(const IropeParams& params, int layer, long long seqLen, Box plot,
                              bool cellResolution) {
    long long rowsPer = 1, colsPer = 1;
    const auto rows = texelCentres(seqLen, texelBudget(plot.height, cellResolution), &rowsPer);
    const auto cols = texelCentres(seqLen, texelBudget(plot.width, cellResolution), &colsPer);
    Matrix m(rows.size(), cols.size());
    for (std::size_t a = 0; a < rows.size(); ++a)
        for (std::size_t b = 0; b < cols.size(); ++b)
            m(a, b) = iropeAttends(params, layer, rows[a], cols[b]) ? 1.0 : -kInf;
    return sampleOf(std::move(m), seqLen, seqLen, rowsPer, colsPer);
}

// ---------------------------------------------------------------------------- CoPE

Status drawCopeFigure(Figure& figure, Box area, const CopeSentenceParams& params,
                      const Theme& theme, int panel) {
    auto result = copeSentence(params);
    if (!result) return result.error();
    const CopeSentence& cope = *result;
    const std::size_t n = cope.tokens.size();
    const PanelGrid grid = reflowOrFocus(area, kCopePanels, theme, panel);
    figure.viewPanels = kCopePanels.count;  // --panel N: the GUI's panel N
    const std::string gateText =
        params.gates == CopeGateSource::Seeded
            ? "$σ(q·k" + std::string(params.divideGates ? " / √d" : "") + ")$, seed " +
                  std::to_string(params.seed)
            : std::string(copeGateSourceName(params.gates)) + " (set by hand)";

    Matrix gates = cope.gates, positions = cope.positions;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) gates(i, j) = positions(i, j) = -kInf;

    if (grid.shows(0)) {
        HeatmapSpec spec =
            smallMatrixSpec("Gates $g_{ij}$ = " + gateText, gates, grid.cell(0),
                            ColormapId::Viridis, {0, 1}, "key j (token)", "query i (token)");
        spec.colorbarLabel = "gate";
        spec.showMaskedLegend = true;
        spec.maskedLabel = "future (causal mask)";
        drawHeatmap(figure, grid.cell(0), spec, theme);
    }
    if (grid.shows(1)) {
        // Coloured from 0 to the largest p: p is clamped at npos − 1 (15 for 15 tokens), but
        // gates below 1 keep it near 3, and a scale to 15 left the sentence blocks dark. The
        // caption gives the cap when the scale stops short of it.
        const double cap = std::max(1.0, double(cope.npos - 1));
        const double largest = maxAbs(positions);  // p >= 0 (a sum of gates); masked cells -inf
        const double top = largest > 0 ? std::min(largest, cap) : cap;
        HeatmapSpec spec = smallMatrixSpec("Contextual position $p_{ij}=Σ_{k}g_{ik}$, $k=j..i$",
                                           positions, grid.cell(1), ColormapId::Magma, {0, top},
                                           "key j (token)", "query i (token)");
        // npos 0 on the slider is the code's default, tokens + 1: the cap is then the token count,
        // said so rather than "npos − 1" beside a slider reading 0.
        const std::string capText =
            params.npos > 0 ? "npos − 1 = " + formatValue(cap) : "tokens = " + formatValue(cap);
        spec.colorbarLabel = top < cap ? "p (cap: " + capText + ")" : "p";
        drawHeatmap(figure, grid.cell(1), spec, theme);
    }
    if (grid.shows(2)) {
        // The last query's row: CoPE's count against the token count i - j + 1.
        LinePlotSpec spec;
        const std::size_t last = n - 1;
        spec.title = "Positions seen from \"" + cope.tokens[last] + "\" (query " +
                     std::to_string(last) + ")";
        spec.x = integerAxis("key j (token index)", -0.5, double(n) - 0.5);
        spec.y = {"position", 0, double(n)};
        LineSeries tokens{"token distance + 1", {}, {}, lineColor(theme, 1), 1.6f, true};
        LineSeries contextual{"CoPE $p_{ij}$", {}, {}, theme.accent, 2.2f, true};
        for (std::size_t j = 0; j < n; ++j) {
            tokens.x.push_back(double(j));
            tokens.y.push_back(double(last - j + 1));
            contextual.x.push_back(double(j));
            contextual.y.push_back(cope.positions(last, j));
        }
        spec.series = {tokens, contextual};
        drawLinePlot(figure, grid.cell(2), spec, theme);
    }
    if (grid.shows(3)) {
        const double largest = std::max(maxAbs(cope.bias), 1e-9);
        HeatmapSpec spec = smallMatrixSpec(
            "Bias $b_{ij}$: $q_i·e[p]$ interpolated between floor $p$ and ceil $p$ (npos " +
                std::to_string(cope.npos) + ")",
            cope.bias, grid.cell(3), ColormapId::BlueWhiteRed, {-largest, largest}, "key j (token)",
            "query i (token)");
        spec.colorbarLabel = "bias";
        drawHeatmap(figure, grid.cell(3), spec, theme);
    }
    return success();
}

// ---------------------------------------------------------------------------- DeBERTa

int debertaChartReach(const DebertaParams& params) {
    const long long reach = std::max<long long>(8, (long long)(1.25 * params.maxRelativePositions));
    return int(std::min<long long>(reach, params.seqLen > 1 ? params.seqLen - 1 : 8));
}

Status drawDebertaFigure(Figure& figure, Box area, const DebertaParams& params, const Theme& theme,
                         int panel, Detail detail, DebertaFigureMemo* memo) {
    if (auto s = validate(params); !s) return s;
    const PanelGrid grid = reflowOrFocus(area, kDebertaPanels, theme, panel);
    figure.viewPanels = kDebertaPanels.count;  // --panel N: the GUI's panel N
    if (grid.shows(0)) {
        const int reach = std::max(debertaChartReach(params), 8);
        LinePlotSpec spec;
        spec.title = params.positionBuckets > 0
                         ? "make_log_bucket_position (buckets " +
                               std::to_string(params.positionBuckets) + ", max " +
                               std::to_string(params.maxRelativePositions) + ")"
                         : "Relative position $i-j$ (no buckets)";
        spec.x =
            integerAxis("relative position $i-j$ (query − key)", -double(reach), double(reach));
        spec.y = {"bucket", 0, 1};
        LineSeries bucket{"bucket", {}, {}, theme.accent, 2.0f, false};
        LineSeries identity{"i − j", {}, {}, lineColor(theme, 1), 1.2f, false};
        // At most ~2 points per pixel column: steps drawn from every integer when few, else
        // sampled.
        const long long step = std::max<long long>(1, reach / 1500);
        for (long long d = -reach; d <= reach; d += step) {
            bucket.x.push_back(double(d));
            bucket.y.push_back(double(debertaRelativePosition(d, 0, params)));
        }
        identity.x = {-double(reach), double(reach)};
        identity.y = {-double(reach), double(reach)};
        spec.series = {identity, bucket};
        const int span = debertaAttSpan(params);
        Marker upper{false, double(span - 1), "gather clamp " + std::to_string(span - 1),
                     theme.mutedText};
        Marker lower{false, -double(span), "clamp " + withMinusSign(std::to_string(-span)),
                     theme.mutedText};
        spec.markers = {upper, lower};
        if (params.positionBuckets > 0) {
            spec.markers.push_back({true, double(params.positionBuckets / 2),
                                    "identity up to " + std::to_string(params.positionBuckets / 2),
                                    theme.mutedText});
        }
        drawLinePlot(figure, grid.cell(0), spec, theme);
    }
    const int scale = debertaScaleFactor(params);
    const std::string divisor =
        "/ √(" + std::to_string(params.headDim) + " × " + std::to_string(scale) + ")";
    struct TermPanel {
        int index;
        DebertaTerm term;
        std::string title;
    };
    const TermPanel panels[] = {
        {1, DebertaTerm::C2c, "c2c: $q_i·k_j$ " + divisor},
        {2, DebertaTerm::C2p,
         params.c2p ? "c2p: $q_i·K_r[δ(i, j) + k]$ " + divisor : "c2p (off in pos_att_type)"},
        {3, DebertaTerm::P2c,
         params.p2c ? "p2c (HF gather): $k_j·Q_r[-δ(j, i) + k]$ " + divisor
                    : "p2c (off in pos_att_type)"},
    };
    for (const TermPanel& p : panels) {
        if (!grid.shows(p.index)) continue;
        const Box cell = grid.cell(p.index);
        DebertaSampleMemo* kept = memo ? &memo->terms[p.index - 1] : nullptr;
        HeatmapSpec spec = specFor(squareShape(params.seqLen), "key j", "query i");
        spec.title = p.title;
        spec.squareCells = true;
        spec.colormap = ColormapId::BlueWhiteRed;
        spec.range = {-1, 1};  // for the layout; the values' range below
        spec.colorbarLabel = "score";
        const HeatmapSample sample = debertaTermTexels(params, p.term, mapBox(spec, cell, theme),
                                                       detail, kept, theme.cellResolution);
        withValues(spec, sample);
        const double largest = std::max(maxAbs(*sample.values), 1e-9);
        spec.range = {-largest, largest};
        PlotFrame frame;
        drawHeatmap(figure, cell, spec, theme, &frame);
        drawCornerNote(figure, cell, &frame, centreCellNote(sample, theme), theme);
    }
    return success();
}

// ---------------------------------------------------------------------------- NoPE and iRoPE

Status validate(const NopeFigureOptions& options) {
    if (auto s = validate(options.irope); !s) return s;
    if (auto s = validate(options.temperature); !s) return s;
    if (auto s = requireIntInRange("seq_len", options.seqLen, 2, kMaxSeqLen); !s) return s;
    return requireIntInRange("mask_layer", options.maskLayer, 0, options.irope.numLayers - 1);
}

PanelShape nopePanelShape(NopeSections sections) {
    switch (sections) {
        case NopeSections::Nope:
            return {1, 1, 16, 12, 12};
        case NopeSections::Irope:
            return {3, 3, 14, 12, 12};
        case NopeSections::All:
            break;
    }
    return {4, 2, 16, 12, 12};
}

Status drawNopeFigure(Figure& figure, Box area, const NopeFigureOptions& options,
                      const Theme& theme, int panel, NopeFigureMemo* memo) {
    if (auto s = validate(options); !s) return s;
    const PanelGrid grid = reflowOrFocus(area, nopePanelShape(options.sections), theme, panel);
    figure.viewPanels = grid.count;  // --panel N: the GUI's panel N
    const IropeParams& p = options.irope;
    // Panel k of the full figure is panel (k - first) of this one; -1: not drawn.
    const int first = options.sections == NopeSections::Irope ? 1 : 0;
    const int count = nopePanelShape(options.sections).count;
    auto shows = [&](int k) { return k >= first && k - first < count && grid.shows(k - first); };
    auto cellOf = [&](int k) { return grid.cell(k - first); };
    if (shows(0)) {
        LinePlotSpec spec;
        spec.title = "NoPE: t read back from 1/(t+1) (a first-token flag, causally averaged)";
        const double high = double(options.seqLen);
        spec.x = {"position t", 1, high, true};
        spec.y = {"recovered $t$ − true $t$", 0, 1};
        const SignalPrecision kinds[] = {SignalPrecision::Float64, SignalPrecision::Float32,
                                         SignalPrecision::BFloat16};
        const char* names[] = {"float64", "float32", "bfloat16"};
        for (int k = 0; k < 3; ++k) {
            LineSeries s{names[k], {}, {}, lineColor(theme, k), k == 0 ? 2.4f : 1.6f, false};
            // 1500 log-spaced positions from 1 to seqLen (each at least one past the last).
            long long previous = 0;
            for (int step = 0; step <= 1500; ++step) {
                const long long t =
                    std::max(previous + 1, (long long)std::llround(std::pow(high, step / 1500.0)));
                if (t > options.seqLen) break;
                previous = t;
                s.x.push_back(double(t));
                s.y.push_back(double(nopeRecoveredPosition(t, kinds[k]) - t));
            }
            spec.series.push_back(std::move(s));
        }
        const long long bf16 = nopeFirstUnresolved(SignalPrecision::BFloat16, options.seqLen);
        if (bf16 < options.seqLen) {
            spec.markers.push_back({true, double(bf16),
                                    "bfloat16 first wrong at t = " + std::to_string(bf16),
                                    theme.mutedText});
        }
        drawLinePlot(figure, cellOf(0), spec, theme);
    }
    if (shows(1)) {
        const std::vector<int> layers = effectiveNoRopeLayers(p);
        Matrix stack(layers.size(), 1);
        for (std::size_t l = 0; l < layers.size(); ++l) stack(l, 0) = layers[l];
        const Box cell = cellOf(1);
        const int rows = texelBudget(cell.height), cols = texelBudget(cell.width);
        NopeFigureMemo::Stack* kept = nullptr;
        if (memo && !memo->stack.empty() && memo->stack[0].irope == p &&
            memo->stack[0].rows == rows && memo->stack[0].cols == cols) {
            kept = &memo->stack[0];
        }
        // Two kinds of layer, not a scale: a key of two swatches in the map's colours under the
        // map (a colour bar would show values between them, which no layer has; beside the map
        // it narrowed the map and its "mask shown" label). The map had no key at all, its title
        // saying what 0 and 1 mean (#28). A cell too short for the key and a readable map keeps
        // that title instead.
        const std::string ropeKind = p.attentionChunkSize > 0 ? "RoPE + chunked" : "RoPE";
        const std::array<std::pair<std::string, double>, 2> kinds = {
            std::pair<std::string, double>{ropeKind, 1.0}, {"NoPE + full", 0.0}};
        const float swatch = theme.fontSize, keyStep = theme.fontSize * 1.5f;
        std::array<float, 2> keyWidths{};
        for (std::size_t k = 0; k < kinds.size(); ++k)
            keyWidths[k] = swatch + 6 + estimateTextWidth(kinds[k].first, theme.fontSize);
        const float spacing = theme.fontSize * 1.5f;
        // Side by side when they fit the cell's width, else one above the other.
        const bool oneRow = keyWidths[0] + spacing + keyWidths[1] <= cell.width - 8;
        const float keyRows = (oneRow ? 1 : 2) * keyStep + theme.fontSize * 0.3f;
        const bool keyed = cell.height - keyRows >= theme.fontSize * 8 &&
                           std::max(keyWidths[0], keyWidths[1]) <= cell.width - 8;
        const Box mapArea = keyed ? Box{cell.x, cell.y, cell.width, cell.height - keyRows} : cell;
        HeatmapSpec spec = matrixSpec(keyed ? "iRoPE layers: RoPE or NoPE"
                                            : "iRoPE layers: 1 = " + ropeKind + ", 0 = NoPE + full",
                                      stack, cell, ColormapId::Viridis, {0, 1});
        if (kept) {  // the same texels as last time: keep their version (no new texture)
            spec.values = kept->spec.values;
            spec.version = kept->spec.version;
        } else if (memo) {
            memo->stack.assign(1, {p, rows, cols, spec});
        }
        spec.x = {"", 0, 1, false, true};
        spec.y = {"layer", 0, double(layers.size()), false, true};
        spec.showColorbar = false;  // two values: the key under it, or the title
        Marker chosen{false, double(options.maskLayer) + 0.5,
                      "mask shown: layer " + std::to_string(options.maskLayer), theme.accent};
        chosen.dashed = false;
        spec.markers = {chosen};
        PlotFrame frame;
        drawHeatmap(figure, mapArea, spec, theme, &frame);
        // Under the map's tick labels, from the map's left edge (the cell's, when wider).
        const float keyWidth =
            oneRow ? keyWidths[0] + spacing + keyWidths[1] : std::max(keyWidths[0], keyWidths[1]);
        const float left =
            std::max(cell.x + 4, std::min(frame.plot.x, cell.right() - 4 - keyWidth));
        for (std::size_t k = 0; keyed && k < kinds.size(); ++k) {
            const float x = oneRow && k == 1 ? left + keyWidths[0] + spacing : left;
            const float y = mapArea.bottom() + theme.fontSize * 0.3f +
                            (oneRow ? 0 : float(k) * keyStep) + (keyStep - swatch) / 2;
            figure.add(RectItem{{x, y, swatch, swatch},
                                sampleColormap(ColormapId::Viridis, kinds[k].second),
                                theme.axis,
                                1});
            figure.add(makeText({x + swatch + 6, y + swatch / 2}, kinds[k].first, theme.fontSize,
                                theme.text, HorizontalAlign::Left, VerticalAlign::Middle));
        }
    }
    if (shows(2)) {
        const Box cell = cellOf(2);
        HeatmapSpec spec = specFor(squareShape(options.seqLen), "key", "query");
        const bool rope = layerUsesRope(p, options.maskLayer);
        spec.title = "Layer " + std::to_string(options.maskLayer) + ": " +
                     (rope && p.attentionChunkSize > 0
                          ? "chunks of " + std::to_string(p.attentionChunkSize)
                          : std::string(rope ? "RoPE, no chunking" : "NoPE, whole causal prefix"));
        spec.squareCells = true;
        spec.colormap = ColormapId::Viridis;
        spec.range = {0, 1};
        spec.showColorbar = false;
        spec.showMaskedLegend = true;
        const Box map = mapBox(spec, cell, theme);
        const int rows = texelBudget(map.height, theme.cellResolution),
                  cols = texelBudget(map.width, theme.cellResolution);
        const bool keep = memo && !memo->mask.empty() && memo->mask[0].irope == p &&
                          memo->mask[0].layer == options.maskLayer &&
                          memo->mask[0].seqLen == options.seqLen && memo->mask[0].rows == rows &&
                          memo->mask[0].cols == cols;
        const HeatmapSample mask =
            keep ? memo->mask[0].sample
                 : iropeMaskTexels(p, options.maskLayer, options.seqLen, map, theme.cellResolution);
        if (memo && !keep)
            memo->mask.assign(1, {p, options.maskLayer, rows, cols, options.seqLen, mask});
        withValues(spec, mask);
        PlotFrame frame;
        drawHeatmap(figure, cell, spec, theme, &frame);
        drawCornerNote(figure, cell, &frame, centreCellNote(mask, theme), theme);
    }
    if (shows(3)) {
        // The staircase from attention_temperature.hpp at every step edge and between them.
        LinePlotSpec spec;
        spec.title = "NoPE-layer query scale: log(floor((t+1)/" +
                     formatValue(options.temperature.floorScale) + ") + 1) × " +
                     formatValue(options.temperature.attnScale) + " + 1";
        spec.x = integerAxis("position t", 0, double(options.seqLen - 1));
        spec.y = {"scale", 0, 1};
        LineSeries s{"attn_scales", {}, {}, theme.accent, 2.0f, false};
        const long long samples = std::min<long long>(options.seqLen, 2000);
        for (long long k = 0; k < samples; ++k) {
            const long long t =
                samples == options.seqLen
                    ? k
                    : (long long)std::llround(double(k) * double(options.seqLen - 1) /
                                              double(samples - 1));
            s.x.push_back(double(t));
            s.y.push_back(attentionTemperature(options.temperature, t));
        }
        spec.series = {s};
        spec.legend = false;
        drawLinePlot(figure, cellOf(3), spec, theme);
    }
    return success();
}

// ---------------------------------------------------------------------------- Randomized

Status drawRandomizedFigure(Figure& figure, Box area, const RandomizedPositionsParams& params,
                            const Theme& theme, int panel, Detail detail) {
    if (auto s = validate(params); !s) return s;
    const PanelGrid grid = reflowOrFocus(area, kRandomizedPanels, theme, panel);
    figure.viewPanels = kRandomizedPanels.count;  // --panel N: the GUI's panel N
    const int l = params.length;
    const double n = double(params.maxLength);
    // Every draw when the first panel shows them, else draw 0 alone (the second panel's).
    const std::vector<std::vector<long long>> draws =
        grid.shows(0) ? randomizedDraws(params)
                      : std::vector<std::vector<long long>>{randomizedDraw(params, 0)};
    if (grid.shows(0)) {
        const std::string title = "Training positions: " + std::to_string(l) +
                                  " sorted draws from 0.." + std::to_string(params.maxLength - 1) +
                                  ", seed " + std::to_string(params.seed);
        const Box cell = grid.cell(0);
        // A dot per drawn position while dots stay apart (a dot is ~5 px wide); denser draws
        // (4,096 of 65,536 on ~600 px: every pixel of a row holds ~7 of them) would paint each
        // row solid with thousands of overlapping dots. Those are drawn as the draws x N matrix
        // of 0/1 (1: drawn) reduced to the pixels, each texel the share of its positions drawn:
        // where a draw is denser shows, in one texture.
        if (double(l) * 6.0 <= double(cell.width)) {
            LinePlotSpec spec;
            spec.title = title;
            spec.x = integerAxis("position " + std::string("value"), 0, std::max(1.0, n - 1));
            spec.y = {"draw", 0, double(params.draws), false, true};
            spec.autoRangeY = false;
            for (int d = 0; d < params.draws; ++d) {
                LineSeries s{d < 8 ? "draw " + std::to_string(d) : "",
                             {},
                             {},
                             lineColor(theme, d),
                             0.0f,
                             true};
                for (long long v : draws[std::size_t(d)]) {
                    s.x.push_back(double(v));
                    s.y.push_back(double(d) + 0.5);  // cell axis: draw d's row centre
                }
                spec.series.push_back(std::move(s));
            }
            spec.legend = false;
            drawLinePlot(figure, cell, spec, theme);
        } else {
            const long long perTexel =
                cellsPerTexel(params.maxLength, texelBudget(cell.width, theme.cellResolution));
            HeatmapSample sample =
                emptyHeatmapSample({0, params.draws, 0, params.maxLength}, 1, perTexel);
            const long long columns = (params.maxLength + perTexel - 1) / perTexel;
            Matrix shares(std::size_t(params.draws), std::size_t(columns), 0.0);
            for (int d = 0; d < params.draws; ++d) {
                for (long long v : draws[std::size_t(d)])
                    shares(std::size_t(d), std::size_t(v / perTexel)) += 1.0;
            }
            for (std::size_t d = 0; d < shares.rows; ++d) {
                for (long long c = 0; c < columns; ++c) {  // the last block may be partial
                    const long long cells = std::min(perTexel, params.maxLength - c * perTexel);
                    shares(d, std::size_t(c)) /= double(cells);
                }
            }
            // Coloured from 0 to the largest share (a few % at the tops), so denser stretches
            // show; 1 when every block's positions were all drawn.
            double largest = 0;
            for (double v : shares.values) largest = std::max(largest, v);
            sample.values = std::make_shared<const Matrix>(std::move(shares));
            HeatmapSpec spec = specFor(sample, "position value", "draw");
            spec.title = title;
            spec.colormap = ColormapId::Viridis;
            spec.range = {0, largest > 0 ? largest : 1.0};
            spec.colorbarLabel = perTexel > 1 ? "share drawn" : "drawn";
            PlotFrame frame;
            drawHeatmap(figure, cell, spec, theme, &frame);
            drawCornerNote(figure, cell, &frame, blockNote(sample, "share drawn of"), theme);
        }
    }
    if (grid.shows(1)) {
        LinePlotSpec spec;
        spec.title = "$E[p_{(k)}] = (k+1)(N+1)/(L+1) - 1$, ±1 sd, against plain $k$";
        spec.x = {"rank $k$ of the sorted positions (from 0)", -0.5, double(l) - 0.5};
        spec.y = {"position", 0, n};
        LineSeries mean{"expected", {}, {}, theme.accent, 2.2f, false};
        LineSeries upper{"±1 sd", {}, {}, withAlpha(theme.accent, 140), 1.0f, false};
        LineSeries lower{"", {}, {}, withAlpha(theme.accent, 140), 1.0f, false};
        LineSeries plain{"plain $0..L-1$", {}, {}, lineColor(theme, 1), 1.6f, false};
        // Coarse: a line as wide as the dots through the same points (one stroke instead of a
        // dot per pixel it touches).
        LineSeries first = detail == Detail::Coarse
                               ? LineSeries{"draw 0", {}, {}, lineColor(theme, 2), 5.0f, false}
                               : LineSeries{"draw 0", {}, {}, lineColor(theme, 2), 0.0f, true};
        const std::vector<long long>& draw = draws.front();
        for (int k = 0; k < l; ++k) {
            const double e = expectedOrderStatistic(k, l, params.maxLength);
            const double sd = orderStatisticStd(k, l, params.maxLength);
            mean.x.push_back(k);
            mean.y.push_back(e);
            upper.x.push_back(k);
            upper.y.push_back(e + sd);
            lower.x.push_back(k);
            lower.y.push_back(e - sd);
            plain.x.push_back(k);
            plain.y.push_back(k);
            first.x.push_back(k);
            first.y.push_back(double(draw[std::size_t(k)]));
        }
        spec.series = {upper, lower, mean, plain, first};
        drawLinePlot(figure, grid.cell(1), spec, theme);
    }
    return success();
}

}  // namespace poslab
