#include "gfx/figure_renderer.hpp"

#include <glad/gl.h>
#include <imgui.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8: glyphs as ImFont::RenderText reads them

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "gfx/dot_sprites.hpp"
#include "gfx/figure_background.hpp"
#include "gfx/figure_layers.hpp"
#include "gfx/fonts.hpp"
#include "gfx/framebuffer_rect.hpp"
#include "gfx/heatmap_textures.hpp"
#include "poslab/figure/polyline.hpp"
#include "poslab/figure/text_markup.hpp"

namespace poslab::gfx {

namespace {

ImU32 toImColor(Rgba c) {
    return IM_COL32(c.r, c.g, c.b, c.a);
}

// Clears the command's clip rectangle to the colour packed in its callback data. Runs inside
// ImGui_ImplOpenGL3_RenderDrawData, which has set the viewport and enabled the scissor test.
void clearClipRectangle(const ImDrawList*, const ImDrawCmd* command) {
    const ImVec4& clip = command->ClipRect;
    const FramebufferRect rect = framebufferRect(clip.x, clip.y, clip.z, clip.w);
    if (rect.empty()) return;
    const auto colour =
        static_cast<ImU32>(reinterpret_cast<std::uintptr_t>(command->UserCallbackData));
    const ImVec4 c = ImGui::ColorConvertU32ToFloat4(colour);
    glScissor(GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height));
    glClearColor(c.x, c.y, c.z, c.w);
    glClear(GL_COLOR_BUFFER_BIT);
}

// Paints [a, b) (cut to the current clip rectangle) in an opaque colour with a scissored clear.
void clearRectangle(ImDrawList* list, ImVec2 a, ImVec2 b, Rgba colour) {
    list->PushClipRect(a, b, true);
    list->AddCallback(clearClipRectangle,
                      reinterpret_cast<void*>(static_cast<std::uintptr_t>(toImColor(colour))));
    list->PopClipRect();
}

// An opaque axis-aligned fill. Large ones become scissored clears: software rasterisers
// (llvmpipe under Xvfb) clear memory several times faster than they shade and blend
// triangles, and figure backgrounds cover most of the window.
void fillRectangle(ImDrawList* list, ImVec2 a, ImVec2 b, Rgba colour) {
    if (colour.a == 255 && (b.x - a.x) * (b.y - a.y) >= kClearArea) {
        clearRectangle(list, a, b, colour);
        return;
    }
    list->AddRectFilled(a, b, toImColor(colour));
}

// Draws each item as it comes; every handler but the clip ones forgets `lastHeatmap`, so a
// shade is folded into a heatmap only when nothing was drawn between them.
struct Replay {
    const FigureTarget& target;
    ImDrawList* list;
    HeatmapTextures::DrawId lastHeatmap = HeatmapTextures::kNoDraw;

    ImVec2 at(Point p) const {
        return {target.origin.x + p.x * target.scale, target.origin.y + p.y * target.scale};
    }
    float length(float v) const { return v * target.scale; }

    void operator()(const TextItem& item) {
        lastHeatmap = HeatmapTextures::kNoDraw;
        if (item.text.empty()) return;
        const float size = length(item.size);
        // Runs of the markup (figure/text_markup): each at its own size, raised or lowered
        // from the line's baseline, italic ones slanted; plain text is one run.
        const std::vector<TextRun> runs = parseMarkup(item.text);
        if (runs.empty()) return;  // "$$"
        struct Placed {
            ImFont* font;
            float size, width;
        };
        std::vector<Placed> placed;
        ImVec2 extent(0, size);  // ImGui's line height is the size
        for (const TextRun& run : runs) {
            const float runSize = size * run.scale;
            ImFont* font = target.fonts->forSize(runSize);
            const char* begin = run.text.c_str();
            const float width =
                font->CalcTextSizeA(runSize, FLT_MAX, 0.0f, begin, begin + run.text.size()).x;
            placed.push_back({font, runSize, width});
            extent.x += width;
        }
        const ImVec2 anchor = at(item.anchor);
        float dx = 0, dy = 0;
        if (item.horizontal == HorizontalAlign::Center) dx = -extent.x / 2;
        if (item.horizontal == HorizontalAlign::Right) dx = -extent.x;
        if (item.vertical == VerticalAlign::Middle) dy = -extent.y / 2;
        if (item.vertical == VerticalAlign::Bottom) dy = -extent.y;
        const int firstVertex = list->VtxBuffer.Size;
        // ImGui drops glyphs outside the clip rectangle before we rotate them; rotated text is
        // laid out clipped to what the rotation brings into the clip rectangle, then turned into
        // place and given the clip rectangle itself (a figure scrolled partly out of its window,
        // a small window's page, must not draw its y label over the tab bar).
        const ImVec2 clipMin = list->GetClipRectMin(), clipMax = list->GetClipRectMax();
        if (item.vertical90) {
            // The rotation below maps (x, y) to (ax + y - ay, ay - x + ax); these are the points
            // it maps into the clip rectangle.
            list->PushClipRect(
                ImVec2(anchor.x - (clipMax.y - anchor.y), anchor.y + (clipMin.x - anchor.x)),
                ImVec2(anchor.x - (clipMin.y - anchor.y), anchor.y + (clipMax.x - anchor.x)),
                false);
        }
        const float left = std::round(anchor.x + dx), top = std::round(anchor.y + dy);
        const float ascent =
            placed[0].font->FontSize > 0 ? placed[0].font->Ascent / placed[0].font->FontSize : 0.8f;
        const float baseline = top + ascent * size;
        float x = left;
        for (std::size_t r = 0; r < runs.size(); ++r) {
            const TextRun& run = runs[r];
            const Placed& p = placed[r];
            const float runAscent = p.font->FontSize > 0 ? p.font->Ascent / p.font->FontSize : 0.8f;
            const float runBaseline = baseline - run.shift * size;
            const int runFirst = list->VtxBuffer.Size;
            list->AddText(p.font, p.size, ImVec2(x, std::round(runBaseline - runAscent * p.size)),
                          toImColor(item.color), run.text.c_str(),
                          run.text.c_str() + run.text.size());
            if (run.style == TextStyle::Italic) {  // slanted about the baseline
                for (int i = runFirst; i < list->VtxBuffer.Size; ++i) {
                    ImVec2& v = list->VtxBuffer[i].pos;
                    v.x += (runBaseline - v.y) * kItalicSlant;
                }
            }
            x += p.width;
        }
        if (item.vertical90) {
            // Rotate 90 degrees counter-clockwise about the anchor: (dx, dy) -> (dy, -dx).
            for (int i = firstVertex; i < list->VtxBuffer.Size; ++i) {
                ImVec2& p = list->VtxBuffer[i].pos;
                const float rx = p.x - anchor.x, ry = p.y - anchor.y;
                p = ImVec2(anchor.x + ry, anchor.y - rx);
            }
            // The rotated glyphs' own draw command, scissored by the clip rectangle they now
            // sit in; popping then continues in it (same rectangle) or a new one.
            if (!list->CmdBuffer.empty())
                list->CmdBuffer.back().ClipRect =
                    ImVec4(clipMin.x, clipMin.y, clipMax.x, clipMax.y);
            list->PopClipRect();
        }
    }
    void operator()(const LineItem& item) {
        lastHeatmap = HeatmapTextures::kNoDraw;
        const ImVec2 a = at(item.from), b = at(item.to);
        const float width = length(item.width);
        if (!item.dashed) {
            list->AddLine(a, b, toImColor(item.color), width);
            return;
        }
        const float total = std::hypot(b.x - a.x, b.y - a.y);
        const float dash = length(6), gap = length(4);
        if (total <= 0) return;
        const ImVec2 unit((b.x - a.x) / total, (b.y - a.y) / total);
        for (float s = 0; s < total; s += dash + gap) {
            const float e = std::min(total, s + dash);
            list->AddLine(ImVec2(a.x + unit.x * s, a.y + unit.y * s),
                          ImVec2(a.x + unit.x * e, a.y + unit.y * e), toImColor(item.color), width);
        }
    }
    void operator()(const PolylineItem& item) {
        lastHeatmap = HeatmapTextures::kNoDraw;
        if (item.points.size() < 2) return;
        std::vector<Point> screen;
        screen.reserve(item.points.size());
        for (Point p : item.points) {
            const ImVec2 q = at(p);
            screen.push_back({q.x, q.y});
        }
        // Curves come sampled a point per pixel or finer; points within a quarter pixel of the
        // line through their neighbours change nothing visible but cost two triangles each.
        screen = simplifyPolyline(screen, 0.25f);
        // Dear ImGui mitres every join, and a near-reversal (a fast wave's peak) would grow a
        // spike many pixels long: such joins end one stroke and start the next instead.
        // Integer widths take ImGui's textured anti-aliasing path: two triangles a segment
        // instead of six, which keeps long curves cheap on software rasterisers.
        const float width = std::max(1.0f, std::round(length(item.width)));
        std::vector<ImVec2> points;
        for (const PolylinePiece piece : splitAtSharpTurns(screen)) {
            points.clear();
            for (std::size_t i = piece.first; i <= piece.last; ++i) {
                points.emplace_back(screen[i].x, screen[i].y);
            }
            list->AddPolyline(points.data(), int(points.size()), toImColor(item.color), 0, width);
        }
    }
    void operator()(const RectItem& item) {
        const ImVec2 a = at({item.box.x, item.box.y}),
                     b = at({item.box.right(), item.box.bottom()});
        const HeatmapTextures::DrawId under = std::exchange(lastHeatmap, HeatmapTextures::kNoDraw);
        const bool translucentShade = item.fill.a > 0 && item.fill.a < 255 && !item.stroke.a;
        if (translucentShade && under != HeatmapTextures::kNoDraw &&
            target.heatmaps->addShade(under, list, a, b, item.fill)) {
            return;
        }
        if (item.fill.a) fillRectangle(list, a, b, item.fill);
        if (item.stroke.a)
            list->AddRect(a, b, toImColor(item.stroke), 0, 0, length(item.strokeWidth));
    }
    void operator()(const CircleItem& item) {
        lastHeatmap = HeatmapTextures::kNoDraw;
        if (item.fill.a) {
            const ImVec2 centre = at(item.center);
            const float radius = length(item.radius);
            if (!target.dots ||
                !target.dots->add(list, centre.x, centre.y, radius, toImColor(item.fill)))
                list->AddCircleFilled(centre, radius, toImColor(item.fill));
        }
        if (item.stroke.a) {
            list->AddCircle(at(item.center), length(item.radius), toImColor(item.stroke), 0,
                            length(item.strokeWidth));
        }
    }
    void operator()(const PolygonItem& item) {
        lastHeatmap = HeatmapTextures::kNoDraw;
        std::vector<ImVec2> points;
        for (Point p : item.points) points.push_back(at(p));
        if (points.size() >= 3)
            list->AddConvexPolyFilled(points.data(), int(points.size()), toImColor(item.fill));
    }
    void operator()(const HeatmapItem& item) {
        lastHeatmap = HeatmapTextures::kNoDraw;
        if (target.heatmaps) {
            lastHeatmap = target.heatmaps->addToDrawList(list, item, at({item.box.x, item.box.y}),
                                                         at({item.box.right(), item.box.bottom()}));
        }
    }
    void operator()(const ClipPush& item) const {
        list->PushClipRect(at({item.box.x, item.box.y}), at({item.box.right(), item.box.bottom()}),
                           true);
    }
    void operator()(const ClipPop&) const { list->PopClipRect(); }
};

// An item's footprint before it is cut to its clip rectangle (itemFootprints).
struct Footprint {
    const FigureTarget& target;
    ItemBox everywhere;  // the figure's rectangle: what an item without a measure may touch

    ImVec2 at(Point p) const {
        return {target.origin.x + p.x * target.scale, target.origin.y + p.y * target.scale};
    }
    float length(float v) const { return v * target.scale; }
    template <class Points>
    ItemBox around(const Points& points, float pad) const {
        if (points.empty()) return {};
        ItemBox box{FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX};
        for (Point p : points) {
            const ImVec2 q = at(p);
            box = {std::min(box.x0, q.x), std::min(box.y0, q.y), std::max(box.x1, q.x),
                   std::max(box.y1, q.y)};
        }
        return {box.x0 - pad, box.y0 - pad, box.x1 + pad, box.y1 + pad};
    }

    ItemBox operator()(const TextItem& item) const {
        if (item.text.empty()) return {};
        const std::vector<TextRun> runs = parseMarkup(item.text);
        if (runs.empty()) return {};
        if (!target.fonts) return everywhere;
        // Laid out as Replay lays it out: the runs' advances, aligned at the anchor.
        const float size = length(item.size);
        float width = 0;
        for (const TextRun& run : runs) {
            const float runSize = size * run.scale;
            const char* begin = run.text.c_str();
            width += target.fonts->forSize(runSize)
                         ->CalcTextSizeA(runSize, FLT_MAX, 0.0f, begin, begin + run.text.size())
                         .x;
        }
        const ImVec2 anchor = at(item.anchor);
        float dx = 0, dy = 0;
        if (item.horizontal == HorizontalAlign::Center) dx = -width / 2;
        if (item.horizontal == HorizontalAlign::Right) dx = -width;
        if (item.vertical == VerticalAlign::Middle) dy = -size / 2;
        if (item.vertical == VerticalAlign::Bottom) dy = -size;
        const float left = std::round(anchor.x + dx), top = std::round(anchor.y + dy);
        ImFont* first = target.fonts->forSize(size * runs[0].scale);
        const float ascent = first->FontSize > 0 ? first->Ascent / first->FontSize : 0.8f;
        const float baseline = top + ascent * size;
        // The glyph quads ImFont::RenderText makes for each run, where Replay puts the run.
        ItemBox box{FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX};
        float x = left;
        for (const TextRun& run : runs) {
            const float runSize = size * run.scale;
            ImFont* font = target.fonts->forSize(runSize);
            const float runAscent = font->FontSize > 0 ? font->Ascent / font->FontSize : 0.8f;
            const float runBaseline = baseline - run.shift * size;
            const float scale = font->FontSize > 0 ? runSize / font->FontSize : 1;
            float penX = std::floor(x);
            const float penY = std::floor(std::round(runBaseline - runAscent * runSize));
            const char* s = run.text.c_str();
            const char* end = s + run.text.size();
            float runX0 = FLT_MAX, runY0 = FLT_MAX, runX1 = -FLT_MAX, runY1 = -FLT_MAX;
            while (s < end) {
                unsigned int c = static_cast<unsigned char>(*s);
                if (c < 0x80) {
                    ++s;
                } else {
                    s += ImTextCharFromUtf8(&c, s, end);
                    if (c == 0) break;
                }
                if (c == '\n') return everywhere;  // a second line: not measured here
                if (c == '\r') continue;
                const ImFontGlyph* glyph = font->FindGlyph(ImWchar(c));
                if (!glyph) continue;
                if (glyph->Visible) {
                    runX0 = std::min(runX0, penX + glyph->X0 * scale);
                    runX1 = std::max(runX1, penX + glyph->X1 * scale);
                    runY0 = std::min(runY0, penY + glyph->Y0 * scale);
                    runY1 = std::max(runY1, penY + glyph->Y1 * scale);
                }
                penX += glyph->AdvanceX * scale;
            }
            if (runX1 >= runX0) {
                if (run.style == TextStyle::Italic) {  // slanted about the baseline
                    const float a = (runBaseline - runY0) * kItalicSlant,
                                b = (runBaseline - runY1) * kItalicSlant;
                    runX0 += std::min({a, b, 0.0f});
                    runX1 += std::max({a, b, 0.0f});
                }
                box = {std::min(box.x0, runX0), std::min(box.y0, runY0), std::max(box.x1, runX1),
                       std::max(box.y1, runY1)};
            }
            const char* begin = run.text.c_str();
            x += font->CalcTextSizeA(runSize, FLT_MAX, 0.0f, begin, begin + run.text.size()).x;
        }
        if (box.x1 < box.x0) return {};  // blanks only
        // A pixel's margin: rasterised quads touch the pixels whose centres they cover.
        box = {box.x0 - 2, box.y0 - 2, box.x1 + 2, box.y1 + 2};
        if (!item.vertical90) return box;
        // Turned 90 degrees counter-clockwise about the anchor: (dx, dy) -> (dy, -dx).
        return {anchor.x + (box.y0 - anchor.y), anchor.y - (box.x1 - anchor.x),
                anchor.x + (box.y1 - anchor.y), anchor.y - (box.x0 - anchor.x)};
    }
    ItemBox operator()(const LineItem& item) const {
        const Point ends[] = {item.from, item.to};
        return around(std::span<const Point>(ends), length(item.width) / 2 + 3);
    }
    ItemBox operator()(const PolylineItem& item) const {
        if (item.points.size() < 2) return {};
        // A mitred join reaches out up to ten times the stroke's half width and fringe
        // (Dear ImGui's IM_FIXNORMAL2F_MAX_INVLEN2 = 100).
        const float width = std::max(1.0f, std::round(length(item.width)));
        return around(item.points, 10 * (width / 2 + 1) + 3);
    }
    ItemBox operator()(const RectItem& item) const {
        const Point corners[] = {{item.box.x, item.box.y}, {item.box.right(), item.box.bottom()}};
        return around(std::span<const Point>(corners),
                      (item.stroke.a ? length(item.strokeWidth) : 0) + 3);
    }
    ItemBox operator()(const CircleItem& item) const {
        // A dot sprite's quad reaches kDotSpriteSide - kDotSpriteCentre pixels from its centre.
        const Point centre[] = {item.center};
        return around(std::span<const Point>(centre),
                      length(item.radius) + (item.stroke.a ? length(item.strokeWidth) : 0) +
                          float(kDotSpriteSide - kDotSpriteCentre) + 3);
    }
    ItemBox operator()(const PolygonItem& item) const { return around(item.points, 3); }
    ItemBox operator()(const HeatmapItem& item) const {
        const Point corners[] = {{item.box.x, item.box.y}, {item.box.right(), item.box.bottom()}};
        return around(std::span<const Point>(corners), 2);
    }
    ItemBox operator()(const ClipPush&) const { return {}; }
    ItemBox operator()(const ClipPop&) const { return {}; }
};

ItemBox cutTo(const ItemBox& box, const ItemBox& clip) {
    return {std::max(box.x0, clip.x0), std::max(box.y0, clip.y0), std::min(box.x1, clip.x1),
            std::min(box.y1, clip.y1)};
}

}  // namespace

std::vector<ItemBox> itemFootprints(const FigureTarget& target, const Figure& figure) {
    const Footprint footprint{target, {}};
    const ImVec2 topLeft = footprint.at({0, 0}),
                 bottomRight = footprint.at({figure.width, figure.height});
    // The clip rectangles as drawFigure pushes them; a scissor rounds each edge outwards by
    // less than a pixel, so a box is cut to its clip rectangle widened by one.
    ItemBox clip{topLeft.x, topLeft.y, bottomRight.x, bottomRight.y};
    if (target.drawList) {
        const ImVec2 min = target.drawList->GetClipRectMin(),
                     max = target.drawList->GetClipRectMax();
        clip = cutTo(clip, {min.x, min.y, max.x, max.y});
    }
    Footprint measure{target, clip};
    std::vector<ItemBox> clips;
    std::vector<ItemBox> boxes;
    boxes.reserve(figure.items.size());
    for (const FigureItem& item : figure.items) {
        if (const auto* push = std::get_if<ClipPush>(&item)) {
            const ImVec2 a = measure.at({push->box.x, push->box.y}),
                         b = measure.at({push->box.right(), push->box.bottom()});
            clips.push_back(clip);
            clip = cutTo({a.x, a.y, b.x, b.y}, clip);
            boxes.push_back({});
        } else if (std::holds_alternative<ClipPop>(item)) {
            if (!clips.empty()) {
                clip = clips.back();
                clips.pop_back();
            }
            boxes.push_back({});
        } else {
            boxes.push_back(cutTo(std::visit(measure, item),
                                  {clip.x0 - 1, clip.y0 - 1, clip.x1 + 1, clip.y1 + 1}));
        }
    }
    return boxes;
}

BackgroundClears backgroundClears(const Figure& figure, Point origin, float scale, ScreenRect whole,
                                  const std::function<bool(const HeatmapItem&)>& drawsOpaque) {
    const auto at = [&](float x, float y) {
        return ImVec2(origin.x + x * scale, origin.y + y * scale);
    };
    const auto onScreen = [&](const Box& box) {
        return ScreenRect{at(box.x, box.y), at(box.right(), box.bottom())};
    };
    ScreenRect clip = whole;
    std::vector<ScreenRect> clips;
    ScreenRect hole{};
    for (const FigureItem& item : figure.items) {
        ScreenRect covered{};
        if (const auto* push = std::get_if<ClipPush>(&item)) {
            clips.push_back(clip);
            clip = onScreen(push->box).cut(clip);
            clip.max = ImVec2(std::max(clip.min.x, clip.max.x), std::max(clip.min.y, clip.max.y));
        } else if (std::holds_alternative<ClipPop>(item)) {
            if (clips.empty()) break;  // unbalanced: stop looking
            clip = clips.back();
            clips.pop_back();
        } else if (const auto* heatmap = std::get_if<HeatmapItem>(&item)) {
            if (drawsOpaque(*heatmap)) covered = onScreen(heatmap->box).cut(clip);
        } else if (const auto* rect = std::get_if<RectItem>(&item)) {
            const ScreenRect box = onScreen(rect->box);
            if (rect->fill.a == 255 && box.area() >= kClearArea) covered = box.cut(clip);
        }
        if (covered.area() > hole.area()) hole = covered;
    }
    if (hole.area() <= 0) return {};
    return {hole,
            {ScreenRect{whole.min, ImVec2(whole.max.x, hole.min.y)},
             ScreenRect{ImVec2(whole.min.x, hole.max.y), whole.max},
             ScreenRect{ImVec2(whole.min.x, hole.min.y), ImVec2(hole.min.x, hole.max.y)},
             ScreenRect{ImVec2(hole.max.x, hole.min.y), ImVec2(whole.max.x, hole.max.y)}}};
}

void drawFigure(const FigureTarget& target, const Figure& figure) {
    if (target.layers && target.layers->draw(target, figure)) return;
    ImDrawList* list = target.drawList;
    Replay replay{target, list};
    const ImVec2 topLeft = replay.at({0, 0}),
                 bottomRight = replay.at({figure.width, figure.height});
    list->PushClipRect(topLeft, bottomRight, true);
    const ScreenRect whole =
        ScreenRect{topLeft, bottomRight}.cut({list->GetClipRectMin(), list->GetClipRectMax()});
    BackgroundClears clears{};
    if (figure.background.a == 255) {
        clears = backgroundClears(
            figure, target.origin, target.scale, whole, [&](const HeatmapItem& heatmap) {
                return target.heatmaps && target.heatmaps->drawsOpaque(heatmap);
            });
    }
    if (clears.hole.area() > 0) {
        for (const ScreenRect& strip : clears.strips) {
            if (strip.area() > 0) clearRectangle(list, strip.min, strip.max, figure.background);
        }
    } else if (figure.background.a) {
        fillRectangle(list, topLeft, bottomRight, figure.background);
    }
    for (const FigureItem& item : figure.items) std::visit(replay, item);
    list->PopClipRect();
    if (target.layers) target.layers->drawnDirectly(list);
}

}  // namespace poslab::gfx
