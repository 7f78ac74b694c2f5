#include "gfx/heatmap_textures.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "gfx/framebuffer_rect.hpp"
#include "poslab/base/heatmap_sample.hpp"

namespace poslab::gfx {

namespace {

constexpr std::size_t kPoolSize = 8;  // retired textures kept for reuse

}  // namespace

Status HeatmapTextures::initialize() {
    auto plain = buildProgram("heatmap_view.vert", "heatmap.frag");
    if (!plain) return plain.error();
    auto shaded = buildProgram("heatmap_view.vert", "heatmap_shaded.frag");
    if (!shaded) return shaded.error();
    plain_ = std::move(plain.value());
    shaded_ = std::move(shaded.value());
    locationPlainImage_ = glGetUniformLocation(plain_.get(), "image");
    locationShadedImage_ = glGetUniformLocation(shaded_.get(), "image");
    locationKeep_ = glGetUniformLocation(shaded_.get(), "keep");
    locationAdd_ = glGetUniformLocation(shaded_.get(), "add");
    GLuint vertexArray = 0;
    glGenVertexArrays(1, &vertexArray);  // core profile needs a bound VAO even with no attributes
    emptyVertexArray_ = VertexArray(vertexArray);
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxTextureSize_);
    return success();
}

Texture HeatmapTextures::textureOfSize(int width, int height) {
    const auto pooled = std::find_if(pool_.begin(), pool_.end(), [&](const PooledTexture& p) {
        return p.width == width && p.height == height;
    });
    if (pooled != pool_.end()) {
        Texture texture = std::move(pooled->texture);
        pool_.erase(pooled);
        return texture;
    }
    return createTexture2D(width, height, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, nullptr, GL_NEAREST,
                           GL_NEAREST);
}

const HeatmapTextures::Entry* HeatmapTextures::entryFor(const HeatmapItem& item) {
    auto [it, inserted] = entries_.try_emplace(item.version);
    Entry& entry = it->second;
    entry.lastUsedFrame = frame_;
    const bool sameColours = entry.colormap == item.colormap && entry.range.low == item.range.low &&
                             entry.range.high == item.range.high && entry.masked == item.masked;
    if (!inserted && sameColours) return &entry;

    // Larger than the GPU allows: average down on the CPU first (rare; views already sample).
    const Matrix* source = item.values.get();
    Matrix reduced;
    const long long limit = maxTextureSize_;
    if (static_cast<long long>(source->rows) > limit ||
        static_cast<long long>(source->cols) > limit) {
        reduced = averageBlocks(*source, cellsPerTexel(source->rows, int(limit)),
                                cellsPerTexel(source->cols, int(limit)));
        source = &reduced;
    }
    if (inserted) {
        entry.width = int(source->cols);
        entry.height = int(source->rows);
        for (double v : source->values) {
            nanTexels_ += std::isnan(v) ? 1 : 0;
            entry.hasMaskedCells = entry.hasMaskedCells || v == -INFINITY;
        }
        entry.image = textureOfSize(entry.width, entry.height);
    }
    entry.colormap = item.colormap;
    entry.range = item.range;
    entry.masked = item.masked;
    const ImageRgba colours = colorize(*source, item.colormap, item.range, item.masked);
    glBindTexture(GL_TEXTURE_2D, entry.image.get());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, entry.width, entry.height, GL_RGBA, GL_UNSIGNED_BYTE,
                    colours.pixels.data());
    ++uploads_;
    return &entry;
}

bool HeatmapTextures::drawsOpaque(const HeatmapItem& item) {
    if (!plain_ || !item.values || item.values->empty()) return false;
    return !entryFor(item)->translucent();  // the draw that follows finds the entry cached
}

HeatmapTextures::ScreenBox HeatmapTextures::clipped(const ImDrawList* list, ImVec2 topLeft,
                                                    ImVec2 bottomRight) {
    const ImVec2 clipMin = list->GetClipRectMin(), clipMax = list->GetClipRectMax();
    return {std::max(topLeft.x, clipMin.x), std::max(topLeft.y, clipMin.y),
            std::min(bottomRight.x, clipMax.x), std::min(bottomRight.y, clipMax.y)};
}

HeatmapTextures::DrawId HeatmapTextures::addToDrawList(ImDrawList* list, const HeatmapItem& item,
                                                       ImVec2 topLeft, ImVec2 bottomRight) {
    if (!plain_ || !item.values || item.values->empty()) return kNoDraw;
    Draw& draw = draws_.emplace_back();
    draw.owner = this;
    draw.entry = entryFor(item);
    draw.image = {topLeft.x, topLeft.y, bottomRight.x, bottomRight.y};
    draw.visible = clipped(list, topLeft, bottomRight);
    list->AddCallback(&HeatmapTextures::drawCallback, &draw);
    list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);  // give Dear ImGui its state back
    return draws_.size() - 1;
}

bool HeatmapTextures::addShade(DrawId id, const ImDrawList* list, ImVec2 topLeft,
                               ImVec2 bottomRight, Rgba colour) {
    if (id >= draws_.size()) return false;
    Draw& draw = draws_[id];
    if (draw.shaded || draw.entry->translucent()) return false;
    const ScreenBox shade = clipped(list, topLeft, bottomRight);
    // Inside in screen coordinates stays inside once both are rounded to pixels.
    const ScreenBox& v = draw.visible;
    const bool empty = shade.right <= shade.left || shade.bottom <= shade.top;
    const bool inside = shade.left >= v.left && shade.top >= v.top && shade.right <= v.right &&
                        shade.bottom <= v.bottom;
    if (!empty && !inside) return false;
    draw.shaded = true;
    draw.shade = empty ? ScreenBox{} : shade;
    // What the blend equation source-alpha / one-minus-source-alpha gives over the texel.
    const float alpha = colour.a / 255.0f;
    draw.shadeKeep = 1 - alpha;
    draw.shadeAdd[0] = alpha * colour.r / 255.0f;
    draw.shadeAdd[1] = alpha * colour.g / 255.0f;
    draw.shadeAdd[2] = alpha * colour.b / 255.0f;
    return true;
}

void HeatmapTextures::drawCallback(const ImDrawList*, const ImDrawCmd* command) {
    const auto* queued = static_cast<const Draw*>(command->UserCallbackData);
    queued->owner->draw(*queued, *command);
}

void HeatmapTextures::draw(const Draw& queued, const ImDrawCmd& command) {
    const FramebufferRect image = framebufferRect(queued.image.left, queued.image.top,
                                                  queued.image.right, queued.image.bottom);
    const ImVec4& clip = command.ClipRect;
    const FramebufferRect visible =
        intersect(image, framebufferRect(clip.x, clip.y, clip.z, clip.w));
    if (image.empty() || visible.empty()) return;
    glViewport(GLint(image.x), GLint(image.y), GLsizei(image.width), GLsizei(image.height));
    // Blending only where transparent masked cells must let what is under show through: an
    // opaque pass is cheaper on software rasterisers.
    if (queued.entry->translucent()) {
        glEnable(GL_BLEND);
    } else {
        glDisable(GL_BLEND);
    }
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, queued.entry->image.get());
    glBindVertexArray(emptyVertexArray_.get());
    const auto drawPart = [](const FramebufferRect& part) {
        if (part.empty()) return;
        glScissor(GLint(part.x), GLint(part.y), GLsizei(part.width), GLsizei(part.height));
        glDrawArrays(GL_TRIANGLES, 0, 3);
    };
    glUseProgram(plain_.get());
    glUniform1i(locationPlainImage_, 0);
    if (!queued.shaded) {
        drawPart(visible);
    } else {
        const ScreenBox& s = queued.shade;
        const FramebufferRect shade =
            intersect(visible, framebufferRect(s.left, s.top, s.right, s.bottom));
        for (const FramebufferRect& part : subtract(visible, shade)) drawPart(part);
        glUseProgram(shaded_.get());
        glUniform1i(locationShadedImage_, 0);
        glUniform1f(locationKeep_, queued.shadeKeep);
        glUniform3f(locationAdd_, queued.shadeAdd[0], queued.shadeAdd[1], queued.shadeAdd[2]);
        drawPart(shade);
    }
    // The ResetRenderState command that follows restores program, vertex array, viewport,
    // blending and the bound texture.
}

void HeatmapTextures::keepAlive(const HeatmapItem& item) {
    const auto it = entries_.find(item.version);
    if (it != entries_.end()) it->second.lastUsedFrame = frame_;
}

void HeatmapTextures::endFrame() {
    ++frame_;
    draws_.clear();
    for (auto it = entries_.begin(); it != entries_.end();) {
        if (it->second.lastUsedFrame + 3 < frame_) {
            if (pool_.size() < kPoolSize) {
                pool_.push_back({std::move(it->second.image), it->second.width, it->second.height});
            }
            it = entries_.erase(it);
        } else {
            ++it;
        }
    }
}

}  // namespace poslab::gfx
