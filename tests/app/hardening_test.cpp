// Hostile input, second round (issue #15), as real processes: one number syntax for every
// numeric option, a flag given twice refused, every list option capped, write errors that name
// the file and the system's reason, the worst accepted renders timed, and every command's peak
// memory within the memory cap plus a constant.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <GLFW/glfw3.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "gfx/offscreen.hpp"
#include "process.hpp"
#include "ui/frame_loop.hpp"

namespace poslab::test {
namespace {

class HardeningTest : public ::testing::Test {
  protected:
    std::string dir =
        temporaryDirectory(::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path(const std::string& name) const { return dir + "/" + name; }
};

// One line on stderr, exit code 2, containing `fragment`.
void expectRefused(const Args& arguments, const std::string& fragment) {
    auto result = runPoslab(arguments);
    std::string shown;
    for (const std::string& a : arguments) shown += a.substr(0, 40) + " ";
    EXPECT_EQ(result.exitCode, 2) << shown << result.err;
    EXPECT_NE(result.err.find(fragment), std::string::npos) << shown << "\n" << result.err;
    EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << "not one line: " << result.err;
}

// The same through the command line's entry point in this process (what main calls for
// export and render), its stderr captured.
void expectRefusedInProcess(const Args& arguments, const std::string& fragment) {
    ::testing::internal::CaptureStderr();
    const int exitCode = cli::runCommandLine(arguments);
    const std::string err = ::testing::internal::GetCapturedStderr();
    std::string shown;
    for (const std::string& a : arguments) shown += a.substr(0, 40) + " ";
    EXPECT_EQ(exitCode, 2) << shown << err;
    EXPECT_NE(err.find(fragment), std::string::npos) << shown << "\n" << err;
    EXPECT_EQ(err.find('\n'), err.size() - 1) << "not one line: " << err;
}

std::string repeatedList(int count, const std::string& entry) {
    std::string list;
    for (int i = 0; i < count; ++i) list += (i ? "," : "") + entry;
    return list;
}

std::string countingList(int count) {
    std::string list;
    for (int i = 0; i < count; ++i) list += (i ? "," : "") + std::to_string(i);
    return list;
}

// ---- One number syntax: every class of numeric option refuses the same texts.
struct NumberClass {
    const char* name;
    Args before;  // the command up to the option
    const char* option;
    Args after;
    const char* notNumber;  // the refusal's fragment for a text that is no number
};

TEST_F(HardeningTest, EveryNumericOptionReadsTheSameSyntax) {
    const std::string out = path("a.png");
    const std::vector<NumberClass> classes = {
        {"int",
         {"export", "sinusoidal", "--seq-len", "4"},
         "--d-model",
         {"--out", path("a.csv")},
         "--d-model expects an integer"},
        {"double",
         {"export", "sinusoidal", "--seq-len", "4", "--d-model", "4"},
         "--base",
         {"--out", path("a.csv")},
         "--base expects a number"},
        {"seed",
         {"export", "learned", "--seq-len", "4", "--d-model", "4"},
         "--seed",
         {"--out", path("a.csv")},
         "--seed expects an integer"},
        {"size", {"render", "sinusoidal"}, "--width", {"--out", out}, "--width expects an integer"},
        {"int list",
         {"render", "sinusoidal-curves", "--d-model", "16"},
         "--dims",
         {"--out", out},
         "--dims expects comma-separated integers"},
        {"number list",
         {"render", "rope-scores", "--k", "1,2"},
         "--q",
         {"--out", out},
         "--q expects comma-separated numbers"},
        {"launch", {}, "--zoom", {}, "--zoom expects a number"},
    };
    // Neither hexadecimal, inf, nan, a leading '+', spaces nor trailing junk, anywhere. The first
    // text of each class runs as a real process (the exit code and the one line a user sees);
    // the others go through the same entry points in this process (main's: runCommandLine for
    // export and render, parseLaunchOptions for the window's options), the same parsing code
    // without a sanitized process start per text (63 processes were this test's whole cost).
    bool first = true;
    for (const char* text : {"0x10", "inf", "nan", "+4", " 4", "4 ", "4abc", "", "1e"}) {
        for (const NumberClass& c : classes) {
            Args arguments = c.before;
            arguments.push_back(c.option);
            arguments.push_back(text);
            arguments.insert(arguments.end(), c.after.begin(), c.after.end());
            SCOPED_TRACE(std::string(c.name) + " '" + text + "'");
            if (first) {
                expectRefused(arguments, c.notNumber);
            } else if (c.before.empty()) {
                auto launch = ui::parseLaunchOptions(arguments);
                ASSERT_FALSE(launch.ok());
                EXPECT_NE(launch.error().message.find(c.notNumber), std::string::npos)
                    << launch.error().message;
                EXPECT_EQ(launch.error().message.find('\n'), std::string::npos);
            } else {
                expectRefusedInProcess(arguments, c.notNumber);
            }
        }
        first = false;
    }
    // Beyond a double or a long long: out of range, not clamped.
    expectRefused({"export", "sinusoidal", "--seq-len", "4", "--d-model", "4", "--base", "1e400",
                   "--out", path("a.csv")},
                  "--base is out of range (got '1e400')");
    expectRefused({"export", "sinusoidal", "--seq-len", "4", "--d-model", "99999999999999999999",
                   "--out", path("a.csv")},
                  "--d-model is out of range");
    // Plain decimal in every spelling is read.
    for (const char* base : {"1e4", "10000.", "1E+4", ".1e5"}) {
        auto result = runPoslab({"export", "sinusoidal", "--seq-len", "2", "--d-model", "2",
                                 "--base", base, "--out", path("ok.csv")});
        EXPECT_EQ(result.exitCode, 0) << base << result.err;
    }
    EXPECT_FALSE(fileExists(path("a.csv")));
    EXPECT_FALSE(fileExists(out));
}

// ---- A flag given twice
TEST_F(HardeningTest, AnOptionGivenTwiceIsRefused) {
    const std::string csv = path("a.csv"), png = path("a.png");
    expectRefused({"render", "sinusoidal", "--base", "1", "--base", "2", "--out", png},
                  "--base given twice");
    expectRefused({"render", "sinusoidal", "--base=100", "--base", "100", "--out", png},
                  "--base given twice");
    expectRefused({"export", "sinusoidal", "--d-model", "8", "--seq-len", "8", "--d-model", "8",
                   "--out", csv},
                  "--d-model given twice");
    expectRefused({"export", "alibi-bias", "--heads", "8", "--head", "0", "--seq-len", "4",
                   "--symmetric", "--symmetric", "--out", csv},
                  "--symmetric given twice");
    expectRefused({"render", "sinusoidal", "--out", png, "--out", path("b.png")},
                  "--out given twice");
    expectRefused({"--zoom", "1", "--zoom", "2"}, "--zoom given twice");  // the window's options
    // A spec: the same field twice, or under both spellings.
    std::ofstream(path("spec.json"))
        << R"([{"view": "sinusoidal", "base": 100, "base": 200, "out": "x.png"},)"
        << R"( {"view": "sinusoidal", "d_model": 8, "d-model": 8, "out": "y.png"}])";
    auto spec = runPoslab({"render", "--spec", path("spec.json")});
    EXPECT_EQ(spec.exitCode, 2) << spec.err;
    EXPECT_NE(spec.err.find("field 'base' given twice"), std::string::npos) << spec.err;
    EXPECT_NE(spec.err.find("figure 2: field 'd_model' given twice"), std::string::npos)
        << spec.err;
    EXPECT_FALSE(fileExists(path("x.png")));
    EXPECT_FALSE(fileExists(path("y.png")));
    EXPECT_FALSE(fileExists(csv));
    EXPECT_FALSE(fileExists(png));
}

// ---- List caps: refused above the cap in one line naming the option and the cap.
TEST_F(HardeningTest, EveryListOptionHasItsCap) {
    const std::string png = path("a.png");
    expectRefused(
        {"render", "sinusoidal-curves", "--d-model", "64", "--dims", countingList(9), "--out", png},
        "--dims lists at most 8 entries (got 9)");
    expectRefused({"render", "t5", "--num-buckets", "32", "--biases", repeatedList(1025, "0.5"),
                   "--out", png},
                  "--biases lists at most 1024 entries (got 1025)");
    expectRefused(
        {"render", "rope-scores", "--q", repeatedList(8193, "1"), "--k", "1,2", "--out", png},
        "--q lists at most 8192 entries (got 8193)");
    expectRefused({"render", "rope-rotation", "--head-dim", "1024", "--pairs", countingList(257),
                   "--out", png},
                  "--pairs lists at most 256 entries (got 257)");
    expectRefused(
        {"render", "rope-precision", "--formats", "float32,float16,bfloat16,float32", "--out", png},
        "--formats lists at most 3 entries (got 4)");
    // The caps are in the help text, where the user reads the option.
    auto help = runPoslab({"render", "sinusoidal-curves", "--help"});
    EXPECT_NE(help.out.find("at most 8"), std::string::npos) << help.out;
    EXPECT_FALSE(fileExists(png));
}

// ---- The worst accepted values render within seconds. Times are reported, not asserted
// tightly (the machine is shared); the limits themselves are the caps.
TEST_F(HardeningTest, WorstAcceptedRendersFinish) {
    const std::string png = path("a.png");
    const std::vector<std::pair<std::string, Args>> worst = {
        {"sinusoidal-curves: 8 dims, d 8192, 1048576 positions",
         {"render", "sinusoidal-curves", "--d-model", "8192", "--dims", countingList(8),
          "--positions", "1048576", "--out", png}},
        {"t5: 1024 buckets of +-1.7e308, L 1048576",
         {"render", "t5", "--seq-len", "1048576", "--num-buckets", "1024", "--max-distance",
          "1048576", "--biases", repeatedList(512, "1.7e308") + "," + repeatedList(512, "-1.7e308"),
          "--out", png}},
        // |q| |k| = 8192e296 < 1e300, the largest product render accepts (1e154 is refused).
        {"rope-scores: q, k of 8192 entries of 1e148, L 1048576",
         {"render", "rope-scores", "--seq-len", "1048576", "--q", repeatedList(8192, "1e148"),
          "--k", repeatedList(8192, "-1e148"), "--out", png}},
        {"rope-rotation: 256 pairs of head_dim 8192",
         {"render", "rope-rotation", "--head-dim", "8192", "--pairs", countingList(256), "--out",
          png}},
        {"rope-precision: 3 formats x 64 pairs to 174761 (2^25 angles)",
         {"render", "rope-precision", "--formats", "float32,bfloat16,float16", "--max-position",
          "174761", "--out", png}},
    };
    double slowest = 0;
    for (const auto& [name, arguments] : worst) {
        const auto start = std::chrono::steady_clock::now();
        auto result = runPoslab(arguments);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        slowest = std::max(slowest, seconds);
        std::printf("[ time     ] %-58s %6.2f s\n", name.c_str(), seconds);
        EXPECT_EQ(result.exitCode, 0) << name << result.err;
        EXPECT_LT(seconds, 60.0) << name;  // a hang, not a slow machine
    }
    RecordProperty("slowest_seconds", std::to_string(slowest));
}

// ---- Write errors name the file and the system's reason, and a device stays a device.
TEST_F(HardeningTest, WriteErrorsNameTheFileAndTheReason) {
    struct stat full {};
    if (::stat("/dev/full", &full) != 0 || !S_ISCHR(full.st_mode)) GTEST_SKIP() << "no /dev/full";
    const std::string config = std::string(POSLAB_TEST_DATA_DIR) + "/configs/llama-3.1-8b.json";
    const std::vector<std::pair<std::string, Args>> writers = {
        {"a.png", {"render", "sinusoidal", "--width", "64", "--height", "64"}},
        {"a.svg", {"render", "sinusoidal", "--width", "64", "--height", "64"}},
        {"a.pdf", {"render", "sinusoidal", "--width", "64", "--height", "64"}},
        {"a.csv", {"export", "sinusoidal", "--d-model", "64", "--seq-len", "4096"}},
        {"a.npy", {"export", "sinusoidal", "--d-model", "4", "--seq-len", "4"}},
        {"a.json", {"export", "rope-info", "--config", config}},
    };
    for (const auto& [name, command] : writers) {
        const std::string link = path(name);
        ASSERT_EQ(::symlink("/dev/full", link.c_str()), 0);
        Args arguments = command;
        arguments.push_back("--out");
        arguments.push_back(link);
        SCOPED_TRACE(name);
        expectRefused(arguments, "cannot write '" + link + "': No space left on device");
        struct stat after {};
        ASSERT_EQ(::stat("/dev/full", &after), 0);
        EXPECT_TRUE(S_ISCHR(after.st_mode)) << "/dev/full was replaced";
        EXPECT_TRUE(std::filesystem::is_symlink(link));
    }
}

// ---- Peak memory: every command with big buffers, at the largest size a lowered cap accepts.
// GCC's macro, or clang's feature test (clang 14 does not define __SANITIZE_ADDRESS__).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;  // ASan's shadow memory and quarantine inflate RSS
#elif defined(__has_feature)
constexpr bool kSanitized = __has_feature(address_sanitizer);
#else
constexpr bool kSanitized = false;
#endif
// Under ASan the child keeps no quarantine of freed blocks (it would hold up to 256 MiB), and
// its shadow memory adds an eighth of what it touches: the cap then allows a quarter more.
std::vector<std::string> measuredEnvironment(std::vector<std::string> environment) {
    if (kSanitized) {
        const char* inherited = std::getenv("ASAN_OPTIONS");
        environment.push_back(std::string("ASAN_OPTIONS=") + (inherited ? inherited : "") +
                              ":quarantine_size_mb=0:thread_local_quarantine_size_kb=0");
    }
    return environment;
}

// Runs poslab with `environment` added; its exit code and peak resident set (wait4's ru_maxrss).
struct Peak {
    int exitCode = -1;
    long kib = 0;
};
Peak runMeasured(const Args& arguments, const std::vector<std::string>& environment) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        for (const std::string& e : environment) ::putenv(const_cast<char*>(e.c_str()));
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, 1);
        std::vector<char*> argv = {const_cast<char*>(POSLAB_BINARY)};
        for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(POSLAB_BINARY, argv.data());
        ::_exit(127);
    }
    Peak peak;
    int status = 0;
    struct rusage usage {};
    if (::wait4(pid, &status, 0, &usage) == pid) {
        peak.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        peak.kib = usage.ru_maxrss;
    }
    return peak;
}

// A version 1.0 .npy: the dict padded to a multiple of 64 bytes, then `bytes` of raw data.
void writeNpy(const std::string& path, const std::string& dict, std::size_t bytes) {
    std::string header = dict;
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::ofstream file(path, std::ios::binary);
    file << "\x93NUMPY" << '\x01' << '\x00' << char(header.size() & 0xff)
         << char(header.size() >> 8) << header;
    std::vector<float> block(1 << 16);
    for (std::size_t i = 0; i < block.size(); ++i) block[i] = float(i % 97) / 97.0f - 0.5f;
    for (std::size_t written = 0; written < bytes;) {
        const std::size_t n = std::min(bytes - written, block.size() * sizeof(float));
        file.write(reinterpret_cast<const char*>(block.data()), std::streamsize(n));
        written += n;
    }
}

TEST_F(HardeningTest, PeakMemoryStaysWithinTheCap) {
    constexpr long kCapMib = 64;
    const std::vector<std::string> environment = measuredEnvironment({"POSLAB_MEMORY_CAP_MIB=64"});
    // 8192 x 1024 doubles are exactly the cap; the .npy tables hold that many values.
    writeNpy(path("fortran.npy"),
             "{'descr': '<f8', 'fortran_order': True, 'shape': (8192, 1024), }", 8192u * 1024 * 8);
    writeNpy(path("float32.npy"),
             "{'descr': '<f4', 'fortran_order': False, 'shape': (8192, 1024), }", 8192u * 1024 * 4);
    writeNpy(path("narrow.npy"), "{'descr': '<f4', 'fortran_order': False, 'shape': (2896, 64), }",
             2896u * 64 * 4);
    const Peak baseline = runMeasured(
        {"export", "sinusoidal", "--d-model", "1", "--seq-len", "1", "--out", path("base.csv")},
        environment);
    ASSERT_EQ(baseline.exitCode, 0);
    const std::string npyOut = path("out.npy"), png = path("out.png");
    const std::vector<std::pair<std::string, Args>> commands = {
        {"export sinusoidal 8192 x 1024",
         {"export", "sinusoidal", "--d-model", "1024", "--seq-len", "8192", "--out", npyOut}},
        {"export learned, seeded 8192 x 1024",
         {"export", "learned", "--d-model", "1024", "--seq-len", "8192", "--out", npyOut}},
        {"export learned --from Fortran-order f8",
         {"export", "learned", "--from", path("fortran.npy"), "--out", npyOut}},
        {"export learned --from f4",
         {"export", "learned", "--from", path("float32.npy"), "--out", npyOut}},
        {"export similarity learned, L 2896 (L x L at the cap)",
         {"export", "similarity", "--encoding", "learned", "--table", path("narrow.npy"), "--out",
          npyOut}},
        {"render learned --from Fortran-order f8",
         {"render", "learned", "--from", path("fortran.npy"), "--out", png}},
        {"render similarity learned --table f4",
         {"render", "similarity", "--encoding", "learned", "--table", path("narrow.npy"), "--out",
          png}},
    };
    // The cap, plus what the program needs with no table at all, plus 24 MiB for chunks,
    // figures and allocator slack.
    const long limitKib =
        (kSanitized ? kCapMib * 1024 * 5 / 4 : kCapMib * 1024) + baseline.kib + 24 * 1024;
    long worst = 0;
    for (const auto& [name, arguments] : commands) {
        const Peak peak = runMeasured(arguments, environment);
        std::printf("[ peak     ] %-52s %7.1f MiB (limit %.1f)\n", name.c_str(), peak.kib / 1024.0,
                    limitKib / 1024.0);
        EXPECT_EQ(peak.exitCode, 0) << name;
        EXPECT_LE(peak.kib, limitKib) << name;
        worst = std::max(worst, peak.kib);
    }
    RecordProperty("worst_peak_kib", std::to_string(worst));
    // One value over the cap is refused before anything is allocated.
    const Peak over = runMeasured(
        {"export", "learned", "--d-model", "1024", "--seq-len", "8193", "--out", npyOut},
        environment);
    EXPECT_EQ(over.exitCode, 2);
    EXPECT_LE(over.kib, baseline.kib + 8 * 1024);
}

// ---- LeakSanitizer still reports our leaks where the drivers' blocks are suppressed: lsan.supp
// matches module names only, and the processes tests start run with symbolize=0 (process.cpp).
// Only in the sanitizer build (clang's ASan includes LeakSanitizer).
#if defined(__SANITIZE_ADDRESS__)
#define POSLAB_LEAK_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POSLAB_LEAK_CHECKED 1
#endif
#endif
#if defined(POSLAB_LEAK_CHECKED)
// Not inlined: the report names this function. The block's address is overwritten at once.
void* volatile leakedBlock = nullptr;
[[gnu::noinline]] void leakOnPurpose() {
    leakedBlock = std::malloc(48);
    leakedBlock = nullptr;
}

TEST(LeakCheckTest, OurLeakIsReportedWhereTheDriversBlocksAreSuppressed) {
    if (std::getenv("POSLAB_LEAK_ON_PURPOSE")) {
        // The child: the GL drivers loaded and a figure drawn (EGL, llvmpipe: ld.so's and the
        // drivers' one-time blocks), then one block of ours that nothing points to at exit.
        auto renderer = gfx::OffscreenRenderer::create();
        ASSERT_TRUE(renderer) << renderer.error().message;
        Figure figure;
        figure.width = 64;
        figure.height = 48;
        figure.add(RectItem{{8, 8, 40, 32}, {200, 40, 40, 255}});
        ASSERT_TRUE((*renderer)->render(figure));
        leakOnPurpose();
        return;
    }
    // The child is this test in this executable, with ./dev's leak options written out (so the
    // test means the same when run by hand) and the suppressions it used listed.
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    const std::string suppressions = POSLAB_TEST_DATA_DIR "/../sanitizer/lsan.supp";
    // Not one of ctest's GoogleTest shards: the child runs this test, whichever shard it is in.
    const auto result = runShell(
        "env -u GTEST_TOTAL_SHARDS -u GTEST_SHARD_INDEX POSLAB_LEAK_ON_PURPOSE=1 "
        "ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=" +
        shellQuote("suppressions=" + suppressions + ":use_tls=0:symbolize=0:print_suppressions=1") +
        " " + shellQuote(self) +
        " --gtest_filter=LeakCheckTest.OurLeakIsReportedWhereTheDriversBlocksAreSuppressed");
    ASSERT_NE(result.out.find("[ RUN      ] LeakCheckTest."), std::string::npos) << result.out;
    EXPECT_NE(result.exitCode, 0) << result.out << result.err;
    EXPECT_NE(result.err.find("ERROR: LeakSanitizer: detected memory leaks"), std::string::npos)
        << result.err;
    // Ours alone is reported, and by name (symbolized after the fact by runShell) ...
    EXPECT_NE(result.err.find("Direct leak of 48 byte(s) in 1 object(s)"), std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("leakOnPurpose"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("SUMMARY: AddressSanitizer: 48 byte(s) leaked in 1 allocation(s)."),
              std::string::npos)
        << result.err;
    // ... while the loader's blocks were there and suppressed by their module's name.
    EXPECT_NE(result.err.find("/ld-linux-x86-64.so.2"), std::string::npos) << result.err;
}

// A callback GLFW calls (here the error callback, as app/main.cpp's reportGlfwError) runs with
// libglfw's frames below ours: a suppression naming libglfw (or libX11, below GLFW's X error
// handler) hid every leak of ours made there, since a stack is suppressed when any frame
// matches. lsan.supp names neither now (the GUI's runs under xvfb used neither), and such a
// leak is reported.
void leakInGlfwCallback(int, const char*) {
    leakOnPurpose();
}

TEST(LeakCheckTest, OurLeakInAGlfwCallbackIsReported) {
    if (std::getenv("POSLAB_LEAK_IN_GLFW_CALLBACK")) {
        glfwSetErrorCallback(leakInGlfwCallback);
        (void)glfwGetTime();  // before glfwInit: GLFW_NOT_INITIALIZED, through the callback
        glfwSetErrorCallback(nullptr);
        return;
    }
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    const std::string suppressions = POSLAB_TEST_DATA_DIR "/../sanitizer/lsan.supp";
    const auto result = runShell(
        "env -u GTEST_TOTAL_SHARDS -u GTEST_SHARD_INDEX POSLAB_LEAK_IN_GLFW_CALLBACK=1 "
        "ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=" +
        shellQuote("suppressions=" + suppressions + ":use_tls=0:symbolize=0") + " " +
        shellQuote(self) + " --gtest_filter=LeakCheckTest.OurLeakInAGlfwCallbackIsReported");
    ASSERT_NE(result.out.find("[ RUN      ] LeakCheckTest."), std::string::npos) << result.out;
    EXPECT_NE(result.exitCode, 0) << result.out << result.err;
    EXPECT_NE(result.err.find("Direct leak of 48 byte(s) in 1 object(s)"), std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("leakInGlfwCallback"), std::string::npos) << result.err;
}
#endif

}  // namespace
}  // namespace poslab::test
