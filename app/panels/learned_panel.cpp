#include "panels/learned_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "poslab/base/limits.hpp"
#include "poslab/io/npy_reader.hpp"
#include "state/ranges.hpp"
#include "ui/widgets.hpp"

namespace poslab::ui {

namespace {

constexpr int kMaxGuiTableLength = 16384;  // with d_model <= 2048: at most 256 MB of doubles
constexpr int kMaxGuiDModel = 2048;

// Dear ImGui's text field on a std::string (what misc/cpp/imgui_stdlib does; Debian's libimgui
// does not build that file).
int resizeString(ImGuiInputTextCallbackData* data) {
    if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
        auto* text = static_cast<std::string*>(data->UserData);
        text->resize(std::size_t(data->BufTextLen));
        data->Buf = text->data();
    }
    return 0;
}

bool inputString(const char* label, std::string* text, ImGuiInputTextFlags flags) {
    return ImGui::InputText(label, text->data(), text->capacity() + 1,
                            flags | ImGuiInputTextFlags_CallbackResize, resizeString, text);
}

std::string baseName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

LearnedParams paramsOf(const LearnedViewState& view) {
    LearnedParams params;
    params.seqLen = std::clamp(view.seqLen, 1, kMaxGuiTableLength);
    params.dModel = std::clamp(view.dModel, 1, kMaxGuiDModel);
    params.seed = std::uint64_t(std::max(0, view.seed));
    params.std = view.std;
    return params;
}

const ImVec4 kErrorColor{1.0f, 0.45f, 0.4f, 1.0f};

}  // namespace

Status LearnedPanel::loadTable(LearnedViewState& view, const std::string& path) {
    if (path.empty()) return Error{"enter the path of a .npy file first"};
    auto table = loadNpy(path);
    if (!table) return table.error();
    const std::size_t rows = table->rows;
    if (rows > std::size_t(kMaxSeqLen)) {
        return Error{path + ": " + std::to_string(rows) + " positions, more than PosLab shows (" +
                     std::to_string(kMaxSeqLen) + ")"};
    }
    view.loaded = std::make_shared<const Matrix>(std::move(table).value());
    view.loadedPath = path;
    view.useLoaded = true;
    // Show a quarter more than the table, so the undefined region is in view from the start.
    view.positionsShown = int(
        std::min<std::size_t>(rows + std::max<std::size_t>(1, rows / 4), std::size_t(kMaxSeqLen)));
    view.firstCurveDimension = std::min(view.firstCurveDimension, int(view.loaded->cols) - 1);
    return success();
}

Result<std::shared_ptr<const Matrix>> LearnedPanel::tableFor(const LearnedViewState& view) {
    if (view.useLoaded && view.loaded) return view.loaded;
    auto table = learnedTable(paramsOf(view));
    if (!table) return table.error();
    return std::shared_ptr<const Matrix>(std::make_shared<Matrix>(std::move(table).value()));
}

LearnedFigureOptions LearnedPanel::optionsFor(const LearnedViewState& view) const {
    LearnedFigureOptions options;
    const bool loaded = view.useLoaded && view.loaded;
    options.table = loaded ? view.loaded : generated_;
    options.source = loaded ? baseName(view.loadedPath) : learnedSourceText(paramsOf(view));
    const int columns = options.table ? int(options.table->cols) : 1;
    options.positionsShown = std::clamp(view.positionsShown, 1, kMaxSeqLen);
    options.firstCurveDimension = std::clamp(view.firstCurveDimension, 0, columns - 1);
    options.curveCount = std::clamp(view.curveCount, 1, 8);
    options.colormap = view.colormap;
    return options;
}

void LearnedPanel::draw(AppState& state, FrameContext& context) {
    LearnedViewState& view = state.learned;
    // A .npy file dropped onto the window loads like the Load button.
    if (!context.droppedFiles.empty()) {
        view.npyPath = context.droppedFiles.front();
        context.droppedFiles.clear();
        const Status status = loadTable(view, view.npyPath);
        loadFailed_ = !status;
        loadMessage_ = status ? "loaded " + baseName(view.loadedPath) : status.error().message;
        if (context.statusMessage) *context.statusMessage = loadMessage_;
    }
    // The generated table follows its parameters; a failure keeps the previous table.
    const LearnedParams params = paramsOf(view);
    const TableKey key{params.seqLen, params.dModel, int(params.seed), params.std};
    if (!tableKey_ || !(*tableKey_ == key)) {
        auto table = learnedTable(params);
        if (table) {
            generated_ = std::make_shared<const Matrix>(std::move(table).value());
            tableError_.clear();
        } else {
            tableError_ = table.error().message;
        }
        tableKey_ = key;
    }
    panelLayout(
        state, context, [&] { drawControls(view, context); }, [&] { drawFigure(view, context); });
}

Figure LearnedPanel::exportFigure(const AppState& state, float width, float height,
                                  const Theme& theme) const {
    Figure figure = emptyFigure(width, height, theme);
    const Box area{0, 0, width, height};
    auto table = tableFor(state.learned);
    if (!table) {
        drawNote(figure, area, table.error().message, theme);
        return figure;
    }
    LearnedFigureOptions options = optionsFor(state.learned);
    options.table = *table;
    if (auto status = drawLearnedFigure(figure, area, options, theme); !status) {
        drawNote(figure, area, status.error().message, theme);
    }
    return figure;
}

Result<Matrix> LearnedPanel::exportData(const AppState& state) const {
    auto table = tableFor(state.learned);
    if (!table) return table.error();
    LearnedFigureOptions options = optionsFor(state.learned);
    options.table = *table;
    return learnedShownTable(options);
}

void LearnedPanel::drawControls(LearnedViewState& view, FrameContext& context) {
    sectionHeader("Table");
    int source = view.useLoaded && view.loaded ? 1 : 0;
    if (ImGui::RadioButton("seeded normal", &source, 0)) view.useLoaded = false;
    tooltipForLastItem(
        "An nn.Embedding at initialisation: every entry std * N(0, 1). Untrained, "
        "so there is no structure across positions yet.");
    ImGui::SameLine();
    ImGui::BeginDisabled(!view.loaded);
    if (ImGui::RadioButton("loaded .npy", &source, 1)) view.useLoaded = true;
    ImGui::EndDisabled();
    tooltipForLastItem("The table last loaded from a .npy file (load one below).");

    if (source == 0) {
        if (ImGui::InputInt("seed", &view.seed)) view.seed = std::max(0, view.seed);
        tooltipForLastItem("The same seed always gives the same table.");
        sliderDouble("std", &view.std, 1e-4, 10.0, "%.4g",
                     "Standard deviation of the initial values. GPT-2 and BERT use 0.02.", true);
        sliderInt("table length", &view.seqLen, 1, kMaxGuiTableLength,
                  "Rows of the table: the positions that have a vector. Positions from here on "
                  "do not exist for the model.",
                  true);
        sliderInt("d_model", &view.dModel, 1, kMaxGuiDModel,
                  "Columns: the width of each position's vector.", true);
        if (!tableError_.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
            ImGui::TextWrapped("%s", tableError_.c_str());
            ImGui::PopStyleColor();
        }
    } else if (view.loaded) {
        ImGui::TextWrapped("%s: %zu positions x %zu dimensions", baseName(view.loadedPath).c_str(),
                           view.loaded->rows, view.loaded->cols);
    }

    sectionHeader("Load a trained table");
    const bool enter = inputString("path", &view.npyPath, ImGuiInputTextFlags_EnterReturnsTrue);
    tooltipForLastItem(
        "A .npy file from numpy.save: a 2-D float32 or float64 array, rows = "
        "positions, columns = dimensions (e.g. GPT-2's wpe weight). Dropping a file onto "
        "the window loads it too.");
    if (ImGui::Button("Load") || enter) {
        const Status status = loadTable(view, view.npyPath);
        loadFailed_ = !status;
        loadMessage_ = status ? "loaded " + baseName(view.loadedPath) : status.error().message;
        if (context.statusMessage) *context.statusMessage = loadMessage_;
    }
    tooltipForLastItem(
        "Read the file. A file that is not a 2-D float .npy is refused with a "
        "message and the view stays as it was.");
    if (!loadMessage_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, loadFailed_
                                                 ? kErrorColor
                                                 : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", loadMessage_.c_str());
        ImGui::PopStyleColor();
    }

    sectionHeader("Display");
    const int rows = view.useLoaded && view.loaded ? int(view.loaded->rows) : paramsOf(view).seqLen;
    const int columns =
        view.useLoaded && view.loaded ? int(view.loaded->cols) : paramsOf(view).dModel;
    const int most = std::max(16, int(std::min<long long>(4LL * rows, kMaxSeqLen)));
    view.positionsShown = std::clamp(view.positionsShown, 1, most);
    sliderInt("positions to show", &view.positionsShown, 1, most,
              "Positions on the axes. Past the table's length they are undefined: a learned "
              "table simply has no vector there, which is why learned positions cannot "
              "extrapolate to longer sequences.",
              true);
    if (ImGui::Button("= table length")) view.positionsShown = rows;
    tooltipForLastItem("Show exactly the table.");
    ImGui::SameLine();
    if (ImGui::Button("+25%")) view.positionsShown = std::min(most, rows + std::max(1, rows / 4));
    tooltipForLastItem("Show a quarter more than the table: the undefined region.");
    view.firstCurveDimension = std::clamp(view.firstCurveDimension, 0, std::max(0, columns - 1));
    sliderInt("first dimension", &view.firstCurveDimension, 0, std::max(0, columns - 1),
              "The first of the dimensions plotted against position.");
    sliderInt("dimensions", &view.curveCount, kCurveCountRange.low, kCurveCountRange.high,
              "How many consecutive dimensions to plot.");
    comboEnum("colormap", &view.colormap, allColormaps(), colormapName,
              "Colour scale of the table. Blue-white-red is centred at zero. The cosine "
              "similarity always uses blue-white-red on [-1, 1].");
}

void LearnedPanel::drawFigure(LearnedViewState& view, FrameContext& context) {
    const LearnedFigureOptions options = optionsFor(view);
    if (!options.table) {
        const Canvas canvas = beginCanvas("learned");
        const Box area{0, 0, canvas.box.width, canvas.box.height};
        Figure figure = emptyFigure(area.width, area.height, context.theme);
        drawNote(figure, area, tableError_.empty() ? "no table" : tableError_, context.theme);
        drawCanvasFigure(canvas, figure, context);
        return;
    }
    const DataKey key{options.table, options.positionsShown, options.firstCurveDimension,
                      options.curveCount};
    LearnedFigureFrames frames;
    const Canvas canvas = cache_.show(
        "learned", key, context, [](Box area) { return learnedLayout(area); },
        [&](const LearnedLayout& layout) { return computeLearnedFigureData(options, layout); },
        [&](Figure& figure, const LearnedLayout& layout, const LearnedFigureData& data) {
            drawLearnedFigure(figure, layout, options, data, context.theme, &frames);
        });
    if (cache_.ok() && canvas.hovered) showTooltip(options, frames, canvas.mouse);
}

void LearnedPanel::showTooltip(const LearnedFigureOptions& options,
                               const LearnedFigureFrames& frames, Point mouse) const {
    const Matrix& table = *options.table;
    const LearnedFigureData& data = cache_.data();
    const long long rows = (long long)table.rows;
    const long long shown = learnedPositionsShown(options);
    auto undefinedLine = [&](long long position) {
        ImGui::Text("position %lld: undefined", position);
        ImGui::TextDisabled("the table has %lld positions (0..%lld); nothing was trained here",
                            rows, rows - 1);
    };
    if (frames.table.plot.contains(mouse)) {
        const auto [x, y] = frames.table.toData(mouse);
        const long long position = std::clamp<long long>(std::llround(std::floor(y)), 0, shown - 1);
        const int dimension = std::clamp(int(std::floor(x)), 0, int(table.cols) - 1);
        ImGui::BeginTooltip();
        if (position >= rows) {
            undefinedLine(position);
        } else {
            ImGui::Text("position %lld, dimension %d", position, dimension);
            ImGui::Text("value %.6g", table(std::size_t(position), std::size_t(dimension)));
            if (data.table.rowsPerTexel > 1 || data.table.colsPerTexel > 1) {
                ImGui::TextDisabled("zoomed out: a pixel is the mean of %lld x %lld cells",
                                    data.table.rowsPerTexel, data.table.colsPerTexel);
            }
        }
        ImGui::EndTooltip();
    } else if (frames.cosine.plot.contains(mouse)) {
        const auto [x, y] = frames.cosine.toData(mouse);
        const long long a = std::clamp<long long>(std::llround(std::floor(y)), 0, shown - 1);
        const long long b = std::clamp<long long>(std::llround(std::floor(x)), 0, shown - 1);
        ImGui::BeginTooltip();
        if (a >= rows || b >= rows) {
            undefinedLine(std::max(a, b));
        } else {
            ImGui::Text("positions %lld and %lld", a, b);
            const double cosine = cosineSimilarity(table, std::size_t(a), std::size_t(b));
            if (std::isnan(cosine)) {
                ImGui::TextUnformatted("cosine undefined: a zero or non-finite vector");
            } else {
                ImGui::Text("cosine similarity %.6f", cosine);
            }
            if (data.cosine.rowsPerTexel > 1) {
                ImGui::TextDisabled("zoomed out: a pixel is the mean of %lld x %lld pairs",
                                    data.cosine.rowsPerTexel, data.cosine.rowsPerTexel);
            }
        }
        ImGui::EndTooltip();
    } else if (frames.curves.plot.contains(mouse)) {
        const long long position =
            std::clamp<long long>(std::llround(frames.curves.toData(mouse).first), 0, shown - 1);
        ImGui::BeginTooltip();
        if (position >= rows) {
            undefinedLine(position);
        } else {
            ImGui::Text("position %lld", position);
            for (const LearnedCurve& curve : data.curves) {
                ImGui::Text("dim %d: %.6g", curve.dimension,
                            table(std::size_t(position), std::size_t(curve.dimension)));
            }
        }
        ImGui::EndTooltip();
    }
}

}  // namespace poslab::ui
