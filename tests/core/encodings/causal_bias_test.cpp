// causalBiasMatrix: the distance profile written out row by row, -inf above the diagonal.
#include "poslab/encodings/causal_bias.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace poslab {
namespace {

TEST(CausalBiasTest, RowIHoldsTheProfileBackwardsThenTheMask) {
    const Matrix m = causalBiasMatrix({0, -1, -2.5});
    ASSERT_EQ(m.rows, 3u);
    ASSERT_EQ(m.cols, 3u);
    const double inf = INFINITY;
    EXPECT_EQ(m.values, (std::vector<double>{0, -inf, -inf,  //
                                             -1, 0, -inf,    //
                                             -2.5, -1, 0}));
    EXPECT_TRUE(causalBiasMatrix({}).empty());
}

}  // namespace
}  // namespace poslab
