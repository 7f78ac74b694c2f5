// `poslab export rope-info`, --layer-type and `poslab render rope-layers|rope-precision` on the
// real config.json files in tests/data/configs, checked against the values those files hold (or
// the transformers defaults they leave implicit), written out here.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace poslab::test
