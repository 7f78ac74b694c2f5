// `poslab export rope-info`, --layer-type and `poslab render rope-layers|rope-precision` on the
// real config.json files in tests/data/configs, checked against the values those files hold (or
// the transformers defaults they leave implicit), written out here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "poslab/io/csv.hpp"
#include "process.hpp"

namespace poslab::test {
namespace {

std::string configPath(const std::string& model) {
    return std::string(POSLAB_TEST_DATA_DIR) + "/configs/" + model + ".json";
}

class RopeInfoCliTest : public ::testing::Test {
  protected:
    std::string dir =
        temporaryDirectory(::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path(const std::string& name) const { return dir + "/" + name; }
    int filesInDir() const {
        return int(std::distance(std::filesystem::directory_iterator(dir), {}));
    }
    nlohmann::json info(const std::string& model, std::vector<std::string> extra = {}) {
        std::vector<std::string> arguments = {"export",          "rope-info", "--config",
                                              configPath(model), "--out",     path("info.json")};
        arguments.insert(arguments.end(), extra.begin(), extra.end());
        auto result = runPoslab(arguments);
        EXPECT_EQ(result.exitCode, 0) << result.err;
        return nlohmann::json::parse(readFile(path("info.json")), nullptr, false);
    }
    static const nlohmann::json* variant(const nlohmann::json& info, const std::string& type) {
        for (const auto& v : info["rope_by_layer_type"]) {
            if (v["layer_type"] == type) return &v;
        }
        return nullptr;
    }
};

TEST_F(RopeInfoCliTest, Llama31HasItsHeadDimBaseAndLlama3Factor) {
    const nlohmann::json j = info("llama-3.1-8b");
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["head_dim"], 128);  // hidden_size 4096 / 32 heads
    EXPECT_EQ(j["base"], 500000.0);
    EXPECT_EQ(j["rope_type"], "llama3");
    EXPECT_EQ(j["max_position_embeddings"], 131072);
    EXPECT_EQ(j["original_max_position_embeddings"], 8192);
    EXPECT_EQ(j["num_layers"], 32);
    const nlohmann::json* full = variant(j, "full_attention");
    ASSERT_NE(full, nullptr);
    EXPECT_EQ((*full)["factor"], 8.0);
    ASSERT_EQ((*full)["inv_freq"].size(), 64u);
    // Pair 0 has wavelength 2 pi < 8192 / 4: llama3 keeps it, 1 / 500000^0.
    EXPECT_NEAR((*full)["inv_freq"][0].get<double>(), 1.0, 1e-15);
    // The last pair, wavelength 2 pi 500000^(126/128) > 8192: divided by the factor 8.
    const double last = 1.0 / std::pow(500000.0, 126.0 / 128.0) / 8.0;
    EXPECT_NEAR((*full)["inv_freq"][63].get<double>(), last, 1e-12 * last);
    EXPECT_EQ(filesInDir(), 1);
}

TEST_F(RopeInfoCliTest, Gemma3HasTwoLayerTypesWithTheirOwnRope) {
    const nlohmann::json j = info("gemma-3-4b-it");
    ASSERT_TRUE(j.is_object());
    // Gemma3TextConfig defaults: head_dim 256, rope_theta 1e6, rope_local_base_freq 1e4,
    // sliding_window_pattern 6 (every sixth layer full); the file sets 34 layers, window 1024,
    // and linear x8 for the global layers.
    EXPECT_EQ(j["head_dim"], 256);
    EXPECT_EQ(j["num_layers"], 34);
    const nlohmann::json* full = variant(j, "full_attention");
    const nlohmann::json* sliding = variant(j, "sliding_attention");
    ASSERT_NE(full, nullptr);
    ASSERT_NE(sliding, nullptr);
    EXPECT_EQ((*full)["base"], 1000000.0);
    EXPECT_EQ((*full)["rope_type"], "linear");
    EXPECT_EQ((*full)["factor"], 8.0);
    EXPECT_EQ((*sliding)["base"], 10000.0);
    EXPECT_EQ((*sliding)["rope_type"], "none");
    int fullLayers = 0;
    for (const auto& layer : j["layers"]) {
        const int index = layer["index"];
        const bool isFull = (index + 1) % 6 == 0;
        EXPECT_EQ(layer["window"], isFull ? "full" : "sliding") << "layer " << index;
        if (!isFull) {
            EXPECT_EQ(layer["sliding_window"], 1024) << "layer " << index;
        }
        fullLayers += isFull ? 1 : 0;
    }
    EXPECT_EQ(fullLayers, 5);  // layers 5, 11, 17, 23, 29
}

TEST_F(RopeInfoCliTest, Phi35SwitchesLongRopeListPastTheOriginalContext) {
    // Phi-3.5-mini: original_max_position_embeddings 4096; short_factor up to it, long past it.
    EXPECT_EQ((*variant(info("phi-3.5-mini-instruct", {"--seq-len", "4096"}),
                        "full_attention"))["longrope_list"],
              "short");
    const nlohmann::json j = info("phi-3.5-mini-instruct", {"--seq-len", "4097"});
    EXPECT_EQ((*variant(j, "full_attention"))["longrope_list"], "long");
    // attention factor sqrt(1 + ln(131072 / 4096) / ln 4096)
    const double expected = std::sqrt(1.0 + std::log(32.0) / std::log(4096.0));
    EXPECT_NEAR((*variant(j, "full_attention"))["attention_factor"].get<double>(), expected, 1e-12);
}

TEST_F(RopeInfoCliTest, BadConfigGetsOneLineAndNoFile) {
    std::ofstream(path("bad.json")) << R"({"model_type": "llama", "hidden_size": 4096})";
    auto result = runPoslab(
        {"export", "rope-info", "--config", path("bad.json"), "--out", path("info.json")});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    EXPECT_NE(result.err.find("num_attention_heads"), std::string::npos) << result.err;
    EXPECT_FALSE(fileExists(path("info.json")));
}

TEST_F(RopeInfoCliTest, RefusesOtherExtensionsAndAMissingConfig) {
    auto wrongExtension = runPoslab(
        {"export", "rope-info", "--config", configPath("phi-2"), "--out", path("info.csv")});
    EXPECT_EQ(wrongExtension.exitCode, 2);
    EXPECT_NE(wrongExtension.err.find(".json"), std::string::npos) << wrongExtension.err;
    auto noConfig = runPoslab({"export", "rope-info", "--out", path("info.json")});
    EXPECT_EQ(noConfig.exitCode, 2);
    EXPECT_NE(noConfig.err.find("--config"), std::string::npos) << noConfig.err;
    EXPECT_EQ(filesInDir(), 0);
}

TEST_F(RopeInfoCliTest, HelpManualAndCompletionsListIt) {
    EXPECT_NE(runPoslab({"export", "--help"}).out.find("rope-info"), std::string::npos);
    EXPECT_NE(runPoslab({"--manual"}).out.find("rope\\-info"), std::string::npos);
    EXPECT_NE(runPoslab({"--completions", "bash"}).out.find("rope-info"), std::string::npos);
    EXPECT_NE(runPoslab({"--completions", "zsh"}).out.find("rope-info"), std::string::npos);
    EXPECT_NE(runPoslab({"render", "--help"}).out.find("rope-precision"), std::string::npos);
    EXPECT_NE(runPoslab({"render", "--help"}).out.find("rope-layers"), std::string::npos);
}

TEST_F(RopeInfoCliTest, LayerTypePicksTheSlidingLayersRope) {
    // Gemma 3's sliding layers: base 10000, unscaled: theta_i = 10000^(-2i/256).
    auto sliding = runPoslab({"export", "rope-freqs", "--config", configPath("gemma-3-4b-it"),
                              "--layer-type", "sliding_attention", "--out", path("f.csv")});
    ASSERT_EQ(sliding.exitCode, 0) << sliding.err;
    auto table = parseCsv(readFile(path("f.csv")));
    ASSERT_TRUE(table.ok());
    ASSERT_EQ(table->rows, 128u);
    EXPECT_NEAR((*table)(10, 0), std::pow(10000.0, -20.0 / 256), 1e-15);
    // The default, full attention: base 1e6 and linear x8 divide every frequency by 8.
    auto full = runPoslab(
        {"export", "rope-freqs", "--config", configPath("gemma-3-4b-it"), "--out", path("f.csv")});
    ASSERT_EQ(full.exitCode, 0) << full.err;
    EXPECT_NE(full.err.find("full_attention"), std::string::npos) << "the default is stated";
    table = parseCsv(readFile(path("f.csv")));
    ASSERT_TRUE(table.ok());
    EXPECT_NEAR((*table)(10, 0), std::pow(1e6, -20.0 / 256) / 8, 1e-15);
    // A single-RoPE model says nothing extra.
    auto llama = runPoslab(
        {"export", "rope-freqs", "--config", configPath("llama-3.1-8b"), "--out", path("f.csv")});
    EXPECT_EQ(llama.err, "");
}

TEST_F(RopeInfoCliTest, UnknownLayerTypeListsTheValidOnes) {
    auto result = runPoslab({"export", "rope-freqs", "--config", configPath("gemma-3-4b-it"),
                             "--layer-type", "local", "--out", path("f.csv")});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("sliding_attention"), std::string::npos) << result.err;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    auto noConfig = runPoslab({"export", "rope-freqs", "--head-dim", "64", "--layer-type",
                               "full_attention", "--out", path("f.csv")});
    EXPECT_EQ(noConfig.exitCode, 2);
    EXPECT_EQ(filesInDir(), 0);
}

TEST_F(RopeInfoCliTest, RendersLayersAndPrecision) {
    auto layers = runPoslab({"render", "rope-layers", "--config", configPath("gemma-3-4b-it"),
                             "--out", path("layers.svg")});
    ASSERT_EQ(layers.exitCode, 0) << layers.err;
    const std::string svg = readFile(path("layers.svg"));
    EXPECT_NE(svg.find("svg"), std::string::npos);
    auto precision =
        runPoslab({"render", "rope-precision", "--head-dim", "64", "--max-position", "4096",
                   "--formats", "bfloat16,float16", "--out", path("precision.png")});
    ASSERT_EQ(precision.exitCode, 0) << precision.err;
    EXPECT_GT(loadPng(path("precision.png")).width, 0);
    auto tooFar = runPoslab(
        {"render", "rope-precision", "--max-position", "2000000", "--out", path("x.png")});
    EXPECT_EQ(tooFar.exitCode, 2);
    EXPECT_NE(tooFar.err.find("--max-position must be 1..262144"), std::string::npos) << tooFar.err;
    // Within the range, but 64 pairs x 262145 positions x 3 formats is over the scan's limit.
    auto tooMany =
        runPoslab({"render", "rope-precision", "--max-position", "262144", "--out", path("x.png")});
    EXPECT_EQ(tooMany.exitCode, 2);
    EXPECT_NE(tooMany.err.find("over the limit of 33554432: lower --max-position"),
              std::string::npos)
        << tooMany.err;
    auto badFormat =
        runPoslab({"render", "rope-precision", "--formats", "float8", "--out", path("x.png")});
    EXPECT_EQ(badFormat.exitCode, 2);
    EXPECT_NE(badFormat.err.find("float8"), std::string::npos) << badFormat.err;
    EXPECT_FALSE(fileExists(path("x.png")));
}

// ---- Layers without RoPE (Llama 4, EXAONE 4, Qwen3-Next): refused with the reason, listed.

TEST_F(RopeInfoCliTest, NoRopeLayerTypesAreRefusedWithTheReason) {
    struct Case {
        const char* model;
        const char* layerType;
        const char* message;
    };
    const Case cases[] = {
        {"llama-4-maverick-17b-128e-instruct", "full_attention",
         "layer type full_attention has no RoPE in this model (no_rope_layers)"},
        {"llama-4-scout-17b-16e-instruct", "full_attention",
         "layer type full_attention has no RoPE in this model (no_rope_layer_interval 4)"},
        {"exaone-4.0-32b", "full_attention",
         "layer type full_attention has no RoPE in this model (global NoPE: sliding_window is "
         "set)"},
        {"qwen3-next-80b-a3b-instruct", "linear_attention",
         "layer type linear_attention has no RoPE in this model (linear attention"},
    };
    for (const Case& c : cases) {
        auto result = runPoslab({"export", "rope-freqs", "--config", configPath(c.model),
                                 "--layer-type", c.layerType, "--out", path("f.csv")});
        EXPECT_EQ(result.exitCode, 2) << c.model;
        EXPECT_NE(result.err.find(c.message), std::string::npos) << result.err;
        EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
        EXPECT_EQ(filesInDir(), 0) << c.model;
    }
}

TEST_F(RopeInfoCliTest, Llama4ChunkedAttentionIsALayerTypeWithRope) {
    auto result =
        runPoslab({"export", "rope-freqs", "--config", configPath("llama-4-scout-17b-16e-instruct"),
                   "--layer-type", "chunked_attention", "--out", path("f.csv")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    auto table = parseCsv(readFile(path("f.csv")));
    ASSERT_TRUE(table.ok());
    ASSERT_EQ(table->rows, 64u);
    // Pair 63: wavelength 2 pi 500000^(126/128) > 8192, so llama3 divides it by 16.
    EXPECT_NEAR((*table)(63, 0), std::pow(500000.0, -126.0 / 128) / 16, 1e-18);
    // Pair 0 keeps theta = 1 (wavelength 2 pi, far below 8192).
    EXPECT_NEAR((*table)(0, 0), 1.0, 1e-15);
}

TEST_F(RopeInfoCliTest, RopeInfoListsEveryLayerTypeAndTheTemperature) {
    const nlohmann::json j = info("llama-4-scout-17b-16e-instruct");
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["default_layer_type"], "chunked_attention");
    ASSERT_EQ(j["layer_types"].size(), 2u);
    EXPECT_EQ(j["layer_types"][0]["layer_type"], "chunked_attention");
    EXPECT_EQ(j["layer_types"][0]["layers"], 36);
    EXPECT_EQ(j["layer_types"][1]["layer_type"], "full_attention");
    EXPECT_TRUE(j["layer_types"][1]["rope"].is_null());
    EXPECT_EQ(j["layers"][3]["no_rope_reason"], "no_rope_layer_interval 4");
    EXPECT_EQ(j["layers"][0]["attention_chunk_size"], 8192);
    // 1 + 0.1 ln(floor(1e7 / 8192) + 1) = 1 + 0.1 ln 1221 at position 9,999,999.
    const auto& samples = j["nope_attention_temperature"]["samples"];
    EXPECT_NEAR(samples[4]["scale"].get<double>(), 1 + 0.1 * std::log(1221.0), 1e-6);
    const nlohmann::json next = info("qwen3-next-80b-a3b-instruct");
    EXPECT_EQ(next["layer_types"][0]["layer_type"], "linear_attention");
    EXPECT_EQ(next["layer_types"][0]["layers_with_rope"], 0);
    EXPECT_EQ(next["layers"][0]["window"], "linear");
}

TEST_F(RopeInfoCliTest, EveryRecentModelConfigLoadsAndRendersItsLayers) {
    for (const char* model :
         {"llama-4-scout-17b-16e-instruct", "llama-4-maverick-17b-128e-instruct",
          "gemma-4-26b-a4b-it", "gpt-oss-20b", "qwen3-next-80b-a3b-instruct",
          "qwen3-vl-8b-instruct", "exaone-4.0-32b", "olmo-3-32b-think",
          "mistral-small-3.1-24b-instruct-2503", "devstral-small-2507", "kimi-k2-instruct",
          "minimax-m2"}) {
        auto result = runPoslab(
            {"render", "rope-layers", "--config", configPath(model), "--out", path("layers.svg")});
        EXPECT_EQ(result.exitCode, 0) << model << ": " << result.err;
    }
}

}  // namespace
}  // namespace poslab::test
