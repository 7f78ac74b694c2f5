#include "poslab/io/safetensors_index.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "fake_checkpoint.hpp"

namespace poslab {
namespace {

namespace fs = std::filesystem;

class IndexDir : public ::testing::Test {
  protected:
    fs::path dir = fs::temp_directory_path() /
                   ("poslab_index_" + std::to_string(::getpid()) + "_" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name());
    void SetUp() override { fs::create_directories(dir); }
    void TearDown() override { fs::remove_all(dir); }
    fake::Model sharded() const {
        fake::Model m;
        m.shards = 2;
        return m;
    }
};

TEST(SafetensorsIndexTest, RecognisesPathKinds) {
    EXPECT_TRUE(isSafetensorsIndexPath("a/model.safetensors.index.json"));
    EXPECT_TRUE(isSafetensorsIndexPath("X.SAFETENSORS.INDEX.JSON"));
    EXPECT_FALSE(isSafetensorsIndexPath("config.json"));
    EXPECT_TRUE(isSafetensorsFilePath("m.safetensors"));
    EXPECT_FALSE(isSafetensorsFilePath("m.safetensors.index.json"));
}

TEST(SafetensorsIndexTest, ParsesTheWeightMapInOrder) {
    auto map = parseSafetensorsIndex(
        R"({"metadata": {"total_size": 12}, "weight_map": {"b": "s2.safetensors", "a": "s1.safetensors"}})");
    ASSERT_TRUE(map.ok()) << map.error().message;
    ASSERT_EQ(map->size(), 2u);
    EXPECT_EQ((*map)[0], (std::pair<std::string, std::string>{"b", "s2.safetensors"}));
    EXPECT_EQ((*map)[1].first, "a");
}

TEST(SafetensorsIndexTest, RefusesMalformedIndexesInOneLine) {
    for (const auto& [text, part] : std::vector<std::pair<std::string, std::string>>{
             {"[1]", "not a JSON object"},
             {"{", "not valid JSON"},
             {R"({"metadata": {}})", "no \"weight_map\""},
             {R"({"weight_map": []})", "must be an object"},
             {R"({"weight_map": {}})", "is empty"},
             {R"({"weight_map": {"a": 3}})", "must name a shard file"},
             {R"({"weight_map": {"a": "../b.safetensors"}})", "outside the checkpoint's folder"},
             {R"({"weight_map": {"a": "/etc/passwd"}})", "outside the checkpoint's folder"},
             {R"({"weight_map": {"a": ".."}})", "outside the checkpoint's folder"}}) {
        auto map = parseSafetensorsIndex(text, "i.json");
        ASSERT_FALSE(map.ok()) << text;
        EXPECT_NE(map.error().message.find(part), std::string::npos) << map.error().message;
        EXPECT_EQ(map.error().message.rfind("i.json: ", 0), 0u) << map.error().message;
        EXPECT_EQ(map.error().message.find('\n'), std::string::npos);
    }
}

TEST_F(IndexDir, ListsEveryTensorOfEveryShard) {
    const fake::Model m = sharded();
    fake::writeModel(dir, m);
    for (const std::string& path :
         {dir.string(), (dir / "model.safetensors.index.json").string()}) {
        auto checkpoint = openCheckpoint(path);
        ASSERT_TRUE(checkpoint.ok()) << checkpoint.error().message;
        EXPECT_TRUE(checkpoint->sharded);
        EXPECT_EQ(checkpoint->shards.size(), 2u);
        // embed + 5 tensors per layer (q, k, v, o, up) x 2 layers
        EXPECT_EQ(checkpoint->tensors.size(), 11u);
        EXPECT_EQ(fs::path(checkpointShardOf(*checkpoint, "model.layers.1.self_attn.q_proj.weight"))
                      .filename(),
                  "model-00002-of-00002.safetensors");
    }
    auto list = listCheckpointTensors(dir.string());
    ASSERT_TRUE(list.ok());
    EXPECT_EQ(list->front().name, "model.embed_tokens.weight");
}

TEST_F(IndexDir, ReadsATensorFromItsShard) {
    fake::writeModel(dir, sharded());
    auto table = readCheckpointTensor((dir / "model.safetensors.index.json").string(),
                                      "model.layers.1.self_attn.v_proj.weight");
    ASSERT_TRUE(table.ok()) << table.error().message;
    EXPECT_EQ(table->rows, 32u);
    EXPECT_EQ(table->cols, 24u);
    EXPECT_EQ(table->values[0], 7.0);
    auto missing = readCheckpointTensor(dir.string(), "nope");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("no tensor named 'nope'"), std::string::npos);
}

TEST_F(IndexDir, RefusesAMissingShardOrATensorItsShardLacks) {
    fake::writeModel(dir, sharded());
    fake::writeText(dir / "model.safetensors.index.json",
                    R"({"weight_map": {"ghost": "model-00001-of-00002.safetensors"}})");
    auto lacking = openCheckpoint(dir.string());
    ASSERT_FALSE(lacking.ok());
    EXPECT_NE(lacking.error().message.find("places 'ghost' in 'model-00001-of-00002.safetensors'"),
              std::string::npos)
        << lacking.error().message;
    fake::writeText(dir / "model.safetensors.index.json",
                    R"({"weight_map": {"x": "model-00009-of-00009.safetensors"}})");
    auto missing = openCheckpoint(dir.string());
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("shard 'model-00009-of-00009.safetensors'"),
              std::string::npos);
}

TEST_F(IndexDir, AFolderWithoutCheckpointIsRefused) {
    auto empty = openCheckpoint(dir.string());
    ASSERT_FALSE(empty.ok());
    EXPECT_NE(empty.error().message.find("no model.safetensors"), std::string::npos);
    fake::writeText(dir / "a.safetensors", fake::safetensorsBytes({}));
    fake::writeText(dir / "b.safetensors", fake::safetensorsBytes({}));
    auto ambiguous = openCheckpoint(dir.string());
    ASSERT_FALSE(ambiguous.ok());
    EXPECT_NE(ambiguous.error().message.find("2 .safetensors files"), std::string::npos);
}

}  // namespace
}  // namespace poslab
