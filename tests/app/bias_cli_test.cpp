// ALiBi, T5 and learned tables from the command line, their figures, and their GUI views:
// values against published or written-out truth, bad inputs refused in one line with exit 2.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <set>

#include "poslab/figure/colormap.hpp"
#include "poslab/io/csv.hpp"
#include "process.hpp"

namespace poslab::test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

class BiasCliTest : public CommandLineTest {};

// A .npy file written byte by byte from the format description (numpy's format.py): magic,
// version 1.0, little-endian header length, the dict padded with spaces to a multiple of 64
// bytes and ending in '\n', then the raw data.
std::string npyFile(const std::string& dict, const std::string& data) {
    std::string header = dict;
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string bytes = "\x93NUMPY";
    bytes += '\x01';
    bytes += '\x00';
    bytes += char(header.size() & 0xff);
    bytes += char(header.size() >> 8);
    return bytes + header + data;
}

template <class T>
std::string rawBytes(const std::vector<T>& values) {
    std::string bytes(values.size() * sizeof(T), '\0');
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

// ---- ALiBi slopes and biases

TEST_F(BiasCliTest, EightHeadSlopesAreThePapers) {
    // Press et al.: "for a model with 8 heads, the slopes are 1/2^1, 1/2^2, ..., 1/2^8".
    const Matrix slopes = exportCsv({"export", "alibi-slopes", "--heads", "8"});
    ASSERT_EQ(slopes.rows, 8u);
    ASSERT_EQ(slopes.cols, 1u);
    for (int h = 0; h < 8; ++h) EXPECT_EQ(slopes(h, 0), 1.0 / double(2 << h)) << h;
}

TEST_F(BiasCliTest, TwelveHeadSlopesFollowFairseqGetSlopes) {
    // fairseq's get_slopes(12), printed by Python: get_slopes_power_of_2(8) followed by
    // get_slopes(16)[0::2][:4].
    const double fairseq[12] = {0.5,
                                0.25,
                                0.125,
                                0.0625,
                                0.03125,
                                0.015625,
                                0.0078125,
                                0.00390625,
                                0.7071067811865476,
                                0.35355339059327384,
                                0.17677669529663692,
                                0.08838834764831849};
    const Matrix slopes = exportCsv({"export", "alibi-slopes", "--heads", "12"});
    ASSERT_EQ(slopes.rows, 12u);
    for (int h = 0; h < 12; ++h) EXPECT_DOUBLE_EQ(slopes(h, 0), fairseq[h]) << h;
}

TEST_F(BiasCliTest, AlibiBiasIsCausalWithMaskedFuture) {
    // Head 2 of 8 has slope 1/8: bias[i][j] = -(i - j) / 8 for j <= i, -inf after.
    const Matrix bias =
        exportCsv({"export", "alibi-bias", "--heads", "8", "--head", "2", "--seq-len", "6"});
    ASSERT_EQ(bias.rows, 6u);
    ASSERT_EQ(bias.cols, 6u);
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 6; ++j) {
            EXPECT_EQ(bias(i, j), j > i ? -kInf : -(i - j) / 8.0) << i << "," << j;
        }
    }
    const Matrix symmetric = exportCsv(
        {"export", "alibi-bias", "--heads", "8", "--head", "2", "--seq-len", "6", "--symmetric"});
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 6; ++j) EXPECT_EQ(symmetric(i, j), -std::abs(i - j) / 8.0);
    }
}

// ---- T5 buckets

TEST_F(BiasCliTest, T5BucketsAtTheLogEdges) {
    // 32 buckets, max_distance 128, bidirectional: n = 16 per direction, max_exact = 8. At
    // distances 16, 32, 64, log(d/8)/log(16) * 8 is 2, 4, 6 exactly: buckets 8 + 2k for keys
    // before the query, 16 more for keys after it. One less than each edge falls a bucket lower.
    const Matrix buckets = exportCsv({"export", "t5-buckets", "--seq-len", "80"});
    ASSERT_EQ(buckets.rows, 80u);
    auto bucket = [&](int relative) {  // entry [i][j] = bucket(j - i)
        return relative < 0 ? buckets(-relative, 0) : buckets(0, relative);
    };
    EXPECT_EQ(bucket(-16), 10);
    EXPECT_EQ(bucket(-32), 12);
    EXPECT_EQ(bucket(-64), 14);
    EXPECT_EQ(bucket(16), 26);
    EXPECT_EQ(bucket(32), 28);
    EXPECT_EQ(bucket(64), 30);
    EXPECT_EQ(bucket(-15), 9);
    EXPECT_EQ(bucket(-31), 11);
    EXPECT_EQ(bucket(-63), 13);
    EXPECT_EQ(bucket(63), 29);
    EXPECT_EQ(bucket(0), 0);
    EXPECT_EQ(bucket(-7), 7);  // exact: one bucket per distance below 8
    EXPECT_EQ(bucket(7), 23);
    // Toeplitz: every diagonal holds one bucket.
    EXPECT_EQ(buckets(50, 34), bucket(-16));
    EXPECT_EQ(buckets(10, 74), bucket(64));
}

TEST_F(BiasCliTest, T5UnidirectionalBuckets) {
    // Decoder: n = 32, max_exact = 16; every key after the query shares bucket 0, and
    // distance 32 is 16 + int(log(2) / log(128/16) * 16) = 16 + int(5.33) = 21.
    const Matrix buckets =
        exportCsv({"export", "t5-buckets", "--seq-len", "40", "--unidirectional"});
    EXPECT_EQ(buckets(0, 5), 0);
    EXPECT_EQ(buckets(0, 39), 0);
    EXPECT_EQ(buckets(15, 0), 15);
    EXPECT_EQ(buckets(16, 0), 16);
    EXPECT_EQ(buckets(32, 0), 21);
    const Matrix small = exportCsv(
        {"export", "t5-buckets", "--seq-len", "12", "--num-buckets", "8", "--max-distance", "10"});
    // n = 4, max_exact = 2: distance 2 -> 2 + int(log(1) ...) = 2; distance 10 -> the last, 3.
    EXPECT_EQ(small(2, 0), 2);
    EXPECT_EQ(small(11, 0), 3);
    EXPECT_EQ(small(0, 1), 5);  // bidirectional by default: 4 + 1
}

// ---- Learned tables

TEST_F(BiasCliTest, LearnedFromNpyInBothOrders) {
    // The table [[1.5, -2], [0.25, 3], [7, 8.125]], stored row-major as float64 and
    // column-major as float32 (every value is exact in both).
    writeFile(path("c.npy"), npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }",
                                     rawBytes<double>({1.5, -2, 0.25, 3, 7, 8.125})));
    writeFile(path("f.npy"), npyFile("{'descr': '<f4', 'fortran_order': True, 'shape': (3, 2), }",
                                     rawBytes<float>({1.5f, 0.25f, 7, -2, 3, 8.125f})));
    const double expected[3][2] = {{1.5, -2}, {0.25, 3}, {7, 8.125}};
    for (const char* name : {"c.npy", "f.npy"}) {
        const Matrix table = exportCsv({"export", "learned", "--from", path(name)});
        ASSERT_EQ(table.rows, 3u) << name;
        ASSERT_EQ(table.cols, 2u) << name;
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 2; ++c) EXPECT_EQ(table(r, c), expected[r][c]) << name;
        }
    }
    // --seq-len keeps the first rows; --d-model must agree with the file.
    const Matrix first = exportCsv(
        {"export", "learned", "--from", path("f.npy"), "--seq-len", "2", "--d-model", "2"});
    ASSERT_EQ(first.rows, 2u);
    EXPECT_EQ(first(1, 1), 3);
}

TEST_F(BiasCliTest, LearnedInitialisationIsSeededBoxMuller) {
    // learned.hpp's sampler written out: mt19937_64(seed); per pair of outputs a, b,
    // u1 = ((a >> 11) + 1) / 2^53, u2 = (b >> 11) / 2^53, r = sqrt(-2 ln u1), then
    // r cos(2 pi u2) and r sin(2 pi u2); the table is std times these, row by row.
    const Matrix table = exportCsv(
        {"export", "learned", "--seq-len", "3", "--d-model", "5", "--seed", "7", "--std", "0.5"});
    ASSERT_EQ(table.rows, 3u);
    ASSERT_EQ(table.cols, 5u);
    std::mt19937_64 engine(7);
    std::vector<double> normals;
    while (normals.size() < 15) {
        const std::uint64_t a = engine(), b = engine();
        const double u1 = double((a >> 11) + 1) / 9007199254740992.0;
        const double u2 = double(b >> 11) / 9007199254740992.0;
        const double r = std::sqrt(-2 * std::log(u1));
        normals.push_back(r * std::cos(2 * M_PI * u2));
        normals.push_back(r * std::sin(2 * M_PI * u2));
    }
    for (int k = 0; k < 15; ++k) EXPECT_NEAR(table(k / 5, k % 5), 0.5 * normals[k], 1e-15) << k;
}

// ---- Bad values and bad files

struct BadBiasInput {
    std::vector<std::string> arguments;  // IN<name>: an input file; OUT<name>: the output
    std::string expectedMessage;
};

class BiasBadInputTest : public ::testing::TestWithParam<BadBiasInput> {
  protected:
    static void SetUpTestSuite() {
        inputs = temporaryDirectory("bias-bad-inputs");
        const std::string goodData = rawBytes<double>({1, 2, 3, 4, 5, 6});
        writeFile(inputs + "/good.npy",
                  npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }", goodData));
        writeFile(inputs + "/text.npy", "position,value\n0,1\n");
        writeFile(inputs + "/vector.npy",
                  npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (6,), }", goodData));
        writeFile(inputs + "/ints.npy",
                  npyFile("{'descr': '<i4', 'fortran_order': False, 'shape': (3, 2), }",
                          rawBytes<std::int32_t>({1, 2, 3, 4, 5, 6})));
        writeFile(inputs + "/bigendian.npy",
                  npyFile("{'descr': '>f8', 'fortran_order': False, 'shape': (3, 2), }", goodData));
        writeFile(inputs + "/truncated.npy",
                  npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }",
                          goodData.substr(0, 40)));
        writeFile(inputs + "/badheader.npy", npyFile("{'descr': '<f8', 'shape': (3, 2)", goodData));
        writeFile(inputs + "/empty.npy",
                  npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 2), }", ""));
        writeFile(inputs + "/zero-bytes.npy", "");
        writeFile(inputs + "/version9.npy", "\x93NUMPY\x09" + std::string(1, '\0') + "xx");
    }
    static inline std::string inputs;
};

TEST_P(BiasBadInputTest, OneLineErrorExitCode2AndNoFile) {
    const std::string dir = temporaryDirectory("bias-bad-out");
    std::vector<std::string> arguments = GetParam().arguments;
    for (std::string& a : arguments) {
        if (a.rfind("OUT", 0) == 0) a = dir + "/" + a.substr(3);
        if (a.rfind("IN", 0) == 0) a = inputs + "/" + a.substr(2);
    }
    auto result = runPoslab(arguments);
    expectOneLineRefusal(result, GetParam().expectedMessage);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 0)
        << "a file was left behind";
}

INSTANTIATE_TEST_SUITE_P(
    Bias, BiasBadInputTest,
    ::testing::Values(
        // ALiBi
        BadBiasInput{{"export", "alibi-slopes", "--heads", "0", "--out", "OUTa.csv"},
                     "--heads must be 1..128 (got 0)"},
        BadBiasInput{{"export", "alibi-slopes", "--heads", "129", "--out", "OUTa.csv"},
                     "--heads must be 1..128 (got 129)"},
        BadBiasInput{{"export", "alibi-slopes", "--heads", "8x", "--out", "OUTa.csv"},
                     "--heads expects an integer (got '8x')"},
        BadBiasInput{{"export", "alibi-slopes", "--out", "OUTa.csv"}, "--heads N is required"},
        BadBiasInput{{"export", "alibi-bias", "--heads", "8", "--head", "8", "--seq-len", "4",
                      "--out", "OUTa.csv"},
                     "--head must be 0..7 (got 8)"},
        BadBiasInput{{"export", "alibi-bias", "--heads", "8", "--head", "-1", "--seq-len", "4",
                      "--out", "OUTa.csv"},
                     "--head must be 0..7 (got -1)"},
        BadBiasInput{{"export", "alibi-bias", "--heads", "8", "--head", "0", "--seq-len", "0",
                      "--out", "OUTa.csv"},
                     "--seq-len must be 1..1048576 (got 0)"},
        BadBiasInput{{"export", "alibi-bias", "--heads", "8", "--head", "0", "--seq-len",
                      "99999999999", "--out", "OUTa.csv"},
                     "--seq-len is out of range"},
        BadBiasInput{{"export", "alibi-bias", "--heads", "8", "--head", "0", "--seq-len", "1048576",
                      "--out", "OUTa.npy"},
                     "exceeds the memory cap"},
        BadBiasInput{
            {"export", "alibi-bias", "--heads", "8", "--seq-len", "4", "--out", "OUTa.csv"},
            "--head H is required"},
        BadBiasInput{{"export", "alibi-bias", "--heads", "8", "--head", "0", "--seq-len", "4",
                      "--symmetric=yes", "--out", "OUTa.csv"},
                     "--symmetric takes no value"},
        // T5
        BadBiasInput{
            {"export", "t5-buckets", "--seq-len", "8", "--num-buckets", "3", "--out", "OUTa.csv"},
            "--num-buckets must be 4..1024 when bidirectional (got 3)"},
        BadBiasInput{{"export", "t5-buckets", "--seq-len", "8", "--num-buckets", "1",
                      "--unidirectional", "--out", "OUTa.csv"},
                     "--num-buckets must be 2..1024 (got 1)"},
        BadBiasInput{
            {"export", "t5-buckets", "--seq-len", "8", "--max-distance", "8", "--out", "OUTa.csv"},
            "--max-distance must be 9..1048576 (got 8)"},
        BadBiasInput{{"export", "t5-buckets", "--seq-len", "-5", "--out", "OUTa.csv"},
                     "--seq-len must be 1..1048576 (got -5)"},
        BadBiasInput{{"export", "t5-buckets", "--out", "OUTa.csv"}, "--seq-len L is required"},
        BadBiasInput{{"export", "t5-buckets", "--seq-len", "8", "--out", "OUTa.txt"},
                     "--out must end in .csv or .npy"},
        // Learned
        BadBiasInput{{"export", "learned", "--seq-len", "8", "--out", "OUTa.csv"},
                     "--d-model D is required"},
        BadBiasInput{{"export", "learned", "--seq-len", "8", "--d-model", "0", "--out", "OUTa.csv"},
                     "--d-model must be 1..8192 (got 0)"},
        BadBiasInput{{"export", "learned", "--seq-len", "8", "--d-model", "4", "--std", "-1",
                      "--out", "OUTa.csv"},
                     "--std must be 0..100 (got -1)"},
        BadBiasInput{{"export", "learned", "--seq-len", "8", "--d-model", "4", "--std", "nan",
                      "--out", "OUTa.csv"},
                     "--std expects a number (got 'nan')"},
        BadBiasInput{{"export", "learned", "--seq-len", "8", "--d-model", "4", "--seed", "0x10",
                      "--out", "OUTa.csv"},
                     "--seed expects an integer (got '0x10')"},
        BadBiasInput{{"export", "learned", "--seq-len", "8", "--d-model", "4", "--seed", "1",
                      "--seed", "2", "--out", "OUTa.csv"},
                     "--seed given twice"},
        BadBiasInput{{"export", "learned", "--seq-len", "8", "--d-model", "4", "--seed", "-1",
                      "--out", "OUTa.csv"},
                     "--seed must be 0.."},
        BadBiasInput{{"export", "learned", "--from", "INmissing.npy", "--out", "OUTa.csv"},
                     "missing.npy: cannot read the file"},
        BadBiasInput{{"export", "learned", "--from", "INtext.npy", "--out", "OUTa.csv"},
                     "text.npy: not a .npy file"},
        BadBiasInput{{"export", "learned", "--from", "INvector.npy", "--out", "OUTa.csv"},
                     "expected a 2-D array (positions x dimensions), got shape (6,)"},
        BadBiasInput{{"export", "learned", "--from", "INints.npy", "--out", "OUTa.csv"},
                     "unsupported dtype '<i4'"},
        BadBiasInput{{"export", "learned", "--from", "INbigendian.npy", "--out", "OUTa.csv"},
                     "unsupported dtype '>f8'"},
        BadBiasInput{{"export", "learned", "--from", "INtruncated.npy", "--out", "OUTa.csv"},
                     "data is truncated"},
        BadBiasInput{{"export", "learned", "--from", "INbadheader.npy", "--out", "OUTa.csv"},
                     "malformed header"},
        BadBiasInput{{"export", "learned", "--from", "INempty.npy", "--out", "OUTa.csv"},
                     "the array is empty"},
        BadBiasInput{{"export", "learned", "--from", "INzero-bytes.npy", "--out", "OUTa.csv"},
                     "not a .npy file"},
        BadBiasInput{{"export", "learned", "--from", "INversion9.npy", "--out", "OUTa.csv"},
                     "unsupported .npy format version 9.0"},
        BadBiasInput{
            {"export", "learned", "--from", "INgood.npy", "--d-model", "3", "--out", "OUTa.csv"},
            "--d-model must match the 2 columns"},
        BadBiasInput{
            {"export", "learned", "--from", "INgood.npy", "--seq-len", "4", "--out", "OUTa.csv"},
            "--seq-len must be 1..3"},
        BadBiasInput{
            {"export", "learned", "--from", "INgood.npy", "--seed", "1", "--out", "OUTa.csv"},
            "--seed cannot be combined with --from"},
        // Renders
        BadBiasInput{{"render", "alibi", "--heads", "0", "--out", "OUTa.png"},
                     "--heads must be 1..128 (got 0)"},
        BadBiasInput{{"render", "alibi", "--head", "9", "--out", "OUTa.png"},
                     "--head must be 0..7 (got 9)"},
        BadBiasInput{{"render", "alibi", "--query", "40", "--out", "OUTa.png"},
                     "--query must be 0..31 (got 40)"},
        BadBiasInput{{"render", "alibi", "--query", "-2", "--out", "OUTa.png"},
                     "--query must be 0..31 (got -2)"},
        BadBiasInput{{"render", "alibi", "--content-scale", "-1", "--out", "OUTa.png"},
                     "--content-scale must be 0..100 (got -1)"},
        BadBiasInput{{"render", "alibi", "--preview-keys", "33", "--out", "OUTa.png"},
                     "--preview-keys must be 0..32 (got 33)"},
        BadBiasInput{{"render", "t5", "--biases", "1,2", "--out", "OUTa.png"},
                     "--biases must list num_buckets = 32 values (got 2)"},
        BadBiasInput{{"render", "t5", "--biases", "1,x", "--out", "OUTa.png"},
                     "--biases expects comma-separated numbers"},
        BadBiasInput{{"render", "t5", "--max-distance", "3", "--out", "OUTa.png"},
                     "--max-distance must be 9..1048576 (got 3)"},
        BadBiasInput{{"render", "learned", "--from", "INtruncated.npy", "--out", "OUTa.png"},
                     "data is truncated"},
        BadBiasInput{{"render", "learned", "--positions", "0", "--out", "OUTa.png"},
                     "--positions must be 1..1048576 (got 0)"},
        BadBiasInput{{"render", "learned", "--curves", "9", "--out", "OUTa.png"},
                     "--curves must be 1..8 (got 9)"},
        BadBiasInput{{"render", "learned", "--first-dimension", "64", "--out", "OUTa.png"},
                     "--first-dimension must be 0..63 (got 64)"},
        BadBiasInput{{"render", "learned", "--out", "OUTa.svgz"}, "--out must end in .png"}));

TEST_F(BiasCliTest, FailedLoadKeepsThePreviousFile) {
    std::ofstream(path("keep.csv")) << "previous\n";
    writeFile(path("broken.npy"), "\x93NUMPY");
    auto result =
        runPoslab({"export", "learned", "--from", path("broken.npy"), "--out", path("keep.csv")});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_EQ(readFile(path("keep.csv")), "previous\n");
}

TEST_F(BiasCliTest, HelpListsTheNewKindsAndViews) {
    auto exportHelp = runPoslab({"export", "--help"});
    for (const char* text : {"alibi-slopes", "alibi-bias", "t5-buckets", "learned", "--from",
                             "--unidirectional", "--symmetric"}) {
        EXPECT_NE(exportHelp.out.find(text), std::string::npos) << text;
    }
    auto renderHelp = runPoslab({"render", "--help"});
    for (const char* text : {"alibi", "t5", "learned", "--positions", "--content-scale"}) {
        EXPECT_NE(renderHelp.out.find(text), std::string::npos) << text;
    }
}

// ---- Rendered figures and the GUI views

int pixelsOfColour(const ImageRgba& image, Rgba colour, int x0, int y0, int x1, int y1) {
    int count = 0;
    for (int y = y0; y < y1; ++y) {
        for (int x = x0; x < x1; ++x) {
            const std::uint8_t* p = &image.pixels[(std::size_t(y) * image.width + x) * 4];
            count += p[0] == colour.r && p[1] == colour.g && p[2] == colour.b;
        }
    }
    return count;
}

TEST_F(BiasCliTest, RenderAlibiShowsBiasAndMask) {
    auto result = runPoslab(
        {"render", "alibi", "--width", "1200", "--height", "800", "--out", path("alibi.png")},
        "env -u DISPLAY");
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const ImageRgba image = loadPng(path("alibi.png"));
    ASSERT_EQ(image.width, 1200);
    // The enlarged head (upper right): viridis below the diagonal, the paper theme's masked
    // grey (200, 200, 200) above it.
    const int x0 = 760, y0 = 80, x1 = 1040, y1 = 400;
    EXPECT_GT(fractionFromColormap(image, ColormapId::Viridis, x0, y0, x1, y1), 0.3);
    EXPECT_GT(distinctColours(image, x0, y0, x1, y1), 20);
    EXPECT_GT(pixelsOfColour(image, {200, 200, 200, 255}, x0, y0, x1, y1), 5000);
}

TEST_F(BiasCliTest, RenderT5AndLearned) {
    auto t5 =
        runPoslab({"render", "t5", "--width", "1200", "--height", "800", "--out", path("t5.png")},
                  "env -u DISPLAY");
    ASSERT_EQ(t5.exitCode, 0) << t5.err;
    const ImageRgba buckets = loadPng(path("t5.png"));
    // The bucket matrix (upper left) is drawn in categorical hues.
    EXPECT_GT(fractionFromColormap(buckets, ColormapId::Categorical, 150, 120, 450, 380), 0.8);
    EXPECT_GE(distinctColours(buckets, 150, 120, 450, 380), 12);

    auto learned = runPoslab({"render", "learned", "--positions", "640", "--width", "1200",
                              "--height", "800", "--out", path("learned.png")},
                             "env -u DISPLAY");
    ASSERT_EQ(learned.exitCode, 0) << learned.err;
    const ImageRgba table = loadPng(path("learned.png"));
    // The table's noise in blue-white-red (upper left), many colours.
    EXPECT_GT(fractionFromColormap(table, ColormapId::BlueWhiteRed, 150, 80, 500, 300), 0.8);
    EXPECT_GT(distinctColours(table, 150, 80, 500, 300), 60);
}

class BiasGuiTest : public ::testing::TestWithParam<const char*> {};

TEST_P(BiasGuiTest, ViewUnderXvfbShowsItsHeatmaps) {
    if (runShell("command -v xvfb-run").exitCode != 0) GTEST_SKIP() << "xvfb-run not installed";
    const std::string view = GetParam();
    const std::string dir = temporaryDirectory("bias-gui-" + view);
    const std::string shot = dir + "/window.png";
    auto result = runShell("xvfb-run -a -s '-noreset -screen 0 1440x900x24' " + shellQuote(POSLAB_BINARY) +
                           " --view " + view + " --screenshot " + shellQuote(shot));
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const ImageRgba image = loadPng(shot);
    ASSERT_EQ(image.width, 1440);
    ASSERT_EQ(image.height, 900);
    // The main heatmap of each view, in the figure area right of the controls.
    // Regions inside each view's heatmaps at 1440 x 900, clear of the hover tooltip that the
    // pointer (parked mid-screen by Xvfb) opens.
    if (view == "ALiBi") {
        // The enlarged head: viridis below the diagonal, the masked colour above.
        EXPECT_GT(fractionFromColormap(image, ColormapId::Viridis, 1040, 140, 1300, 420), 0.3);
        EXPECT_GT(distinctColours(image, 1040, 140, 1300, 420), 20);
        EXPECT_GT(pixelsOfColour(image, {58, 58, 62, 255}, 1040, 140, 1300, 420), 5000);
        // The grid of heads.
        EXPECT_GT(fractionFromColormap(image, ColormapId::Viridis, 360, 160, 830, 410), 0.3);
    } else if (view == "T5") {
        // Bucket ids in categorical hues, the bias matrix in blue-white-red.
        EXPECT_GT(fractionFromColormap(image, ColormapId::Categorical, 480, 140, 720, 420), 0.8);
        EXPECT_GE(distinctColours(image, 480, 140, 720, 420), 12);
        EXPECT_GT(fractionFromColormap(image, ColormapId::BlueWhiteRed, 1000, 140, 1250, 420), 0.8);
    } else {
        // The table: noise in blue-white-red.
        EXPECT_GT(fractionFromColormap(image, ColormapId::BlueWhiteRed, 480, 120, 820, 380), 0.8);
        EXPECT_GT(distinctColours(image, 480, 120, 820, 380), 60);
    }
}

INSTANTIATE_TEST_SUITE_P(Views, BiasGuiTest, ::testing::Values("ALiBi", "T5", "Learned"));

}  // namespace
}  // namespace poslab::test
