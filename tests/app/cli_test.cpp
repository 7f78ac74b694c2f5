// The command line as a user meets it: real processes, real files, exit codes and messages.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "poslab/io/csv.hpp"
#include "process.hpp"

namespace poslab::test {
namespace {

class CliTest : public ::testing::Test {
  protected:
    std::string dir =
        temporaryDirectory(::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path(const std::string& name) const { return dir + "/" + name; }
    int filesInDir() const {
        return int(std::distance(std::filesystem::directory_iterator(dir), {}));
    }
};

TEST_F(CliTest, ExportSinusoidalCsvMatchesThePaper) {
    auto result = runPoslab(
        {"export", "sinusoidal", "--d-model", "6", "--seq-len", "40", "--out", path("pe.csv")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    auto table = parseCsv(readFile(path("pe.csv")));
    ASSERT_TRUE(table.ok());
    ASSERT_EQ(table->rows, 40u);
    ASSERT_EQ(table->cols, 6u);
    for (int p = 0; p < 40; ++p) {
        for (int c = 0; c < 6; ++c) {
            const double angle = p / std::pow(10000.0, 2.0 * (c / 2) / 6);
            EXPECT_NEAR((*table)(p, c), c % 2 ? std::cos(angle) : std::sin(angle), 1e-13);
        }
    }
}

TEST_F(CliTest, ExportNpyIsWhatNumpyWrites) {
    auto result = runPoslab({"export", "sinusoidal", "--d-model", "4", "--seq-len", "3", "--layout",
                             "concat", "--out", path("pe.npy")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const std::string bytes = readFile(path("pe.npy"));
    ASSERT_EQ(bytes.size(), 128u + 3 * 4 * 8);
    // Row 1 of the concat layout: [sin(1), sin(0.01), cos(1), cos(0.01)].
    double row1[4];
    std::memcpy(row1, bytes.data() + 128 + 4 * 8, sizeof row1);
    EXPECT_NEAR(row1[0], std::sin(1.0), 1e-15);
    EXPECT_NEAR(row1[1], std::sin(0.01), 1e-15);
    EXPECT_NEAR(row1[2], std::cos(1.0), 1e-15);
    EXPECT_NEAR(row1[3], std::cos(0.01), 1e-15);

    // When Debian's numpy is installed, numpy itself must produce the identical file.
    if (runShell("/usr/bin/python3 -c 'import numpy'").exitCode != 0)
        GTEST_SKIP() << "python3-numpy not installed";
    const std::string script =
        "import numpy as np, sys\n"
        "d, L = 4, 3\n"
        "pos = np.arange(L)[:, None]\n"
        "angle = np.array([[p / np.power(10000, 2 * (j // 2) / d) for j in range(d)] for p in "
        "range(L)])\n"
        "out = np.concatenate([np.sin(angle[:, 0::2]), np.cos(angle[:, 1::2])], axis=1)\n"
        "np.save(sys.argv[1], out)\n"
        "back = np.load(sys.argv[2])\n"
        "assert back.dtype == np.float64 and back.shape == (3, 4), back.shape\n"
        "assert np.abs(back - out).max() < 1e-15\n";
    std::ofstream(path("check.py")) << script;
    auto numpyRun = runShell("/usr/bin/python3 " + path("check.py") + " " + path("numpy.npy") +
                             " " + path("pe.npy"));
    ASSERT_EQ(numpyRun.exitCode, 0) << numpyRun.err;
    EXPECT_EQ(readFile(path("numpy.npy")).substr(0, 128), bytes.substr(0, 128));
}

class CliBadInputTest : public CliTest, public ::testing::WithParamInterface<BadInput> {};

// "3_dModelMustBe18192Got0": the case number and the message it expects, as an identifier.
std::string badInputName(std::size_t index, const BadInput& input) {
    std::string name = std::to_string(index) + "_";
    bool upper = false;
    for (char c : input.expectedMessage) {
        if (!std::isalnum(static_cast<unsigned char>(c))) {
            upper = true;
            continue;
        }
        name += upper ? char(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
        if (name.size() > 40) break;
    }
    return name;
}

TEST_P(CliBadInputTest, OneLineErrorExitCode2AndNoFile) {
    std::vector<std::string> arguments = GetParam().arguments;
    for (std::string& a : arguments) {
        if (a.rfind("OUT", 0) == 0) a = path(a.substr(3));
    }
    auto result = runPoslab(arguments);
    expectOneLineRefusal(result, GetParam().expectedMessage);
    EXPECT_EQ(filesInDir(), 0) << "a file was left behind";
}

INSTANTIATE_TEST_SUITE_P(
    Sinusoidal, CliBadInputTest,
    ::testing::Values(
        BadInput{{"export", "sinusoidal", "--d-model", "0", "--seq-len", "8", "--out", "OUTa.csv"},
                 "--d-model must be 1..8192 (got 0)"},
        BadInput{{"export", "sinusoidal", "--d-model", "-3", "--seq-len", "8", "--out", "OUTa.csv"},
                 "--d-model must be 1..8192"},
        BadInput{{"export", "sinusoidal", "--d-model", "8", "--seq-len", "0", "--out", "OUTa.csv"},
                 "--seq-len must be 1..1048576 (got 0)"},
        BadInput{{"export", "sinusoidal", "--d-model", "8192", "--seq-len", "1048576", "--out",
                  "OUTa.npy"},
                 "memory cap"},
        BadInput{
            {"export", "sinusoidal", "--d-model", "abc", "--seq-len", "8", "--out", "OUTa.csv"},
            "--d-model expects an integer (got 'abc')"},
        BadInput{{"export", "sinusoidal", "--d-model", "8", "--seq-len", "8", "--base", "1",
                  "--out", "OUTa.csv"},
                 "--base must be > 1"},
        BadInput{{"export", "sinusoidal", "--d-model", "8", "--seq-len", "8", "--base", "nan",
                  "--out", "OUTa.csv"},
                 "--base expects a number (got 'nan')"},
        BadInput{{"export", "sinusoidal", "--d-model", "8", "--seq-len", "8", "--base", "inf",
                  "--out", "OUTa.csv"},
                 "--base expects a number (got 'inf')"},
        BadInput{{"export", "sinusoidal", "--d-model", "8", "--seq-len", "8", "--base", "0x2710",
                  "--out", "OUTa.csv"},
                 "--base expects a number (got '0x2710')"},
        BadInput{{"export", "sinusoidal", "--d-model", "+8", "--seq-len", "8", "--out", "OUTa.csv"},
                 "--d-model expects an integer (got '+8')"},
        BadInput{{"export", "sinusoidal", "--d-model", "8", "--seq-len", "8", "--base", "1e999",
                  "--out", "OUTa.csv"},
                 "--base is out of range (got '1e999')"},
        BadInput{{"export", "sinusoidal", "--d-model", "8", "--seq-len", "8", "--seq-len", "9",
                  "--out", "OUTa.csv"},
                 "--seq-len given twice"},
        BadInput{{"export", "sinusoidal", "--d-model", "8", "--seq-len", "8", "--layout", "concat",
                  "--layout=t2t", "--out", "OUTa.csv"},
                 "--layout given twice"},
        BadInput{{"render", "sinusoidal-curves", "--dims", "1,2,3,4,5,6,7,8,9", "--d-model", "64",
                  "--out", "OUTa.png"},
                 "--dims lists at most 8 entries (got 9)"},
        BadInput{{"render", "sinusoidal-curves", "--dims", "0x4", "--out", "OUTa.png"},
                 "--dims expects comma-separated integers (got '0x4')"},
        BadInput{{"export", "sinusoidal", "--d-model", "8", "--seq-len", "8", "--base", "1e4x",
                  "--out", "OUTa.csv"},
                 "--base expects a number"},
        BadInput{{"export", "sinusoidal", "--d-model", "8", "--seq-len", "8", "--layout",
                  "diagonal", "--out", "OUTa.csv"},
                 "--layout must be interleaved, concat or t2t"},
        BadInput{{"export", "sinusoidal", "--d-model", "8", "--seq-len", "8", "--out", "OUTa.txt"},
                 "--out must end in .csv or .npy"},
        BadInput{{"export", "sinusoidal", "--d-model", "8", "--seq-len", "8", "--out",
                  "/nonexistent-dir/a.csv"},
                 "cannot write '/nonexistent-dir/a.csv'"},
        BadInput{{"export", "sinusoidal", "--d-model", "8", "--seq-len", "8"},
                 "--out FILE is required"},
        BadInput{{"export", "sinusoidal", "--d-model", "8", "--seq-len", "8", "--frobnicate", "1",
                  "--out", "OUTa.csv"},
                 "unknown option --frobnicate"},
        BadInput{{"export", "sinusoidal", "--d-model"}, "--d-model needs a value"},
        BadInput{{"export", "wavelet", "--out", "OUTa.csv"}, "unknown export kind 'wavelet'"},
        BadInput{{"frobnicate"}, "unknown command 'frobnicate'"},
        BadInput{{"render", "sinusoidal", "--colormap", "jet", "--out", "OUTa.png"},
                 "--colormap must be viridis"},
        BadInput{{"render", "sinusoidal", "--width", "10", "--out", "OUTa.png"},
                 "--width must be 64..8192 (got 10)"},
        BadInput{{"render", "sinusoidal", "--theme", "neon", "--out", "OUTa.png"},
                 "--theme must be dark or paper"},
        BadInput{{"render", "sinusoidal", "--out", "OUTa.jpg"}, "--out must end in .png"},
        BadInput{{"render", "sinusoidal", "--d-model", "0", "--out", "OUTa.png"},
                 "--d-model must be 1..8192 (got 0)"},
        BadInput{{"render", "nowhere", "--out", "OUTa.png"}, "unknown view 'nowhere'"},
        BadInput{{"render", "sinusoidal-curves", "--dims", "4,99", "--d-model", "16", "--out",
                  "OUTa.png"},
                 "--dims entries must be 0..15 (got 99)"}),
    [](const ::testing::TestParamInfo<BadInput>& info) {
        return badInputName(info.index, info.param);
    });

TEST_F(CliTest, HelpExplainsEveryOption) {
    auto main = runPoslab({"--help"});
    EXPECT_EQ(main.exitCode, 0);
    EXPECT_NE(main.out.find("poslab export"), std::string::npos);
    auto exportHelp = runPoslab({"export", "--help"});
    EXPECT_EQ(exportHelp.exitCode, 0);
    for (const char* option : {"--d-model", "--seq-len", "--base", "--layout", "--out"}) {
        EXPECT_NE(exportHelp.out.find(option), std::string::npos) << option;
    }
    auto renderHelp = runPoslab({"render", "--help"});
    EXPECT_EQ(renderHelp.exitCode, 0);
    for (const char* option : {"--width", "--height", "--colormap", "--theme", "--scale"}) {
        EXPECT_NE(renderHelp.out.find(option), std::string::npos) << option;
    }
}

// `poslab --help` lists the GUI options in two columns: every description starts in the same
// column on a terminal, counted in characters (UTF-8 code points), not bytes. "--tour-sizes
// WxH,…" and "--layout-sizes WxH[:presentation],…" ("…" is three bytes) started theirs two
// columns early.
TEST_F(CliTest, GuiOptionDescriptionsStartInOneColumn) {
    auto help = runPoslab({"--help"});
    ASSERT_EQ(help.exitCode, 0);
    const std::size_t section = help.out.find("GUI options:\n");
    ASSERT_NE(section, std::string::npos);
    auto columns = [](const std::string& text) {
        std::size_t n = 0;
        for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        return n;
    };
    std::map<std::size_t, std::string> starts;  // column -> an option starting its text there
    std::size_t begin = section;
    while (begin < help.out.size()) {
        const std::size_t end = std::min(help.out.find('\n', begin), help.out.size());
        const std::string line = help.out.substr(begin, end - begin);
        begin = end + 1;
        if (line.rfind("  --", 0) != 0) continue;
        const std::size_t gap = line.find("  ", 4);  // the option and its value name end here
        ASSERT_NE(gap, std::string::npos) << line;
        starts[columns(line.substr(0, line.find_first_not_of(' ', gap)))] = line.substr(0, gap);
    }
    EXPECT_GT(starts.size(), 0u);
    EXPECT_EQ(starts.size(), 1u) << "descriptions start at " << starts.size() << " columns, e.g. "
                                 << starts.begin()->second << " and " << starts.rbegin()->second;
}

TEST_F(CliTest, FailedExportKeepsThePreviousFile) {
    std::ofstream(path("keep.csv")) << "previous\n";
    auto result = runPoslab(
        {"export", "sinusoidal", "--d-model", "0", "--seq-len", "8", "--out", path("keep.csv")});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_EQ(readFile(path("keep.csv")), "previous\n");
}

TEST_F(CliTest, KilledExportLeavesThePreviousFileAndNothingElse) {
    std::ofstream(path("big.csv")) << "previous\n";
    for (double delay : {0.3, 1.0, 2.0}) {
        // SIGKILL at a few points of a multi-second CSV export: before, during and after writing.
        const std::string command = shellQuote(POSLAB_BINARY) +
                                    " export sinusoidal --d-model 2048 --seq-len 20000 --out " +
                                    shellQuote(path("big.csv")) + " & pid=$!; sleep " +
                                    std::to_string(delay) + "; kill -9 $pid; wait $pid";
        runShell(command);
        const std::string content = readFile(path("big.csv"));
        const bool previous = content == "previous\n";
        const bool complete = content.size() > 100'000'000 && content.back() == '\n';
        EXPECT_TRUE(previous || complete) << "partial file of " << content.size() << " bytes";
        EXPECT_EQ(filesInDir(), 1) << "litter left after a kill at " << delay << " s";
        std::ofstream(path("big.csv")) << "previous\n";
    }
}

// Run alone by the test below, in a process of its own: makes a directory and says where.
TEST(TemporaryDirectoryTest, ProbeMakesADirectory) {
    const std::string dir = temporaryDirectory("cleanup-probe");
    std::ofstream(dir + "/file") << "x";
    std::printf("probe directory: %s\n", dir.c_str());
}

// Session 24: every test's temporary directory stayed in /tmp after the run (about 70,000 of
// them filled the disk). A run whose tests pass leaves none behind.
TEST(TemporaryDirectoryTest, APassingRunRemovesItsDirectories) {
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    const ProcessResult run =
        runShell("env -u GTEST_SHARD_INDEX -u GTEST_TOTAL_SHARDS -u GTEST_OUTPUT " +
                 shellQuote(self) + " --gtest_filter=TemporaryDirectoryTest.ProbeMakesADirectory");
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    const std::string marker = "probe directory: ";
    const std::size_t at = run.out.find(marker);
    ASSERT_NE(at, std::string::npos) << run.out;
    const std::string dir =
        run.out.substr(at + marker.size(), run.out.find('\n', at) - at - marker.size());
    ASSERT_FALSE(dir.empty());
    EXPECT_FALSE(std::filesystem::exists(dir)) << dir << " outlived the run";
}

}  // namespace
}  // namespace poslab::test
