#include "process.hpp"

#include <gtest/gtest.h>
#include <stb/stb_image.h>  // implementation provided by Debian's libstb
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

namespace poslab::test {

std::string shellQuote(const std::string& text) {
    std::string quoted = "'";
    for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

bool fileExists(const std::string& path) {
    return std::filesystem::exists(path);
}

namespace {

// The directories temporaryDirectory made in this process, removed when the run ends with every
// test passed (kept and named otherwise, to be looked at). Without it each run left one directory
// per test in /tmp: about 70,000 of them, 33 GB, filled this machine's disk (session 24). Removed
// at the run's end, not the test's: a suite's set-up may make one directory its tests share.
class TemporaryDirectories : public ::testing::EmptyTestEventListener {
  public:
    void add(std::filesystem::path dir) { dirs_.push_back(std::move(dir)); }
    void OnTestProgramEnd(const ::testing::UnitTest& run) override {
        for (const auto& dir : dirs_) {
            std::error_code ignored;
            if (run.Passed())
                std::filesystem::remove_all(dir, ignored);
            else if (std::filesystem::exists(dir, ignored))
                std::printf("kept for the failed run: %s\n", dir.c_str());
        }
        dirs_.clear();
    }

  private:
    std::vector<std::filesystem::path> dirs_;
};

TemporaryDirectories& temporaryDirectories() {
    // Owned by GoogleTest's listener list from the first call on (between tests, never while it
    // dispatches an event).
    static TemporaryDirectories* made = [] {
        auto* listener = new TemporaryDirectories;
        ::testing::UnitTest::GetInstance()->listeners().Append(listener);
        return listener;
    }();
    return *made;
}

}  // namespace

std::string temporaryDirectory(const std::string& name) {
    // Unique per process and test: ctest runs tests in parallel, and parameterised tests of
    // different suites share names ("OneLineErrorExitCode2AndNoFile/30").
    std::string unique = "poslab-test-" + std::to_string(::getpid()) + "-";
    if (const auto* test = ::testing::UnitTest::GetInstance()->current_test_info()) {
        unique += std::string(test->test_suite_name()) + "." + test->name() + "-";
    }
    unique += name;
    for (char& c : unique) {
        if (c == '/') c = '_';
    }
    const auto dir = std::filesystem::temp_directory_path() / unique;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    temporaryDirectories().add(dir);
    return dir.string();
}

bool haveXvfb() {
    return runShell("command -v xvfb-run").exitCode == 0;
}

namespace {

// Under ./dev test's LeakSanitizer options (LSAN_OPTIONS set), the processes a test starts match
// tests/sanitizer/lsan.supp by module name alone (symbolize=0): matching it by function name
// started llvm-symbolizer at the exit of every process that loads the GL drivers (about 0.14 s of
// CPU each, for ld.so's blocks), though nothing was reported. A report such a process does print
// is symbolized afterwards (withSymbolizedReports), so it still names functions, files and lines.
std::string childSanitizerOptions() {
    const char* options = std::getenv("LSAN_OPTIONS");
    if (!options) return "";
    return "export LSAN_OPTIONS=" + shellQuote(std::string(options) + ":symbolize=0") + "; ";
}

// The text with every sanitizer stack frame ("#1 0x... (module+0x...)") given its function, file
// and line by asan_symbolize (Debian's clang package), when the text has such frames; unchanged
// otherwise (also where asan_symbolize fails).
std::string withSymbolizedReports(const std::string& text, const std::string& dir) {
    if (text.find("    #0 0x") == std::string::npos) return text;
    const std::string raw = dir + "/report", symbolized = dir + "/symbolized";
    std::ofstream(raw, std::ios::binary) << text;
    const std::string command = "asan_symbolize -d <" + raw + " >" + symbolized + " 2>/dev/null";
    if (std::system(command.c_str()) != 0) return text;
    const std::string result = readFile(symbolized);
    return result.empty() ? text : result;
}

}  // namespace

// POSLAB_TEST_CPU_LOG=FILE: one line per test appended to FILE, "Suite.Name self children wall
// shells": CPU seconds (user + system) of this process and of the processes it waited for, wall
// seconds, and commands run through runShell. Which tests cost the suite's CPU, and whether in
// the processes they start or in their own checks, measured rather than guessed from ctest's
// wall times on a shared machine.
namespace {

int shellsStarted = 0;

double cpuSeconds(int who) {
    rusage usage{};
    ::getrusage(who, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

class TestCpuLog : public ::testing::EmptyTestEventListener {
  public:
    explicit TestCpuLog(std::string path) : path_(std::move(path)) {}
    void OnTestStart(const ::testing::TestInfo&) override {
        self_ = cpuSeconds(RUSAGE_SELF);
        children_ = cpuSeconds(RUSAGE_CHILDREN);
        wall_ = std::chrono::steady_clock::now();
        shells_ = shellsStarted;
    }
    void OnTestEnd(const ::testing::TestInfo& test) override {
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_).count();
        if (std::FILE* log = std::fopen(path_.c_str(), "a")) {
            std::fprintf(log, "%s.%s %.3f %.3f %.3f %d\n", test.test_suite_name(), test.name(),
                         cpuSeconds(RUSAGE_SELF) - self_, cpuSeconds(RUSAGE_CHILDREN) - children_,
                         wall, shellsStarted - shells_);
            std::fclose(log);
        }
    }

  private:
    std::string path_;
    double self_ = 0, children_ = 0;
    std::chrono::steady_clock::time_point wall_;
    int shells_ = 0;
};

const bool testCpuLogRegistered = [] {
    if (const char* path = std::getenv("POSLAB_TEST_CPU_LOG"))
        ::testing::UnitTest::GetInstance()->listeners().Append(new TestCpuLog(path));
    return true;
}();

}  // namespace

ProcessResult runShell(const std::string& command) {
    ++shellsStarted;
    const std::string dir =
        temporaryDirectory("shell-" + std::to_string(std::hash<std::string>{}(command)));
    const std::string out = dir + "/out", err = dir + "/err";
    const int status =
        std::system((childSanitizerOptions() + command + " >" + out + " 2>" + err).c_str());
    ProcessResult result;
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = withSymbolizedReports(readFile(out), dir);
    result.err = withSymbolizedReports(readFile(err), dir);
    std::filesystem::remove_all(dir);
    return result;
}

ProcessResult runPoslab(const std::vector<std::string>& arguments, const std::string& environment) {
    std::string command = environment + " " + shellQuote(POSLAB_BINARY);
    for (const std::string& a : arguments) {
        command += ' ';
        command += shellQuote(a);
    }
    return runShell(command);
}

ImageRgba loadPng(const std::string& path) {
    ImageRgba image;
    int channels = 0;
    unsigned char* pixels = stbi_load(path.c_str(), &image.width, &image.height, &channels, 4);
    if (!pixels) return {};
    image.pixels.assign(pixels, pixels + std::size_t(image.width) * image.height * 4);
    stbi_image_free(pixels);
    return image;
}

ColormapColours::ColormapColours(ColormapId id) : bits_(std::size_t(1) << 21) {
    for (const Rgba& c : colormapTable(id)) {
        for (int r = std::max(0, c.r - 3); r <= std::min(255, c.r + 3); ++r) {
            for (int g = std::max(0, c.g - 3); g <= std::min(255, c.g + 3); ++g) {
                for (int b = std::max(0, c.b - 3); b <= std::min(255, c.b + 3); ++b) {
                    const std::uint32_t key = std::uint32_t(r) << 16 | std::uint32_t(g) << 8 | b;
                    bits_[key >> 3] |= std::uint8_t(1u << (key & 7));
                }
            }
        }
    }
}

double fractionFromColormap(const ImageRgba& image, ColormapId id, int x0, int y0, int x1, int y1) {
    const ColormapColours near(id);
    int matches = 0, total = 0;
    for (int y = y0; y < y1; ++y) {
        for (int x = x0; x < x1; ++x) {
            ++total;
            matches += near.contains(&image.pixels[(std::size_t(y) * image.width + x) * 4]);
        }
    }
    return total ? double(matches) / total : 0;
}

int distinctColours(const ImageRgba& image, int x0, int y0, int x1, int y1) {
    std::vector<std::uint8_t> seen(std::size_t(1) << 21);  // one bit per 24-bit colour
    int colours = 0;
    for (int y = y0; y < y1; ++y) {
        for (int x = x0; x < x1; ++x) {
            const std::uint8_t* p = &image.pixels[(std::size_t(y) * image.width + x) * 4];
            const std::uint32_t key = std::uint32_t(p[0]) << 16 | std::uint32_t(p[1]) << 8 | p[2];
            const std::uint8_t bit = std::uint8_t(1u << (key & 7));
            colours += !(seen[key >> 3] & bit);
            seen[key >> 3] |= bit;
        }
    }
    return colours;
}

void expectOneLineRefusal(const ProcessResult& result, const std::string& expected) {
    EXPECT_EQ(result.exitCode, 2) << result.err;
    EXPECT_NE(result.err.find(expected), std::string::npos) << result.err;
    ASSERT_FALSE(result.err.empty());
    EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << "not one line: " << result.err;
}

}  // namespace poslab::test
