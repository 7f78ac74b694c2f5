#include "poslab/io/checkpoint_reader.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <tuple>

#include "../views/figure_checks.hpp"  // finishesPromptly
#include "fake_checkpoint.hpp"
#include "poslab/analysis/rope_usage.hpp"

namespace poslab {
namespace {

namespace fs = std::filesystem;

class CheckpointDir {
  public:
    CheckpointDir() {
        path_ = fs::temp_directory_path() / ("poslab_checkpoint_" + std::to_string(::getpid()) +
                                             "_" + std::to_string(counter_++));
    }
    ~CheckpointDir() { fs::remove_all(path_); }
    const fs::path& path() const { return path_; }

  private:
    static inline int counter_ = 0;
    fs::path path_;
};

struct Measured {
    CheckpointAttention attention;
    QkRowSquares rows;
    RopeUsage usage;
};

Measured measure(const std::string& path, AttentionOverrides overrides = {}) {
    auto attention = describeCheckpointAttention(path, overrides);
    EXPECT_TRUE(attention.ok()) << attention.error().message;
    auto rows = readQkRowSquares(*attention);
    EXPECT_TRUE(rows.ok()) << rows.error().message;
    ProjectionRowSquares input{rows->layers,
                               rows->heads,
                               rows->kvHeads,
                               rows->headDim,
                               rotatedDims(attention->config.rope),
                               attention->config.rope.pairing,
                               &rows->query,
                               &rows->key};
    auto usage = ropeUsage(input);
    EXPECT_TRUE(usage.ok()) << usage.error().message;
    return {*attention, *rows, *usage};
}

std::string checkpointErrorOf(const std::string& path, AttentionOverrides overrides = {}) {
    auto attention = describeCheckpointAttention(path, overrides);
    if (!attention) return attention.error().message;
    auto rows = readQkRowSquares(*attention);
    return rows ? std::string("(no error)") : rows.error().message;
}

// The measure recovers the planted norms: exactly the stored (rounded) weights' norms, up to
// the float summation (relative 1e-6), and the planted values to the dtype's rounding.
void expectPlanted(const fake::Model& m, const Measured& got) {
    const double storage = m.dtype == "BF16" ? std::ldexp(1.0, -8) : 1e-6;
    ASSERT_EQ(got.usage.layers, m.layers);
    ASSERT_EQ(got.usage.heads, m.heads);
    ASSERT_EQ(got.usage.kvHeads, m.kvHeads);
    ASSERT_EQ(got.usage.pairs, m.rotatedDims / 2);
    for (int l = 0; l < m.layers; ++l) {
        for (int h = 0; h < m.heads; ++h) {
            const int g = h / (m.heads / m.kvHeads);  // repeat_kv's grouping, written out
            for (int i = 0; i < m.rotatedDims / 2; ++i) {
                const double q = fake::storedNorm(m, fake::plantedQuery(l, h, i), i);
                const double k = fake::storedNorm(m, fake::plantedKey(l, g, i), i);
                const std::size_t at = (std::size_t(l) * m.heads + h) * (m.rotatedDims / 2) + i;
                EXPECT_NEAR(got.usage.query[at], q, 1e-6 * q) << l << " " << h << " " << i;
                EXPECT_NEAR(got.usage.at(l, h, i), q * k, 2e-6 * q * k);
                EXPECT_NEAR(got.usage.query[at], fake::plantedQuery(l, h, i),
                            storage * fake::plantedQuery(l, h, i));
                EXPECT_NEAR(got.usage.at(l, h, i),
                            fake::plantedQuery(l, h, i) * fake::plantedKey(l, g, i),
                            3 * storage * q * k);
            }
        }
    }
}

// ---- Recovery across dtypes, shards and packings
using Case = std::tuple<std::string, int, fake::Packing>;  // dtype, shards, packing
class PlantedNorms : public ::testing::TestWithParam<Case> {};

TEST_P(PlantedNorms, AreRecoveredFromTheWeights) {
    CheckpointDir dir;
    fake::Model m;
    m.dtype = std::get<0>(GetParam());
    m.shards = std::get<1>(GetParam());
    m.packing = std::get<2>(GetParam());
    m.layers = 3;
    if (m.packing == fake::Packing::QkvBlocks) m.modelType = "phi3";
    if (m.packing == fake::Packing::NeoxPerHead) m.modelType = "gpt_neox", m.kvHeads = m.heads;
    if (m.packing == fake::Packing::FalconMultiQuery) m.modelType = "falcon", m.kvHeads = 1;
    if (m.packing == fake::Packing::FalconGrouped) m.modelType = "falcon";
    const std::string path = fake::writeModel(dir.path(), m);
    const Measured got = measure(path);
    expectPlanted(m, got);
    // Only q and k rows are read: (heads + kvHeads) x head_dim rows of hidden per layer.
    const std::uint64_t element = m.dtype == "BF16" ? 2 : 4;
    EXPECT_EQ(got.rows.bytesRead,
              std::uint64_t(m.layers) * (m.heads + m.kvHeads) * m.headDim * m.hidden * element);
    EXPECT_EQ(got.attention.qkBytes, got.rows.bytesRead);
}

INSTANTIATE_TEST_SUITE_P(Checkpoints, PlantedNorms,
                         ::testing::Values(Case{"BF16", 1, fake::Packing::Separate},
                                           Case{"F32", 1, fake::Packing::Separate},
                                           Case{"BF16", 2, fake::Packing::Separate},
                                           Case{"F32", 3, fake::Packing::Separate},
                                           Case{"BF16", 1, fake::Packing::QkvBlocks},
                                           Case{"F32", 2, fake::Packing::NeoxPerHead},
                                           Case{"BF16", 1, fake::Packing::FalconMultiQuery},
                                           Case{"BF16", 2, fake::Packing::FalconGrouped}));

TEST(CheckpointReaderTest, PartialRotaryCountsOnlyTheRotatedPairs) {
    CheckpointDir dir;
    fake::Model m;
    m.modelType = "phi";  // Phi-2: partial_rotary_factor 0.4 of its heads
    m.rotatedDims = 8;    // of 16: rows 8..15 are NoPE (filled with 3s) and must not count
    const Measured got = measure(fake::writeModel(dir.path(), m));
    expectPlanted(m, got);
}

TEST(CheckpointReaderTest, InterleavedRowsWithInterleavedPairingGiveTheSameUsage) {
    // The same weights stored two ways: HF-permuted for rotate_half (Llama), and in the original
    // (2i, 2i+1) order read as GPT-J reads it. The usage must agree exactly.
    CheckpointDir half, interleaved, overridden;
    fake::Model m;
    const Measured a = measure(fake::writeModel(half.path(), m));
    m.interleavedRows = true;
    m.modelType = "gptj";
    m.extraConfig = ", \"rotary_dim\": 16";  // GPT-J's class default is 64 of its 256
    const Measured b = measure(fake::writeModel(interleaved.path(), m));
    EXPECT_EQ(b.attention.config.rope.pairing, RopePairing::Interleaved);
    EXPECT_EQ(a.usage.usage, b.usage.usage);
    m.modelType = "llama";  // the same rows, pairing named on the command line
    m.extraConfig.clear();
    const Measured c = measure(fake::writeModel(overridden.path(), m),
                               AttentionOverrides{RopePairing::Interleaved});
    EXPECT_EQ(a.usage.usage, c.usage.usage);
    // Read with the wrong pairing, the norms differ: the layout matters.
    const Measured wrong = measure(overridden.path().string());
    EXPECT_NE(a.usage.usage, wrong.usage.usage);
}

TEST(CheckpointReaderTest, ReadsTheIndexFileAndASingleFileDirectly) {
    CheckpointDir sharded, single;
    fake::Model m;
    m.shards = 2;
    fake::writeModel(sharded.path(), m);
    const Measured a = measure((sharded.path() / "model.safetensors.index.json").string());
    m.shards = 1;
    fake::writeModel(single.path(), m);
    const Measured b = measure((single.path() / "model.safetensors").string());
    EXPECT_EQ(a.usage.usage, b.usage.usage);
    EXPECT_TRUE(a.attention.checkpoint.sharded);
}

TEST(CheckpointReaderTest, SumOfSquaresMatchesTheDirectSum) {
    std::vector<double> values;
    for (int i = 0; i < 37; ++i) values.push_back(0.1 * i - 1.7);
    for (const char* dtype : {"BF16", "F32"}) {
        fake::Tensor t{"x", dtype, {37}, values};
        const std::string bytes = fake::encode(t);
        double expected = 0;
        for (double v : values) expected += fake::roundedTo(dtype, v) * fake::roundedTo(dtype, v);
        const auto kind =
            std::string(dtype) == "BF16" ? SafetensorsDtype::BF16 : SafetensorsDtype::F32;
        EXPECT_NEAR(sumOfSquares(kind, bytes.data(), 37), expected, 1e-6 * expected) << dtype;
    }
    const std::uint16_t halves[3] = {0x3C00, 0xC000, 0x3800};  // 1, -2, 0.5 in IEEE binary16
    EXPECT_EQ(sumOfSquares(SafetensorsDtype::F16, reinterpret_cast<const char*>(halves), 3), 5.25);
}

TEST(CheckpointReaderTest, CancellingStopsTheRead) {
    CheckpointDir dir;
    auto attention = describeCheckpointAttention(fake::writeModel(dir.path(), fake::Model{}));
    ASSERT_TRUE(attention.ok());
    int calls = 0;
    auto rows =
        readQkRowSquares(*attention, [&](std::uint64_t, std::uint64_t) { return ++calls < 2; });
    ASSERT_FALSE(rows.ok());
    EXPECT_EQ(rows.error().message, "cancelled");
}

// ---- Refusals: one line each, naming the file and what is wrong
void expectOneLine(const std::string& message, const std::string& part) {
    EXPECT_NE(message.find(part), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(CheckpointReaderTest, ShapeDisagreeingWithTheConfigIsRefused) {
    CheckpointDir dir;
    fake::Model m;
    fake::writeModel(dir.path(), m);
    m.kvHeads = 4;  // the config now says 4 KV heads; the weights hold 2
    fake::writeText(dir.path() / "config.json", fake::configJson(m));
    expectOneLine(checkpointErrorOf(dir.path().string()),
                  "has shape [32, 24], but config.json gives 4 KV heads x 16 = 64 rows");
}

TEST(CheckpointReaderTest, MissingShardIsRefused) {
    CheckpointDir dir;
    fake::Model m;
    m.shards = 2;
    fake::writeModel(dir.path(), m);
    fs::remove(dir.path() / "model-00002-of-00002.safetensors");
    expectOneLine(checkpointErrorOf(dir.path().string()),
                  "shard 'model-00002-of-00002.safetensors'");
}

TEST(CheckpointReaderTest, IndexPointingOutsideIsRefused) {
    CheckpointDir dir;
    fake::Model m;
    m.shards = 2;
    fake::writeModel(dir.path(), m);
    fake::writeText(dir.path() / "model.safetensors.index.json",
                    "{\"weight_map\": {\"model.layers.0.self_attn.q_proj.weight\": "
                    "\"../model-00001-of-00002.safetensors\"}}");
    expectOneLine(checkpointErrorOf(dir.path().string()), "outside the checkpoint's folder");
}

TEST(CheckpointReaderTest, MissingConfigAndUnknownLayoutAreRefused) {
    CheckpointDir dir;
    fake::Model m;
    m.modelType = "mystery";
    fake::writeModel(dir.path(), m);
    const std::string unknown = checkpointErrorOf(dir.path().string());
    expectOneLine(unknown, "model_type 'mystery' is not one PosLab knows");
    expectOneLine(unknown, "--pairing");
    EXPECT_EQ(checkpointErrorOf(dir.path().string(), AttentionOverrides{RopePairing::Half}),
              "(no error)");
    fs::remove(dir.path() / "config.json");
    expectOneLine(checkpointErrorOf(dir.path().string()), "no config.json beside it");
}

TEST(CheckpointReaderTest, LatentAttentionIsRefused) {
    CheckpointDir dir;
    fake::Model m;
    m.modelType = "deepseek_v3";
    m.extraConfig = ", \"kv_lora_rank\": 512, \"q_lora_rank\": 1536, \"qk_rope_head_dim\": 64";
    fake::writeModel(dir.path(), m);
    expectOneLine(checkpointErrorOf(dir.path().string()), "multi-head latent attention");
}

TEST(CheckpointReaderTest, MissingLayerIsRefused) {
    CheckpointDir dir;
    fake::Model m;
    fake::writeModel(dir.path(), m);
    m.layers = 3;
    fake::writeText(dir.path() / "config.json", fake::configJson(m));
    expectOneLine(checkpointErrorOf(dir.path().string()),
                  "config.json gives 3 layers (num_hidden_layers), but the query projection of "
                  "layer 2 is missing");
}

TEST(CheckpointReaderTest, TruncatedShardIsRefused) {
    CheckpointDir dir;
    fake::writeModel(dir.path(), fake::Model{});
    fs::resize_file(dir.path() / "model.safetensors", 200);
    const std::string message = checkpointErrorOf(dir.path().string());
    EXPECT_EQ(message.find('\n'), std::string::npos);
    EXPECT_NE(message.find("model.safetensors"), std::string::npos) << message;
}

// A shard replaced by a FIFO after its header was read (the checkpoint changed under the reader)
// is refused at once through InputFile: the plain open waited for a writer that never came.
TEST(CheckpointReaderTest, AShardThatBecameAFifoIsRefusedAtOnce) {
    CheckpointDir dir;
    auto attention = describeCheckpointAttention(fake::writeModel(dir.path(), fake::Model{}));
    ASSERT_TRUE(attention.ok()) << attention.error().message;
    const fs::path shard = dir.path() / "model.safetensors";
    fs::remove(shard);
    ASSERT_EQ(::mkfifo(shard.c_str(), 0600), 0);
    std::string message;
    finishesPromptly([&attention, &message] {
        auto rows = readQkRowSquares(*attention);
        message = rows ? std::string("(no error)") : rows.error().message;
    });
    EXPECT_EQ(message, shard.string() + ": not a regular file (a FIFO)");
}

}  // namespace
}  // namespace poslab
