// Headless rendering (EGL, Mesa surfaceless) and the GUI under Xvfb, checked by looking at pixels.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "poslab/colormap.hpp"
#include "process.hpp"

namespace poslab::test {
namespace {

TEST(RenderTest, HeadlessWithoutAnyDisplay) {
    const std::string dir = temporaryDirectory("render-headless");
    const std::string out = dir + "/sinusoidal.png";
    auto result = runPoslab({"render", "sinusoidal", "--d-model", "64", "--seq-len", "128",
                             "--colormap", "viridis", "--width", "900", "--height", "600", "--out", out},
                            "env -u DISPLAY -u WAYLAND_DISPLAY");
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const ImageRgba image = loadPng(out);
    ASSERT_EQ(image.width, 900);
    ASSERT_EQ(image.height, 600);
    // The middle of the figure is the heatmap: viridis colours, and many of them.
    EXPECT_GT(fractionFromColormap(image, ColormapId::Viridis, 300, 200, 600, 400), 0.9);
    EXPECT_GT(distinctColours(image, 300, 200, 600, 400), 40);
    // The paper theme's margins are white.
    const std::uint8_t* corner = &image.pixels[0];
    EXPECT_EQ(corner[0], 255);
    EXPECT_EQ(corner[1], 255);
    EXPECT_EQ(corner[2], 255);
}

TEST(RenderTest, ScaleMultipliesPixels) {
    const std::string dir = temporaryDirectory("render-scale");
    auto result = runPoslab({"render", "sinusoidal-curves", "--d-model", "20", "--width", "400",
                             "--height", "300", "--scale", "2", "--out", dir + "/c.png"},
                            "env -u DISPLAY");
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const ImageRgba image = loadPng(dir + "/c.png");
    EXPECT_EQ(image.width, 800);
    EXPECT_EQ(image.height, 600);
}

TEST(GuiTest, WindowUnderXvfbShowsTheHeatmap) {
    if (runShell("command -v xvfb-run").exitCode != 0) GTEST_SKIP() << "xvfb-run not installed";
    const std::string dir = temporaryDirectory("gui-smoke");
    const std::string shot = dir + "/window.png";
    auto result = runShell("xvfb-run -a -s '-screen 0 1440x900x24' " + shellQuote(POSLAB_BINARY) +
                           " --screenshot " + shellQuote(shot));
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const ImageRgba image = loadPng(shot);
    ASSERT_EQ(image.width, 1440);
    ASSERT_EQ(image.height, 900);
    // The heatmap fills the upper right of the window with the default blue-white-red map.
    EXPECT_GT(fractionFromColormap(image, ColormapId::BlueWhiteRed, 700, 250, 1100, 450), 0.9);
    EXPECT_GT(distinctColours(image, 700, 250, 1100, 450), 40);
}

}  // namespace
}  // namespace poslab::test
