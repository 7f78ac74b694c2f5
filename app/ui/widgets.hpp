// widgets.hpp — controls and the figure canvas shared by every panel.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/base/parameter.hpp"
#include "poslab/figure/figure.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"
#include "ui/frame_context.hpp"

namespace poslab::ui {

// ---- Controls (each returns true when the value changed this frame)
bool sliderInt(const char* label, int* value, int low, int high, const char* tooltip,
               bool logarithmic = false);
bool sliderDouble(const char* label, double* value, double low, double high, const char* format,
                  const char* tooltip, bool logarithmic = false);
// A described parameter (poslab/base/parameter.hpp): label, limits, scale and format from the
// descriptor, so the slider accepts what the option and the session accept. tooltip: the
// descriptor's meaning when null.
bool sliderInt(const IntParameter& parameter, int* value, const char* tooltip = nullptr);
bool sliderDouble(const RealParameter& parameter, double* value, const char* tooltip = nullptr);
// A float field (ImGui's own float slider: the export dialog's scales, the rotary fraction).
bool sliderFloat(const RealParameter& parameter, float* value, const char* tooltip = nullptr);
// The part of a described parameter's range another setting allows (a head index below the head
// count, a position below the length): the slider spans the descriptor's limits narrowed to
// `bounds`, never beyond them.
struct SliderBounds {
    long long low, high;
};
bool sliderInt(const IntParameter& parameter, int* value, SliderBounds bounds,
               const char* tooltip = nullptr, const char* format = "%d");
bool sliderDouble(const RealParameter& parameter, double* value, double low, double high,
                  const char* tooltip = nullptr);
// A 64-bit seed on the seed slider's 0..1000 (kSeedSliderParam in state/ranges.hpp): seeds beyond
// stay as they are until the slider is moved.
bool seedSlider(const IntParameter& parameter, std::uint64_t* seed, const char* tooltip = nullptr);
// The limits a described slider spans: the descriptor's, narrowed to `bounds` (empty: low = high).
SliderBounds sliderLimits(const IntParameter& parameter, SliderBounds bounds = {INT_MIN, INT_MAX});
// Every control below (and the sliders above) is audited by --check-layout (controlSweep in
// layout_sweep.hpp): a field narrower than the value it shows is a fault. Panels draw no ImGui
// input, drag, slider or combo of their own (ControlWidthTest reads the sources), so the check
// sees every control a view has.
//
// A whole number typed in (a seed), with - and + buttons; negative values are raised to 0. The
// field is at least as wide as six digits or its value: where the row leaves it less, the label
// goes on a line of its own above a field the column's width.
bool inputInt(const char* label, int* value, const char* tooltip);
// A number typed in with - and + buttons (`step`, Ctrl: `fastStep`), shown with `format`; placed
// as inputInt is, for the widest of its value and "-0.0000".
bool inputDouble(const char* label, double* value, double step, double fastStep, const char* format,
                 const char* tooltip);
// `count` whole numbers side by side (M-RoPE's three section sizes), each field as wide as three
// digits or its value; else the label above, the fields across the column.
bool inputInts(const char* label, int* values, int count, const char* tooltip);
// A text field on a std::string (what misc/cpp/imgui_stdlib does; Debian's libimgui does not
// build that file). flags: ImGuiInputTextFlags (an int, so this header needs no imgui.h); hint:
// shown while the text is empty. The field shows its text whole or at least kMinTextFieldEms of
// it: where the row leaves less, the label goes above a field across the column.
inline constexpr float kMinTextFieldEms = 8;
bool inputString(const char* label, std::string* text, int flags = 0, const char* hint = nullptr);
// A file's path typed in (`id`: a "##" label) with a button that reads it: the button beside the
// field where the field keeps kMinTextFieldEms, else under it; no button when `button` is null.
// True when Enter was pressed in the field or the button clicked.
bool pathField(const char* id, const char* hint, std::string* path, const char* button,
               const char* tooltip, const char* buttonTooltip = nullptr);
// A combo box showing `preview` (ImGui::BeginCombo: call ImGui::EndCombo when it returns true).
// The box goes beside its label where it shows the widest of `preview` and `choices` whole
// (a choice, once chosen, is the preview); else the label above a box across the column.
bool beginCombo(const char* label, const std::string& preview,
                const std::vector<std::string>& choices = {});
// A section of controls the user opens (ImGui::CollapsingHeader); true while open. Opened while
// --check-layout audits the controls alone (ControlSweep::openSections), so that its controls
// are checked too; it then stays open.
bool collapsingSection(const char* label);
void tooltipForLastItem(const char* text);   // shows text when the previous widget is hovered
void sectionHeader(const char* text);        // a separator with a caption
void wrappedNote(const std::string& text);   // muted explanatory text, wrapped at the window's edge
void errorText(const std::string& message);  // a refused input's message, wrapped, in red
template <class Enum, class NameFn, class List>
bool comboEnum(const char* label, Enum* value, const List& choices, NameFn name,
               const char* tooltip);
// Every tab one click away at a projector's 1024 pixels: how many rows `count` tab labels take
// in `room` pixels, laid out greedily; and those labels drawn as rows of buttons styled as tabs
// (selected(i) says which is chosen), with a separator under them. Returns the clicked one, or
// -1. The views' bar and stateTabBar use two rows where two hold every label.
int tabRows(const char* const* labels, int count, float room);
template <class Selected>
int tabButtonRows(const char* id, const char* const* labels, int count, Selected selected);
// The tab bars drawn in the last frame whose tabs did not fit (scroll arrows hid some):
// --check-layout and --tour-check count them at 1024x768 and above.
int scrolledTabBars();
// A tab bar over the values of `chosen` ({value, label} pairs). A clicked tab sets `chosen`;
// when something else sets it (a lesson, a session, a benchmark) its tab is selected instead
// (ImGui switches a frame later; until then `chosen` keeps the choice). `shown` is the tab
// ImGui showed last frame, kept by the panel.
template <class Enum, std::size_t N>
void stateTabBar(const char* id, const std::pair<Enum, const char*> (&tabs)[N], Enum* chosen,
                 Enum* shown);

// ---- Figure canvas: reserves the rest of the region (or `height` pixels) for a figure.
struct Canvas {
    Box box;  // screen pixels
    bool hovered = false;
    Point mouse;      // relative to box origin
    float wheel = 0;  // mouse wheel steps this frame while hovered
    bool dragging = false;
    Point dragDelta;  // pixels moved this frame while dragging
    bool doubleClicked = false;
    bool clicked = false;
};
Canvas beginCanvas(const char* id, float height = 0);  // height 0: all remaining space
// For a figure showing one of its panels at a time (PanelGrid::oneAtATime): a row "panel 2 of
// 6" with arrow buttons; Up/Down step too (Left/Right belong to the tour's lessons). Returns
// true when *selected changed. Draws nothing for a grid that shows every panel.
bool panelSelector(const PanelGrid& grid, int* selected);
void drawCanvasFigure(const Canvas& canvas, const Figure& figure, const FrameContext& context);
// A canvas filling the remaining space with one centred note (why there is no figure yet: an
// error, "computing…"), drawn as a figure so presentation mode scales it like the others.
void noteCanvas(const char* id, const std::string& note, const FrameContext& context);
// With context.layoutAudit set (--check-layout): texts of `figure` drawn over each other or
// past its edge, described one per line. drawCanvasFigure calls it for every figure it draws.
void auditFigureLayout(const Figure& figure, const FrameContext& context);

// Zoom and pan of a heatmap's cell window (rows x cols cells drawn in frame.plot): the wheel
// zooms about the mouse, dragging pans, a double-click shows everything; the window is clamped.
enum class ZoomAxes {
    RowsOrColumns,  // the wheel zooms rows, Shift+wheel columns (tables: positions x dimensions)
    Both,           // the wheel zooms rows and columns together (square position x position maps)
};
void zoomAndPan(CellWindow& window, const Canvas& canvas, const PlotFrame& frame, long long rows,
                long long cols, ZoomAxes axes);

}  // namespace poslab::ui

#include "ui/widgets_inl.hpp"
