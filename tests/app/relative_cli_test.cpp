// xPos, KERPLE, Sandwich and FIRE from the command line, and the Relative view's renders:
// exported values against the formulas written out here, bad inputs refused in one line with
// exit code 2 and no file left behind.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "poslab/figure/colormap.hpp"
#include "poslab/io/csv.hpp"
#include "process.hpp"

namespace poslab::test {
namespace {

class RelativeCliTest : public CommandLineTest {};

// Tolerance for values read back from CSV: the exporter writes the shortest round-trip text,
// so formulas evaluated the same way agree to a few ulps.
constexpr double kTolerance = 1e-12;

TEST_F(RelativeCliTest, KerpleLogAndPowerMatchTheAuthorsFormulas) {
    const Matrix log = exportCsv(
        {"export", "kerple", "--seq-len", "6", "--kernel", "log", "--r1", "1.5", "--r2", "0.3"});
    ASSERT_EQ(log.rows, 6u);
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 6; ++j) {
            if (j > i) {
                EXPECT_TRUE(std::isinf(log(i, j)) && log(i, j) < 0) << i << " " << j;
            } else {
                EXPECT_NEAR(log(i, j), -1.5 * std::log(1 + 0.3 * (i - j)), kTolerance);
            }
        }
    }
    // The exponent 3 is clamped to 2, as the code's bias_p.clamp(max=2).
    const Matrix power = exportCsv(
        {"export", "kerple", "--seq-len", "5", "--kernel", "power", "--r1", "0.25", "--r2", "3"});
    EXPECT_NEAR(power(4, 0), -0.25 * 16, kTolerance);
    EXPECT_NEAR(power(3, 1), -0.25 * 4, kTolerance);
}

TEST_F(RelativeCliTest, SandwichMatchesNemo) {
    const Matrix m = exportCsv({"export", "sandwich", "--seq-len", "8", "--head-dim", "16",
                                "--heads", "4", "--head", "1"});
    ASSERT_EQ(m.rows, 8u);
    auto reference = [](int r) {  // (sum_{i=1..8} cos(r 10000^(-2i/16)) - 8) / (8 * 2 / 4)
        double total = 0;
        for (int i = 1; i <= 8; ++i) total += std::cos(r / std::pow(10000.0, 2.0 * i / 16));
        return (total - 8) / 4.0;
    };
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j <= i; ++j) EXPECT_NEAR(m(i, j), reference(i - j), 1e-12) << i << j;
}

TEST_F(RelativeCliTest, XposScoresDecayWithDistance) {
    const Matrix m = exportCsv({"export", "xpos", "--seq-len", "5", "--head-dim", "8"});
    auto reference = [](int r) {  // sum_i 2 zeta_i^(r/512) cos(r 10000^(-i/4)), q = k = ones
        double total = 0;
        for (int i = 0; i < 4; ++i) {
            const double zeta = (2.0 * i + 0.4 * 8) / (1.4 * 8);
            total += 2 * std::pow(zeta, r / 512.0) * std::cos(r * std::pow(10000.0, -i / 4.0));
        }
        return total;
    };
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j <= i; ++j) EXPECT_NEAR(m(i, j), reference(i - j), 1e-12);
}

TEST_F(RelativeCliTest, FirePhiMatchesTheFormula) {
    const Matrix phi = exportCsv({"export", "fire", "--seq-len", "700", "--phi"});
    // log(0.1 |i - j| + 1) / (log(0.1 max(i, 512) + 1) + 1e-6)
    for (auto [i, j] : {std::pair{10, 3}, std::pair{699, 0}, std::pair{600, 100}}) {
        const double expected =
            std::log(0.1 * (i - j) + 1) / (std::log(0.1 * std::max(i, 512) + 1) + 1e-6);
        EXPECT_NEAR(phi(i, j), expected, 1e-14);
    }
    const Matrix bias = exportCsv({"export", "fire", "--seq-len", "4", "--seed", "3"});
    EXPECT_TRUE(std::isinf(bias(0, 3)));
    EXPECT_TRUE(std::isfinite(bias(3, 0)));
}

TEST_F(RelativeCliTest, EveryRenderWritesAFigure) {
    for (const char* view : {"relative-family", "xpos", "kerple", "sandwich", "fire"}) {
        const std::string out = path(std::string(view) + ".png");
        auto result = runPoslab({"render", view, "--seq-len", "65536", "--log-distance", "--width",
                                 "900", "--height", "600", "--out", out},
                                "env -u DISPLAY");
        EXPECT_EQ(result.exitCode, 0) << view << ": " << result.err;
        EXPECT_TRUE(std::filesystem::exists(out)) << view;
    }
}

// Compare's relative members take their parameters from `render compare` (issue #25): each
// changes the figure, and a bad one is refused like the Relative view's own renders.
TEST_F(RelativeCliTest, RenderCompareSetsTheRelativeMembers) {
    auto render = [&](const std::string& name, std::vector<std::string> extra) {
        // Wide enough for every panel at once (narrower shows one panel at a time). SVG at
        // L = 32, d = 16: the same figure built from the same options, without rasterising 1600 x
        // 900 pixels under the sanitizers (a PNG at the defaults cost twice the CPU); the files
        // of equal options are equal byte for byte, so a difference is the options' doing.
        const std::string out = path(name + ".svg");
        std::vector<std::string> arguments = {"render",    "compare", "--width",   "1600",
                                              "--height",  "900",     "--seq-len", "32",
                                              "--d-model", "16",      "--out",     out};
        arguments.insert(arguments.end(), extra.begin(), extra.end());
        auto result = runPoslab(arguments, "env -u DISPLAY");
        EXPECT_EQ(result.exitCode, 0) << name << ": " << result.err;
        std::ifstream file(out, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(file), {});
    };
    const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
        {{"--bias-a", "kerple-log"}, {"--log-r1", "3", "--log-r2", "0.25"}},
        {{"--bias-a", "kerple-power"}, {"--power-r1", "2", "--power-r2", "1.5"}},
        {{"--bias-a", "sandwich"},
         {"--sandwich-dim", "32", "--sandwich-heads", "4", "--sandwich-head", "3"}},
        {{"--bias-a", "fire"}, {"--c", "2", "--threshold", "16", "--fire-head", "3"}},
        {{"--bias-a", "xpos"}, {"--gamma", "0.05", "--scale-base", "8"}}};
    int k = 0;
    for (const auto& [slot, parameters] : cases) {
        const std::string plain = render("plain" + std::to_string(k), slot);
        std::vector<std::string> both = slot;
        both.insert(both.end(), parameters.begin(), parameters.end());
        const std::string set = render("set" + std::to_string(k), both);
        EXPECT_FALSE(plain.empty());
        EXPECT_NE(plain, set) << slot[1] << ": the parameters changed nothing";
        ++k;
    }
}

// The Relative view under Xvfb, each tab at L = 65,536 (a session picks the tab): its heatmaps
// are drawn in viridis (lower triangles; the masked upper triangles are grey).
class RelativeGuiTest : public ::testing::TestWithParam<const char*> {};

TEST_P(RelativeGuiTest, TabUnderXvfbShowsItsHeatmaps) {
    if (runShell("command -v xvfb-run").exitCode != 0) GTEST_SKIP() << "xvfb-run not installed";
    const std::string tab = GetParam();
    const std::string dir = temporaryDirectory("relative-gui-" + tab);
    const std::string session = dir + "/session.json";
    std::ofstream(session) << R"({"format": "poslab-session", "version": 1, "view": "Relative",)"
                           << R"( "relative": {"tab": ")" << tab << R"(", "seqLen": 65536}})";
    const std::string shot = dir + "/window.png";
    auto result =
        runShell("xvfb-run -a -s '-noreset -screen 0 1440x900x24' " + shellQuote(POSLAB_BINARY) +
                 " --session " + shellQuote(session) + " --screenshot " + shellQuote(shot));
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const ImageRgba image = loadPng(shot);
    ASSERT_EQ(image.width, 1440);
    // The figure area right of the controls. The smallest share is the Family tab's: eight
    // lower-triangle heatmaps of ~130 px in a 4 x 2 grid beside the curves, about 9 % of it
    // (a blank or grey figure has none).
    EXPECT_GT(fractionFromColormap(image, ColormapId::Viridis, 360, 100, 1430, 880), 0.05) << tab;
    EXPECT_GT(distinctColours(image, 360, 100, 1430, 880), 60) << tab;
}

INSTANTIATE_TEST_SUITE_P(Tabs, RelativeGuiTest,
                         ::testing::Values("family", "xpos", "kerple", "sandwich", "fire"));

struct BadRelativeInput {
    std::vector<std::string> arguments;
    std::string expectedMessage;
};

class RelativeBadInputTest : public ::testing::TestWithParam<BadRelativeInput> {};

TEST_P(RelativeBadInputTest, OneLineErrorExitCode2AndNoFile) {
    const std::string dir = temporaryDirectory("relative-bad-out");
    std::vector<std::string> arguments = GetParam().arguments;
    for (std::string& a : arguments)
        if (a.rfind("OUT", 0) == 0) a = dir + "/" + a.substr(3);
    auto result = runPoslab(arguments);
    expectOneLineRefusal(result, GetParam().expectedMessage);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 0)
        << "a file was left behind";
}

INSTANTIATE_TEST_SUITE_P(
    Relative, RelativeBadInputTest,
    ::testing::Values(
        BadRelativeInput{{"export", "kerple", "--out", "OUTa.csv"}, "--seq-len L is required"},
        BadRelativeInput{
            {"export", "kerple", "--seq-len", "4", "--kernel", "cubic", "--out", "OUTa.csv"},
            "--kernel must be power or log (got 'cubic')"},
        BadRelativeInput{{"export", "kerple", "--seq-len", "4", "--r1", "-1", "--out", "OUTa.csv"},
                         "r1 must be"},
        BadRelativeInput{{"export", "kerple", "--seq-len", "4", "--r2", "nan", "--out", "OUTa.csv"},
                         "r2"},
        BadRelativeInput{
            {"export", "xpos", "--seq-len", "4", "--head-dim", "7", "--out", "OUTa.csv"},
            "--head-dim must be even (got 7)"},
        BadRelativeInput{{"export", "xpos", "--seq-len", "0", "--out", "OUTa.csv"},
                         "--seq-len must be 1..1048576 (got 0)"},
        BadRelativeInput{{"export", "sandwich", "--seq-len", "4", "--heads", "4", "--head", "4",
                          "--out", "OUTa.csv"},
                         "head must be 0..3 (got 4)"},
        BadRelativeInput{{"export", "fire", "--seq-len", "4", "--c", "0", "--out", "OUTa.csv"},
                         "c must be"},
        BadRelativeInput{{"render", "relative-family", "--bias-floor", "1", "--out", "OUTa.png"},
                         "--bias-floor must be"},
        BadRelativeInput{{"render", "fire", "--threshold", "0", "--out", "OUTa.png"},
                         "threshold must be"},
        BadRelativeInput{{"render", "compare", "--sandwich-heads", "4", "--sandwich-head", "4",
                          "--out", "OUTa.png"},
                         "head must be 0..3 (got 4)"},
        BadRelativeInput{{"render", "compare", "--c", "0", "--out", "OUTa.png"}, "c must be"},
        BadRelativeInput{{"render", "compare", "--log-r1", "-1", "--out", "OUTa.png"},
                         "r1 must be"}));

}  // namespace
}  // namespace poslab::test
