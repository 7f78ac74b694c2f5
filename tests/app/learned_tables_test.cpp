// Learned position tables from .safetensors checkpoints on the command line and in the window
// (issue #18): `--from`/`--table` read a checkpoint's table, `export tensors` lists a file,
// `export learned-pca` / `render learned-pca` show a table's structure. The files are written
// here byte by byte from the format description (huggingface/safetensors README: u64
// little-endian header length, JSON header, little-endian row-major data).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "poslab/io/csv.hpp"
#include "process.hpp"

namespace poslab::test {
namespace {

struct RawTensor {
    std::string name, dtype, shape;  // shape as JSON: "[2, 3]"
    std::string bytes;
};

template <class T>
std::string bytesOf(const std::vector<T>& values) {
    std::string out(values.size() * sizeof(T), '\0');
    std::memcpy(out.data(), values.data(), out.size());
    return out;
}

std::string safetensorsFile(const std::vector<RawTensor>& tensors) {
    std::string header = "{", data;
    for (const RawTensor& t : tensors) {
        if (header.size() > 1) header += ",";
        header += "\"" + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":" + t.shape +
                  ",\"data_offsets\":[" + std::to_string(data.size()) + "," +
                  std::to_string(data.size() + t.bytes.size()) + "]}";
        data += t.bytes;
    }
    header += "}";
    std::string length(8, '\0');
    for (int i = 0; i < 8; ++i) length[i] = char((std::uint64_t(header.size()) >> (8 * i)) & 0xFF);
    return length + header + data;
}

class LearnedTablesTest : public ::testing::Test {
  protected:
    std::string dir = temporaryDirectory(
        std::string("tables-") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path(const std::string& name) const { return dir + "/" + name; }
    std::string write(const std::string& name, const std::string& bytes) const {
        std::ofstream(path(name), std::ios::binary) << bytes;
        return path(name);
    }
    Matrix exportCsv(std::vector<std::string> arguments) {
        arguments.push_back("--out");
        arguments.push_back(path("out.csv"));
        auto result = runPoslab(arguments);
        EXPECT_EQ(result.exitCode, 0) << result.err;
        auto table = parseCsv(readFile(path("out.csv")));
        EXPECT_TRUE(table.ok());
        return table.ok() ? *table : Matrix{};
    }
    // A GPT-2-like file: the position table (3 x 2, F32) after the token embeddings (4 x 2).
    std::string gpt2Like() {
        return write(
            "model.safetensors",
            safetensorsFile({{"transformer.wte.weight", "F32", "[4, 2]",
                              bytesOf(std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8})},
                             {"transformer.wpe.weight", "F32", "[3, 2]",
                              bytesOf(std::vector<float>{0.5f, -1.25f, 2, 3.75f, -0.125f, 8})},
                             {"transformer.h.0.attn.bias", "I64", "[2]",
                              bytesOf(std::vector<std::int64_t>{1, 2})}}));
    }
};

TEST_F(LearnedTablesTest, FromF32SafetensorsExportsThePositionTable) {
    const Matrix table = exportCsv({"export", "learned", "--from", gpt2Like()});
    ASSERT_EQ(table.rows, 3u);
    ASSERT_EQ(table.cols, 2u);
    const std::vector<double> expected = {0.5, -1.25, 2, 3.75, -0.125, 8};  // exact in float32
    EXPECT_EQ(table.values, expected);
}

TEST_F(LearnedTablesTest, FromBf16SafetensorsDecodesEachValue) {
    // bfloat16 is the top half of a float32: 0x3F80 = 1, 0xC000 = -2, 0x3F00 = 0.5, 0x4040 = 3.
    const std::string file = write(
        "bf16.safetensors",
        safetensorsFile({{"bert.embeddings.position_embeddings.weight", "BF16", "[2, 2]",
                          bytesOf(std::vector<std::uint16_t>{0x3F80, 0xC000, 0x3F00, 0x4040})}}));
    const Matrix table = exportCsv({"export", "learned", "--from", file});
    EXPECT_EQ(table.values, (std::vector<double>{1, -2, 0.5, 3}));
}

TEST_F(LearnedTablesTest, TensorOptionReadsAnotherTensorAndSeqLenCrops) {
    const std::string file = gpt2Like();
    const Matrix tokens =
        exportCsv({"export", "learned", "--from", file, "--tensor", "transformer.wte.weight"});
    EXPECT_EQ(tokens.values, (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8}));
    const Matrix cropped = exportCsv({"export", "learned", "--from", file, "--seq-len", "2"});
    EXPECT_EQ(cropped.values, (std::vector<double>{0.5, -1.25, 2, 3.75}));
}

TEST_F(LearnedTablesTest, ExportTensorsListsExactlyTheTensorsWritten) {
    auto result = runPoslab({"export", "tensors", "--from", gpt2Like(), "--out", path("t.csv")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(readFile(path("t.csv")),
              "name,dtype,shape\n"
              "transformer.wte.weight,F32,\"[4, 2]\"\n"
              "transformer.wpe.weight,F32,\"[3, 2]\"\n"
              "transformer.h.0.attn.bias,I64,[2]\n");
    // A list of names is text: .npy is refused, nothing written.
    result = runPoslab({"export", "tensors", "--from", gpt2Like(), "--out", path("t.npy")});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_FALSE(fileExists(path("t.npy")));
}

TEST_F(LearnedTablesTest, OptConfigBesideTheFileDropsTwoRows) {
    const std::string file =
        write("model.safetensors",
              safetensorsFile({{"model.decoder.embed_positions.weight", "F32", "[5, 2]",
                                bytesOf(std::vector<float>{9, 9, 9, 9, 0, 1, 10, 11, 20, 21})}}));
    write("config.json", R"({"model_type": "opt", "max_position_embeddings": 3})");
    std::vector<std::string> arguments = {"export", "learned", "--from",
                                          file,     "--out",   path("out.csv")};
    auto result = runPoslab(arguments);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.err.find("2"), std::string::npos) << result.err;  // the note, on stderr
    auto table = parseCsv(readFile(path("out.csv")));
    ASSERT_TRUE(table.ok());
    EXPECT_EQ(table->rows, 3u);
    EXPECT_EQ(table->values, (std::vector<double>{0, 1, 10, 11, 20, 21}));
}

// Rows on a circle of radius 3 around a centre, in a plane spanned by two orthonormal vectors
// rotated away from the axes: the first two principal coordinates are that circle (whatever
// basis of the plane the components pick, since both have variance r^2 / 2), the third is zero.
TEST_F(LearnedTablesTest, LearnedPcaOfACircleGivesPointsOnTheCircle) {
    constexpr int kRows = 48, kDims = 6;
    constexpr double kRadius = 3;
    const double a = 0.3, b = 1.1;  // u = rotation of e0 towards e2; v = of e1 towards e4, e5
    const std::vector<double> u = {std::cos(a), 0, std::sin(a), 0, 0, 0};
    const std::vector<double> v = {0, std::cos(b), 0, 0, std::sin(b) * 0.6, std::sin(b) * 0.8};
    const std::vector<double> centre = {1, -2, 0.5, 4, 0, 7};
    std::vector<double> values;
    for (int p = 0; p < kRows; ++p) {
        const double theta = 2 * std::numbers::pi * p / kRows;
        for (int c = 0; c < kDims; ++c)
            values.push_back(centre[c] +
                             kRadius * (std::cos(theta) * u[c] + std::sin(theta) * v[c]));
    }
    const std::string file = write(
        "circle.safetensors", safetensorsFile({{"wpe.weight", "F64", "[48, 6]", bytesOf(values)}}));
    const Matrix pca = exportCsv({"export", "learned-pca", "--from", file, "--components", "3"});
    ASSERT_EQ(pca.rows, std::size_t(kRows));
    ASSERT_EQ(pca.cols, 3u);
    for (std::size_t p = 0; p < pca.rows; ++p) {
        EXPECT_NEAR(std::hypot(pca(p, 0), pca(p, 1)), kRadius, 1e-9) << "position " << p;
        EXPECT_NEAR(pca(p, 2), 0, 1e-9) << "position " << p;
    }
    // Neighbouring positions are a fixed chord apart: 2 r sin(pi / L).
    for (std::size_t p = 0; p + 1 < pca.rows; ++p) {
        EXPECT_NEAR(std::hypot(pca(p + 1, 0) - pca(p, 0), pca(p + 1, 1) - pca(p, 1)),
                    2 * kRadius * std::sin(std::numbers::pi / kRows), 1e-9);
    }
}

TEST_F(LearnedTablesTest, LearnedPcaOfTheSinusoidalTableNeedsNoFile) {
    const Matrix pca = exportCsv({"export", "learned-pca", "--table", "sinusoidal", "--seq-len",
                                  "64", "--d-model", "16", "--components", "5"});
    EXPECT_EQ(pca.rows, 64u);
    EXPECT_EQ(pca.cols, 5u);
}

TEST_F(LearnedTablesTest, SimilarityReadsACheckpointTable) {
    // Rows (1, 0), (0, 1), (1, 1): cosine(0, 2) = 1 / sqrt 2, cosine(0, 1) = 0.
    const std::string file = write(
        "sim.safetensors", safetensorsFile({{"wpe.weight", "F32", "[3, 2]",
                                             bytesOf(std::vector<float>{1, 0, 0, 1, 1, 1})}}));
    const Matrix cosine =
        exportCsv({"export", "similarity", "--encoding", "learned", "--table", file});
    ASSERT_EQ(cosine.rows, 3u);
    EXPECT_NEAR(cosine(0, 1), 0, 1e-12);
    EXPECT_NEAR(cosine(0, 2), 1 / std::sqrt(2.0), 1e-12);
}

struct BadFile {
    const char* label;
    std::string bytes;
    std::vector<std::string> extra;  // more options
    const char* expected;            // in the message
};

class LearnedBadFileTest : public LearnedTablesTest, public ::testing::WithParamInterface<int> {};

TEST_P(LearnedBadFileTest, RefusedInOneLineWithNoOutput) {
    const std::string good =
        safetensorsFile({{"wpe.weight", "F32", "[2, 2]", bytesOf(std::vector<float>{1, 2, 3, 4})},
                         {"ids", "I64", "[2]", bytesOf(std::vector<std::int64_t>{1, 2})}});
    const std::vector<BadFile> cases = {
        {"truncated", good.substr(0, good.size() - 3), {}, "bad.safetensors"},
        {"header garbage",
         std::string("\x10\0\0\0\0\0\0\0{not json at all", 24),
         {},
         "bad.safetensors"},
        {"empty", "", {}, "bad.safetensors"},
        {"no such tensor", good, {"--tensor", "nope.weight"}, "nope.weight"},
        {"integer tensor", good, {"--tensor", "ids"}, "ids"},
        {"no position table",
         safetensorsFile({{"lm_head.weight", "F32", "[1, 2]", bytesOf(std::vector<float>{1, 2})}}),
         {},
         "lm_head.weight"}};
    const BadFile& bad = cases[std::size_t(GetParam())];
    const std::string file = write("bad.safetensors", bad.bytes);
    for (const char* kind : {"learned", "learned-pca"}) {
        std::vector<std::string> arguments = {"export", kind, "--from", file};
        arguments.insert(arguments.end(), bad.extra.begin(), bad.extra.end());
        arguments.push_back("--out");
        arguments.push_back(path("out.csv"));
        auto result = runPoslab(arguments);
        EXPECT_EQ(result.exitCode, 2) << bad.label << ": " << result.err;
        EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
        EXPECT_NE(result.err.find(bad.expected), std::string::npos) << result.err;
        EXPECT_FALSE(fileExists(path("out.csv"))) << bad.label;
    }
    auto render =
        runPoslab({"render", "learned-pca", "--from", file, "--tensor",
                   bad.extra.empty() ? "wpe.weight" : bad.extra[1], "--out", path("fig.png")});
    EXPECT_EQ(render.exitCode, 2) << bad.label;
    EXPECT_FALSE(fileExists(path("fig.png")));
}

INSTANTIATE_TEST_SUITE_P(Cases, LearnedBadFileTest, ::testing::Range(0, 6));

TEST_F(LearnedTablesTest, TensorNeedsASafetensorsFile) {
    auto result = runPoslab({"export", "learned", "--seq-len", "4", "--d-model", "2", "--tensor",
                             "wpe.weight", "--out", path("out.csv")});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("--from"), std::string::npos) << result.err;
    EXPECT_FALSE(fileExists(path("out.csv")));
}

TEST_F(LearnedTablesTest, RenderLearnedPcaWritesAPng) {
    std::vector<float> values;
    for (int p = 0; p < 64; ++p) {
        for (int c = 0; c < 16; ++c) values.push_back(float(std::sin(0.1 * p * (c + 1))));
    }
    const std::string file = write(
        "wave.safetensors", safetensorsFile({{"wpe.weight", "F32", "[64, 16]", bytesOf(values)}}));
    auto result = runPoslab({"render", "learned-pca", "--from", file, "--width", "1200", "--height",
                             "700", "--out", path("fig.png")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const ImageRgba image = loadPng(path("fig.png"));
    EXPECT_EQ(image.width, 1200);
    EXPECT_EQ(image.height, 700);
    EXPECT_GT(distinctColours(image, 0, 0, 1200, 700), 50);  // dots coloured by position
}

// `--trajectory 3d --yaw --pitch`: the rotatable PC1-PC3 view in every file format; turning the
// camera changes the picture (only the two trajectory plots differ), and bad angles are refused.
TEST_F(LearnedTablesTest, RenderLearnedPcaIn3dTurnsWithTheAngles) {
    auto render = [&](std::vector<std::string> extra, const std::string& out) {
        std::vector<std::string> arguments = {"render",    "learned-pca", "--table",   "sinusoidal",
                                              "--seq-len", "128",         "--d-model", "8",
                                              "--width",   "900",         "--height",  "600"};
        arguments.insert(arguments.end(), extra.begin(), extra.end());
        arguments.push_back("--out");
        arguments.push_back(path(out));
        return runPoslab(arguments);
    };
    for (const char* out : {"a.png", "a.svg", "a.pdf"}) {
        auto result = render({"--trajectory", "3d", "--yaw", "30", "--pitch", "20"}, out);
        ASSERT_EQ(result.exitCode, 0) << out << ": " << result.err;
        EXPECT_GT(readFile(path(out)).size(), 1000u) << out;
    }
    ASSERT_EQ(render({"--trajectory", "3d", "--yaw", "-60", "--pitch", "75"}, "b.png").exitCode, 0);
    ASSERT_EQ(render({}, "flat.png").exitCode, 0);
    const ImageRgba a = loadPng(path("a.png")), b = loadPng(path("b.png"));
    ASSERT_EQ(a.width, 900);
    ASSERT_EQ(b.width, 900);
    EXPECT_NE(a.pixels, b.pixels);
    EXPECT_NE(a.pixels, loadPng(path("flat.png")).pixels);
    // The variance plot (top left third, below the title) is the same from any angle.
    bool sameVariancePlot = true;
    for (int y = 40; y < 290; ++y) {
        for (int x = 0; x < 290 * 4; ++x) {
            const std::size_t i = std::size_t(y) * 900 * 4 + std::size_t(x);
            sameVariancePlot = sameVariancePlot && a.pixels[i] == b.pixels[i];
        }
    }
    EXPECT_TRUE(sameVariancePlot);

    struct Bad {
        std::vector<std::string> extra;
        std::string message;
    };
    for (const Bad& bad :
         {Bad{{"--yaw", "30"}, "--yaw needs --trajectory 3d"},
          Bad{{"--trajectory", "3d", "--pitch", "95"}, "--pitch must be -90..90 (got 95)"},
          Bad{{"--trajectory", "3d", "--yaw", "nan"}, "--yaw"},
          Bad{{"--trajectory", "4d"}, "--trajectory must be 2d or 3d (got '4d')"}}) {
        auto result = render(bad.extra, "bad.png");
        EXPECT_EQ(result.exitCode, 2) << bad.message;
        EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
        EXPECT_NE(result.err.find(bad.message), std::string::npos) << result.err;
        EXPECT_FALSE(fileExists(path("bad.png"))) << bad.message;
    }
}

TEST_F(LearnedTablesTest, GuiOpensACheckpointInTheLearnedView) {
    if (runShell("command -v xvfb-run").exitCode != 0) GTEST_SKIP() << "xvfb-run not installed";
    const std::string file = gpt2Like();
    const std::string session = path("session.json");
    auto result = runShell("xvfb-run -a -s '-noreset -screen 0 1440x900x24' " + shellQuote(POSLAB_BINARY) +
                           " " + shellQuote(file) + " --screenshot " +
                           shellQuote(path("shot.png")) + " --save-session " + shellQuote(session));
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const auto saved = nlohmann::json::parse(readFile(session), nullptr, false);
    ASSERT_TRUE(saved.is_object());
    EXPECT_EQ(saved["view"], "Learned");
    EXPECT_EQ(saved["learned"]["npyPath"], file);
    EXPECT_EQ(saved["learned"]["tensor"], "transformer.wpe.weight");
    // A session asking for the Structure tab opens it; the screenshot waits for the analysis
    // (on a worker thread), so the PC1-vs-PC2 plot's viridis colour bar is in it.
    std::vector<float> values;
    for (int p = 0; p < 128; ++p) {
        for (int c = 0; c < 16; ++c) values.push_back(float(std::sin(0.05 * p * (c + 1))));
    }
    const std::string wave = write(
        "wave.safetensors", safetensorsFile({{"wpe.weight", "F32", "[128, 16]", bytesOf(values)}}));
    nlohmann::json structure = saved;
    structure["learned"]["tab"] = "structure";
    std::ofstream(path("structure.json")) << structure.dump();
    result = runShell("xvfb-run -a -s '-noreset -screen 0 1440x900x24' " + shellQuote(POSLAB_BINARY) + " " +
                      shellQuote(wave) + " --session " + shellQuote(path("structure.json")) +
                      " --screenshot " + shellQuote(path("structure.png")) + " --save-session " +
                      shellQuote(path("after.json")));
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const auto after = nlohmann::json::parse(readFile(path("after.json")), nullptr, false);
    ASSERT_TRUE(after.is_object());
    const ImageRgba image = loadPng(path("structure.png"));
    ASSERT_EQ(image.width, 1440);
    EXPECT_GT(fractionFromColormap(image, ColormapId::Viridis, 1366, 160, 1373, 420), 0.8);
    EXPECT_EQ(after["learned"]["tab"], "structure");
}

}  // namespace
}  // namespace poslab::test
