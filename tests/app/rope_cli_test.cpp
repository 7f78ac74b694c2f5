// `poslab export rope-*` and `poslab render rope-*` as a user meets them: real processes and
// files, values checked against the formulas written out here, bad input refused with exit 2.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "poslab/figure/colormap.hpp"
#include "poslab/io/csv.hpp"
#include "process.hpp"

namespace poslab::test {
namespace {

constexpr double kPi = 3.14159265358979323846;

// meta-llama/Llama-3.1-8B config.json, abridged to what the RoPE reader needs plus a few others.
const char* kLlama31 = R"({
  "architectures": ["LlamaForCausalLM"],
  "hidden_size": 4096,
  "max_position_embeddings": 131072,
  "model_type": "llama",
  "num_attention_heads": 32,
  "num_key_value_heads": 8,
  "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                   "original_max_position_embeddings": 8192, "rope_type": "llama3"},
  "rope_theta": 500000.0,
  "torch_dtype": "bfloat16"
})";

// Config files for the tests, in their own directory (so the output directories stay empty).
std::string writeConfigs() {
    const std::string dir = temporaryDirectory("rope-cli-configs");
    auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir + "/" + name) << text;
    };
    write("llama31.json", kLlama31);
    write("truncated.json", std::string(kLlama31).substr(0, 120));
    write("array.json", "[1, 2, 3]");
    write("empty.json", "");
    write("longrope.json", R"({"hidden_size": 3072, "num_attention_heads": 32,
        "max_position_embeddings": 131072,
        "rope_scaling": {"type": "longrope", "long_factor": [1.0], "short_factor": [1.0]}})");
    write("noheads.json", R"({"model_type": "llama", "hidden_size": 4096})");
    write("nolowfreq.json", R"({"hidden_size": 4096, "num_attention_heads": 32,
        "max_position_embeddings": 131072, "rope_theta": 500000.0,
        "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "high_freq_factor": 4.0,
                         "original_max_position_embeddings": 8192}})");
    write("badtheta.json", R"({"hidden_size": 4096, "num_attention_heads": 32,
        "rope_theta": "ten thousand"})");
    return dir;
}

const std::string& configDir() {
    static const std::string dir = writeConfigs();
    return dir;
}

class RopeCliTest : public ::testing::Test {
  protected:
    std::string dir =
        temporaryDirectory(::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path(const std::string& name) const { return dir + "/" + name; }
    int filesInDir() const {
        return int(std::distance(std::filesystem::directory_iterator(dir), {}));
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
};

// HF's inv_freq written out: 1 / base^(2i/d).
double inverseFrequency(int i, int d, double base) {
    return 1.0 / std::pow(base, 2.0 * i / d);
}

// Half pairing, written out: dims (i, i + d/2) turned by p theta_i.
std::vector<double> rotateHalf(const std::vector<double>& v, double p, double base) {
    const int d = int(v.size()), half = d / 2;
    std::vector<double> out = v;
    for (int i = 0; i < half; ++i) {
        const double a = p * inverseFrequency(i, d, base);
        out[i] = v[i] * std::cos(a) - v[i + half] * std::sin(a);
        out[i + half] = v[i + half] * std::cos(a) + v[i] * std::sin(a);
    }
    return out;
}

TEST_F(RopeCliTest, FreqsAreOneOverBaseToTheTwoIOverD) {
    const Matrix freqs =
        exportCsv({"export", "rope-freqs", "--head-dim", "64", "--base", "500000"});
    ASSERT_EQ(freqs.rows, 32u);
    ASSERT_EQ(freqs.cols, 1u);
    for (int i = 0; i < 32; ++i) {
        const double expected = 1.0 / std::pow(500000.0, 2.0 * i / 64);
        EXPECT_NEAR(freqs(i, 0), expected, 1e-15 * expected) << "pair " << i;
    }
}

TEST_F(RopeCliTest, FreqsOfAPartialRotaryUseTheRotatedDims) {
    // int(100 * 0.5) = 50 rotated dims: 25 pairs, exponent 2i/50 (HF divides by the rotated dim).
    const Matrix freqs =
        exportCsv({"export", "rope-freqs", "--head-dim", "100", "--rotary-fraction", "0.5"});
    ASSERT_EQ(freqs.rows, 25u);
    for (int i = 0; i < 25; ++i) {
        EXPECT_NEAR(freqs(i, 0), inverseFrequency(i, 50, 10000), 1e-15);
    }
}

TEST_F(RopeCliTest, LinearScalingDividesEveryFrequency) {
    const Matrix freqs = exportCsv(
        {"export", "rope-freqs", "--head-dim", "16", "--scaling", "linear", "--factor", "4"});
    ASSERT_EQ(freqs.rows, 8u);
    for (int i = 0; i < 8; ++i) EXPECT_NEAR(freqs(i, 0), inverseFrequency(i, 16, 10000) / 4, 1e-15);
}

TEST_F(RopeCliTest, Llama31ConfigKeepsFastPairsAndDividesSlowOnesByEight) {
    const std::string config = configDir() + "/llama31.json";
    const Matrix freqs = exportCsv({"export", "rope-freqs", "--config", config});
    ASSERT_EQ(freqs.rows, 64u);  // head_dim 4096 / 32 = 128
    for (int i = 0; i < 64; ++i) {
        const double theta = inverseFrequency(i, 128, 500000);
        if (i <= 28) {
            EXPECT_NEAR(freqs(i, 0), theta, 1e-12 * theta) << "pair " << i << " must be unchanged";
        } else if (i >= 35) {
            EXPECT_NEAR(freqs(i, 0), theta / 8, 1e-12 * theta) << "pair " << i << " must be / 8";
        } else {
            EXPECT_LT(freqs(i, 0), theta);  // the smoothed band in between
            EXPECT_GT(freqs(i, 0), theta / 8);
        }
    }

    // Explicit flags win over the file.
    const Matrix four = exportCsv({"export", "rope-freqs", "--config", config, "--factor", "4"});
    ASSERT_EQ(four.rows, 64u);
    EXPECT_NEAR(four(63, 0), inverseFrequency(63, 128, 500000) / 4, 1e-18);
    EXPECT_NEAR(four(0, 0), 1.0, 1e-15);
    const Matrix plain =
        exportCsv({"export", "rope-freqs", "--config", config, "--scaling", "none"});
    EXPECT_NEAR(plain(63, 0), inverseFrequency(63, 128, 500000), 1e-18);
    const Matrix base = exportCsv({"export", "rope-freqs", "--config", config, "--scaling", "none",
                                   "--base", "10000", "--head-dim", "32"});
    ASSERT_EQ(base.rows, 16u);
    EXPECT_NEAR(base(15, 0), inverseFrequency(15, 32, 10000), 1e-18);
}

// rope-scalings from Llama 3.1's config with every paper control: the SVG carries the given
// title (not the view's), and the legend's names.
TEST_F(RopeCliTest, ScalingsFigureTakesTheConfigAndThePaperControls) {
    const std::string out = path("scalings.svg");
    auto result = runPoslab({"render", "rope-scalings", "--config", configDir() + "/llama31.json",
                             "--title", "Figure 2", "--legend", "outside", "--aspect", "square",
                             "--font-scale", "1.5", "--x-axis", "wavelength", "--out", out});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    std::ifstream in(out);
    const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(svg.find("Figure 2"), std::string::npos);
    EXPECT_EQ(svg.find("Scaled"), std::string::npos);
    EXPECT_NE(svg.find("YaRN"), std::string::npos);
    auto untitled = runPoslab({"render", "rope-scalings", "--factor", "4", "--no-title", "--legend",
                               "none", "--out", path("plain.svg")});
    ASSERT_EQ(untitled.exitCode, 0) << untitled.err;
}

// With --config, the context and training length are the model's: Llama 3.1 has
// max_position_embeddings 131072 and original_max_position_embeddings 8192. Its Llama 3 band
// edges 8192/4 = 2048 and 8192/1 = 8192 are marked, in words.
TEST_F(RopeCliTest, ConfigSetsContextAndTrainingLength) {
    const std::string out = path("freqs.svg");
    auto result = runPoslab(
        {"render", "rope-frequencies", "--config", configDir() + "/llama31.json", "--out", out});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    std::ifstream in(out);
    const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(svg.find("context length 131072"), std::string::npos);
    EXPECT_NE(svg.find("training length 8192"), std::string::npos);
    // A legend key may wrap (it keeps off the band edges' lines, #28): the SVG's texts in order,
    // one space between two <text> elements.
    std::string words;
    for (std::size_t at = svg.find("<text"); at != std::string::npos; at = svg.find("<text", at)) {
        const std::size_t end = svg.find("</text>", at);
        if (end == std::string::npos) break;
        bool inTag = false;
        for (std::size_t i = svg.find('>', at) + 1; i < end; ++i) {
            if (svg[i] == '<' || svg[i] == '>')
                inTag = svg[i] == '<';
            else if (!inTag)
                words += svg[i];
        }
        words += ' ';
        at = end;
    }
    EXPECT_NE(words.find("shorter than 8192/4 = 2048: kept"), std::string::npos) << words;
    EXPECT_NE(svg.find("longer than 8192: stretched ×8"), std::string::npos);
}

TEST_F(RopeCliTest, RotateTurnsEachPairByPositionTimesTheta) {
    const Matrix half =
        exportCsv({"export", "rope-rotate", "--vector", "1,2,3,4", "--positions", "0,1,2.5,-3"});
    ASSERT_EQ(half.rows, 4u);
    ASSERT_EQ(half.cols, 4u);
    const double positions[] = {0, 1, 2.5, -3};
    for (int r = 0; r < 4; ++r) {
        // Half pairing: (x0, x2) turns at theta_0 = 1, (x1, x3) at theta_1 = 10000^(-1/2).
        const double p = positions[r], a0 = p, a1 = p / 100;
        EXPECT_NEAR(half(r, 0), 1 * std::cos(a0) - 3 * std::sin(a0), 1e-14);
        EXPECT_NEAR(half(r, 2), 3 * std::cos(a0) + 1 * std::sin(a0), 1e-14);
        EXPECT_NEAR(half(r, 1), 2 * std::cos(a1) - 4 * std::sin(a1), 1e-14);
        EXPECT_NEAR(half(r, 3), 4 * std::cos(a1) + 2 * std::sin(a1), 1e-14);
    }
    const Matrix interleaved =
        exportCsv({"export", "rope-rotate", "--vector", "1,2,3,4", "--positions", "7", "--pairing",
                   "interleaved", "--base", "100"});
    ASSERT_EQ(interleaved.rows, 1u);
    // Interleaved: (x0, x1) at theta_0 = 1, (x2, x3) at 100^(-1/2) = 0.1.
    EXPECT_NEAR(interleaved(0, 0), 1 * std::cos(7.0) - 2 * std::sin(7.0), 1e-14);
    EXPECT_NEAR(interleaved(0, 1), 2 * std::cos(7.0) + 1 * std::sin(7.0), 1e-14);
    EXPECT_NEAR(interleaved(0, 2), 3 * std::cos(0.7) - 4 * std::sin(0.7), 1e-14);
    EXPECT_NEAR(interleaved(0, 3), 4 * std::cos(0.7) + 3 * std::sin(0.7), 1e-14);
}

TEST_F(RopeCliTest, ScoresDependOnlyOnMMinusN) {
    const std::vector<double> q = {0.5, -1, 2, 0.25, 1.5, -0.75, 1, 3};
    const std::vector<double> k = {-2, 0.5, 1, 1, -0.5, 2, 0.125, -1};
    auto list = [](const std::vector<double>& v) {
        std::string text;
        for (double x : v) {
            if (!text.empty()) text += ',';
            text += std::to_string(x);  // appended, not operator+: avoids GCC 12's false -Wrestrict
        }
        return text;
    };
    const int length = 40;
    const Matrix scores = exportCsv({"export", "rope-scores", "--q", list(q), "--k", list(k),
                                     "--seq-len", std::to_string(length)});
    ASSERT_EQ(scores.rows, std::size_t(length));
    ASSERT_EQ(scores.cols, std::size_t(length));
    for (int m = 0; m + 1 < length; ++m) {
        for (int n = 0; n + 1 < length; ++n) {
            ASSERT_NEAR(scores(m + 1, n + 1), scores(m, n), 1e-12) << m << " " << n;
        }
    }
    for (auto [m, n] : {std::pair{0, 0}, {5, 17}, {39, 2}, {20, 20}, {0, 39}}) {
        double expected = 0;
        const auto rq = rotateHalf(q, m, 10000), rk = rotateHalf(k, n, 10000);
        for (int j = 0; j < 8; ++j) expected += rq[j] * rk[j];
        EXPECT_NEAR(scores(m, n), expected, 1e-12) << m << " " << n;
    }
    // Not constant: different offsets give different scores.
    EXPECT_GT(std::abs(scores(10, 0) - scores(0, 10)), 1e-6);

    // Seeded vectors are reproducible and Toeplitz too.
    const Matrix a =
        exportCsv({"export", "rope-scores", "--head-dim", "16", "--seed", "3", "--seq-len", "12"});
    const Matrix b =
        exportCsv({"export", "rope-scores", "--head-dim", "16", "--seed", "3", "--seq-len", "12"});
    EXPECT_EQ(a.values, b.values);
    EXPECT_NEAR(a(11, 4), a(7, 0), 1e-12);
}

TEST_F(RopeCliTest, DecayIsRoFormersBound) {
    const Matrix decay =
        exportCsv({"export", "rope-decay", "--head-dim", "128", "--max-distance", "250"});
    ASSERT_EQ(decay.rows, 251u);
    ASSERT_EQ(decay.cols, 1u);
    EXPECT_NEAR(decay(0, 0), 32.5, 1e-12);  // every |S_j| = j at r = 0: the mean of 1..64
    for (int r : {1, 37, 100, 250}) {
        // (1/(d/2)) sum_j |S_j|, S_j = sum_{k<j} exp(i r theta_k), written out.
        std::complex<double> s = 0;
        double total = 0;
        for (int j = 0; j < 64; ++j) {
            s += std::polar(1.0, r * inverseFrequency(j, 128, 10000));
            total += std::abs(s);
        }
        EXPECT_NEAR(decay(r, 0), total / 64, 1e-9) << r;
    }
    EXPECT_LT(decay(250, 0), decay(0, 0) / 3);  // it decays
}

TEST_F(RopeCliTest, NpyOutputWorksToo) {
    auto result = runPoslab({"export", "rope-freqs", "--head-dim", "8", "--out", path("f.npy")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(readFile(path("f.npy")).size(), 128u + 4 * 8);
}

// ---- Rendering: every view, checked by pixels.

bool nearColor(const std::uint8_t* p, Rgba c, int tolerance) {
    return std::abs(p[0] - c.r) <= tolerance && std::abs(p[1] - c.g) <= tolerance &&
           std::abs(p[2] - c.b) <= tolerance;
}

int pixelsNear(const ImageRgba& image, Rgba color, int tolerance) {
    int count = 0;
    for (int i = 0; i < image.width * image.height; ++i) {
        count += nearColor(&image.pixels[std::size_t(i) * 4], color, tolerance);
    }
    return count;
}

TEST_F(RopeCliTest, RendersEveryViewHeadless) {
    const std::string env = "env -u DISPLAY -u WAYLAND_DISPLAY";
    struct View {
        std::vector<std::string> arguments;
    };
    for (const View& view :
         {View{{"rope-rotation", "--head-dim", "16"}},
          // Training length = context: no shading over the part checked for exact colours.
          View{{"rope-angles", "--head-dim", "128", "--seq-len", "65536", "--training-length",
                "65536"}},
          View{{"rope-scores", "--head-dim", "64", "--seq-len", "4096", "--training-length",
                "4096"}},
          View{{"rope-frequencies", "--config", configDir() + "/llama31.json", "--seq-len",
                "131072"}},
          View{{"rope-decay", "--head-dim", "128"}}}) {
        std::vector<std::string> arguments = {"render"};
        arguments.insert(arguments.end(), view.arguments.begin(), view.arguments.end());
        const std::string out = path(view.arguments[0] + ".png");
        for (const char* a : {"--width", "900", "--height", "600", "--out"}) arguments.push_back(a);
        arguments.push_back(out);
        auto result = runPoslab(arguments, env);
        ASSERT_EQ(result.exitCode, 0) << view.arguments[0] << ": " << result.err;
        const ImageRgba image = loadPng(out);
        ASSERT_EQ(image.width, 900) << view.arguments[0];
        ASSERT_EQ(image.height, 600);
        EXPECT_GT(distinctColours(image, 0, 0, 900, 600), 30) << view.arguments[0];
    }
    // The angle map is twilight (cyclic) with exact table colours (circular means, never blended
    // on screen) where the slower pairs are, on the right; the fast pairs at the left turn more
    // than half a turn within a pixel and are drawn as 'mixed'. The score map is
    // blue-white-red, centred at zero.
    const ImageRgba angles = loadPng(path("rope-angles.png"));
    // (x 430..600: the slow pairs at print sizes, whose larger text narrows the plot to ~610.)
    EXPECT_GT(fractionFromColormap(angles, ColormapId::Twilight, 430, 200, 600, 500), 0.97);
    EXPECT_GT(distinctColours(angles, 430, 200, 600, 500), 40);
    const ImageRgba scores = loadPng(path("rope-scores.png"));
    EXPECT_GT(fractionFromColormap(scores, ColormapId::BlueWhiteRed, 300, 200, 600, 400), 0.9);
    // The rotation panels draw q and k arrows in the paper theme's blue and vermillion.
    const ImageRgba rotation = loadPng(path("rope-rotation.png"));
    EXPECT_GT(pixelsNear(rotation, {0, 114, 178, 255}, 10), 300);
    EXPECT_GT(pixelsNear(rotation, {213, 94, 0, 255}, 10), 300);
    // Llama 3.1 at its 131072-token context: the slow pairs are highlighted in the accent colour.
    const ImageRgba frequencies = loadPng(path("rope-frequencies.png"));
    EXPECT_GT(pixelsNear(frequencies, {213, 94, 0, 255}, 10), 50);
}

TEST_F(RopeCliTest, RendersAtTheLargestSettingsSayWhatTheySampled) {
    // head_dim 8192 and 2^20 positions or distances: 2^32 terms to tabulate, so the figures
    // evaluate what they can show and say so (SVG, so the text can be read back).
    const std::string env = "env -u DISPLAY -u WAYLAND_DISPLAY";
    const std::vector<std::pair<std::vector<std::string>, std::string>> views = {
        {{"rope-decay", "--head-dim", "8192", "--max-distance", "1048576"},
         "min to max over each pixel column of"},
        {{"rope-scores", "--head-dim", "8192", "--seq-len", "1048576"}, "range from |m − n| &lt;"},
    };
    for (const auto& [view, caption] : views) {
        std::vector<std::string> arguments = {"render"};
        arguments.insert(arguments.end(), view.begin(), view.end());
        arguments.push_back("--out");
        arguments.push_back(path(view[0] + ".svg"));
        auto result = runPoslab(arguments, env);
        ASSERT_EQ(result.exitCode, 0) << view[0] << ": " << result.err;
        std::ifstream file(path(view[0] + ".svg"));
        const std::string svg((std::istreambuf_iterator<char>(file)),
                              std::istreambuf_iterator<char>());
        EXPECT_NE(svg.find(caption), std::string::npos) << view[0] << ": " << caption;
    }
}

// ---- Bad input: one line on stderr, exit code 2, no file.

// In a BadInput's arguments "OUTname" becomes a file in the test's directory, "CFGname" a file
// in the configs directory.
class RopeCliBadInputTest : public RopeCliTest, public ::testing::WithParamInterface<BadInput> {};

TEST_P(RopeCliBadInputTest, OneLineErrorExitCode2AndNoFile) {
    std::vector<std::string> arguments = GetParam().arguments;
    for (std::string& a : arguments) {
        if (a.rfind("OUT", 0) == 0) a = path(a.substr(3));
        if (a.rfind("CFG", 0) == 0) a = configDir() + "/" + a.substr(3);
    }
    auto result = runPoslab(arguments);
    expectOneLineRefusal(result, GetParam().expectedMessage);
    EXPECT_EQ(filesInDir(), 0) << "a file was left behind";
}

INSTANTIATE_TEST_SUITE_P(
    Freqs, RopeCliBadInputTest,
    ::testing::Values(
        BadInput{Args{"export", "rope-freqs", "--head-dim", "0", "--out", "OUTa.csv"},
                 "--head-dim must be 2..8192 (got 0)"},
        BadInput{Args{"export", "rope-freqs", "--head-dim", "99999999999", "--out", "OUTa.csv"},
                 "--head-dim must be 2..8192 (got 99999999999)"},
        BadInput{Args{"export", "rope-freqs", "--head-dim", "7", "--out", "OUTa.csv"},
                 "--head-dim must be even, 2..8192 (got 7)"},
        BadInput{Args{"export", "rope-freqs", "--rotary-fraction", "0.001", "--out", "OUTa.csv"},
                 "--rotary-fraction 0.001 leaves int(head_dim * rotary_fraction) = 0 rotated "
                 "dims of head_dim 128; they must be even and >= 2"},
        BadInput{
            Args{"export", "rope-freqs", "--head-dim", "8", "--base", "1", "--out", "OUTa.csv"},
            "--base must be > 1"},
        BadInput{
            Args{"export", "rope-freqs", "--head-dim", "8", "--base", "nan", "--out", "OUTa.csv"},
            "--base expects a number (got 'nan')"},
        BadInput{
            Args{"export", "rope-freqs", "--head-dim", "8", "--base", "+1e4", "--out", "OUTa.csv"},
            "--base expects a number (got '+1e4')"},
        BadInput{
            Args{"export", "rope-freqs", "--head-dim", "8", "--head-dim", "8", "--out", "OUTa.csv"},
            "--head-dim given twice"},
        BadInput{
            Args{"export", "rope-freqs", "--head-dim", "8", "--base", "1e4x", "--out", "OUTa.csv"},
            "--base expects a number (got '1e4x')"},
        BadInput{Args{"export", "rope-freqs", "--head-dim", "8", "--rotary-fraction", "0", "--out",
                      "OUTa.csv"},
                 "--rotary-fraction must be > 0 and <= 1 (got 0)"},
        BadInput{Args{"export", "rope-freqs", "--head-dim", "8", "--scaling", "cubic", "--out",
                      "OUTa.csv"},
                 "--scaling must be none, linear, ntk, dynamic-ntk, yarn or llama3 (got 'cubic')"},
        BadInput{
            Args{"export", "rope-freqs", "--head-dim", "8", "--factor", "8", "--out", "OUTa.csv"},
            "--factor has no effect without --scaling"},
        BadInput{Args{"export", "rope-freqs", "--head-dim", "8", "--scaling", "linear", "--factor",
                      "0.5", "--out", "OUTa.csv"},
                 "--factor must be 1..65536 (got 0.5)"},
        BadInput{
            Args{"export", "rope-freqs", "--head-dim", "8", "--scaling", "llama3", "--factor", "8",
                 "--low-freq-factor", "4", "--high-freq-factor", "1", "--out", "OUTa.csv"},
            "--high-freq-factor must be finite and >= low_freq_factor 4 (got 1)"},
        BadInput{Args{"export", "rope-freqs", "--head-dim", "8", "--scaling", "yarn", "--factor",
                      "4", "--low-freq-factor", "2", "--out", "OUTa.csv"},
                 "--low-freq-factor does not apply to --scaling yarn"},
        BadInput{Args{"export", "rope-freqs", "--head-dim", "8", "--scaling", "yarn", "--factor",
                      "4", "--original-max-pos", "0", "--out", "OUTa.csv"},
                 "--original-max-pos must be 1..1073741824 (got 0)"},
        BadInput{
            Args{"export", "rope-freqs", "--head-dim", "8", "--seq-len", "0", "--out", "OUTa.csv"},
            "--seq-len must be 1..1073741824 (got 0)"},
        BadInput{Args{"export", "rope-freqs", "--head-dim", "8", "--out", "OUTa.txt"},
                 "--out must end in .csv or .npy"},
        BadInput{
            Args{"export", "rope-freqs", "--head-dim", "8", "--pairs", "1", "--out", "OUTa.csv"},
            "unknown option --pairs"}));

INSTANTIATE_TEST_SUITE_P(
    Configs, RopeCliBadInputTest,
    ::testing::Values(
        BadInput{Args{"export", "rope-freqs", "--config", "CFGmissing.json", "--out", "OUTa.csv"},
                 "missing.json: cannot open the file"},
        BadInput{Args{"export", "rope-freqs", "--config", "CFGtruncated.json", "--out", "OUTa.csv"},
                 "truncated.json: config.json is not valid JSON"},
        BadInput{Args{"export", "rope-freqs", "--config", "CFGempty.json", "--out", "OUTa.csv"},
                 "empty.json: config.json is not valid JSON"},
        BadInput{Args{"export", "rope-freqs", "--config", "CFGarray.json", "--out", "OUTa.csv"},
                 "config.json must be a JSON object (got an array)"},
        BadInput{Args{"export", "rope-freqs", "--config", "CFGlongrope.json", "--out", "OUTa.csv"},
                 "rope_scaling.short_factor must have rotated dims / 2 = 48 entries (got 1)"},
        BadInput{Args{"export", "rope-freqs", "--config", "CFGnoheads.json", "--out", "OUTa.csv"},
                 "head size unknown"},
        BadInput{Args{"export", "rope-freqs", "--config", "CFGnolowfreq.json", "--out", "OUTa.csv"},
                 "rope_scaling.low_freq_factor is required for rope type llama3"},
        BadInput{Args{"export", "rope-freqs", "--config", "CFGbadtheta.json", "--out", "OUTa.csv"},
                 "rope_theta"},
        BadInput{Args{"export", "rope-scores", "--config", "CFGtruncated.json", "--seq-len", "8",
                      "--out", "OUTa.csv"},
                 "--config "},
        BadInput{Args{"render", "rope-angles", "--config", "CFGarray.json", "--out", "OUTa.png"},
                 "config.json must be a JSON object"},
        BadInput{Args{"export", "rope-freqs", "--config", "CFGllama31.json", "--beta-fast", "8",
                      "--out", "OUTa.csv"},
                 "--beta-fast does not apply to --scaling llama3"}));

// The paper controls every render view takes, and the rope-scalings view's own options.
INSTANTIATE_TEST_SUITE_P(
    PaperControls, RopeCliBadInputTest,
    ::testing::Values(
        BadInput{Args{"render", "rope-scalings", "--font-scale", "4", "--out", "OUTa.svg"},
                 "--font-scale must be 0.5..3 (got 4)"},
        BadInput{Args{"render", "rope-scalings", "--font-scale", "nan", "--out", "OUTa.svg"},
                 "--font-scale expects a number (got 'nan')"},
        BadInput{Args{"render", "rope-scalings", "--legend", "inside", "--out", "OUTa.svg"},
                 "--legend must be auto, outside or none (got 'inside')"},
        BadInput{Args{"render", "rope-scalings", "--aspect", "wide", "--out", "OUTa.svg"},
                 "--aspect must be auto or square (got 'wide')"},
        BadInput{Args{"render", "rope-frequencies", "--head-dim", "64", "--panel", "2", "--out",
                      "OUTa.svg"},
                 "--panel must be 1..1 for this view (got 2)"},
        BadInput{Args{"render", "rope-frequencies", "--head-dim", "64", "--panel", "0", "--out",
                      "OUTa.svg"},
                 "--panel must be 1..1 for rope-frequencies (got 0)"},
        BadInput{Args{"render", "t5", "--panel", "9", "--out", "OUTa.svg"}, "--panel must be 1.."},
        BadInput{Args{"render", "rope-scalings", "--title", "x", "--no-title", "--out", "OUTa.svg"},
                 "--title and --no-title go separately (choose one)"},
        BadInput{Args{"render", "rope-scalings", "--factor", "0.5", "--out", "OUTa.svg"},
                 "--factor must be 1..65536 (got 0.5)"},
        BadInput{Args{"render", "rope-scalings", "--x-axis", "time", "--out", "OUTa.svg"},
                 "--x-axis must be pair or wavelength (got 'time')"}));

INSTANTIATE_TEST_SUITE_P(
    RotateScoresDecay, RopeCliBadInputTest,
    ::testing::Values(
        BadInput{Args{"export", "rope-rotate", "--positions", "0", "--out", "OUTa.csv"},
                 "--vector LIST is required"},
        BadInput{Args{"export", "rope-rotate", "--vector", "1,2", "--out", "OUTa.csv"},
                 "--positions LIST is required"},
        BadInput{Args{"export", "rope-rotate", "--vector", "1,2,3", "--positions", "0", "--out",
                      "OUTa.csv"},
                 "must be even"},
        BadInput{Args{"export", "rope-rotate", "--vector", "1,2,abc", "--positions", "0", "--out",
                      "OUTa.csv"},
                 "--vector expects comma-separated numbers (got '1,2,abc')"},
        BadInput{Args{"export", "rope-rotate", "--vector", "1,nan", "--positions", "0", "--out",
                      "OUTa.csv"},
                 "--vector expects comma-separated numbers (got '1,nan')"},
        BadInput{Args{"export", "rope-rotate", "--vector", "1,2", "--positions", "0,inf", "--out",
                      "OUTa.csv"},
                 "--positions expects comma-separated numbers (got '0,inf')"},
        BadInput{Args{"export", "rope-rotate", "--vector", "1,2", "--head-dim", "4", "--positions",
                      "0", "--out", "OUTa.csv"},
                 "--vector must have head_dim = 4 entries (got 2)"},
        BadInput{Args{"export", "rope-rotate", "--vector", "1,2", "--positions", "0", "--pairing",
                      "diagonal", "--out", "OUTa.csv"},
                 "--pairing must be half or interleaved (got 'diagonal')"},
        BadInput{Args{"export", "rope-scores", "--head-dim", "8", "--out", "OUTa.csv"},
                 "--seq-len L is required"},
        BadInput{Args{"export", "rope-scores", "--q", "1,2", "--seq-len", "4", "--out", "OUTa.csv"},
                 "--q and --k go together"},
        BadInput{Args{"export", "rope-scores", "--q", "1,2", "--k", "1,2,3", "--seq-len", "4",
                      "--out", "OUTa.csv"},
                 "--k must have as many entries as --q (2) (got 3)"},
        BadInput{
            Args{"export", "rope-scores", "--head-dim", "8", "--seq-len", "0", "--out", "OUTa.csv"},
            "--seq-len must be 1..1048576 (got 0)"},
        BadInput{Args{"export", "rope-scores", "--head-dim", "8", "--seed", "-1", "--seq-len", "4",
                      "--out", "OUTa.csv"},
                 "--seed must be 0.."},
        BadInput{Args{"export", "rope-scores", "--head-dim", "8", "--seq-len", "1048576", "--out",
                      "OUTa.npy"},
                 "memory cap"},
        BadInput{Args{"export", "rope-decay", "--head-dim", "128", "--out", "OUTa.csv"},
                 "--max-distance R is required"},
        BadInput{Args{"export", "rope-decay", "--max-distance", "10", "--out", "OUTa.csv"},
                 "--head-dim D is required"},
        BadInput{Args{"export", "rope-decay", "--head-dim", "128", "--max-distance", "-1", "--out",
                      "OUTa.csv"},
                 "--max-distance must be 0..1048576 (got -1)"}));

INSTANTIATE_TEST_SUITE_P(
    Renders, RopeCliBadInputTest,
    ::testing::Values(
        BadInput{Args{"render", "rope-rotation", "--head-dim", "128", "--pairs", "0,64", "--out",
                      "OUTa.png"},
                 "--pairs entries must be 0..63 (got 64)"},
        BadInput{Args{"render", "rope-rotation", "--trail", "100", "--out", "OUTa.png"},
                 "--trail must be 0..32 (got 100)"},
        BadInput{Args{"render", "rope-rotation", "--m", "nan", "--out", "OUTa.png"},
                 "--m expects a number (got 'nan')"},
        BadInput{Args{"render", "rope-rotation", "--m", "1e308", "--out", "OUTa.png"},
                 "--m must be a finite position"},
        BadInput{
            Args{"render", "rope-rotation", "--pairs", "0,1", "--pairs", "2", "--out", "OUTa.png"},
            "--pairs given twice"},
        BadInput{
            Args{"render", "rope-frequencies", "--incomplete-within", "both", "--out", "OUTa.png"},
            "--incomplete-within must be context or training (got 'both')"},
        BadInput{Args{"render", "rope-scores", "--colormap", "jet", "--out", "OUTa.png"},
                 "--colormap must be viridis"},
        BadInput{Args{"render", "rope-angles", "--seq-len", "2000000", "--out", "OUTa.png"},
                 "--seq-len must be 1..1048576 (got 2000000)"},
        BadInput{Args{"render", "rope-decay", "--head-dim", "9", "--out", "OUTa.png"},
                 "must be even"},
        BadInput{Args{"render", "rope-decay", "--out", "OUTa.jpg"}, "--out must end in .png"}));

TEST_F(RopeCliTest, HelpListsTheRopeCommandsAndOptions) {
    auto exportHelp = runPoslab({"export", "--help"});
    EXPECT_EQ(exportHelp.exitCode, 0);
    for (const char* text : {"rope-freqs", "rope-rotate", "rope-scores", "rope-decay", "--config",
                             "--rotary-fraction", "--original-max-pos", "--beta-fast"}) {
        EXPECT_NE(exportHelp.out.find(text), std::string::npos) << text;
    }
    auto renderHelp = runPoslab({"render", "--help"});
    for (const char* text :
         {"rope-rotation", "rope-angles", "rope-scores", "rope-frequencies", "rope-decay"}) {
        EXPECT_NE(renderHelp.out.find(text), std::string::npos) << text;
    }
}

// The GUI's RoPE view under Xvfb: the rotation panels and the heatmaps are drawn.
TEST(RopeGuiTest, RopeViewUnderXvfbIsNotBlank) {
    if (runShell("command -v xvfb-run").exitCode != 0) GTEST_SKIP() << "xvfb-run not installed";
    const std::string dir = temporaryDirectory("rope-gui");
    const std::string shot = dir + "/rope.png";
    auto result =
        runShell("xvfb-run -a -s '-noreset -screen 0 1440x900x24' " + shellQuote(POSLAB_BINARY) +
                 " --view RoPE --screenshot " + shellQuote(shot));
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const ImageRgba image = loadPng(shot);
    ASSERT_EQ(image.width, 1440);
    ASSERT_EQ(image.height, 900);
    // The rotation grid fills the right of the window: arrows in the dark theme's sky blue and
    // orange, and many colours (circles, trails, labels), not an empty background.
    EXPECT_GT(pixelsNear(image, {86, 180, 233, 255}, 12), 500);
    EXPECT_GT(pixelsNear(image, {230, 159, 0, 255}, 12), 500);
    EXPECT_GT(distinctColours(image, 400, 120, 1400, 850), 60);
}

// A session that left the RoPE view on its angle heatmap opens on it again. The tab bar used to
// overwrite the saved figure with its first tab before it could select the saved one.
TEST(RopeGuiTest, SessionsReopenTheRopeFigureTheyShowed) {
    if (runShell("command -v xvfb-run").exitCode != 0) GTEST_SKIP() << "xvfb-run not installed";
    const std::string dir = temporaryDirectory("rope-session");
    const std::string xvfb =
        "xvfb-run -a -s '-noreset -screen 0 1440x900x24' " + shellQuote(POSLAB_BINARY);
    auto saved =
        runShell(xvfb + " --fresh --view RoPE --screenshot " + shellQuote(dir + "/first.png") +
                 " --save-session " + shellQuote(dir + "/session.json"));
    ASSERT_EQ(saved.exitCode, 0) << saved.err;
    nlohmann::json session = nlohmann::json::parse(readFile(dir + "/session.json"));
    session["rope"]["figure"] = 1;  // RopeFigureId::Angles
    std::ofstream(dir + "/angles.json") << session.dump();
    const std::string shot = dir + "/angles.png";
    auto result = runShell(xvfb + " --session " + shellQuote(dir + "/angles.json") +
                           " --view RoPE --screenshot " + shellQuote(shot));
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const ImageRgba image = loadPng(shot);
    ASSERT_EQ(image.width, 1440);
    // The angle map fills the right of the window with the cyclic twilight colormap; the
    // rotation panels (the first tab) hold no twilight at all.
    EXPECT_GT(fractionFromColormap(image, ColormapId::Twilight, 500, 200, 1200, 700), 0.5);
    auto reread = runShell(xvfb + " --session " + shellQuote(dir + "/angles.json") +
                           " --view RoPE --screenshot " + shellQuote(dir + "/again.png") +
                           " --save-session " + shellQuote(dir + "/again.json"));
    ASSERT_EQ(reread.exitCode, 0) << reread.err;
    EXPECT_EQ(nlohmann::json::parse(readFile(dir + "/again.json"))["rope"]["figure"], 1);
}

}  // namespace
}  // namespace poslab::test
