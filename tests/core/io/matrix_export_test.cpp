#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "poslab/io/csv.hpp"
#include "poslab/io/matrix_export.hpp"
#include "poslab/io/npy.hpp"
#include "poslab/io/output_file.hpp"

namespace poslab {
namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

class IoTest : public ::testing::Test {
  protected:
    std::filesystem::path dir =
        std::filesystem::temp_directory_path() /
        ("poslab-io-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    void SetUp() override { std::filesystem::create_directories(dir); }
    void TearDown() override { std::filesystem::remove_all(dir); }
    Matrix sample() const {
        Matrix m(2, 4);
        m.values = {0.1, -2.5e-300, 1.0 / 3.0, -INFINITY, INFINITY, NAN, 123456789.125, -0.0};
        return m;
    }
};

TEST_F(IoTest, CsvRoundTripsExactly) {
    const std::string path = (dir / "m.csv").string();
    ASSERT_TRUE(saveMatrix(sample(), path).ok());
    const std::string text = readFile(path);
    EXPECT_EQ(text, "0.1,-2.5e-300,0.3333333333333333,-inf\ninf,nan,123456789.125,-0\n");
    auto back = parseCsv(text);
    ASSERT_TRUE(back.ok());
    ASSERT_EQ(back->rows, 2u);
    ASSERT_EQ(back->cols, 4u);
    for (std::size_t i = 0; i < 8; ++i) {
        if (std::isnan(sample().values[i]))
            EXPECT_TRUE(std::isnan(back->values[i]));
        else
            EXPECT_EQ(back->values[i], sample().values[i]);
    }
}

TEST_F(IoTest, NpyHeaderIsWhatNumpyWrites) {
    // numpy.save(np.zeros((2, 4))) writes this 128-byte header: the dict padded with spaces to a
    // 64-byte boundary, newline last.
    const std::string header = npyHeader(2, 4);
    ASSERT_EQ(header.size(), 128u);
    EXPECT_EQ(header.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
    EXPECT_EQ(header[8], char(118));
    EXPECT_EQ(header[9], char(0));
    const std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 4), }";
    EXPECT_EQ(header.substr(10, dict.size()), dict);
    EXPECT_EQ(header.back(), '\n');
    EXPECT_EQ(header.find_first_not_of(' ', 10 + dict.size()), header.size() - 1);
}

TEST_F(IoTest, NpyDataReadsBack) {
    const std::string path = (dir / "m.npy").string();
    ASSERT_TRUE(saveMatrix(sample(), path).ok());
    const std::string bytes = readFile(path);
    ASSERT_EQ(bytes.size(), 128u + 8 * 8);
    for (std::size_t i = 0; i < 8; ++i) {
        double v;
        std::memcpy(&v, bytes.data() + 128 + 8 * i, 8);
        if (std::isnan(sample().values[i]))
            EXPECT_TRUE(std::isnan(v));
        else
            EXPECT_EQ(v, sample().values[i]);
    }
}

TEST_F(IoTest, StreamedFilesEqualWholeMatrixFiles) {
    Matrix m(1000, 37);
    for (std::size_t i = 0; i < m.values.size(); ++i) m.values[i] = std::sin(double(i)) * 1e3;
    for (const char* extension : {".csv", ".npy"}) {
        const std::string whole = (dir / (std::string("whole") + extension)).string();
        const std::string streamed = (dir / (std::string("streamed") + extension)).string();
        ASSERT_TRUE(saveMatrix(m, whole).ok());
        auto produce = [&](std::size_t first, std::size_t count, Matrix& chunk) {
            chunk = Matrix(count, m.cols);
            std::copy_n(m.row(first), count * m.cols, chunk.values.begin());
            return success();
        };
        ASSERT_TRUE(saveMatrixStreaming(streamed, m.rows, m.cols, produce).ok());
        EXPECT_EQ(readFile(whole), readFile(streamed)) << extension;
    }
}

TEST_F(IoTest, FailedWriteLeavesPreviousFileAndNoTemporary) {
    const std::string path = (dir / "keep.csv").string();
    { std::ofstream(path) << "previous\n"; }
    Status status = writeFileAtomically(path, [](std::FILE* file) {
        std::fputs("partial", file);
        return Status(Error{"simulated failure"});
    });
    EXPECT_FALSE(status.ok());
    EXPECT_EQ(readFile(path), "previous\n");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
}

Status writeText(const std::string& path, const char* text) {
    return writeFileAtomically(path, [text](std::FILE* file) {
        std::fputs(text, file);
        return success();
    });
}

TEST_F(IoTest, ReplacingAFileLeavesOnlyTheNewContent) {
    const std::string path = (dir / "table.csv").string();
    { std::ofstream(path) << "previous, a longer line than the new one\n"; }
    ASSERT_TRUE(writeText(path, "new\n").ok());
    EXPECT_EQ(readFile(path), "new\n");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);  // no temporary left
    ASSERT_TRUE(writeText(path, "newer\n").ok());
    EXPECT_EQ(readFile(path), "newer\n");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
}

TEST_F(IoTest, ADirectoryInTheWayIsAnErrorAndStaysUntouched) {
    const std::filesystem::path target = dir / "out.csv";
    std::filesystem::create_directory(target);
    { std::ofstream(target / "inside.txt") << "keep\n"; }
    EXPECT_FALSE(writeText(target.string(), "x\n").ok());
    ASSERT_TRUE(std::filesystem::is_directory(target));
    EXPECT_EQ(readFile((target / "inside.txt").string()), "keep\n");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
}

TEST_F(IoTest, ASymlinkIsReplacedNotFollowed) {
    // As rename(2) does: the link itself becomes the new file; what it pointed to is kept.
    const std::string pointee = (dir / "pointee.csv").string();
    const std::string link = (dir / "link.csv").string();
    { std::ofstream(pointee) << "pointee\n"; }
    std::filesystem::create_symlink(pointee, link);
    ASSERT_TRUE(writeText(link, "new\n").ok());
    EXPECT_FALSE(std::filesystem::is_symlink(link));
    EXPECT_EQ(readFile(link), "new\n");
    EXPECT_EQ(readFile(pointee), "pointee\n");
}

TEST_F(IoTest, UnwritableDirectoryIsAnError) {
    Status status = saveMatrix(sample(), "/nonexistent-dir/x.csv");
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.error().message.find("/nonexistent-dir/x.csv"), std::string::npos);
}

TEST_F(IoTest, UnknownExtensionIsAnError) {
    EXPECT_FALSE(saveMatrix(sample(), (dir / "x.txt").string()).ok());
    EXPECT_TRUE(checkMatrixExtension("A.NPY").ok());
}

TEST(CsvTest, CellsInMessagesAreEscapedAndCut) {
    // Failed before: the cell went into the message as it was, escape sequences and all.
    auto escaped = parseCsv("1,2\n3,\x1b[2J\n");
    ASSERT_FALSE(escaped.ok());
    EXPECT_EQ(escaped.error().message, "CSV line 2: '\\x1b[2J' is not a number");
    auto longCell = parseCsv(std::string(200, 'z') + "\n");
    ASSERT_FALSE(longCell.ok());
    EXPECT_EQ(longCell.error().message,
              "CSV line 1: '" + std::string(80, 'z') + "…' is not a number");
}

}  // namespace
}  // namespace poslab
