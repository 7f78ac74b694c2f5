// replay_main.cpp — the fuzz targets without libFuzzer, in the ASan+UBSan build (./dev test).
//
// Every LLVMFuzzerTestOneInput in tests/fuzz is compiled into one executable under its own name
// (tests/fuzz/CMakeLists.txt renames each with a macro); this driver feeds the chosen one every
// file of its seed corpus, then a fixed number of inputs mutated from those seeds (bit flips,
// byte and range edits, edge values, splices of two seeds, truncations). The mutations come
// from a seeded generator, so a run is the same every time and a failure reproduces. It has no
// coverage feedback: the coverage-guided search is the clang build's job (POSLAB_FUZZ, run by
// hand — README, "Testing and hardening"); this keeps the seeds and their neighbourhood under
// the sanitizers in every suite run, at no extra compilation.
//
//   poslab_fuzz_replay NAME [-runs=N] [-max_total_time=S] [-seed=K] PATH...
// PATH is a folder (every file in it is a seed) or a file (replayed alone, e.g. a crash input).
// When an input crashes (a sanitizer report, __builtin_trap), it is written to
// fuzz-crash-NAME in the working directory first.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#if defined(__has_include)
#if __has_include(<sanitizer/common_interface_defs.h>)
#include <sanitizer/common_interface_defs.h>
#define POSLAB_HAVE_DEATH_CALLBACK 1
#endif
#endif

// The targets, renamed (fuzz_targets.inc, written by tests/fuzz/CMakeLists.txt: X(npy) ...).
#define X(name) extern "C" int poslab_fuzz_##name(const std::uint8_t* data, std::size_t size);
#include "fuzz_targets.inc"
#undef X

namespace {

using FuzzTarget = int (*)(const std::uint8_t*, std::size_t);

struct Target {
    const char* name;
    FuzzTarget run;
};

constexpr Target kTargets[] = {
#define X(name) Target{#name, poslab_fuzz_##name},
#include "fuzz_targets.inc"
#undef X
};

// ---- The input being run, written out when the process dies on it
std::vector<std::uint8_t> gCurrent;
char gCrashPath[256] = "fuzz-crash";

void writeCurrentInput() {
    const int fd = ::open(gCrashPath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    std::size_t done = 0;
    while (done < gCurrent.size()) {
        const ssize_t n = ::write(fd, gCurrent.data() + done, gCurrent.size() - done);
        if (n <= 0) break;
        done += std::size_t(n);
    }
    ::close(fd);
    static const char kSaid[] = "poslab_fuzz_replay: the failing input is in ";
    (void)!::write(2, kSaid, sizeof kSaid - 1);
    (void)!::write(2, gCrashPath, std::strlen(gCrashPath));
    (void)!::write(2, "\n", 1);
}

// __builtin_trap (SIGILL), abort (SIGABRT), or a fault the sanitizers do not catch.
void onFatalSignal(int signal) {
    writeCurrentInput();
    ::signal(signal, SIG_DFL);
    ::raise(signal);
}

std::vector<std::uint8_t> readBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// ---- Mutations (a few of libFuzzer's kinds, chosen and applied by one seeded generator)
class Mutator {
  public:
    explicit Mutator(std::uint64_t seed) : random_(seed) {}

    std::vector<std::uint8_t> mutate(const std::vector<std::vector<std::uint8_t>>& seeds,
                                     std::size_t maxSize) {
        std::vector<std::uint8_t> input = seeds[below(seeds.size())];
        const std::size_t edits = 1 + below(4);
        for (std::size_t e = 0; e < edits; ++e) edit(input, seeds);
        if (input.size() > maxSize) input.resize(maxSize);
        return input;
    }

  private:
    std::mt19937_64 random_;

    std::size_t below(std::size_t n) { return n == 0 ? 0 : std::size_t(random_() % n); }
    std::uint8_t byte() { return std::uint8_t(random_()); }

    // Bytes that steer text parsers to their edges: JSON and CSV syntax, signs, exponents, digits.
    std::uint8_t special() {
        static constexpr char kSpecial[] = "{}[]\":,-+.eE0123456789\\\n\r\t nu\xff";
        return std::uint8_t(kSpecial[below(sizeof kSpecial - 1)]);
    }

    void edit(std::vector<std::uint8_t>& in, const std::vector<std::vector<std::uint8_t>>& seeds) {
        static constexpr const char* kTokens[] = {"1e308",      "-1e308",
                                                  "1e999",      "NaN",
                                                  "Infinity",   "-0",
                                                  "4294967296", "9223372036854775808",
                                                  "null",       "true",
                                                  "[]",         "{}",
                                                  "\"\"",       "0.0000000000000000001",
                                                  "\\u0000",    "\xc3\x28"};
        const std::size_t at = below(in.size() + 1);
        switch (below(9)) {
            case 0:  // flip a bit
                if (!in.empty()) in[below(in.size())] ^= std::uint8_t(1u << below(8));
                break;
            case 1:  // a random byte
                if (!in.empty()) in[below(in.size())] = byte();
                break;
            case 2:  // a syntax byte inserted
                in.insert(in.begin() + std::ptrdiff_t(at), special());
                break;
            case 3: {  // a range erased
                if (in.empty()) break;
                const std::size_t from = below(in.size());
                const std::size_t count = 1 + below(std::min<std::size_t>(64, in.size() - from));
                in.erase(in.begin() + std::ptrdiff_t(from),
                         in.begin() + std::ptrdiff_t(from + count));
                break;
            }
            case 4: {  // a range repeated
                if (in.empty()) break;
                const std::size_t from = below(in.size());
                const std::size_t count = 1 + below(std::min<std::size_t>(64, in.size() - from));
                const std::vector<std::uint8_t> piece(in.begin() + std::ptrdiff_t(from),
                                                      in.begin() + std::ptrdiff_t(from + count));
                in.insert(in.begin() + std::ptrdiff_t(below(in.size() + 1)), piece.begin(),
                          piece.end());
                break;
            }
            case 5: {  // an edge-value token
                const std::string_view token = kTokens[below(std::size(kTokens))];
                in.insert(in.begin() + std::ptrdiff_t(at), token.begin(), token.end());
                break;
            }
            case 6: {  // the head of this input, the tail of another seed
                const std::vector<std::uint8_t>& other = seeds[below(seeds.size())];
                in.resize(at);
                const std::size_t from = below(other.size() + 1);
                in.insert(in.end(), other.begin() + std::ptrdiff_t(from), other.end());
                break;
            }
            case 7:  // truncated
                in.resize(at);
                break;
            default: {  // a binary field overwritten by an extreme integer (little-endian)
                static constexpr std::uint64_t kWords[] = {
                    0,          1,          0x7f,
                    0x80,       0xff,       0x7fffffff,
                    0x80000000, 0xffffffff, 0x7fffffffffffffff,
                    ~0ull};
                const std::uint64_t word = kWords[below(std::size(kWords))];
                const std::size_t width = std::size_t(1) << below(4);  // 1, 2, 4 or 8 bytes
                if (in.size() < width) break;
                const std::size_t where = below(in.size() - width + 1);
                for (std::size_t i = 0; i < width; ++i)
                    in[where + i] = std::uint8_t(word >> (8 * i));
                break;
            }
        }
    }
};

long long flagValue(std::string_view argument, std::string_view flag, long long fallback) {
    if (argument.substr(0, flag.size()) != flag) return fallback;
    return std::atoll(std::string(argument.substr(flag.size())).c_str());
}

}  // namespace

#if defined(__SANITIZE_ADDRESS__)
// As libFuzzer's -rss_limit_mb=2048 (its malloc limit): one allocation over 2 GiB is a failure,
// not a slow success — the readers must refuse such sizes before allocating. ASAN_OPTIONS adds
// to these.
extern "C" const char* __asan_default_options() {
    return "max_allocation_size_mb=2048:allocator_may_return_null=0";
}
#endif

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s NAME [-runs=N] [-max_total_time=S] [-seed=K] PATH...\n",
                     argv[0]);
        return 2;
    }
    const std::string_view name = argv[1];
    const Target* target = nullptr;
    for (const Target& t : kTargets) {
        if (name == t.name) target = &t;
    }
    if (!target) {
        std::fprintf(stderr, "poslab_fuzz_replay: no fuzz target '%s'\n", argv[1]);
        return 2;
    }
    long long runs = 8000, seconds = 30, seed = 1;
    std::vector<std::filesystem::path> paths;
    for (int i = 2; i < argc; ++i) {
        const std::string_view argument = argv[i];
        if (argument.starts_with("-runs="))
            runs = flagValue(argument, "-runs=", runs);
        else if (argument.starts_with("-max_total_time="))
            seconds = flagValue(argument, "-max_total_time=", seconds);
        else if (argument.starts_with("-seed="))
            seed = flagValue(argument, "-seed=", seed);
        else
            paths.emplace_back(argument);
    }
    std::snprintf(gCrashPath, sizeof gCrashPath, "fuzz-crash-%s", argv[1]);
#ifdef POSLAB_HAVE_DEATH_CALLBACK
    __sanitizer_set_death_callback(writeCurrentInput);
#endif
    for (int signal : {SIGILL, SIGABRT, SIGSEGV, SIGBUS, SIGFPE}) ::signal(signal, onFatalSignal);

    // A single file is replayed alone (reproducing a failure); folders are corpora.
    std::vector<std::vector<std::uint8_t>> seeds;
    bool onlyFiles = true;
    for (const auto& path : paths) {
        if (std::filesystem::is_directory(path)) {
            onlyFiles = false;
            std::vector<std::filesystem::path> files;
            for (const auto& entry : std::filesystem::directory_iterator(path)) {
                if (entry.is_regular_file()) files.push_back(entry.path());
            }
            std::sort(files.begin(), files.end());  // the same order, so the same mutations
            for (const auto& file : files) seeds.push_back(readBytes(file));
        } else {
            seeds.push_back(readBytes(path));
        }
    }
    if (seeds.empty()) seeds.emplace_back();  // an empty corpus: mutate the empty input

    const auto start = std::chrono::steady_clock::now();
    long long executed = 0;
    for (const auto& input : seeds) {
        gCurrent = input;
        target->run(gCurrent.data(), gCurrent.size());
        ++executed;
    }
    std::size_t largest = 0;
    for (const auto& input : seeds) largest = std::max(largest, input.size());
    const std::size_t maxSize = std::max<std::size_t>(4096, largest + largest / 4);
    Mutator mutator{std::uint64_t(seed)};
    long long mutated = 0;
    if (!onlyFiles) {
        for (; mutated < runs; ++mutated) {
            if ((mutated & 15) == 0 &&
                std::chrono::steady_clock::now() - start > std::chrono::seconds(seconds)) {
                break;
            }
            gCurrent = mutator.mutate(seeds, maxSize);
            target->run(gCurrent.data(), gCurrent.size());
        }
        executed += mutated;
    }
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    if (usage.ru_maxrss > 2048L * 1024) {  // kilobytes
        std::fprintf(stderr, "poslab_fuzz_replay: %s: peak resident memory %ld MiB > 2048 MiB\n",
                     argv[1], usage.ru_maxrss / 1024);
        return 1;
    }
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s: %zu seeds and %lld mutated inputs in %.1f s, no failure\n", argv[1],
                seeds.size(), mutated, elapsed);
    return 0;
}
