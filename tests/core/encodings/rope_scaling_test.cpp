#include "poslab/encodings/rope_scaling.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "../test_math.hpp"
#include "poslab/encodings/rope.hpp"

namespace poslab {
namespace {

RopeParams scaled(RopeScaling type, double factor, int headDim = 128, double base = 10000,
                  int trainingLength = 4096) {
    RopeParams p;
    p.headDim = headDim;
    p.base = base;
    p.trainingLength = trainingLength;
    p.scaling.type = type;
    p.scaling.factor = factor;
    return p;
}

RopeFrequencies frequenciesOf(const RopeParams& p) {
    auto freqs = ropeFrequencies(p);
    EXPECT_TRUE(freqs.ok()) << freqs.error().message;
    return freqs.ok() ? *freqs : RopeFrequencies{};
}

// ---- transformers' modeling_rope_utils.py, written out independently (double precision).

std::vector<double> hfDefault(int dim, double base) {
    std::vector<double> inverse;
    for (int even = 0; even < dim; even += 2)
        inverse.push_back(1.0 / std::pow(base, 1.0 * even / dim));
    return inverse;
}

struct HfResult {
    std::vector<double> inverse;
    double attentionFactor = 1;
};

// _compute_yarn_parameters
HfResult hfYarn(int dim, double base, double factor, int originalMaxPositions, double betaFast,
                double betaSlow, bool truncate, double mscale = 0, double mscaleAllDim = 0) {
    auto getMscale = [](double scale, double m) {
        return scale <= 1 ? 1.0 : 0.1 * m * std::log(scale) + 1.0;
    };
    HfResult result;
    result.attentionFactor = mscale != 0 && mscaleAllDim != 0
                                 ? getMscale(factor, mscale) / getMscale(factor, mscaleAllDim)
                                 : getMscale(factor, 1);
    auto correctionDim = [&](double rotations) {
        return (dim * std::log(originalMaxPositions / (rotations * 2 * kPi))) /
               (2 * std::log(base));
    };
    double low = correctionDim(betaFast), high = correctionDim(betaSlow);
    if (truncate) {
        low = std::floor(low);
        high = std::ceil(high);
    }
    low = std::max(low, 0.0);
    high = std::min(high, dim - 1.0);
    if (low == high) high += 0.001;
    for (int i = 0; i < dim / 2; ++i) {
        const double posFreq = std::pow(base, (2.0 * i) / dim);
        const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
        const double extrapolationFactor = 1 - ramp;
        result.inverse.push_back(1.0 / (factor * posFreq) * (1 - extrapolationFactor) +
                                 1.0 / posFreq * extrapolationFactor);
    }
    return result;
}

// _compute_llama3_parameters
std::vector<double> hfLlama3(int dim, double base, double factor, double lowFreqFactor,
                             double highFreqFactor, int oldContextLen) {
    std::vector<double> inverse = hfDefault(dim, base);
    const double lowFreqWavelen = oldContextLen / lowFreqFactor;
    const double highFreqWavelen = oldContextLen / highFreqFactor;
    for (double& invFreq : inverse) {
        const double wavelen = 2 * kPi / invFreq;
        double llama = wavelen > lowFreqWavelen ? invFreq / factor : invFreq;
        const double smooth =
            (oldContextLen / wavelen - lowFreqFactor) / (highFreqFactor - lowFreqFactor);
        const double smoothed = (1 - smooth) * llama / factor + smooth * llama;
        const bool medium = !(wavelen < highFreqWavelen) && !(wavelen > lowFreqWavelen);
        invFreq = medium ? smoothed : llama;
    }
    return inverse;
}

// _compute_dynamic_ntk_parameters
std::vector<double> hfDynamic(int dim, double base, double factor, int seqLen,
                              int maxPositionEmbeddings) {
    const double length = std::max(seqLen, maxPositionEmbeddings);
    const double newBase = base * std::pow((factor * length / maxPositionEmbeddings) - (factor - 1),
                                           double(dim) / (dim - 2));
    return hfDefault(dim, newBase);
}

void expectSameFrequencies(const std::vector<double>& actual, const std::vector<double>& expected,
                           double relative = 1e-14) {
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i)
        EXPECT_NEAR(actual[i], expected[i], relative * expected[i]) << "pair " << i;
}

TEST(RopeScalingTest, Llama3KeepsFastPairsAndDividesSlowOnesByEight) {
    // Llama 3.1: theta 500000, head_dim 128, factor 8, low 1, high 4, original 8192.
    RopeParams p = scaled(RopeScaling::Llama3, 8, 128, 500000, 8192);
    p.scaling.lowFreqFactor = 1;
    p.scaling.highFreqFactor = 4;
    const RopeFrequencies freqs = frequenciesOf(p);
    const std::vector<double> plain = hfDefault(128, 500000);
    ASSERT_EQ(freqs.inverse.size(), 64u);
    for (int i = 0; i <= 28; ++i) EXPECT_NEAR(freqs.inverse[i], plain[i], 1e-15 * plain[i]) << i;
    for (int i = 35; i < 64; ++i)
        EXPECT_NEAR(freqs.inverse[i], plain[i] / 8, 1e-15 * plain[i]) << i;
    for (int i = 29; i <= 34; ++i) {
        EXPECT_LT(freqs.inverse[i], plain[i] * (1 - 1e-6)) << i;
        EXPECT_GT(freqs.inverse[i], plain[i] / 8 * (1 + 1e-6)) << i;
    }
    EXPECT_EQ(freqs.attentionFactor, 1.0);
    // Band edges in wavelengths: pair 28 is 1956 < 8192/4, pair 35 is 8219 > 8192/1.
    const std::vector<double> wavelengths = ropeWavelengths(*unscaledFrequencies(p));
    EXPECT_EQ(llama3Band(wavelengths[28], p.scaling, 8192), Llama3Band::Kept);
    EXPECT_EQ(llama3Band(wavelengths[29], p.scaling, 8192), Llama3Band::Smoothed);
    EXPECT_EQ(llama3Band(wavelengths[34], p.scaling, 8192), Llama3Band::Smoothed);
    EXPECT_EQ(llama3Band(wavelengths[35], p.scaling, 8192), Llama3Band::Divided);
    EXPECT_NEAR(wavelengths[28], 1956.5, 0.1);
    EXPECT_NEAR(wavelengths[35], 8218.7, 0.1);
}

TEST(RopeScalingTest, Llama3MatchesHfFormulaForSeveralSettings) {
    struct Case {
        int dim;
        double base, factor, low, high;
        int original;
    };
    for (const Case& c : {Case{128, 500000, 8, 1, 4, 8192}, Case{128, 500000, 32, 1, 4, 8192},
                          Case{64, 10000, 4, 2, 8, 2048}, Case{128, 500000, 16, 1, 4, 8192}}) {
        RopeParams p = scaled(RopeScaling::Llama3, c.factor, c.dim, c.base, c.original);
        p.scaling.lowFreqFactor = c.low;
        p.scaling.highFreqFactor = c.high;
        expectSameFrequencies(frequenciesOf(p).inverse,
                              hfLlama3(c.dim, c.base, c.factor, c.low, c.high, c.original));
    }
}

TEST(RopeScalingTest, YarnMatchesHfFormulaFactor4) {
    // factor 4, original 4096, d = 128, base 10000, beta 32 / 1:
    // low = floor(20.94) = 20, high = ceil(45.03) = 46.
    RopeParams p = scaled(RopeScaling::Yarn, 4, 128, 10000, 4096);
    const RopeFrequencies freqs = frequenciesOf(p);
    const HfResult hf = hfYarn(128, 10000, 4, 4096, 32, 1, true);
    expectSameFrequencies(freqs.inverse, hf.inverse);
    EXPECT_NEAR(freqs.attentionFactor, 0.1 * std::log(4.0) + 1.0, 1e-15);
    EXPECT_NEAR(freqs.attentionFactor, hf.attentionFactor, 1e-15);

    RopeScalingContext context;
    context.rotatedDims = 128;
    context.base = 10000;
    context.originalMaxPositions = 4096;
    const YarnCorrectionRange range = yarnCorrectionRange(p.scaling, context);
    EXPECT_EQ(range.low, 20.0);
    EXPECT_EQ(range.high, 46.0);
    const std::vector<double> plain = hfDefault(128, 10000);
    for (int i = 0; i <= 20; ++i) EXPECT_NEAR(freqs.inverse[i], plain[i], 1e-15 * plain[i]);
    for (int i = 46; i < 64; ++i) EXPECT_NEAR(freqs.inverse[i], plain[i] / 4, 1e-15 * plain[i]);
    // Halfway through the ramp (pair 33 of 20..46) the blend is the mean of theta and theta/4.
    EXPECT_NEAR(freqs.inverse[33], plain[33] * (0.5 + 0.5 / 4), 1e-15);
}

TEST(RopeScalingTest, YarnMatchesHfFormulaForOtherSettings) {
    struct Case {
        int dim;
        double base, factor;
        int original;
        double betaFast, betaSlow;
        bool truncate;
    };
    // Qwen3 (factor 4 from 32768), DeepSeek-V3's rope part (64 dims, factor 40), gpt-oss
    // (truncate false), a collapsed range (beta_fast == beta_slow).
    for (const Case& c :
         {Case{128, 1000000, 4, 32768, 32, 1, true}, Case{64, 10000, 40, 4096, 32, 1, true},
          Case{64, 150000, 32, 4096, 32, 1, false}, Case{128, 10000, 8, 4096, 8, 8, true}}) {
        RopeParams p = scaled(RopeScaling::Yarn, c.factor, c.dim, c.base, c.original);
        p.scaling.betaFast = c.betaFast;
        p.scaling.betaSlow = c.betaSlow;
        p.scaling.truncate = c.truncate;
        const RopeFrequencies freqs = frequenciesOf(p);
        const HfResult hf =
            hfYarn(c.dim, c.base, c.factor, c.original, c.betaFast, c.betaSlow, c.truncate);
        expectSameFrequencies(freqs.inverse, hf.inverse);
        EXPECT_NEAR(freqs.attentionFactor, hf.attentionFactor, 1e-15);
    }
}

TEST(RopeScalingTest, YarnWithoutTruncationUsesFractionalRange) {
    RopeScalingParams scaling;
    scaling.type = RopeScaling::Yarn;
    scaling.factor = 32;
    scaling.truncate = false;
    RopeScalingContext context;
    context.rotatedDims = 64;
    context.base = 150000;
    context.originalMaxPositions = 4096;
    const YarnCorrectionRange range = yarnCorrectionRange(scaling, context);
    // 64 ln(4096 / (b 2 pi)) / (2 ln 150000) for b = 32 and b = 1.
    EXPECT_NEAR(range.low, 8.092779115512402, 1e-12);
    EXPECT_NEAR(range.high, 17.39802450158856, 1e-12);
    scaling.truncate = true;
    const YarnCorrectionRange truncated = yarnCorrectionRange(scaling, context);
    EXPECT_EQ(truncated.low, 8.0);
    EXPECT_EQ(truncated.high, 18.0);
}

TEST(RopeScalingTest, YarnRampClampsAndAvoidsTheSingularity) {
    const std::vector<double> ramp = yarnRamp({2, 6}, 10);
    const double expected[10] = {0, 0, 0, 0.25, 0.5, 0.75, 1, 1, 1, 1};
    for (int i = 0; i < 10; ++i) EXPECT_NEAR(ramp[i], expected[i], 1e-15);
    // low == high: HF adds 0.001 to high, so pair `low` is 0 and the next one is 1.
    const std::vector<double> step = yarnRamp({3, 3}, 6);
    EXPECT_EQ(step[3], 0.0);
    EXPECT_EQ(step[4], 1.0);
    // Correction range bounds are clamped to [0, d-1] (d, not d/2, as HF does).
    RopeScalingParams scaling;
    scaling.betaFast = 1e9;    // a correction dim far below 0
    scaling.betaSlow = 1e-30;  // and one far above d
    RopeScalingContext context;
    context.rotatedDims = 16;
    const YarnCorrectionRange range = yarnCorrectionRange(scaling, context);
    EXPECT_EQ(range.low, 0.0);
    EXPECT_EQ(range.high, 15.0);
}

TEST(RopeScalingTest, YarnAttentionFactorFollowsMscaleRules) {
    RopeScalingParams scaling;
    scaling.type = RopeScaling::Yarn;
    scaling.factor = 40;
    EXPECT_NEAR(yarnAttentionFactor(scaling), 1.3688879454113936, 1e-15);  // 0.1 ln 40 + 1
    // DeepSeek-V3: mscale = mscale_all_dim = 1 cancels to exactly 1.
    scaling.mscale = 1.0;
    scaling.mscaleAllDim = 1.0;
    EXPECT_EQ(yarnAttentionFactor(scaling), 1.0);
    scaling.mscale = 0.707;
    EXPECT_NEAR(yarnAttentionFactor(scaling),
                (0.1 * 0.707 * std::log(40.0) + 1) / (0.1 * std::log(40.0) + 1), 1e-15);
    // `if mscale and mscale_all_dim`: a zero counts as absent.
    scaling.mscaleAllDim = 0.0;
    EXPECT_NEAR(yarnAttentionFactor(scaling), 0.1 * std::log(40.0) + 1, 1e-15);
    scaling.attentionFactor = 0.5;  // an explicit attention_factor wins
    EXPECT_EQ(yarnAttentionFactor(scaling), 0.5);
    EXPECT_EQ(yarnMscale(1.0, 5.0), 1.0);
    EXPECT_EQ(yarnMscale(0.5), 1.0);

    RopeParams p = scaled(RopeScaling::Yarn, 40, 64, 10000, 4096);
    p.scaling.mscale = 1.0;
    p.scaling.mscaleAllDim = 1.0;
    const HfResult hf = hfYarn(64, 10000, 40, 4096, 32, 1, true, 1.0, 1.0);
    EXPECT_EQ(frequenciesOf(p).attentionFactor, hf.attentionFactor);
}

TEST(RopeScalingTest, FactorOneReducesToDefaultFrequencies) {
    const std::vector<double> plain = hfDefault(128, 10000);
    for (auto type : {RopeScaling::None, RopeScaling::Linear, RopeScaling::Ntk,
                      RopeScaling::DynamicNtk, RopeScaling::Yarn, RopeScaling::Llama3}) {
        RopeParams p = scaled(type, 1.0);
        p.scaling.mscale = 0.707;  // yarn: get_mscale(1, anything) is 1, so the factor stays 1
        p.scaling.mscaleAllDim = 0.5;
        const RopeFrequencies freqs = frequenciesOf(p);
        expectSameFrequencies(freqs.inverse, plain, 1e-15);
        EXPECT_EQ(freqs.attentionFactor, 1.0) << scalingName(type);
    }
}

TEST(RopeScalingTest, DynamicNtkWithFactorOneStillGrowsPastTheOriginalLength) {
    // HF's formula at s = 1 is base * (L / L0)^(d/(d-2)): only seq_len <= L0 gives the default.
    RopeParams p = scaled(RopeScaling::DynamicNtk, 1.0, 64, 10000, 2048);
    p.seqLen = 4096;
    const RopeFrequencies freqs = frequenciesOf(p);
    expectSameFrequencies(freqs.inverse, hfDefault(64, 10000 * std::pow(2.0, 64.0 / 62.0)));
}

TEST(RopeScalingTest, DynamicNtkFollowsTheCurrentSequenceLength) {
    for (int seqLen : {1, 2048, 4096, 4097, 8192, 100000}) {
        RopeParams p = scaled(RopeScaling::DynamicNtk, 2.0, 128, 10000, 4096);
        p.seqLen = seqLen;
        expectSameFrequencies(frequenciesOf(p).inverse, hfDynamic(128, 10000, 2.0, seqLen, 4096));
    }
    // Up to the original length nothing changes; at twice it the base is 10000 * 3^(128/126).
    RopeParams p = scaled(RopeScaling::DynamicNtk, 2.0, 128, 10000, 4096);
    p.seqLen = 4096;
    expectSameFrequencies(frequenciesOf(p).inverse, hfDefault(128, 10000), 1e-15);
    EXPECT_NEAR(dynamicNtkBase(10000, 2.0, 128, 8192, 4096), 10000 * std::pow(3.0, 128.0 / 126.0),
                1e-9);
    // original_max_positions overrides training_length.
    p.trainingLength = 131072;
    p.scaling.originalMaxPositions = 4096;
    p.seqLen = 8192;
    expectSameFrequencies(frequenciesOf(p).inverse, hfDynamic(128, 10000, 2.0, 8192, 4096));
}

TEST(RopeScalingTest, NtkKeepsTheFastestPairAndDividesTheSlowestByFactor) {
    // base' = base s^(d/(d-2)); pair d/2-1 has exponent -(d-2)/d, so its theta is theta/s.
    for (int dim : {8, 64, 128}) {
        RopeParams p = scaled(RopeScaling::Ntk, 8.0, dim);
        const RopeFrequencies freqs = frequenciesOf(p);
        const std::vector<double> plain = hfDefault(dim, 10000);
        EXPECT_EQ(freqs.inverse.front(), 1.0);
        EXPECT_NEAR(freqs.inverse.back(), plain.back() / 8, 1e-13 * plain.back());
        expectSameFrequencies(freqs.inverse,
                              hfDefault(dim, 10000 * std::pow(8.0, double(dim) / (dim - 2))));
    }
    EXPECT_NEAR(ntkScaledBase(10000, 4, 128), 10000 * std::pow(4.0, 128.0 / 126.0), 1e-9);
}

TEST(RopeScalingTest, LinearDividesEveryFrequency) {
    const RopeFrequencies freqs = frequenciesOf(scaled(RopeScaling::Linear, 4.0, 64));
    const std::vector<double> plain = hfDefault(64, 10000);
    for (std::size_t i = 0; i < plain.size(); ++i)
        EXPECT_NEAR(freqs.inverse[i], plain[i] / 4, 1e-15 * plain[i]);
    EXPECT_EQ(freqs.attentionFactor, 1.0);
}

TEST(RopeScalingTest, PartialRotaryScalesOverRotatedDims) {
    // HF's dim is int(head_dim * partial_rotary_factor) in every formula.
    RopeParams p = scaled(RopeScaling::Yarn, 4, 96, 10000, 2048);
    p.rotaryFraction = 0.25;
    const HfResult hf = hfYarn(24, 10000, 4, 2048, 32, 1, true);
    expectSameFrequencies(frequenciesOf(p).inverse, hf.inverse);
}

TEST(RopeScalingTest, NamesRoundTrip) {
    const char* names[] = {"none", "linear", "ntk", "dynamic-ntk", "yarn", "llama3"};
    int index = 0;
    for (auto type : {RopeScaling::None, RopeScaling::Linear, RopeScaling::Ntk,
                      RopeScaling::DynamicNtk, RopeScaling::Yarn, RopeScaling::Llama3}) {
        EXPECT_EQ(scalingName(type), names[index++]);
        EXPECT_EQ(*parseScaling(scalingName(type)), type);
    }
    // Named, but only a config.json sets them up.
    EXPECT_EQ(scalingName(RopeScaling::LongRope), "longrope");
    EXPECT_EQ(scalingName(RopeScaling::Proportional), "proportional");
    EXPECT_FALSE(parseScaling("longrope").ok());
    const auto bad = parseScaling("dynamic");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message,
              "scaling must be none, linear, ntk, dynamic-ntk, yarn or llama3 (got 'dynamic')");
}

TEST(RopeScalingTest, RejectsBadParameters) {
    auto message = [](const RopeScalingParams& s) {
        const auto status = validate(s);
        return status.ok() ? std::string("ok") : status.error().message;
    };
    RopeScalingParams s;
    s.factor = -3;  // none reads nothing
    EXPECT_EQ(message(s), "ok");
    s.type = RopeScaling::Yarn;
    EXPECT_EQ(message(s), "factor must be 1..65536 (got -3)");
    s.factor = 2;
    s.betaFast = 0;
    EXPECT_EQ(message(s), "beta_fast must be 1e-06..1e+06 (got 0)");
    s.betaFast = 32;
    s.attentionFactor = 0.0;
    EXPECT_EQ(message(s), "attention_factor must be 1e-06..1000 (got 0)");
    // The smallest double: its square (the attention gain) underflows to 0, NaN similarities.
    s.attentionFactor = 5e-324;
    EXPECT_EQ(message(s), "attention_factor must be 1e-06..1000 (got 5e-324)");
    s.attentionFactor.reset();
    s.mscale = -1.0;
    EXPECT_EQ(message(s), "mscale must be 0..1000 (got -1)");
    s.mscale.reset();
    s.originalMaxPositions = -1;
    EXPECT_EQ(message(s), "original_max_positions must be 0..1073741824 (got -1)");
    s = RopeScalingParams{};
    s.type = RopeScaling::Llama3;
    s.factor = 8;
    s.lowFreqFactor = 4;
    s.highFreqFactor = 1;
    EXPECT_EQ(message(s), "high_freq_factor must be finite and >= low_freq_factor 4 (got 1)");
    s.lowFreqFactor = 0;
    EXPECT_EQ(message(s), "low_freq_factor must be a finite number > 0 (got 0)");

    // The context is checked where frequencies are made.
    RopeScalingParams ntk;
    ntk.type = RopeScaling::Ntk;
    ntk.factor = 2;
    RopeScalingContext context;
    context.rotatedDims = 2;
    const auto tooFew = scaledFrequencies(ntk, context);
    ASSERT_FALSE(tooFew.ok());
    EXPECT_EQ(tooFew.error().message,
              "rotated dims must be an even number in 4..8192 for ntk (got 2)");
    context.rotatedDims = 7;
    EXPECT_FALSE(scaledFrequencies(RopeScalingParams{}, context).ok());
    context.rotatedDims = 8;
    context.originalMaxPositions = 0;
    EXPECT_FALSE(scaledFrequencies(RopeScalingParams{}, context).ok());
}

TEST(RopeScalingTest, LongRopeDividesByTheListTheSequenceLengthSelects) {
    RopeScalingParams scaling;
    scaling.type = RopeScaling::LongRope;
    scaling.factor = 16;
    scaling.shortFactor = {1.0, 1.5, 2.0, 4.0};
    scaling.longFactor = {2.0, 3.0, 8.0, 16.0};
    RopeScalingContext context;
    context.rotatedDims = 8;
    context.base = 10000;
    context.originalMaxPositions = 2048;
    for (int seqLen : {1, 2048, 2049, 100000}) {
        context.seqLen = seqLen;
        auto freqs = scaledFrequencies(scaling, context);
        ASSERT_TRUE(freqs.ok()) << freqs.error().message;
        const bool longList = seqLen > 2048;  // HF switches once seq_len exceeds L0
        ASSERT_TRUE(freqs->longRopeList.has_value());
        EXPECT_EQ(*freqs->longRopeList, longList ? LongRopeList::Long : LongRopeList::Short);
        const auto& list = longList ? scaling.longFactor : scaling.shortFactor;
        for (int i = 0; i < 4; ++i) {
            EXPECT_NEAR(freqs->inverse[i], 1.0 / (list[i] * std::pow(10000.0, 2.0 * i / 8)), 1e-15)
                << seqLen << " " << i;
        }
        // sqrt(1 + ln 16 / ln 2048) = sqrt(1 + 4/11): the same on both lists.
        EXPECT_NEAR(freqs->attentionFactor, std::sqrt(15.0 / 11.0), 1e-15);
    }
    scaling.attentionFactor = 1.25;  // an explicit attention_factor wins
    EXPECT_DOUBLE_EQ(scaledFrequencies(scaling, context)->attentionFactor, 1.25);
    EXPECT_DOUBLE_EQ(longRopeAttentionFactor(1.0, 4096), 1.0);
    EXPECT_DOUBLE_EQ(longRopeAttentionFactor(0.5, 4096), 1.0);
}

TEST(RopeScalingTest, LongRopeRefusesListsOfTheWrongLengthOrSign) {
    RopeScalingParams scaling;
    scaling.type = RopeScaling::LongRope;
    scaling.shortFactor = {1.0, 1.0, 1.0};
    scaling.longFactor = {1.0, 1.0, 1.0, 1.0};
    RopeScalingContext context;
    context.rotatedDims = 8;
    auto wrong = scaledFrequencies(scaling, context);
    ASSERT_FALSE(wrong.ok());
    EXPECT_EQ(wrong.error().message, "short_factor must have rotated dims / 2 = 4 entries (got 3)");
    scaling.shortFactor = {1.0, 1.0, -1.0, 1.0};
    EXPECT_EQ(validate(scaling).error().message, "short_factor[2] must be 1e-06..1e+06 (got -1)");
    // 5e-324 divided theta into inf: every long frequency was infinite (issue #32).
    scaling.shortFactor = {1.0, 1.0, 1.0, 1.0};
    scaling.longFactor = {1.0, 5e-324, 1.0, 1.0};
    EXPECT_EQ(validate(scaling).error().message,
              "long_factor[1] must be 1e-06..1e+06 (got 5e-324)");
    scaling.longFactor = {1.0, 1.0, 1.0, 1e6};
    EXPECT_TRUE(validate(scaling).ok());
    scaling.attentionFactor = 5e-324;
    EXPECT_EQ(validate(scaling).error().message,
              "attention_factor must be 1e-06..1000 (got 5e-324)");
    scaling.attentionFactor.reset();
    scaling.shortFactor = {1.0, 1.0, -1.0, 1.0};
    scaling.shortFactor.clear();
    EXPECT_EQ(validate(scaling).error().message,
              "short_factor must be a non-empty list of numbers");
}

TEST(RopeScalingTest, ProportionalKeepsTheFastPairsAndZeroesTheRest) {
    // Gemma-style p = 0.25 of a 256-dim head: floor(0.25 * 256 / 2) = 32 of 128 pairs rotate,
    // at exactly their full-RoPE frequencies base^(-2i/256).
    const std::vector<double> inverse = proportionalInverseFrequencies(256, 1e6, 0.25);
    ASSERT_EQ(inverse.size(), 128u);
    EXPECT_EQ(proportionalRotatedPairs(256, 0.25), 32);
    for (int i = 0; i < 128; ++i) {
        const double expected = i < 32 ? std::pow(1e6, -2.0 * i / 256) : 0.0;
        EXPECT_NEAR(inverse[i], expected, 1e-16) << i;
    }
    RopeScalingParams scaling;
    scaling.type = RopeScaling::Proportional;
    scaling.ropeProportion = 0.25;
    RopeScalingContext context;
    context.rotatedDims = 256;
    context.base = 1e6;
    auto freqs = scaledFrequencies(scaling, context);
    ASSERT_TRUE(freqs.ok());
    EXPECT_EQ(freqs->zeroFrequencyPairs, 96);
    EXPECT_EQ(freqs->rotatedDims, 256);
    scaling.ropeProportion = 0;
    EXPECT_FALSE(validate(scaling).ok());
}

// YaRN betas near the ends of the doubles: HF clamps only the correction range, which is inf
// when L0 / (2 pi beta) overflows or underflows, and the ramp (i - inf) / (high - inf) is NaN.
class YarnBetaTest : public ::testing::TestWithParam<double> {};

TEST_P(YarnBetaTest, AbsurdBetasAreRefusedByName) {
    // Failed before: beta_fast = 1e-320 passed "> 0" and every frequency came out NaN.
    RopeScalingParams s;
    s.type = RopeScaling::Yarn;
    s.factor = 4;
    s.originalMaxPositions = 4096;
    s.betaFast = GetParam();
    const Status fast = validate(s);
    ASSERT_FALSE(fast.ok());
    EXPECT_EQ(fast.error().message.rfind("beta_fast must be 1e-06..1e+06 (got ", 0), 0u)
        << fast.error().message;
    s.betaFast = 32;
    s.betaSlow = GetParam();
    const Status slow = validate(s);
    ASSERT_FALSE(slow.ok());
    EXPECT_EQ(slow.error().message.rfind("beta_slow must be 1e-06..1e+06 (got ", 0), 0u);
}

INSTANTIATE_TEST_SUITE_P(Extremes, YarnBetaTest,
                         ::testing::Values(1e-320, 4.9406564584124654e-324, 1e-300, 1e-7, 2e6,
                                           1e308, 1.7976931348623157e308, INFINITY, -1.0, NAN));

TEST(YarnBetaTest, TheRampStaysFiniteEvenForAnInfiniteRange) {
    // The HF ramp clamp((i - low) / (high - low), 0, 1), here for a range no valid beta gives.
    for (const YarnCorrectionRange range :
         {YarnCorrectionRange{INFINITY, INFINITY}, YarnCorrectionRange{0, INFINITY},
          YarnCorrectionRange{-INFINITY, 3}, YarnCorrectionRange{NAN, NAN}}) {
        for (double r : yarnRamp(range, 8)) {
            EXPECT_TRUE(r >= 0 && r <= 1) << range.low << " .. " << range.high;
        }
    }
    // And a valid range is untouched: pairs 0..8, ramp from 2 to 6 (HF's linear_ramp_factor).
    const std::vector<double> ramp = yarnRamp({2, 6}, 8);
    for (int i = 0; i < 8; ++i) EXPECT_NEAR(ramp[i], std::clamp((i - 2.0) / 4.0, 0.0, 1.0), 1e-15);
}

TEST(RopeScalingTest, Llama3WithEqualFrequencyFactorsHasNoSmoothedBand) {
    // Llama 4 Scout / Maverick: llama3 with low_freq_factor == high_freq_factor == 1, factor 16,
    // L0 8192, rope_theta 500000, head_dim 128. HF's medium band is then empty (its smoothing
    // would divide by 0): every pair keeps theta_i when its wavelength is below 8192 and gets
    // theta_i / 16 above it. Written out from _compute_llama3_parameters' two torch.where.
    RopeScalingParams s;
    s.type = RopeScaling::Llama3;
    s.factor = 16;
    s.lowFreqFactor = 1;
    s.highFreqFactor = 1;
    ASSERT_TRUE(validate(s).ok());
    RopeScalingContext context;
    context.rotatedDims = 128;
    context.base = 500000;
    context.originalMaxPositions = 8192;
    const auto freqs = scaledFrequencies(s, context);
    ASSERT_TRUE(freqs.ok()) << freqs.error().message;
    ASSERT_EQ(freqs->inverse.size(), 64u);
    int divided = 0;
    for (int i = 0; i < 64; ++i) {
        const double theta = 1.0 / std::pow(500000.0, 2.0 * i / 128);
        const double wavelength = 2 * kPi / theta;
        const double expected = wavelength > 8192 ? theta / 16 : theta;
        divided += wavelength > 8192 ? 1 : 0;
        EXPECT_NEAR(freqs->inverse[std::size_t(i)], expected, 1e-12 * theta) << i;
        EXPECT_TRUE(std::isfinite(freqs->inverse[std::size_t(i)]));
    }
    // 2 pi 500000^(2i/128) > 8192 from i = 35 on (i = 34 gives 6695): 29 pairs divided.
    EXPECT_EQ(divided, 29);
}

}  // namespace
}  // namespace poslab
