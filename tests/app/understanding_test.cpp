// The understanding views through the real binary: `poslab export similarity` against the closed
// form and against the exported table multiplied out, every new `poslab render` view, and sessions
// (round trip, damaged files reported and ignored). The lessons: lessons_test.cpp.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "poslab/io/csv.hpp"
#include "poslab/io/npy_reader.hpp"
#include "process.hpp"

namespace poslab::test {
namespace {

class UnderstandingTest : public ::testing::Test {
  protected:
    std::string dir =
        temporaryDirectory(std::string("understanding-") +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path(const std::string& name) const { return dir + "/" + name; }
    int filesInDir() const {
        return int(std::distance(std::filesystem::directory_iterator(dir), {}));
    }
    // `command` with --out OUT appended is refused: exit code 2, one line naming the problem
    // (containing `message`), and nothing written.
    void expectRefused(std::vector<std::string> command, const std::string& out,
                       const std::string& message) const {
        command.push_back("--out");
        command.push_back(path(out));
        const ProcessResult result = runPoslab(command);
        EXPECT_EQ(result.exitCode, 2) << message;
        EXPECT_NE(result.err.find(message), std::string::npos) << result.err;
        EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
        EXPECT_EQ(filesInDir(), 0) << message;
    }
};

ProcessResult runGui(const std::string& arguments, const std::string& environment = "") {
    return runShell(environment + " xvfb-run -a -s '-noreset -screen 0 1440x900x24' " +
                    shellQuote(POSLAB_BINARY) + " " + arguments);
}

int sampledDistinctColours(const ImageRgba& image) {
    std::set<std::uint32_t> colours;
    for (std::size_t i = 0; i + 3 < image.pixels.size(); i += 4 * 7) {
        colours.insert(std::uint32_t(image.pixels[i]) << 16 |
                       std::uint32_t(image.pixels[i + 1]) << 8 | image.pixels[i + 2]);
    }
    return int(colours.size());
}

TEST_F(UnderstandingTest, ExportedSinusoidalDotIsTheCosineSum) {
    auto result = runPoslab({"export", "similarity", "--seq-len", "60", "--d-model", "16",
                             "--metric", "dot", "--out", path("s.csv")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    auto m = parseCsv(readFile(path("s.csv")));
    ASSERT_TRUE(m.ok());
    ASSERT_EQ(m->rows, 60u);
    ASSERT_EQ(m->cols, 60u);
    for (int i = 0; i < 60; ++i) {
        for (int j = 0; j < 60; ++j) {
            double expected = 0;  // PE(i).PE(j) = sum_k cos((i - j) / 10000^(2k/16))
            for (int k = 0; k < 8; ++k)
                expected += std::cos((i - j) / std::pow(10000.0, 2.0 * k / 16));
            ASSERT_NEAR((*m)(i, j), expected, 1e-12) << i << "," << j;
        }
    }
}

TEST_F(UnderstandingTest, ExportedCosineEqualsTheExportedTableMultipliedOut) {
    // Odd d_model: not Toeplitz (the lone sine column), still exactly the normalised Gram matrix.
    for (const char* layout : {"interleaved", "concat", "t2t"}) {
        ASSERT_EQ(runPoslab({"export", "sinusoidal", "--seq-len", "40", "--d-model", "9", "--base",
                             "20", "--layout", layout, "--out", path("pe.npy")})
                      .exitCode,
                  0);
        auto result = runPoslab({"export", "similarity", "--seq-len", "40", "--d-model", "9",
                                 "--base", "20", "--layout", layout, "--out", path("s.npy")});
        ASSERT_EQ(result.exitCode, 0) << result.err;
        const Matrix pe = loadNpy(path("pe.npy")).value();
        const Matrix s = loadNpy(path("s.npy")).value();
        for (int i = 0; i < 40; ++i) {
            for (int j = 0; j < 40; ++j) {
                double dot = 0, ni = 0, nj = 0;
                for (int k = 0; k < 9; ++k) {
                    dot += pe(i, k) * pe(j, k);
                    ni += pe(i, k) * pe(i, k);
                    nj += pe(j, k) * pe(j, k);
                }
                ASSERT_NEAR(s(i, j), dot / std::sqrt(ni * nj), 1e-12)
                    << layout << " " << i << "," << j;
            }
        }
    }
}

TEST_F(UnderstandingTest, ExportedRopeAndLearnedSimilarities) {
    // RoPE, expected over q = k: cosine = (1/(d/2)) sum_i cos(theta_i (i - j)), Toeplitz.
    auto result = runPoslab({"export", "similarity", "--encoding", "rope", "--seq-len", "30",
                             "--head-dim", "8", "--base", "100", "--out", path("r.npy")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const Matrix r = loadNpy(path("r.npy")).value();
    for (int i = 0; i < 30; ++i) {
        for (int j = 0; j < 30; ++j) {
            double expected = 0;
            for (int k = 0; k < 4; ++k)
                expected += std::cos((i - j) * std::pow(100.0, -2.0 * k / 8)) / 4;
            ASSERT_NEAR(r(i, j), expected, 1e-13);
            if (i + 1 < 30 && j + 1 < 30) {
                ASSERT_NEAR(r(i, j), r(i + 1, j + 1), 1e-13);
            }
        }
    }
    // Learned from a file: the cosine of the file's rows.
    ASSERT_EQ(runPoslab({"export", "sinusoidal", "--seq-len", "12", "--d-model", "6", "--out",
                         path("t.npy")})
                  .exitCode,
              0);
    result = runPoslab({"export", "similarity", "--encoding", "learned", "--table", path("t.npy"),
                        "--out", path("l.csv")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const Matrix l = parseCsv(readFile(path("l.csv"))).value();
    ASSERT_EQ(l.rows, 12u);
    for (int i = 0; i < 12; ++i) EXPECT_NEAR(l(i, i), 1.0, 1e-15);
}

TEST_F(UnderstandingTest, BadSimilarityInputsAreOneLineErrorsAndLeaveNoFile) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--seq-len", "10", "--encoding", "alibi"},
         "--encoding must be sinusoidal, learned or rope (got 'alibi')"},
        {{"--seq-len", "10", "--metric", "cos"}, "--metric must be cosine or dot (got 'cos')"},
        {{"--d-model", "8"}, "--seq-len L is required"},
        {{"--seq-len", "0"}, "--seq-len must be 1..1048576 (got 0)"},
        {{"--seq-len", "10", "--encoding", "rope", "--layout", "concat"},
         "--layout does not apply to --encoding rope"},
        {{"--seq-len", "10", "--encoding", "rope", "--scaling", "linear"},
         "--factor S is required with --scaling linear"},
        {{"--seq-len", "10", "--encoding", "learned", "--table", "/nonexistent.npy"},
         "/nonexistent.npy"},
        {{"--seq-len", "1000000"}, "exceeds the memory cap"},
    };
    for (const auto& [arguments, message] : cases) {
        std::vector<std::string> command = {"export", "similarity"};
        command.insert(command.end(), arguments.begin(), arguments.end());
        expectRefused(command, "bad.npy", message);
    }
}

TEST_F(UnderstandingTest, EveryNewViewRendersHeadless) {
    const std::vector<std::vector<std::string>> views = {
        {"similarity", "--seq-len", "300"},
        {"similarity", "--encoding", "rope", "--seq-len", "2048", "--head-dim", "64",
         "--rope-vectors", "same"},
        {"similarity", "--encoding", "learned", "--seq-len", "200", "--d-model", "32"},
        {"meaning"},
        {"add-vs-concat", "--d-model", "32"},
        {"near-orthogonality", "--d-model", "256"},
        {"binary-clock"},
        {"linear-shift", "--d-model", "9", "--base", "10"},
        {"linear-shift", "--sin-only"},
        {"attention-shuffle", "--position", "rope"},
        {"attention-shuffle", "--sentence", "dog bites man", "--shuffle-seed", "4"},
        {"frequency-resolution", "--shared-pair", "4"},
        {"extrapolation"},
        {"compare"},
        {"compare-ab", "--max-offset", "2000"},
    };
    for (const auto& view : views) {
        std::vector<std::string> command = {"render"};
        command.insert(command.end(), view.begin(), view.end());
        for (const char* extra : {"--width", "900", "--height", "600", "--out"})
            command.push_back(extra);
        command.push_back(path(view[0] + ".png"));
        const ProcessResult result = runPoslab(command, "env -u DISPLAY -u WAYLAND_DISPLAY");
        ASSERT_EQ(result.exitCode, 0) << view[0] << ": " << result.err;
        EXPECT_TRUE(result.err.empty()) << result.err;
        const ImageRgba image = loadPng(path(view[0] + ".png"));
        ASSERT_EQ(image.width, 900) << view[0];
        ASSERT_EQ(image.height, 600) << view[0];
        EXPECT_GT(sampledDistinctColours(image), 30) << view[0];  // figures, not a blank page
    }
}

TEST_F(UnderstandingTest, RendersAtTheLargestSettingsSayWhatTheySampled) {
    // The largest values each view accepts: the work is bounded by what the figure shows, and the
    // figure (SVG, so its text can be read back) says where it shows a subsample.
    const std::vector<std::pair<std::vector<std::string>, std::string>> views = {
        {{"near-orthogonality", "--d-model", "8192", "--samples", "1000000"},
         "first 2048 of 1000000 seeded draws"},
        {{"linear-shift", "--d-model", "8192", "--positions", "1048576", "--dims", "8192"},
         "at 2048 evenly spaced p of 1048576"},
        {{"add-vs-concat", "--d-model", "2048", "--seq-len", "1024"}, "evenly spaced"},
        {{"meaning", "--d-model", "2048", "--seq-len", "1024"}, "RMS (≈) over 25 evenly spaced"},
        {{"similarity", "--encoding", "rope", "--rope-vectors", "same", "--seq-len", "1048576",
          "--head-dim", "8192"},
         "apart"},
        {{"compare-ab", "--head-dim", "8192", "--max-offset", "1048575"}, "apart)"},
        {{"extrapolation", "--training-length", "65536", "--eval-length", "262144", "--d-model",
          "1024", "--head-dim", "1024"},
         "Learned: undefined"},
    };
    for (const auto& [view, caption] : views) {
        std::vector<std::string> command = {"render"};
        command.insert(command.end(), view.begin(), view.end());
        command.push_back("--out");
        command.push_back(path(view[0] + ".svg"));
        const ProcessResult result = runPoslab(command, "env -u DISPLAY -u WAYLAND_DISPLAY");
        ASSERT_EQ(result.exitCode, 0) << view[0] << ": " << result.err;
        std::ifstream file(path(view[0] + ".svg"));
        const std::string svg((std::istreambuf_iterator<char>(file)),
                              std::istreambuf_iterator<char>());
        // The figure's words in order, one space between texts: a caption wrapped onto two
        // lines (print sizes) is still said.
        std::string words;
        for (std::size_t at = svg.find("<text"); at != std::string::npos;
             at = svg.find("<text", at + 1)) {
            const std::size_t end = svg.find("</text>", at);
            if (end == std::string::npos) break;
            std::string inner = svg.substr(at, end - at);
            std::string plain;
            bool tag = false;
            for (char c : inner) {
                if (c == '<') tag = true;
                if (!tag) plain += c;
                if (c == '>') tag = false;
            }
            words += plain + " ";
        }
        EXPECT_NE(words.find(caption), std::string::npos) << view[0] << ": " << caption;
    }
}

TEST_F(UnderstandingTest, ExportedShuffledOutputsAreTheOriginalsPermuted) {
    // No position: the output of "The mouse chased the cat" is that of "The cat chased the
    // mouse" with rows 1 and 4 swapped; with RoPE it is not.
    for (const char* position : {"none", "rope"}) {
        for (const char* which : {"output", "shuffled-output"}) {
            auto result =
                runPoslab({"export", "attention-shuffle", "--position", position, "--matrix", which,
                           "--out", path(std::string(which) + ".csv")});
            ASSERT_EQ(result.exitCode, 0) << result.err;
        }
        auto original = parseCsv(readFile(path("output.csv")));
        auto shuffled = parseCsv(readFile(path("shuffled-output.csv")));
        ASSERT_TRUE(original.ok() && shuffled.ok());
        ASSERT_EQ(original->rows, 5u);
        ASSERT_EQ(original->cols, 16u);
        const int permutation[5] = {0, 4, 2, 3, 1};
        double deviation = 0;
        for (int i = 0; i < 5; ++i) {
            for (int c = 0; c < 16; ++c)
                deviation = std::max(deviation,
                                     std::abs((*shuffled)(i, c) - (*original)(permutation[i], c)));
        }
        if (std::string(position) == "none")
            EXPECT_LT(deviation, 1e-12);
        else
            EXPECT_GT(deviation, 0.05);
    }
    auto weights = runPoslab({"export", "attention-shuffle", "--out", path("w.csv")});
    ASSERT_EQ(weights.exitCode, 0) << weights.err;
    auto w = parseCsv(readFile(path("w.csv")));
    ASSERT_TRUE(w.ok());
    for (std::size_t i = 0; i < w->rows; ++i) {
        double sum = 0;
        for (std::size_t j = 0; j < w->cols; ++j) sum += (*w)(i, j);
        EXPECT_NEAR(sum, 1, 1e-12);  // softmax rows, as written with 17 digits
    }
}

TEST_F(UnderstandingTest, ExportedSineOnlyMapAndDistances) {
    auto fit = runPoslab({"export", "linear-shift", "--sin-only", "--out", path("t.csv")});
    ASSERT_EQ(fit.exitCode, 0) << fit.err;
    auto t = parseCsv(readFile(path("t.csv")));
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(t->rows, 8u);  // d = 16: eight sines
    EXPECT_EQ(t->cols, 8u);
    auto exact = runPoslab({"export", "linear-shift", "--out", path("exact.csv")});
    ASSERT_EQ(exact.exitCode, 0) << exact.err;
    EXPECT_EQ(parseCsv(readFile(path("exact.csv")))->rows, 16u);
    auto distances = runPoslab({"export", "frequency-resolution", "--positions", "100", "--d-model",
                                "8", "--out", path("d.csv")});
    ASSERT_EQ(distances.exitCode, 0) << distances.err;
    auto d = parseCsv(readFile(path("d.csv")));
    ASSERT_TRUE(d.ok());
    ASSERT_EQ(d->rows, 100u);
    // Offset 1, standard table: sqrt(sum_i 4 sin^2(w_i / 2)), w_i = 10000^(-2i/8).
    double expected = 0;
    for (int i = 0; i < 4; ++i)
        expected += 4 * std::pow(std::sin(std::pow(10000.0, -i / 4.0) / 2), 2);
    EXPECT_NEAR((*d)(1, 0), std::sqrt(expected), 1e-12);
    EXPECT_NEAR((*d)(1, 1), 2 * 2 * std::sin(0.5), 1e-12);  // four pairs at w = 1
}

TEST_F(UnderstandingTest, BadIntuitionInputsAreOneLineErrors) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"render", "attention-shuffle", "--shuffled", "The dog chased the mouse"},
         "shuffled must reorder the sentence's words: 'dog' is not in it"},
        {{"render", "attention-shuffle", "--shuffled", "a b", "--shuffle-seed", "2"},
         "--shuffled and --shuffle-seed exclude each other"},
        {{"render", "attention-shuffle", "--sentence", "alone"},
         "sentence must have 2..16 words (got 1)"},
        {{"render", "attention-shuffle", "--position", "t5"},
         "--position must be none, sinusoidal, learned, rope or alibi (got 't5')"},
        {{"render", "attention-shuffle", "--d-model", "7"},
         "--d-model must be even, 2..64 (got 7)"},
        {{"render", "linear-shift", "--sin-only", "--d-model", "600"},
         "--d-model must be 1..512 (got 600)"},
        {{"render", "frequency-resolution", "--shared-pair", "32"},
         "--shared-pair must be 0..31 (got 32)"},
        {{"export", "frequency-resolution", "--matrix", "nope"},
         "--matrix must be distances, pairs or table (got 'nope')"},
    };
    for (const auto& [command, message] : cases)
        expectRefused(command, command[0] == "render" ? "bad.png" : "bad.csv", message);
}

TEST_F(UnderstandingTest, TightenedRenderCapsAreOneLineErrors) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"compare-ab", "--max-offset", "1048576"},
         "--max-offset must be 2..1048575 (got 1048576)"},
        {{"similarity", "--encoding", "learned", "--seq-len", "8192", "--d-model", "8192"},
         "--seq-len x --d-model must be at most 33554432 for --encoding learned (got 8192 x "
         "8192)"},
        {{"near-orthogonality", "--samples", "1000001"},
         "--samples must be 1..1000000 (got 1000001)"},
    };
    for (const auto& [arguments, message] : cases) {
        std::vector<std::string> command = {"render"};
        command.insert(command.end(), arguments.begin(), arguments.end());
        expectRefused(command, "bad.png", message);
    }
    // The help states the ranges the errors give.
    const ProcessResult help = runPoslab({"render", "compare-ab", "--help"});
    EXPECT_NE(help.out.find("2..1048575"), std::string::npos) << help.out;
    const ProcessResult similarity = runPoslab({"render", "similarity", "--help"});
    EXPECT_NE(similarity.out.find("L x d <= 33554432"), std::string::npos) << similarity.out;
}

TEST_F(UnderstandingTest, SessionsRoundTripThroughTheGui) {
    if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not installed";
    const nlohmann::json session = {
        {"format", "poslab-session"},
        {"version", 1},
        {"view", "Extrapolation"},
        {"theme", "paper"},
        {"sinusoidal",
         {{"params", {{"dModel", 96}, {"seqLen", 300}, {"base", 500}, {"layout", "concat"}}}}},
        {"similarity",
         {{"params",
           {{"encoding", "rope"},
            {"metric", "dot"},
            {"seqLen", 777},
            {"rope",
             {{"headDim", 32},
              {"base", 123456.5},
              {"scaling", {{"type", "yarn"}, {"factor", 4}}}}}}},
          {"maxOffset", 40}}},
        {"meaning", {{"figure", "add-vs-concat"}, {"params", {{"dModel", 40}, {"vocabulary", 3}}}}},
        {"intuition", {{"figure", "linear-shift"}, {"shift", {{"shift", -7.5}}}}},
        {"extrapolation", {{"trainingLength", 1000}, {"evaluationLength", 9000}}},
        {"compare", {{"mode", "rope-ab"}, {"b", {{"base", 2e6}}}}}};
    std::ofstream(path("in.json")) << session.dump(2);
    const ProcessResult result =
        runGui("--session " + shellQuote(path("in.json")) + " --save-session " +
               shellQuote(path("out.json")) + " --screenshot " + shellQuote(path("s.png")));
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_TRUE(result.err.empty()) << result.err;
    const nlohmann::json saved = nlohmann::json::parse(readFile(path("out.json")));
    EXPECT_EQ(saved["format"], "poslab-session");
    EXPECT_EQ(saved["view"], "Extrapolation");
    EXPECT_EQ(saved["theme"], "paper");
    EXPECT_EQ(saved["sinusoidal"]["params"], session["sinusoidal"]["params"]);
    EXPECT_EQ(saved["similarity"]["params"]["seqLen"], 777);
    EXPECT_EQ(saved["similarity"]["params"]["rope"]["base"], 123456.5);
    EXPECT_EQ(saved["similarity"]["params"]["rope"]["scaling"]["type"], "yarn");
    EXPECT_EQ(saved["similarity"]["maxOffset"], 40);
    EXPECT_EQ(saved["meaning"]["figure"], "add-vs-concat");
    EXPECT_EQ(saved["meaning"]["params"]["vocabulary"], 3);
    EXPECT_EQ(saved["intuition"]["shift"]["shift"], -7.5);
    EXPECT_EQ(saved["extrapolation"]["evaluationLength"], 9000);
    EXPECT_EQ(saved["compare"]["b"]["base"], 2e6);
    // Saving what was loaded changes nothing: a second round trip is the identity.
    const ProcessResult again =
        runGui("--session " + shellQuote(path("out.json")) + " --save-session " +
               shellQuote(path("out2.json")) + " --screenshot " + shellQuote(path("s2.png")));
    ASSERT_EQ(again.exitCode, 0) << again.err;
    nlohmann::json first = saved, second = nlohmann::json::parse(readFile(path("out2.json")));
    first.erase("window");
    second.erase("window");
    EXPECT_EQ(first, second);
    // The screenshot shows the restored view: the extrapolation figure on paper (white) figures.
    const ImageRgba image = loadPng(path("s.png"));
    ASSERT_EQ(image.width, 1440);
    int white = 0, total = 0;
    for (int y = 100; y < 800; y += 5) {
        for (int x = 400; x < 1400; x += 5) {
            const std::uint8_t* p = &image.pixels[(std::size_t(y) * 1440 + std::size_t(x)) * 4];
            white += p[0] > 240 && p[1] > 240 && p[2] > 240;
            ++total;
        }
    }
    EXPECT_GT(double(white) / total, 0.4);
}

TEST_F(UnderstandingTest, DamagedSessionsAreReportedAndIgnored) {
    if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not installed";
    // Not JSON at all: one line on stderr, the GUI still starts.
    std::ofstream(path("broken.json")) << "{\"format\": \"poslab-session\", \"sinusoidal\": {";
    ProcessResult result = runGui("--session " + shellQuote(path("broken.json")) +
                                  " --screenshot " + shellQuote(path("a.png")));
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.err.find("broken.json: not valid JSON"), std::string::npos) << result.err;
    EXPECT_TRUE(fileExists(path("a.png")));

    // JSON, but not a session.
    std::ofstream(path("other.json")) << "[1, 2, 3]";
    result = runGui("--session " + shellQuote(path("other.json")) + " --screenshot " +
                    shellQuote(path("b.png")));
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_NE(result.err.find("not a PosLab session"), std::string::npos) << result.err;

    // A session with one bad value: that view keeps its settings, the others are applied.
    const nlohmann::json partly = {{"format", "poslab-session"},
                                   {"similarity", {{"params", {{"seqLen", -5}}}}},
                                   {"extrapolation", {{"trainingLength", "many"}}},
                                   {"intuition", {{"figure", "linear-shift"}}}};
    std::ofstream(path("partly.json")) << partly.dump();
    result = runGui("--session " + shellQuote(path("partly.json")) + " --save-session " +
                    shellQuote(path("saved.json")) + " --screenshot " + shellQuote(path("c.png")));
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.err.find("similarity: seq_len must be 1..1048576 (got -5)"), std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("extrapolation.trainingLength: expected an integer"),
              std::string::npos)
        << result.err;
    const nlohmann::json saved = nlohmann::json::parse(readFile(path("saved.json")));
    EXPECT_EQ(saved["similarity"]["params"]["seqLen"], 512);   // the default, kept
    EXPECT_EQ(saved["extrapolation"]["trainingLength"], 512);  // the default, kept
    EXPECT_EQ(saved["intuition"]["figure"], "linear-shift");   // applied

    // The remembered session: a damaged one is reported, set aside and replaced at exit.
    const std::string config = path("config");
    std::filesystem::create_directories(config + "/poslab");
    std::ofstream(config + "/poslab/session.json") << "not json";
    result = runGui("--remember --screenshot " + shellQuote(path("d.png")),
                    "XDG_CONFIG_HOME=" + shellQuote(config));
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.err.find("ignored the remembered session"), std::string::npos) << result.err;
    EXPECT_EQ(readFile(config + "/poslab/session.json.bad"), "not json");
    const nlohmann::json remembered =
        nlohmann::json::parse(readFile(config + "/poslab/session.json"), nullptr, false);
    ASSERT_FALSE(remembered.is_discarded());
    EXPECT_EQ(remembered["format"], "poslab-session");
}

}  // namespace
}  // namespace poslab::test
