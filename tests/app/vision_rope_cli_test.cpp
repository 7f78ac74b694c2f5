// `poslab export mrope-positions|axial-rope` and `poslab render mrope|axial-rope` as a user meets
// them: real processes and files, positions written out from HF's get_rope_index here, bad input
// refused with one line and exit 2, and the Vision RoPE view under Xvfb.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "poslab/figure/colormap.hpp"
#include "poslab/io/csv.hpp"
#include "process.hpp"

namespace poslab::test {
namespace {

class VisionRopeCliTest : public ::testing::Test {
  protected:
    std::string dir =
        temporaryDirectory(::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path(const std::string& name) const { return dir + "/" + name; }
    int filesInDir() const {
        return int(std::distance(std::filesystem::directory_iterator(dir), {}));
    }
};

TEST_F(VisionRopeCliTest, PositionsCsvIsGetRopeIndex) {
    // 2 text tokens, a 1x4x4 image (2x2 merged) at position 2, then text at 2 + 2 = 4.
    auto result = runPoslab({"export", "mrope-positions", "--prompt", "text:2,image:1x4x4,text:1",
                             "--out", path("pos.csv")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(readFile(path("pos.csv")),
              "token,kind,t,h,w\n"
              "0,text,0,0,0\n"
              "1,text,1,1,1\n"
              "2,image,2,2,2\n"
              "3,image,2,2,3\n"
              "4,image,2,3,2\n"
              "5,image,2,3,3\n"
              "6,text,4,4,4\n");
}

TEST_F(VisionRopeCliTest, Qwen25VideoUsesTokensPerSecond) {
    // Frame groups i = 0, 1 at 0.5 s each, 4 tokens/s: t = 2 * i; 1x1 merged grid per frame.
    auto result =
        runPoslab({"export", "mrope-positions", "--model", "qwen2.5-vl", "--prompt",
                   "video:2x2x2@0.5", "--tokens-per-second", "4", "--out", path("pos.csv")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(readFile(path("pos.csv")), "token,kind,t,h,w\n0,video,0,0,0\n1,video,2,0,0\n");
}

TEST_F(VisionRopeCliTest, ConfigFillsTheSection) {
    const std::string config = path("config.json");
    std::ofstream(config) << R"({"model_type": "qwen2_vl", "hidden_size": 1536,
        "num_attention_heads": 12, "vision_config": {"spatial_merge_size": 2},
        "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}})";
    auto result = runPoslab({"render", "mrope", "--config", config, "--out", path("m.png")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_TRUE(fileExists(path("m.png")));
    // head_dim 1536 / 12 = 128: a section that does not sum to 64 is refused.
    auto bad = runPoslab({"render", "mrope", "--config", config, "--mrope-section", "16,24,20",
                          "--out", path("n.png")});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("mrope_section must sum to head_dim / 2 = 64"), std::string::npos)
        << bad.err;
}

TEST_F(VisionRopeCliTest, AxialExportMatchesTheFormula) {
    // RoPE-ViT, d = 8, base 100: theta 1 and 0.1 per axis; q = k = ones, over |q||k| = 8.
    auto result = runPoslab({"export", "axial-rope", "--grid", "3x2", "--query", "0,0",
                             "--head-dim", "8", "--base", "100", "--out", path("a.csv")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    auto table = parseCsv(readFile(path("a.csv")));
    ASSERT_TRUE(table.ok());
    ASSERT_EQ(table->rows, 2u);
    ASSERT_EQ(table->cols, 3u);
    auto axis = [](int offset) { return 2 * std::cos(offset * 1.0) + 2 * std::cos(offset * 0.1); };
    for (int y = 0; y < 2; ++y) {
        for (int x = 0; x < 3; ++x) {
            EXPECT_NEAR((*table)(std::size_t(y), std::size_t(x)), (axis(x) + axis(y)) / 8, 1e-9);
        }
    }
    auto render = runPoslab({"render", "axial-rope", "--grid", "16x16", "--query", "5,7",
                             "--head-dim", "64", "--base", "100", "--out", path("a.png")});
    ASSERT_EQ(render.exitCode, 0) << render.err;
    EXPECT_TRUE(fileExists(path("a.png")));
}

class VisionRopeBadInputTest : public VisionRopeCliTest,
                               public ::testing::WithParamInterface<BadInput> {};

TEST_P(VisionRopeBadInputTest, OneLineErrorExitCode2AndNoFile) {
    std::vector<std::string> arguments = GetParam().arguments;
    for (std::string& a : arguments) {
        if (a.rfind("OUT", 0) == 0) a = path(a.substr(3));
    }
    auto result = runPoslab(arguments);
    expectOneLineRefusal(result, GetParam().expectedMessage);
    EXPECT_EQ(filesInDir(), 0) << "a file was left behind";
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, VisionRopeBadInputTest,
    ::testing::Values(
        BadInput{Args{"render", "mrope", "--prompt", "text:3,image:1x28", "--out", "OUTm.png"},
                 "--prompt: segment 2 'image:1x28' must be image:TxHxW"},
        BadInput{Args{"render", "mrope", "--prompt", "image:1x5x4", "--out", "OUTm.png"},
                 "multiples of spatial_merge_size 2"},
        BadInput{Args{"render", "mrope", "--prompt", "text:0", "--out", "OUTm.png"},
                 "text tokens must be 1..100000"},
        BadInput{Args{"render", "mrope", "--model", "llava", "--out", "OUTm.png"},
                 "--model must be qwen2-vl, qwen2.5-vl or qwen3-vl (got 'llava')"},
        BadInput{Args{"render", "mrope", "--mrope-section", "16,24", "--out", "OUTm.png"},
                 "--mrope-section must be 3 comma-separated counts T,H,W (got 2)"},
        BadInput{Args{"render", "mrope", "--merge-size", "9", "--out", "OUTm.png"},
                 "--merge-size must be 1..8 (got 9)"},
        BadInput{Args{"export", "mrope-positions", "--out", "OUTp.npy"}, ".csv"},
        BadInput{Args{"render", "axial-rope", "--grid", "16", "--out", "OUTa.png"},
                 "--grid must be WxH with W and H 1..256 (got '16')"},
        BadInput{Args{"render", "axial-rope", "--query", "16,0", "--out", "OUTa.png"},
                 "--query must be X,Y with X 0..15 and Y 0..15"},
        BadInput{Args{"render", "axial-rope", "--head-dim", "30", "--out", "OUTa.png"},
                 "--head-dim must be a multiple of 4"},
        BadInput{Args{"render", "axial-rope", "--layout", "swin", "--out", "OUTa.png"},
                 "--layout must be rope-vit or pixtral (got 'swin')"}));

TEST_F(VisionRopeCliTest, HelpDocumentsThePromptSyntax) {
    auto help = runPoslab({"render", "--help"});
    EXPECT_NE(help.out.find("mrope"), std::string::npos);
    EXPECT_NE(help.out.find("axial-rope"), std::string::npos);
    auto view = runPoslab({"render", "mrope", "--help"});
    EXPECT_NE(view.out.find("image:TxHxW"), std::string::npos) << view.out;
    EXPECT_NE(view.out.find("1048576 tokens"), std::string::npos) << view.out;
}

// The Vision RoPE view under Xvfb draws the three streams and the pair strip.
TEST(VisionRopeGuiTest, ViewUnderXvfbIsNotBlank) {
    if (runShell("command -v xvfb-run").exitCode != 0) GTEST_SKIP() << "xvfb-run not installed";
    const std::string dir = temporaryDirectory("vision-rope-gui");
    const std::string shot = dir + "/vision.png";
    auto result = runShell("xvfb-run -a -s '-noreset -screen 0 1440x900x24' " + shellQuote(POSLAB_BINARY) +
                           " --fresh --view 'Vision RoPE' --screenshot " + shellQuote(shot));
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const ImageRgba image = loadPng(shot);
    ASSERT_EQ(image.width, 1440);
    EXPECT_GT(distinctColours(image, 400, 120, 1400, 850), 30);
}

}  // namespace
}  // namespace poslab::test
