#include "poslab/views/relative_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "figure_checks.hpp"
#include "poslab/encodings/alibi.hpp"
#include "poslab/figure/figure_controls.hpp"
#include "poslab/views/relative_family.hpp"
#include "poslab/views/relative_oscillators.hpp"

namespace poslab {
namespace {

constexpr RelativeTab kTabs[] = {RelativeTab::Family, RelativeTab::Xpos, RelativeTab::Kerple,
                                 RelativeTab::Sandwich, RelativeTab::Fire};

TEST(RelativeFiguresTest, FireSampleShowsCentreCells) {
    FireParams p;
    const HeatmapSample s = fireSample(p, 1000, 100, 100, false);
    ASSERT_TRUE(s.values);
    EXPECT_EQ(s.rowsPerTexel, 10);
    // Texel (7, 3) holds cell (75, 35).
    EXPECT_DOUBLE_EQ((*s.values)(7, 3), firePhi(p, 75, 35));
    EXPECT_TRUE(std::isinf((*s.values)(3, 7)));
}

TEST(RelativeFiguresTest, EveryTabDrawsAtScreenAndProjectorSizes) {
    for (RelativeTab tab : kTabs) {
        for (Box area : {Box{0, 0, 1100, 800}, Box{0, 0, 640, 520}}) {
            Figure figure = emptyFigure(area.width, area.height, darkTheme());
            ASSERT_TRUE(drawRelativeFigure(figure, area, RelativeFigureOptions{}, tab, darkTheme()))
                << int(tab);
            const Counts c = count(figure);
            EXPECT_GT(c.heatmaps + c.polylines, 0) << int(tab);
            EXPECT_TRUE(c.insideFigure) << int(tab);
            EXPECT_TRUE(allCoordinatesFinite(figure)) << int(tab);
        }
    }
}

TEST(RelativeFiguresTest, StaysFastAtLongContext) {
    RelativeFigureOptions o;
    o.seqLen = 65536;
    o.logDistance = true;
    finishesPromptly([&] {
        for (RelativeTab tab : kTabs) {
            Figure figure = emptyFigure(1000, 700, darkTheme());
            EXPECT_TRUE(drawRelativeFigure(figure, {0, 0, 1000, 700}, o, tab, darkTheme()));
        }
    });
}

TEST(RelativeFiguresTest, MemoRebuildsOnlyTheMemberThatChanged) {
    RelativeFigureOptions o;
    const RelativeLayout layout =
        relativeLayout({0, 0, 1100, 800}, RelativeTab::Family, darkTheme());
    RelativeFigureMemo memo;
    auto first = computeRelativeFigureData(o, RelativeTab::Family, layout, &memo);
    ASSERT_TRUE(first.ok());
    o.kerpleLog.r1 = 2;
    auto second = computeRelativeFigureData(o, RelativeTab::Family, layout, &memo);
    ASSERT_TRUE(second.ok());
    for (int k = 0; k < kFamilyMembers; ++k) {
        const bool changed = FamilyMember(k) == FamilyMember::KerpleLog;
        EXPECT_EQ(first->maps[std::size_t(k)].version != second->maps[std::size_t(k)].version,
                  changed)
            << k;
    }
    // The same data as without the memo: values and curves.
    auto fresh = computeRelativeFigureData(o, RelativeTab::Family, layout);
    ASSERT_TRUE(fresh.ok());
    for (int k = 0; k < kFamilyMembers; ++k) {
        EXPECT_EQ(fresh->maps[std::size_t(k)].values->values,
                  second->maps[std::size_t(k)].values->values)
            << k;
        EXPECT_EQ(fresh->curves[std::size_t(k)].y, second->curves[std::size_t(k)].y) << k;
    }
}

TEST(RelativeFiguresTest, SandwichHeadsAreTheKeptKernelScaled) {
    // The Sandwich tab scales one kernel per head: each head's texels equal that head's own
    // block means (relative 1e-13), with the memo and without, as the head slider moves.
    RelativeFigureOptions o;
    o.seqLen = 5000;
    o.sandwich = {64, 16, 0};
    const RelativeLayout layout =
        relativeLayout({0, 0, 900, 600}, RelativeTab::Sandwich, darkTheme());
    RelativeFigureMemo memo;
    for (int head : {0, 5, 15}) {
        o.sandwich.head = head;
        for (RelativeFigureMemo* m : {&memo, static_cast<RelativeFigureMemo*>(nullptr)}) {
            auto data = computeRelativeFigureData(o, RelativeTab::Sandwich, layout, m);
            ASSERT_TRUE(data.ok());
            const Box box = layout.panel(0);
            const HeatmapSample direct =
                causalOscillatorSample(sandwichOscillators(o.sandwich), o.seqLen,
                                       texelBudget(box.height), texelBudget(box.width));
            const Matrix& got = *data->maps[0].values;
            ASSERT_EQ(got.values.size(), direct.values->values.size());
            for (std::size_t k = 0; k < got.values.size(); ++k) {
                const double want = direct.values->values[k];
                if (std::isinf(want)) {
                    EXPECT_EQ(got.values[k], want);
                } else {
                    EXPECT_NEAR(got.values[k], want, 1e-13 * std::max(1.0, std::abs(want)));
                }
            }
        }
    }
}

TEST(RelativeFiguresTest, CoarseDataEqualsExactWhereEveryCellFits) {
    // A quarter of the texels a side still holds every cell of L = 24 on a 1100 x 800 canvas,
    // and two curve samples a column still reach every distance: the coarse figure (a control
    // moving) is then the exact one, value for value, in every tab.
    RelativeFigureOptions o;
    o.seqLen = 24;
    o.trainingLength = 12;
    for (RelativeTab tab : kTabs) {
        const RelativeLayout layout = relativeLayout({0, 0, 1100, 800}, tab, darkTheme());
        auto exact = computeRelativeFigureData(o, tab, layout, nullptr, Detail::Exact);
        auto coarse = computeRelativeFigureData(o, tab, layout, nullptr, Detail::Coarse);
        ASSERT_TRUE(exact.ok() && coarse.ok()) << int(tab);
        ASSERT_EQ(exact->maps.size(), coarse->maps.size()) << int(tab);
        for (std::size_t k = 0; k < exact->maps.size(); ++k) {
            ASSERT_EQ(coarse->maps[k].rowsPerTexel, 1) << int(tab) << " map " << k;
            ASSERT_EQ(coarse->maps[k].colsPerTexel, 1) << int(tab) << " map " << k;
            EXPECT_EQ(exact->maps[k].values->values, coarse->maps[k].values->values)
                << int(tab) << " map " << k;
        }
        ASSERT_EQ(exact->curves.size(), coarse->curves.size()) << int(tab);
        for (std::size_t k = 0; k < exact->curves.size(); ++k) {
            EXPECT_EQ(exact->curves[k].x, coarse->curves[k].x) << int(tab) << " curve " << k;
            EXPECT_EQ(exact->curves[k].y, coarse->curves[k].y) << int(tab) << " curve " << k;
        }
    }
}

TEST(RelativeFiguresTest, CoarseTexelsAreTheKernelAtTheirCentreCells) {
    // At L = 65,536 a coarse KERPLE power texel is the kernel -r1 |i - j|^r2 at its block's
    // centre cell (r1 0.5, r2 0.8: the defaults, inside the code's clamps), with at most a
    // quarter of the exact figure's texels a side.
    RelativeFigureOptions o;
    o.seqLen = 65536;
    const RelativeLayout layout =
        relativeLayout({0, 0, 1100, 800}, RelativeTab::Kerple, darkTheme());
    auto exact = computeRelativeFigureData(o, RelativeTab::Kerple, layout);
    auto coarse =
        computeRelativeFigureData(o, RelativeTab::Kerple, layout, nullptr, Detail::Coarse);
    ASSERT_TRUE(exact.ok() && coarse.ok());
    const HeatmapSample& s = coarse->maps[0];
    EXPECT_LE(4 * s.values->rows, exact->maps[0].values->rows + 3);
    EXPECT_LE(4 * s.values->cols, exact->maps[0].values->cols + 3);
    const long long rb = s.rowsPerTexel, cb = s.colsPerTexel;
    ASSERT_GT(rb, 1);
    const std::size_t lastCol = s.values->cols - 1;
    for (std::size_t tr : {std::size_t(1), std::size_t(7), s.values->rows - 2}) {
        for (std::size_t tc : {std::size_t(0), std::size_t(1), tr / 2, tr, lastCol - 1}) {
            const long long i = (long long)tr * rb + (rb - 1) / 2;
            const long long j = (long long)tc * cb + (cb - 1) / 2;
            if (j > i) {
                EXPECT_TRUE(std::isinf((*s.values)(tr, tc))) << tr << ", " << tc;  // masked
                continue;
            }
            const double want = i == j ? 0.0 : -0.5 * std::pow(double(i - j), 0.8);
            EXPECT_NEAR((*s.values)(tr, tc), want, 1e-12 * std::max(1.0, std::abs(want)))
                << tr << ", " << tc;
        }
    }
}

TEST(RelativeFiguresTest, ToeplitzAtDistancesIsTheOffsetTable) {
    RelativeFigureOptions o;
    o.seqLen = 300;
    o.xpos.headDim = 32;
    o.sandwich.headDim = 32;
    const std::vector<double> distances = {0, 1, 2, 3, 10, 11, 12, 150, 298, 299};
    for (FamilyMember m : kFamilyMemberList) {
        if (m == FamilyMember::Fire) continue;
        const std::vector<double> table = toeplitzByOffset(o, m, o.seqLen);
        const std::vector<double> got = toeplitzAtDistances(o, m, distances);
        ASSERT_EQ(got.size(), distances.size());
        for (std::size_t k = 0; k < distances.size(); ++k) {
            const double want = table[std::size_t(o.seqLen - 1 - int(distances[k]))];
            EXPECT_NEAR(got[k], want, 1e-11 * std::max(1.0, std::abs(want)))
                << familyMemberName(m) << " at " << distances[k];
        }
    }
}

TEST(RelativeFiguresTest, BadOptionsGiveOneLineErrors) {
    RelativeFigureOptions o;
    o.seqLen = 1;
    EXPECT_EQ(validate(o).error().message.rfind("seq_len must be", 0), 0u);
    o = {};
    o.biasFloor = 0;
    EXPECT_EQ(validate(o).error().message.rfind("bias_floor must be", 0), 0u);
    o = {};
    o.fire.c = -1;
    EXPECT_EQ(validate(o).error().message.rfind("c must be", 0), 0u);
    Figure figure = emptyFigure(400, 300, darkTheme());
    EXPECT_FALSE(drawRelativeFigure(figure, {0, 0, 400, 300}, o, RelativeTab::Fire, darkTheme()));
}

// Issue #28: the Relative family's eight small maps had no colour bar, so no value could be read
// off them. Each has its own (their scales differ by orders of magnitude), beside it: a colour
// ramp right of the map, within the map's rows; and nothing overlaps, hides data or is cut, on
// screen and in files (a projector's font: FamilyMapsTooSmallForBarsGoWithout).
TEST(RelativeFiguresTest, EveryFamilyMapHasItsOwnColourBar) {
    for (const Theme& theme : {darkTheme(), paperTheme(), forFiles(paperTheme(), 1)}) {
        for (Box area : {Box{0, 0, 1200, 760}, Box{0, 0, 1400, 760}}) {
            Figure figure = emptyFigure(area.width, area.height, theme);
            ASSERT_TRUE(drawRelativeFigure(figure, area, RelativeFigureOptions{},
                                           RelativeTab::Family, theme));
            std::vector<Box> maps, ramps;
            for (const FigureItem& item : figure.items) {
                if (const auto* heatmap = std::get_if<HeatmapItem>(&item)) {
                    // A colour ramp is one column of values from 0 to 1, taller than wide.
                    const bool ramp = heatmap->values && heatmap->values->cols == 1 &&
                                      heatmap->box.height > heatmap->box.width;
                    (ramp ? ramps : maps).push_back(heatmap->box);
                }
            }
            ASSERT_EQ(maps.size(), 8u) << area.width;
            ASSERT_EQ(ramps.size(), 8u) << area.width << " font " << theme.fontSize;
            for (std::size_t k = 0; k < 8; ++k) {
                EXPECT_GE(ramps[k].x, maps[k].right()) << k;
                EXPECT_LE(ramps[k].x, maps[k].right() + 3 * theme.fontSize) << k;
                EXPECT_GE(ramps[k].y, maps[k].y - 1) << k;
                EXPECT_LE(ramps[k].bottom(), maps[k].bottom() + 1) << k;
            }
            EXPECT_EQ(layoutFaults(figure), "") << area.width;
            EXPECT_TRUE(textsCutShort(figure).empty()) << textsCutShort(figure).front();
        }
    }
}

// At a projector's font the family's panel 2 is eight cells of some 250 x 250 px: bars beside
// maps with their own tick labels squeezed them to 40 px, so the maps went without bars and no
// value could be read off them at F5 (#28). There they are small multiples: no tick labels of
// their own (the axes said once, under them), each map beside its bar, as large as the cells
// allow, titles whole at the title size and every text at the projector's size.
TEST(RelativeFiguresTest, FamilyMapsKeepTheirBarsAtTheProjectorSize) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    const float smallest = kReadableTextPx * 1.75f * 0.8f;  // --check-layout's presentation floor
    for (Box area : {Box{0, 0, 1008, 512}, Box{0, 0, 1008, 640}}) {
        Figure figure = emptyFigure(area.width, area.height, theme);
        ASSERT_TRUE(drawRelativeFigure(figure, area, RelativeFigureOptions{}, RelativeTab::Family,
                                       theme, 1));
        std::vector<Box> maps, ramps;
        for (const FigureItem& item : figure.items) {
            if (const auto* heatmap = std::get_if<HeatmapItem>(&item)) {
                const bool ramp = heatmap->values && heatmap->values->cols == 1;
                (ramp ? ramps : maps).push_back(heatmap->box);
            } else if (const auto* text = std::get_if<TextItem>(&item)) {
                EXPECT_GE(text->size, smallest - 0.05f) << text->text;
                for (const char* title : {"ALiBi", "Sandwich", "FIRE", "T5", "KERPLE power"}) {
                    if (text->text == title) {
                        EXPECT_GE(text->size, theme.titleSize - 0.05f) << title << area.height;
                    }
                }
            }
        }
        ASSERT_EQ(maps.size(), 8u) << area.height;
        ASSERT_EQ(ramps.size(), 8u) << area.height;
        for (std::size_t k = 0; k < 8; ++k) {
            EXPECT_GE(maps[k].width, 3 * theme.fontSize) << k;
            EXPECT_GE(ramps[k].x, maps[k].right()) << k;
            EXPECT_LE(ramps[k].x, maps[k].right() + 2 * theme.fontSize) << k;
            EXPECT_NEAR(ramps[k].height, maps[k].height, 1.f) << k;
        }
        EXPECT_NE(allText(figure).find("every map: query"), std::string::npos);
        EXPECT_EQ(layoutFaults(figure), "") << area.height;
        EXPECT_TRUE(textsCutShort(figure).empty()) << area.height;
    }
}

// Every bar of the family says what it measures: "bias" (ALiBi, T5, KERPLE, Sandwich, FIRE) or
// "q·k" (xPos, RoPE), across the bar's top. In a 1200 x 800 file and at one column the bars went
// without their captions so that the maps kept FIRE's size, and a bar without its caption does
// not say what its numbers are. The maps keep one size (FamilyMapsAreOneSize).
// Heads are numbered from 0 in the figures as on the sliders, the command line (--sandwich-head
// and --fire-head, 0..H-1) and ALiBi's figures: head 2 selected drew "Sandwich head 3 of 8" and
// "MLP(φ), head 3", and the per-head curves were keyed "head 1".."head 8".
TEST(RelativeFiguresTest, HeadsAreNumberedAsTheSlidersNumberThem) {
    RelativeFigureOptions options;
    options.sandwich.head = 2;
    options.fire.head = 2;
    auto draw = [&](RelativeTab tab) {
        Figure figure = emptyFigure(1200, 800, paperTheme());
        EXPECT_TRUE(drawRelativeFigure(figure, {0, 0, 1200, 800}, options, tab, paperTheme()));
        return figure;
    };
    const Figure sandwich = draw(RelativeTab::Sandwich);
    EXPECT_TRUE(hasText(sandwich, "Sandwich head 2 (heads 0 to 7, d = 128)"));
    EXPECT_TRUE(hasText(sandwich, "head 0"));  // the first head's curve
    EXPECT_FALSE(hasText(sandwich, "head 8"));
    const Figure fire = draw(RelativeTab::Fire);
    EXPECT_TRUE(hasText(fire, "head 2,"));
    EXPECT_FALSE(hasText(fire, "head 3,"));
}

TEST(RelativeFiguresTest, EveryFamilyBarHasItsCaption) {
    for (const Theme& theme : {darkTheme(), paperTheme(), forFiles(paperTheme(), 1)}) {
        for (Box area : {Box{0, 0, 1200, 760}, Box{0, 0, 1400, 760}, Box{0, 0, 1200, 800},
                         Box{0, 0, 600, 1500}}) {
            Figure figure = emptyFigure(area.width, area.height, theme);
            ASSERT_TRUE(drawRelativeFigure(figure, area, RelativeFigureOptions{},
                                           RelativeTab::Family, theme));
            const std::string where =
                std::to_string(int(area.width)) + " px, font " + std::to_string(theme.fontSize);
            std::vector<Box> ramps;
            for (const FigureItem& item : figure.items) {
                if (const auto* heatmap = std::get_if<HeatmapItem>(&item);
                    heatmap && heatmap->values && heatmap->values->cols == 1)
                    ramps.push_back(heatmap->box);
            }
            ASSERT_EQ(ramps.size(), 8u) << where;
            for (std::size_t k = 0; k < ramps.size(); ++k) {
                const Box& bar = ramps[k];
                const std::string expected = k >= 6 ? "$q·k$" : "bias";  // xPos and RoPE last
                int captions = 0;
                for (const FigureItem& item : figure.items) {
                    const auto* text = std::get_if<TextItem>(&item);
                    if (!text || text->text != expected) continue;
                    // Over the bar's column (or beside it), no higher than two lines above it.
                    const Box box = textBox(*text);
                    if (box.right() >= bar.x && box.x <= bar.right() + 4 * theme.fontSize &&
                        box.bottom() <= bar.bottom() + 1 && box.y >= bar.y - 3 * theme.fontSize)
                        ++captions;
                }
                EXPECT_EQ(captions, 1) << "bar " << k << " (" << expected << "), " << where;
            }
            EXPECT_EQ(layoutFaults(figure), "") << where;
            EXPECT_TRUE(textsCutShort(figure).empty()) << where;
        }
    }
}

// The family's eight maps are drawn at one size wherever their cells are alike. FIRE's sat
// beside a bar block sized for tick labels such as −0.3125 and was half the size of T5's in a
// 1200 x 800 file (50 against 107 px), and each map's size followed its labels' width (ALiBi's
// −1000: 63 px), which side by side read as a scale.
TEST(RelativeFiguresTest, FamilyMapsAreOneSize) {
    for (const Theme& theme : {darkTheme(), paperTheme(), forFiles(paperTheme(), 1)}) {
        for (Box area : {Box{0, 0, 1200, 760}, Box{0, 0, 1400, 760}, Box{0, 0, 1100, 780}}) {
            Figure figure = emptyFigure(area.width, area.height, theme);
            ASSERT_TRUE(drawRelativeFigure(figure, area, RelativeFigureOptions{},
                                           RelativeTab::Family, theme));
            std::vector<Box> maps;
            for (const FigureItem& item : figure.items) {
                if (const auto* heatmap = std::get_if<HeatmapItem>(&item);
                    heatmap && heatmap->values && heatmap->values->cols > 1)
                    maps.push_back(heatmap->box);
            }
            ASSERT_EQ(maps.size(), 8u);
            const std::string where =
                std::to_string(int(area.width)) + " px, font " + std::to_string(theme.fontSize);
            for (std::size_t k = 1; k < 8; ++k) {
                EXPECT_NEAR(maps[k].width, maps[0].width, 1.f) << "map " << k << ", " << where;
                EXPECT_NEAR(maps[k].height, maps[0].height, 1.f) << "map " << k << ", " << where;
            }
            EXPECT_EQ(layoutFaults(figure), "") << where;
        }
    }
}

// The sizes the Relative view is seen at: its figure area at 1440x900, one panel at a time at
// 1024x768 F5 (1008 x 512), and a one-column print (--width 600).
struct SeenAt {
    const char* name;
    Theme theme;
    Box area;
    bool oneAtATime;
};
std::vector<SeenAt> seenAt() {
    return {{"1440x900", darkTheme(), {0, 0, 1050, 760}, false},
            {"F5", scaledTheme(darkTheme(), 1.75f), {0, 0, 1008, 512}, true},
            {"one column", forFiles(paperTheme(), 1), {0, 0, 600, 900}, false}};
}

// Issue #28: FIRE's "training length 512" sat in the channel between the curves of queries 1023
// and 2047 at 1024x768 F5, its box touching the lower one (Sandwich's and KERPLE's did at one
// column). A marker's label keeps the shared clearance (markClearance) from every curve, or is
// listed in the legend; it is shown either way.
TEST(RelativeFiguresTest, TrainingLengthLabelKeepsClearOfTheCurves) {
    struct Curves {
        RelativeTab tab;
        int panel;  // the curves' panel, 0-based
    };
    for (const SeenAt& seen : seenAt()) {
        for (Curves c : {Curves{RelativeTab::Family, 0}, Curves{RelativeTab::Xpos, 1},
                         Curves{RelativeTab::Kerple, 2}, Curves{RelativeTab::Sandwich, 1},
                         Curves{RelativeTab::Fire, 2}}) {
            Figure figure = emptyFigure(seen.area.width, seen.area.height, seen.theme);
            ASSERT_TRUE(drawRelativeFigure(figure, seen.area, RelativeFigureOptions{}, c.tab,
                                           seen.theme, seen.oneAtATime ? c.panel : 0));
            const std::string where =
                std::string(seen.name) + ", tab " + std::to_string(int(c.tab));
            int labels = 0;
            for (const FigureItem& item : figure.items) {
                const auto* text = std::get_if<TextItem>(&item);
                if (!text || text->text != "training length 512") continue;
                ++labels;
                // Its box grown by markClearance on every side covers no curve.
                EXPECT_EQ(marksCovered(figure, textBox(*text), 0, -markClearance(text->size)), 0)
                    << where;
            }
            EXPECT_LE(labels, 1) << where;
            // By its line, or in the legend (where a narrow column may wrap it).
            EXPECT_NE(allText(figure).find("training"), std::string::npos) << where;
            EXPECT_EQ(layoutFaults(figure), "") << where;
        }
    }
}

// Issue #28: a map's "each pixel: mean of 5×5 cells" went to the bottom right of its panel's
// box: half a window below xPos's and Sandwich's maps at 1440x900, under the curves' column at
// F5, four lines of one word beside the colour bar at one column and at F5 (KERPLE, FIRE), or
// at the panel's far corner. It reads as one or two lines by its map: under the map, on the row
// of the map's x axis label or the row under it, and within the map's columns.
TEST(RelativeFiguresTest, MapNotesSitByTheirMaps) {
    for (const SeenAt& seen : seenAt()) {
        for (RelativeTab tab :
             {RelativeTab::Xpos, RelativeTab::Kerple, RelativeTab::Sandwich, RelativeTab::Fire}) {
            for (int panel : {0, 1}) {
                if (panel == 1 && tab != RelativeTab::Kerple && tab != RelativeTab::Fire) continue;
                RelativeFigureOptions options;
                options.seqLen = 8192;  // a pixel is the mean of several cells at every size
                Figure figure = emptyFigure(seen.area.width, seen.area.height, seen.theme);
                ASSERT_TRUE(drawRelativeFigure(figure, seen.area, options, tab, seen.theme,
                                               seen.oneAtATime ? panel : 0));
                const std::string where = std::string(seen.name) + ", tab " +
                                          std::to_string(int(tab)) + ", panel " +
                                          std::to_string(panel);
                std::vector<Box> maps, labels;
                struct Note {
                    Box box;
                    int lines = 0;
                };
                std::vector<Note> notes;
                const TextItem* last = nullptr;  // the note's last line so far
                for (const FigureItem& item : figure.items) {
                    if (const auto* heatmap = std::get_if<HeatmapItem>(&item);
                        heatmap && heatmap->values && heatmap->values->cols > 1)
                        maps.push_back(heatmap->box);
                    const auto* text = std::get_if<TextItem>(&item);
                    if (!text) {
                        last = nullptr;
                        continue;
                    }
                    if (text->text == "key j") labels.push_back(textBox(*text));
                    const Box line = textBox(*text);
                    if (text->text.rfind("each", 0) == 0) {
                        notes.push_back({line, 1});
                        last = text;
                    } else if (last && text->size == last->size && text->color.r == last->color.r &&
                               line.y >= notes.back().box.y) {
                        // A line wrapped under the first: drawn right after it, alike.
                        Box& note = notes.back().box;
                        const float left = std::min(note.x, line.x);
                        const float right = std::max(note.right(), line.right());
                        note = {left, note.y, right - left, line.bottom() - note.y};
                        ++notes.back().lines;
                        last = text;
                    } else {
                        last = nullptr;
                    }
                }
                ASSERT_FALSE(notes.empty()) << where;
                ASSERT_EQ(labels.size(), maps.size()) << where;
                for (const Note& note : notes) {
                    EXPECT_LE(note.lines, 2) << where;
                    bool byAMap = false;
                    for (std::size_t k = 0; k < maps.size(); ++k) {
                        const Box& map = maps[k];
                        const Box& label = labels[k];
                        byAMap =
                            byAMap || (note.box.y >= map.bottom() &&
                                       // the label's row, or the row under it
                                       note.box.y <= label.bottom() + 0.5f * seen.theme.fontSize &&
                                       note.box.x <= map.right() && note.box.right() >= map.x);
                    }
                    EXPECT_TRUE(byAMap)
                        << where << ": note at " << note.box.x << ", " << note.box.y;
                }
                EXPECT_EQ(layoutFaults(figure), "") << where;
                EXPECT_TRUE(textsCutShort(figure).empty())
                    << where << ": " << textsCutShort(figure).front();
            }
        }
    }
}

// Lesson 11's first card at 1024x768 F5 left the family's curves 1008 x 372 px: a two-line title
// and the legend beside the plot made it 345 x 205 (#28). With the lesson's settings (L 4096,
// bias floor −40, where the curves leave the lower right free) the title takes one line and the
// legend goes inside, below the curves: the plot keeps nearly the whole width.
// Its second card (log distance, 11.2) filled the free lower right with the curves, and the
// nine keys went beside the plot: 560 x 255 px. They go under it in rows, names whole: the plot
// keeps the width.
TEST(RelativeFiguresTest, FamilyCurvesUnderALessonCardKeepTheWidth) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    RelativeFigureOptions options;  // lesson 11's state
    options.seqLen = 4096;
    options.trainingLength = 512;
    options.biasFloor = -40;
    for (bool logDistance : {false, true}) {
        options.logDistance = logDistance;  // step 11.2
        for (Box area : {Box{0, 0, 1008, 372}, Box{0, 0, 1008, 402}}) {
            const std::string where =
                std::to_string(area.height) + (logDistance ? ", log distance" : "");
            Figure figure = emptyFigure(area.width, area.height, theme);
            ASSERT_TRUE(drawRelativeFigure(figure, area, options, RelativeTab::Family, theme, 0));
            ASSERT_FALSE(figure.panels.empty());
            const Box plot = figure.panels.front().plot;
            EXPECT_GE(plot.width, 0.8f * area.width) << where;
            EXPECT_GE(plot.height, logDistance ? 150.f : 200.f) << where;
            // Every curve named, whole.
            for (const LineSeries& s : relativeTabCurves(options, RelativeTab::Family, 400))
                EXPECT_TRUE(hasText(figure, s.name)) << where << ": " << s.name;
            EXPECT_EQ(layoutFaults(figure), "") << where;
            EXPECT_TRUE(textsCutShort(figure).empty()) << where;
        }
    }
}

// Issue #28: at one column (`render xpos|sandwich|fire --width 600`) the curves' legends stood in
// a column beside the plot with "query / i = 1023", "envelope / d·mean ζ^{r/sb}" and "training /
// length 512" on two lines each, the plot a third of the width. As `render` builds the file
// (the height derived from the width), every curve's and the marker's name reads whole, on one
// line: in rows under the plot where it had no room inside (drawLinePlot's one rule).
// A tab as `render TAB --width 600` builds it: the height derived from the width.
Result<Figure> oneColumnFigure(RelativeTab tab, const RelativeFigureOptions& options = {}) {
    return buildWithAllPanels(
        [&](const Theme& t, float width, float height) -> Result<Figure> {
            Figure f = emptyFigure(width, height, t);
            if (auto drawn = drawRelativeFigure(f, {0, 0, width, height}, options, tab, t); !drawn)
                return drawn.error();
            return f;
        },
        forFiles(paperTheme(), 1), 600, 400, true, 8192);
}

TEST(RelativeFiguresTest, OneColumnCurveKeysReadWhole) {
    for (RelativeTab tab : {RelativeTab::Family, RelativeTab::Xpos, RelativeTab::Kerple,
                            RelativeTab::Sandwich, RelativeTab::Fire}) {
        const RelativeFigureOptions options;
        auto figure = oneColumnFigure(tab, options);
        const std::string where = "tab " + std::to_string(int(tab));
        ASSERT_TRUE(figure) << where << ": " << figure.error().message;
        std::vector<std::string> names = {"training length 512"};
        for (const LineSeries& s : relativeTabCurves(options, tab, 400))
            if (!s.name.empty()) names.push_back(s.name);
        for (const std::string& name : names) {
            bool whole = false;
            for (const std::string& text : texts(*figure)) whole = whole || text == name;
            EXPECT_TRUE(whole) << where << ": " << name;
        }
        EXPECT_EQ(layoutFaults(*figure), "") << where;
        EXPECT_TRUE(textsCutShort(*figure).empty())
            << where << ": " << textsCutShort(*figure).front();
    }
}

// Issue #28: at one column FIRE's φ plot under its two maps was about 600 px tall and 450 wide
// (600 × 1835): the growth its legend asked for in a squeezed first build went to the curves'
// row. As `render fire|kerple --width 600` builds the file, the curves' plot is no taller than it
// is wide (and not flattened below half of that), its legend inside it with every name whole,
// and the file ends where its content does.
TEST(RelativeFiguresTest, OneColumnCurvesUnderMapsAreNoTallerThanWide) {
    for (RelativeTab tab : {RelativeTab::Kerple, RelativeTab::Fire}) {
        auto figure = oneColumnFigure(tab);
        const std::string where = "tab " + std::to_string(int(tab));
        ASSERT_TRUE(figure) << where << ": " << figure.error().message;
        ASSERT_EQ(figure->panels.size(), 3u) << where;
        const Box plot = figure->panels.back().plot;
        EXPECT_LE(plot.height, plot.width) << where;
        EXPECT_GE(plot.height, 0.5f * plot.width) << where;
        std::size_t legends = 0;
        for (const FigureItem& item : figure->items)
            if (const auto* r = std::get_if<RectItem>(&item); r && r->legend) {
                ++legends;
                EXPECT_TRUE(plot.contains({r->box.x, r->box.y}) &&
                            plot.contains({r->box.right(), r->box.bottom()}))
                    << where << ": legend outside the plot";
            }
        EXPECT_EQ(legends, 1u) << where;
        const Theme theme = forFiles(paperTheme(), 1);
        EXPECT_LE(figure->height - contentBounds(*figure).bottom(), 2 * theme.fontSize) << where;
    }
}

// Issue #28: at 1024x768 F5 Sandwich's legend stood in a column beside its plot with
// "training length 512" a word a line ("training / length / 512"). On screen every curve's and
// the marker's name reads whole, on one line. (One column: OneColumnCurveKeysReadWhole.)
TEST(RelativeFiguresTest, CurveKeysReadWhole) {
    struct Curves {
        RelativeTab tab;
        int panel;  // the curves' panel, 0-based
    };
    for (const SeenAt& seen : seenAt()) {
        if (seen.theme.id == ThemeId::Paper) continue;  // one column
        for (Curves c : {Curves{RelativeTab::Family, 0}, Curves{RelativeTab::Xpos, 1},
                         Curves{RelativeTab::Kerple, 2}, Curves{RelativeTab::Sandwich, 1},
                         Curves{RelativeTab::Fire, 2}}) {
            const RelativeFigureOptions options;
            Figure figure = emptyFigure(seen.area.width, seen.area.height, seen.theme);
            ASSERT_TRUE(drawRelativeFigure(figure, seen.area, options, c.tab, seen.theme,
                                           seen.oneAtATime ? c.panel : 0));
            const std::string where =
                std::string(seen.name) + ", tab " + std::to_string(int(c.tab));
            std::vector<std::string> names = {"training length 512"};
            for (const LineSeries& s : relativeTabCurves(options, c.tab, 400))
                if (!s.name.empty()) names.push_back(s.name);
            for (const std::string& name : names)
                EXPECT_TRUE(hasText(figure, name)) << where << ": " << name;
            EXPECT_EQ(layoutFaults(figure), "") << where;
        }
    }
}

}  // namespace

// FIRE's φ curves: φ(i, j) = ψ(i − j) / ψ(max(i, L)), ψ(x) = log(c·x + 1), so the farthest key
// (j = 0) of a query from L on maps to ψ(i) / ψ(i) = 1 and one of a query before L to
// ψ(i) / ψ(L) < 1. The curves' panel said "every query reaches ≈1", false at L = 1024 (query 255:
// 0.87); it now says what holds, and each curve ends where the formula written out here says.
// Before L every query divides by ψ(L), so at length 1024 query 255's curve lies on query 511's
// up to its end: 511's is dashed (gaps in its points; 400 columns for 1,023 distances) and its
// key says so.
TEST(RelativeFiguresTest, FireCurvesEndWhereTheQueryAndTheTrainingLengthSay) {
    for (int seqLen : {1024, 2048, 4096}) {
        RelativeFigureOptions options;
        options.seqLen = seqLen;
        const FireParams& fire = options.fire;
        const double L = fire.threshold;
        auto psi = [&](double x) { return std::log(fire.c * x + 1); };
        int belowOne = 0;
        for (const LineSeries& s : relativeTabCurves(options, RelativeTab::Fire, 400)) {
            ASSERT_FALSE(s.y.empty());
            const double query = std::stod(s.name.substr(std::string("query i = ").size()));
            const auto farthest = std::max_element(s.x.begin(), s.x.end()) - s.x.begin();
            EXPECT_DOUBLE_EQ(s.x[farthest], query) << s.name;
            const double expected = psi(query) / psi(std::max(query, L));
            EXPECT_NEAR(s.y[farthest], expected, 1e-5) << s.name;
            if (query >= L) {
                EXPECT_NEAR(s.y[farthest], 1, 1e-5) << s.name;
            }
            belowOne += s.y[farthest] < 0.95;
        }
        EXPECT_EQ(belowOne, seqLen == 1024 ? 1 : 0) << seqLen;  // query 255 at L 1024
        // Dashed where, and only where, the curve before it lies on it: a query up to L after
        // another (511 after 255 at length 1024). Its gaps are breaks (non-finite points).
        const std::vector<LineSeries> curves = relativeTabCurves(options, RelativeTab::Fire, 400);
        for (std::size_t k = 0; k < curves.size(); ++k) {
            const double query = std::stod(curves[k].name.substr(std::string("query i = ").size()));
            const bool onThePrevious = k > 0 && query <= L;
            EXPECT_EQ(curves[k].name.find("curve is part of it") != std::string::npos,
                      onThePrevious)
                << curves[k].name;
            const auto gaps = std::count_if(curves[k].y.begin(), curves[k].y.end(),
                                            [](double y) { return !std::isfinite(y); });
            EXPECT_EQ(gaps > 0, onThePrevious) << curves[k].name;
        }
        const Theme theme = darkTheme();
        Figure figure = emptyFigure(1050, 760, theme);
        ASSERT_TRUE(
            drawRelativeFigure(figure, {0, 0, 1050, 760}, options, RelativeTab::Fire, theme));
        EXPECT_EQ(allText(figure).find("every query reaches"), std::string::npos);
        EXPECT_NE(allText(figure).find("from L on"), std::string::npos);
        EXPECT_EQ(layoutFaults(figure), "") << seqLen;
    }
}

}  // namespace poslab
