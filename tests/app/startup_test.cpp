// Start-up and sessions as a user meets them (issue 28): --window-size over a remembered or
// opened session's window, FILE after the options, a session re-reading the files it names, an
// out-of-range rope.figure refused, a broken config.json in one line, the keys in Help and the
// first start's pointer to the Tour. The GUI runs under xvfb-run; the rest needs no display.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.hpp"
#include "state/app_state.hpp"
#include "state/session_files.hpp"
#include "state/session_format.hpp"
#include "ui/key_help.hpp"
#include "ui/session.hpp"

namespace poslab::test {
namespace {

using nlohmann::json;

std::string gui(const std::string& dir, const std::string& arguments) {
    return "cd " + shellQuote(dir) + " && XDG_CONFIG_HOME=" + shellQuote(dir + "/config") +
           " xvfb-run -a -s '-noreset -screen 0 1440x900x24' " + shellQuote(POSLAB_BINARY) + " " +
           arguments;
}

void writeTextFile(const std::string& path, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path) << text;
}

std::string sessionText(int width, int height, const std::string& configPath = "") {
    state::AppState state;
    state.rope.configPath = configPath;
    state::SessionLayout layout;
    layout.view = "RoPE";
    layout.windowWidth = width;
    layout.windowHeight = height;
    return state::sessionToJson(state, layout).dump(2);
}

int countLines(const std::string& text, const std::string& containing) {
    int lines = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        if (text.substr(start, end - start).find(containing) != std::string::npos) ++lines;
        start = end + 1;
    }
    return lines;
}

// `poslab --fresh FILE`: the file may follow the options (it used to be "unexpected argument").
// Without a display the window cannot open, which comes after the options are read.
TEST(StartupTest, FileMayFollowTheOptions) {
    const std::string dir = temporaryDirectory("startup-file");
    const std::string config = dir + "/config.json";
    writeTextFile(config, R"({"hidden_size": 4096, "num_attention_heads": 32})");
    for (const std::vector<std::string>& arguments :
         {std::vector<std::string>{"--fresh", config},
          std::vector<std::string>{"--fresh", "--view", "rope", config, "--zoom", "1.5"}}) {
        auto result = runPoslab(arguments, "DISPLAY= WAYLAND_DISPLAY= ");
        EXPECT_EQ(result.exitCode, 1) << result.err;
        EXPECT_NE(result.err.find("no display to open a window on"), std::string::npos)
            << result.err;
    }
    auto two = runPoslab({"--fresh", config, config}, "DISPLAY= ");
    EXPECT_EQ(two.exitCode, 2);
    EXPECT_NE(two.err.find("poslab opens one file at a time"), std::string::npos) << two.err;
    if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not installed";
    auto shown = runShell(
        gui(dir, "--fresh --window-size 640x480 --screenshot shot.png " + shellQuote(config)));
    EXPECT_EQ(shown.exitCode, 0) << shown.err;
    EXPECT_TRUE(fileExists(dir + "/shot.png"));
}

// --window-size is the user's latest word: an opened or remembered session's window (800x600
// here) does not resize it. The screenshot is the framebuffer, so its size is the window's.
TEST(StartupTest, WindowSizeWinsOverTheSessionsWindow) {
    if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not installed";
    const std::string dir = temporaryDirectory("startup-window");
    writeTextFile(dir + "/s.json", sessionText(800, 600));
    writeTextFile(dir + "/config/poslab/session.json", sessionText(800, 600));
    for (const std::string& session :
         {std::string("--session s.json"), std::string("--remember")}) {
        std::filesystem::remove(dir + "/shot.png");
        auto result = runShell(gui(dir, session + " --window-size 1024x768 --screenshot shot.png"));
        ASSERT_EQ(result.exitCode, 0) << session << result.err;
        const ImageRgba image = loadPng(dir + "/shot.png");
        EXPECT_EQ(image.width, 1024) << session;
        EXPECT_EQ(image.height, 768) << session;
    }
    // Without --window-size the session's window is used.
    auto result = runShell(gui(dir, "--session s.json --screenshot own.png"));
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(loadPng(dir + "/own.png").width, 800);
}

// A session names the RoPE view's config.json: restoring it reads the file again (the Layers tab
// was empty after a restore), and a file that is gone is one line, the rest of the session kept.
TEST(StartupTest, SessionRereadsItsConfigAndReportsAMissingOneInOneLine) {
    const std::string config = std::string(POSLAB_TEST_DATA_DIR) + "/configs/gemma-3-4b-it.json";
    const std::string dir = temporaryDirectory("startup-reread");
    writeTextFile(dir + "/s.json", sessionText(800, 600, config));
    state::AppState state;
    state::SessionLayout layout;
    state::Warnings warnings;
    ASSERT_TRUE(state::loadSessionFile(dir + "/s.json", state, layout, warnings).ok());
    EXPECT_FALSE(state.rope.config.has_value());  // the session holds the path only
    const state::Warnings reread = state::rereadSessionFiles(state);
    EXPECT_TRUE(reread.empty()) << reread.front();
    ASSERT_TRUE(state.rope.config.has_value());
    EXPECT_EQ(state.rope.config->layers.size(), 34u);  // gemma-3-4b: num_hidden_layers 34
    EXPECT_EQ(state.rope.params, state::AppState{}.rope.params);  // the session's settings stay

    const std::string missing = dir + "/gone/config.json";
    writeTextFile(dir + "/missing.json", sessionText(800, 600, missing));
    state::AppState other;
    ASSERT_TRUE(state::loadSessionFile(dir + "/missing.json", other, layout, warnings).ok());
    const state::Warnings lost = state::rereadSessionFiles(other);
    ASSERT_EQ(lost.size(), 1u);
    EXPECT_EQ(lost[0].rfind("rope.configPath: ", 0), 0u) << lost[0];
    EXPECT_NE(lost[0].find("gone/config.json"), std::string::npos) << lost[0];
    EXPECT_EQ(lost[0].find('\n'), std::string::npos);
    if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not installed";
    auto result = runShell(gui(dir, "--session missing.json --screenshot shot.png"));
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(countLines(result.err, "gone/config.json"), 1) << result.err;
}

// The status line after a restore counts what was skipped as a person would: "1 setting
// skipped", "2 settings skipped" (it said "1 settings skipped"), the first warning after it.
TEST(StartupTest, SessionStatusCountsSkippedSettingsInWords) {
    EXPECT_EQ(ui::sessionOpenedMessage("s.json", {}), "Opened session s.json");
    EXPECT_EQ(ui::sessionOpenedMessage("s.json", {"rope.configPath: gone"}),
              "Opened session s.json (1 setting skipped: rope.configPath: gone)");
    EXPECT_EQ(ui::sessionOpenedMessage("s.json", {"rope.configPath: gone", "learned.npyPath: x"}),
              "Opened session s.json (2 settings skipped: rope.configPath: gone)");
}

// rope.figure names a tab by number: one out of range is refused with the range, not clamped
// to the last tab.
TEST(StartupTest, OutOfRangeRopeFigureIsRefused) {
    json session = state::sessionToJson(state::AppState{}, state::SessionLayout{});
    for (int figure : {99, -1}) {
        session["rope"]["figure"] = figure;
        session["rope"]["m"] = 11;
        state::AppState state;
        state::SessionLayout layout;
        state::Warnings warnings;
        ASSERT_TRUE(state::applySessionJson(session, state, layout, warnings).ok());
        ASSERT_EQ(warnings.size(), 1u) << figure;
        EXPECT_EQ(warnings[0].rfind("rope: figure must be 0..", 0), 0u) << warnings[0];
        EXPECT_NE(warnings[0].find("(got " + std::to_string(figure) + ")"), std::string::npos)
            << warnings[0];
        EXPECT_EQ(state.rope.figure, state::AppState{}.rope.figure);
        EXPECT_EQ(state.rope.m, state::AppState{}.rope.m);  // the view's other settings kept too
    }
    session["rope"]["figure"] = 3;  // in range: read as is
    state::AppState state;
    state::SessionLayout layout;
    state::Warnings warnings;
    ASSERT_TRUE(state::applySessionJson(session, state, layout, warnings).ok());
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(int(state.rope.figure), 3);
}

// A config.json with a typo: one short line naming the file, the line and the key, where the
// parser's own message ("syntax error while parsing value - invalid literal; last read: ...")
// ran off the status line.
TEST(StartupTest, BrokenConfigIsOneLineNamingFileLineAndKey) {
    const std::string dir = temporaryDirectory("startup-broken");
    writeTextFile(dir + "/broken.json",
                  "{\n  \"hidden_size\": 4096,\n  \"num_attention_heads\": 32,\n  \"rope_theta\": "
                  "50000O\n}\n");
    auto result = runPoslab(
        {"export", "rope-freqs", "--config", dir + "/broken.json", "--out", dir + "/f.csv"});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_EQ(countLines(result.err, "broken.json"), 1) << result.err;
    EXPECT_NE(result.err.find("line 4"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("\"rope_theta\""), std::string::npos) << result.err;
    EXPECT_EQ(result.err.find("syntax error while parsing"), std::string::npos) << result.err;
    EXPECT_LT(result.err.size(), 200u + dir.size()) << result.err;
}

// A config.json that is not JSON opens the RoPE view with the reason in the status line; a
// scripted run (--screenshot) said nothing and exited 0, so a script took the default view's
// picture for the model's. It prints the reason once, in one line, and exits 2 (main.cpp).
TEST(StartupTest, ScriptedRunReportsAConfigTheViewCouldNotUse) {
    if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not installed";
    const std::string dir = temporaryDirectory("startup-unusable");
    writeTextFile(dir + "/broken.json",
                  "{\n  \"hidden_size\": 4096,\n  \"rope_theta\": 50000O\n}\n");
    writeTextFile(dir + "/package.json", R"({"name": "x", "version": "1.0"})");
    for (const char* name : {"broken.json", "package.json"}) {
        SCOPED_TRACE(name);
        auto result = runShell(
            gui(dir, std::string("--fresh --window-size 640x480 --screenshot shot.png ") + name));
        EXPECT_EQ(result.exitCode, 2) << result.err;
        EXPECT_EQ(countLines(result.err, name), 1) << result.err;
        EXPECT_TRUE(fileExists(dir + "/shot.png"));  // the window was drawn, reason and all
    }
    writeTextFile(dir + "/good.json", R"({"hidden_size": 4096, "num_attention_heads": 32})");
    auto good = runShell(gui(dir, "--fresh --window-size 640x480 --screenshot good.png good.json"));
    EXPECT_EQ(good.exitCode, 0) << good.err;
}

// Help lists the keys a lecturer needs (the menu draws kKeyHelp, one row each).
TEST(StartupTest, HelpListsTheKeys) {
    std::vector<std::string> keys;
    for (const ui::KeyHelp& key : ui::kKeyHelp) keys.emplace_back(key.keys);
    for (const char* expected : {"F5", "F11", "Ctrl+Tab", "Ctrl+= / Ctrl+-", "Left / Right",
                                 "Up / Down", "F12", "Ctrl+E", "Ctrl+Q", "Space", "Esc"}) {
        EXPECT_NE(std::find(keys.begin(), keys.end(), expected), keys.end()) << expected;
    }
}

// A first start (nothing remembered in ~/.config/poslab) says where the Tour is in the status
// line; a start with a remembered session (ignored with --fresh, so the views are the same)
// does not. Both windows are drawn from the defaults, so only the status line differs.
TEST(StartupTest, FirstStartPointsAtTheTour) {
    if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not installed";
    const std::string first = temporaryDirectory("startup-first");
    const std::string again = temporaryDirectory("startup-again");
    writeTextFile(again + "/config/poslab/session.json", sessionText(800, 600));
    auto a = runShell(gui(first, "--window-size 800x600 --screenshot shot.png"));
    auto b = runShell(gui(again, "--fresh --window-size 800x600 --screenshot shot.png"));
    ASSERT_EQ(a.exitCode, 0) << a.err;
    ASSERT_EQ(b.exitCode, 0) << b.err;
    const ImageRgba hinted = loadPng(first + "/shot.png"), plain = loadPng(again + "/shot.png");
    ASSERT_EQ(hinted.width, 800);
    ASSERT_EQ(plain.width, 800);
    auto rows = [](const ImageRgba& image, int from, int to) {
        return std::vector<std::uint8_t>(
            image.pixels.begin() + std::ptrdiff_t(from) * image.width * 4,
            image.pixels.begin() + std::ptrdiff_t(to) * image.width * 4);
    };
    EXPECT_NE(rows(hinted, 600 - 30, 600), rows(plain, 600 - 30, 600)) << "the status line";
    EXPECT_EQ(rows(hinted, 0, 24), rows(plain, 0, 24)) << "the menu bar";
}

}  // namespace
}  // namespace poslab::test
