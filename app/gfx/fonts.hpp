// fonts.hpp — the fonts every screen and figure uses: DejaVu Sans (Debian's fonts-dejavu-core)
// baked at several sizes, with Greek and the maths symbols the formulas need (θ, π, −, ≤, ·).
#pragma once

#include <vector>

struct ImFont;

namespace poslab::gfx {

class FontSet {
public:
    // Adds the fonts to the current ImGui context's atlas; uiSize is the size of the widgets'
    // font. Falls back to ImGui's built-in font when DejaVu Sans is not installed.
    void load(float uiSize, float scale = 1.0f);
    ImFont* ui() const { return ui_; }            // the widgets' font
    ImFont* forSize(float pixels) const;          // the smallest baked font at least that large
    bool usingFallback() const { return fallback_; }

private:
    struct Baked {
        float size;
        ImFont* font;
    };
    std::vector<Baked> baked_;
    ImFont* ui_ = nullptr;
    bool fallback_ = false;
};

}  // namespace poslab::gfx
