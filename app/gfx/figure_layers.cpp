#include "gfx/figure_layers.hpp"

#include <imgui.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
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

std::uint64_t itemFingerprint(const FigureItem& item) {
    Hasher h;
    h.word(item.index());
    std::visit(h, item);
    return h.state;
}

namespace {

// The figure's identity from its items' (in order: the same items in another order draw
// differently).
std::uint64_t figureFingerprint(const Figure& figure, const std::vector<std::uint64_t>& items) {
    Hasher h;
    h.point({figure.width, figure.height});
    h.colour(figure.background);
    h.word(items.size());
    for (std::uint64_t item : items) h.word(item);
    return h.state;
}

std::vector<std::uint64_t> itemFingerprints(const Figure& figure) {
    std::vector<std::uint64_t> items;
    items.reserve(figure.items.size());
    for (const FigureItem& item : figure.items) items.push_back(itemFingerprint(item));
    return items;
}

// Figures of more items are never split: their bookkeeping (each item tested against the
// footprints of those going above before it) grows with the square of the count; at this count
// it stays under a millisecond (a scatter plot's thousands of dots are drawn whole).
constexpr std::size_t kMaxSplitItems = 1024;

bool sortedHas(const std::vector<std::uint64_t>& sorted, std::uint64_t key) {
    return std::binary_search(sorted.begin(), sorted.end(), key);
}

}  // namespace

std::uint64_t figureFingerprint(const Figure& figure) {
    return figureFingerprint(figure, itemFingerprints(figure));
}

// ---- FigureSplitter

FigureSplitter::Track* FigureSplitter::find(const LayerRect& rect) {
    for (Track& track : tracks_)
        if (track.rect == rect) return &track;
    return nullptr;
}

bool FigureSplitter::moving(const LayerRect& rect, std::uint64_t whole,
                            const std::vector<std::uint64_t>& items) {
    Track* track = find(rect);
    if (!track) {
        if (tracks_.size() >= kMaxSlots) {  // forget the one seen longest ago
            tracks_.erase(std::min_element(
                tracks_.begin(), tracks_.end(),
                [](const Track& a, const Track& b) { return a.lastSeen < b.lastSeen; }));
        }
        track = &tracks_.emplace_back();
        track->rect = rect;
        track->whole = ~whole;  // a new figure counts as changed
    }
    track->lastSeen = frame_;
    if (track->whole == whole) {  // held still: drawn whole, its layer copied
        track->changes = 0;
        track->below.clear();
        return false;
    }
    track->whole = whole;
    ++track->changes;
    track->before = std::move(track->last);
    track->last.clear();
    if (items.size() > kMaxSplitItems) {
        track->below.clear();
        return false;
    }
    track->last = items;
    std::sort(track->last.begin(), track->last.end());
    return track->changes >= 2;
}

bool FigureSplitter::split(const LayerRect& rect, const std::vector<std::uint64_t>& items,
                           const std::vector<ItemBox>& footprints, const std::vector<ItemTie>& ties,
                           std::vector<ItemPart>& parts) {
    Track* track = find(rect);
    const std::size_t n = items.size();
    if (!track || footprints.size() != n || ties.size() != n) return false;
    // The part below stays what it was while all its items are still here; else it is the
    // items of the last frame.
    const bool keep = !track->below.empty() &&
                      std::all_of(track->below.begin(), track->below.end(),
                                  [&](std::uint64_t key) { return sortedHas(track->last, key); });
    const std::vector<std::uint64_t>& candidates = keep ? track->below : track->before;
    parts.assign(n, ItemPart::Above);
    std::vector<ItemBox> above;  // the footprints of the items going above so far
    std::vector<std::size_t> group;
    std::size_t belowCount = 0, aboveCount = 0;
    for (std::size_t i = 0; i < n;) {
        if (ties[i] == ItemTie::Clip) {
            parts[i++] = ItemPart::Both;
            continue;
        }
        // The item and those tied to it (clips between them go into both parts).
        group.assign(1, i);
        std::size_t next = i + 1;
        for (std::size_t j = i + 1; j < n; ++j) {
            if (ties[j] == ItemTie::Clip) continue;
            if (ties[j] != ItemTie::WithPrevious) break;
            group.push_back(j);
            next = j + 1;
        }
        bool below = true;
        for (std::size_t k : group) {
            if (!sortedHas(candidates, items[k])) below = false;
            for (const ItemBox& box : above) {
                if (!below) break;
                if (box.overlaps(footprints[k])) below = false;
            }
            if (!below) break;
        }
        for (std::size_t k : group) {
            parts[k] = below ? ItemPart::Below : ItemPart::Above;
            if (!below && !footprints[k].empty()) above.push_back(footprints[k]);
        }
        (below ? belowCount : aboveCount) += group.size();
        // Clips between the group's items, skipped above, go into both parts.
        for (std::size_t j = i + 1; j < next; ++j)
            if (ties[j] == ItemTie::Clip) parts[j] = ItemPart::Both;
        i = next;
    }
    track->below.clear();
    if (belowCount == 0 || aboveCount == 0) return false;
    for (std::size_t i = 0; i < n; ++i)
        if (parts[i] == ItemPart::Below) track->below.push_back(items[i]);
    std::sort(track->below.begin(), track->below.end());
    return true;
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

std::optional<LayerRect> FigureLayers::placeOf(const FigureTarget& target,
                                               const Figure& figure) const {
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 scale = io.DisplayFramebufferScale;
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
        return std::nullopt;
    }
    const float edges[4] = {left * scale.x, top * scale.y, right * scale.x, bottom * scale.y};
    for (float e : edges) {
        if (e != std::floor(e)) return std::nullopt;
    }
    return LayerRect{long(edges[0]), long(edges[1]), long(edges[2]), long(edges[3])};
}

bool FigureLayers::draw(const FigureTarget& target, const Figure& figure) {
    if (!kLayersAvailable || failed_ || !target.drawList || figure.background.a != 255)
        return drawWhole(target, figure, figureFingerprint(figure));
    const std::vector<std::uint64_t> items = itemFingerprints(figure);
    const std::uint64_t whole = figureFingerprint(figure, items);
    const std::optional<LayerRect> rect = placeOf(target, figure);
    if (!rect || !splitter_.moving(*rect, whole, items)) return drawWhole(target, figure, whole);
    // Moving: the items it had in the last frame below, the others stacked on them.
    std::vector<ItemTie> ties(items.size(), ItemTie::Own);
    bool afterItem = false;  // an item (not a clip) came before
    for (std::size_t i = 0; i < figure.items.size(); ++i) {
        const FigureItem& item = figure.items[i];
        if (std::holds_alternative<ClipPush>(item) || std::holds_alternative<ClipPop>(item)) {
            ties[i] = ItemTie::Clip;
            continue;
        }
        // Replay folds a translucent rectangle into a heatmap drawn right before it: the two
        // stay together, so the fold (or its absence) is the same in either part.
        const auto* rectangle = std::get_if<RectItem>(&item);
        if (afterItem && rectangle && rectangle->fill.a > 0 && rectangle->fill.a < 255 &&
            !rectangle->stroke.a)
            ties[i] = ItemTie::WithPrevious;
        afterItem = true;
    }
    std::vector<ItemPart> parts;
    if (!splitter_.split(*rect, items, itemFootprints(target, figure), ties, parts))
        return drawWhole(target, figure, whole);
    Figure below, above;
    below.width = above.width = figure.width;
    below.height = above.height = figure.height;
    below.background = figure.background;
    above.background = {0, 0, 0, 0};
    for (std::size_t i = 0; i < figure.items.size(); ++i) {
        if (parts[i] != ItemPart::Above) below.items.push_back(figure.items[i]);
        if (parts[i] != ItemPart::Below) above.items.push_back(figure.items[i]);
    }
    drawPart(target, below);
    drawPart(target, above);
    return true;
}

void FigureLayers::drawPart(const FigureTarget& target, const Figure& part) {
    if (drawWhole(target, part, figureFingerprint(part))) return;
    FigureTarget direct = target;
    direct.layers = nullptr;
    drawFigure(direct, part);
    drawnDirectly(target.drawList);
}

bool FigureLayers::drawWhole(const FigureTarget& target, const Figure& figure,
                             std::uint64_t whole) {
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
    const std::optional<LayerRect> place = placeOf(target, figure);
    if (!place) return false;
    const LayerRect rect = *place;
    if (stacked && !(rect == below.rect)) return false;
    if (!ensureLayer(width, height, depth)) return false;

    // The figure and everything else its pixels depend on.
    Hasher identity;
    identity.word(whole);
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
    splitter_.endFrame();
    queuedCopies_.clear();
    below_ = {};
}

}  // namespace poslab::gfx
