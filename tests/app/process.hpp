// process.hpp — run the poslab binary in tests and capture what it says.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/io/csv.hpp"

namespace poslab::test {

struct ProcessResult {
    int exitCode = -1;
    std::string out, err;
};

// Runs `command` through /bin/sh with `environment` prefixed (e.g. "DISPLAY= "), capturing output.
ProcessResult runShell(const std::string& command);
ProcessResult runPoslab(const std::vector<std::string>& arguments,
                        const std::string& environment = "");
std::string shellQuote(const std::string& text);
std::string temporaryDirectory(
    const std::string& name);  // fresh, empty; removed when the run passes
std::string readFile(const std::string& path);
bool fileExists(const std::string& path);
bool haveXvfb();                        // xvfb-run is on PATH (the GUI tests skip without it)
using Args = std::vector<std::string>;  // a command line, without the program

// A command line that must be refused, and a fragment of its one-line error.
struct BadInput {
    std::vector<std::string> arguments;
    std::string expectedMessage;
};
ImageRgba loadPng(const std::string& path);  // empty image when unreadable

// ---- Refusals: exit code 2 and one line on stderr that contains `expected`
void expectOneLineRefusal(const ProcessResult& result, const std::string& expected);

// ---- Looking at pixels (box [x0, x1) x [y0, y1))
// The colours within 3 per channel of an entry of the colormap's table, one bit each (2 MiB):
// a pixel's test is one lookup, not a scan of the 256 entries (the tests' code is -O0 and, in the
// sanitizer run, instrumented, where a scan per pixel of a whole figure cost seconds).
class ColormapColours {
  public:
    explicit ColormapColours(ColormapId id);
    bool contains(const std::uint8_t* rgb) const {
        const std::uint32_t key = std::uint32_t(rgb[0]) << 16 | std::uint32_t(rgb[1]) << 8 | rgb[2];
        return bits_[key >> 3] >> (key & 7) & 1;
    }

  private:
    std::vector<std::uint8_t> bits_;
};
// Fraction of pixels whose colour is (within 3 per channel) an entry of the colormap's table.
double fractionFromColormap(const ImageRgba& image, ColormapId id, int x0, int y0, int x1, int y1);
int distinctColours(const ImageRgba& image, int x0, int y0, int x1, int y1);  // RGB values seen

// ---- A test with a fresh folder of its own, named after the suite and the test
class CommandLineTest : public ::testing::Test {
  protected:
    std::string dir = temporaryDirectory(
        std::string(::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name()) +
        "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path(const std::string& name) const { return dir + "/" + name; }

    // `poslab export ...` with --out out.csv added; the table written (empty on failure).
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

}  // namespace poslab::test
