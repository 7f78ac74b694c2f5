#include "poslab/io/npy_reader.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "poslab/io/npy.hpp"

namespace poslab {
namespace {

// ---- Building .npy files byte by byte, following the format description in numpy's
// numpy/lib/format.py: magic, version, little-endian header length (2 bytes in 1.0, 4 in 2.0
// and 3.0), the dict text padded with spaces and a newline to a multiple of 64, then the data.

std::string npyFile(const std::string& dict, const std::string& data, int major = 1) {
    const std::size_t lengthBytes = major == 1 ? 2 : 4;
    std::string header = dict;
    const std::size_t unpadded = 8 + lengthBytes + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header.push_back('\n');
    std::string bytes("\x93NUMPY", 6);
    bytes.push_back(char(major));
    bytes.push_back('\0');
    for (std::size_t i = 0; i < lengthBytes; ++i) bytes.push_back(char(header.size() >> (8 * i)));
    return bytes + header + data;
}

std::string float32Bytes(const std::vector<float>& values) {
    std::string bytes(values.size() * 4, '\0');
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

std::string float64Bytes(const std::vector<double>& values) {
    std::string bytes(values.size() * 8, '\0');
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

std::string dictText(const std::string& descr, bool fortran, const std::string& shape) {
    return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
           ", 'shape': " + shape + ", }";
}

// The 2 x 3 matrix [[1, 2, 3], [4, 5, 6]] * 0.25 in both storage orders.
const std::vector<double> kRowMajor = {0.25, 0.5, 0.75, 1.0, 1.25, 1.5};
const std::vector<double> kColumnMajor = {0.25, 1.0, 0.5, 1.25, 0.75, 1.5};

void expectTwoByThree(const Result<Matrix>& matrix) {
    ASSERT_TRUE(matrix.ok()) << matrix.error().message;
    ASSERT_EQ(matrix->rows, 2u);
    ASSERT_EQ(matrix->cols, 3u);
    EXPECT_EQ(matrix->values, kRowMajor);
}

// Every error is one line that starts with the name given.
void expectError(const Result<Matrix>& result, const std::string& expected) {
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().message, expected);
    EXPECT_EQ(result.error().message.find('\n'), std::string::npos);
}

std::string npyErrorOf(const std::string& bytes) {
    auto result = parseNpy(bytes, "t.npy");
    return result.ok() ? "(no error)" : result.error().message;
}

// ---- Good files

TEST(NpyReaderTest, HandWrittenFloat32FortranFile) {
    // numpy.save(f, np.asfortranarray(np.array([[1, 2, 3], [4, 5, 6]], dtype='<f4'))), every
    // byte written out: magic, version 1.0, header length 118 = 0x76, dict, padding, data
    // column by column: 1, 4, 2, 5, 3, 6 as little-endian IEEE singles.
    std::string bytes("\x93NUMPY\x01\x00\x76\x00", 10);
    const std::string dict = "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }";
    bytes += dict + std::string(118 - dict.size() - 1, ' ') + "\n";
    ASSERT_EQ(bytes.size(), 128u);
    const unsigned char data[] = {
        0x00, 0x00, 0x80, 0x3f,  // 1.0f
        0x00, 0x00, 0x80, 0x40,  // 4.0f
        0x00, 0x00, 0x00, 0x40,  // 2.0f
        0x00, 0x00, 0xa0, 0x40,  // 5.0f
        0x00, 0x00, 0x40, 0x40,  // 3.0f
        0x00, 0x00, 0xc0, 0x40,  // 6.0f
    };
    bytes.append(reinterpret_cast<const char*>(data), sizeof data);
    auto matrix = parseNpy(bytes, "hand.npy");
    ASSERT_TRUE(matrix.ok()) << matrix.error().message;
    ASSERT_EQ(matrix->rows, 2u);
    ASSERT_EQ(matrix->cols, 3u);
    EXPECT_EQ(matrix->values, std::vector<double>({1, 2, 3, 4, 5, 6}));
}

TEST(NpyReaderTest, BothOrdersAndBothWidths) {
    std::vector<float> rowMajor32(kRowMajor.begin(), kRowMajor.end());
    std::vector<float> columnMajor32(kColumnMajor.begin(), kColumnMajor.end());
    expectTwoByThree(parseNpy(npyFile(dictText("<f8", false, "(2, 3)"), float64Bytes(kRowMajor))));
    expectTwoByThree(
        parseNpy(npyFile(dictText("<f8", true, "(2, 3)"), float64Bytes(kColumnMajor))));
    expectTwoByThree(parseNpy(npyFile(dictText("<f4", false, "(2, 3)"), float32Bytes(rowMajor32))));
    expectTwoByThree(
        parseNpy(npyFile(dictText("<f4", true, "(2, 3)"), float32Bytes(columnMajor32))));
}

TEST(NpyReaderTest, Float32ValuesWidenExactly) {
    const std::vector<float> values = {0.1f, -3.4028235e38f, 1.4e-45f, 16777217.0f};
    auto matrix = parseNpy(npyFile(dictText("<f4", false, "(1, 4)"), float32Bytes(values)));
    ASSERT_TRUE(matrix.ok());
    for (int k = 0; k < 4; ++k) EXPECT_EQ(matrix->values[k], double(values[k]));
    EXPECT_NE(matrix->values[0], 0.1);  // the float32 value, not the decimal it came from
}

TEST(NpyReaderTest, Versions2And3HaveFourByteHeaderLengths) {
    for (int major : {2, 3}) {
        const std::string bytes =
            npyFile(dictText("<f8", false, "(2, 3)"), float64Bytes(kRowMajor), major);
        EXPECT_EQ(bytes[6], char(major));
        expectTwoByThree(parseNpy(bytes));
        auto info = parseNpyHeader(bytes);
        ASSERT_TRUE(info.ok());
        EXPECT_EQ(info->majorVersion, major);
        EXPECT_EQ(info->dataOffset, 128u);
    }
}

TEST(NpyReaderTest, HeaderDictIsParsedAsAPythonLiteral) {
    const std::string data = float64Bytes(kRowMajor);
    for (const char* dict : {
             "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",  // numpy's own
             "{'shape': (2, 3), 'fortran_order': False, 'descr': '<f8'}",    // any order
             "{\"descr\":\"<f8\",\"fortran_order\":False,\"shape\":(2,3)}",  // double quotes
             "{ 'descr' : '<f8' ,\t'fortran_order' : False , 'shape' : ( 2 , 3 , ) , }",
             "{'descr': '<f8', 'fortran_order': False, 'shape': (2L, 3L)}",  // Python 2 longs
             "{'descr': '<f4', 'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)}",
         }) {
        expectTwoByThree(parseNpy(npyFile(dict, data)));
    }
    // Older numpy padded to 16 bytes and no newline is required; only whitespace may follow.
    std::string bytes("\x93NUMPY\x01\x00", 8);
    const std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)}  ";
    bytes.push_back(char(dict.size()));
    bytes.push_back('\0');
    expectTwoByThree(parseNpy(bytes + dict + data));
}

TEST(NpyReaderTest, NonFiniteValuesAreKept) {
    const std::vector<double> values = {NAN, INFINITY, -INFINITY, -0.0};
    auto matrix = parseNpy(npyFile(dictText("<f8", false, "(2, 2)"), float64Bytes(values)));
    ASSERT_TRUE(matrix.ok());
    EXPECT_TRUE(std::isnan(matrix->values[0]));
    EXPECT_EQ(matrix->values[1], INFINITY);
    EXPECT_EQ(matrix->values[2], -INFINITY);
    EXPECT_TRUE(std::signbit(matrix->values[3]));
}

TEST(NpyReaderTest, TrailingBytesAfterTheDataAreIgnored) {
    expectTwoByThree(
        parseNpy(npyFile(dictText("<f8", false, "(2, 3)"), float64Bytes(kRowMajor) + "junk")));
}

// ---- Broken files: each kind, with its message

TEST(NpyReaderTest, BadMagicAndPreamble) {
    EXPECT_EQ(npyErrorOf(""), "t.npy: not a .npy file (it does not start with \\x93NUMPY)");
    EXPECT_EQ(npyErrorOf("PK\x03\x04 a zip file"),
              "t.npy: not a .npy file (it does not start with \\x93NUMPY)");
    EXPECT_EQ(npyErrorOf(std::string("\x93NUMPY\x01", 7)),
              "t.npy: truncated before the format version");
    EXPECT_EQ(npyErrorOf(std::string("\x93NUMPY\x01\x00\x76", 9)),
              "t.npy: truncated before the header length");
    EXPECT_EQ(npyErrorOf(std::string("\x93NUMPY\x02\x00\x76\x00\x00", 11)),
              "t.npy: truncated before the header length");
    EXPECT_EQ(npyErrorOf(std::string("\x93NUMPY\x04\x00\x00\x00\x00\x00", 12)),
              "t.npy: unsupported .npy format version 4.0 (PosLab reads 1.0, 2.0 and 3.0)");
    EXPECT_EQ(npyErrorOf(std::string("\x93NUMPY\x01\x01\x00\x00", 10)),
              "t.npy: unsupported .npy format version 1.1 (PosLab reads 1.0, 2.0 and 3.0)");
}

TEST(NpyReaderTest, TruncatedHeader) {
    const std::string whole = npyFile(dictText("<f8", false, "(2, 3)"), float64Bytes(kRowMajor));
    EXPECT_EQ(npyErrorOf(whole.substr(0, 50)),
              "t.npy: header is truncated (it declares 118 bytes, 40 follow the preamble)");
    // A version 2.0 length of 0x10000000 runs far past the file; refused by the size limit.
    std::string huge("\x93NUMPY\x02\x00\x00\x00\x00\x10{}", 14);
    EXPECT_EQ(npyErrorOf(huge), "t.npy: header length 268435456 exceeds the 10000-byte limit");
    std::string past("\x93NUMPY\x01\x00\x10\x27{}", 12);  // 0x2710 = 10000: allowed, but absent
    EXPECT_EQ(npyErrorOf(past),
              "t.npy: header is truncated (it declares 10000 bytes, 2 follow the "
              "preamble)");
}

TEST(NpyReaderTest, TruncatedData) {
    const std::string data = float64Bytes(kRowMajor);
    EXPECT_EQ(npyErrorOf(npyFile(dictText("<f8", false, "(2, 3)"), data.substr(0, 40))),
              "t.npy: data is truncated (48 bytes expected after the header, 40 found)");
    EXPECT_EQ(npyErrorOf(npyFile(dictText("<f4", true, "(2, 3)"), "")),
              "t.npy: data is truncated (24 bytes expected after the header, 0 found)");
}

TEST(NpyReaderTest, UnsupportedDtypesAreNamed) {
    const std::string data = float64Bytes(kRowMajor);
    const std::string tail = " (PosLab reads little-endian float32 '<f4' and float64 '<f8')";
    for (const char* descr : {">f8", "<i8", "|u1", "<f2", "|O", "<c16", "f8", "=f8"}) {
        EXPECT_EQ(npyErrorOf(npyFile(dictText(descr, false, "(2, 3)"), data)),
                  "t.npy: unsupported dtype '" + std::string(descr) + "'" + tail);
    }
    EXPECT_EQ(npyErrorOf(npyFile("{'descr': [('x', '<f8')], 'fortran_order': False, 'shape': (2,)}",
                                 data)),
              "t.npy: unsupported dtype [('x', '<f8')]" + tail);
}

TEST(NpyReaderTest, WrongRank) {
    const std::string data = float64Bytes(kRowMajor);
    EXPECT_EQ(npyErrorOf(npyFile(dictText("<f8", false, "(5,)"), data)),
              "t.npy: expected a 2-D array (positions x dimensions), got shape (5,)");
    EXPECT_EQ(npyErrorOf(npyFile(dictText("<f8", false, "(1, 2, 3)"), data)),
              "t.npy: expected a 2-D array (positions x dimensions), got shape (1, 2, 3)");
    EXPECT_EQ(npyErrorOf(npyFile(dictText("<f8", false, "()"), data)),
              "t.npy: expected a 2-D array (positions x dimensions), got shape ()");
    // "(5)" is the int 5 in Python, not a tuple.
    EXPECT_EQ(npyErrorOf(npyFile(dictText("<f8", false, "(5)"), data)),
              "t.npy: shape must be a tuple of integers (got (5))");
    EXPECT_EQ(npyErrorOf(npyFile(dictText("<f8", false, "(0, 3)"), "")),
              "t.npy: the array is empty (shape (0, 3))");
}

TEST(NpyReaderTest, AbsurdShapesAreRefusedBeforeAllocation) {
    // 2^20 x 2^20 doubles = 8 TiB: over the memory cap (checked before the data is looked at).
    const std::string huge = npyErrorOf(npyFile(dictText("<f8", false, "(1048576, 1048576)"), ""));
    EXPECT_EQ(huge.find("t.npy: the array of 1048576 x 1048576 values exceeds the memory cap"), 0u)
        << huge;
    // rows * cols * 8 wraps around 2^64 (2^32 * 2^32 * 2^3 = 2^67, and 2^40 * 2^40 * 2^3):
    // caught before the multiplication, so the cap never sees a wrapped small number.
    EXPECT_EQ(npyErrorOf(npyFile(dictText("<f8", false, "(4294967296, 4294967296)"), "")),
              "t.npy: shape (4294967296, 4294967296) is too large");
    EXPECT_EQ(npyErrorOf(npyFile(dictText("<f4", false, "(1099511627776, 1099511627776)"), "")),
              "t.npy: shape (1099511627776, 1099511627776) is too large");
    // 2^61 x 2 float32 values is exactly 2^64 bytes: one past the largest size_t.
    EXPECT_EQ(npyErrorOf(npyFile(dictText("<f4", false, "(2305843009213693952, 2)"), "")),
              "t.npy: shape (2305843009213693952, 2) is too large");
    EXPECT_EQ(npyErrorOf(npyFile(dictText("<f8", false, "(99999999999999999999999, 2)"), "")),
              "t.npy: shape must hold non-negative integers that fit in 64 bits (got "
              "(99999999999999999999999, 2))");
    EXPECT_EQ(npyErrorOf(npyFile(dictText("<f8", false, "(-2, 3)"), "")),
              "t.npy: shape must hold non-negative integers that fit in 64 bits (got (-2, 3))");
}

TEST(NpyReaderTest, GarbageDicts) {
    const std::string data = float64Bytes(kRowMajor);
    auto dictError = [&](const std::string& dict) { return npyErrorOf(npyFile(dict, data)); };
    EXPECT_EQ(dictError("not a dict"),
              "t.npy: malformed header: unexpected word 'not' at header "
              "offset 0");
    EXPECT_EQ(dictError("['descr', '<f8']"),
              "t.npy: malformed header: expected a dict, got ['descr', '<f8']");
    EXPECT_EQ(dictError("{'descr' '<f8'}"),
              "t.npy: malformed header: expected ':' after a dict key at header offset 9");
    // The header is the 14 dict bytes, 39 spaces of padding and '\n' at offset 53.
    EXPECT_EQ(dictError("{'descr': '<f8"),
              "t.npy: malformed header: unterminated string at header offset 53");
    EXPECT_EQ(dictError("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)"),
              "t.npy: malformed header: missing '}' at header offset 118");  // the end
    EXPECT_EQ(dictError("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)} x"),
              "t.npy: malformed header: unexpected text after the dict at header offset 58");
    EXPECT_EQ(dictError("{'descr': '<f8', 'fortran_order': False, 'shape': (2; 3)}"),
              "t.npy: malformed header: expected ',' or ')' at header offset 52");
    EXPECT_EQ(dictError("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3.0)}"),
              "t.npy: malformed header: expected an integer at header offset 55");
    EXPECT_EQ(dictError("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), 'x': 1}"),
              "t.npy: unexpected header key 'x'");
    EXPECT_EQ(dictError("{'descr': '<f8', 'fortran_order': False}"),
              "t.npy: header has no 'shape' key");
    EXPECT_EQ(dictError("{'fortran_order': False, 'shape': (2, 3)}"),
              "t.npy: header has no 'descr' key");
    EXPECT_EQ(dictError("{'descr': '<f8', 'fortran_order': 0, 'shape': (2, 3)}"),
              "t.npy: fortran_order must be True or False (got 0)");
    EXPECT_EQ(dictError("{'descr': '<f8', 'fortran_order': false, 'shape': (2, 3)}"),
              "t.npy: malformed header: unexpected word 'false' at header offset 34");
    EXPECT_EQ(dictError("{1: 2}"), "t.npy: unexpected header key 1");
    EXPECT_EQ(dictError(std::string(40, '(') + std::string(40, ')')),
              "t.npy: malformed header: brackets nested too deeply at header offset 17");
    EXPECT_EQ(dictError(std::string("{\x01}", 3)),
              "t.npy: malformed header: unexpected character '\\x01' at header offset 1");
}

TEST(NpyReaderTest, ErrorMessagesAreOneLine) {
    // Control bytes in a quoted literal are escaped, so a message never breaks a line.
    const std::string dict = "{'descr': 'a\nb', 'fortran_order': False, 'shape': (2, 3)}";
    const std::string message = npyErrorOf(npyFile(dict, ""));
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    const std::string control = "{'descr': 'a\tb', 'fortran_order': False, 'shape': (2, 3)}";
    EXPECT_EQ(npyErrorOf(npyFile(control, "")),
              "t.npy: unsupported dtype 'a\\tb' (PosLab reads little-endian float32 '<f4' and "
              "float64 '<f8')");
}

TEST(NpyReaderTest, EscapeSequencesInHeadersAndNamesAreShownEscaped) {
    // Failed before: ESC, DEL and the 8-bit CSI (U+009B) reached the terminal as they were, so
    // a crafted header could recolour or rewrite the user's terminal.
    const std::string dict =
        "{'descr': '\x1b[31m\x7f\xc2\x9b"
        "2J', 'fortran_order': False, 'shape': (2, 3)}";
    const std::string message = npyErrorOf(npyFile(dict, ""));
    EXPECT_EQ(message,
              "t.npy: unsupported dtype '\\x1b[31m\\x7f\\xc2\\x9b2J' (PosLab reads little-endian "
              "float32 '<f4' and float64 '<f8')");
    const auto named = parseNpyHeader("PK", "a\x1b]0;title\x07\nb.npy");
    ASSERT_FALSE(named.ok());
    EXPECT_EQ(named.error().message.rfind("a\\x1b]0;title\\x07\\nb.npy: ", 0), 0u)
        << named.error().message;
    // Names are paths: kept whole (the file name is at the end), up to kMessagePathLength.
    const auto longName = parseNpyHeader("PK", std::string(300, 'x') + ".npy");
    ASSERT_FALSE(longName.ok());
    EXPECT_EQ(longName.error().message.rfind(std::string(300, 'x') + ".npy: ", 0), 0u);
    const auto hugeName = parseNpyHeader("PK", std::string(5000, 'x'));
    ASSERT_FALSE(hugeName.ok());
    EXPECT_EQ(hugeName.error().message.rfind(std::string(4096, 'x') + "…: ", 0), 0u);
}

// ---- Files

class NpyFileTest : public ::testing::Test {
  protected:
    std::filesystem::path dir =
        std::filesystem::temp_directory_path() /
        ("poslab-npy-reader-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    void SetUp() override { std::filesystem::create_directories(dir); }
    void TearDown() override { std::filesystem::remove_all(dir); }
    std::string write(const std::string& name, const std::string& bytes) {
        const std::string path = (dir / name).string();
        std::ofstream(path, std::ios::binary) << bytes;
        return path;
    }
};

TEST_F(NpyFileTest, LoadsEveryLayout) {
    std::vector<float> columnMajor32(kColumnMajor.begin(), kColumnMajor.end());
    expectTwoByThree(loadNpy(
        write("c8.npy", npyFile(dictText("<f8", false, "(2, 3)"), float64Bytes(kRowMajor)))));
    expectTwoByThree(loadNpy(
        write("f8.npy", npyFile(dictText("<f8", true, "(2, 3)"), float64Bytes(kColumnMajor), 2))));
    expectTwoByThree(loadNpy(
        write("f4.npy", npyFile(dictText("<f4", true, "(2, 3)"), float32Bytes(columnMajor32), 3))));
}

TEST_F(NpyFileTest, ReadsWhatTheWriterWrites) {
    Matrix m(3, 2);
    m.values = {0.1, -2.5e-300, 1.0 / 3.0, -INFINITY, 123456789.125, -0.0};
    const std::string path = (dir / "m.npy").string();
    ASSERT_TRUE(saveNpy(m, path).ok());
    auto back = loadNpy(path);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->rows, 3u);
    EXPECT_EQ(back->cols, 2u);
    EXPECT_EQ(back->values, m.values);
}

TEST_F(NpyFileTest, FileErrorsNameThePath) {
    const std::string missing = (dir / "missing.npy").string();
    auto result = loadNpy(missing);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().message.find(missing + ": cannot read the file (No such file"), 0u)
        << result.error().message;
    auto directory = loadNpy(dir.string());
    ASSERT_FALSE(directory.ok());
    EXPECT_EQ(directory.error().message.find(dir.string() + ": "), 0u);

    const std::string truncated =
        write("short.npy",
              npyFile(dictText("<f8", false, "(2, 3)"), float64Bytes(kRowMajor).substr(0, 47)));
    expectError(loadNpy(truncated),
                truncated + ": data is truncated (48 bytes expected after the header, 47 found)");
    const std::string vector =
        write("v.npy", npyFile(dictText("<f8", false, "(6,)"), float64Bytes(kRowMajor)));
    expectError(loadNpy(vector),
                vector + ": expected a 2-D array (positions x dimensions), got shape (6,)");
    const std::string empty = write("empty.npy", "");
    expectError(loadNpy(empty), empty + ": not a .npy file (it does not start with \\x93NUMPY)");
}

// The size limit is the hard matrix cap (4 GiB; 1 GiB in the page, where a 32-bit size_t once
// made it 1 MiB) plus 1 MiB of header; a file over it is refused by its size, in MiB, unread.
TEST_F(NpyFileTest, FilesOverTheSizeLimitAreRefusedBeforeReading) {
    const unsigned long long mib = 1024 * 1024;
    EXPECT_EQ((unsigned long long)kMaxNpyFileBytes,
              (sizeof(std::size_t) >= 8 ? 4096 * mib : 1024 * mib) + mib);
    const std::string path =
        write("huge.npy", npyFile(dictText("<f8", false, "(2, 3)"), float64Bytes(kRowMajor)));
    std::error_code error;
    std::filesystem::resize_file(path, kMaxNpyFileBytes + 1, error);  // sparse: no disk used
    if (error) GTEST_SKIP() << "cannot make a sparse file here: " << error.message();
    const std::string limit = std::to_string(kMaxNpyFileBytes / mib);
    expectError(loadNpy(path),
                path + ": the file is " + std::to_string(kMaxNpyFileBytes / mib + 1) +
                    " MiB, over the " + limit +
                    " MiB limit for .npy input (the largest table PosLab holds here)");
}

TEST_F(NpyFileTest, ReadsFilesNumpyWrote) {
    // Optional cross-check against numpy itself; the tests above do not need Python.
    if (std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") != 0) {
        GTEST_SKIP() << "/usr/bin/python3 with numpy is not available";
    }
    const std::string script = (dir / "make.py").string();
    std::ofstream(script) << "import sys, numpy as np\n"
                             "from numpy.lib import format as fmt\n"
                             "d = sys.argv[1]\n"
                             "a = (np.arange(12).reshape(3, 4) * 0.5 - 1)\n"
                             "np.save(d + '/c8.npy', a)\n"
                             "np.save(d + '/f8.npy', np.asfortranarray(a))\n"
                             "np.save(d + '/c4.npy', a.astype('<f4'))\n"
                             "np.save(d + '/f4.npy', np.asfortranarray(a.astype('<f4')))\n"
                             "with open(d + '/v2.npy', 'wb') as f:\n"
                             "    fmt.write_array(f, np.asfortranarray(a), version=(2, 0))\n"
                             "np.save(d + '/be.npy', a.astype('>f8'))\n"
                             "np.save(d + '/i8.npy', np.arange(12, dtype='<i8').reshape(3, 4))\n";
    const std::string command = "/usr/bin/python3 " + script + " " + dir.string();
    ASSERT_EQ(std::system(command.c_str()), 0);
    for (const char* name : {"c8.npy", "f8.npy", "c4.npy", "f4.npy", "v2.npy"}) {
        auto matrix = loadNpy((dir / name).string());
        ASSERT_TRUE(matrix.ok()) << matrix.error().message;
        ASSERT_EQ(matrix->rows, 3u) << name;
        ASSERT_EQ(matrix->cols, 4u) << name;
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 4; ++c) EXPECT_EQ((*matrix)(r, c), (r * 4 + c) * 0.5 - 1) << name;
        }
    }
    auto bigEndian = loadNpy((dir / "be.npy").string());
    ASSERT_FALSE(bigEndian.ok());
    EXPECT_NE(bigEndian.error().message.find("unsupported dtype '>f8'"), std::string::npos);
    auto integers = loadNpy((dir / "i8.npy").string());
    ASSERT_FALSE(integers.ok());
    EXPECT_NE(integers.error().message.find("unsupported dtype '<i8'"), std::string::npos);
}

}  // namespace
}  // namespace poslab
