// The RoPE scalings figure against Hugging Face's formulas (modeling_rope_utils.py), written out
// here again per pair, and the scaling thresholds on the Frequencies figure.
#include "poslab/views/rope_scalings_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <variant>

#include "../test_math.hpp"
#include "figure_checks.hpp"
#include "poslab/encodings/rope_scaling.hpp"
#include "poslab/figure/figure_controls.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "poslab/figure/text_markup.hpp"
#include "poslab/views/rope_figures.hpp"

namespace poslab {
namespace {

constexpr double kRelativeTolerance = 1e-12;  // relative; the formulas differ only in rounding

// Llama 3.1's RoPE: head_dim 128, rope_theta 500000, factor 8, low 1, high 4, L0 8192.
RopeParams llama31() {
    RopeParams p{128, 500000, 1.0, RopePairing::Half, {}, 131072, 8192};
    p.scaling.type = RopeScaling::Llama3;
    p.scaling.factor = 8;
    p.scaling.lowFreqFactor = 1;
    p.scaling.highFreqFactor = 4;
    p.scaling.originalMaxPositions = 8192;
    return p;
}

const RopeScalingCurve& curveOf(const std::vector<RopeScalingCurve>& curves, RopeScaling type) {
    auto it = std::find_if(curves.begin(), curves.end(),
                           [&](const RopeScalingCurve& c) { return c.type == type; });
    EXPECT_NE(it, curves.end()) << scalingName(type);
    return *it;
}

TEST(RopeScalingsFiguresTest, RatiosFollowTheHuggingFaceFormulas) {
    const RopeParams p = llama31();
    RopeScalingsOptions options;
    options.factor = 8;
    options.dynamicSeqLen = 32768;
    auto curves = ropeScalingRatios(p, options);
    ASSERT_TRUE(curves.ok()) << curves.error().message;
    ASSERT_EQ(curves->size(), 6u);  // no LongRoPE lists in this config
    const int d = 128;
    const double s = 8, base = 500000, L0 = 8192, L = 32768;
    // YaRN's correction range with the default betas 32 and 1 (find_correction_range).
    auto correctionDim = [&](double rotations) {
        return d * std::log(L0 / (rotations * kTwoPi)) / (2 * std::log(base));
    };
    const double yarnLow = std::max(0.0, std::floor(correctionDim(32)));
    const double yarnHigh = std::min(double(d - 1), std::ceil(correctionDim(1)));
    for (int i = 0; i < d / 2; ++i) {
        const auto at = std::size_t(i);
        auto expectRatio = [&](RopeScaling type, double expected) {
            EXPECT_NEAR(curveOf(*curves, type).ratio[at], expected, expected * kRelativeTolerance)
                << scalingName(type) << " pair " << i;
        };
        expectRatio(RopeScaling::None, 1);
        expectRatio(RopeScaling::Linear, 1 / s);
        // NTK: base' = base * s^(d/(d-2)), so theta'_i / theta_i = s^(-2i/(d-2)).
        expectRatio(RopeScaling::Ntk, std::pow(s, -2.0 * i / (d - 2)));
        // Dynamic NTK: base' = base * (s L / L0 - (s - 1))^(d/(d-2)).
        expectRatio(RopeScaling::DynamicNtk, std::pow(s * L / L0 - (s - 1), -2.0 * i / (d - 2)));
        // Llama 3: kept below L0/high, divided above L0/low, blended by 1/wavelength between.
        const double theta = std::pow(base, -2.0 * i / d);
        const double wavelength = kTwoPi / theta;
        double llama;
        if (wavelength < L0 / 4) {
            llama = 1;
        } else if (wavelength > L0 / 1) {
            llama = 1 / s;
        } else {
            const double smooth = (L0 / wavelength - 1) / (4 - 1);
            llama = (1 - smooth) / s + smooth;
        }
        expectRatio(RopeScaling::Llama3, llama);
        // YaRN: ramp 0 keeps theta, 1 divides it by s.
        const double ramp = std::clamp((i - yarnLow) / (yarnHigh - yarnLow), 0.0, 1.0);
        expectRatio(RopeScaling::Yarn, ramp / s + (1 - ramp));
    }
    // Llama 3 has both bands and pairs between them at this config.
    const auto& llama = curveOf(*curves, RopeScaling::Llama3).ratio;
    EXPECT_DOUBLE_EQ(llama.front(), 1);
    EXPECT_NEAR(llama.back(), 1 / s, 1e-15);
    EXPECT_TRUE(
        std::any_of(llama.begin(), llama.end(), [&](double r) { return r < 1 && r > 1 / s; }));
}

TEST(RopeScalingsFiguresTest, LongRopeAppearsWithItsListsAndDividesByThem) {
    RopeParams p{8, 10000, 1.0, RopePairing::Half, {}, 4096, 4096};
    p.scaling.shortFactor = {1, 1, 2, 4};
    p.scaling.longFactor = {1, 2, 4, 8};
    p.scaling.originalMaxPositions = 4096;
    RopeScalingsOptions options;
    options.factor = 4;  // dynamic length s * L0 = 16384 > L0: the long list
    auto curves = ropeScalingRatios(p, options);
    ASSERT_TRUE(curves.ok()) << curves.error().message;
    ASSERT_EQ(curves->size(), 7u);
    const RopeScalingCurve& longRope = curveOf(*curves, RopeScaling::LongRope);
    for (std::size_t i = 0; i < 4; ++i)
        EXPECT_NEAR(longRope.ratio[i], 1 / p.scaling.longFactor[i], 1e-15) << i;
    EXPECT_NE(longRope.label.find("long list"), std::string::npos);
    EXPECT_EQ(ropeScalingsSeqLen(p, options), 16384);  // context 4096 = L0: s * L0
    p.seqLen = 20000;                                  // a context past L0 is the length
    EXPECT_EQ(ropeScalingsSeqLen(p, options), 20000);
    options.dynamicSeqLen = 5000;  // unless one is chosen
    EXPECT_EQ(ropeScalingsSeqLen(p, options), 5000);
}

TEST(RopeScalingsFiguresTest, BadFactorIsRefusedByName) {
    RopeScalingsOptions options;
    options.factor = 0.5;
    auto curves = ropeScalingRatios(llama31(), options);
    ASSERT_FALSE(curves.ok());
    EXPECT_EQ(curves.error().message.rfind("factor", 0), 0u) << curves.error().message;
}

TEST(RopeScalingsFiguresTest, FigureOverlaysEveryCurveWithALegend) {
    Figure figure = emptyFigure(1200, 800, paperTheme());
    PlotFrame frame;
    drawRopeScalings(figure, {0, 0, 1200, 800}, llama31(), RopeScalingsOptions{}, paperTheme(),
                     &frame);
    int curves = 0;
    std::vector<std::string> texts;
    for (const FigureItem& item : figure.items) {
        if (std::holds_alternative<PolylineItem>(item)) ++curves;
        if (const auto* t = std::get_if<TextItem>(&item)) texts.push_back(t->text);
    }
    EXPECT_GE(curves, 6);
    for (const char* name : {"none", "linear (PI): θ/s",
                             "YaRN ($β_{\\mathrm{fast}}$\u00a032, $β_{\\mathrm{slow}}$\u00a01)"})
        EXPECT_NE(std::find(texts.begin(), texts.end(), name), texts.end()) << name;
    EXPECT_TRUE(frame.y.logarithmic);
    EXPECT_LE(frame.y.low, 1.0 / 8);  // the linear curve is on the plot
}

// One column in print (`render rope-scalings --width 600`): the six keys in a column beside the
// plot wrapped "YaRN (β / 32 / 1)" and "Llama 3 (low / 1, high 4)" over two and three lines and
// left the plot under half the width. Under the plot (drawLinePlot's rule, as it keys every
// line plot) every key is one whole line and the plot keeps most of the width; the file grows
// by the rows, as `render` builds it.
TEST(RopeScalingsFiguresTest, OneColumnPrintKeepsEveryKeyOnOneLine) {
    const Theme theme = forFiles(paperTheme(), 1);
    const RopeParams p{128, 10000, 1.0, RopePairing::Half, {}, 4096, 4096};
    RopeScalingsOptions options;
    options.factor = 8;
    auto built = buildWithAllPanels(
        [&](const Theme& t, float width, float height) -> Result<Figure> {
            Figure figure = emptyFigure(width, height, t);
            drawRopeScalings(figure, {0, 0, width, height}, p, options, t);
            return figure;
        },
        theme, 600, 400, true, 8192);
    ASSERT_TRUE(built) << built.error().message;
    const Figure& figure = *built;
    for (const char* key : {"none", "linear (PI): θ/s", "NTK-aware: $\\mathrm{base}·s^{d/(d-2)}$",
                            "dynamic NTK at L = 32768",
                            "YaRN ($β_{\\mathrm{fast}}$\u00a032, $β_{\\mathrm{slow}}$\u00a01)",
                            "Llama 3 (low 1, high 4)"}) {
        bool whole = false;
        for (const std::string& text : texts(figure))
            whole = whole || plainText(text) == plainText(key);
        EXPECT_TRUE(whole) << key;
    }
    EXPECT_TRUE(figure.leftOut.empty());
    EXPECT_TRUE(cutTexts(figure).empty());
    EXPECT_TRUE(textsOutsideFigure(figure).empty());
    EXPECT_TRUE(overlappingTexts(figure).empty());
    ASSERT_EQ(figure.panels.size(), 1u);
    EXPECT_GE(figure.panels.front().plot.width, 600 * 0.7f);
    EXPECT_GE(figure.panels.front().plot.height, 6 * theme.fontSize);
}

// Issue #28: the YaRN key read "YaRN (β 32 / 1)", two numbers with one β. It names β_fast and
// β_slow as the YaRN paper sets them: β with "fast" and "slow" as upright subscripts, each
// before its value (32 and 1, the defaults), as the figure-text markup draws them on screen and
// in PDF and SVG alike.
TEST(RopeScalingsFiguresTest, YarnKeyTypesetsBetaFastAndBetaSlow) {
    const RopeParams p{128, 10000, 1.0, RopePairing::Half, {}, 4096, 4096};
    auto curves = ropeScalingRatios(p, RopeScalingsOptions{});
    ASSERT_TRUE(curves.ok()) << curves.error().message;
    const std::string& label = curveOf(*curves, RopeScaling::Yarn).label;
    const std::vector<TextRun> runs = parseMarkup(label);
    std::vector<std::string> subscripts;
    for (const TextRun& run : runs) {
        if (run.shift < 0) {
            EXPECT_FLOAT_EQ(run.shift, kSubscriptShift) << run.text;
            EXPECT_FLOAT_EQ(run.scale, kScriptScale) << run.text;
            EXPECT_EQ(run.style, TextStyle::Upright) << run.text;
            subscripts.push_back(run.text);
        }
    }
    EXPECT_EQ(subscripts, (std::vector<std::string>{"fast", "slow"}));
    EXPECT_EQ(plainText(label), "YaRN (βfast\u00a032, βslow\u00a01)");
}

// ---- Thresholds on the Frequencies figure

TEST(RopeScalingsFiguresTest, Llama3BandEdgesAreMarkedAtTheirPairs) {
    const auto markers = ropeScalingThresholds(llama31(), paperTheme());
    ASSERT_EQ(markers.size(), 2u);
    // The pair whose unscaled wavelength 2 pi base^(2i/d) equals L0/high = 2048 and L0/low = 8192.
    auto pairOf = [](double wavelength) {
        return 64 * std::log(wavelength / kTwoPi) / std::log(500000.0);
    };
    EXPECT_NEAR(markers[0].value, pairOf(2048), 1e-12);
    EXPECT_NEAR(markers[1].value, pairOf(8192), 1e-12);
    EXPECT_TRUE(markers[0].vertical && markers[1].vertical);
    EXPECT_NE(markers[0].label.find("2048"), std::string::npos) << markers[0].label;
    EXPECT_NE(markers[1].label.find("8192"), std::string::npos) << markers[1].label;
}

// Lesson 10.5's lines read "λ = L0/4 = 1024: kept below" and "λ = L0/1 = 4096: ÷s above": the
// config's fields (original length, high and low frequency factors, factor) a student has not
// met. Said in words, as the card says it, with the numbers of Llama 3.1's config: L0 8192,
// factors 4 and 1, ×8.
TEST(RopeScalingsFiguresTest, Llama3BandEdgesAreSaidInWords) {
    const auto markers = ropeScalingThresholds(llama31(), paperTheme());
    ASSERT_EQ(markers.size(), 2u);
    EXPECT_EQ(markers[0].label, "shorter than 8192/4 = 2048: kept");
    EXPECT_EQ(markers[1].label, "longer than 8192: stretched ×8");
    RopeParams low2 = llama31();
    low2.scaling.lowFreqFactor = 2;
    EXPECT_EQ(ropeScalingThresholds(low2, paperTheme())[1].label,
              "longer than 8192/2 = 4096: stretched ×8");
}

TEST(RopeScalingsFiguresTest, YarnRampEdgesAreMarkedAtTheCorrectionRange) {
    // Qwen2.5 with YaRN: head_dim 128, theta 1e6, factor 4, L0 32768, betas 32 and 1.
    RopeParams p{128, 1e6, 1.0, RopePairing::Half, {}, 131072, 32768};
    p.scaling.type = RopeScaling::Yarn;
    p.scaling.factor = 4;
    const auto markers = ropeScalingThresholds(p, paperTheme());
    ASSERT_EQ(markers.size(), 2u);
    auto correctionDim = [](double rotations) {
        return 128 * std::log(32768 / (rotations * kTwoPi)) / (2 * std::log(1e6));
    };
    EXPECT_DOUBLE_EQ(markers[0].value, std::floor(correctionDim(32)));
    EXPECT_DOUBLE_EQ(markers[1].value, std::ceil(correctionDim(1)));
    RopeParams none = p;
    none.scaling.type = RopeScaling::Linear;
    EXPECT_TRUE(ropeScalingThresholds(none, paperTheme()).empty());
}

TEST(RopeScalingsFiguresTest, FrequenciesFigureDrawsTheThresholdLabels) {
    Figure figure = emptyFigure(1200, 800, paperTheme());
    drawRopeFrequencies(figure, {0, 0, 1200, 800}, llama31(), RopeFrequencyOptions{}, paperTheme());
    int labels = 0;
    for (const FigureItem& item : figure.items)
        if (const auto* t = std::get_if<TextItem>(&item))
            labels += t->text == "shorter than 8192/4 = 2048: kept" ||
                      t->text == "longer than 8192: stretched ×8";
    EXPECT_EQ(labels, 2);
}

}  // namespace
}  // namespace poslab
