// Real public config.json files of models released in 2025 (tests/data/configs), against values
// written out in this file from transformers' formulas (modeling_rope_utils.py) and each model's
// configuration / modeling class: layer types and which of them rotate, inv_freq, attention
// factor, and Llama 4's NoPE-layer attention temperature.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "../test_math.hpp"
#include "hf_config_checks.hpp"
#include "poslab/io/hf_config.hpp"
#include "poslab/io/rope_info.hpp"
#include "poslab/views/rope_layers_figures.hpp"

namespace poslab {
namespace {

std::vector<double> inverseOf(const RopeParams& rope) {
    auto freqs = ropeFrequencies(rope);
    EXPECT_TRUE(freqs.ok()) << freqs.error().message;
    return freqs.ok() ? freqs->inverse : std::vector<double>{};
}

double attentionOf(const RopeParams& rope) {
    auto freqs = ropeFrequencies(rope);
    return freqs.ok() ? freqs->attentionFactor : -1.0;
}

// _compute_yarn_parameters written out: find_correction_dim / range (floored and ceiled only
// when truncate), clamped to [0, dim - 1]; linear ramp over dim / 2 pairs (max += 0.001 if equal).
std::vector<double> hfYarnInverse(int dim, double base, double factor, int original,
                                  double betaFast, double betaSlow, bool truncate) {
    auto correction = [&](double rotations) {
        return dim * std::log(original / (rotations * 2 * kPi)) / (2 * std::log(base));
    };
    double low = correction(betaFast), high = correction(betaSlow);
    if (truncate) low = std::floor(low), high = std::ceil(high);
    low = std::max(low, 0.0);
    high = std::min(high, double(dim - 1));
    if (low == high) high += 0.001;
    std::vector<double> inverse;
    for (int i = 0; i < dim / 2; ++i) {
        const double posFreq = std::pow(base, 2.0 * i / dim);
        const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
        const double extrapolationFactor = 1 - ramp;
        inverse.push_back(1 / (factor * posFreq) * (1 - extrapolationFactor) +
                          1 / posFreq * extrapolationFactor);
    }
    return inverse;
}

void expectNear(const std::vector<double>& got, const std::vector<double>& want, double rel) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_NEAR(got[i], want[i], rel * std::abs(want[i]) + 1e-300) << "pair " << i;
    }
}

TEST(HfConfigRecentModelsTest, Llama4ScoutLlama3WithEqualFactorsChunkedAndNopeLayers) {
    const HfModelConfig config = load("llama-4-scout-17b-16e-instruct");
    EXPECT_EQ(config.rope.headDim, 128);
    EXPECT_DOUBLE_EQ(config.rope.base, 500000);  // not vision_config's rope_theta 10000
    EXPECT_EQ(config.rope.pairing, RopePairing::Interleaved);
    ASSERT_EQ(config.rope.scaling.type, RopeScaling::Llama3);
    EXPECT_EQ(config.rope.trainingLength, 8192);
    // low_freq_factor == high_freq_factor == 1: theta if the wavelength is <= 8192, else theta/16.
    std::vector<double> want;
    for (int i = 0; i < 64; ++i) {
        const double theta = plain(500000, i, 128);
        want.push_back(2 * kPi / theta > 8192 ? theta / 16 : theta);
    }
    expectNear(inverseOf(config.rope), want, 1e-12);

    // no_rope_layers is [] in the file: HF builds it from no_rope_layer_interval 4, so layers
    // 3, 7, ..., 47 are NoPE (full_attention) and the rest chunked_attention with RoPE.
    ASSERT_EQ(config.layers.size(), 48u);
    for (int i = 0; i < 48; ++i) {
        const HfLayer& layer = config.layers[std::size_t(i)];
        const bool nope = (i + 1) % 4 == 0;
        EXPECT_EQ(layer.layerType, nope ? "full_attention" : "chunked_attention") << i;
        EXPECT_EQ(layer.ropeVariant, nope ? -1 : 0) << i;
        EXPECT_EQ(layer.window, nope ? AttentionWindow::Full : AttentionWindow::Chunked) << i;
        EXPECT_EQ(layer.slidingWindow, nope ? 0 : 8192) << i;
    }
    EXPECT_EQ(config.ropeVariants[0].layerType, "chunked_attention");
    auto chunked = ropeVariantForLayerType(config, "chunked_attention");
    ASSERT_TRUE(chunked.ok());
    EXPECT_EQ(*chunked, 0);
    auto full = ropeVariantForLayerType(config, "full_attention");
    ASSERT_TRUE(full.ok());
    EXPECT_EQ(*full, -1);
    EXPECT_EQ(noRopeReasonOf(config, "full_attention"), "no_rope_layer_interval 4");

    ASSERT_TRUE(config.attentionTemperature.has_value());
    EXPECT_EQ(config.attentionTemperature->floorScale, 8192);
    EXPECT_EQ(config.attentionTemperature->attnScale, 0.1);
}

TEST(HfConfigRecentModelsTest, Llama4MaverickExplicitNoRopeListAndLegacyTuningNumber) {
    const HfModelConfig config = load("llama-4-maverick-17b-128e-instruct");
    EXPECT_EQ(config.rope.scaling.type, RopeScaling::None);
    ASSERT_EQ(config.layers.size(), 48u);
    EXPECT_EQ(config.layers[3].ropeVariant, -1);
    EXPECT_EQ(config.layers[3].noRopeReason, "no_rope_layers");
    EXPECT_EQ(config.layers[4].layerType, "chunked_attention");
    // attn_temperature_tuning: 4 (the first release's value) is truthy, as HF tests it.
    EXPECT_TRUE(config.attentionTemperature.has_value());
    auto info = ropeInfoJson(config);
    ASSERT_TRUE(info.ok());
    const auto& temperature = (*info)["nope_attention_temperature"];
    ASSERT_TRUE(temperature.is_object());
    // Position 8191: log1p(floor(8192 / 8192)) * 0.1 + 1 = 1 + 0.1 ln 2.
    EXPECT_NEAR(temperature["samples"][1]["scale"].get<double>(), 1 + 0.1 * std::log(2.0), 1e-6);
    bool fullListed = false;
    for (const auto& type : (*info)["layer_types"]) {
        if (type["layer_type"] == "full_attention") {
            fullListed = true;
            EXPECT_TRUE(type["rope"].is_null());
            EXPECT_EQ(type["no_rope_reason"], "no_rope_layers");
            EXPECT_EQ(type["layers"], 12);
        }
    }
    EXPECT_TRUE(fullListed);
}

TEST(HfConfigRecentModelsTest, Gemma4ProportionalOnGlobalHeadDimSlidingOnHeadDim) {
    const HfModelConfig config = load("gemma-4-26b-a4b-it");
    ASSERT_EQ(config.ropeVariants.size(), 2u);
    const RopeParams& global = config.ropeVariants[0].rope;
    EXPECT_EQ(config.ropeVariants[0].layerType, "full_attention");
    EXPECT_EQ(global.headDim, 512);  // global_head_dim, not head_dim 256
    ASSERT_EQ(global.scaling.type, RopeScaling::Proportional);
    // rope_angles = int(0.25 * 512 // 2) = 64 of 256 entries, exponents over 512; rest exactly 0.
    const std::vector<double> inverse = inverseOf(global);
    ASSERT_EQ(inverse.size(), 256u);
    for (int i = 0; i < 256; ++i) {
        if (i < 64) {
            EXPECT_NEAR(inverse[std::size_t(i)], plain(1e6, i, 512), 1e-15) << i;
        } else {
            EXPECT_EQ(inverse[std::size_t(i)], 0.0) << i;
        }
    }
    const HfRopeVariant& sliding = config.ropeVariants[1];
    EXPECT_EQ(sliding.layerType, "sliding_attention");
    EXPECT_EQ(sliding.rope.headDim, 256);
    EXPECT_DOUBLE_EQ(sliding.rope.base, 10000);
    EXPECT_EQ(sliding.rope.scaling.type, RopeScaling::None);
    const std::vector<double> local = inverseOf(sliding.rope);
    ASSERT_EQ(local.size(), 128u);
    EXPECT_NEAR(local[127], plain(10000, 127, 256), 1e-18);
    ASSERT_EQ(config.layers.size(), 30u);
    for (int i = 0; i < 30; ++i) {
        const bool isFull = (i + 1) % 6 == 0;
        EXPECT_EQ(config.layers[std::size_t(i)].ropeVariant, isFull ? 0 : 1) << i;
        EXPECT_EQ(config.layers[std::size_t(i)].slidingWindow, isFull ? 0 : 1024) << i;
    }
}

TEST(HfConfigRecentModelsTest, GptOssYarnWithoutTruncation) {
    const HfModelConfig config = load("gpt-oss-20b");
    ASSERT_EQ(config.rope.scaling.type, RopeScaling::Yarn);
    EXPECT_FALSE(config.rope.scaling.truncate);
    expectNear(inverseOf(config.rope), hfYarnInverse(64, 150000, 32, 4096, 32, 1, false), 1e-12);
    EXPECT_NEAR(attentionOf(config.rope), 0.1 * std::log(32.0) + 1, 1e-12);
    ASSERT_EQ(config.layers.size(), 24u);
    EXPECT_EQ(config.layers[0].window, AttentionWindow::Sliding);
    EXPECT_EQ(config.layers[0].slidingWindow, 128);
    EXPECT_EQ(config.layers[1].window, AttentionWindow::Full);
    for (const HfLayer& layer : config.layers) EXPECT_EQ(layer.ropeVariant, 0);
}

TEST(HfConfigRecentModelsTest, Qwen3NextLinearAttentionLayersHaveNoRope) {
    const HfModelConfig config = load("qwen3-next-80b-a3b-instruct");
    EXPECT_EQ(config.rope.headDim, 256);
    EXPECT_EQ(rotatedDims(config.rope), 64);  // int(256 * 0.25)
    const std::vector<double> inverse = inverseOf(config.rope);
    ASSERT_EQ(inverse.size(), 32u);
    EXPECT_NEAR(inverse[31], plain(1e7, 31, 64), 1e-20);
    ASSERT_EQ(config.layers.size(), 48u);
    for (int i = 0; i < 48; ++i) {
        const bool isFull = (i + 1) % 4 == 0;
        const HfLayer& layer = config.layers[std::size_t(i)];
        EXPECT_EQ(layer.layerType, isFull ? "full_attention" : "linear_attention") << i;
        EXPECT_EQ(layer.window, isFull ? AttentionWindow::Full : AttentionWindow::Linear) << i;
        EXPECT_EQ(layer.ropeVariant, isFull ? 0 : -1) << i;
    }
    auto linear = ropeVariantForLayerType(config, "linear_attention");
    ASSERT_TRUE(linear.ok()) << linear.error().message;  // a layer type of the config
    EXPECT_EQ(*linear, -1);
    EXPECT_NE(noRopeReasonOf(config, "linear_attention").find("linear attention"),
              std::string::npos);
}

TEST(HfConfigRecentModelsTest, Exaone4GlobalNopeWhenSlidingWindowIsSet) {
    const HfModelConfig config = load("exaone-4.0-32b");
    ASSERT_EQ(config.layers.size(), 64u);
    for (int i = 0; i < 64; ++i) {
        const bool global = (i + 1) % 4 == 0;
        EXPECT_EQ(config.layers[std::size_t(i)].ropeVariant, global ? -1 : 0) << i;
    }
    EXPECT_EQ(config.ropeVariants[0].layerType, "sliding_attention");
    EXPECT_NE(noRopeReasonOf(config, "full_attention").find("global NoPE"), std::string::npos);
    // llama3 16x, low 1, high 4, L0 8192, base 1e6 on the sliding layers.
    std::vector<double> want;
    for (int i = 0; i < 64; ++i) {
        const double theta = plain(1e6, i, 128), wavelength = 2 * kPi / theta;
        if (wavelength < 2048) {
            want.push_back(theta);
        } else if (wavelength > 8192) {
            want.push_back(theta / 16);
        } else {
            const double t = (8192 / wavelength - 1) / 3;
            want.push_back((1 - t) * theta / 16 + t * theta);
        }
    }
    expectNear(inverseOf(config.ropeVariants[0].rope), want, 1e-12);
}

TEST(HfConfigRecentModelsTest, Olmo3ExplicitAttentionFactorLeavesInvFreqAlone) {
    const HfModelConfig config = load("olmo-3-32b-think");
    ASSERT_EQ(config.rope.scaling.type, RopeScaling::Yarn);
    EXPECT_NEAR(attentionOf(config.rope), 1.2079441541679836, 1e-15);
    // head_dim 5120 / 40 = 128; inv_freq as plain YaRN (truncated), unaffected by the factor.
    expectNear(inverseOf(config.rope), hfYarnInverse(128, 500000, 8, 8192, 32, 1, true), 1e-12);
    for (const HfLayer& layer : config.layers) EXPECT_EQ(layer.ropeVariant, 0);
    EXPECT_TRUE(hasLine(config.notes, "4.57"));
}

TEST(HfConfigRecentModelsTest, KimiK2YarnWithEqualBetas) {
    const HfModelConfig config = load("kimi-k2-instruct");
    EXPECT_EQ(config.rope.headDim, 64);  // qk_rope_head_dim
    EXPECT_EQ(config.rope.pairing, RopePairing::Interleaved);
    ASSERT_EQ(config.rope.scaling.type, RopeScaling::Yarn);
    expectNear(inverseOf(config.rope), hfYarnInverse(64, 50000, 32, 4096, 1, 1, true), 1e-12);
    // mscale == mscale_all_dim: get_mscale(32, 1) / get_mscale(32, 1) = 1.
    EXPECT_NEAR(attentionOf(config.rope), 1.0, 1e-15);
}

TEST(HfConfigRecentModelsTest, MiniMaxM2PartialRotaryFactorWinsOverRotaryDim) {
    const HfModelConfig config = load("minimax-m2");
    EXPECT_EQ(config.rope.headDim, 128);
    EXPECT_EQ(rotatedDims(config.rope), 64);
    EXPECT_TRUE(hasLine(config.notes, "rotary_dim is ignored"));
    EXPECT_EQ(config.layers.size(), 62u);
}

TEST(HfConfigRecentModelsTest, VisionConfigRopeKeysAreIgnored) {
    for (const char* file : {"mistral-small-3.1-24b-instruct-2503", "devstral-small-2507"}) {
        const HfModelConfig config = load(file);
        EXPECT_DOUBLE_EQ(config.rope.base, 1e9) << file;
        EXPECT_EQ(config.rope.headDim, 128) << file;
        EXPECT_EQ(config.layers.size(), 40u) << file;
        EXPECT_NEAR(inverseOf(config.rope)[63], plain(1e9, 63, 128), 1e-22) << file;
    }
    const HfModelConfig vl = load("qwen3-vl-8b-instruct");
    EXPECT_DOUBLE_EQ(vl.rope.base, 5e6);
    EXPECT_EQ(vl.rope.headDim, 128);
    ASSERT_TRUE(vl.mrope.has_value());
    EXPECT_EQ(vl.layers.size(), 36u);
}

TEST(HfConfigRecentModelsTest, V5RopeParametersInsideTextConfig) {
    // partial_rotary_factor and rope_theta only inside rope_parameters, nested in text_config.
    const char* text = R"({"model_type": "demo", "text_config": {"hidden_size": 1024,
        "num_attention_heads": 8, "num_hidden_layers": 2, "max_position_embeddings": 4096,
        "rope_parameters": {"rope_type": "default", "rope_theta": 250000.0,
                            "partial_rotary_factor": 0.5}},
        "vision_config": {"rope_theta": 100.0, "partial_rotary_factor": 1.0}})";
    auto config = parseHfConfig(text);
    ASSERT_TRUE(config.ok()) << config.error().message;
    EXPECT_DOUBLE_EQ(config->rope.base, 250000);
    EXPECT_EQ(rotatedDims(config->rope), 64);  // int(128 * 0.5)
}

TEST(HfConfigRecentModelsTest, PerLayerTypeRopeParametersForAnyLayerType) {
    const char* text = R"({"hidden_size": 512, "num_attention_heads": 4, "num_hidden_layers": 4,
        "max_position_embeddings": 8192,
        "layer_types": ["chunked_attention", "chunked_attention", "chunked_attention",
                        "full_attention"],
        "rope_parameters": {"chunked_attention": {"rope_type": "default", "rope_theta": 10000},
                            "full_attention": {"rope_type": "linear", "factor": 2,
                                               "rope_theta": 1000000}}})";
    auto config = parseHfConfig(text);
    ASSERT_TRUE(config.ok()) << config.error().message;
    ASSERT_EQ(config->ropeVariants.size(), 2u);
    EXPECT_EQ(config->ropeVariants[0].layerType, "full_attention");
    EXPECT_EQ(config->ropeVariants[1].layerType, "chunked_attention");
    EXPECT_DOUBLE_EQ(config->ropeVariants[1].rope.base, 10000);
    EXPECT_EQ(config->layers[0].ropeVariant, 1);
    EXPECT_EQ(config->layers[3].ropeVariant, 0);
}

TEST(HfConfigRecentModelsTest, PerLayerTypeYarnTruncateIsReadWhereTransformersReadsIt) {
    // truncate = config.rope_parameters.get("truncate", True): with rope_parameters keyed by
    // layer type that is the outer dict, so a layer's own "truncate": false is not seen.
    const char* text = R"({"hidden_size": 512, "num_attention_heads": 8, "num_hidden_layers": 2,
        "max_position_embeddings": 32768, "layer_types": ["full_attention", "full_attention"],
        "rope_parameters": {"full_attention": {"rope_type": "yarn", "factor": 8,
            "original_max_position_embeddings": 4096, "rope_theta": 10000, "truncate": false}}})";
    auto config = parseHfConfig(text);
    ASSERT_TRUE(config.ok()) << config.error().message;
    EXPECT_TRUE(config->rope.scaling.truncate);
    expectNear(inverseOf(config->rope), hfYarnInverse(64, 10000, 8, 4096, 32, 1, true), 1e-12);
    EXPECT_TRUE(hasLine(config->notes, "reads truncate from the top of rope_parameters"));
}

}  // namespace
}  // namespace poslab
