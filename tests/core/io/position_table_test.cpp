#include "poslab/io/position_table.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "safetensors_files.hpp"

namespace poslab {
namespace {

using namespace safetensors_files;

// ---- The position table and the offsets

TEST(PositionTableTest, FindsThePositionTableAtANameBoundary) {
    EXPECT_TRUE(isPositionTableName("transformer.wpe.weight"));
    EXPECT_TRUE(isPositionTableName("wpe.weight"));
    EXPECT_TRUE(isPositionTableName("model.decoder.embed_positions.weight"));
    EXPECT_TRUE(isPositionTableName("roberta.embeddings.position_embeddings.weight"));
    EXPECT_FALSE(isPositionTableName("transformer.xwpe.weight"));
    EXPECT_FALSE(isPositionTableName("transformer.wte.weight"));

    const std::string bytes =
        safetensorsFile({{"transformer.wte.weight", "F32", "[1, 2]", f32x(2)},
                         {"transformer.xwpe.weight", "F32", "[1, 2]", f32x(2)},
                         {"transformer.wpe.weight", "F32", "[3, 2]", f32x(6)},
                         {"other.wpe.weight", "F32", "[1, 2]", f32x(2)}});
    auto header = parseSafetensors(bytes, "gpt2.safetensors");
    ASSERT_TRUE(header);
    auto found = findPositionTable(*header, "gpt2.safetensors");
    ASSERT_TRUE(found);
    EXPECT_EQ(*found, "transformer.wpe.weight");  // the first in header order

    auto none = safetensorsFile({{"a", "F32", "[1]", f32x(1)}, {"b", "F32", "[1]", f32x(1)}});
    auto noneHeader = parseSafetensors(none, "x.safetensors");
    ASSERT_TRUE(noneHeader);
    auto missing = findPositionTable(*noneHeader, "x.safetensors");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().message,
              "x.safetensors: no tensor named like a position table (*wpe.weight, "
              "*position_embeddings.weight, *embed_positions.weight, ...) among 2 tensors (a, b)");
}

TEST(PositionTableTest, OffsetsFollowTheModelType) {
    // OPTLearnedPositionalEmbedding: offset 2 whatever the pad token.
    auto opt = positionOffsetFromConfig(R"({"model_type": "opt", "pad_token_id": 1})");
    ASSERT_TRUE(opt);
    EXPECT_EQ(opt->rowsToDrop, 2);
    EXPECT_EQ(opt->note, "opt stores position p in row p + 2: the first 2 rows dropped");
    // RoBERTa: positions count from padding_idx + 1.
    auto roberta = positionOffsetFromConfig(R"({"model_type": "roberta", "pad_token_id": 1})");
    ASSERT_TRUE(roberta);
    EXPECT_EQ(roberta->rowsToDrop, 2);
    auto xlmr = positionOffsetFromConfig(R"({"model_type": "xlm-roberta", "pad_token_id": 5})");
    ASSERT_TRUE(xlmr);
    EXPECT_EQ(xlmr->rowsToDrop, 6);
    EXPECT_EQ(xlmr->note,
              "xlm-roberta counts positions from pad_token_id + 1 = 6: the first 6 rows dropped");
    auto underscore = positionOffsetFromConfig(R"({"model_type": "xlm_roberta"})");
    ASSERT_TRUE(underscore);
    EXPECT_EQ(underscore->rowsToDrop, 2);
    auto gpt2 = positionOffsetFromConfig(R"({"model_type": "gpt2", "pad_token_id": null})");
    ASSERT_TRUE(gpt2);
    EXPECT_EQ(gpt2->rowsToDrop, 0);
    EXPECT_EQ(gpt2->note, "gpt2: row i is position i");
    auto bert = positionOffsetFromConfig(R"({"model_type": "bert", "pad_token_id": 0})");
    ASSERT_TRUE(bert);
    EXPECT_EQ(bert->rowsToDrop, 0);

    auto bad = positionOffsetFromConfig(R"({"model_type": "roberta", "pad_token_id": -3})");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message, "pad_token_id must be an integer 0..1000000 (got -3)");
}

TEST(PositionTableTest, LoadPositionTableDropsTheOffsetRows) {
    TempDir dir;
    std::vector<float> rows;
    for (int r = 0; r < 5; ++r) rows.insert(rows.end(), {float(r), float(10 * r)});
    const std::string path =
        dir.write("model.safetensors",
                  safetensorsFile(
                      {{"model.decoder.embed_tokens.weight", "F32", "[1, 2]", f32x(2)},
                       {"model.decoder.embed_positions.weight", "F32", "[5, 2]", bytesOf(rows)}}));
    auto noConfig = loadPositionTable(path);
    ASSERT_TRUE(noConfig) << noConfig.error().message;
    EXPECT_EQ(noConfig->table.rows, 5u);
    EXPECT_EQ(noConfig->offset.rowsToDrop, 0);

    dir.write("config.json", R"({"model_type": "opt", "pad_token_id": 1})");
    auto opt = loadPositionTable(path);
    ASSERT_TRUE(opt) << opt.error().message;
    EXPECT_EQ(opt->tensor, "model.decoder.embed_positions.weight");
    ASSERT_EQ(opt->table.rows, 3u);
    EXPECT_EQ(opt->table(0, 0), 2.0);  // position 0 is row 2
    EXPECT_EQ(opt->table(2, 1), 40.0);

    dir.write("config.json", R"({"model_type": "roberta", "pad_token_id": 4})");
    auto tooFew = loadPositionTable(path);
    ASSERT_FALSE(tooFew);
    EXPECT_EQ(tooFew.error().message,
              path +
                  ": tensor 'model.decoder.embed_positions.weight': 5 rows, but roberta counts "
                  "positions from pad_token_id + 1 = 5: the first 5 rows dropped");

    dir.write("config.json", "{not json");
    auto badConfig = loadPositionTable(path);
    ASSERT_FALSE(badConfig);
    EXPECT_EQ(badConfig.error().message.rfind(
                  (std::filesystem::path(path).parent_path() / "config.json").string() +
                      ": config is not valid JSON",
                  0),
              0u);
}

TEST(PositionTableTest, NamedTensorsThatAreNotPositionTablesKeepEveryRow) {
    // OPT's offset of 2 belongs to embed_positions; --tensor embed_tokens must keep all rows.
    TempDir dir;
    const std::string path = dir.write(
        "model.safetensors",
        safetensorsFile({{"model.decoder.embed_tokens.weight", "F32", "[4, 2]", f32x(8)},
                         {"model.decoder.embed_positions.weight", "F32", "[4, 2]", f32x(8)}}));
    dir.write("config.json", R"({"model_type": "opt"})");
    auto tokens = loadPositionTable(path, "model.decoder.embed_tokens.weight");
    ASSERT_TRUE(tokens) << tokens.error().message;
    EXPECT_EQ(tokens->table.rows, 4u);
    EXPECT_EQ(tokens->offset.rowsToDrop, 0);
    EXPECT_NE(tokens->offset.note.find("is not a position table: every row kept"),
              std::string::npos)
        << tokens->offset.note;
    auto positions = loadPositionTable(path, "model.decoder.embed_positions.weight");
    ASSERT_TRUE(positions);
    EXPECT_EQ(positions->table.rows, 2u);
}

}  // namespace
}  // namespace poslab
