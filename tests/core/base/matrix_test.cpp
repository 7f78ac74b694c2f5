// Matrix: row-major storage, (r, c) indexing and row pointers into the same values.
#include "poslab/base/matrix.hpp"

#include <gtest/gtest.h>

namespace poslab {
namespace {

TEST(MatrixTest, ConstructedFilled) {
    const Matrix m(3, 4, 2.5);
    EXPECT_EQ(m.rows, 3u);
    EXPECT_EQ(m.cols, 4u);
    ASSERT_EQ(m.values.size(), 12u);
    for (double v : m.values) EXPECT_EQ(v, 2.5);
    EXPECT_FALSE(m.empty());
    EXPECT_TRUE(Matrix().empty());
    EXPECT_TRUE(Matrix(0, 5).empty());
    EXPECT_EQ(Matrix(2, 2).values, (std::vector<double>{0, 0, 0, 0}));  // zero by default
}

TEST(MatrixTest, IndexingIsRowMajor) {
    Matrix m(3, 4);
    for (std::size_t r = 0; r < 3; ++r) {
        for (std::size_t c = 0; c < 4; ++c) m(r, c) = 10.0 * double(r) + double(c);
    }
    // values[r * cols + c], written out.
    EXPECT_EQ(m.values, (std::vector<double>{0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23}));
    const Matrix& view = m;
    EXPECT_EQ(view(2, 1), 21);
    EXPECT_EQ(view.row(1), m.values.data() + 4);
    EXPECT_EQ(view.row(2)[3], 23);
    m.row(1)[0] = -1;  // a row pointer writes the matrix itself
    EXPECT_EQ(m(1, 0), -1);
    EXPECT_EQ(m.values[4], -1);
}

}  // namespace
}  // namespace poslab
