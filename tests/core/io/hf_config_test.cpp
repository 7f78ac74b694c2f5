#include "poslab/io/hf_config.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

namespace poslab {
namespace {

HfModelConfig parsed(const std::string& text) {
    auto config = parseHfConfig(text);
    EXPECT_TRUE(config.ok()) << config.error().message;
    return config.ok() ? *config : HfModelConfig{};
}

std::string errorOf(const std::string& text) {
    auto config = parseHfConfig(text);
    return config.ok() ? std::string("ok") : config.error().message;
}

bool hasNote(const HfModelConfig& config, const std::string& fragment) {
    for (const std::string& note : config.notes)
        if (note.find(fragment) != std::string::npos) return true;
    return false;
}

// meta-llama/Llama-3.1-8B config.json (abridged to the keys that matter plus a few others).
const char* kLlama31 = R"({
  "architectures": ["LlamaForCausalLM"],
  "attention_bias": false,
  "bos_token_id": 128000,
  "eos_token_id": 128001,
  "hidden_act": "silu",
  "hidden_size": 4096,
  "initializer_range": 0.02,
  "intermediate_size": 14336,
  "max_position_embeddings": 131072,
  "mlp_bias": false,
  "model_type": "llama",
  "num_attention_heads": 32,
  "num_hidden_layers": 32,
  "num_key_value_heads": 8,
  "pretraining_tp": 1,
  "rms_norm_eps": 1e-05,
  "rope_scaling": {
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
    "rope_type": "llama3"
  },
  "rope_theta": 500000.0,
  "tie_word_embeddings": false,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.43.0.dev0",
  "use_cache": true,
  "vocab_size": 128256
})";

TEST(HfConfigTest, Llama31With8xLlama3Scaling) {
    const HfModelConfig config = parsed(kLlama31);
    EXPECT_EQ(config.modelType, "llama");
    EXPECT_EQ(config.maxPositionEmbeddings, 131072);
    const RopeParams& rope = config.rope;
    EXPECT_EQ(rope.headDim, 128);  // 4096 / 32
    EXPECT_EQ(rope.base, 500000.0);
    EXPECT_EQ(rope.rotaryFraction, 1.0);
    EXPECT_EQ(rope.pairing, RopePairing::Half);
    EXPECT_EQ(rope.scaling.type, RopeScaling::Llama3);
    EXPECT_EQ(rope.scaling.factor, 8.0);
    EXPECT_EQ(rope.scaling.lowFreqFactor, 1.0);
    EXPECT_EQ(rope.scaling.highFreqFactor, 4.0);
    EXPECT_EQ(rope.trainingLength, 8192);  // the context before extension
    EXPECT_EQ(originalMaxPositions(rope), 8192);
    EXPECT_TRUE(hasNote(config, "head_dim = hidden_size // num_attention_heads = 4096 // 32"));
    // The published effect: pairs 0-28 unchanged, 35-63 divided by 8.
    auto freqs = ropeFrequencies(rope);
    ASSERT_TRUE(freqs.ok());
    for (int i = 0; i < 64; ++i) {
        const double plain = std::pow(500000.0, -i / 64.0);
        if (i <= 28) {
            EXPECT_NEAR(freqs->inverse[i], plain, 1e-15 * plain) << i;
        } else if (i >= 35) {
            EXPECT_NEAR(freqs->inverse[i], plain / 8, 1e-15 * plain) << i;
        }
    }
}

TEST(HfConfigTest, Qwen2WithNullScaling) {
    const HfModelConfig config = parsed(R"({
      "architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2",
      "hidden_size": 3584, "num_attention_heads": 28, "num_key_value_heads": 4,
      "max_position_embeddings": 32768, "rope_theta": 1000000.0, "rope_scaling": null,
      "sliding_window": 131072, "use_sliding_window": false, "vocab_size": 152064
    })");
    EXPECT_EQ(config.modelType, "qwen2");
    EXPECT_EQ(config.rope.headDim, 128);  // 3584 / 28
    EXPECT_EQ(config.rope.base, 1000000.0);
    EXPECT_EQ(config.rope.scaling.type, RopeScaling::None);
    EXPECT_EQ(config.rope.trainingLength, 32768);
    EXPECT_EQ(config.maxPositionEmbeddings, 32768);
}

TEST(HfConfigTest, GptNeoX20BPartialRotaryFromRotaryPct) {
    const HfModelConfig config = parsed(R"({
      "architectures": ["GPTNeoXForCausalLM"], "model_type": "gpt_neox",
      "hidden_size": 6144, "num_attention_heads": 64, "num_hidden_layers": 44,
      "rotary_pct": 0.25, "rotary_emb_base": 10000, "max_position_embeddings": 2048,
      "use_parallel_residual": true, "vocab_size": 50432
    })");
    EXPECT_EQ(config.rope.headDim, 96);
    EXPECT_EQ(config.rope.rotaryFraction, 0.25);
    EXPECT_EQ(rotatedDims(config.rope), 24);
    EXPECT_EQ(config.rope.base, 10000.0);
    EXPECT_EQ(config.rope.pairing, RopePairing::Half);  // GPT-NeoX uses rotate_half
    EXPECT_EQ(config.rope.trainingLength, 2048);
    EXPECT_TRUE(hasNote(config, "rotary_pct"));
    EXPECT_TRUE(hasNote(config, "rotary_emb_base"));
}

TEST(HfConfigTest, GptJRotaryDimAndInterleavedPairs) {
    const HfModelConfig config = parsed(R"({
      "architectures": ["GPTJForCausalLM"], "model_type": "gptj",
      "n_embd": 4096, "n_head": 16, "n_layer": 28, "n_positions": 2048, "rotary_dim": 64
    })");
    EXPECT_EQ(config.rope.headDim, 256);
    EXPECT_EQ(rotatedDims(config.rope), 64);
    EXPECT_EQ(config.rope.pairing, RopePairing::Interleaved);
    EXPECT_EQ(config.rope.base, 10000.0);
    EXPECT_EQ(config.maxPositionEmbeddings, 2048);
    EXPECT_TRUE(hasNote(config, "rope_theta not given; using 10000"));
    // A rotary_dim whose plain fraction does not survive int(head_dim * f): in doubles,
    // int(44 * (30 / 44)) is 29. The parser nudges the fraction so 30 dims are rotated.
    const HfModelConfig nudged = parsed(R"({"model_type": "gptj", "n_embd": 176, "n_head": 4,
                                             "n_positions": 8, "rotary_dim": 30})");
    EXPECT_EQ(nudged.rope.headDim, 44);
    EXPECT_EQ(rotatedDims(nudged.rope), 30);
}

TEST(HfConfigTest, YarnConfigs) {
    // Qwen3 with the recommended YaRN block: the factor is used as given (transformers since
    // #40320; earlier versions replaced it with max_position_embeddings / original).
    const HfModelConfig qwen = parsed(R"({
      "model_type": "qwen3", "hidden_size": 4096, "num_attention_heads": 32, "head_dim": 128,
      "max_position_embeddings": 40960, "rope_theta": 1000000,
      "rope_scaling": {"rope_type": "yarn", "factor": 4.0,
                       "original_max_position_embeddings": 32768}
    })");
    EXPECT_EQ(qwen.rope.scaling.type, RopeScaling::Yarn);
    EXPECT_EQ(qwen.rope.scaling.factor, 4.0);
    EXPECT_EQ(qwen.rope.trainingLength, 32768);
    EXPECT_EQ(qwen.rope.scaling.betaFast, 32.0);
    EXPECT_EQ(qwen.rope.scaling.betaSlow, 1.0);
    EXPECT_TRUE(qwen.rope.scaling.truncate);
    auto freqs = ropeFrequencies(qwen.rope);
    ASSERT_TRUE(freqs.ok());
    EXPECT_NEAR(freqs->attentionFactor, 0.1 * std::log(4.0) + 1, 1e-15);

    // DeepSeek-V3: legacy "type", mscale pair, explicit head_dim for the rotary part.
    const HfModelConfig deepseek = parsed(R"({
      "model_type": "deepseek_v3", "hidden_size": 7168, "num_attention_heads": 128,
      "head_dim": 64, "qk_rope_head_dim": 64, "max_position_embeddings": 163840,
      "rope_theta": 10000, "rope_interleave": true,
      "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0,
                       "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096,
                       "type": "yarn"}
    })");
    EXPECT_EQ(deepseek.rope.headDim, 64);
    EXPECT_EQ(deepseek.rope.scaling.factor, 40.0);
    EXPECT_EQ(deepseek.rope.scaling.mscale, 1.0);
    EXPECT_EQ(deepseek.rope.scaling.mscaleAllDim, 1.0);
    EXPECT_EQ(deepseek.rope.trainingLength, 4096);
    EXPECT_EQ(deepseek.rope.pairing, RopePairing::Interleaved);
    EXPECT_EQ(ropeFrequencies(deepseek.rope)->attentionFactor, 1.0);
    EXPECT_TRUE(hasNote(deepseek, "legacy key 'type'"));

    // gpt-oss: truncate false, explicit betas as floats; no factor -> max / original.
    const HfModelConfig oss = parsed(R"({
      "model_type": "gpt_oss", "hidden_size": 2880, "num_attention_heads": 64, "head_dim": 64,
      "max_position_embeddings": 131072, "rope_theta": 150000,
      "rope_scaling": {"rope_type": "yarn", "beta_fast": 32.0, "beta_slow": 1.0,
                       "original_max_position_embeddings": 4096, "truncate": false}
    })");
    EXPECT_FALSE(oss.rope.scaling.truncate);
    EXPECT_EQ(oss.rope.scaling.factor, 32.0);
    EXPECT_TRUE(hasNote(oss, "factor not given"));

    // No original length: HF falls back to max_position_embeddings.
    const HfModelConfig plain = parsed(R"({
      "hidden_size": 512, "num_attention_heads": 8, "max_position_embeddings": 2048,
      "rope_scaling": {"rope_type": "yarn", "factor": 2.0, "beta_fast": 0,
                       "attention_factor": 1.25}
    })");
    EXPECT_EQ(plain.rope.trainingLength, 2048);
    EXPECT_EQ(plain.rope.scaling.betaFast, 32.0);  // `get("beta_fast") or 32`
    EXPECT_EQ(ropeFrequencies(plain.rope)->attentionFactor, 1.25);
}

TEST(HfConfigTest, LegacyDynamicAndLinearTypes) {
    const HfModelConfig dynamic = parsed(R"({
      "model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
      "max_position_embeddings": 4096, "rope_scaling": {"type": "dynamic", "factor": 2.0}
    })");
    EXPECT_EQ(dynamic.rope.scaling.type, RopeScaling::DynamicNtk);
    EXPECT_EQ(dynamic.rope.scaling.factor, 2.0);
    EXPECT_EQ(dynamic.rope.trainingLength, 4096);  // HF's dynamic divides by this
    EXPECT_EQ(dynamic.rope.base, 10000.0);

    const HfModelConfig linear = parsed(R"({
      "hidden_size": 5120, "num_attention_heads": 40, "max_position_embeddings": 16384,
      "rope_theta": 10000, "rope_scaling": {"rope_type": "linear", "factor": 4}
    })");
    EXPECT_EQ(linear.rope.scaling.type, RopeScaling::Linear);
    EXPECT_EQ(linear.rope.scaling.factor, 4.0);
    EXPECT_EQ(linear.rope.headDim, 128);

    const HfModelConfig byDefault = parsed(R"({
      "hidden_size": 256, "num_attention_heads": 4,
      "rope_scaling": {"rope_type": "default"}, "partial_rotary_factor": 0.5
    })");
    EXPECT_EQ(byDefault.rope.scaling.type, RopeScaling::None);
    EXPECT_EQ(rotatedDims(byDefault.rope), 32);
    EXPECT_EQ(byDefault.maxPositionEmbeddings, 0);
    EXPECT_TRUE(hasNote(byDefault, "max_position_embeddings not given"));
}

TEST(HfConfigTest, TransformersV5RopeParametersAndTextConfig) {
    const HfModelConfig v5 = parsed(R"({
      "model_type": "llama", "hidden_size": 2048, "num_attention_heads": 32,
      "max_position_embeddings": 131072,
      "rope_parameters": {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 32.0,
                          "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                          "original_max_position_embeddings": 8192}
    })");
    EXPECT_EQ(v5.rope.headDim, 64);
    EXPECT_EQ(v5.rope.base, 500000.0);
    EXPECT_EQ(v5.rope.scaling.type, RopeScaling::Llama3);
    EXPECT_EQ(v5.rope.scaling.factor, 32.0);

    const HfModelConfig multimodal = parsed(R"({
      "model_type": "llava", "vision_config": {"hidden_size": 1024},
      "text_config": {"model_type": "mistral", "hidden_size": 4096,
                      "num_attention_heads": 32, "rope_theta": 1000000.0,
                      "max_position_embeddings": 32768}
    })");
    EXPECT_EQ(multimodal.modelType, "llava");
    EXPECT_EQ(multimodal.rope.headDim, 128);
    EXPECT_EQ(multimodal.rope.base, 1000000.0);
    EXPECT_TRUE(hasNote(multimodal, "text_config"));

    const HfModelConfig mrope = parsed(R"({
      "model_type": "qwen2_vl", "hidden_size": 1536, "num_attention_heads": 12,
      "max_position_embeddings": 32768, "rope_theta": 1000000.0,
      "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}
    })");
    EXPECT_EQ(mrope.rope.scaling.type, RopeScaling::None);
    EXPECT_TRUE(hasNote(mrope, "mrope"));
}

TEST(HfConfigTest, ReadsMultimodalRope) {
    // Qwen2-VL: [16,24,24] contiguous over 128 dims, merge 2 from vision_config.
    const HfModelConfig qwen2 = parsed(R"({
      "model_type": "qwen2_vl", "hidden_size": 3584, "num_attention_heads": 28,
      "rope_theta": 1000000.0, "vision_config": {"spatial_merge_size": 2},
      "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}
    })");
    ASSERT_TRUE(qwen2.mrope.has_value());
    EXPECT_EQ(qwen2.mrope->model, MropeModel::Qwen2VL);
    EXPECT_EQ(qwen2.mrope->section, (std::array<int, 3>{16, 24, 24}));
    EXPECT_EQ(qwen2.mrope->layout, MropeLayout::Contiguous);
    EXPECT_EQ(qwen2.mrope->headDim, 128);
    EXPECT_EQ(qwen2.mrope->base, 1e6);
    EXPECT_EQ(qwen2.mrope->spatialMergeSize, 2);

    // Qwen2.5-VL: tokens_per_second from vision_config (the released 7B says 2; class default 4).
    const HfModelConfig qwen25 = parsed(R"({
      "model_type": "qwen2_5_vl", "hidden_size": 3584, "num_attention_heads": 28,
      "rope_theta": 1000000.0,
      "vision_config": {"spatial_merge_size": 2, "tokens_per_second": 2},
      "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}
    })");
    ASSERT_TRUE(qwen25.mrope.has_value());
    EXPECT_EQ(qwen25.mrope->model, MropeModel::Qwen25VL);
    EXPECT_EQ(qwen25.mrope->tokensPerSecond, 2);
    const HfModelConfig qwen25NoRate = parsed(R"({
      "model_type": "qwen2_5_vl", "hidden_size": 3584, "num_attention_heads": 28,
      "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}
    })");
    EXPECT_EQ(qwen25NoRate.mrope->tokensPerSecond, 4);
    EXPECT_TRUE(hasNote(qwen25NoRate, "tokens_per_second not given"));

    // Qwen3-VL: text_config with rope_type "default" and the mrope keys; interleaved.
    const HfModelConfig qwen3 = parsed(R"({
      "model_type": "qwen3_vl",
      "text_config": {"model_type": "qwen3_vl_text", "hidden_size": 4096, "head_dim": 128,
                      "num_attention_heads": 32, "rope_theta": 5000000,
                      "rope_scaling": {"rope_type": "default", "mrope_section": [24, 20, 20],
                                       "mrope_interleaved": true}},
      "vision_config": {"spatial_merge_size": 2, "patch_size": 16}
    })");
    ASSERT_TRUE(qwen3.mrope.has_value());
    EXPECT_EQ(qwen3.mrope->model, MropeModel::Qwen3VL);
    EXPECT_EQ(qwen3.mrope->layout, MropeLayout::Interleaved);
    EXPECT_EQ(qwen3.mrope->section, (std::array<int, 3>{24, 20, 20}));
    EXPECT_TRUE(qwen3.warnings.empty()) << qwen3.warnings.front();

    // A plain text model has none.
    EXPECT_FALSE(parsed(kLlama31).mrope.has_value());
}

TEST(HfConfigTest, RejectsBadMultimodalRope) {
    EXPECT_EQ(errorOf(R"({"model_type": "qwen2_vl", "hidden_size": 3584,
      "num_attention_heads": 28, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 20]}})"),
              "rope_scaling.mrope_section must sum to head_dim / 2 = 64 (got 16+24+20 = 60) "
              "(rotated dims 128)");
    EXPECT_EQ(errorOf(R"({"model_type": "qwen2_vl", "hidden_size": 3584,
      "num_attention_heads": 28, "rope_scaling": {"type": "mrope", "mrope_section": [16, 48]}})"),
              "rope_scaling.mrope_section must be 3 non-negative integers [T, H, W] (got "
              "[16,48])");
    EXPECT_EQ(errorOf(R"({"model_type": "qwen2_vl", "hidden_size": 3584,
      "num_attention_heads": 28, "rope_scaling": {"type": "mrope"}})"),
              "rope_scaling.mrope_section is missing (mrope needs the pair counts [T, H, W])");
    EXPECT_EQ(errorOf(R"({"model_type": "qwen2_vl", "hidden_size": 3584,
      "num_attention_heads": 28, "vision_config": {"spatial_merge_size": 0},
      "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}})"),
              "vision_config.spatial_merge_size must be a positive integer (got 0)");
}

TEST(HfConfigTest, RejectsBrokenConfigs) {
    const std::string truncated = std::string(kLlama31).substr(0, 200);
    EXPECT_EQ(errorOf(truncated).rfind("config.json is not valid JSON: ", 0), 0u)
        << errorOf(truncated);
    EXPECT_EQ(errorOf("").rfind("config.json is not valid JSON: ", 0), 0u);
    EXPECT_EQ(errorOf("[1, 2]"), "config.json must be a JSON object (got an array)");
    EXPECT_EQ(
        errorOf(R"({"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": "500000"})"),
        "rope_theta must be a number (got \"500000\")");
    EXPECT_EQ(errorOf(R"({"hidden_size": 4096, "num_attention_heads": 0})"),
              "num_attention_heads must be a positive integer (got 0)");
    EXPECT_EQ(errorOf(R"({"hidden_size": "big", "num_attention_heads": 32})"),
              "hidden_size must be a positive integer (got \"big\")");
    EXPECT_EQ(errorOf(R"({"head_dim": -64})"), "head_dim must be a positive integer (got -64)");
    EXPECT_EQ(errorOf(R"({"hidden_size": 4096, "num_attention_heads": 32.5})"),
              "num_attention_heads must be a positive integer (got 32.5)");
    EXPECT_EQ(errorOf(R"({"hidden_size": 4096})"),
              "head size unknown: head_dim is absent and so is num_attention_heads");
    EXPECT_EQ(errorOf(R"({"vocab_size": 100})"),
              "head size unknown: head_dim is absent and so is hidden_size");
    const std::string head = R"("hidden_size": 4096, "num_attention_heads": 32,
                                "max_position_embeddings": 131072, )";
    // LongRoPE lists must have one entry per rotated pair (4096 / 32 = 128 dims: 64 pairs).
    EXPECT_EQ(errorOf("{" + head + R"("rope_scaling": {"rope_type": "longrope", "factor": 2,
              "long_factor": [1.0], "short_factor": [1.0]}})"),
              "rope_scaling.short_factor must have rotated dims / 2 = 64 entries (got 1)");
    // "su" is LongRoPE's legacy name, so it needs the lists too.
    EXPECT_EQ(errorOf("{" + head + R"("rope_scaling": {"type": "su"}})"),
              "rope_scaling.short_factor is required for rope type longrope");
    EXPECT_EQ(errorOf("{" + head + R"("rope_scaling": {"rope_type": "longrope",
              "long_factor": [], "short_factor": "1"}})"),
              "rope_scaling.short_factor must be a list of numbers (got \"1\")");
    EXPECT_EQ(errorOf("{" + head + R"("rope_scaling": {"rope_type": "ntk-by-parts"}})"),
              "rope_scaling.rope_type 'ntk-by-parts' is not supported (supported: default, "
              "linear, dynamic, yarn, llama3, longrope, su, proportional, mrope)");
    EXPECT_EQ(errorOf("{" + head + R"("rope_scaling": {"rope_type": "proportional",
              "factor": 0.5}})"),
              "rope_scaling.factor must be 1..65536 (got 0.5)");
    EXPECT_EQ(errorOf("{" + head + R"("num_hidden_layers": 4, "layer_types": ["full_attention"]})"),
              "layer_types must be a list of 4 strings (one per layer)");
    EXPECT_EQ(errorOf("{" + head + R"("num_hidden_layers": 4, "no_rope_layers": [1, 1]})"),
              "no_rope_layers must have at least 4 entries (got 2)");
    EXPECT_EQ(errorOf("{" + head + R"("num_hidden_layers": 2, "no_rope_layers": [1, 2]})"),
              "no_rope_layers[1] must be 0 or 1 (got 2)");
    EXPECT_EQ(errorOf("{" + head + R"("rope_scaling": {"factor": 2.0}})"),
              "rope_scaling.rope_type is missing (nor is there a legacy rope_scaling.type)");
    EXPECT_EQ(errorOf("{" + head + R"("rope_scaling": "llama3"})"),
              "rope_scaling must be an object or null (got \"llama3\")");
    EXPECT_EQ(errorOf("{" + head + R"("rope_scaling": {"rope_type": "llama3", "factor": 8,
              "high_freq_factor": 4, "original_max_position_embeddings": 8192}})"),
              "rope_scaling.low_freq_factor is required for rope type llama3");
    EXPECT_EQ(errorOf("{" + head + R"("rope_scaling": {"rope_type": "linear"}})"),
              "rope_scaling.factor is required for rope type linear");
    EXPECT_EQ(errorOf("{" + head + R"("rope_scaling": {"rope_type": "linear", "factor": 0.5}})"),
              "rope_scaling.factor must be 1..65536 (got 0.5)");
    EXPECT_EQ(errorOf("{" + head + R"("rope_scaling": {"rope_type": "yarn", "factor": 4,
              "truncate": "no"}})"),
              "rope_scaling.truncate must be true or false (got \"no\")");
    EXPECT_EQ(errorOf("{" + head + R"("rope_scaling": {"rope_type": "llama3", "factor": 8,
              "low_freq_factor": 4, "high_freq_factor": 1,
              "original_max_position_embeddings": 8192}})"),
              "rope_scaling.high_freq_factor must be >= low_freq_factor 4 (got 1)");
    EXPECT_EQ(errorOf("{" + head + R"("partial_rotary_factor": 0})"),
              "partial_rotary_factor must be > 0 and <= 1 (got 0)");
    EXPECT_EQ(errorOf(R"({"hidden_size": 400, "num_attention_heads": 4, "rotary_pct": 0.25})"),
              "config.json gives an invalid RoPE setup: rotary_fraction 0.25 leaves int(head_dim "
              "* rotary_fraction) = 25 rotated dims of head_dim 100; they must be even and >= 2");
    EXPECT_EQ(errorOf(R"({"hidden_size": 81920, "num_attention_heads": 8})"),
              "config.json gives an invalid RoPE setup: head_dim must be 2..8192 (got 10240)");
    // Absurd YaRN betas (HF's correction range is inf for them, its frequencies NaN).
    EXPECT_EQ(errorOf("{" + head + R"("rope_scaling": {"rope_type": "yarn", "factor": 4,
              "beta_fast": 1e-320}})"),
              "config.json gives an invalid RoPE setup: beta_fast must be 1e-06..1e+06 (got "
              "1e-320)");
    EXPECT_EQ(errorOf("{" + head + R"("rope_scaling": {"rope_type": "yarn", "factor": 4,
              "beta_slow": 1e300}})"),
              "config.json gives an invalid RoPE setup: beta_slow must be 1e-06..1e+06 (got "
              "1e+300)");
    // Escape sequences and DEL/C1 controls in values come back escaped (nlohmann's dump escapes
    // only C0), long values cut.
    EXPECT_EQ(
        errorOf("{" + head + "\"rope_scaling\": {\"rope_type\": \"\\u001b[2J\x7f\xc2\x9b\"}}"),
        "rope_scaling.rope_type '\\x1b[2J\\x7f\\xc2\\x9b' is not supported (supported: "
        "default, linear, dynamic, yarn, llama3, longrope, su, proportional, mrope)");
    EXPECT_EQ(errorOf(R"({"hidden_size": "\u001b]0;x\u0007"})"),
              "hidden_size must be a positive integer (got \"\\u001b]0;x\\u0007\")");
    EXPECT_EQ(errorOf("{" + head + "\"rope_scaling\": {\"rope_type\": \"" + std::string(100, 'y') +
                      "\"}}"),
              "rope_scaling.rope_type '" + std::string(40, 'y') +
                  "…' is not supported (supported: default, linear, dynamic, yarn, llama3, "
                  "longrope, su, proportional, mrope)");
    // Every message is a single line.
    for (const std::string& text : {truncated, std::string("{\n\"a\": \n")}) {
        EXPECT_EQ(errorOf(text).find('\n'), std::string::npos) << errorOf(text);
    }
}

TEST(HfConfigTest, LoadsFromFileAndNamesThePathInErrors) {
    const std::string path = ::testing::TempDir() + "poslab_hf_config_test.json";
    {
        std::ofstream file(path);
        file << kLlama31;
    }
    auto config = loadHfConfig(path);
    ASSERT_TRUE(config.ok()) << config.error().message;
    EXPECT_EQ(config->rope.scaling.type, RopeScaling::Llama3);
    {
        std::ofstream file(path);
        file << R"({"hidden_size": 4096, "num_attention_heads": 0})";
    }
    auto broken = loadHfConfig(path);
    ASSERT_FALSE(broken.ok());
    EXPECT_EQ(broken.error().message,
              path + ": num_attention_heads must be a positive integer (got 0)");
    std::remove(path.c_str());
    auto missing = loadHfConfig(path);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().message, path + ": cannot open the file (No such file or directory)");
}

TEST(HfConfigTest, ProportionalRopeFromV5RopeParameters) {
    // A Gemma-style v5 config: p-RoPE on the full-attention layers (a quarter of the pairs rotate,
    // divided by factor 2), plain RoPE at base 10000 on the sliding ones.
    const HfModelConfig config = parsed(R"({
      "model_type": "example", "hidden_size": 1024, "num_attention_heads": 4, "head_dim": 256,
      "max_position_embeddings": 8192, "num_hidden_layers": 4,
      "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention",
                      "full_attention"],
      "sliding_window": 512,
      "rope_parameters": {
        "full_attention": {"rope_type": "proportional", "rope_theta": 1000000.0,
                           "partial_rotary_factor": 0.25, "factor": 2.0},
        "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}})");
    EXPECT_EQ(config.rope.scaling.type, RopeScaling::Proportional);
    EXPECT_DOUBLE_EQ(config.rope.base, 1e6);
    EXPECT_DOUBLE_EQ(config.rope.rotaryFraction, 1.0);
    auto freqs = ropeFrequencies(config.rope);
    ASSERT_TRUE(freqs.ok()) << freqs.error().message;
    ASSERT_EQ(freqs->inverse.size(), 128u);
    // floor(0.25 * 256 / 2) = 32 rotating pairs at 1e6^(-2i/256) / 2, then 96 zeros.
    for (int i : {0, 1, 31}) {
        EXPECT_NEAR(freqs->inverse[i], std::pow(1e6, -2.0 * i / 256) / 2, 1e-16) << i;
    }
    for (int i : {32, 127}) EXPECT_EQ(freqs->inverse[i], 0.0) << i;
    ASSERT_EQ(config.ropeVariants.size(), 2u);
    EXPECT_DOUBLE_EQ(config.ropeVariants[1].rope.base, 10000.0);
    EXPECT_EQ(config.ropeVariants[1].rope.scaling.type, RopeScaling::None);
    ASSERT_EQ(config.layers.size(), 4u);
    EXPECT_EQ(config.layers[0].ropeVariant, 1);
    EXPECT_EQ(config.layers[0].slidingWindow, 512);
    EXPECT_EQ(config.layers[3].ropeVariant, 0);
    EXPECT_EQ(config.layers[3].window, AttentionWindow::Full);
}

TEST(HfConfigTest, LegacySuIsLongRope) {
    std::string text = R"({"model_type": "phi3", "hidden_size": 64, "num_attention_heads": 2,
        "max_position_embeddings": 8192, "original_max_position_embeddings": 2048,
        "rope_scaling": {"type": "su", "short_factor": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1], "long_factor": [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]}})";
    const HfModelConfig config = parsed(text);
    EXPECT_EQ(config.rope.scaling.type, RopeScaling::LongRope);
    EXPECT_DOUBLE_EQ(config.rope.scaling.factor, 4.0);  // 8192 / 2048
    EXPECT_EQ(config.rope.trainingLength, 2048);
    EXPECT_TRUE(hasNote(config, "legacy name of longrope"));
}

}  // namespace
}  // namespace poslab
