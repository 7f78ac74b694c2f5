#include "gfx/heatmap_textures.hpp"

#include <algorithm>
#include <cmath>

#include "poslab/heatmap_sample.hpp"

namespace poslab::gfx {

Status HeatmapTextures::initialize() {
    auto program = buildProgram("fullscreen.vert", "heatmap.frag");
    if (!program) return program.error();
    program_ = std::move(program.value());
    locationLow_ = glGetUniformLocation(program_.get(), "low");
    locationHigh_ = glGetUniformLocation(program_.get(), "high");
    locationValues_ = glGetUniformLocation(program_.get(), "values");
    locationLut_ = glGetUniformLocation(program_.get(), "lut");
    GLuint vertexArray = 0;
    glGenVertexArrays(1, &vertexArray);  // core profile needs a bound VAO even with no attributes
    emptyVertexArray_ = VertexArray(vertexArray);
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxTextureSize_);
    return success();
}

GLuint HeatmapTextures::lookupTable(ColormapId colormap) {
    Texture& texture = lookupTables_[std::size_t(colormap)];
    if (!texture) {
        const auto& table = colormapTable(colormap);
        texture = createTexture2D(kColormapSize, 1, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE,
                                  table.data(), GL_NEAREST, GL_NEAREST);
    }
    return texture.get();
}

GLuint HeatmapTextures::textureFor(const HeatmapItem& item) {
    if (!program_ || !item.values || item.values->empty()) return 0;
    auto [it, inserted] = entries_.try_emplace(item.version);
    Entry& entry = it->second;
    entry.lastUsedFrame = frame_;
    if (inserted) {
        // Larger than the GPU allows: average down on the CPU first (rare; views already sample).
        const Matrix* source = item.values.get();
        Matrix reduced;
        const long long limit = maxTextureSize_;
        if (static_cast<long long>(source->rows) > limit || static_cast<long long>(source->cols) > limit) {
            reduced = averageBlocks(*source, cellsPerTexel(source->rows, int(limit)),
                                    cellsPerTexel(source->cols, int(limit)));
            source = &reduced;
        }
        entry.width = int(source->cols);
        entry.height = int(source->rows);
        uploadBuffer_.assign(source->values.begin(), source->values.end());
        for (float v : uploadBuffer_) nanTexels_ += std::isnan(v) ? 1 : 0;
        entry.values = createTexture2D(entry.width, entry.height, GL_R32F, GL_RED, GL_FLOAT,
                                       uploadBuffer_.data(), GL_NEAREST, GL_NEAREST);
        entry.colored = createTexture2D(entry.width, entry.height, GL_RGBA8, GL_RGBA,
                                        GL_UNSIGNED_BYTE, nullptr, GL_LINEAR, GL_NEAREST);
        GLint previousFramebuffer = 0;
        glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previousFramebuffer);
        GLuint framebuffer = 0;
        glGenFramebuffers(1, &framebuffer);
        entry.target = Framebuffer(framebuffer);
        glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                               entry.colored.get(), 0);
        glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previousFramebuffer));
    }
    if (!entry.colorized || entry.colormap != item.colormap || entry.low != item.range.low ||
        entry.high != item.range.high) {
        colorize(entry, item.colormap, item.range);
    }
    return entry.colored.get();
}

void HeatmapTextures::colorize(Entry& entry, ColormapId colormap, ValueRange range) {
    GLint previousFramebuffer = 0, viewport[4] = {};
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previousFramebuffer);
    glGetIntegerv(GL_VIEWPORT, viewport);

    glBindFramebuffer(GL_FRAMEBUFFER, entry.target.get());
    glViewport(0, 0, entry.width, entry.height);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
    glUseProgram(program_.get());
    glUniform1f(locationLow_, float(range.low));
    glUniform1f(locationHigh_, float(range.high));
    glUniform1i(locationValues_, 0);
    glUniform1i(locationLut_, 1);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, lookupTable(colormap));
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, entry.values.get());
    glBindVertexArray(emptyVertexArray_.get());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
    glUseProgram(0);

    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previousFramebuffer));
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    entry.colormap = colormap;
    entry.low = range.low;
    entry.high = range.high;
    entry.colorized = true;
}

void HeatmapTextures::endFrame() {
    ++frame_;
    std::erase_if(entries_, [&](const auto& pair) { return pair.second.lastUsedFrame + 3 < frame_; });
}

}  // namespace poslab::gfx
