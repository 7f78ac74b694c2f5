#include "gfx/dot_sprites.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace poslab::gfx {

namespace {

constexpr int kTextureWidth = kDotSheets * kDotSheetSide;  // the sheets side by side

// Rasterises ImGui's triangles of one circle into `sprite` (side kDotSpriteSide, row stride
// `stride`) at pixel centres, the alpha interpolated across each triangle as the GPU does. The
// inner fan and the fringe share edges without overlapping, so each pixel centre takes the
// value of the one triangle it lies in (on a shared edge both give the same).
void rasterise(const ImDrawList& circle, std::uint8_t* sprite, int stride) {
    const ImDrawVert* v = circle.VtxBuffer.Data;
    for (int t = 0; t + 2 < circle.IdxBuffer.Size; t += 3) {
        const ImDrawVert& a = v[circle.IdxBuffer[t]];
        const ImDrawVert& b = v[circle.IdxBuffer[t + 1]];
        const ImDrawVert& c = v[circle.IdxBuffer[t + 2]];
        const double area = double(b.pos.x - a.pos.x) * (c.pos.y - a.pos.y) -
                            double(b.pos.y - a.pos.y) * (c.pos.x - a.pos.x);
        if (std::abs(area) < 1e-12) continue;
        const double alpha[3] = {double(a.col >> IM_COL32_A_SHIFT) / 255,
                                 double(b.col >> IM_COL32_A_SHIFT) / 255,
                                 double(c.col >> IM_COL32_A_SHIFT) / 255};
        const int x0 = std::max(0, int(std::floor(std::min({a.pos.x, b.pos.x, c.pos.x}))));
        const int x1 =
            std::min(kDotSpriteSide - 1, int(std::ceil(std::max({a.pos.x, b.pos.x, c.pos.x}))));
        const int y0 = std::max(0, int(std::floor(std::min({a.pos.y, b.pos.y, c.pos.y}))));
        const int y1 =
            std::min(kDotSpriteSide - 1, int(std::ceil(std::max({a.pos.y, b.pos.y, c.pos.y}))));
        for (int y = y0; y <= y1; ++y) {
            for (int x = x0; x <= x1; ++x) {
                const double px = x + 0.5, py = y + 0.5;
                // Barycentric weights of a, b, c at the pixel centre.
                const double wa = (double(b.pos.x - px) * (c.pos.y - py) -
                                   double(b.pos.y - py) * (c.pos.x - px)) /
                                  area;
                const double wb = (double(c.pos.x - px) * (a.pos.y - py) -
                                   double(c.pos.y - py) * (a.pos.x - px)) /
                                  area;
                const double wc = 1 - wa - wb;
                constexpr double kEdge = -1e-7;
                if (wa < kEdge || wb < kEdge || wc < kEdge) continue;
                const double value = wa * alpha[0] + wb * alpha[1] + wc * alpha[2];
                sprite[y * stride + x] =
                    std::uint8_t(std::lround(std::clamp(value, 0.0, 1.0) * 255));
            }
        }
    }
}

}  // namespace

std::vector<std::uint8_t> dotSheetAlpha(const ImDrawList& list, float radius) {
    std::vector<std::uint8_t> sheet(std::size_t(kDotSheetSide) * kDotSheetSide, 0);
    ImDrawList circle(list._Data);
    for (int j = 0; j < kDotPhases; ++j) {
        for (int i = 0; i < kDotPhases; ++i) {
            circle._ResetForNewFrame();
            circle.Flags = list.Flags;
            circle._FringeScale = list._FringeScale;
            circle.PushClipRectFullScreen();
            const ImVec2 centre(float(kDotSpriteCentre) + float(i) / kDotPhases,
                                float(kDotSpriteCentre) + float(j) / kDotPhases);
            circle.AddCircleFilled(centre, radius, IM_COL32_WHITE);
            rasterise(circle,
                      sheet.data() + std::size_t(j) * kDotSpriteSide * kDotSheetSide +
                          std::size_t(i) * kDotSpriteSide,
                      kDotSheetSide);
        }
    }
    circle._ClearFreeMemory();
    return sheet;
}

int DotSprites::sheetFor(const ImDrawList& list, float radius) {
    int oldest = -1;
    for (int s = 0; s < kDotSheets; ++s) {
        if (sheets_[s].radius == radius) {
            sheets_[s].lastUsed = frame_;
            return s;
        }
        // A sheet drawn from this frame keeps its pixels until the frame is rendered.
        if (sheets_[s].lastUsed != frame_ &&
            (oldest < 0 || sheets_[s].lastUsed < sheets_[oldest].lastUsed)) {
            oldest = s;
        }
    }
    if (oldest < 0) return -1;
    if (!texture_) {
        texture_ = createTexture2D(kTextureWidth, kDotSheetSide, GL_RGBA8, GL_RGBA,
                                   GL_UNSIGNED_BYTE, nullptr, GL_NEAREST, GL_NEAREST);
        if (!texture_) return -1;
    }
    const std::vector<std::uint8_t> alpha = dotSheetAlpha(list, radius);
    std::vector<std::uint8_t> rgba(alpha.size() * 4);
    for (std::size_t p = 0; p < alpha.size(); ++p) {  // white, the vertex colour tints it
        rgba[4 * p] = rgba[4 * p + 1] = rgba[4 * p + 2] = 255;
        rgba[4 * p + 3] = alpha[p];
    }
    glBindTexture(GL_TEXTURE_2D, texture_.get());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, oldest * kDotSheetSide, 0, kDotSheetSide, kDotSheetSide,
                    GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    sheets_[oldest] = {radius, frame_};
    ++sheetsMade_;
    return oldest;
}

bool DotSprites::add(ImDrawList* list, float centreX, float centreY, float radius,
                     std::uint32_t colour) {
    if (!(list->Flags & ImDrawListFlags_AntiAliasedFill)) return false;
    if (!(radius > 0 && radius <= kLargestSpriteDot)) return false;
    if (!std::isfinite(centreX) || !std::isfinite(centreY)) return false;
    if ((colour & IM_COL32_A_MASK) == 0) return true;  // ImGui draws nothing either
    const int sheet = sheetFor(*list, radius);
    if (sheet < 0) return false;
    // The nearest phase; the sprite's pixel grid on the screen's.
    auto place = [](float centre, int& phase) {
        float whole = std::floor(centre);
        phase = int(std::lround((centre - whole) * kDotPhases));
        if (phase == kDotPhases) phase = 0, whole += 1;
        return whole - float(kDotSpriteCentre);
    };
    int phaseX = 0, phaseY = 0;
    const float left = place(centreX, phaseX), top = place(centreY, phaseY);
    // Only the sprite's pixels the polygon can reach (its fringe ends within r + 0.5 / cos(pi /
    // N) of the centre, under r + 0.75 for N >= 6): the rest is clear, and every pixel of the
    // quad costs the rasteriser as much as one of the dot.
    const int first = std::max(0, int(std::floor(float(kDotSpriteCentre) - radius - 0.75f)));
    const int end =
        std::min(kDotSpriteSide, int(std::ceil(float(kDotSpriteCentre) + 1 + radius + 0.75f)));
    const ImVec2 topLeft(left + float(first), top + float(first));
    const ImVec2 bottomRight(left + float(end), top + float(end));
    const float u0 = float(sheet * kDotSheetSide + phaseX * kDotSpriteSide + first) / kTextureWidth;
    const float v0 = float(phaseY * kDotSpriteSide + first) / kDotSheetSide;
    const ImVec2 uvTopLeft(u0, v0);
    const ImVec2 uvBottomRight(u0 + float(end - first) / kTextureWidth,
                               v0 + float(end - first) / kDotSheetSide);
    // Consecutive dots share one draw command: ImGui merges a command whose texture is pushed
    // again right after it was popped.
    list->PushTextureID(reinterpret_cast<ImTextureID>(std::uintptr_t(texture_.get())));
    list->PrimReserve(6, 4);
    list->PrimRectUV(topLeft, bottomRight, uvTopLeft, uvBottomRight, colour);
    list->PopTextureID();
    return true;
}

}  // namespace poslab::gfx
