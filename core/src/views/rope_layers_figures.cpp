#include "poslab/views/rope_layers_figures.hpp"

#include <algorithm>

#include "poslab/base/format.hpp"
#include "poslab/encodings/rope_scaling.hpp"
#include "poslab/views/rope_figures.hpp"

namespace poslab {

namespace {

RopeLayerRow rowFor(const HfModelConfig& config, const HfLayer& layer, int index) {
    RopeLayerRow row;
    row.firstLayer = row.lastLayer = index;
    row.layerType = layer.layerType.empty() ? "full_attention" : layer.layerType;
    row.attention = layer.window == AttentionWindow::Sliding
                        ? "sliding, " + std::to_string(layer.slidingWindow) + " tokens"
                        : "full";
    if (layer.ropeVariant < 0 || layer.ropeVariant >= int(config.ropeVariants.size())) {
        row.rope = "none (NoPE)";
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
           a.base == b.base && a.scaling == b.scaling;
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
    y += lineHeight * 0.5f;

    const std::vector<RopeLayerRow> rows = ropeLayerRows(config);
    if (rows.empty()) {
        drawNote(figure, {table.x, y, table.width, table.bottom() - y},
                 "the config gives no num_hidden_layers: every layer uses the full-attention RoPE",
                 theme);
        return;
    }

    // Columns: share of the width, as the cells need it.
    const char* headers[] = {"layers", "layer type", "attention", "RoPE", "base", "scaling"};
    const float shares[] = {0.11f, 0.21f, 0.2f, 0.2f, 0.11f, 0.17f};
    float columnX[6];
    float x = table.x;
    for (int c = 0; c < 6; ++c) {
        columnX[c] = x;
        x += shares[c] * table.width;
    }
    // Rows shrink with their count, down to a size still readable; the rest is cut with a note.
    const float available = table.bottom() - y;
    const float rowHeight = std::clamp(available / float(rows.size() + 1), theme.fontSize * 1.15f,
                                       theme.fontSize * 1.9f);
    const float textSize = std::min(theme.fontSize, rowHeight / 1.3f);
    const int fitting = std::max(0, int(available / rowHeight) - 1);
    const int shown = std::min(int(rows.size()), fitting);

    for (int c = 0; c < 6; ++c) {
        figure.add(makeText({columnX[c] + 4, y + rowHeight * 0.5f}, headers[c], textSize,
                            theme.text, HorizontalAlign::Left, VerticalAlign::Middle));
    }
    y += rowHeight;
    figure.add(LineItem{{table.x, y}, {table.right(), y}, theme.axis, 1, false});
    const Rgba nopeFill = withAlpha(theme.accent, 40);
    for (int r = 0; r < shown; ++r) {
        const RopeLayerRow& row = rows[std::size_t(r)];
        const Box band{table.x, y, table.width, rowHeight};
        if (row.base.empty()) {
            figure.add(RectItem{band, nopeFill, {0, 0, 0, 0}, 1});
        } else if (r % 2 == 1) {
            figure.add(RectItem{band, withAlpha(theme.grid, 60), {0, 0, 0, 0}, 1});
        }
        const std::string layers =
            row.firstLayer == row.lastLayer
                ? std::to_string(row.firstLayer)
                : std::to_string(row.firstLayer) + "–" + std::to_string(row.lastLayer);
        const std::string cells[] = {layers,   row.layerType, row.attention,
                                     row.rope, row.base,      row.scaling};
        for (int c = 0; c < 6; ++c) {
            const float width = (c + 1 < 6 ? columnX[c + 1] : table.right()) - columnX[c] - 8;
            FittedText cell = fitText(cells[c], textSize, width);
            figure.add(makeText({columnX[c] + 4, y + rowHeight * 0.5f}, cell.text, cell.size,
                                theme.text, HorizontalAlign::Left, VerticalAlign::Middle));
        }
        y += rowHeight;
    }
    if (shown < int(rows.size())) {
        figure.add(makeText({table.x, y + 4},
                            "… " + std::to_string(int(rows.size()) - shown) +
                                " more rows (a taller figure shows them)",
                            textSize, theme.mutedText));
    }
}

}  // namespace poslab
