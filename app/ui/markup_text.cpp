#include "ui/markup_text.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "poslab/base/format.hpp"
#include "poslab/figure/text_markup.hpp"

namespace poslab::ui {

std::vector<std::string> markupWords(std::string_view text) {
    std::vector<std::string> words;
    std::string word;
    bool maths = false;
    auto finish = [&] {
        if (!word.empty()) words.push_back(std::move(word));
        word.clear();
    };
    for (std::size_t k = 0; k < text.size(); ++k) {
        const char c = text[k];
        if (c == '\\' && k + 1 < text.size()) {  // an escape ("\$", "\theta") stays whole
            word += c;
            word += text[++k];
            continue;
        }
        if (c == '$') maths = !maths;
        if (!maths && c == '\n') {
            finish();
            words.emplace_back("\n");
        } else if (!maths && c == ' ') {
            finish();
        } else {
            word += c;
        }
    }
    finish();
    return words;
}

namespace {

// The text at the current font in `colour`, wrapped at `width` (FLT_MAX: one line).
void drawMarkup(std::string_view text, float width, ImU32 colour) {
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    const float space = font->CalcTextSizeA(size, FLT_MAX, 0, " ").x;
    const float ascent = font->FontSize > 0 ? font->Ascent / font->FontSize : 0.8f;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* list = ImGui::GetWindowDrawList();
    auto runWidth = [&](const TextRun& run) {
        const char* begin = run.text.c_str();
        return font->CalcTextSizeA(size * run.scale, FLT_MAX, 0, begin, begin + run.text.size()).x;
    };
    float x = 0, y = 0, widest = 0;
    for (const std::string& word : markupWords(text)) {
        if (word == "\n") {
            x = 0;
            y += size;
            continue;
        }
        const std::vector<TextRun> runs = parseMarkup(word);
        float wordWidth = 0;
        for (const TextRun& run : runs) wordWidth += runWidth(run);
        if (x > 0 && x + space + wordWidth > width) {  // wrap, as ImGui wraps plain text
            x = 0;
            y += size;
        } else if (x > 0) {
            x += space;
        }
        // Each run at its own size, raised or lowered from the line's baseline, italic ones
        // slanted about it: as gfx/figure_renderer.cpp draws figure text.
        const float baseline = origin.y + y + ascent * size;
        float runX = origin.x + x;
        for (const TextRun& run : runs) {
            const float runSize = size * run.scale, runBaseline = baseline - run.shift * size;
            const int first = list->VtxBuffer.Size;
            list->AddText(font, runSize,
                          ImVec2(std::round(runX), std::round(runBaseline - ascent * runSize)),
                          colour, run.text.c_str(), run.text.c_str() + run.text.size());
            if (run.style == TextStyle::Italic) {
                for (int i = first; i < list->VtxBuffer.Size; ++i) {
                    ImVec2& v = list->VtxBuffer[i].pos;
                    v.x += (runBaseline - v.y) * kItalicSlant;
                }
            }
            runX += runWidth(run);
        }
        x += wordWidth;
        widest = std::max(widest, x);
    }
    ImGui::Dummy(ImVec2(widest, y + size));
}

std::string formatted(const char* format, va_list args) {
    char buffer[1024];
    std::vsnprintf(buffer, sizeof buffer, format, args);
    return typesetNumbers(buffer);
}

}  // namespace

void markupTextWrapped(std::string_view text) {
    if (!hasMarkup(text)) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(text.data(), text.data() + text.size());
        ImGui::PopTextWrapPos();
        return;
    }
    drawMarkup(text, std::max(1.f, ImGui::GetContentRegionAvail().x),
               ImGui::GetColorU32(ImGuiCol_Text));
}

void markupText(std::string_view text) {
    if (!hasMarkup(text)) {
        ImGui::TextUnformatted(text.data(), text.data() + text.size());
        return;
    }
    drawMarkup(text, FLT_MAX, ImGui::GetColorU32(ImGuiCol_Text));
}

void tooltipText(const char* format, ...) {
    va_list args;
    va_start(args, format);
    const std::string text = formatted(format, args);
    va_end(args);
    ImGui::TextUnformatted(text.c_str());
}

void tooltipTextDisabled(const char* format, ...) {
    va_list args;
    va_start(args, format);
    const std::string text = formatted(format, args);
    va_end(args);
    ImGui::TextDisabled("%s", text.c_str());
}

}  // namespace poslab::ui
