// Reading saved sessions (ui/session_format.hpp), called directly: the inputs the session fuzzer
// (tests/fuzz/session_fuzz.cpp) probes, each written out with the behaviour a user must see.
// Each test failed before its fix.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

#include "state/session_format.hpp"

namespace poslab::test {
namespace {

using ui::AppState;
using ui::SessionLayout;
using ui::Warnings;

struct Read {
    Status status = success();
    AppState state;
    SessionLayout layout;
    Warnings warnings;
};

Read readSession(const std::string& text) {
    Read read;
    read.status = ui::readSessionText(text, read.state, read.layout, read.warnings);
    return read;
}

bool warned(const Warnings& warnings, const std::string& fragment) {
    return std::any_of(warnings.begin(), warnings.end(),
                       [&](const std::string& w) { return w.find(fragment) != std::string::npos; });
}

// JSON integers beyond the field's type used to be cast and wrap around: 2^32 + 64 became a
// d_model of 64 and a seed of -1 became 2^64 - 1, both accepted without a word.
TEST(SessionFormatTest, IntegersBeyondTheFieldAreReportedNotWrapped) {
    const Read read = readSession(R"({"format": "poslab-session",
        "window": {"width": 4294968736},
        "sinusoidal": {"params": {"dModel": 4294967360}},
        "meaning": {"params": {"seed": -1}},
        "rope": {"angleWindow": [18446744073709551615, 10, 0, 10]}})");
    ASSERT_TRUE(read.status.ok()) << read.status.error().message;
    EXPECT_TRUE(warned(read.warnings, "session.window.width: ")) << read.warnings.size();
    EXPECT_TRUE(warned(read.warnings, "sinusoidal.params.dModel: "));
    EXPECT_TRUE(warned(read.warnings, "meaning.params.seed: "));
    EXPECT_TRUE(warned(read.warnings, "rope.angleWindow: "));
    const AppState defaults;
    EXPECT_EQ(read.layout.windowWidth, 0);  // unknown: the window stays as it is
    EXPECT_EQ(read.state.sinusoidal.params.dModel, defaults.sinusoidal.params.dModel);
    EXPECT_EQ(read.state.meaning.params.seed, defaults.meaning.params.seed);
    EXPECT_EQ(read.state.rope.angleWindow.firstRow, 0);
}

// The largest values each type holds are still read exactly.
TEST(SessionFormatTest, IntegersAtTheLimitsOfTheirTypeAreRead) {
    const Read read = readSession(R"({"format": "poslab-session",
        "meaning": {"params": {"seed": 18446744073709551615}},
        "rope": {"querySeed": -2147483648, "keySeed": 2147483647}})");
    ASSERT_TRUE(read.status.ok());
    EXPECT_TRUE(read.warnings.empty()) << read.warnings.front();
    EXPECT_EQ(read.state.meaning.params.seed, 18446744073709551615ull);
    EXPECT_EQ(read.state.rope.querySeed, -2147483647 - 1);
    EXPECT_EQ(read.state.rope.keySeed, 2147483647);
}

// A version too large for an int wrapped to -1 and passed for an old file.
// The sinusoidal view computes only its visible window, so a session may hold a table far
// larger than memory (2^20 x 4096 is 32 GiB as doubles); it used to be refused by the
// whole-table memory cap and the GUI slider's old 65536 limit.
TEST(SessionFormatTest, AMillionPositionSinusoidalViewIsRead) {
    const Read read = readSession(R"({"format": "poslab-session",
        "sinusoidal": {"params": {"dModel": 4096, "seqLen": 1048576}, "trainingLength": 1000000}})");
    ASSERT_TRUE(read.status.ok()) << read.status.error().message;
    EXPECT_TRUE(read.warnings.empty()) << read.warnings.front();
    EXPECT_EQ(read.state.sinusoidal.params.seqLen, 1048576);
    EXPECT_EQ(read.state.sinusoidal.params.dModel, 4096);
    EXPECT_EQ(read.state.sinusoidal.trainingLength, 1000000);

    const Read beyond = readSession(R"({"format": "poslab-session",
        "sinusoidal": {"params": {"dModel": 4096, "seqLen": 1048577}}})");
    ASSERT_TRUE(beyond.status.ok());
    EXPECT_TRUE(warned(beyond.warnings, "seq_len must be 1..1048576"));
    EXPECT_EQ(beyond.state.sinusoidal.params.seqLen, AppState().sinusoidal.params.seqLen);
}

TEST(SessionFormatTest, AHugeVersionIsANewerFile) {
    const Read read =
        readSession(R"({"format": "poslab-session", "version": 18446744073709551615})");
    ASSERT_TRUE(read.status.ok());
    EXPECT_TRUE(warned(read.warnings, "written by a newer PosLab"));
}

// Warnings are printed one per line on stderr: a name with a newline in it (found by the fuzzer)
// used to split its warning over two lines.
TEST(SessionFormatTest, WarningsAboutNamesStayOnOneLine) {
    const Read read = readSession(
        R"({"format": "poslab-session", "theme": "dark\nmode", "alibi": {"colormap": "a\u001bb"}})");
    ASSERT_TRUE(read.status.ok());
    ASSERT_EQ(read.warnings.size(), 3u);  // theme, alibi.colormap, alibi kept its settings
    for (const std::string& w : read.warnings) {
        EXPECT_EQ(w.find_first_of("\n\r\x1b"), std::string::npos) << w;
    }
    EXPECT_TRUE(warned(read.warnings, "session.theme: "));
    EXPECT_TRUE(warned(read.warnings, R"("dark\nmode")"));
    EXPECT_EQ(read.state.theme, AppState{}.theme);
}

// A file that never ends (a device, a pipe left open) is refused after the size cap instead of
// being read until memory runs out.
TEST(SessionFormatTest, AnEndlessFileIsRefused) {
    AppState state;
    SessionLayout layout;
    Warnings warnings;
    const Status status = ui::loadSessionFile("/dev/zero", state, layout, warnings);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().message, "/dev/zero: too large for a session file");
}

}  // namespace
}  // namespace poslab::test
