#include "ui/widgets.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // ImGuiTabBar: scrolledTabBars

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>
#include <variant>

#include "gfx/figure_renderer.hpp"
#include "poslab/figure/legend.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "ui/layout_sweep.hpp"

namespace poslab::ui {

namespace {

int resizeString(ImGuiInputTextCallbackData* data) {
    if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
        auto* text = static_cast<std::string*>(data->UserData);
        text->resize(std::size_t(data->BufTextLen));
        data->Buf = text->data();
    }
    return 0;
}

// --check-layout: the value's text (and the frame's padding either side) against the width of
// the next item's field (ImGui::CalcItemWidth, less `besideField`: an input's - and + buttons).
void auditNextField(const char* label, const std::string& value, float besideField = 0) {
    if (!controlSweep().checking) return;
    const float text = ImGui::CalcTextSize(value.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x;
    auditControlWidth(label, value, text, ImGui::CalcItemWidth() - besideField);
}

// A control's field beside its label where the row leaves it `needed` pixels (its value whole);
// else the label on a line of its own above a field across the column (a 480x320 window's
// controls column left its sliders 58 px, "2 positions/s" cut to "ositions"). Returns the label
// to give ImGui: the same ID either way ("###" and the label), so a drag that changes the value's
// width keeps its hold. A label hidden with "##" stays as it is.
std::string placeFieldFor(const char* label, float needed) {
    const std::string_view whole(label);
    const std::string shown(whole.substr(0, whole.find("##")));
    if (shown.empty()) return label;
    const std::string id = "###" + std::string(whole);
    if (ImGui::CalcItemWidth() >= needed) return shown + id;
    ImGui::TextUnformatted(shown.c_str());
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
    return id;
}

float widestText(std::initializer_list<std::string> values) {
    float widest = 0;
    for (const std::string& value : values)
        widest = std::max(widest, ImGui::CalcTextSize(value.c_str()).x);
    return widest;
}

// placeFieldFor with the widest of `values` and the frame's padding; `besideField`: what the
// item's width holds besides the field (an input's - and + buttons).
std::string placeField(const char* label, std::initializer_list<std::string> values,
                       float besideField = 0) {
    return placeFieldFor(label,
                         widestText(values) + 2 * ImGui::GetStyle().FramePadding.x + besideField);
}

// ImGui's InputScalar: the field, then the - and + buttons a frame high, each after a gap.
float stepButtonsWidth() {
    return 2 * (ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
}

// The value as the slider shows it (`format` is its printf format: "%d", "%.3f", "%.0f px").
template <class Number>
std::string formatted(const char* format, Number value) {
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

}  // namespace

bool inputInt(const char* label, int* value, const char* tooltip) {
    const float buttons = stepButtonsWidth();
    const std::string text = std::to_string(*value);
    const std::string shownLabel = placeField(label, {text, "000000"}, buttons);
    auditNextField(label, text, buttons);
    const bool changed = ImGui::InputInt(shownLabel.c_str(), value);
    if (changed) *value = std::max(0, *value);
    tooltipForLastItem(tooltip);
    return changed;
}

bool inputDouble(const char* label, double* value, double step, double fastStep, const char* format,
                 const char* tooltip) {
    const float buttons = stepButtonsWidth();
    const std::string text = formatted(format, *value);
    const std::string shownLabel = placeField(label, {text, formatted(format, -1.0)}, buttons);
    auditNextField(label, text, buttons);
    const bool changed = ImGui::InputDouble(shownLabel.c_str(), value, step, fastStep, format);
    tooltipForLastItem(tooltip);
    return changed;
}

bool inputInts(const char* label, int* values, int count, const char* tooltip) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float gaps = float(count - 1) * style.ItemInnerSpacing.x;  // ImGui's InputScalarN
    float widest = 0;
    std::string widestValue;
    for (int i = 0; i < count; ++i) {
        const std::string text = std::to_string(values[i]);
        const float width = ImGui::CalcTextSize(text.c_str()).x;
        if (widestValue.empty() || width > widest) widest = width, widestValue = text;
    }
    const float padding = 2 * style.FramePadding.x;
    const float field = std::max(widest, ImGui::CalcTextSize("000").x) + padding;
    const std::string shownLabel = placeFieldFor(label, float(count) * field + gaps);
    if (controlSweep().checking && count > 0)
        auditControlWidth(label, widestValue, widest + padding,
                          (ImGui::CalcItemWidth() - gaps) / float(count));
    const bool changed = ImGui::InputScalarN(shownLabel.c_str(), ImGuiDataType_S32, values, count);
    tooltipForLastItem(tooltip);
    return changed;
}

bool beginCombo(const char* label, const std::string& preview,
                const std::vector<std::string>& choices) {
    // ImGui's BeginCombo: the preview, then an arrow button a frame high.
    const float arrow = ImGui::GetFrameHeight();
    const float padding = 2 * ImGui::GetStyle().FramePadding.x;
    float widest = ImGui::CalcTextSize(preview.c_str()).x;
    for (const std::string& choice : choices)
        widest = std::max(widest, ImGui::CalcTextSize(choice.c_str()).x);
    const std::string shownLabel = placeFieldFor(label, widest + padding + arrow);
    if (controlSweep().checking)
        auditControlWidth(label, preview, ImGui::CalcTextSize(preview.c_str()).x + padding + arrow,
                          ImGui::CalcItemWidth());
    return ImGui::BeginCombo(shownLabel.c_str(), preview.c_str());
}

bool pathField(const char* id, const char* hint, std::string* path, const char* button,
               const char* tooltip, const char* buttonTooltip) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float buttonWidth =
        button ? ImGui::CalcTextSize(button).x + 2 * style.FramePadding.x + style.ItemSpacing.x : 0;
    const float row = ImGui::GetContentRegionAvail().x;
    const bool beside = button && row - buttonWidth >= kMinTextFieldEms * ImGui::GetFontSize() +
                                                           2 * style.FramePadding.x;
    ImGui::SetNextItemWidth(beside ? row - buttonWidth : row);
    bool read = inputString(id, path, ImGuiInputTextFlags_EnterReturnsTrue, hint);
    tooltipForLastItem(tooltip);
    if (!button) return read;
    if (beside) ImGui::SameLine();
    read |= ImGui::Button(button);
    tooltipForLastItem(buttonTooltip);
    return read;
}

bool sliderInt(const IntParameter& p, int* value, const char* tooltip) {
    const std::string label(p.sliderLabel()), meaning(p.meaning);
    return sliderInt(label.c_str(), value, p.low, p.high, tooltip ? tooltip : meaning.c_str(),
                     p.scale == ParameterScale::Log);
}

bool sliderDouble(const RealParameter& p, double* value, const char* tooltip) {
    const std::string label(p.sliderLabel()), meaning(p.meaning);
    const std::string format = std::string(p.format) + std::string(p.unit);
    return sliderDouble(label.c_str(), value, p.low, p.high, format.c_str(),
                        tooltip ? tooltip : meaning.c_str(), p.scale == ParameterScale::Log);
}

SliderBounds sliderLimits(const IntParameter& p, SliderBounds bounds) {
    const long long low = std::clamp<long long>(bounds.low, p.low, p.high);
    return {low, std::clamp<long long>(bounds.high, low, p.high)};
}

bool sliderInt(const IntParameter& p, int* value, SliderBounds bounds, const char* tooltip,
               const char* format) {
    const SliderBounds limits = sliderLimits(p, bounds);
    const std::string label(p.sliderLabel()), meaning(p.meaning);
    const std::string shown =
        placeField(label.c_str(), {formatted(format, *value), formatted(format, int(limits.low)),
                                   formatted(format, int(limits.high))});
    auditNextField(label.c_str(), formatted(format, *value));
    const bool changed =
        ImGui::SliderInt(shown.c_str(), value, int(limits.low), int(limits.high), format,
                         ImGuiSliderFlags_AlwaysClamp |
                             (p.scale == ParameterScale::Log ? ImGuiSliderFlags_Logarithmic : 0));
    tooltipForLastItem(tooltip ? tooltip : meaning.c_str());
    return changed;
}

bool sliderDouble(const RealParameter& p, double* value, double low, double high,
                  const char* tooltip) {
    const std::string label(p.sliderLabel()), meaning(p.meaning);
    const std::string format = std::string(p.format) + std::string(p.unit);
    low = std::max(low, p.low);
    high = std::max(low, std::min(high, p.high));
    return sliderDouble(label.c_str(), value, low, high, format.c_str(),
                        tooltip ? tooltip : meaning.c_str(), p.scale == ParameterScale::Log);
}

bool sliderFloat(const RealParameter& p, float* value, const char* tooltip) {
    const std::string label(p.sliderLabel()), meaning(p.meaning);
    const std::string format = std::string(p.format) + std::string(p.unit);
    const std::string shown = placeField(
        label.c_str(), {formatted(format.c_str(), double(*value)), formatted(format.c_str(), p.low),
                        formatted(format.c_str(), p.high)});
    auditNextField(label.c_str(), formatted(format.c_str(), double(*value)));
    const bool changed =
        ImGui::SliderFloat(shown.c_str(), value, float(p.low), float(p.high), format.c_str(),
                           ImGuiSliderFlags_AlwaysClamp |
                               (p.scale == ParameterScale::Log ? ImGuiSliderFlags_Logarithmic : 0));
    tooltipForLastItem(tooltip ? tooltip : meaning.c_str());
    return changed;
}

bool seedSlider(const IntParameter& p, std::uint64_t* seed, const char* tooltip) {
    int shown = int(std::min<std::uint64_t>(*seed, std::uint64_t(p.high)));
    if (!sliderInt(p, &shown, tooltip)) return false;
    *seed = std::uint64_t(shown);
    return true;
}

bool inputString(const char* label, std::string* text, int flags, const char* hint) {
    // The field keeps kMinTextFieldEms (a path, a list of numbers scrolls within it); it is
    // narrow when it shows less than that and less than its whole text (or hint).
    const ImGuiStyle& style = ImGui::GetStyle();
    const float least = kMinTextFieldEms * ImGui::GetFontSize();
    const std::string shownLabel = placeFieldFor(label, least + 2 * style.FramePadding.x);
    if (controlSweep().checking) {
        const std::string shown = text->empty() && hint ? std::string(hint) : *text;
        const float width = std::min(ImGui::CalcTextSize(shown.c_str()).x, least);
        auditControlWidth(label, shown, width + 2 * style.FramePadding.x, ImGui::CalcItemWidth());
    }
    const int withResize = flags | ImGuiInputTextFlags_CallbackResize;
    if (hint)
        return ImGui::InputTextWithHint(shownLabel.c_str(), hint, text->data(),
                                        text->capacity() + 1, withResize, resizeString, text);
    return ImGui::InputText(shownLabel.c_str(), text->data(), text->capacity() + 1, withResize,
                            resizeString, text);
}

bool collapsingSection(const char* label) {
    if (controlSweep().openSections) ImGui::SetNextItemOpen(true, ImGuiCond_Always);
    return ImGui::CollapsingHeader(label);
}

void tooltipForLastItem(const char* text) {
    // Not while the item is being dragged: the user is watching the value and the figures.
    if (text && ImGui::IsItemHovered() && !ImGui::IsItemActive()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

void sectionHeader(const char* text) {
    ImGui::Spacing();
    ImGui::TextDisabled("%s", text);
    ImGui::Separator();
}

void wrappedNote(const std::string& text) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", text.c_str());
    ImGui::PopTextWrapPos();
}

void errorText(const std::string& message) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.35f, 1.0f));
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(message.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
}

bool sliderInt(const char* label, int* value, int low, int high, const char* tooltip,
               bool logarithmic) {
    const std::string shown =
        placeField(label, {std::to_string(*value), std::to_string(low), std::to_string(high)});
    auditNextField(label, std::to_string(*value));
    const bool changed =
        ImGui::SliderInt(shown.c_str(), value, low, high, "%d",
                         logarithmic ? ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp
                                     : ImGuiSliderFlags_AlwaysClamp);
    tooltipForLastItem(tooltip);
    return changed;
}

bool sliderDouble(const char* label, double* value, double low, double high, const char* format,
                  const char* tooltip, bool logarithmic) {
    const std::string shown = placeField(
        label, {formatted(format, *value), formatted(format, low), formatted(format, high)});
    auditNextField(label, formatted(format, *value));
    const bool changed = ImGui::SliderScalar(
        shown.c_str(), ImGuiDataType_Double, value, &low, &high, format,
        logarithmic ? ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp
                    : ImGuiSliderFlags_AlwaysClamp);
    tooltipForLastItem(tooltip);
    return changed;
}

Canvas beginCanvas(const char* id, float height) {
    Canvas canvas;
    ImVec2 size = ImGui::GetContentRegionAvail();
    if (height > 0) size.y = height;
    size.x = std::max(size.x, 32.0f);
    size.y = std::max(size.y, 32.0f);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(id, size, ImGuiButtonFlags_MouseButtonLeft);
    canvas.box = {origin.x, origin.y, size.x, size.y};
    canvas.hovered = ImGui::IsItemHovered();
    const ImGuiIO& io = ImGui::GetIO();
    canvas.mouse = {io.MousePos.x - origin.x, io.MousePos.y - origin.y};
    if (canvas.hovered) canvas.wheel = io.MouseWheel;
    canvas.dragging = ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 1.0f);
    if (canvas.dragging) canvas.dragDelta = {io.MouseDelta.x, io.MouseDelta.y};
    canvas.doubleClicked = canvas.hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left);
    canvas.clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
    return canvas;
}

bool panelSelector(const PanelGrid& grid, int* selected) {
    if (!grid.oneAtATime()) return false;
    const int before = *selected;
    if (PanelSweep& sweep = panelSweep(); sweep.panel >= 0) {  // --check-layout visits each
        sweep.count = std::max(sweep.count, grid.count);
        *selected = std::min(sweep.panel, grid.count - 1);
    }
    if (ImGui::ArrowButton("##previous panel", ImGuiDir_Left))
        *selected = stepPanel(*selected, -1, grid.count);
    ImGui::SameLine();
    if (ImGui::ArrowButton("##next panel", ImGuiDir_Right))
        *selected = stepPanel(*selected, 1, grid.count);
    ImGui::SameLine();
    ImGui::Text("panel %d of %d", grid.shown + 1, grid.count);
    tooltipForLastItem(
        "The window is too small for every panel at once: Up/Down or the arrows "
        "step through them.");
    const char* hint = "(Up/Down: the other panels)";
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x >= ImGui::CalcTextSize(hint).x)
        ImGui::TextDisabled("%s", hint);
    else
        ImGui::NewLine();
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.WantTextInput && !ImGui::IsAnyItemActive() && !io.KeyCtrl) {
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow)))
            *selected = stepPanel(*selected, -1, grid.count);
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow)))
            *selected = stepPanel(*selected, 1, grid.count);
    }
    return *selected != before;
}

int tabRows(const char* const* labels, int count, float room) {
    const ImGuiStyle& style = ImGui::GetStyle();
    int rows = 1;
    float rowWidth = 0;
    for (int i = 0; i < count; ++i) {
        const float width =
            ImGui::CalcTextSize(labels[i]).x + style.FramePadding.x * 2 + style.ItemInnerSpacing.x;
        if (rowWidth > 0 && rowWidth + width > room) {
            ++rows;
            rowWidth = 0;
        }
        rowWidth += width;
    }
    return rows;
}

int scrolledTabBars() {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    int scrolled = 0;
    for (int i = 0; i < g.TabBars.GetMapSize(); ++i) {
        ImGuiTabBar* bar = g.TabBars.TryGetMapData(i);
        // As ImGui's TabBarLayout decides to draw its scroll arrows.
        if (bar && bar->CurrFrameVisible == g.FrameCount && bar->Tabs.Size > 1 &&
            bar->WidthAllTabs > bar->BarRect.GetWidth())
            ++scrolled;
    }
    return scrolled;
}

void auditFigureLayout(const Figure& figure, const FrameContext& context) {
    if (!context.layoutAudit) return;
    std::vector<std::string>& faults = context.layoutAudit->faults;
    ++context.layoutAudit->figures;
    auto describe = [&](std::size_t index) {
        const auto& text = std::get<TextItem>(figure.items[index]);
        const Box b = textBox(text);
        return "\"" + text.text + "\" at (" + std::to_string(int(b.x)) + ", " +
               std::to_string(int(b.y)) + ") " + std::to_string(int(b.width)) + "x" +
               std::to_string(int(b.height));
    };
    const std::string where =
        std::to_string(int(figure.width)) + "x" + std::to_string(int(figure.height)) + " figure: ";
    LayoutAudit& audit = *context.layoutAudit;
    for (const TextOverlap& pair : overlappingTexts(figure)) {
        ++audit.overlapping;
        faults.push_back(where + describe(pair.first) + " overlaps " + describe(pair.second));
    }
    for (std::size_t index : textsOutsideFigure(figure)) {
        ++audit.outside;
        faults.push_back(where + describe(index) + " leaves the figure");
    }
    for (const TextOverMark& over : textsOverMarks(figure)) {
        ++audit.overData;
        faults.push_back(where + describe(over.text) + " hides data");
    }
    for (const LegendOverMark& over : legendsOverMarks(figure)) {
        ++audit.overData;  // a legend is text over data too, swatches and all
        const Box b = std::get<RectItem>(figure.items[over.legend]).box;
        faults.push_back(where + "a legend at (" + std::to_string(int(b.x)) + ", " +
                         std::to_string(int(b.y)) + ") " + std::to_string(int(b.width)) + "x" +
                         std::to_string(int(b.height)) + " hides data");
    }
    // Wider than kMaxPlotAspect times its height, or under four lines of text tall: a strip.
    constexpr float kMaxPlotAspect = 8, kMinPlotLines = 4;
    for (const PanelSpan& panel : figure.panels) {
        const Box& plot = panel.plot;
        if (!audit.checkSqueezed || plot.width <= 0 || plot.height <= 0) continue;
        if (plot.width <= kMaxPlotAspect * plot.height &&
            plot.height >= kMinPlotLines * context.theme.fontSize)
            continue;
        ++audit.squeezed;
        faults.push_back(where + "a plot squeezed to " + std::to_string(int(plot.width)) + "x" +
                         std::to_string(int(plot.height)) + " px");
    }
    if (audit.checkCuts) {
        for (std::size_t index : cutTexts(figure)) {
            ++audit.cut;
            faults.push_back(where + describe(index) + " is cut short");
        }
        // A legend's key left out whole (no room for it) is cut text too, only harder to see.
        for (const LeftOutText& out : figure.leftOut) {
            ++audit.cut;
            faults.push_back(where + "\"" + out.text + "\" is left out (a legend with no room)");
        }
    }
    // Presentation: every text at least audit.minTextSize; a title (a centred line hanging from
    // the top of the figure or of one of its plots, as drawTitle and plot titles are) at least
    // the same share of the title size: squeezed onto one line it reads as small print.
    std::vector<float> tops = {0};
    for (const PanelSpan& panel : figure.panels) tops.push_back(panel.area.y);
    const float titleBand = context.theme.titleSize * 0.25f;  // titles hang 0.2 sizes down
    const float titleFloor =
        audit.minTextSize * context.theme.titleSize / std::max(1.0f, context.theme.fontSize);
    for (std::size_t index = 0; audit.minTextSize > 0 && index < figure.items.size(); ++index) {
        const auto* text = std::get_if<TextItem>(&figure.items[index]);
        if (!text || text->text.empty()) continue;
        const bool title = text->horizontal == HorizontalAlign::Center &&
                           text->vertical == VerticalAlign::Top && !text->vertical90 &&
                           std::any_of(tops.begin(), tops.end(), [&](float top) {
                               return text->anchor.y >= top && text->anchor.y <= top + titleBand;
                           });
        const float floor = title ? std::max(audit.minTextSize, titleFloor) : audit.minTextSize;
        if (text->size >= floor - 0.01f) continue;
        ++audit.small;
        char size[64];
        std::snprintf(size, sizeof size, " is %.1f px (presentation: %s%.1f)", text->size,
                      title ? "title " : "", floor);
        faults.push_back(where + describe(index) + size);
    }
}

void noteCanvas(const char* id, const std::string& note, const FrameContext& context) {
    const Canvas canvas = beginCanvas(id);
    Figure figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
    drawNote(figure, {0, 0, canvas.box.width, canvas.box.height}, note, context.theme);
    drawCanvasFigure(canvas, figure, context);
}

void drawCanvasFigure(const Canvas& canvas, const Figure& figure, const FrameContext& context) {
    auditFigureLayout(figure, context);
    if (Box* area = context.figureArea) {
        // The part of the canvas inside the window (a scrolled canvas is partly outside).
        const ImVec2 clipMin = ImGui::GetWindowDrawList()->GetClipRectMin();
        const ImVec2 clipMax = ImGui::GetWindowDrawList()->GetClipRectMax();
        const float x0 = std::max(canvas.box.x, clipMin.x), y0 = std::max(canvas.box.y, clipMin.y);
        const float x1 = std::min(canvas.box.x + canvas.box.width, clipMax.x);
        const float y1 = std::min(canvas.box.y + canvas.box.height, clipMax.y);
        if (x1 > x0 && y1 > y0) {
            if (area->width <= 0 || area->height <= 0) {
                *area = {x0, y0, x1 - x0, y1 - y0};
            } else {
                const float left = std::min(area->x, x0), top = std::min(area->y, y0);
                const float right = std::max(area->x + area->width, x1);
                const float bottom = std::max(area->y + area->height, y1);
                *area = {left, top, right - left, bottom - top};
            }
        }
    }
    gfx::FigureTarget target;
    target.drawList = ImGui::GetWindowDrawList();
    target.origin = {canvas.box.x, canvas.box.y};
    target.fonts = context.fonts;
    target.heatmaps = context.heatmaps;
    target.layers = context.layers;
    target.dots = context.dots;
    gfx::drawFigure(target, figure);
}

void zoomAndPan(CellWindow& w, const Canvas& canvas, const PlotFrame& frame, long long rows,
                long long cols, ZoomAxes axes) {
    w = clampWindow(w, rows, cols);
    if (frame.plot.width > 1 && canvas.hovered && canvas.wheel != 0 &&
        frame.plot.contains(canvas.mouse)) {
        const auto [cx, cy] = frame.toData(canvas.mouse);
        const double factor = std::pow(0.8, canvas.wheel);
        const bool both = axes == ZoomAxes::Both;
        const bool shift = ImGui::GetIO().KeyShift;
        auto zoom = [&](long long& first, long long& count, long long total, double centre) {
            const long long next = std::clamp<long long>(std::llround(count * factor), 1, total);
            first = std::llround(centre - (centre - first) * double(next) / double(count));
            count = next;
        };
        if (both || !shift) zoom(w.firstRow, w.rowCount, rows, cy);
        if (both || shift) zoom(w.firstCol, w.colCount, cols, cx);
    }
    if (canvas.dragging && frame.plot.width > 1) {
        w.firstRow -= std::llround(canvas.dragDelta.y / frame.plot.height * double(w.rowCount));
        w.firstCol -= std::llround(canvas.dragDelta.x / frame.plot.width * double(w.colCount));
    }
    if (canvas.doubleClicked) w = {};
    w = clampWindow(w, rows, cols);
}

}  // namespace poslab::ui
