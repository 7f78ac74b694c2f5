#include "poslab/encodings/attention_temperature.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace poslab {
namespace {

// float32 arithmetic agrees with the exact value to a few float ulps (~2e-7 relative at 1.7).
constexpr double kFloatTolerance = 1e-6;

AttentionTemperatureParams llama4() {
    return AttentionTemperatureParams{8192.0, 0.1};  // Llama 4 Scout / Maverick config.json
}

TEST(AttentionTemperatureTest, ExactlyOneBeforeTheFirstStep) {
    // (p + 1) / 8192 < 1 for p = 0..8190: floor gives 0, log1p(0) = 0, the scale is exactly 1.
    for (std::int64_t p : {0, 1, 100, 4095, 8190}) {
        EXPECT_EQ(attentionTemperature(llama4(), p), 1.0) << "position " << p;
    }
}

TEST(AttentionTemperatureTest, StepsAtMultiplesOfFloorScale) {
    // Position 8191: (8191 + 1) / 8192 = 1, so 1 + 0.1 ln 2 = 1.0693147...
    EXPECT_NEAR(attentionTemperature(llama4(), 8191), 1.0693147180559945, kFloatTolerance);
    // Position 16382 is still on step 1; 16383 starts step 2: 1 + 0.1 ln 3 = 1.1098612...
    EXPECT_NEAR(attentionTemperature(llama4(), 16382), 1.0693147180559945, kFloatTolerance);
    EXPECT_NEAR(attentionTemperature(llama4(), 16383), 1.1098612288668110, kFloatTolerance);
    // Position 9,999,999 (a 10M context): 1e7 / 8192 = 1220.70..., floor 1220, 1 + 0.1 ln 1221.
    EXPECT_NEAR(attentionTemperature(llama4(), 9999999), 1.0 + 0.1 * std::log(1221.0),
                kFloatTolerance);
}

TEST(AttentionTemperatureTest, OtherParameters) {
    const AttentionTemperatureParams params{4.0, 0.5};
    EXPECT_EQ(attentionTemperature(params, 2), 1.0);                                  // 3/4 -> 0
    EXPECT_NEAR(attentionTemperature(params, 3), 1.0 + 0.5 * std::log(2.0), 1e-6);    // 4/4 -> 1
    EXPECT_NEAR(attentionTemperature(params, 7), 1.0 + 0.5 * std::log(3.0), 1e-6);    // 8/4 -> 2
    EXPECT_NEAR(attentionTemperature(params, 40), 1.0 + 0.5 * std::log(11.0), 1e-6);  // 41/4 -> 10
    const AttentionTemperatureParams off{8192.0, 0.0};
    EXPECT_EQ(attentionTemperature(off, 1 << 20), 1.0);  // attn_scale 0: no tuning at all
}

TEST(AttentionTemperatureTest, RoundsPositionsInFloat32LikeTorch) {
    // Past 2^24 float32 holds only even integers. Position 2^24 + 8190 is exact; + 1.0 gives
    // 2^24 + 8191, a tie between 2^24 + 8190 and 2^24 + 8192, which rounds to the even mantissa
    // 2^24 + 8192. Divided by 8192 that is exactly 2049, so torch lands on step 2049, where
    // exact arithmetic ((2^24 + 8191) / 8192 = 2048.9998...) would give step 2048.
    const std::int64_t position = (std::int64_t(1) << 24) + 8190;
    EXPECT_NEAR(attentionTemperature(llama4(), position), 1.0 + 0.1 * std::log(2050.0),
                kFloatTolerance);
    EXPECT_GT(std::abs(attentionTemperature(llama4(), position) - (1.0 + 0.1 * std::log(2049.0))),
              1e-5);
}

TEST(AttentionTemperatureTest, IsNonDecreasingInPosition) {
    double previous = 0.0;
    for (std::int64_t p = 0; p < 100000; p += 97) {
        const double scale = attentionTemperature(llama4(), p);
        EXPECT_GE(scale, previous);
        previous = scale;
    }
}

TEST(AttentionTemperatureTest, CurveMatchesPointwise) {
    const std::vector<std::int64_t> positions = {0, 8191, 16383};
    const auto curve = attentionTemperatures(llama4(), positions);
    ASSERT_TRUE(curve.ok()) << curve.error().message;
    ASSERT_EQ(curve->size(), 3u);
    EXPECT_EQ((*curve)[0], 1.0);
    EXPECT_NEAR((*curve)[1], 1.0 + 0.1 * std::log(2.0), kFloatTolerance);
    EXPECT_NEAR((*curve)[2], 1.0 + 0.1 * std::log(3.0), kFloatTolerance);
}

TEST(AttentionTemperatureTest, ValidateRefusesOutOfRange) {
    EXPECT_TRUE(validate(llama4()).ok());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (double floorScale : {0.0, -1.0, nan, 2e9}) {
        const auto s = validate(AttentionTemperatureParams{floorScale, 0.1});
        ASSERT_FALSE(s.ok()) << floorScale;
        EXPECT_NE(s.error().message.find("floor_scale"), std::string::npos);
    }
    for (double attnScale : {-0.1, nan, 1000.0}) {
        const auto s = validate(AttentionTemperatureParams{8192.0, attnScale});
        ASSERT_FALSE(s.ok()) << attnScale;
        EXPECT_NE(s.error().message.find("attn_scale"), std::string::npos);
    }
    const auto negative = attentionTemperatures(llama4(), {5, -1});
    ASSERT_FALSE(negative.ok());
    EXPECT_NE(negative.error().message.find("position"), std::string::npos);
    EXPECT_FALSE(attentionTemperatures(AttentionTemperatureParams{0.0, 0.1}, {1}).ok());
}

}  // namespace
}  // namespace poslab
