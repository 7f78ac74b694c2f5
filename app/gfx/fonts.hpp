// fonts.hpp — the fonts every screen and figure uses: DejaVu Sans (Debian's fonts-dejavu-core)
// baked at several sizes, with Greek and the maths symbols the formulas need (θ, π, −, ≤, ·).
#pragma once

#include <string>
#include <vector>

#include <imgui.h>

namespace poslab::gfx {

class FontSet {
  public:
    // ---- Loading (into the current ImGui context's atlas)
    // Every size with every glyph range, for the GUI; uiSize is the size of the widgets' font.
    // Falls back to ImGui's built-in font when DejaVu Sans is not installed.
    void load(float uiSize, float scale = 1.0f);
    // For one-off renders (`poslab render --renderer gl`): only the baked sizes that forSize()
    // would pick after load(16) for these pixel sizes, holding only printable ASCII and the
    // characters of `text` (UTF-8). The glyphs are the same bitmaps load() bakes, so figures
    // look the same, at a fraction of the baking (one size of one figure's characters instead
    // of nine sizes of every range). Grows what is already baked (a batch bakes the union).
    // Returns true when it rebuilt the atlas (the renderer must upload the texture again),
    // false when the atlas already held everything asked for.
    bool loadOnly(const std::vector<float>& pixelSizes, const std::string& text);
    // The GUI at another scale (HiDPI monitor, zoom): clears the atlas, load(uiSize, scale), and
    // uploads the new atlas when the renderer backend already holds one.
    void rebuild(float uiSize, float scale);

    // ---- Use
    ImFont* ui() const { return ui_; }    // the widgets' font
    ImFont* forSize(float pixels) const;  // the smallest baked font at least that large
    bool usingFallback() const { return fallback_; }
    // Changes whenever the atlas is rebuilt (glyphs move): what was drawn with the old one is
    // stale (figure layers).
    unsigned generation() const { return generation_; }

  private:
    struct Baked {
        float size;
        ImFont* font;
    };
    std::vector<Baked> baked_;
    ImFont* ui_ = nullptr;
    bool fallback_ = false;
    unsigned generation_ = 0;
    // loadOnly()'s request so far: sizes (from the standard list) and characters. The atlas
    // keeps a pointer to the glyph ranges, so they live here for as long as the fonts do.
    std::vector<float> onlySizes_;
    ImFontGlyphRangesBuilder onlyCharacters_;
    ImVector<ImWchar> onlyRanges_;
};

}  // namespace poslab::gfx
