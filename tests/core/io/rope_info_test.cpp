#include "poslab/io/rope_info.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace poslab {
namespace {

nlohmann::json infoOf(const std::string& name, int seqLen = 0) {
    auto info =
        ropeInfoFromFile(std::string(POSLAB_TEST_DATA_DIR) + "/configs/" + name + ".json", seqLen);
    EXPECT_TRUE(info.ok()) << info.error().message;
    return info.ok() ? *info : nlohmann::json{};
}

bool anyContains(const nlohmann::json& lines, const std::string& fragment) {
    for (const auto& line : lines)
        if (line.get<std::string>().find(fragment) != std::string::npos) return true;
    return false;
}

// Qwen2-VL: mrope_section [16, 24, 24] contiguous: 16 T pairs, then 24 H, then 24 W.
TEST(RopeInfoTest, Qwen2VlListsTheStreamOfEachPair) {
    const nlohmann::json info = infoOf("qwen2-vl-7b-instruct");
    ASSERT_TRUE(info.contains("multimodal_rope"));
    const nlohmann::json& mrope = info["multimodal_rope"];
    EXPECT_EQ(mrope["model"], "qwen2-vl");
    EXPECT_EQ(mrope["layout"], "contiguous");
    EXPECT_EQ(mrope["mrope_section"], nlohmann::json::array({16, 24, 24}));
    EXPECT_EQ(mrope["spatial_merge_size"], 2);
    EXPECT_EQ(mrope["pair_streams"],
              std::string(16, 'T') + std::string(24, 'H') + std::string(24, 'W'));
    EXPECT_FALSE(infoOf("llama-3.1-8b").contains("multimodal_rope"));
}

TEST(RopeInfoTest, Gemma3ListsBothLayerTypes) {
    const nlohmann::json info = infoOf("gemma-3-4b-it");
    EXPECT_EQ(info["head_dim"], 256);
    EXPECT_EQ(info["rotary_dims"], 256);
    EXPECT_EQ(info["pairing"], "half");
    EXPECT_EQ(info["rope_type"], "linear");
    EXPECT_EQ(info["default_layer_type"], "full_attention");
    ASSERT_EQ(info["rope_by_layer_type"].size(), 2u);
    const auto& global = info["rope_by_layer_type"][0];
    const auto& local = info["rope_by_layer_type"][1];
    EXPECT_EQ(global["layer_type"], "full_attention");
    EXPECT_EQ(global["base"], 1e6);
    EXPECT_EQ(global["factor"], 8.0);
    EXPECT_EQ(global["layers"], (std::vector<int>{5, 11, 17, 23, 29}));
    EXPECT_EQ(local["rope_type"], "none");
    EXPECT_EQ(local["base"], 10000.0);
    ASSERT_EQ(local["inv_freq"].size(), 128u);
    EXPECT_NEAR(local["inv_freq"][2].get<double>(), std::pow(10000.0, -4.0 / 256), 1e-15);
    EXPECT_NEAR(global["inv_freq"][2].get<double>(), std::pow(1e6, -4.0 / 256) / 8, 1e-15);
    EXPECT_EQ(info["layers"].size(), 34u);
    EXPECT_EQ(info["layers"][0]["window"], "sliding");
    EXPECT_EQ(info["layers"][0]["sliding_window"], 1024);
    EXPECT_TRUE(anyContains(info["notes"], "full-attention layers"));
    EXPECT_TRUE(anyContains(info["notes"], "gemma3_text configuration defaults"));
}

TEST(RopeInfoTest, LongRopeSaysWhichListIsActive) {
    const nlohmann::json shortInfo = infoOf("phi-3.5-mini-instruct");  // seq_len = 4096
    const auto& rope = shortInfo["rope_by_layer_type"][0];
    EXPECT_EQ(rope["longrope_list"], "short");
    EXPECT_EQ(shortInfo["training_length"], 4096);
    EXPECT_EQ(shortInfo["max_position_embeddings"], 131072);
    EXPECT_NEAR(rope["attention_factor"].get<double>(), std::sqrt(17.0 / 12.0), 1e-14);
    const nlohmann::json longInfo = infoOf("phi-3.5-mini-instruct", 8192);
    EXPECT_EQ(longInfo["rope_by_layer_type"][0]["longrope_list"], "long");
}

TEST(RopeInfoTest, WarningsFollowHfValidation) {
    // Qwen2.5's documented YaRN opt-in keeps max_position_embeddings at 32768 (ratio 1): no
    // warning in transformers v5. A ratio of 32 against factor 4 is warned about.
    const nlohmann::json yarn = infoOf("qwen2.5-7b-instruct-yarn");
    EXPECT_FALSE(anyContains(yarn["warnings"], "does not match"));
    auto mismatch = ropeInfoFromText(R"({"hidden_size": 4096, "num_attention_heads": 32,
        "max_position_embeddings": 131072, "rope_scaling": {"rope_type": "yarn", "factor": 4,
        "original_max_position_embeddings": 4096}})");
    ASSERT_TRUE(mismatch.ok());
    EXPECT_TRUE(anyContains((*mismatch)["warnings"],
                            "explicit yarn factor 4 does not match max_position_embeddings / "
                            "original_max_position_embeddings = 32"));
    EXPECT_EQ((*mismatch)["rope_by_layer_type"][0]["factor"], 4.0);
    // Unknown keys in rope_scaling are reported, as HF's _check_received_keys does.
    auto unknown = ropeInfoFromText(R"({"hidden_size": 4096, "num_attention_heads": 32,
        "max_position_embeddings": 8192, "rope_scaling": {"rope_type": "linear", "factor": 2,
        "beta_fast": 32}})");
    ASSERT_TRUE(unknown.ok());
    EXPECT_TRUE(anyContains((*unknown)["warnings"],
                            "unrecognized keys in rope_scaling for rope "
                            "type linear: beta_fast"));
    // Phi-3 style config whose explicit factor disagrees with 131072 / 4096.
    std::string phi = R"({"hidden_size": 256, "num_attention_heads": 2,
        "max_position_embeddings": 131072, "original_max_position_embeddings": 4096,
        "rope_scaling": {"type": "longrope", "factor": 8, "short_factor": [)";
    for (int i = 0; i < 64; ++i) phi += std::string(i ? "," : "") + "1";
    phi += R"(], "long_factor": [)";
    for (int i = 0; i < 64; ++i) phi += std::string(i ? "," : "") + "2";
    phi += "]}}";
    auto phiInfo = ropeInfoFromText(phi);
    ASSERT_TRUE(phiInfo.ok()) << phiInfo.error().message;
    EXPECT_TRUE(anyContains((*phiInfo)["warnings"], "explicit longrope factor 8 disagrees"));
    // transformers v5 keeps the explicit factor: attention factor sqrt(1 + ln 8 / ln 4096).
    EXPECT_EQ((*phiInfo)["rope_by_layer_type"][0]["factor"], 8.0);
    EXPECT_NEAR((*phiInfo)["rope_by_layer_type"][0]["attention_factor"].get<double>(),
                std::sqrt(1.0 + 3.0 / 12.0), 1e-15);
}

TEST(RopeInfoTest, UnusableConfigsGiveOneLineErrors) {
    auto bad = ropeInfoFromText(R"({"hidden_size": 64, "num_attention_heads": 1,
        "rope_scaling": {"rope_type": "fope"}})");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message,
              "rope_scaling.rope_type 'fope' is not supported (supported: default, linear, "
              "dynamic, yarn, llama3, longrope, su, proportional, mrope)");
    EXPECT_EQ(bad.error().message.find('\n'), std::string::npos);
    auto badLength = ropeInfoFromText(R"({"hidden_size": 64, "num_attention_heads": 1})", -1);
    ASSERT_FALSE(badLength.ok());
    EXPECT_EQ(badLength.error().message.rfind("seq_len must be", 0), 0u);
}

TEST(RopeInfoTest, NopeLayersAreListed) {
    const nlohmann::json info = infoOf("smollm3-3b");
    EXPECT_EQ(info["nope_layers"], (std::vector<int>{3, 7, 11, 15, 19, 23, 27, 31, 35}));
    EXPECT_TRUE(info["layers"][3]["rope"].is_null());
    EXPECT_EQ(info["layers"][0]["rope"], "full_attention");
}

}  // namespace
}  // namespace poslab
