// `poslab render VIEW --panel N` shows the panel the GUI's panel selector calls N ("panel 2 of 3")
// in every multi-panel view, with all it holds (issue 28): --panel counted plots, so a GUI panel
// of several plots (Binary clock's bit curves) was cut up and the numbers ran past the GUI's.
// The panels' titles are the views' own (binary_clock_figures.cpp, frequency_resolution_...).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "process.hpp"

namespace poslab::test {
namespace {

class PanelNumberingTest : public CommandLineTest {
  protected:
    std::string panel(const std::string& view, const std::string& n) {
        const auto result = runPoslab({"render", view, "--panel", n, "--out", path("p.svg")});
        EXPECT_EQ(result.exitCode, 0) << view << " --panel " << n << ": " << result.err;
        return readFile(path("p.svg"));
    }
    std::string refused(const std::string& view, const std::string& n) {
        const auto result = runPoslab({"render", view, "--panel", n, "--out", path("no.svg")});
        EXPECT_EQ(result.exitCode, 2) << view << " --panel " << n;
        return result.err;
    }
    static bool has(const std::string& svg, const std::string& text) {
        return svg.find(text) != std::string::npos;
    }
};

TEST_F(PanelNumberingTest, BinaryClockPanelThreeIsEveryBitCurve) {
    // The GUI: 1 the bits, 2 the sinusoid columns, 3 the bit curves (one plot per bit).
    const std::string bits = panel("binary-clock", "1");
    EXPECT_TRUE(has(bits, "bits of the position"));
    EXPECT_FALSE(has(bits, "bit 0: period"));
    const std::string curves = panel("binary-clock", "3");
    EXPECT_TRUE(has(curves, "bit 0: period"));
    EXPECT_TRUE(has(curves, "bit 1: period"));  // the whole panel, not its first plot
    EXPECT_FALSE(has(curves, "bits of the position"));
    EXPECT_NE(refused("binary-clock", "4").find("--panel must be 1..3"), std::string::npos);
}

TEST_F(PanelNumberingTest, LearnedAndFrequencyResolutionCountAsTheGuiDoes) {
    const std::string cosine = panel("learned", "2");
    EXPECT_TRUE(has(cosine, "Cosine similarity between positions"));
    EXPECT_FALSE(has(cosine, "Learned table"));
    EXPECT_NE(refused("learned", "4").find("--panel must be 1..3"), std::string::npos);
    const std::string pairs = panel("frequency-resolution", "2");
    EXPECT_TRUE(has(pairs, "one pair on its own"));
    EXPECT_FALSE(has(pairs, "|PE(p+D)"));
    EXPECT_NE(refused("frequency-resolution", "3").find("--panel must be 1..2"), std::string::npos);
}

TEST_F(PanelNumberingTest, EveryMultiPanelViewTakesItsGuiRange) {
    // Each view's GUI panel count (its PanelShape): the last is drawn, one past it refused.
    const std::vector<std::pair<std::string, int>> views = {
        {"meaning", 6},     {"add-vs-concat", 3}, {"extrapolation", 6},        {"compare", 7},
        {"cope", 4},        {"deberta", 4},       {"randomized-positions", 2}, {"learned-pca", 6},
        {"linear-shift", 3}};
    for (const auto& [view, count] : views) {
        const auto last = runPoslab(
            {"render", view, "--panel", std::to_string(count), "--out", path("last.svg")});
        EXPECT_EQ(last.exitCode, 0) << view << ": " << last.err;
        const std::string past = refused(view, std::to_string(count + 1));
        EXPECT_NE(past.find("--panel must be 1.." + std::to_string(count)), std::string::npos)
            << view << ": " << past;
    }
}

}  // namespace
}  // namespace poslab::test
