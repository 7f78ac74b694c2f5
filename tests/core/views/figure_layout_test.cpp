// Every figure a view builds, at a small window, a laptop screen, a print-size export and a
// projector's 1024x768 in presentation mode (fonts and lines 1.75 times larger): no two texts
// drawn over each other and none cut off at the figure's edge (text_boxes.hpp estimates each
// box from its size, alignment and rotation). Views of several panels are checked with each
// panel selected, for when they show one at a time.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "figure_checks.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "poslab/views/alibi_figures.hpp"
#include "poslab/views/compare_figures.hpp"
#include "poslab/views/extrapolation_figures.hpp"
#include "poslab/views/icon_figures.hpp"
#include "poslab/views/intuition_figures.hpp"
#include "poslab/views/learned_figures.hpp"
#include "poslab/views/learned_structure_figures.hpp"
#include "poslab/views/meaning_figures.hpp"
#include "poslab/views/rope_figures.hpp"
#include "poslab/views/rope_scalings_figures.hpp"
#include "poslab/views/similarity_figures.hpp"
#include "poslab/views/sinusoidal_figures.hpp"
#include "poslab/views/t5_figures.hpp"
#include "poslab/views/trajectory_3d.hpp"
#include "poslab/views/vision_rope_figures.hpp"

namespace poslab {
namespace {

using Builder = std::function<Result<Figure>(float width, float height, const Theme& theme)>;
using PanelBuilder =
    std::function<Result<Figure>(float width, float height, const Theme& theme, int panel)>;

// A draw* entry point that fills an area, as a builder of a whole figure.
template <typename Draw>
Builder inArea(Draw draw) {
    return [draw](float width, float height, const Theme& theme) -> Result<Figure> {
        Figure figure = emptyFigure(width, height, theme);
        draw(figure, Box{0, 0, width, height}, theme);
        return figure;
    };
}

struct ViewFigure {
    ViewFigure(std::string name, Builder build)
        : name(std::move(name)),
          build([build](float w, float h, const Theme& t, int) { return build(w, h, t); }) {}
    ViewFigure(std::string name, int panels, PanelBuilder build)
        : name(std::move(name)), build(std::move(build)), panels(panels) {}
    std::string name;
    PanelBuilder build;
    int panels = 1;  // a view of several panels may show any one of them alone
};

std::vector<ViewFigure> viewFigures() {
    std::vector<ViewFigure> views;
    views.push_back({"alibi", inArea([](Figure& f, Box a, const Theme& t) {
                         ASSERT_TRUE(drawAlibiFigure(f, a, AlibiFigureOptions{}, t));
                     })});
    views.push_back({"t5", inArea([](Figure& f, Box a, const Theme& t) {
                         ASSERT_TRUE(drawT5Figure(f, a, T5FigureOptions{}, t));
                     })});
    views.push_back({"learned", inArea([](Figure& f, Box a, const Theme& t) {
                         LearnedFigureOptions options;
                         options.table = share(learnedTable(LearnedParams{}).value());
                         options.source = "seed 0, std 0.02";
                         ASSERT_TRUE(drawLearnedFigure(f, a, options, t));
                     })});
    // The Structure tab: a helix-like table (sinusoidal, few dimensions) in 2-D and in 3-D.
    for (TrajectoryStyle style : {TrajectoryStyle::Flat, TrajectoryStyle::Rotatable}) {
        views.push_back({"learned-pca-" + std::string(trajectoryStyleName(style)),
                         [style](float w, float h, const Theme& t) {
                             SinusoidalParams params;
                             params.seqLen = 256;
                             params.dModel = 16;
                             LearnedStructureOptions options;
                             options.source = "sinusoidal, 256 x 16, base 10000";
                             options.trajectory = style;
                             return learnedStructureFigure(sinusoidalTable(params).value(), options,
                                                           w, h, t);
                         }});
    }
    views.push_back({"trajectory-3d", inArea([](Figure& f, Box a, const Theme& t) {
                         Matrix helix(300, 3);
                         for (std::size_t r = 0; r < helix.rows; ++r) {
                             helix(r, 0) = 0.01 * double(r);
                             helix(r, 1) = std::cos(0.2 * double(r));
                             helix(r, 2) = 0.7 * std::sin(0.2 * double(r));
                         }
                         Trajectory3dOptions options;
                         options.title = "PC1-PC3 trajectory, coloured by position";
                         options.explained = {0.55, 0.3, 0.12};
                         drawTrajectory3d(f, a, helix, options, t);
                     })});
    views.push_back(
        {"comparison", kComparePanels.count, [](float w, float h, const Theme& t, int panel) {
             return comparisonFigure(CompareOptions{}, w, h, t, panel);
         }});
    views.push_back(
        {"ab-comparison", kAbPanels.count, [](float w, float h, const Theme& t, int panel) {
             RopeConfiguration a{"A: base 10000", {}}, b{"B: base 500000", {}};
             b.rope.base = 500000;
             return abComparisonFigure(a, b, 4096, w, h, t, panel);
         }});
    views.push_back({"extrapolation", kExtrapolationPanels.count,
                     [](float w, float h, const Theme& t, int panel) {
                         return extrapolationFigure(ExtrapolationOptions{}, w, h, t, panel);
                     }});
    views.push_back({"binary-clock", kBinaryClockPanels.count,
                     [](float w, float h, const Theme& t, int panel) {
                         return binaryClockFigure(BinaryClockOptions{}, w, h, t, panel);
                     }});
    views.push_back({"linear-shift", [](float w, float h, const Theme& t) {
                         return linearShiftFigure(LinearShiftOptions{}, w, h, t);
                     }});
    views.push_back({"linear-shift-sin-only", [](float w, float h, const Theme& t) {
                         LinearShiftOptions options;
                         options.sinOnly = true;
                         return linearShiftFigure(options, w, h, t);
                     }});
    for (ToyPosition position : {ToyPosition::None, ToyPosition::Rope}) {
        views.push_back({"attention-shuffle-" + std::string(toyPositionName(position)),
                         [position](float w, float h, const Theme& t) {
                             ToyAttentionParams params;
                             params.position = position;
                             return attentionShuffleFigure(params, w, h, t);
                         }});
    }
    views.push_back({"attention-shuffle-long", [](float w, float h, const Theme& t) {
                         ToyAttentionParams params;
                         params.sentence =
                             "a quick brown fox jumps over the lazy dog while its tired owner "
                             "sleeps under trees";
                         params.shuffled.clear();
                         params.position = ToyPosition::Sinusoidal;
                         return attentionShuffleFigure(params, w, h, t);
                     }});
    views.push_back({"frequency-resolution", [](float w, float h, const Theme& t) {
                         return frequencyResolutionFigure(FrequencyResolutionParams{}, w, h, t);
                     }});
    views.push_back(
        {"meaning", kLogitTermPanels.count, [](float w, float h, const Theme& t, int panel) {
             return meaningFigure(MeaningParams{}, w, h, t, panel);
         }});
    views.push_back({"near-orthogonality", [](float w, float h, const Theme& t) {
                         return nearOrthogonalityFigure(64, 2000, 0, w, h, t);
                     }});
    views.push_back({"add-versus-concat", kAddConcatPanels.count,
                     [](float w, float h, const Theme& t, int panel) {
                         return addVersusConcatFigure(MeaningParams{}, w, h, t, panel);
                     }});
    for (SimilarityEncoding encoding :
         {SimilarityEncoding::Sinusoidal, SimilarityEncoding::Learned, SimilarityEncoding::Rope}) {
        views.push_back({"similarity-" + std::string(similarityEncodingName(encoding)),
                         [encoding](float w, float h, const Theme& t) {
                             SimilarityParams params;
                             params.encoding = encoding;
                             params.learned.dModel = 32;
                             SimilarityFigureOptions options;
                             options.trainingLength = 128;
                             return similarityFigure(params, options, w, h, t);
                         }});
    }
    RopeParams rope;
    rope.seqLen = 512;
    rope.trainingLength = 256;
    views.push_back({"rope-rotation", inArea([rope](Figure& f, Box a, const Theme& t) {
                         drawRopeRotation(f, a, rope, RopeRotationOptions{}, t);
                     })});
    views.push_back({"rope-angles", inArea([rope](Figure& f, Box a, const Theme& t) {
                         RopeAngleOptions options;
                         options.trainingLength = rope.trainingLength;
                         drawRopeAngles(f, a, rope, options, t, nullptr);
                     })});
    views.push_back({"rope-scores", inArea([rope](Figure& f, Box a, const Theme& t) {
                         drawRopeScores(f, a, rope, RopeScoreOptions{}, t, nullptr);
                     })});
    views.push_back({"rope-frequencies", inArea([rope](Figure& f, Box a, const Theme& t) {
                         drawRopeFrequencies(f, a, rope, RopeFrequencyOptions{}, t);
                     })});
    views.push_back({"rope-decay", inArea([](Figure& f, Box a, const Theme& t) {
                         drawRopeDecay(f, a, 128, 10000, 4096, t, nullptr);
                     })});
    views.push_back({"rope-decay-log", inArea([](Figure& f, Box a, const Theme& t) {
                         drawRopeDecay(f, a, 128, 10000, 1 << 16, t, nullptr, nullptr,
                                       DistanceAxis::Logarithmic);
                     })});
    // Long-context scalings: every curve overlaid, and their thresholds on the ladder.
    RopeParams llama3{128, 500000, 1.0, RopePairing::Half, {}, 131072, 8192};
    llama3.scaling.type = RopeScaling::Llama3;
    llama3.scaling.factor = 8;
    RopeParams yarn{128, 1000000, 1.0, RopePairing::Half, {}, 131072, 32768};
    yarn.scaling.type = RopeScaling::Yarn;
    yarn.scaling.factor = 4;
    for (const auto& [name, params] :
         {std::pair{std::string("llama3"), llama3}, std::pair{std::string("yarn"), yarn}}) {
        views.push_back(
            {"rope-frequencies-" + name, inArea([p = params](Figure& f, Box a, const Theme& t) {
                 drawRopeFrequencies(f, a, p, RopeFrequencyOptions{}, t);
             })});
        views.push_back(
            {"rope-scalings-" + name, inArea([p = params](Figure& f, Box a, const Theme& t) {
                 drawRopeScalings(f, a, p, RopeScalingsOptions{}, t);
             })});
    }
    views.push_back(
        {"rope-scalings-wavelength-outside", inArea([llama3](Figure& f, Box a, Theme t) {
             RopeScalingsOptions options;
             options.axis = RopeScalingsAxis::Wavelength;
             t.legend = LegendPlacement::Outside;
             drawRopeScalings(f, a, llama3, options, t);
         })});
    views.push_back({"rope-frequencies-outside-square", inArea([llama3](Figure& f, Box a, Theme t) {
                         t.legend = LegendPlacement::Outside;
                         t.aspect = AspectMode::Square;
                         drawRopeFrequencies(f, a, llama3, RopeFrequencyOptions{}, t);
                     })});
    views.push_back({"sinusoidal-heatmap", inArea([](Figure& f, Box a, const Theme& t) {
                         drawSinusoidalHeatmap(f, a, SinusoidalParams{}, {}, t, nullptr);
                     })});
    views.push_back({"sinusoidal-curves", inArea([](Figure& f, Box a, const Theme& t) {
                         drawSinusoidalCurves(f, a, SinusoidalParams{}, {}, t);
                     })});
    for (const char* text :
         {"text:5,image:1x28x42,text:3,video:4x14x14",
          "text:3,image:1x4x6,text:2,image:1x8x8,image:2x4x4,video:2x8x8,text:1", "text:12"}) {
        for (MropeModel model : {MropeModel::Qwen2VL, MropeModel::Qwen3VL}) {
            views.push_back({"mrope-" + std::string(mropeModelName(model)) + " " + text,
                             inArea([text, model](Figure& f, Box a, const Theme& t) {
                                 auto prompt = parseMropePrompt(text);
                                 ASSERT_TRUE(prompt);
                                 drawMropeFigure(f, a, *prompt, mropePreset(model), t);
                             })});
        }
    }
    for (AxialRopeLayout layout : {AxialRopeLayout::RopeVit, AxialRopeLayout::Pixtral}) {
        views.push_back({"axial-rope-" + std::string(axialRopeLayoutName(layout)),
                         inArea([layout](Figure& f, Box a, const Theme& t) {
                             AxialRopeParams params;
                             params.layout = layout;
                             drawAxialRopeFigure(f, a, params, t);
                         })});
    }
    views.push_back({"icon", [](float w, float h, const Theme&) {
                         return iconFigure(std::min({w, h, 1024.f}));  // 16..1024
                     }});
    return views;
}

struct FigureSize {
    float width, height;
    float scale = 1;  // the theme's: 1.75 in presentation mode
};

class FigureLayoutTest : public ::testing::TestWithParam<FigureSize> {};

std::string describe(const Figure& figure, std::size_t index) {
    const auto& text = std::get<TextItem>(figure.items[index]);
    const Box b = textBox(text);
    return "\"" + text.text + "\" at (" + std::to_string(int(b.x)) + ", " +
           std::to_string(int(b.y)) + ") " + std::to_string(int(b.width)) + "x" +
           std::to_string(int(b.height));
}

TEST_P(FigureLayoutTest, NoTextOverlapsAnotherOrLeavesTheFigure) {
    const auto [width, height, scale] = GetParam();
    for (const ViewFigure& view : viewFigures()) {
        for (const Theme& unscaled : {paperTheme(), darkTheme()}) {
            const Theme theme = scaledTheme(unscaled, scale);
            for (int panel = 0; panel < view.panels; ++panel) {
                auto figure = view.build(width, height, theme, panel);
                ASSERT_TRUE(figure.ok()) << view.name << ": " << figure.error().message;
                const std::string where =
                    view.name + " " + std::string(themeName(theme.id)) + " " +
                    std::to_string(int(width)) + "x" + std::to_string(int(height)) + " scale " +
                    std::to_string(scale) + " panel " + std::to_string(panel) + ": ";
                for (const TextOverlap& pair : overlappingTexts(*figure)) {
                    ADD_FAILURE() << where << describe(*figure, pair.first) << " overlaps "
                                  << describe(*figure, pair.second);
                }
                for (std::size_t index : textsOutsideFigure(*figure))
                    ADD_FAILURE() << where << describe(*figure, index) << " leaves the figure";
            }
        }
    }
}

// A projector in presentation mode: the figure area the GUI leaves at 1024x768 with the
// controls hidden and 1.75-times fonts (menu, tabs and status line take about 130 px).
constexpr FigureSize kProjector{1010, 630, 1.75f};

// There, a view of several panels shows them large enough to read whole: no paragraph or title
// of any panel is cut short ("…") or shrunk below normal size, whichever panel is selected.
TEST(FigureLayoutPresentationTest, MultiPanelViewsCutNoTextOnAProjector) {
    for (const ViewFigure& view : viewFigures()) {
        if (view.panels < 2) continue;
        const Theme theme = scaledTheme(darkTheme(), kProjector.scale);
        for (int panel = 0; panel < view.panels; ++panel) {
            auto figure = view.build(kProjector.width, kProjector.height, theme, panel);
            ASSERT_TRUE(figure.ok()) << view.name;
            for (const FigureItem& item : figure->items) {
                const auto* text = std::get_if<TextItem>(&item);
                if (!text) continue;
                EXPECT_EQ(text->text.find("…"), std::string::npos)
                    << view.name << " panel " << panel << ": \"" << text->text << "\" is cut";
                // Presentation text is never smaller than the normal theme's 14 px labels.
                EXPECT_GE(text->size, darkTheme().fontSize)
                    << view.name << " panel " << panel << ": \"" << text->text << "\" is small";
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Sizes, FigureLayoutTest,
                         ::testing::Values(FigureSize{480, 320}, FigureSize{1024, 768},
                                           FigureSize{2400, 1600}, kProjector));

// Presentation mode on a 1024x768 projector: text 1.75 times larger in the area the lesson card
// leaves (the tour check, --tour-check, measured these). The masked swatch's label used to sit on
// the colour bar's lowest tick, and T5's two edge labels on each other.
TEST(PresentationLayoutTest, LargeTextOnAProjectorKeepsLabelsApart) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    std::vector<std::pair<std::string, Result<Figure>>> figures;
    {
        AlibiFigureOptions options;
        options.seqLen = 64;
        options.queryIndex = 63;
        Figure figure = emptyFigure(1008, 486, theme);
        ASSERT_TRUE(drawAlibiFigure(figure, Box{0, 0, 1008, 486}, options, theme));
        figures.emplace_back("alibi", std::move(figure));
    }
    {
        Figure figure = emptyFigure(1008, 456, theme);
        ASSERT_TRUE(drawT5Figure(figure, Box{0, 0, 1008, 456}, T5FigureOptions{}, theme));
        figures.emplace_back("t5", std::move(figure));
    }
    for (const auto& [name, figure] : figures) {
        for (const TextOverlap& pair : overlappingTexts(*figure)) {
            ADD_FAILURE() << name << ": " << describe(*figure, pair.first) << " overlaps "
                          << describe(*figure, pair.second);
        }
        EXPECT_TRUE(textsOutsideFigure(*figure).empty()) << name;
    }
}

}  // namespace
}  // namespace poslab
