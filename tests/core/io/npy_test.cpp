// .npy: the header numpy.save writes, byte for byte, and the data after it.
#include "poslab/io/npy.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "io_test_fixture.hpp"

namespace poslab {
namespace {

class NpyTest : public IoTest {};

TEST_F(NpyTest, NpyHeaderIsWhatNumpyWrites) {
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

TEST_F(NpyTest, NpyDataReadsBack) {
    const std::string path = (dir / "m.npy").string();
    ASSERT_TRUE(saveNpy(sample(), path).ok());
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

}  // namespace
}  // namespace poslab
