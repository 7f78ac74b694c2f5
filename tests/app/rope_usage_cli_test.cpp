// `poslab export rope-usage`, `poslab render rope-usage` and the checkpoint forms of issue 31
// (sharded index, timm's [1, N, D] pos_embed) on checkpoints written by the test
// (tests/core/io/fake_checkpoint.hpp): the numbers read back are the norms planted in the weights.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "../core/io/fake_checkpoint.hpp"
#include "process.hpp"

namespace poslab::test {
namespace {

namespace fs = std::filesystem;

class RopeUsageCliTest : public ::testing::Test {
  protected:
    std::string dir =
        temporaryDirectory(::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path(const std::string& name) const { return dir + "/" + name; }
    fake::Model model;  // 2 layers, 4 heads, 2 KV heads, head_dim 16, BF16
};

// The float64 payload of a .npy file and its shape text "(2, 4, 8)".
std::vector<double> npyValues(const std::string& bytes, std::string& shape) {
    std::uint16_t length = 0;
    std::memcpy(&length, bytes.data() + 8, 2);
    const std::string header = bytes.substr(10, length);
    const std::size_t open = header.find("'shape': (");
    shape = header.substr(open + 9, header.find(')', open) - open - 8);
    std::vector<double> values((bytes.size() - 10 - length) / 8);
    std::memcpy(values.data(), bytes.data() + 10 + length, values.size() * 8);
    return values;
}

TEST_F(RopeUsageCliTest, ExportsTheUsageCubeWithItsSidecar) {
    fake::writeModel(path("ckpt"), model);
    auto result =
        runPoslab({"export", "rope-usage", "--from", path("ckpt"), "--out", path("u.npy")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    std::string shape;
    const std::vector<double> values = npyValues(readFile(path("u.npy")), shape);
    EXPECT_EQ(shape, "(2, 4, 8)");
    ASSERT_EQ(values.size(), 2u * 4 * 8);
    for (int l = 0; l < 2; ++l) {
        for (int h = 0; h < 4; ++h) {
            for (int i = 0; i < 8; ++i) {
                const double expected = fake::storedNorm(model, fake::plantedQuery(l, h, i), i) *
                                        fake::storedNorm(model, fake::plantedKey(l, h / 2, i), i);
                EXPECT_NEAR(values[std::size_t((l * 4 + h) * 8 + i)], expected, 2e-6 * expected);
            }
        }
    }
    const auto sidecar = nlohmann::json::parse(readFile(path("u.npy.json")), nullptr, false);
    ASSERT_TRUE(sidecar.is_object());
    EXPECT_EQ(sidecar["axes"], nlohmann::json({"layer", "head", "pair"}));
    EXPECT_EQ(sidecar["shape"], nlohmann::json({2, 4, 8}));
    EXPECT_EQ(sidecar["pairing"], "half");
    EXPECT_EQ(sidecar["key_head_of_query_head"], nlohmann::json({0, 0, 1, 1}));
    EXPECT_NEAR(sidecar["wavelengths"][0].get<double>(), 2 * M_PI, 1e-12);
}

TEST_F(RopeUsageCliTest, JsonAndShardedCheckpointsGiveTheSameNumbers) {
    fake::writeModel(path("single"), model);
    model.shards = 2;
    fake::writeModel(path("sharded"), model);
    ASSERT_EQ(runPoslab({"export", "rope-usage", "--from", path("single"), "--out", path("a.json")})
                  .exitCode,
              0);
    auto sharded =
        runPoslab({"export", "rope-usage", "--from", path("sharded/model.safetensors.index.json"),
                   "--out", path("b.json")});
    ASSERT_EQ(sharded.exitCode, 0) << sharded.err;
    const auto a = nlohmann::json::parse(readFile(path("a.json")));
    const auto b = nlohmann::json::parse(readFile(path("b.json")));
    EXPECT_EQ(a["usage"], b["usage"]);
    EXPECT_EQ(a["usage"].size(), 2u);
    EXPECT_EQ(a["key_norm"][1].size(), 2u);  // layer 1: 2 KV heads
}

TEST_F(RopeUsageCliTest, RendersTheFigure) {
    fake::writeModel(path("ckpt"), model);
    auto result = runPoslab({"render", "rope-usage", "--from", path("ckpt"), "--layer", "1",
                             "--keep", "0.5", "--out", path("f.svg")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const std::string svg = readFile(path("f.svg"));
    EXPECT_NE(svg.find("<svg"), std::string::npos);
}

TEST_F(RopeUsageCliTest, BadInputIsRefusedInOneLineWithNoFile) {
    fake::writeModel(path("ckpt"), model);
    model.shards = 2;
    fake::writeModel(path("broken"), model);
    fs::remove(path("broken/model-00001-of-00002.safetensors"));
    struct Case {
        std::vector<std::string> arguments;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{"export", "rope-usage", "--out", path("x.npy")}, "--from PATH is required"},
        {{"export", "rope-usage", "--from", path("ckpt"), "--pairing", "odd", "--out",
          path("x.npy")},
         "--pairing must be half or interleaved (got 'odd')"},
        {{"export", "rope-usage", "--from", path("ckpt"), "--out", path("x.csv")},
         "--out must end in .npy"},
        {{"export", "rope-usage", "--from", path("broken"), "--out", path("x.npy")},
         "shard 'model-00001-of-00002.safetensors'"},
        {{"render", "rope-usage", "--from", path("ckpt"), "--layer", "2", "--out", path("x.png")},
         "--layer must be 0..1 (got 2)"}};
    for (const Case& c : cases) {
        auto result = runPoslab(c.arguments);
        EXPECT_EQ(result.exitCode, 2) << c.message;
        EXPECT_NE(result.err.find(c.message), std::string::npos) << result.err;
        EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    }
    EXPECT_FALSE(fileExists(path("x.npy")));
    EXPECT_FALSE(fileExists(path("x.npy.json")));
    EXPECT_FALSE(fileExists(path("x.png")));
}

// ---- Issue 31: checkpoints as users keep them
TEST_F(RopeUsageCliTest, ShardedCheckpointsAreListedAndTheirTablesRead) {
    // A GPT-2-like checkpoint in two shards: the position table in the second.
    fs::create_directories(path("gpt"));
    std::vector<double> table;
    for (int r = 0; r < 6; ++r) {
        for (int c = 0; c < 4; ++c) table.push_back(r + 0.25 * c);
    }
    fake::writeText(path("gpt/a.safetensors"),
                    fake::safetensorsBytes(
                        {{"transformer.wte.weight", "F32", {3, 4}, std::vector<double>(12, 1.0)}}));
    fake::writeText(path("gpt/b.safetensors"),
                    fake::safetensorsBytes({{"transformer.wpe.weight", "F32", {6, 4}, table}}));
    fake::writeText(path("gpt/model.safetensors.index.json"),
                    R"({"weight_map": {"transformer.wte.weight": "a.safetensors",
                                       "transformer.wpe.weight": "b.safetensors"}})");
    fake::writeText(path("gpt/config.json"), R"({"model_type": "gpt2"})");
    auto list = runPoslab({"export", "tensors", "--from", path("gpt/model.safetensors.index.json"),
                           "--out", path("t.csv")});
    ASSERT_EQ(list.exitCode, 0) << list.err;
    EXPECT_EQ(readFile(path("t.csv")),
              "name,dtype,shape\ntransformer.wte.weight,F32,\"[3, 4]\"\n"
              "transformer.wpe.weight,F32,\"[6, 4]\"\n");
    auto learned = runPoslab({"export", "learned", "--from",
                              path("gpt/model.safetensors.index.json"), "--out", path("l.npy")});
    ASSERT_EQ(learned.exitCode, 0) << learned.err;
    std::string shape;
    const std::vector<double> values = npyValues(readFile(path("l.npy")), shape);
    EXPECT_EQ(shape, "(6, 4)");
    ASSERT_EQ(values.size(), 24u);
    EXPECT_EQ(values[23], 5.75);
    // The folder works the same way.
    EXPECT_EQ(
        runPoslab({"export", "learned", "--from", path("gpt"), "--out", path("m.npy")}).exitCode,
        0);
}

TEST_F(RopeUsageCliTest, TimmPosEmbedIsReadWithItsClassTokenNamed) {
    // timm's vit_*_patch16: pos_embed [1, 1 + 2 x 2, D], row 0 the class token.
    fs::create_directories(path("vit"));
    fake::writeText(
        path("vit/model.safetensors"),
        fake::safetensorsBytes({{"pos_embed", "F32", {1, 5, 3}, std::vector<double>(15, 0.5)}}));
    auto result = runPoslab(
        {"export", "learned", "--from", path("vit/model.safetensors"), "--out", path("p.npy")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    std::string shape;
    npyValues(readFile(path("p.npy")), shape);
    EXPECT_EQ(shape, "(5, 3)");
    EXPECT_NE(result.err.find("row 0 is the class token; rows 1..4 are the 2 x 2 patches"),
              std::string::npos)
        << result.err;
}

}  // namespace
}  // namespace poslab::test
