#include "gfx/heatmap_textures.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "gfx/framebuffer_rect.hpp"
#include "poslab/heatmap_sample.hpp"

namespace poslab::gfx {

namespace {

constexpr std::size_t kPoolSize = 8;  // retired textures kept for reuse

}  // namespace

Status HeatmapTextures::initialize() {
    auto program = buildProgram("heatmap_view.vert", "heatmap.frag");
    if (!program) return program.error();
    program_ = std::move(program.value());
    locationImage_ = glGetUniformLocation(program_.get(), "image");
    locationRect_ = glGetUniformLocation(program_.get(), "rect");
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
                             entry.range.high == item.range.high;
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
    const ImageRgba colours = colorize(*source, item.colormap, item.range);
    glBindTexture(GL_TEXTURE_2D, entry.image.get());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, entry.width, entry.height, GL_RGBA, GL_UNSIGNED_BYTE,
                    colours.pixels.data());
    ++uploads_;
    return &entry;
}

bool HeatmapTextures::addToDrawList(ImDrawList* list, const HeatmapItem& item, ImVec2 topLeft,
                                    ImVec2 bottomRight) {
    if (!program_ || !item.values || item.values->empty()) return false;
    Draw& draw = draws_.emplace_back();
    draw.owner = this;
    draw.entry = entryFor(item);
    draw.left = topLeft.x, draw.top = topLeft.y, draw.right = bottomRight.x,
    draw.bottom = bottomRight.y;
    list->AddCallback(&HeatmapTextures::drawCallback, &draw);
    list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);  // give Dear ImGui its state back
    return true;
}

void HeatmapTextures::drawCallback(const ImDrawList*, const ImDrawCmd* command) {
    const auto* queued = static_cast<const Draw*>(command->UserCallbackData);
    queued->owner->draw(*queued, *command);
}

void HeatmapTextures::draw(const Draw& queued, const ImDrawCmd& command) {
    const FramebufferRect image =
        framebufferRect(queued.left, queued.top, queued.right, queued.bottom);
    const ImVec4& clip = command.ClipRect;
    const FramebufferRect visible =
        intersect(image, framebufferRect(clip.x, clip.y, clip.z, clip.w));
    if (image.empty() || visible.empty()) return;
    glViewport(GLint(image.x), GLint(image.y), GLsizei(image.width), GLsizei(image.height));
    glScissor(GLint(visible.x), GLint(visible.y), GLsizei(visible.width), GLsizei(visible.height));
    // Blending only where masked cells must let the panel's mask colour through: an opaque
    // pass is cheaper on software rasterisers.
    if (queued.entry->hasMaskedCells) {
        glEnable(GL_BLEND);
    } else {
        glDisable(GL_BLEND);
    }
    glUseProgram(program_.get());
    glUniform1i(locationImage_, 0);
    glUniform4f(locationRect_, float(image.x), float(image.y), float(image.width),
                float(image.height));
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, queued.entry->image.get());
    glBindVertexArray(emptyVertexArray_.get());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    // The ResetRenderState command that follows restores program, vertex array, viewport,
    // blending and the bound texture.
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
