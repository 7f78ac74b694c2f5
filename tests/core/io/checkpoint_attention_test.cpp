// describeCheckpointAttention: heads, KV heads, head size, packing and tensor names from a
// fake checkpoint's config.json and safetensors headers (tests/core/io/fake_checkpoint.hpp),
// without reading a weight; the packings' names; a config it cannot use is refused in one line.
#include "poslab/io/checkpoint_attention.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "fake_checkpoint.hpp"

namespace poslab {
namespace {

namespace fs = std::filesystem;

struct TempDir {
    fs::path path = fs::temp_directory_path() / ("poslab_attention_" + std::to_string(::getpid()) +
                                                 "_" + std::to_string(counter++));
    ~TempDir() { fs::remove_all(path); }
    static inline int counter = 0;
};

TEST(CheckpointAttentionTest, DescribesTheLayersFromHeadersAlone) {
    TempDir dir;
    fake::Model m;  // llama: 2 layers, 4 heads, 2 KV heads, head_dim 16, q_proj + k_proj
    fake::writeModel(dir.path, m);
    auto attention = describeCheckpointAttention(dir.path.string());
    ASSERT_TRUE(attention.ok()) << attention.error().message;
    EXPECT_EQ(attention->layers, m.layers);
    EXPECT_EQ(attention->heads, m.heads);
    EXPECT_EQ(attention->kvHeads, m.kvHeads);
    EXPECT_EQ(attention->headDim, m.headDim);
    EXPECT_EQ(attention->packing, QkvPacking::Separate);
    ASSERT_EQ(attention->tensors.size(), std::size_t(m.layers));
    EXPECT_NE(attention->tensors[1].query.find("1"), std::string::npos);
    EXPECT_NE(attention->tensors[1].query.find("q_proj"), std::string::npos);
    EXPECT_NE(attention->tensors[1].key.find("k_proj"), std::string::npos);
    // Bytes of W_q and W_k: (heads + KV heads) x head_dim rows of hidden values per layer.
    const std::uint64_t rows = std::uint64_t(m.heads + m.kvHeads) * std::uint64_t(m.headDim);
    EXPECT_EQ(attention->qkBytes % (rows * std::uint64_t(m.hidden)), 0u);
}

TEST(CheckpointAttentionTest, PackingNamesSayWhereTheRowsAre) {
    EXPECT_STREQ(qkvPackingName(QkvPacking::Separate), "q_proj + k_proj");
    EXPECT_STREQ(qkvPackingName(QkvPacking::QkvBlocks), "fused qkv_proj [q | k | v]");
    EXPECT_STREQ(qkvPackingName(QkvPacking::PerHead),
                 "fused query_key_value, per head [q | k | v]");
}

TEST(CheckpointAttentionTest, ACheckpointWithoutConfigIsRefusedInOneLine) {
    TempDir dir;
    fake::writeModel(dir.path, fake::Model{});
    fs::remove(dir.path / "config.json");
    auto attention = describeCheckpointAttention(dir.path.string());
    ASSERT_FALSE(attention.ok());
    EXPECT_NE(attention.error().message.find("no config.json beside it"), std::string::npos)
        << attention.error().message;
    EXPECT_EQ(attention.error().message.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace poslab
