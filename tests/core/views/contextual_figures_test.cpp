// The Context view's figures: sampled texels equal the encodings' own values at the centre cells,
// nothing L x L is built at L = 65,536, and every tab draws at a projector size.
#include "poslab/views/contextual_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <string>
#include <variant>
#include <vector>

#include "cell_resolution_checks.hpp"
#include "figure_checks.hpp"
#include "poslab/figure/figure_controls.hpp"

namespace poslab {
namespace {

TEST(ContextualFiguresTest, TexelCentresCoverTheAxis) {
    long long per = 0;
    EXPECT_EQ(texelCentres(5, 10, &per), (std::vector<long long>{0, 1, 2, 3, 4}));
    EXPECT_EQ(per, 1);
    // 10 cells on 4 texels: 3 per texel, centres 1, 4, 7 and the clipped 9.
    EXPECT_EQ(texelCentres(10, 4, &per), (std::vector<long long>{1, 4, 7, 9}));
    EXPECT_EQ(per, 3);
}

TEST(ContextualFiguresTest, DebertaTexelsAreTheTermAtCentreCells) {
    DebertaParams p;
    p.seqLen = 65536;  // the L x L matrix would be 32 GiB
    p.headDim = 16;
    const HeatmapSample s = debertaTermTexels(p, DebertaTerm::C2p, {0, 0, 300, 200});
    ASSERT_EQ(s.values->rows, 200u);
    ASSERT_EQ(s.values->cols, 300u);
    const long long rowsPer = s.rowsPerTexel, colsPer = s.colsPerTexel;
    EXPECT_EQ(rowsPer, (65536 + 199) / 200);
    for (std::size_t r : {0u, 57u, 199u}) {
        for (std::size_t c : {0u, 133u, 299u}) {
            const long long i =
                std::min<long long>(static_cast<long long>(r) * rowsPer + rowsPer / 2, 65535);
            const long long j =
                std::min<long long>(static_cast<long long>(c) * colsPer + colsPer / 2, 65535);
            EXPECT_NEAR((*s.values)(r, c), debertaTermValue(p, DebertaTerm::C2p, i, j), 1e-12);
        }
    }
}

TEST(ContextualFiguresTest, NopeMemoKeepsTheMaskWhileTheTemperatureMoves) {
    // Dragging attn_scale rebuilds the NoPE figure: with the memo its two heatmaps keep their
    // values and versions (no new texture), and the figure holds the same values as without it.
    NopeFigureOptions o;
    o.seqLen = 65536;
    o.irope.numLayers = 128;
    NopeFigureMemo memo;
    auto heatmaps = [](const Figure& f) {
        std::vector<const HeatmapItem*> out;
        for (const FigureItem& item : f.items)
            if (const auto* h = std::get_if<HeatmapItem>(&item)) out.push_back(h);
        return out;
    };
    const Box area{0, 0, 1100, 800};
    Figure first = emptyFigure(area.width, area.height, darkTheme());
    ASSERT_TRUE(drawNopeFigure(first, area, o, darkTheme(), 0, &memo).ok());
    o.temperature.attnScale = 0.5;
    Figure second = emptyFigure(area.width, area.height, darkTheme());
    ASSERT_TRUE(drawNopeFigure(second, area, o, darkTheme(), 0, &memo).ok());
    Figure fresh = emptyFigure(area.width, area.height, darkTheme());
    ASSERT_TRUE(drawNopeFigure(fresh, area, o, darkTheme()).ok());
    const auto a = heatmaps(first), b = heatmaps(second), c = heatmaps(fresh);
    ASSERT_EQ(a.size(), 2u);
    ASSERT_EQ(b.size(), 2u);
    ASSERT_EQ(c.size(), 2u);
    for (std::size_t k = 0; k < 2; ++k) {
        EXPECT_EQ(a[k]->version, b[k]->version) << k;
        EXPECT_NE(c[k]->version, b[k]->version) << k;
        EXPECT_EQ(c[k]->values->values, b[k]->values->values) << k;
    }
    // Another mask layer is another mask.
    o.maskLayer = 3;
    Figure third = emptyFigure(area.width, area.height, darkTheme());
    ASSERT_TRUE(drawNopeFigure(third, area, o, darkTheme(), 0, &memo).ok());
    const auto d = heatmaps(third);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0]->version, b[0]->version);  // the layer stack
    EXPECT_NE(d[1]->version, b[1]->version);
}

TEST(ContextualFiguresTest, IropeMaskTexelsShowChunks) {
    IropeParams p;
    p.attentionChunkSize = 4;
    const HeatmapSample s = iropeMaskTexels(p, 0, 8, {0, 0, 100, 100});
    ASSERT_EQ(s.values->rows, 8u);
    EXPECT_EQ((*s.values)(5, 4), 1.0);
    EXPECT_TRUE(std::isinf((*s.values)(5, 3)));  // the previous chunk
    EXPECT_TRUE(std::isinf((*s.values)(5, 6)));  // the future
    const HeatmapSample nope = iropeMaskTexels(p, 3, 8, {0, 0, 100, 100});
    EXPECT_EQ((*nope.values)(5, 0), 1.0);
}

TEST(ContextualFiguresTest, EveryTabDrawsAtDesktopAndProjectorSizes) {
    for (Box area : {Box{0, 0, 1200, 800}, Box{0, 0, 760, 560}}) {
        for (const Theme& theme : {darkTheme(), scaledTheme(darkTheme(), 1.6f)}) {
            Figure a = emptyFigure(area.width, area.height, theme);
            EXPECT_TRUE(drawCopeFigure(a, area, CopeSentenceParams{}, theme).ok());
            EXPECT_FALSE(a.items.empty());
            Figure b = emptyFigure(area.width, area.height, theme);
            DebertaParams d;
            d.seqLen = 2048;
            d.headDim = 8;  // the figure's cost is texels x d: keep the sanitizer run quick
            EXPECT_TRUE(drawDebertaFigure(b, area, d, theme).ok());
            Figure c = emptyFigure(area.width, area.height, theme);
            EXPECT_TRUE(drawNopeFigure(c, area, NopeFigureOptions{}, theme).ok());
            Figure r = emptyFigure(area.width, area.height, theme);
            EXPECT_TRUE(drawRandomizedFigure(r, area, RandomizedPositionsParams{}, theme).ok());
        }
    }
}

// Issue #28: iRoPE's layer map had no key, its title stating what 0 and 1 mean. Its two kinds
// of layer are keyed by two swatches, each in the colour the map paints that kind (a RoPE layer
// is 1 of the range 0 to 1: viridis's top; a NoPE layer 0: its bottom), with its name.
TEST(ContextualFiguresTest, IropeLayerMapKeysRopeAndNopeBySwatches) {
    struct Seen {
        const char* name;
        Theme theme;
        Box area;
        int panel;
    };
    for (const Seen& seen : {Seen{"1440x900", darkTheme(), {0, 0, 1050, 760}, 1},
                             Seen{"F5", scaledTheme(darkTheme(), 1.75f), {0, 0, 1008, 512}, 1},
                             Seen{"one column", forFiles(paperTheme(), 1), {0, 0, 600, 1200}, 1}}) {
        const NopeFigureOptions options;  // every panel; panel 2 (1 here) the layer map
        Figure figure = emptyFigure(seen.area.width, seen.area.height, seen.theme);
        ASSERT_TRUE(drawNopeFigure(figure, seen.area, options, seen.theme, seen.panel).ok());
        struct Kind {
            std::string name;
            double value;
        };
        for (const Kind& kind : {Kind{"RoPE + chunked", 1}, Kind{"NoPE + full", 0}}) {
            const Rgba expected = sampleColormap(ColormapId::Viridis, kind.value);
            bool keyed = false;
            for (std::size_t i = 1; i < figure.items.size(); ++i) {
                const auto* text = std::get_if<TextItem>(&figure.items[i]);
                const auto* swatch = std::get_if<RectItem>(&figure.items[i - 1]);
                if (!text || text->text != kind.name || !swatch) continue;
                const Box label = textBox(*text);
                keyed = swatch->fill.r == expected.r && swatch->fill.g == expected.g &&
                        swatch->fill.b == expected.b && swatch->fill.a == expected.a &&
                        swatch->box.right() <= label.x &&
                        std::abs((swatch->box.y + swatch->box.height / 2) -
                                 (label.y + label.height / 2)) < 2;
            }
            EXPECT_TRUE(keyed) << seen.name << ": " << kind.name;
        }
        EXPECT_EQ(layoutFaults(figure), "") << seen.name;
        EXPECT_TRUE(textsCutShort(figure).empty()) << seen.name;
    }
}

// The lines of each "each pixel" note of a figure, in drawing order: the text starting "each
// pixel" and the texts drawn right after it alike (its size and colour), as drawCornerNote
// wraps it.
std::vector<int> eachPixelNoteLines(const Figure& figure) {
    std::vector<int> notes;
    const auto& items = figure.items;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto* first = std::get_if<TextItem>(&items[i]);
        if (!first || first->text.rfind("each pixel", 0) != 0) continue;
        int lines = 1;
        for (std::size_t j = i + 1; j < items.size(); ++j, ++lines) {
            const auto* text = std::get_if<TextItem>(&items[j]);
            if (!text || text->size != first->size || !(text->color == first->color)) break;
        }
        notes.push_back(lines);
    }
    return notes;
}

// A figure at one column as `render --width 600` builds it (every panel, height derived).
template <typename Draw>
Result<Figure> oneColumnFigure(Draw draw) {
    return buildWithAllPanels(
        [&](const Theme& t, float width, float height) -> Result<Figure> {
            Figure f = emptyFigure(width, height, t);
            if (auto drawn = draw(f, Box{0, 0, width, height}, t); !drawn) return drawn.error();
            return f;
        },
        forFiles(paperTheme(), 1), 600, 400, true, 8192);
}

// Issue #28: iRoPE's chunk mask at one column (`render irope --width 600`) had its note "each
// pixel: the centre cell of 122×55 cells" beside the map on four lines. It says "each pixel: its
// centre cell" (as the Relative views' maps do) in at most two lines, at one column as `render`
// builds it, at 1440x900 and at 1024x768 F5.
TEST(ContextualFiguresTest, IropeMaskNoteTakesAtMostTwoLines) {
    NopeFigureOptions options;
    options.sections = NopeSections::Irope;  // `render irope`: the layers, the mask, the scale
    auto noteLines = [](const Figure& figure) {  // the first note's lines; 0: no note
        const std::vector<int> notes = eachPixelNoteLines(figure);
        return notes.empty() ? 0 : notes.front();
    };
    auto oneColumn = oneColumnFigure(
        [&](Figure& f, Box area, const Theme& t) { return drawNopeFigure(f, area, options, t); });
    ASSERT_TRUE(oneColumn) << oneColumn.error().message;
    const int printed = noteLines(*oneColumn);
    EXPECT_GE(printed, 1) << "one column";
    EXPECT_LE(printed, 2) << "one column";
    EXPECT_EQ(layoutFaults(*oneColumn), "");
    struct Seen {
        const char* name;
        Theme theme;
        Box area;
        int panel;
    };
    for (const Seen& seen : {Seen{"1440x900", darkTheme(), {0, 0, 1050, 760}, 0},
                             Seen{"F5", scaledTheme(darkTheme(), 1.75f), {0, 0, 1008, 512}, 1}}) {
        Figure figure = emptyFigure(seen.area.width, seen.area.height, seen.theme);
        ASSERT_TRUE(drawNopeFigure(figure, seen.area, options, seen.theme, seen.panel).ok());
        const int lines = noteLines(figure);
        EXPECT_GE(lines, 1) << seen.name;
        EXPECT_LE(lines, 2) << seen.name;
        EXPECT_EQ(layoutFaults(figure), "") << seen.name;
    }
}

TEST(ContextualFiguresTest, DenseRandomizedDrawsAreSharesOfPositionsDrawn) {
    // 3 draws of 600 positions from 0..9999 on a 700 px figure: too dense for a dot each, so
    // the draws panel is a heatmap of the share of each texel's positions drawn. Identity: a
    // row's shares times their blocks' sizes add up to the draw's 600 positions.
    RandomizedPositionsParams p;
    p.length = 600;
    p.maxLength = 10000;
    p.draws = 3;
    Figure f = emptyFigure(700, 500, darkTheme());
    ASSERT_TRUE(drawRandomizedFigure(f, {0, 0, 700, 500}, p, darkTheme(), 0).ok());
    const HeatmapItem* map = nullptr;
    for (const FigureItem& item : f.items)
        if (const auto* h = std::get_if<HeatmapItem>(&item); h && !map) map = h;  // not the bar
    ASSERT_NE(map, nullptr);
    ASSERT_EQ(map->values->rows, 3u);
    const std::size_t columns = map->values->cols;
    const long long block = (p.maxLength + (long long)columns - 1) / (long long)columns;
    for (std::size_t d = 0; d < 3; ++d) {
        double drawn = 0;
        for (std::size_t c = 0; c < columns; ++c) {
            const long long cells = std::min<long long>(block, p.maxLength - (long long)c * block);
            drawn += (*map->values)(d, c) * double(cells);
        }
        EXPECT_NEAR(drawn, 600.0, 1e-9) << d;
    }
    // Sparse draws keep a dot per position: no heatmap.
    p.length = 20;
    Figure g = emptyFigure(700, 500, darkTheme());
    ASSERT_TRUE(drawRandomizedFigure(g, {0, 0, 700, 500}, p, darkTheme(), 0).ok());
    for (const FigureItem& item : g.items) EXPECT_FALSE(std::holds_alternative<HeatmapItem>(item));
}

TEST(ContextualFiguresTest, CoarseRandomizedFigureDrawsDrawZeroAsALineThroughItsDots) {
    // While a slider moves the GUI shows the coarse figure: draw 0's dots (one a pixel they
    // touch) become one line through the same points; everything else is the exact figure's.
    RandomizedPositionsParams p;
    p.length = 300;
    p.maxLength = 5000;
    p.draws = 4;
    p.seed = 7;
    const Theme theme = darkTheme();
    Figure exact = emptyFigure(700, 500, theme), coarse = emptyFigure(700, 500, theme);
    ASSERT_TRUE(drawRandomizedFigure(exact, {0, 0, 700, 500}, p, theme, 0, Detail::Exact).ok());
    ASSERT_TRUE(drawRandomizedFigure(coarse, {0, 0, 700, 500}, p, theme, 0, Detail::Coarse).ok());
    std::vector<Point> dots;
    for (const FigureItem& item : exact.items)
        if (const auto* c = std::get_if<CircleItem>(&item)) dots.push_back(c->center);
    ASSERT_GT(dots.size(), 100u);
    const PolylineItem* line = nullptr;
    for (const FigureItem& item : coarse.items) {
        EXPECT_FALSE(std::holds_alternative<CircleItem>(item));
        const auto* l = std::get_if<PolylineItem>(&item);
        if (l && l->points.size() == std::size_t(p.length) && l->width > 3) line = l;
    }
    ASSERT_NE(line, nullptr);
    for (const Point& d : dots) {
        bool on = false;
        for (const Point& q : line->points) on = on || (q.x == d.x && q.y == d.y);
        EXPECT_TRUE(on) << d.x << ", " << d.y;
    }
    // The draws panel is the same in both.
    auto firstMap = [](const Figure& f) -> const Matrix* {
        for (const FigureItem& item : f.items)
            if (const auto* h = std::get_if<HeatmapItem>(&item)) return h->values.get();
        return nullptr;
    };
    ASSERT_NE(firstMap(exact), nullptr);
    ASSERT_NE(firstMap(coarse), nullptr);
    EXPECT_EQ(firstMap(exact)->values, firstMap(coarse)->values);
}

TEST(ContextualFiguresTest, BadOptionsAreRefusedWithTheirName) {
    Figure f = emptyFigure(400, 300, darkTheme());
    NopeFigureOptions o;
    o.maskLayer = 48;
    EXPECT_EQ(drawNopeFigure(f, {0, 0, 400, 300}, o, darkTheme()).error().message,
              "mask_layer must be 0..47 (got 48)");
    CopeSentenceParams c;
    c.sentence = "x";
    EXPECT_FALSE(drawCopeFigure(f, {0, 0, 400, 300}, c, darkTheme()).ok());
}

TEST(ContextualFiguresTest, DebertaOneColumnFigureCutsNoText) {
    // `render deberta --width 600` (a one-column paper figure) cut its titles, axis label,
    // marker label and corner notes with "…" in a 2 x 2 grid; the panels now stack instead.
    const DebertaParams params;
    for (float width : {600.0f, 1200.0f}) {
        Figure figure = emptyFigure(width, 800, paperTheme());
        ASSERT_TRUE(drawDebertaFigure(figure, {0, 0, width, 800}, params, paperTheme()));
        int texts = 0;
        for (const FigureItem& item : figure.items) {
            if (const auto* text = std::get_if<TextItem>(&item)) {
                ++texts;
                EXPECT_EQ(text->text.find("…"), std::string::npos) << width << ": " << text->text;
            }
        }
        EXPECT_GT(texts, 10);
    }
}

// Lesson 12.2: CoPE's position map was coloured 0..npos − 1 = 15 while p, a sum of gates below 1,
// stays well below it (8.3 in the default sentence, about 3 in the lesson), so its blocks were
// dark. The colour runs from 0 to
// the largest p, computed here from the gates as the paper defines it (p_ij = Σ_{k=j..i} g_ik,
// clamped at npos − 1), and the caption says the scale stops short of the cap; where p reaches
// the cap (every token a gate of 1) the scale is 0..npos − 1 as before.
TEST(ContextualFiguresTest, CopePositionMapIsColouredToTheLargestPosition) {
    for (CopeGateSource gates :
         {CopeGateSource::Seeded, CopeGateSource::Sentences, CopeGateSource::Tokens}) {
        CopeSentenceParams params;
        params.gates = gates;
        const CopeSentence cope = copeSentence(params).value();
        const std::size_t n = cope.tokens.size();
        const double cap = double(cope.npos - 1);
        double largest = 0;
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j <= i; ++j) {
                double sum = 0;
                for (std::size_t k = j; k <= i; ++k) sum += cope.gates(i, k);
                largest = std::max(largest, std::min(sum, cap));
            }
        }
        Figure figure = emptyFigure(1200, 800, paperTheme());
        ASSERT_TRUE(drawCopeFigure(figure, {0, 0, 1200, 800}, params, paperTheme()).ok());
        const HeatmapItem* map = nullptr;
        for (const FigureItem& item : figure.items) {
            if (const auto* h = std::get_if<HeatmapItem>(&item);
                h && h->colormap == ColormapId::Magma && h->values && h->values->cols > 1)
                map = h;
        }
        ASSERT_NE(map, nullptr);
        EXPECT_EQ(map->range.low, 0);
        EXPECT_NEAR(map->range.high, largest, 1e-12);
        std::string text;
        for (const FigureItem& item : figure.items)
            if (const auto* t = std::get_if<TextItem>(&item)) text += t->text + "\n";
        if (gates == CopeGateSource::Sentences) {
            EXPECT_EQ(largest, 3);  // three sentence ends
        }
        // npos is 0 here (the slider's default: tokens + 1 = 16), so the cap is named by the
        // token count: "npos − 1 = 15" beside a slider reading 0 contradicted it.
        ASSERT_EQ(params.npos, 0);
        ASSERT_EQ(n, 15u);
        if (gates != CopeGateSource::Tokens) {
            EXPECT_LT(largest, cap);  // gates below 1: p stops short of the cap
            EXPECT_NE(text.find("p (cap: tokens = 15)"), std::string::npos) << text;
            EXPECT_EQ(text.find("npos − 1"), std::string::npos) << text;
        } else {
            EXPECT_EQ(largest, cap);
            EXPECT_EQ(text.find("(cap:"), std::string::npos) << text;
        }
    }
    // An npos set by hand is named as the code names it: p <= npos − 1.
    CopeSentenceParams params;
    params.npos = 12;
    Figure figure = emptyFigure(1200, 800, paperTheme());
    ASSERT_TRUE(drawCopeFigure(figure, {0, 0, 1200, 800}, params, paperTheme()).ok());
    EXPECT_TRUE(hasText(figure, "p (cap: npos − 1 = 11)")) << allText(figure);
}

// Randomized positions' curve title is typeset as the other figures' maths: E[k-th] was plain.
TEST(ContextualFiguresTest, RandomizedTitleIsTypeset) {
    Figure figure = emptyFigure(1200, 800, paperTheme());
    ASSERT_TRUE(
        drawRandomizedFigure(figure, {0, 0, 1200, 800}, RandomizedPositionsParams{}, paperTheme())
            .ok());
    bool title = false;
    for (const FigureItem& item : figure.items) {
        if (const auto* t = std::get_if<TextItem>(&item)) {
            EXPECT_EQ(t->text.find("k-th"), std::string::npos) << t->text;
            title = title || t->text.rfind("$E[p_{(k)}] = (k+1)(N+1)/(L+1) - 1$", 0) == 0;
        }
    }
    EXPECT_TRUE(title);
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// The texel grids of a figure's maps drawn in a square box (a colour bar, one texel wide, is
// not a map), as {rows, cols}.
std::vector<std::pair<std::size_t, std::size_t>> squareBoxTexels(const Figure& figure) {
    std::vector<std::pair<std::size_t, std::size_t>> grids;
    for (const FigureItem& item : figure.items) {
        const auto* map = std::get_if<HeatmapItem>(&item);
        if (!map || !map->values || map->values->rows < 2 || map->values->cols < 2) continue;
        if (std::abs(map->box.width - map->box.height) > 1) continue;
        grids.emplace_back(map->values->rows, map->values->cols);
    }
    return grids;
}

// Audit, session 23: DeBERTa's term maps and the iRoPE chunk mask are square (n x n, square
// cells), but their texels were counted on the panel's cell, wider than tall: at 1440x900 (a
// 1046 x 760 figure) DeBERTa's notes read "the centre cell of 2×1 cells", and at 1024x768 F5 the
// mask's "64×33", while each pixel of the square map shows as many columns as rows. The texels
// are counted on the map itself: every map in a square box has as many texel rows as columns.
// (The notes now say "each pixel: its centre cell", so the grids are read from the maps.)
TEST(ContextualFiguresTest, SquareMapsAreSampledOnTheirSquare) {
    struct Case {
        Theme theme;
        float width, height;
    };
    const Case cases[] = {{darkTheme(), 1046, 760}, {scaledTheme(darkTheme(), 1.75f), 1008, 552}};
    int maps = 0;
    for (const Case& c : cases) {
        const Box area{0, 0, c.width, c.height};
        for (int panel = 0; panel <= 4; ++panel) {
            Figure deberta = emptyFigure(c.width, c.height, c.theme);
            DebertaParams d;
            d.headDim = 8;  // the cost is texels x d: keep the sanitizer run quick
            ASSERT_TRUE(drawDebertaFigure(deberta, area, d, c.theme, panel).ok());
            Figure nope = emptyFigure(c.width, c.height, c.theme);
            ASSERT_TRUE(drawNopeFigure(nope, area, NopeFigureOptions{}, c.theme, panel).ok());
            for (const Figure* figure : {&deberta, &nope}) {
                for (const auto& [rows, cols] : squareBoxTexels(*figure)) {
                    ++maps;
                    EXPECT_EQ(rows, cols) << c.width << "x" << c.height << " panel " << panel;
                }
            }
        }
    }
    EXPECT_GE(maps, 4);  // DeBERTa's three terms at 1046 x 760 and the mask, at least
}

// Issue #28: at one column (`render deberta --width 600`) each term map's note, "each pixel: the
// centre cell of 2×2 cells", wrapped over five narrow lines beside its colour bar. It says "each
// pixel: its centre cell", as iRoPE's mask and the Relative maps do, in at most two lines.
TEST(ContextualFiguresTest, DebertaTermNotesTakeAtMostTwoLines) {
    DebertaParams d;
    d.headDim = 8;
    auto oneColumn = oneColumnFigure(
        [&](Figure& f, Box area, const Theme& t) { return drawDebertaFigure(f, area, d, t); });
    ASSERT_TRUE(oneColumn) << oneColumn.error().message;
    const std::vector<int> notes = eachPixelNoteLines(*oneColumn);
    for (std::size_t i = 0; i < notes.size(); ++i) EXPECT_LE(notes[i], 2) << "note " << i;
    EXPECT_GE(notes.size(), 1u);
    EXPECT_EQ(layoutFaults(*oneColumn), "");
}

// A vector file (Theme::cellResolution, #28) holds DeBERTa's term maps cell for cell: 1024
// positions in a 600 x 800 figure are 1024 x 1024 scores (they were centre cells, "each pixel:
// its centre cell"), each written out here from the seeded rows: without buckets
// δ = i − j, k = max_relative_positions, and with c2p and p2c on s = 3.
TEST(ContextualFiguresTest, DebertaVectorFileHoldsEveryCell) {
    DebertaParams p;
    p.seqLen = 1024;
    p.headDim = 8;
    p.positionBuckets = 0;
    p.maxRelativePositions = 300;
    const Theme theme = vectorFileTheme(paperTheme());
    Figure figure = emptyFigure(600, 800, theme);
    ASSERT_TRUE(drawDebertaFigure(figure, {0, 0, 600, 800}, p, theme).ok());
    const auto maps = mapsOf(figure);
    ASSERT_EQ(maps.size(), 3u);  // c2c, c2p, p2c
    expectNoSamplingNote(figure);
    auto dot = [](const std::vector<double>& a, const std::vector<double>& b) {
        double sum = 0;
        for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
        return sum;
    };
    const double scale = 1 / std::sqrt(8.0 * 3);
    const long long k = 300;
    auto index = [&](long long i, long long j) { return std::clamp(i - j + k, 0LL, 2 * k - 1); };
    auto row = [&](DebertaStream stream, long long at) { return debertaVector(p, stream, at); };
    const long long picked[][2] = {{0, 0}, {0, 1023}, {1023, 0}, {500, 200}, {17, 18}, {900, 899}};
    for (std::size_t t = 0; t < 3; ++t) {
        SCOPED_TRACE(t);
        ASSERT_EQ(maps[t]->values->rows, 1024u);
        ASSERT_EQ(maps[t]->values->cols, 1024u);
        EXPECT_LT(maps[t]->box.height, 1024.0f);  // more cells than pixels
        for (const auto& [i, j] : picked) {
            const double want = t == 0
                                    ? dot(row(DebertaStream::Query, i), row(DebertaStream::Key, j))
                                : t == 1 ? dot(row(DebertaStream::Query, i),
                                               row(DebertaStream::PositionKey, index(i, j)))
                                         : dot(row(DebertaStream::Key, j),
                                               row(DebertaStream::PositionQuery, index(i, j)));
            expectCell(*maps[t], std::size_t(i), std::size_t(j), want * scale, 1e-12);
        }
    }
}

// iRoPE's chunk mask likewise: 1024 positions, chunks of 100, one texel per cell, each 1 where
// the key is at or before the query in its chunk and masked elsewhere; no "each pixel" note.
TEST(ContextualFiguresTest, IropeMaskVectorFileHoldsEveryCell) {
    NopeFigureOptions options;
    options.sections = NopeSections::Irope;
    options.seqLen = 1024;
    options.irope.attentionChunkSize = 100;
    options.maskLayer = 0;  // a RoPE layer: chunked
    const Theme theme = vectorFileTheme(paperTheme());
    Figure figure = emptyFigure(600, 800, theme);
    ASSERT_TRUE(drawNopeFigure(figure, {0, 0, 600, 800}, options, theme).ok());
    const HeatmapItem* mask = nullptr;
    for (const HeatmapItem* map : mapsOf(figure))
        if (map->values->cols == 1024) mask = map;
    ASSERT_NE(mask, nullptr) << "no map of 1024 columns";
    ASSERT_EQ(mask->values->rows, 1024u);
    EXPECT_LT(mask->box.height, 1024.0f);
    expectNoSamplingNote(figure);
    for (std::size_t i : {0u, 99u, 100u, 150u, 1023u}) {
        for (std::size_t j : {0u, 99u, 100u, 149u, 150u, 151u, 1000u, 1023u}) {
            const bool attends = j <= i && i / 100 == j / 100;
            const double v = (*mask->values)(i, j);
            EXPECT_EQ(v == 1.0, attends) << i << ", " << j;
            EXPECT_EQ(std::isinf(v) && v < 0, !attends) << i << ", " << j;
        }
    }
}

}  // namespace
}  // namespace poslab
