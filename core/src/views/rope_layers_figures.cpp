#include "poslab/views/rope_layers_figures.hpp"

#include <algorithm>
#include <array>

#include "poslab/base/format.hpp"
#include "poslab/encodings/attention_temperature.hpp"
#include "poslab/encodings/rope_scaling.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/views/print_room.hpp"
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

// Identifiers ("sliding_attention", "no_rope_layers") may break after an underscore: a space
// there for wrapText, taken out again on each line.
std::string breakableCell(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        out += text[i];
        if (text[i] == '_' && i + 1 < text.size() && text[i + 1] != ' ') out += ' ';
    }
    return out;
}
std::string joinedCell(std::string line) {
    for (std::size_t at = line.find("_ "); at != std::string::npos; at = line.find("_ ", at + 1))
        line.erase(at + 1, 1);
    return line;
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
// detail 2: with "(every n)"; 1: without it; 0: the first and last runs only.
std::string layerListText(const std::vector<int>& layers, int detail) {
    if (layers.empty()) return "";
    if (layers.size() >= 3) {
        const int step = layers[1] - layers[0];
        bool arithmetic = step > 1;
        for (std::size_t i = 2; arithmetic && i < layers.size(); ++i) {
            arithmetic = layers[i] - layers[i - 1] == step;
        }
        if (arithmetic) {
            return std::to_string(layers[0]) + ", " + std::to_string(layers[1]) + ", …,\u00A0" +
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
    // U+00A0 keeps "…," with the run after it when a narrow cell wraps the list.
    return detail >= 1 ? runs[0] + ", " + runs[1] + ", …,\u00A0" + runs.back()
                       : runs[0] + ", …,\u00A0" + runs.back();
}

// What drawRopeLayersWith drew: the rows of the table left out for want of room, and whether the
// notes had three lines each (a file whose height follows its width, a tall figure), whatever
// was asked.
struct LayersDrawn {
    int rowsLeftOut = 0;
    bool tall = false;
};
// The figure with each note above the table (a RoPE variant's, Llama 4's query scale) on at most
// `noteLines` lines.
LayersDrawn drawRopeLayersWith(Figure& figure, Box area, const HfModelConfig& config,
                               const Theme& theme, int noteLines) {
    const std::string model = config.modelType.empty() ? "model" : config.modelType;
    const int layerCount = int(config.layers.size());
    int nope = 0;
    for (const HfLayer& layer : config.layers) nope += layer.ropeVariant < 0 ? 1 : 0;
    std::string title = "Layers of " + model + ": " + std::to_string(layerCount) + " layers";
    if (nope > 0) title += ", " + std::to_string(nope) + " without RoPE (NoPE)";
    const int titleLines = drawTitle(figure, area, title, theme);

    const float margin = std::max(12.0f, area.width * 0.03f);
    // 0.6 of a title size below the title's last line at least: two lines at the title size
    // (a one-column print, titles.cpp's wrap before shrink) reach 2.35 title sizes (#28).
    const float titleBottom =
        titleLines > 0 ? theme.titleSize * 0.2f + float(titleLines - 1) * 1.15f * figure.titleSize +
                             figure.titleSize
                       : 0.f;
    const float top =
        area.y + std::max({theme.fontSize, titleBandHeight(theme, 2.6f),
                           titleLines > 0 ? titleBottom + 0.6f * theme.titleSize : 0.f});
    Box table{area.x + margin, top, area.width - 2 * margin, area.bottom() - top - margin};
    if (table.width < 40 || table.height < 20) return {};

    // One line per RoPE variant: what "full_attention" and "sliding_attention" stand for.
    float y = table.y;
    const float lineHeight = theme.fontSize * 1.5f;
    // Wrapped, not cut: a one-column figure has room for a third of "head_dim 256, base …".
    // (A shorter figure gets `noteLines`; at one line a line that would be cut says less
    // instead, `shorter`.)
    const bool tall = heightMayGrow(theme) || table.height > 24 * theme.fontSize;
    if (tall) noteLines = 3;
    auto addWrapped = [&](const std::string& text, const std::string& shorter = "") {
        const float minScale = readableMinScale(theme.fontSize, theme);
        WrappedText wrapped = wrapToFit(text, theme.fontSize, table.width, noteLines, minScale);
        // Below three lines a note, the shorter text whole on one line rather than the whole
        // text on two (Llama 4's formula at 1024x768 F5, its table then keeps every row).
        const bool shorterOnOne = !tall && !shorter.empty() && wrapped.lines.size() > 1 &&
                                  estimateTextWidth(shorter, theme.fontSize) <= table.width;
        if ((wrapped.cut() || shorterOnOne) && !shorter.empty())
            wrapped = wrapToFit(shorter, theme.fontSize, table.width, noteLines, minScale);
        for (const std::string& line : wrapped.lines) {
            figure.add(makeText({table.x, y}, line, wrapped.size, theme.mutedText));
            y += wrapped.size * 1.2f;
        }
        y += lineHeight - theme.fontSize * 1.2f;
    };
    for (const HfRopeVariant& variant : config.ropeVariants)
        addWrapped("RoPE " + variant.layerType + ": " + ropeTitle(variant.rope));
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
                                    "))";
        addWrapped(values);
        // (At 1024x768 F5 the whole line was cut: "… exactly 1 before 8…".)
        addWrapped(formula + ", exactly 1 before " + formatValue(t.floorScale - 1, 6), formula);
    }
    y += lineHeight * 0.25f;

    const std::vector<RopeLayerRow> rows = ropeLayerRows(config);
    if (rows.empty()) {
        drawNote(figure, {table.x, y, table.width, table.bottom() - y},
                 "the config gives no num_hidden_layers: every layer uses the full-attention RoPE",
                 theme);
        return {0, tall};
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

    // Runs of consecutive layers when they are few and fit; else one row per distinct setup
    // (the strip above keeps the order of the layers visible).
    const float available = table.bottom() - y;
    const float minRow = theme.fontSize * 1.15f;
    constexpr std::size_t kMaxRunRows = 16;
    const bool grouped = groups.size() < rows.size() &&
                         (rows.size() > kMaxRunRows || float(rows.size() + 1) * minRow > available);
    const std::size_t rowCount = grouped ? groups.size() : rows.size();
    const float rowHeight =
        std::clamp(available / float(rowCount + 1), minRow, theme.fontSize * 1.9f);
    float textSize = std::min(theme.fontSize, rowHeight / 1.3f);

    // Every row's cells as text first: the columns are sized to what they hold.
    constexpr int kColumns = 6;
    constexpr int kRopeColumn = 3;
    const std::string headers[kColumns] = {"layers", "layer type", "attention",
                                           "RoPE",   "base",       "scaling"};
    struct TableRow {
        std::array<std::string, kColumns> cells;
        std::size_t group = 0;
        bool nope = false;  // no RoPE: why, in one cell from the RoPE column to the table's end
    };
    std::vector<TableRow> tableRows;
    bool everyRopeCellYes = true;
    for (std::size_t r = 0; r < rowCount; ++r) {
        const RopeLayerRow& row = grouped ? groups[r].cells : rows[r];
        TableRow out;
        while (out.group + 1 < groups.size() && !sameCells(groups[out.group].cells, row))
            ++out.group;
        out.nope = row.base.empty();
        // "yes" when the layers use their own type's RoPE; else whose, or why none.
        const std::string ropeCell = out.nope && !row.noRopeReason.empty()
                                         ? "none: " + row.noRopeReason
                                     : row.rope == row.layerType ? "yes"
                                                                 : row.rope;
        everyRopeCellYes = everyRopeCellYes && (out.nope || ropeCell == "yes");
        const std::string layers =
            grouped ? layerListText(groups[r].layers, 2)
            : row.firstLayer == row.lastLayer
                ? std::to_string(row.firstLayer)
                : std::to_string(row.firstLayer) + "–" + std::to_string(row.lastLayer);
        out.cells = {layers, row.layerType, row.attention, ropeCell, row.base, row.scaling};
        tableRows.push_back(std::move(out));
    }

    // Column widths: each at least its widest unbreakable word (a number, "sliding_" of a layer
    // type), then the rest of the width to the columns whose text would otherwise wrap. When
    // even the words do not fit side by side (one column of print), the text gets smaller down
    // to the readable floor, then a RoPE column saying only "yes" goes (its NoPE rows' reason
    // moves to the base column).
    const float swatch = rowHeight * 0.5f;
    const float padding = 8;
    std::vector<int> columns = {0, 1, 2, 3, 4, 5};
    auto columnExtra = [&](int c) { return padding + (c == 0 ? swatch + 2 : 0.0f); };
    // The column a NoPE row's reason starts in (it runs to the table's right edge).
    auto nopeColumn = [&] { return columns.size() == kColumns ? kRopeColumn : kRopeColumn + 1; };
    auto textOf = [&](const TableRow& row, int c) -> const std::string& {
        return row.nope && c == nopeColumn() ? row.cells[kRopeColumn] : row.cells[std::size_t(c)];
    };
    auto skipped = [&](const TableRow& row, int c) { return row.nope && c > nopeColumn(); };
    std::array<float, kColumns> widest{}, whole{};
    auto measure = [&](float size) {
        widest.fill(0);
        whole.fill(0);
        for (int c : columns) {
            widest[c] = whole[c] = estimateTextWidth(headers[c], size);
            for (const TableRow& row : tableRows) {
                if (skipped(row, c) || (row.nope && c == nopeColumn())) continue;  // spans
                whole[c] = std::max(whole[c], estimateTextWidth(textOf(row, c), size));
                for (const std::string& word : wrapText(breakableCell(textOf(row, c)), size, 1))
                    widest[c] = std::max(widest[c], estimateTextWidth(word, size));
            }
            widest[c] += columnExtra(c);
            whole[c] += columnExtra(c);
        }
    };
    auto sum = [](const std::array<float, kColumns>& a) {
        float total = 0;
        for (float v : a) total += v;
        return total;
    };
    measure(textSize);
    const float smallestSize = atLeastMinText(textSize * readableMinScale(textSize, theme), theme);
    if (sum(widest) > table.width && textSize > smallestSize) {
        textSize = std::max(smallestSize, textSize * table.width / sum(widest));
        measure(textSize);
    }
    if (sum(widest) > table.width && everyRopeCellYes) {
        columns.erase(columns.begin() + kRopeColumn);
        measure(textSize);
    }
    // Still too wide, or a cell that three lines cannot hold: each row as a block, its layers
    // on the first lines and its cells, named, on the next ones, across the whole width.
    bool stacked = sum(widest) > table.width;
    std::array<float, kColumns> width{};
    std::array<float, kColumns + 1> columnX{};
    auto rightOf = [&](const TableRow* row, int c) {
        if (c == columns.back() || (row && row->nope && c == nopeColumn())) return table.right();
        const auto next = std::find(columns.begin(), columns.end(), c) + 1;
        return columnX[*next];
    };

    // A cell's lines: wrapped at its column (after "_" too), never shrunk on its own, so the
    // table keeps one text size.
    constexpr int kMaxCellLines = 3;
    const float lineStep = textSize * 1.15f;
    auto cellLines = [&](const std::string& text, float room) {
        WrappedText wrapped = wrapToFit(breakableCell(text), textSize, room, kMaxCellLines, 1);
        for (std::string& line : wrapped.lines) line = joinedCell(line);
        return wrapped;
    };
    auto heightOf = [&](std::size_t lines) {
        return std::max(rowHeight, float(lines) * lineStep + (rowHeight - lineStep));
    };
    auto addCell = [&](const std::vector<std::string>& lines, float left, float top, float height,
                       Rgba color) {
        const float first = top + height * 0.5f - float(lines.size() - 1) * lineStep * 0.5f;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            figure.add(makeText({left, first + float(i) * lineStep}, lines[i], textSize, color,
                                HorizontalAlign::Left, VerticalAlign::Middle));
        }
    };

    // Every row's lines, then its height: a file's canvas grows to show them all.
    struct LaidRow {
        std::array<std::vector<std::string>, kColumns> lines;
        float height = 0;
    };
    std::vector<LaidRow> laid;
    float allRows = 0;
    for (;;) {
        if (stacked) columns = {0};
        const float wholeTotal = sum(whole), widestTotal = sum(widest);
        for (int c : columns) {
            if (wholeTotal <= table.width) {  // every cell on one line: the slack shared evenly
                width[c] = whole[c] + (table.width - wholeTotal) / float(columns.size());
            } else if (widestTotal <= table.width) {  // the room left to the columns that wrap
                width[c] = widest[c] + (table.width - widestTotal) * (whole[c] - widest[c]) /
                                           std::max(wholeTotal - widestTotal, 1e-3f);
            } else {
                width[c] = table.width * widest[c] / widestTotal;
            }
        }
        float x = table.x;
        for (int c : columns) {
            columnX[c] = x;
            x += width[c];
        }
        laid.assign(tableRows.size(), LaidRow{});
        allRows = 0;
        bool cut = false;
        for (std::size_t r = 0; r < tableRows.size(); ++r) {
            const TableRow& row = tableRows[r];
            std::size_t tallest = 1;
            if (stacked) {
                const float room = table.width - columnExtra(0);
                const std::string& rope = row.cells[kRopeColumn];
                std::string details = row.cells[1] + " · " + row.cells[2] + " · " +
                                      (row.nope        ? rope
                                       : rope == "yes" ? "RoPE"
                                                       : "RoPE of " + rope);
                if (!row.nope) details += " · base " + row.cells[4] + " · " + row.cells[5];
                std::vector<std::string>& lines = laid[r].lines[0];
                lines = cellLines(grouped ? "layers " + layerListText(groups[r].layers, 2)
                                          : "layers " + row.cells[0],
                                  room)
                            .lines;
                for (std::string& line : cellLines(details, room).lines)
                    lines.push_back(std::move(line));
                laid[r].height = heightOf(lines.size());
                allRows += laid[r].height;
                continue;
            }
            for (int c : columns) {
                if (skipped(row, c)) continue;
                const float room = rightOf(&row, c) - columnX[c] - columnExtra(c);
                WrappedText cell = cellLines(textOf(row, c), room);
                // A list of layers cut: say less ("0–4, 6–10, …") rather than cut a number.
                for (int detail = 1; grouped && c == 0 && detail >= 0 && cell.cut(); --detail) {
                    cell = cellLines(layerListText(groups[r].layers, detail), room);
                }
                cut = cut || cell.cut();
                tallest = std::max(tallest, cell.lines.size());
                laid[r].lines[std::size_t(c)] = std::move(cell.lines);
            }
            laid[r].height = heightOf(tallest);
            allRows += laid[r].height;
        }

        if (!cut || stacked) break;
        stacked = true;
    }

    // The header row (a stacked table names nothing in columns: no header).
    std::array<std::vector<std::string>, kColumns> headerLines;
    std::size_t headerHeight = 1;
    for (int c : columns) {
        if (stacked) break;
        headerLines[c] = cellLines(headers[c], rightOf(nullptr, c) - columnX[c] - padding).lines;
        headerHeight = std::max(headerHeight, headerLines[c].size());
    }
    float headerRow = stacked ? 0.0f : heightOf(headerHeight);
    askForHeight(theme, y + headerRow + allRows - table.bottom());
    // rowHeight is a share of the room for rows of one line: where cells on two or three lines
    // run the rows past the table, every row gives up the same padding, down to minRow (Llama 4
    // at 1024x768 F5 lost its NoPE row once its notes took two lines each).
    if (const float over = y + headerRow + allRows - table.bottom();
        over > 0 && !heightMayGrow(theme) && rowHeight > minRow) {
        const float less =
            std::min(rowHeight - minRow, over / (float(laid.size()) + (stacked ? 0.0f : 1.0f)));
        if (!stacked) headerRow -= less;
        for (LaidRow& row : laid) row.height -= less;
    }
    if (y + headerRow + laid.front().height > table.bottom()) {  // not even one row: say so
        figure.add(makeText(
            {table.x, y}, std::to_string(rowCount) + " rows of layers: a taller figure shows them",
            textSize, theme.mutedText));
        return {int(rowCount), tall};
    }
    for (int c : columns) addCell(headerLines[c], columnX[c] + 4, y, headerRow, theme.text);
    y += headerRow;
    if (!stacked) figure.add(LineItem{{table.x, y}, {table.right(), y}, theme.axis, 1, false});

    const Rgba nopeFill = withAlpha(theme.accent, 40);
    const float moreLine = textSize * 1.6f;  // room for "… N more rows" under the last row
    int shown = 0;
    for (std::size_t r = 0; r < tableRows.size(); ++r) {
        const TableRow& row = tableRows[r];
        const float height = laid[r].height;
        const bool last = r + 1 == tableRows.size();
        if (y + height > table.bottom() - (last ? 0 : moreLine)) break;
        const Box band{table.x, y, table.width, height};
        if (row.nope) {
            figure.add(RectItem{band, nopeFill, {0, 0, 0, 0}, 1});
        } else if (r % 2 == 1) {
            figure.add(RectItem{band, withAlpha(theme.grid, 60), {0, 0, 0, 0}, 1});
        }
        // The swatch ties the row to its cells in the strip above.
        figure.add(RectItem{{columnX[0] + 2, y + (height - swatch) * 0.5f, swatch, swatch},
                            groupColor(row.group),
                            {0, 0, 0, 0},
                            1});
        for (int c : columns) {
            const std::vector<std::string>& lines = laid[r].lines[std::size_t(c)];
            if (!lines.empty())
                addCell(lines, columnX[c] + columnExtra(c) - padding + 4, y, height, theme.text);
        }
        y += height;
        ++shown;
    }
    if (shown < int(rowCount)) {
        // The reason where the table is wide enough for it (it ran past a 237 px figure).
        const std::string more = "… " + std::to_string(int(rowCount) - shown) + " more rows";
        const std::string why = more + " (a taller figure shows them)";
        const FittedText fitted =
            fitText(estimateTextWidth(why, textSize) <= table.width ? why : more, textSize,
                    table.width, readableMinScale(textSize, theme));
        figure.add(makeText({table.x, y + 4}, fitted.text, fitted.size, theme.mutedText));
    }
    return {int(rowCount) - shown, tall};
}

}  // namespace

void drawRopeLayers(Figure& figure, Box area, const HfModelConfig& config, const Theme& theme) {
    // A note wraps onto a second line before it shrinks, as titles do, unless the table then
    // shows fewer rows than with a line each (a short screen, 480x320). At 1024x768 F5 a line
    // each shrank Llama 4's first two notes to 80 % under the formula's full size (#28).
    const Figure::Checkpoint start = figure.checkpoint();
    const LayersDrawn two = drawRopeLayersWith(figure, area, config, theme, 2);
    if (two.tall || two.rowsLeftOut == 0) return;
    figure.rollBack(start);
    if (drawRopeLayersWith(figure, area, config, theme, 1).rowsLeftOut < two.rowsLeftOut) return;
    figure.rollBack(start);
    drawRopeLayersWith(figure, area, config, theme, 2);
}

}  // namespace poslab
