// The GUI driven by random input across every view (the scripted --soak mode). In the ASan
// build (./dev test runs both) this also proves no crash and no leak; here it proves no NaN
// reaches a heatmap texture. Long soaks (10,000+ frames) are run by hand: see the README.
#include <gtest/gtest.h>

#include <string>

#include "process.hpp"

namespace poslab::test {
namespace {

TEST(SoakTest, RandomInputAcrossEveryView) {
    if (runShell("command -v xvfb-run").exitCode != 0) GTEST_SKIP() << "xvfb-run not installed";
    // Random clicks may press Export or Screenshot: run where stray files do no harm.
    const std::string dir = temporaryDirectory("soak");
    for (const char* seed : {"1", "2"}) {
        auto result = runShell("cd " + shellQuote(dir) + " && xvfb-run -a -s '-screen 0 1440x900x24' " +
                               shellQuote(POSLAB_BINARY) + " --soak 300 --seed " + seed);
        EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
        EXPECT_NE(result.out.find("no NaN drawn"), std::string::npos) << result.out << result.err;
    }
}

// A projector: every view at 1024x768 in presentation mode (fonts and lines 1.75 times
// larger), in one process (--check-layout): no figure text drawn over another or past its
// figure's edge, and every view draws a figure.
TEST(PresentationTest, EveryViewOnAProjectorKeepsItsTextApartAndInside) {
    if (runShell("command -v xvfb-run").exitCode != 0) GTEST_SKIP() << "xvfb-run not installed";
    const std::string dir = temporaryDirectory("presentation");
    // Presented, and at the same size with the controls beside the figures.
    for (const char* mode : {"--presentation", ""}) {
        auto result = runShell("cd " + shellQuote(dir) + " && XDG_CONFIG_HOME=" + shellQuote(dir) +
                               " xvfb-run -a -s '-screen 0 1440x900x24' " +
                               shellQuote(POSLAB_BINARY) + " --fresh --window-size 1024x768 " +
                               mode + " --check-layout");
        EXPECT_EQ(result.exitCode, 0) << mode << result.out << result.err;
        EXPECT_NE(result.out.find("check-layout: 10 views, 0 faults"), std::string::npos)
            << mode << result.out << result.err;
        EXPECT_NE(result.out.find("Extrapolation: 1 figures, 0 text faults"), std::string::npos)
            << mode << result.out;
    }
}

TEST(PresentationTest, WindowSizeIsChecked) {
    for (const char* bad : {"100x768", "1024x", "1024x768x2", "wide", "9000x900"}) {
        auto refused = runPoslab({"--window-size", bad}, "DISPLAY= ");
        EXPECT_EQ(refused.exitCode, 2) << bad;
        EXPECT_EQ(refused.err,
                  "poslab: --window-size must be WxH within 320x240..8192x8192 (got '" +
                      std::string(bad) + "')\n")
            << bad;
    }
}

// The frame-time benchmarks (README, Benchmarks) run each scenario's frames and report them.
TEST(BenchTest, EveryScenarioReportsItsFrames) {
    if (runShell("command -v xvfb-run").exitCode != 0) GTEST_SKIP() << "xvfb-run not installed";
    const std::string dir = temporaryDirectory("bench");
    for (const char* scenario : {"slider", "pan-zoom", "rope-pan-zoom"}) {
        auto result =
            runShell("cd " + shellQuote(dir) + " && xvfb-run -a -s '-screen 0 1440x900x24' " +
                     shellQuote(POSLAB_BINARY) + " --fresh --bench-frames 12 " +
                     "--bench-scenario " + scenario);
        EXPECT_EQ(result.exitCode, 0) << scenario << result.out << result.err;
        EXPECT_NE(result.out.find("frames 12 "), std::string::npos) << scenario << result.out;
        EXPECT_NE(result.out.find("resident memory"), std::string::npos) << scenario << result.out;
        if (std::string(scenario) == "rope-pan-zoom") {
            EXPECT_NE(result.out.find("RoPE angles pan-zoom, head_dim 4096, 1048576 positions"),
                      std::string::npos)
                << result.out;
        }
    }
    auto bad = runPoslab({"--bench-frames", "3", "--bench-scenario", "zoom"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_EQ(bad.err,
              "poslab: --bench-scenario must be slider, pan-zoom or rope-pan-zoom (got 'zoom')\n");
}

}  // namespace
}  // namespace poslab::test
