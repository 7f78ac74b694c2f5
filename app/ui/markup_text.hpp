// markup_text.hpp — running ImGui text that sets the figures' maths markup ($θ_i$, $q_m·k_n$,
// $Σ_{k<j}$: poslab/figure/text_markup.hpp) as the figures do: subscripts lowered and smaller,
// Latin letters slanted. The tour's lesson cards use it, so a card reads like the figure it
// describes.
#pragma once

#include <imgui.h>

#include <string>
#include <string_view>
#include <vector>

namespace poslab::ui {

// ---- Words
// The text split where it may wrap: at spaces outside $...$ (a formula stays on one line) and at
// line breaks ("\n" is a word of its own). Each word keeps its markup, so parseMarkup reads it.
std::vector<std::string> markupWords(std::string_view text);

// ---- Drawing
// The text wrapped to the content region's width at the current font, in the text colour. Text
// without markup is drawn by ImGui itself (TextUnformatted, wrapped), exactly as before.
void markupTextWrapped(std::string_view text);
// The same on one line (a tooltip: its width follows its text).
void markupText(std::string_view text);

// ---- Hover text
// A tooltip line as printf formats it, its numbers set as the figures set them (base/format's
// typesetNumbers: "value −0.8958", "12 × 12 cells"); ImGui::Text left the hyphen-minus.
void tooltipText(const char* format, ...) IM_FMTARGS(1);
void tooltipTextDisabled(const char* format, ...) IM_FMTARGS(1);

}  // namespace poslab::ui
