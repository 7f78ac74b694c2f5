// Saving by file name: the format the extension asks for, streamed or whole, and clear errors.
#include "poslab/io/matrix_export.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "io_test_fixture.hpp"

namespace poslab {
namespace {

class MatrixExportTest : public IoTest {};

TEST_F(MatrixExportTest, StreamedFilesEqualWholeMatrixFiles) {
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

TEST_F(MatrixExportTest, UnwritableDirectoryIsAnError) {
    Status status = saveMatrix(sample(), "/nonexistent-dir/x.csv");
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.error().message.find("/nonexistent-dir/x.csv"), std::string::npos);
}

TEST_F(MatrixExportTest, UnknownExtensionIsAnError) {
    EXPECT_FALSE(saveMatrix(sample(), (dir / "x.txt").string()).ok());
    EXPECT_TRUE(checkMatrixExtension("A.NPY").ok());
}

}  // namespace
}  // namespace poslab
