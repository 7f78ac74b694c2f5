// Real public config.json files (tests/data/configs) against values written out from HF's
// formulas in this file: the head size each configuration class sets, the rotated dims, the base,
// a few inverse frequencies and the attention factor.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "../test_math.hpp"
#include "hf_config_checks.hpp"
#include "poslab/io/hf_config.hpp"

namespace poslab {
namespace {

RopeFrequencies freqsOf(RopeParams rope, int seqLen = 0) {
    if (seqLen > 0) rope.seqLen = seqLen;
    auto freqs = ropeFrequencies(rope);
    EXPECT_TRUE(freqs.ok()) << freqs.error().message;
    return freqs.ok() ? *freqs : RopeFrequencies{};
}

// What a test expects of one model.
struct ModelTruth {
    const char* file;
    int headDim;
    int rotaryDims;
    double base;
    RopePairing pairing;
    RopeScaling scaling;
    int trainingLength;
};

class HfConfigModelsTest : public ::testing::TestWithParam<ModelTruth> {};

TEST_P(HfConfigModelsTest, HeadDimRotaryDimsBaseAndPlainFrequencies) {
    const ModelTruth& truth = GetParam();
    const HfModelConfig config = load(truth.file);
    EXPECT_EQ(config.rope.headDim, truth.headDim);
    EXPECT_EQ(rotatedDims(config.rope), truth.rotaryDims);
    EXPECT_DOUBLE_EQ(config.rope.base, truth.base);
    EXPECT_EQ(config.rope.pairing, truth.pairing);
    EXPECT_EQ(config.rope.scaling.type, truth.scaling);
    EXPECT_EQ(config.rope.trainingLength, truth.trainingLength);
    if (truth.scaling == RopeScaling::None) {
        const RopeFrequencies freqs = freqsOf(config.rope);
        ASSERT_EQ(int(freqs.inverse.size()), truth.rotaryDims / 2);
        for (int i : {0, 1, truth.rotaryDims / 4, truth.rotaryDims / 2 - 1}) {
            EXPECT_NEAR(freqs.inverse[i], plain(truth.base, i, truth.rotaryDims), 1e-15) << i;
        }
        EXPECT_DOUBLE_EQ(freqs.attentionFactor, 1.0);
    }
}

INSTANTIATE_TEST_SUITE_P(
    PublicConfigs, HfConfigModelsTest,
    ::testing::Values(
        // file, head, rotary, base, pairing, scaling, training length
        ModelTruth{"llama-2-7b", 128, 128, 10000, RopePairing::Half, RopeScaling::None, 4096},
        ModelTruth{"llama-3.1-8b", 128, 128, 500000, RopePairing::Half, RopeScaling::Llama3, 8192},
        ModelTruth{"llama-3.2-1b", 64, 64, 500000, RopePairing::Half, RopeScaling::Llama3, 8192},
        ModelTruth{"mistral-7b-v0.1", 128, 128, 10000, RopePairing::Half, RopeScaling::None, 32768},
        ModelTruth{"qwen2.5-7b-instruct", 128, 128, 1e6, RopePairing::Half, RopeScaling::None,
                   32768},
        ModelTruth{"qwen2.5-7b-instruct-yarn", 128, 128, 1e6, RopePairing::Half, RopeScaling::Yarn,
                   32768},
        ModelTruth{"qwen2-vl-7b-instruct", 128, 128, 1e6, RopePairing::Half, RopeScaling::None,
                   32768},
        ModelTruth{"qwen3-8b", 128, 128, 1e6, RopePairing::Half, RopeScaling::None, 40960},
        // Phi-2: 2560 / 32 = 80, int(80 * 0.4) = 32.
        ModelTruth{"phi-2", 80, 32, 10000, RopePairing::Half, RopeScaling::None, 2048},
        ModelTruth{"phi-3.5-mini-instruct", 96, 96, 10000, RopePairing::Half, RopeScaling::LongRope,
                   4096},
        // Gemma 3 4B: head_dim 256 and rope_theta 1e6 are Gemma3TextConfig defaults.
        ModelTruth{"gemma-3-4b-it", 256, 256, 1e6, RopePairing::Half, RopeScaling::Linear, 131072},
        // DeepSeek-V3 rotates qk_rope_head_dim = 64; rope_interleave defaults to true.
        ModelTruth{"deepseek-v3", 64, 64, 10000, RopePairing::Interleaved, RopeScaling::Yarn, 4096},
        // GPT-NeoX-20B: 6144 / 64 = 96, int(96 * 0.25) = 24, base from rotary_emb_base.
        ModelTruth{"gpt-neox-20b", 96, 24, 10000, RopePairing::Half, RopeScaling::None, 2048},
        // GPT-J-6B: 4096 / 16 = 256, rotary_dim 64, rotate_every_two.
        ModelTruth{"gpt-j-6b", 256, 64, 10000, RopePairing::Interleaved, RopeScaling::None, 2048},
        // Falcon-7B: 4544 / 71 = 64; max_position_embeddings is FalconConfig's default 2048.
        ModelTruth{"falcon-7b", 64, 64, 10000, RopePairing::Half, RopeScaling::None, 2048},
        // ModernBERT-base: 768 / 12 = 64, global layers at global_rope_theta.
        ModelTruth{"modernbert-base", 64, 64, 160000, RopePairing::Half, RopeScaling::None, 8192},
        // StableLM-3B-4E1T: 2560 / 32 = 80, int(80 * 0.25) = 20.
        ModelTruth{"stablelm-3b-4e1t", 80, 20, 10000, RopePairing::Half, RopeScaling::None, 4096},
        ModelTruth{"smollm3-3b", 128, 128, 5e6, RopePairing::Half, RopeScaling::None, 65536}),
    [](const auto& info) {
        std::string name;
        for (const char* c = info.param.file; *c; ++c)
            if (std::isalnum(static_cast<unsigned char>(*c))) name += *c;
        return name;
    });

TEST(HfConfigModelsTest, Llama31FrequencyBandsWrittenOut) {
    // Llama 3.1: wavelengths below 8192 / 4 = 2048 keep theta, above 8192 / 1 are divided by 8,
    // in between theta * ((1 - t) / 8 + t), t = (8192 / wavelength - 1) / 3.
    for (const char* file : {"llama-3.1-8b", "llama-3.2-1b"}) {
        const HfModelConfig config = load(file);
        const int d = rotatedDims(config.rope);
        const double s = std::string(file) == "llama-3.1-8b" ? 8.0 : 32.0;
        const RopeFrequencies freqs = freqsOf(config.rope);
        int kept = 0, divided = 0, blended = 0;
        for (int i = 0; i < d / 2; ++i) {
            const double theta = std::pow(500000.0, -2.0 * i / d);
            const double wavelength = 2 * kPi / theta;
            double expected;
            if (wavelength < 2048) {
                expected = theta;
                ++kept;
            } else if (wavelength > 8192) {
                expected = theta / s;
                ++divided;
            } else {
                const double t = (8192 / wavelength - 1) / 3;
                expected = (1 - t) * theta / s + t * theta;
                ++blended;
            }
            EXPECT_NEAR(freqs.inverse[i] / expected, 1.0, 1e-12) << file << " pair " << i;
        }
        // 128 dims: pairs 0..30 are kept (wavelength of pair 30 is 1420), 31..40 blended? The
        // counts below follow from 2 pi * 500000^(2i/128) crossing 2048 and 8192.
        EXPECT_GT(kept, 0);
        EXPECT_GT(divided, 0);
        EXPECT_GT(blended, 0);
        EXPECT_DOUBLE_EQ(freqs.attentionFactor, 1.0);
    }
}

TEST(HfConfigModelsTest, Qwen25YarnOptInRampAndWarning) {
    const HfModelConfig config = load("qwen2.5-7b-instruct-yarn");
    EXPECT_DOUBLE_EQ(config.rope.scaling.factor, 4.0);
    // max_position_embeddings 32768 / original 32768 = 1: transformers v5 takes that as "left at
    // the pre-extension length", uses the explicit factor 4 and does not warn.
    EXPECT_FALSE(hasLine(config.warnings, "does not match"));
    EXPECT_TRUE(hasLine(config.notes, "implicit factor 1"));
    // low = floor(128 ln(32768 / (32 * 2 pi)) / (2 ln 1e6)) = floor(23.6) = 23,
    // high = ceil(128 ln(32768 / (1 * 2 pi)) / (2 ln 1e6)) = ceil(39.65) = 40.
    const double low = std::floor(128 * std::log(32768 / (32 * 2 * kPi)) / (2 * std::log(1e6)));
    const double high = std::ceil(128 * std::log(32768 / (2 * kPi)) / (2 * std::log(1e6)));
    EXPECT_EQ(low, 23);
    EXPECT_EQ(high, 40);
    const RopeFrequencies freqs = freqsOf(config.rope);
    for (int i : {0, 22, 23, 30, 39, 40, 63}) {
        const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
        const double theta = plain(1e6, i, 128);
        EXPECT_NEAR(freqs.inverse[i] / (theta / 4 * ramp + theta * (1 - ramp)), 1.0, 1e-12) << i;
    }
    // YaRN paper's attention factor: 0.1 ln 4 + 1.
    EXPECT_NEAR(freqs.attentionFactor, 1.1386294361119891, 1e-15);
}

TEST(HfConfigModelsTest, DeepSeekV3YarnWithMscaleRatio) {
    const HfModelConfig config = load("deepseek-v3");
    EXPECT_DOUBLE_EQ(config.rope.scaling.factor, 40.0);
    EXPECT_FALSE(hasLine(config.warnings, "does not match"));  // 163840 / 4096 = 40
    const RopeFrequencies freqs = freqsOf(config.rope);
    // mscale = mscale_all_dim = 1: get_mscale(40, 1) / get_mscale(40, 1) = 1.
    EXPECT_DOUBLE_EQ(freqs.attentionFactor, 1.0);
    const double low = std::floor(64 * std::log(4096 / (32 * 2 * kPi)) / (2 * std::log(1e4)));
    const double high = std::ceil(64 * std::log(4096 / (2 * kPi)) / (2 * std::log(1e4)));
    EXPECT_EQ(low, 10);
    EXPECT_EQ(high, 23);
    for (int i : {0, 10, 11, 16, 23, 31}) {
        const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
        const double theta = plain(1e4, i, 64);
        EXPECT_NEAR(freqs.inverse[i] / (theta / 40 * ramp + theta * (1 - ramp)), 1.0, 1e-12) << i;
    }
    EXPECT_TRUE(hasLine(config.notes, "qk_rope_head_dim"));
    // (0.1 ln 40 + 1)^2 = 1.36889^2 = 1.87385, DeepSeek's softmax-scale multiplier.
    const double m = 0.1 * std::log(40.0) + 1;
    EXPECT_NEAR(m * m, 1.873854, 1e-6);
    EXPECT_TRUE(hasLine(config.notes, "mscale_all_dim)^2 = 1.87385"));
    EXPECT_EQ(config.layers.size(), 61u);
}

TEST(HfConfigModelsTest, Phi35LongRopeListsFollowTheSequenceLength) {
    const HfModelConfig config = load("phi-3.5-mini-instruct");
    // s = 131072 / 4096 = 32; attention factor sqrt(1 + ln 32 / ln 4096) = sqrt(1 + 5/12).
    EXPECT_DOUBLE_EQ(config.rope.scaling.factor, 32.0);
    const RopeFrequencies atTraining = freqsOf(config.rope, 4096);
    ASSERT_TRUE(atTraining.longRopeList.has_value());
    EXPECT_EQ(*atTraining.longRopeList, LongRopeList::Short);
    EXPECT_NEAR(atTraining.attentionFactor, std::sqrt(17.0 / 12.0), 1e-14);
    EXPECT_NEAR(atTraining.inverse[0], 1.0, 1e-15);  // short_factor[0] = 1.0
    EXPECT_NEAR(atTraining.inverse[1], plain(1e4, 1, 96) / 1.0199999809265137, 1e-15);
    EXPECT_NEAR(atTraining.inverse[47], plain(1e4, 47, 96) / 2.8399994373321533, 1e-18);

    const RopeFrequencies past = freqsOf(config.rope, 4097);
    EXPECT_EQ(*past.longRopeList, LongRopeList::Long);
    EXPECT_NEAR(past.inverse[0], 1.0 / 1.0800000429153442, 1e-15);
    EXPECT_NEAR(past.inverse[47], plain(1e4, 47, 96) / 64.83999633789062, 1e-18);
    EXPECT_NEAR(past.attentionFactor, std::sqrt(17.0 / 12.0), 1e-14);
}

TEST(HfConfigModelsTest, Gemma3SlidingLayersUseTheLocalBaseWithoutScaling) {
    const HfModelConfig config = load("gemma-3-4b-it");
    EXPECT_DOUBLE_EQ(config.rope.scaling.factor, 8.0);
    ASSERT_EQ(config.ropeVariants.size(), 2u);
    EXPECT_EQ(config.ropeVariants[0].layerType, "full_attention");
    EXPECT_EQ(config.ropeVariants[1].layerType, "sliding_attention");
    const RopeParams& local = config.ropeVariants[1].rope;
    EXPECT_DOUBLE_EQ(local.base, 10000.0);
    EXPECT_EQ(local.scaling.type, RopeScaling::None);
    // Global: linear x8 at base 1e6; local: plain at base 1e4, both over 256 dims.
    EXPECT_NEAR(freqsOf(config.rope).inverse[1], plain(1e6, 1, 256) / 8, 1e-15);
    EXPECT_NEAR(freqsOf(local).inverse[1], plain(1e4, 1, 256), 1e-15);
    // 34 layers, sliding_window_pattern 6: layers 5, 11, 17, 23, 29 are global.
    ASSERT_EQ(config.layers.size(), 34u);
    for (int i = 0; i < 34; ++i) {
        const bool global = (i + 1) % 6 == 0;
        EXPECT_EQ(config.layers[i].window,
                  global ? AttentionWindow::Full : AttentionWindow::Sliding)
            << i;
        EXPECT_EQ(config.layers[i].ropeVariant, global ? 0 : 1) << i;
        EXPECT_EQ(config.layers[i].slidingWindow, global ? 0 : 1024) << i;
    }
}

TEST(HfConfigModelsTest, ModernBertGlobalEveryThirdLayer) {
    const HfModelConfig config = load("modernbert-base");
    ASSERT_EQ(config.ropeVariants.size(), 2u);
    EXPECT_DOUBLE_EQ(config.ropeVariants[1].rope.base, 10000.0);
    ASSERT_EQ(config.layers.size(), 22u);
    for (int i = 0; i < 22; ++i) {
        const bool global = i % 3 == 0;
        EXPECT_EQ(config.layers[i].ropeVariant, global ? 0 : 1) << i;
        EXPECT_EQ(config.layers[i].slidingWindow, global ? 0 : 128) << i;
    }
}

TEST(HfConfigModelsTest, MistralSlidesEveryLayerAndQwenNone) {
    const HfModelConfig mistral = load("mistral-7b-v0.1");
    ASSERT_EQ(mistral.layers.size(), 32u);
    for (const HfLayer& layer : mistral.layers) {
        EXPECT_EQ(layer.window, AttentionWindow::Sliding);
        EXPECT_EQ(layer.slidingWindow, 4096);
        EXPECT_EQ(layer.ropeVariant, 0);
    }
    const HfModelConfig qwen = load("qwen2.5-7b-instruct");
    ASSERT_EQ(qwen.layers.size(), 28u);
    for (const HfLayer& layer : qwen.layers) EXPECT_EQ(layer.window, AttentionWindow::Full);
    EXPECT_EQ(qwen.ropeVariants.size(), 1u);
}

TEST(HfConfigModelsTest, SmolLM3EveryFourthLayerIsNope) {
    const HfModelConfig config = load("smollm3-3b");
    ASSERT_EQ(config.layers.size(), 36u);
    int nope = 0;
    for (int i = 0; i < 36; ++i) {
        const bool isNope = (i + 1) % 4 == 0;  // layers 3, 7, ..., 35
        EXPECT_EQ(config.layers[i].ropeVariant, isNope ? -1 : 0) << i;
        nope += isNope;
    }
    EXPECT_EQ(nope, 9);
}

TEST(HfConfigModelsTest, Qwen2VlMropeIsPlainRopeForText) {
    const HfModelConfig config = load("qwen2-vl-7b-instruct");
    EXPECT_TRUE(hasLine(config.notes, "mrope"));
    EXPECT_TRUE(config.warnings.empty()) << config.warnings.front();  // mrope_section is known
    // Qwen2VLConfig: mrope_section [16, 24, 24] over head_dim 3584 / 28 = 128, merge 2.
    ASSERT_TRUE(config.mrope.has_value());
    EXPECT_EQ(config.mrope->model, MropeModel::Qwen2VL);
    EXPECT_EQ(config.mrope->section[0], 16);
    EXPECT_EQ(config.mrope->section[1], 24);
    EXPECT_EQ(config.mrope->section[2], 24);
    EXPECT_EQ(config.mrope->headDim, 128);
    EXPECT_EQ(config.mrope->spatialMergeSize, 2);
    EXPECT_EQ(config.mrope->base, 1e6);
}

}  // namespace
}  // namespace poslab
