#include "gfx/fonts.hpp"

#include <imgui.h>

#include <filesystem>

namespace poslab::gfx {

namespace {

// Latin-1, Greek, general punctuation (— …), super/subscripts, arrows and maths operators.
const ImWchar kGlyphRanges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2000, 0x206F, 0x2070, 0x209F,
                                0x2190, 0x21FF, 0x2200, 0x22FF, 0};

}  // namespace

void FontSet::load(float uiSize, float scale) {
    ImGuiIO& io = ImGui::GetIO();
    const std::string path = std::string(POSLAB_FONT_DIR) + "/DejaVuSans.ttf";
    baked_.clear();
    if (!std::filesystem::exists(path)) {
        fallback_ = true;
        ui_ = io.Fonts->AddFontDefault();
        baked_.push_back({13.0f, ui_});
        return;
    }
    ImFontConfig config;
    config.OversampleH = 2;
    config.OversampleV = 1;
    // Baked sizes cover figure text from small tick labels to projector titles without blur.
    for (float size : {12.f, 14.f, 16.f, 18.f, 21.f, 25.f, 30.f, 38.f, 48.f}) {
        const float pixels = size * scale;
        ImFont* font = io.Fonts->AddFontFromFileTTF(path.c_str(), pixels, &config, kGlyphRanges);
        if (font) baked_.push_back({pixels, font});
    }
    ui_ = forSize(uiSize * scale);
    io.FontDefault = ui_;
}

ImFont* FontSet::forSize(float pixels) const {
    for (const Baked& b : baked_) {
        if (b.size >= pixels - 0.5f) return b.font;
    }
    return baked_.empty() ? nullptr : baked_.back().font;
}

}  // namespace poslab::gfx
