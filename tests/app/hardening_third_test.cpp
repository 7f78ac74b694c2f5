// Hostile input, third round (issue #32): one bounded JSON reader (FIFOs refused, depth and
// memory bounded, every json exception caught), crashes of the last run, finite in and finite
// out, messages escaped and naming their input. Each case failed before its fix.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <vector>

#include "poslab/io/npy.hpp"
#include "process.hpp"
#include "state/lessons.hpp"
#include "state/session_format.hpp"

namespace poslab::test {
namespace {

class HardeningThirdTest : public ::testing::Test {
  protected:
    std::string dir =
        temporaryDirectory(::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path(const std::string& name) const { return dir + "/" + name; }
    std::string write(const std::string& name, const std::string& text) const {
        std::ofstream(path(name), std::ios::binary) << text;
        return path(name);
    }
};

// One line on stderr, exit code 2, containing `fragment`, and no raw control byte.
void expectRefused(const Args& arguments, const std::string& fragment) {
    auto result = runPoslab(arguments);
    std::string shown;
    for (const std::string& a : arguments) shown += a.substr(0, 40) + " ";
    EXPECT_EQ(result.exitCode, 2) << shown << result.err;
    EXPECT_NE(result.err.find(fragment), std::string::npos) << shown << "\n" << result.err;
    EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << "not one line: " << result.err;
    EXPECT_EQ(result.err.find('\x1b'), std::string::npos) << result.err;
}

std::string nested(std::size_t depth) {
    return std::string(depth, '[') + std::string(depth, ']');
}

// A reader blocked on a FIFO never returns: give up after 5 s and end the run.
template <typename Read>
std::string within5s(Read read) {
    auto done = std::async(std::launch::async, read);
    if (done.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
        ADD_FAILURE() << "blocked on a FIFO";
        std::_Exit(1);
    }
    return done.get();
}

std::vector<std::string> viewTitles() {
    return {"Sinusoidal", "RoPE", "Similarity", "Learned"};
}

// ---- FIFOs: refused at once, one line

TEST_F(HardeningThirdTest, SpecSessionAndLessonsFifosAreRefusedAtOnce) {
    const std::string fifo = path("in.json");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // Failed before (hung forever): the three readers opened the FIFO with ifstream.
    const std::string spec = within5s([&] {
        auto result = runPoslab({"render", "--spec", fifo});
        return result.exitCode == 2 ? result.err
                                    : std::string("exit ") + std::to_string(result.exitCode);
    });
    EXPECT_EQ(spec, "poslab: " + fifo + ": not a regular file (a FIFO)\n");
    const std::string session = within5s([&] {
        state::AppState state;
        state::SessionLayout layout;
        state::Warnings warnings;
        auto s = state::loadSessionFile(fifo, state, layout, warnings);
        return s ? std::string("loaded") : s.error().message;
    });
    EXPECT_EQ(session, fifo + ": not a regular file (a FIFO)");
    const std::string lessons = within5s([&] {
        auto loaded = state::loadLessonsFile(fifo, viewTitles());
        return loaded ? std::string("loaded") : loaded.error().message;
    });
    EXPECT_EQ(lessons, fifo + ": not a regular file (a FIFO)");
}

// ---- Deep and odd JSON everywhere: an error, never a crash

TEST_F(HardeningThirdTest, DeepJsonIsRefusedByEveryReader) {
    // Failed before: copies and dumps of 100k-deep values overflowed the stack.
    const std::string deep = nested(200000);
    state::AppState state;
    state::SessionLayout layout;
    state::Warnings warnings;
    const std::string session = "{\"format\": \"poslab-session\", \"view\": " + deep + "}";
    auto s = state::readSessionText(session, state, layout, warnings);
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("nested deeper than 64"), std::string::npos);
    auto lessons = state::parseLessons(
        "{\"lessons\": [{\"title\": \"t\", \"text\": \"x\", \"view\": \"RoPE\", \"state\": " +
            std::string(100000, '{') + std::string(100000, '}') + "}]}",
        viewTitles());
    ASSERT_FALSE(lessons);
    EXPECT_NE(lessons.error().message.find("nested deeper than 64"), std::string::npos);
    const std::string config =
        write("config.json", "{\"model_type\": \"gemma3_text\", \"x\": " + deep + "}");
    expectRefused({"export", "rope-freqs", "--config", config, "--out", path("f.csv")},
                  "nested deeper than 64");
    const std::string spec = write("spec.json", "[" + deep + "]");
    expectRefused({"render", "--spec", spec}, "nested deeper than 64");
    EXPECT_FALSE(fileExists(path("f.csv")));
}

TEST_F(HardeningThirdTest, NumbersBeyondADoubleAreAnErrorNotAnAbort) {
    // Failed before: json's out_of_range for 1e400 was not caught (lessons: abort).
    auto lessons = state::parseLessons(
        "{\"lessons\": [{\"title\": \"t\", \"text\": \"x\", \"view\": \"RoPE\", \"n\": 1e400}]}",
        viewTitles());
    ASSERT_FALSE(lessons);
    EXPECT_NE(lessons.error().message.find("number overflow"), std::string::npos)
        << lessons.error().message;
    state::AppState state;
    state::SessionLayout layout;
    state::Warnings warnings;
    auto session = state::readSessionText("{\"format\": \"poslab-session\", \"x\": 1e400}", state,
                                          layout, warnings);
    ASSERT_FALSE(session);
    expectRefused({"render", "--spec", write("s.json", "[{\"view\": \"rope\", \"base\": 1e400}]")},
                  "number overflow");
}

TEST_F(HardeningThirdTest, ALessonTextOfMegabytesIsRefused) {
    // Failed before: 3 MB of text aborted on ImGui's "Too many vertices in ImDrawList".
    auto lessons = state::parseLessons(
        "{\"lessons\": [{\"title\": \"t\", \"view\": \"RoPE\", "
        "\"text\": \"" +
            std::string(3 << 20, 'a') + "\"}]}",
        viewTitles());
    ASSERT_FALSE(lessons);
    EXPECT_NE(lessons.error().message.find("\"text\" is 3145728 bytes long; at most 4000"),
              std::string::npos)
        << lessons.error().message;
}

TEST_F(HardeningThirdTest, SpecEntriesAreCapped) {
    std::string text = "[";
    for (int i = 0; i < 10001; ++i) text += "{},";
    text += "{}]";
    expectRefused({"render", "--spec", write("many.json", text)},
                  "lists 10002 figures, more than the 10000 a spec may hold");
}

// ---- Crashes of the last run

TEST_F(HardeningThirdTest, AxialGridTakesExactlyTwoIntegers) {
    // Failed before: "4xx4" aborted on std::stoi's exception; "4x4x5" was read as 4 x 4.
    for (const char* grid : {"4xx4", "4x4x5", "x4", "4x", "-4x4", "4x-4", "4 x4", "0x10"}) {
        expectRefused({"export", "axial-rope", "--grid", grid, "--out", path("a.csv")},
                      "--grid must be WxH");
    }
    EXPECT_FALSE(fileExists(path("a.csv")));
}

TEST_F(HardeningThirdTest, ABadFigureInASpecDoesNotStopTheBatch) {
    const std::string spec =
        write("spec.json",
              "[{\"view\": \"axial-rope\", \"grid\": \"4xx4\", \"out\": \"a.svg\"},"
              " {\"view\": \"sinusoidal\", \"out\": \"b.svg\"}]");
    auto result = runPoslab({"render", "--spec", spec});
    EXPECT_EQ(result.exitCode, 2) << result.err;
    EXPECT_NE(result.err.find("figure 1: --grid must be WxH"), std::string::npos) << result.err;
    EXPECT_TRUE(fileExists(path("b.svg"))) << result.out << result.err;
}

// ---- Finite in, finite out

TEST_F(HardeningThirdTest, RotatedComponentsNearTheLargestDoubleAreRefused) {
    // Failed before: 1.7e308 rotated to inf (|x cos - y sin| exceeds the largest double).
    expectRefused({"export", "rope-rotate", "--vector", "1.7e308,1.7e308", "--positions", "1",
                   "--out", path("r.csv")},
                  "--vector components must be at most 1e300 in magnitude");
    auto ok = runPoslab({"export", "rope-rotate", "--vector", "1e300,-1e300", "--positions",
                         "0,1,1000", "--out", path("r.csv")});
    ASSERT_EQ(ok.exitCode, 0) << ok.err;
    std::ifstream in(path("r.csv"));
    for (std::string cell; std::getline(in, cell, ',');)
        EXPECT_EQ(cell.find("inf"), std::string::npos) << cell;
}

TEST_F(HardeningThirdTest, ScoresOfComponentsNearTheLargestDoubleAreRefused) {
    // q . k of components near 1e308 overflows: export and render refuse in one line naming --q;
    // just under the bound every score is finite.
    for (const char* kind : {"export", "render"}) {
        const std::string out = path(std::string(kind) == "export" ? "s.csv" : "s.svg");
        expectRefused({kind, "rope-scores", "--seq-len", "8", "--q", "1.7e308,1,1.7e308,2", "--k",
                       "1.7e308,0.5,1,1.7e308", "--out", out},
                      "--q and k are too large: |q| |k| = inf (must be at most 1e+300");
        expectRefused({kind, "rope-scores", "--seq-len", "8", "--q", "1e150,1e150", "--k",
                       "1e150,1e150", "--out", out},
                      "--q and k are too large: |q| |k| = 2e+300");
    }
    auto ok = runPoslab({"export", "rope-scores", "--seq-len", "64", "--q", "7e149,-7e149", "--k",
                         "7e149,7e149", "--out", path("s.csv")});
    ASSERT_EQ(ok.exitCode, 0) << ok.err;
    std::ifstream in(path("s.csv"));
    int cells = 0;
    for (std::string cell; std::getline(in, cell, ',');) {
        EXPECT_EQ(cell.find("inf"), std::string::npos) << cell;
        EXPECT_EQ(cell.find("nan"), std::string::npos) << cell;
        ++cells;
    }
    EXPECT_GT(cells, 64);
}

TEST_F(HardeningThirdTest, TablesFromFilesHoldFiniteModestValues) {
    // Failed before: learned-pca of a finite table holding 1.7e308 wrote NaN everywhere.
    Matrix table(4, 2);
    table.values = {0, 1, 1.7e308, 2, 3, 4, 5, 6};
    const std::string npy = path("huge.npy");
    ASSERT_TRUE(saveNpy(table, npy));
    expectRefused({"export", "learned-pca", "--from", npy, "--out", path("p.csv")},
                  "huge.npy: row 1, column 0 holds 1.7e+308; table values must be finite and at "
                  "most 1e100 in magnitude");
    expectRefused({"render", "meaning", "--tokens", npy, "--out", path("m.svg")},
                  "--tokens " + npy + ": row 1, column 0 holds 1.7e+308");
    table.values[2] = std::nan("");
    ASSERT_TRUE(saveNpy(table, npy));
    expectRefused({"export", "learned-pca", "--from", npy, "--out", path("p.csv")},
                  "huge.npy: row 1, column 0 holds nan");
}

TEST_F(HardeningThirdTest, ZeroRowCosinesAreSaidOnStderr) {
    Matrix table(3, 2);
    table.values = {1, 0, 0, 0, 0, 1};
    const std::string npy = path("zero.npy");
    ASSERT_TRUE(saveNpy(table, npy));
    auto result = runPoslab(
        {"export", "similarity", "--encoding", "learned", "--table", npy, "--out", path("s.csv")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.err.find("cosine undefined for zero rows: 1 row, written as -inf"),
              std::string::npos)
        << result.err;
}

// ---- Messages

TEST_F(HardeningThirdTest, ControlBytesNeverReachTheTerminal) {
    expectRefused({"export", "no\x1b[2Jkind"}, "unknown export kind 'no\\x1b[2Jkind'");
    expectRefused({"render", "no\x1b[2Jview"}, "unknown view 'no\\x1b[2Jview'");
    expectRefused({"render", "sinusoidal", "--renderer", "x\x1b[31m", "--out", path("a.png")},
                  "--renderer must be cairo or gl (got 'x\\x1b[31m')");
    const std::string odd = path("we\x1b[1mird.csv");
    auto result =
        runPoslab({"export", "sinusoidal", "--seq-len", "4", "--d-model", "4", "--out", odd});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(result.out.find('\x1b'), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("wrote " + path("we\\x1b[1mird.csv")), std::string::npos)
        << result.out;
}

TEST_F(HardeningThirdTest, ExportWithNoKindPrintsItsUsageToStderr) {
    auto result = runPoslab({"export"});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_TRUE(result.out.empty());
    EXPECT_NE(result.err.find("rope-freqs"), std::string::npos) << result.err;
}

TEST_F(HardeningThirdTest, RopeFreqsUsesItsDocumentedDefaultHeadDim) {
    // Failed before: refused although --help says "(default 128)".
    auto result = runPoslab({"export", "rope-freqs", "--out", path("f.csv")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("(64 x 1)"), std::string::npos) << result.out;
}

TEST_F(HardeningThirdTest, PlainDecimalSecondsInAPrompt) {
    // Failed before: std::stod read "@0x10" as 16 seconds.
    expectRefused({"render", "mrope", "--model", "qwen2.5-vl", "--prompt", "video:2x4x4@0x10",
                   "--out", path("v.svg")},
                  "seconds per grid after '@' must be > 0 and <= 3600");
}

TEST_F(HardeningThirdTest, LessonZeroIsRefused) {
    expectRefused({"--lesson", "0", "--fresh"}, "--lesson must be 1..1000 (got 0)");
}

TEST_F(HardeningThirdTest, MessagesNameTheOptionAtFault) {
    // Failed before: "rotated dims int(head_dim * rotary_fraction) must be even...", "A: base
    // must be...", "drawing failed: invalid UTF-8 string".
    expectRefused({"export", "rope-freqs", "--rotary-fraction", "0.001", "--out", path("f.csv")},
                  "--rotary-fraction 0.001 leaves");
    expectRefused({"render", "compare-ab", "--a-base", "1", "--out", path("c.svg")},
                  "--a-base must be > 1");
    expectRefused({"render", "compare-ab", "--b-base", "1", "--out", path("c.svg")},
                  "--b-base must be > 1");
    expectRefused({"render", "sinusoidal", "--title", "bad \xff title", "--out", path("t.svg")},
                  "--title must be UTF-8 text without control characters (got 'bad \\xff title')");
}

}  // namespace
}  // namespace poslab::test
