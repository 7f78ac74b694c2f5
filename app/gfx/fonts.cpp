#include "gfx/fonts.hpp"

#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <filesystem>

namespace poslab::gfx {

namespace {

// Latin-1, Greek, general punctuation (— …), super/subscripts, arrows and maths operators.
const ImWchar kGlyphRanges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2000, 0x206F, 0x2070,
                                0x209F, 0x2190, 0x21FF, 0x2200, 0x22FF, 0};
// Baked sizes cover figure text from small tick labels to projector titles without blur.
constexpr float kSizes[] = {12.f, 14.f, 16.f, 18.f, 21.f, 25.f, 30.f, 38.f, 48.f};

std::string fontPath() {
    return std::string(POSLAB_FONT_DIR) + "/DejaVuSans.ttf";
}

// What the screen bakes: horizontal oversampling for sharp small text at fractional positions.
ImFontConfig bakeConfig() {
    ImFontConfig config;
    config.OversampleH = 2;
    config.OversampleV = 1;
    return config;
}

// The standard size forSize() picks for `pixels` when every size is baked.
float standardSizeFor(float pixels) {
    for (float size : kSizes) {
        if (size >= pixels - 0.5f) return size;
    }
    return kSizes[std::size(kSizes) - 1];
}

}  // namespace

void FontSet::load(float uiSize, float scale) {
    ++generation_;
    ImGuiIO& io = ImGui::GetIO();
    const std::string path = fontPath();
    baked_.clear();
    if (!std::filesystem::exists(path)) {
        fallback_ = true;
        ui_ = io.Fonts->AddFontDefault();
        baked_.push_back({13.0f, ui_});
        return;
    }
    const ImFontConfig config = bakeConfig();
    for (float size : kSizes) {
        const float pixels = size * scale;
        ImFont* font = io.Fonts->AddFontFromFileTTF(path.c_str(), pixels, &config, kGlyphRanges);
        if (font) baked_.push_back({pixels, font});
    }
    ui_ = forSize(uiSize * scale);
    io.FontDefault = ui_;
}

bool FontSet::loadOnly(const std::vector<float>& pixelSizes, const std::string& text) {
    ImGuiIO& io = ImGui::GetIO();
    const std::string path = fontPath();
    if (!std::filesystem::exists(path)) {
        if (!baked_.empty()) return false;
        load(16.0f);  // ImGui's built-in font: one small atlas either way
        return true;
    }
    // What is asked for: standard sizes, printable ASCII (ImGui's fallback '?' and ellipsis
    // '.' among them) and the text's characters, each only as far as the kGlyphRanges that
    // load() bakes, so that a character load() has no glyph for stays missing here too.
    bool grew = baked_.empty();
    for (float pixels : pixelSizes) {
        const float size = standardSizeFor(pixels);
        if (std::find(onlySizes_.begin(), onlySizes_.end(), size) == onlySizes_.end()) {
            onlySizes_.push_back(size);
            grew = true;
        }
    }
    if (onlySizes_.empty()) {
        onlySizes_.push_back(kSizes[0]);  // ImGui needs a font even for a figure without text
        grew = true;
    }
    ImFontGlyphRangesBuilder wanted;
    for (ImWchar c = 0x20; c < 0x7F; ++c) wanted.AddChar(c);
    wanted.AddText(text.c_str(), text.c_str() + text.size());
    ImFontGlyphRangesBuilder available;
    available.AddRanges(kGlyphRanges);
    for (int i = 0; i < wanted.UsedChars.Size; ++i) {
        const ImU32 add = wanted.UsedChars[i] & available.UsedChars[i];
        if (add & ~onlyCharacters_.UsedChars[i]) grew = true;
        onlyCharacters_.UsedChars[i] |= add;
    }
    if (!grew) return false;

    std::sort(onlySizes_.begin(), onlySizes_.end());
    io.Fonts->Clear();
    baked_.clear();
    onlyRanges_.clear();
    onlyCharacters_.BuildRanges(&onlyRanges_);
    const ImFontConfig config = bakeConfig();
    for (float size : onlySizes_) {
        ImFont* font = io.Fonts->AddFontFromFileTTF(path.c_str(), size, &config, onlyRanges_.Data);
        if (font) baked_.push_back({size, font});
    }
    if (baked_.empty()) {  // unreadable after all: ImGui's own font rather than none
        fallback_ = true;
        baked_.push_back({13.0f, io.Fonts->AddFontDefault()});
    }
    ui_ = forSize(16.0f);
    io.FontDefault = ui_;
    io.Fonts->Build();
    ++generation_;
    return true;
}

void FontSet::rebuild(float uiSize, float scale) {
    ImGuiIO& io = ImGui::GetIO();
    const bool uploaded = io.Fonts->TexID != ImTextureID{};
    io.Fonts->Clear();
    load(uiSize, scale);
    io.Fonts->Build();
    ++generation_;
    // Before the backend's first NewFrame there is no texture yet: it creates one from this atlas.
    if (uploaded) {
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
}

ImFont* FontSet::forSize(float pixels) const {
    for (const Baked& b : baked_) {
        if (b.size >= pixels - 0.5f) return b.font;
    }
    return baked_.empty() ? nullptr : baked_.back().font;
}

}  // namespace poslab::gfx
