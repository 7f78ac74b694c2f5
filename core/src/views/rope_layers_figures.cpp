#include "poslab/views/rope_layers_figures.hpp"

#include <algorithm>

#include "poslab/base/format.hpp"
#include "poslab/encodings/attention_temperature.hpp"
#include "poslab/encodings/rope_scaling.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/views/rope_figures.hpp"

namespace poslab {

namespace {

std::string attentionLabel(const HfLayer& layer) {
    switch (layer.window) {
        case AttentionWindow::Sliding:
            return "sliding " + std::to_string(layer.slidingWindow);
        case AttentionWindow::Chunked:
            return "chunk " + std::to_string(layer.slidingWindow);
        case AttentionWindow::Linear:
            return "linear";
        case AttentionWindow::Full:
            break;
    }
    return "full";
}

RopeLayerRow rowFor(const HfModelConfig& config, const HfLayer& layer, int index) {
    RopeLayerRow row;
    row.firstLayer = row.lastLayer = index;
    row.layerType = layer.layerType.empty() ? "full_attention" : layer.layerType;
    row.attention = attentionLabel(layer);
    if (layer.ropeVariant < 0 || layer.ropeVariant >= int(config.ropeVariants.size())) {
        row.rope = "none (NoPE)";
        row.noRopeReason = layer.noRopeReason;
        return row;
    }
    const HfRopeVariant& variant = config.ropeVariants[std::size_t(layer.ropeVariant)];
    row.rope = variant.layerType;
    row.base = formatValue(variant.rope.base, 7);
    row.scaling = ropeScalingSummary(variant.rope);
    return row;
}

bool sameCells(const RopeLayerRow& a, const RopeLayerRow& b) {
    return a.layerType == b.layerType && a.attention == b.attention && a.rope == b.rope &&
           a.base == b.base && a.scaling == b.scaling && a.noRopeReason == b.noRopeReason;
}

}  // namespace

std::vector<std::string> ropeLayerTypes(const HfModelConfig& config) {
    std::vector<std::string> names;
    auto add = [&](const std::string& name) {
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    };
    for (const HfLayer& layer : config.layers) {
        add(layer.layerType.empty() ? "full_attention" : layer.layerType);
    }
    if (names.empty()) {
        for (const HfRopeVariant& variant : config.ropeVariants) add(variant.layerType);
    }
    return names;
}

Result<int> ropeVariantForLayerType(const HfModelConfig& config, const std::string& layerType) {
    for (const HfLayer& layer : config.layers) {
        const std::string& name = layer.layerType.empty() ? "full_attention" : layer.layerType;
        if (name != layerType) continue;
        // Layers of one type may mix RoPE and NoPE (Llama 4, SmolLM3): prefer one with RoPE.
        int variant = layer.ropeVariant;
        for (const HfLayer& other : config.layers) {
            const std::string& otherName =
                other.layerType.empty() ? "full_attention" : other.layerType;
            if (otherName == layerType && other.ropeVariant >= 0) {
                variant = other.ropeVariant;
                break;
            }
        }
        return variant;
    }
    for (std::size_t i = 0; i < config.ropeVariants.size(); ++i) {
        if (config.ropeVariants[i].layerType == layerType) return int(i);
    }
    // Appended piece by piece: GCC 12's -Wrestrict misfires on "'" + std::string&&.
    std::string message = "'";
    message += escapeForMessage(layerType);
    message += "' is not a layer type of the config (";
    std::string names;
    for (const std::string& name : ropeLayerTypes(config)) {
        if (!names.empty()) names += ", ";
        names += escapeForMessage(name);  // the config's own names: escaped as the one asked for
    }
    message += names.empty() ? std::string("it names none") : "it has " + names;
    message += ")";
    return Error{message};
}

std::string noRopeReasonOf(const HfModelConfig& config, const std::string& layerType) {
    std::string reason;
    for (const HfLayer& layer : config.layers) {
        const std::string& name = layer.layerType.empty() ? "full_attention" : layer.layerType;
        if (name != layerType) continue;
        if (layer.ropeVariant >= 0) return "";
        if (reason.empty()) reason = layer.noRopeReason.empty() ? "NoPE" : layer.noRopeReason;
    }
    return reason;
}

std::vector<RopeLayerRow> ropeLayerRows(const HfModelConfig& config) {
    std::vector<RopeLayerRow> rows;
    for (std::size_t i = 0; i < config.layers.size(); ++i) {
        RopeLayerRow row = rowFor(config, config.layers[i], int(i));
        if (!rows.empty() && rows.back().lastLayer + 1 == row.firstLayer &&
            sameCells(rows.back(), row)) {
            rows.back().lastLayer = row.lastLayer;
        } else {
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

namespace {

// One table row per distinct layer setup, for models whose alternation makes too many runs to
// list (Llama 4's 3 RoPE + 1 NoPE over 48 layers is 24 runs): the layers as a compact list.
struct LayerGroup {
    RopeLayerRow cells;       // firstLayer/lastLayer unused
    std::vector<int> layers;  // every layer with these cells
};

std::vector<LayerGroup> groupRows(const HfModelConfig& config) {
    std::vector<LayerGroup> groups;
    for (std::size_t i = 0; i < config.layers.size(); ++i) {
        RopeLayerRow row = rowFor(config, config.layers[i], int(i));
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const LayerGroup& g) { return sameCells(g.cells, row); });
        if (it == groups.end()) {
            groups.push_back({row, {int(i)}});
        } else {
            it->layers.push_back(int(i));
        }
    }
    return groups;
}

// "3, 7, …, 47 (every 4th)" or "0–2, 4–6, …, 44–46": short enough for one cell.
// detail 2: with "(every n)" and the last run; 1: without "(every n)"; 0: the first runs only.
std::string layerListText(const std::vector<int>& layers, int detail) {
    if (layers.empty()) return "";
    if (layers.size() >= 3) {
        const int step = layers[1] - layers[0];
        bool arithmetic = step > 1;
        for (std::size_t i = 2; arithmetic && i < layers.size(); ++i) {
            arithmetic = layers[i] - layers[i - 1] == step;
        }
        if (arithmetic) {
            return std::to_string(layers[0]) + ", " + std::to_string(layers[1]) + ", …, " +
                   std::to_string(layers.back()) +
                   (detail >= 2 ? " (every " + std::to_string(step) + ")" : "");
        }
    }
    std::vector<std::string> runs;
    for (std::size_t i = 0; i < layers.size();) {
        std::size_t j = i;
        while (j + 1 < layers.size() && layers[j + 1] == layers[j] + 1) ++j;
        runs.push_back(i == j ? std::to_string(layers[i])
                              : std::to_string(layers[i]) + "–" + std::to_string(layers[j]));
        i = j + 1;
    }
    if (runs.size() <= 3) {
        std::string text = runs[0];
        for (std::size_t i = 1; i < runs.size(); ++i) text += ", " + runs[i];
        return text;
    }
    return runs[0] + ", " + runs[1] + (detail >= 1 ? ", …, " + runs.back() : ", …");
}

}  // namespace

void drawRopeLayers(Figure& figure, Box area, const HfModelConfig& config, const Theme& theme) {
    const std::string model = config.modelType.empty() ? "model" : config.modelType;
    const int layerCount = int(config.layers.size());
    int nope = 0;
    for (const HfLayer& layer : config.layers) nope += layer.ropeVariant < 0 ? 1 : 0;
    std::string title = "Layers of " + model + ": " + std::to_string(layerCount) + " layers";
    if (nope > 0) title += ", " + std::to_string(nope) + " without RoPE (NoPE)";
    drawTitle(figure, area, title, theme);

    const float margin = std::max(12.0f, area.width * 0.03f);
    const float top = area.y + std::max(theme.fontSize, titleBandHeight(theme, 2.6f));
    Box table{area.x + margin, top, area.width - 2 * margin, area.bottom() - top - margin};
    if (table.width < 40 || table.height < 20) return;

    // One line per RoPE variant: what "full_attention" and "sliding_attention" stand for.
    float y = table.y;
    const float lineHeight = theme.fontSize * 1.5f;
    for (const HfRopeVariant& variant : config.ropeVariants) {
        FittedText line = fitText("RoPE " + variant.layerType + ": " + ropeTitle(variant.rope),
                                  theme.fontSize, table.width);
        figure.add(makeText({table.x, y}, line.text, line.size, theme.mutedText));
        y += lineHeight;
    }
    if (config.attentionTemperature && nope > 0) {
        // Llama 4 scales NoPE-layer queries instead of rotating them: the attention factor there.
        const AttentionTemperatureParams& t = *config.attentionTemperature;
        std::string values = "NoPE-layer query scale: ";
        const std::int64_t samples[] = {8191, 131071, 1048575, 9999999};
        const char* names[] = {"8K", "128K", "1M", "10M"};
        for (int i = 0; i < 4; ++i) {
            values += std::string(i ? ", " : "") + "×" +
                      formatValue(attentionTemperature(t, samples[i]), 4) + " at " + names[i];
        }
        const std::string formula = "attn_temperature_tuning: 1 + " + formatValue(t.attnScale, 4) +
                                    " · log1p(floor((pos + 1) / " + formatValue(t.floorScale, 6) +
                                    ")), exactly 1 before " + formatValue(t.floorScale - 1, 6);
        for (const std::string& line : {values, formula}) {
            FittedText fitted = fitText(line, theme.fontSize, table.width);
            figure.add(makeText({table.x, y}, fitted.text, fitted.size, theme.mutedText));
            y += lineHeight;
        }
    }
    y += lineHeight * 0.25f;

    const std::vector<RopeLayerRow> rows = ropeLayerRows(config);
    if (rows.empty()) {
        drawNote(figure, {table.x, y, table.width, table.bottom() - y},
                 "the config gives no num_hidden_layers: every layer uses the full-attention RoPE",
                 theme);
        return;
    }
    const std::vector<LayerGroup> groups = groupRows(config);
    auto groupColor = [&](std::size_t g) {
        const double t = groups.size() > 1 ? double(g) / double(groups.size() - 1) : 0.0;
        return groups[g].cells.base.empty() ? withAlpha(theme.mutedText, 110)
                                            : sampleColormap(ColormapId::Viridis, 0.15 + 0.7 * t);
    };

    // A strip with one cell per layer, coloured by its setup: the alternation at a glance, for
    // any layer count (94 layers are 10 px each at 1024 px).
    const float stripHeight = theme.fontSize * 1.3f;
    const float cell = table.width / float(std::max(layerCount, 1));
    for (std::size_t g = 0; g < groups.size(); ++g) {
        for (int layer : groups[g].layers) {
            const Box box{table.x + cell * float(layer), y, std::max(cell - 1.0f, 1.0f),
                          stripHeight};
            figure.add(RectItem{box, groupColor(g), {0, 0, 0, 0}, 1});
        }
    }
    y += stripHeight + 2;
    const int tickEvery = layerCount <= 16 ? 1 : layerCount <= 48 ? 4 : 8;
    const float tickSize = atLeastMinText(theme.fontSize * 0.8f, theme);
    for (int layer = 0; layer < layerCount; layer += tickEvery) {
        figure.add(makeText({table.x + cell * (float(layer) + 0.5f), y}, std::to_string(layer),
                            tickSize, theme.mutedText, HorizontalAlign::Center,
                            VerticalAlign::Top));
    }
    y += tickSize * 1.6f;

    // Columns: share of the width, as the cells need it.
    const float available = table.bottom() - y;
    const float minRow = theme.fontSize * 1.15f;
    // Runs of consecutive layers when they are few and fit; else one row per distinct setup
    // (the strip above keeps the order of the layers visible).
    constexpr std::size_t kMaxRunRows = 16;
    const bool grouped = groups.size() < rows.size() &&
                         (rows.size() > kMaxRunRows || float(rows.size() + 1) * minRow > available);
    const char* headers[] = {"layers", "layer type", "attention", "RoPE", "base", "scaling"};
    const float runShares[] = {0.13f, 0.23f, 0.18f, 0.17f, 0.11f, 0.18f};
    const float groupShares[] = {0.22f, 0.22f, 0.15f, 0.12f, 0.11f, 0.18f};  // lists need room
    const float* shares = grouped ? groupShares : runShares;
    float columnX[6];
    float x = table.x;
    for (int c = 0; c < 6; ++c) {
        columnX[c] = x;
        x += shares[c] * table.width;
    }
    const std::size_t rowCount = grouped ? groups.size() : rows.size();
    const float rowHeight =
        std::clamp(available / float(rowCount + 1), minRow, theme.fontSize * 1.9f);
    const float textSize = std::min(theme.fontSize, rowHeight / 1.3f);
    const int fitting = std::max(0, int(available / rowHeight) - 1);
    const int shown = std::min(int(rowCount), fitting);

    for (int c = 0; c < 6; ++c) {
        const float right = c + 1 < 6 ? columnX[c + 1] : table.right();
        FittedText header = fitText(headers[c], textSize, right - columnX[c] - 8);
        figure.add(makeText({columnX[c] + 4, y + rowHeight * 0.5f}, header.text, header.size,
                            theme.text, HorizontalAlign::Left, VerticalAlign::Middle));
    }
    y += rowHeight;
    figure.add(LineItem{{table.x, y}, {table.right(), y}, theme.axis, 1, false});
    const Rgba nopeFill = withAlpha(theme.accent, 40);
    for (int r = 0; r < shown; ++r) {
        const RopeLayerRow& row = grouped ? groups[std::size_t(r)].cells : rows[std::size_t(r)];
        std::size_t group = 0;
        while (group + 1 < groups.size() && !sameCells(groups[group].cells, row)) ++group;
        const Box band{table.x, y, table.width, rowHeight};
        if (row.base.empty()) {
            figure.add(RectItem{band, nopeFill, {0, 0, 0, 0}, 1});
        } else if (r % 2 == 1) {
            figure.add(RectItem{band, withAlpha(theme.grid, 60), {0, 0, 0, 0}, 1});
        }
        // The swatch ties the row to its cells in the strip above.
        const float swatch = rowHeight * 0.5f;
        figure.add(RectItem{{columnX[0] + 2, y + (rowHeight - swatch) * 0.5f, swatch, swatch},
                            groupColor(group),
                            {0, 0, 0, 0},
                            1});
        const std::string layers =
            grouped ? layerListText(groups[std::size_t(r)].layers, 2)
            : row.firstLayer == row.lastLayer
                ? std::to_string(row.firstLayer)
                : std::to_string(row.firstLayer) + "–" + std::to_string(row.lastLayer);
        // A layer without RoPE says why, across the RoPE, base and scaling columns.
        const bool nopeRow = row.base.empty();
        // "yes" when the layers use their own type's RoPE; else whose, or why none.
        const std::string ropeCell = nopeRow && !row.noRopeReason.empty()
                                         ? "none: " + row.noRopeReason
                                     : row.rope == row.layerType ? "yes"
                                                                 : row.rope;
        const std::string cells[] = {layers,   row.layerType, row.attention,
                                     ropeCell, row.base,      row.scaling};
        for (int c = 0; c < 6; ++c) {
            if (nopeRow && c > 3) continue;
            const float right = (nopeRow && c == 3) || c + 1 == 6 ? table.right() : columnX[c + 1];
            const float left = columnX[c] + 4 + (c == 0 ? swatch + 2 : 0.0f);
            FittedText fitted = fitText(cells[c], textSize, right - left - 4);
            for (int detail = 1; grouped && c == 0 && detail >= 0 && fitted.text != cells[0];
                 --detail) {  // cut: say less rather than cut a number
                const std::string shorter = layerListText(groups[std::size_t(r)].layers, detail);
                fitted = fitText(shorter, textSize, right - left - 4);
                if (fitted.text == shorter) break;
            }
            figure.add(makeText({left, y + rowHeight * 0.5f}, fitted.text, fitted.size, theme.text,
                                HorizontalAlign::Left, VerticalAlign::Middle));
        }
        y += rowHeight;
    }
    if (shown < int(rowCount)) {
        figure.add(makeText({table.x, y + 4},
                            "… " + std::to_string(int(rowCount) - shown) +
                                " more rows (a taller figure shows them)",
                            textSize, theme.mutedText));
    }
}

}  // namespace poslab
