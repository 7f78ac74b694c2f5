// Parameter descriptors: the range text, help line and check every client prints come from the
// same limits, and a check accepts exactly low..high (NaN and infinities refused).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "poslab/base/parameter.hpp"
#include "poslab/encodings/alibi.hpp"

namespace poslab {
namespace {

constexpr IntParameter kCount{"curveCount", "curves", 1, 8, 4, "number of dimensions plotted"};
constexpr RealParameter kScale{"scale", "scale", 0.25, 8, 1, "device pixels per figure pixel"};

TEST(ParameterTest, IntegerTextsAndCheck) {
    EXPECT_EQ(kCount.rangeText(), "1..8");
    EXPECT_EQ(kCount.help(), "number of dimensions plotted, 1..8 (default 4)");
    EXPECT_EQ(kCount.help("(required)"), "number of dimensions plotted, 1..8 (required)");
    EXPECT_TRUE(kCount.check(1));
    EXPECT_TRUE(kCount.check(8));
    EXPECT_FALSE(kCount.check(0));
    ASSERT_FALSE(kCount.check(9));
    EXPECT_EQ(kCount.check(9).error().message, "curveCount must be 1..8 (got 9)");
    EXPECT_EQ(kCount.sliderLabel(), "curves");  // no label: the option's name
}

TEST(ParameterTest, RealTextsAndCheck) {
    EXPECT_EQ(kScale.rangeText(), "0.25..8");
    EXPECT_EQ(kScale.help(), "device pixels per figure pixel, 0.25..8 (default 1)");
    EXPECT_TRUE(kScale.check(0.25));
    EXPECT_TRUE(kScale.check(8));
    EXPECT_FALSE(kScale.check(std::nextafter(0.25, 0.0)));
    EXPECT_FALSE(kScale.check(std::numeric_limits<double>::quiet_NaN()));
    EXPECT_FALSE(kScale.check(std::numeric_limits<double>::infinity()));
    ASSERT_FALSE(kScale.check(9));
    EXPECT_EQ(kScale.check(9).error().message, "scale must be 0.25..8 (got 9)");
}

TEST(ParameterTest, CoreValidatesWithItsDescriptor) {
    // validate(AlibiParams) refuses exactly what kAlibiHeadsParam refuses, with the same message.
    for (int heads : {0, 1, 8, kMaxAlibiHeads, kMaxAlibiHeads + 1}) {
        AlibiParams params;
        params.heads = heads;
        const Status core = validate(params);
        EXPECT_EQ(bool(core), bool(kAlibiHeadsParam.check(heads))) << heads;
        if (!core) EXPECT_EQ(core.error().message, kAlibiHeadsParam.check(heads).error().message);
    }
    EXPECT_EQ(kAlibiHeadsParam.fallback, AlibiParams{}.heads);  // one default
}

}  // namespace
}  // namespace poslab
