#include "gfx/framebuffer_rect.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace poslab::gfx {

FramebufferRect framebufferRect(float left, float top, float right, float bottom) {
    const ImDrawData* data = ImGui::GetDrawData();
    const ImVec2 origin = data->DisplayPos, scale = data->FramebufferScale;
    const long framebufferHeight = std::lround(data->DisplaySize.y * scale.y);
    const long x0 = std::lround((left - origin.x) * scale.x);
    const long x1 = std::lround((right - origin.x) * scale.x);
    const long y0 = std::lround((top - origin.y) * scale.y);
    const long y1 = std::lround((bottom - origin.y) * scale.y);
    return {x0, framebufferHeight - y1, x1 - x0, y1 - y0};
}

FramebufferRect intersect(const FramebufferRect& a, const FramebufferRect& b) {
    const long x0 = std::max(a.x, b.x), y0 = std::max(a.y, b.y);
    const long x1 = std::min(a.x + a.width, b.x + b.width);
    const long y1 = std::min(a.y + a.height, b.y + b.height);
    return {x0, y0, x1 - x0, y1 - y0};
}

std::array<FramebufferRect, 4> subtract(const FramebufferRect& whole, const FramebufferRect& hole) {
    if (hole.empty()) return {whole, {}, {}, {}};
    const long holeTop = hole.y + hole.height, wholeTop = whole.y + whole.height;
    const long holeRight = hole.x + hole.width, wholeRight = whole.x + whole.width;
    return {FramebufferRect{whole.x, whole.y, whole.width, hole.y - whole.y},
            FramebufferRect{whole.x, holeTop, whole.width, wholeTop - holeTop},
            FramebufferRect{whole.x, hole.y, hole.x - whole.x, hole.height},
            FramebufferRect{holeRight, hole.y, wholeRight - holeRight, hole.height}};
}

}  // namespace poslab::gfx
