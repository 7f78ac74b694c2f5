#include "gfx/figure_layers.hpp"

#include <imgui.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <type_traits>
#include <variant>

#include "gfx/figure_renderer.hpp"
#include "gfx/fonts.hpp"
#include "gfx/heatmap_textures.hpp"

namespace poslab::gfx {

namespace {

constexpr std::size_t kMaxSlots = 64;  // figures remembered (a rectangle and an identity each)
// A figure is worth a copy (a textured blit of its rectangle) when drawing it takes at least
// this many vertices or draw commands (a heatmap pass, a clip change).
constexpr int kWorthVertices = 1000, kWorthCommands = 16;
#ifdef __EMSCRIPTEN__
// WebGL's default framebuffer may be multisampled, and a blit from or into one is refused.
constexpr bool kLayersAvailable = false;
constexpr GLenum kLayerPixelOrder = GL_RGBA;  // (never made: WebGL 2 has no BGRA upload)
#else
constexpr bool kLayersAvailable = true;
// The window's byte order (BGRA on X11's 24- and 32-bit visuals): an unsized format with BGRA
// data is stored as BGRA by Mesa, so a copy between the two is a memory copy.
constexpr GLenum kLayerPixelOrder = GL_BGRA;
#endif

// A 64-bit running hash: each word mixed in by a multiply-xorshift (the finaliser of
// MurmurHash3 / SplitMix64), so nearby values (a point moved by one ulp) land far apart.
struct Hasher {
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    void word(std::uint64_t v) {
        std::uint64_t z = state ^ (v + 0x9E3779B97F4A7C15ull + (state << 6) + (state >> 2));
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        state = z ^ (z >> 31);
    }
    void number(float v) { word(std::bit_cast<std::uint32_t>(v)); }
    void number(double v) { word(std::bit_cast<std::uint64_t>(v)); }
    void point(Point p) {
        word(std::uint64_t(std::bit_cast<std::uint32_t>(p.x)) << 32 |
             std::bit_cast<std::uint32_t>(p.y));
    }
    void box(const Box& b) {
        point({b.x, b.y});
        point({b.width, b.height});
    }
    void colour(Rgba c) {
        word(std::uint64_t(c.r) | std::uint64_t(c.g) << 8 | std::uint64_t(c.b) << 16 |
             std::uint64_t(c.a) << 24);
    }
    void text(const std::string& s) {
        word(s.size());
        std::size_t i = 0;
        for (; i + 8 <= s.size(); i += 8) {
            std::uint64_t v = 0;
            for (std::size_t k = 0; k < 8; ++k)
                v |= std::uint64_t(std::uint8_t(s[i + k])) << (8 * k);
            word(v);
        }
        std::uint64_t tail = 0;
        for (std::size_t k = 0; i + k < s.size(); ++k)
            tail |= std::uint64_t(std::uint8_t(s[i + k])) << (8 * k);
        word(tail);
    }
    void points(const std::vector<Point>& ps) {
        word(ps.size());
        for (Point p : ps) point(p);
    }

    void operator()(const TextItem& t) {
        point(t.anchor);
        text(t.text);
        number(t.size);
        colour(t.color);
        word(std::uint64_t(t.horizontal) | std::uint64_t(t.vertical) << 8 |
             std::uint64_t(t.vertical90) << 16);
    }
    void operator()(const LineItem& l) {
        point(l.from);
        point(l.to);
        colour(l.color);
        number(l.width);
        word(l.dashed);
    }
    void operator()(const PolylineItem& p) {
        points(p.points);
        colour(p.color);
        number(p.width);
    }
    void operator()(const RectItem& r) {
        box(r.box);
        colour(r.fill);
        colour(r.stroke);
        number(r.strokeWidth);
    }
    void operator()(const CircleItem& c) {
        point(c.center);
        number(c.radius);
        colour(c.fill);
        colour(c.stroke);
        number(c.strokeWidth);
    }
    void operator()(const PolygonItem& p) {
        points(p.points);
        colour(p.fill);
    }
    void operator()(const HeatmapItem& h) {
        box(h.box);
        // The version names the values (HeatmapTextures keeps textures by it): a matrix made
        // again with the same version, as a legend strip is every frame, is the same picture.
        word(h.version);
        word(h.values ? h.values->rows : 0);
        word(h.values ? h.values->cols : 0);
        word(std::uint64_t(h.colormap));
        number(h.range.low);
        number(h.range.high);
        colour(h.masked);
    }
    void operator()(const ClipPush& c) { box(c.box); }
    void operator()(const ClipPop&) { word(0xC11Bu); }
};

}  // namespace

std::uint64_t figureFingerprint(const Figure& figure) {
    Hasher h;
    h.point({figure.width, figure.height});
    h.colour(figure.background);
    h.word(figure.items.size());
    for (const FigureItem& item : figure.items) {
        h.word(item.index());
        std::visit(h, item);
    }
    return h.state;
}

// ---- FigureLayerCache

LayerUse FigureLayerCache::use(const LayerRect& rect, std::uint64_t key, int depth) {
    // Two figures drawn over each other in one frame: the later one is drawn as usual, unless
    // it is stacked on the figure at the same rectangle one layer down.
    for (const Claim& other : claimed_) {
        const bool stacked = other.depth == depth - 1 && other.rect == rect;
        if (other.rect.overlaps(rect) && !stacked) return LayerUse::Direct;
    }
    if (depth < 0 || depth >= kLayerDepths) return LayerUse::Direct;
    if (depth > 0 && std::none_of(claimed_.begin(), claimed_.end(), [&](const Claim& below) {
            return below.depth == depth - 1 && below.rect == rect;
        }))
        return LayerUse::Direct;  // nothing to stack on
    claimed_.push_back({rect, depth});
    const auto slot = std::find_if(slots_.begin(), slots_.end(), [&](const Slot& s) {
        return s.rect == rect && s.depth == depth;
    });
    if (slot == slots_.end()) {
        if (slots_.size() >= kMaxSlots) {  // forget the one seen longest ago
            slots_.erase(std::min_element(
                slots_.begin(), slots_.end(),
                [](const Slot& a, const Slot& b) { return a.lastSeen < b.lastSeen; }));
        }
        slots_.push_back(Slot{.rect = rect, .depth = depth, .key = key, .lastSeen = frame_});
        return LayerUse::Direct;
    }
    slot->lastSeen = frame_;
    if (slot->key != key) {
        // Changed. A figure that held still before (a worker's, which changes when a build
        // arrives) is captured at once, and so is one that replaces a figure cheaper to draw
        // than to copy (the "computing…" note before a worker's first figure, which then holds
        // until the next arrival: drawn once, not again the next frame to be captured); one
        // changing every frame is drawn as usual until it holds still for a frame.
        const bool steady = (slot->cached && slot->copied) || slot->cheap;
        slot->key = key;
        slot->copied = false;
        slot->cheap = false;
        slot->cached = steady;
        if (!steady) return LayerUse::Direct;
    } else if (slot->cheap) {
        return LayerUse::Direct;
    } else if (slot->cached) {
        slot->copied = true;
        return LayerUse::Copy;
    }
    // Unchanged since it was last drawn (or steady): worth keeping. Figures cached where it
    // goes in the same layer lose their pixels.
    slot->cached = true;
    for (Slot& other : slots_) {
        if (&other != &*slot && other.depth == slot->depth && other.rect.overlaps(slot->rect))
            other.cached = false;
    }
    return LayerUse::Capture;
}

void FigureLayerCache::keepDrawing(const LayerRect& rect, int depth) {
    for (Slot& slot : slots_) {
        if (slot.rect == rect && slot.depth == depth) {
            slot.cheap = true;
            slot.cached = false;
        }
    }
}

void FigureLayerCache::endFrame() {
    claimed_.clear();
    ++frame_;
}

void FigureLayerCache::clear() {
    slots_.clear();
    claimed_.clear();
}

std::size_t FigureLayerCache::cachedCount() const {
    return std::size_t(
        std::count_if(slots_.begin(), slots_.end(), [](const Slot& s) { return s.cached; }));
}

LayerBlit layerBlit(const LayerRect& rect, long framebufferHeight, bool capture) {
    // The frame's rows [y0, y1) counted from the bottom are the layer's rows [rect.y0, rect.y1)
    // in the opposite order: one side of each copy names its rows from the higher one down.
    const long y0 = framebufferHeight - rect.y1, y1 = framebufferHeight - rect.y0;
    if (capture) return {{rect.x0, y0, rect.x1, y1}, {rect.x0, rect.y1, rect.x1, rect.y0}};
    return {{rect.x0, rect.y0, rect.x1, rect.y1}, {rect.x0, y1, rect.x1, y0}};
}

// ---- FigureLayers

FigureLayers::FigureLayers() = default;
FigureLayers::~FigureLayers() = default;

bool FigureLayers::ensureLayer(int width, int height, int depth) {
    if (width != width_ || height != height_) {
        cache_.clear();
        for (int d = 0; d < kLayerDepths; ++d) {
            framebuffers_[d].reset();
            textures_[d].reset();
        }
        width_ = width;
        height_ = height;
    }
    if (framebuffers_[depth]) return true;
    Texture texture = createTexture2D(width, height, GL_RGBA, kLayerPixelOrder, GL_UNSIGNED_BYTE,
                                      nullptr, GL_NEAREST, GL_NEAREST);
    GLuint name = 0;
    glGenFramebuffers(1, &name);
    Framebuffer framebuffer(name);
    GLint previous = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
    glBindFramebuffer(GL_FRAMEBUFFER, name);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture.get(), 0);
    const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previous));
    if (!complete) {  // drawn as usual from now on
        failed_ = true;
        return false;
    }
    textures_[depth] = std::move(texture);
    framebuffers_[depth] = std::move(framebuffer);
    return true;
}

bool FigureLayers::draw(const FigureTarget& target, const Figure& figure) {
    // Which layer: an opaque figure the first; a clear one stacked right on the last opaque
    // one (nothing drawn between: its draw list filled exactly as far as when it ended) the
    // second. A third figure is drawn as usual.
    const Below below = below_;
    below_ = {};
    const bool stacked = figure.background.a == 0 && below.list && below.list == target.drawList &&
                         below.vertices == target.drawList->VtxBuffer.Size &&
                         below.commands == target.drawList->CmdBuffer.Size;
    if (!kLayersAvailable || failed_ || !target.drawList ||
        (figure.background.a != 255 && !stacked))
        return false;
    const int depth = stacked ? 1 : 0;
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 scale = io.DisplayFramebufferScale;
    // The framebuffer's size as the OpenGL backend computes it.
    const int width = int(io.DisplaySize.x * scale.x), height = int(io.DisplaySize.y * scale.y);
    if (width <= 0 || height <= 0) return false;
    // The figure's rectangle in framebuffer pixels: whole pixels only, so that the pixels the
    // copy covers are exactly the ones its clip rectangle lets the drawing touch.
    const float left = target.origin.x, top = target.origin.y;
    const float right = left + figure.width * target.scale,
                bottom = top + figure.height * target.scale;
    const ImVec2 clipMin = target.drawList->GetClipRectMin(),
                 clipMax = target.drawList->GetClipRectMax();
    const ImVec2 displayMin(0, 0), displayMax = io.DisplaySize;
    if (!(left >= clipMin.x && top >= clipMin.y && right <= clipMax.x && bottom <= clipMax.y) ||
        !(left >= displayMin.x && top >= displayMin.y && right <= displayMax.x &&
          bottom <= displayMax.y) ||
        !(right > left && bottom > top)) {
        return false;
    }
    const float edges[4] = {left * scale.x, top * scale.y, right * scale.x, bottom * scale.y};
    for (float e : edges) {
        if (e != std::floor(e)) return false;
    }
    const LayerRect rect{long(edges[0]), long(edges[1]), long(edges[2]), long(edges[3])};
    if (stacked && !(rect == below.rect)) return false;
    if (!ensureLayer(width, height, depth)) return false;

    // The figure and everything else its pixels depend on.
    Hasher identity;
    identity.word(figureFingerprint(figure));
    identity.point(target.origin);
    identity.number(target.scale);
    identity.word(std::uint64_t(reinterpret_cast<std::uintptr_t>(target.fonts)));
    identity.word(target.fonts ? target.fonts->generation() : 0);
    identity.word(std::uint64_t(reinterpret_cast<std::uintptr_t>(target.heatmaps)));
    identity.word(std::uint64_t(reinterpret_cast<std::uintptr_t>(io.Fonts->TexID)));
    identity.word(std::uint64_t(io.Fonts->TexWidth) << 32 | std::uint64_t(io.Fonts->TexHeight));
    if (stacked) identity.word(below.key);  // its pixels are both figures'
    const LayerUse use = cache_.use(rect, identity.state, depth);
    if (depth == 0) below_ = Below{target.drawList, rect, identity.state};
    if (use == LayerUse::Direct) return false;

    if (use == LayerUse::Capture) {
        // Drawn as usual, then its pixels copied into the layer where they are: what the frame
        // drew, so the copies that follow are exactly it.
        FigureTarget direct = target;
        direct.layers = nullptr;
        const int vertices = target.drawList->VtxBuffer.Size;
        const int commands = target.drawList->CmdBuffer.Size;
        drawFigure(direct, figure);
        // A figure of a few glyphs on a clear ("computing…") draws faster than a blit copies it.
        if (target.drawList->VtxBuffer.Size - vertices < kWorthVertices &&
            target.drawList->CmdBuffer.Size - commands < kWorthCommands) {
            cache_.keepDrawing(rect, depth);
            ended(target.drawList);
            return true;
        }
        ++captured_;
    } else {
        // Not drawn, but shown: the heatmaps' textures stay for the frame the figure changes.
        for (const FigureItem& item : figure.items) {
            const auto* heatmap = std::get_if<HeatmapItem>(&item);
            if (heatmap && target.heatmaps) target.heatmaps->keepAlive(*heatmap);
        }
        ++copies_;
    }
    Copy& queued = *queuedCopies_.emplace_back(
        std::make_unique<Copy>(Copy{this, rect, depth, use == LayerUse::Capture}));
    // Both figures copied: the stacked one's copy holds the one below too.
    if (stacked && use == LayerUse::Copy && below.copy) below.copy->skip = true;
    target.drawList->AddCallback(&FigureLayers::copyCallback, &queued);
    if (depth == 0 && use == LayerUse::Copy) below_.copy = &queued;
    ended(target.drawList);
    return true;
}

void FigureLayers::drawnDirectly(const ImDrawList* list) {
    ended(list);
}

void FigureLayers::ended(const ImDrawList* list) {
    if (below_.list != list || below_.vertices >= 0) return;
    below_.vertices = list->VtxBuffer.Size;
    below_.commands = list->CmdBuffer.Size;
}

void FigureLayers::copyCallback(const ImDrawList*, const ImDrawCmd* command) {
    const auto* queued = static_cast<const Copy*>(command->UserCallbackData);
    queued->owner->copy(*queued);
}

void FigureLayers::copy(const Copy& queued) const {
    const Framebuffer& layer = framebuffers_[queued.depth];
    if (!layer || queued.skip) return;
    const LayerBlit blit = layerBlit(queued.rect, height_, queued.capture);
    const auto* s = blit.source;
    const auto* d = blit.destination;
    GLint draw = 0, read = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read);
    // Capture: the frame's framebuffer into the layer; else the layer into the frame's.
    glBindFramebuffer(GL_READ_FRAMEBUFFER, queued.capture ? GLuint(draw) : layer.get());
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, queued.capture ? layer.get() : GLuint(draw));
    glDisable(GL_SCISSOR_TEST);  // the rectangle is the figure's, inside the clip rectangle
    glBlitFramebuffer(GLint(s[0]), GLint(s[1]), GLint(s[2]), GLint(s[3]), GLint(d[0]), GLint(d[1]),
                      GLint(d[2]), GLint(d[3]), GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glEnable(GL_SCISSOR_TEST);  // as the OpenGL backend keeps it while it renders
    glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(read));
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(draw));
}

void FigureLayers::endFrame() {
    cache_.endFrame();
    queuedCopies_.clear();
    below_ = {};
}

}  // namespace poslab::gfx
