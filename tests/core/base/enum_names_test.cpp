// The enum name tables (base/enum_names.hpp) and every core enum's name/parse pair built on them:
// each name reads back to its value, each value prints its name, and a bad name's error lists
// every accepted name in the message the command line has always given.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "poslab/analysis/meaning.hpp"
#include "poslab/analysis/rope_precision.hpp"
#include "poslab/analysis/similarity.hpp"
#include "poslab/base/enum_names.hpp"
#include "poslab/encodings/rope.hpp"
#include "poslab/encodings/rope_scaling.hpp"
#include "poslab/encodings/sinusoidal.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/figure/plot.hpp"
#include "poslab/views/rope_figures.hpp"

namespace poslab::test {
namespace {

enum class Fruit { Apple, Pear, Plum };
constexpr EnumNames<Fruit, 3> kFruitNames{
    {{Fruit::Apple, "apple"}, {Fruit::Pear, "pear"}, {Fruit::Plum, "plum"}}};

TEST(EnumNamesTest, NameAndParseAreInverse) {
    EXPECT_EQ(enumName(kFruitNames, Fruit::Pear), "pear");
    EXPECT_EQ(*parseEnum(kFruitNames, "plum", "fruit"), Fruit::Plum);
    static_assert(enumName(kFruitNames, Fruit::Plum) == "plum");
}

TEST(EnumNamesTest, ErrorListsEveryName) {
    auto bad = parseEnum(kFruitNames, "fig", "fruit");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, "fruit must be apple, pear or plum (got 'fig')");
    EXPECT_EQ(enumNameList(kFruitNames, 1), "apple");
    EXPECT_EQ(enumNameList(kFruitNames, 2), "apple or pear");
}

TEST(EnumNamesTest, CountLimitsWhatParses) {
    EXPECT_TRUE(parseEnum(kFruitNames, "pear", "fruit", 2).ok());
    auto plum = parseEnum(kFruitNames, "plum", "fruit", 2);
    ASSERT_FALSE(plum.ok());
    EXPECT_EQ(plum.error().message, "fruit must be apple or pear (got 'plum')");
}

TEST(EnumNamesTest, ControlCharactersInTheBadNameAreEscaped) {
    auto bad = parseEnum(kFruitNames, "a\nb", "fruit");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message.find('\n'), std::string::npos) << bad.error().message;
}

// Every entry of `table` round-trips through the enum's own functions, names are distinct, and
// a name not in the table gives `expectedError`.
template <class Enum, std::size_t N, class NameFn, class ParseFn>
void expectRoundTrips(const EnumNames<Enum, N>& table, NameFn name, ParseFn parse,
                      std::size_t parsed, const std::string& expectedError) {
    std::set<std::string_view> seen;
    for (std::size_t i = 0; i < N; ++i) {
        const EnumName<Enum>& entry = table[i];
        SCOPED_TRACE(std::string(entry.name));
        EXPECT_TRUE(seen.insert(entry.name).second) << "duplicate name";
        EXPECT_EQ(name(entry.value), entry.name);
        auto back = parse(entry.name);
        if (i < parsed) {
            ASSERT_TRUE(back.ok()) << back.error().message;
            EXPECT_EQ(*back, entry.value);
            EXPECT_EQ(name(*back), entry.name);
        } else {
            EXPECT_FALSE(back.ok());
        }
    }
    auto bad = parse("no-such-name");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, expectedError);
}

TEST(EnumNamesTest, CoreEnumsRoundTrip) {
    expectRoundTrips(kColormapNames, colormapName, parseColormap, 6,
                     "colormap must be viridis, magma, cividis, twilight, blue-white-red or "
                     "categorical (got 'no-such-name')");
    expectRoundTrips(kThemeNames, themeName, parseTheme, 2,
                     "theme must be dark or paper (got 'no-such-name')");
    expectRoundTrips(kLayoutNames, layoutName, parseLayout, 3,
                     "layout must be interleaved, concat or t2t (got 'no-such-name')");
    expectRoundTrips(kPairingNames, pairingName, parsePairing, 2,
                     "pairing must be half or interleaved (got 'no-such-name')");
    expectRoundTrips(kScalingNames, scalingName, parseScaling, 6,
                     "scaling must be none, linear, ntk, dynamic-ntk, yarn or llama3 (got "
                     "'no-such-name')");
    expectRoundTrips(kSimilarityEncodingNames, similarityEncodingName, parseSimilarityEncoding, 3,
                     "encoding must be sinusoidal, learned or rope (got 'no-such-name')");
    expectRoundTrips(kSimilarityMetricNames, similarityMetricName, parseSimilarityMetric, 2,
                     "metric must be cosine or dot (got 'no-such-name')");
    expectRoundTrips(kRopeVectorsNames, ropeVectorsName, parseRopeVectors, 3,
                     "rope_vectors must be expected, same or independent (got 'no-such-name')");
    expectRoundTrips(kTurnReferenceNames, turnReferenceName, parseTurnReference, 2,
                     "incomplete_within must be context or training (got 'no-such-name')");
    expectRoundTrips(kPositionTableNames, positionTableName, parsePositionTable, 2,
                     "positions must be sinusoidal or learned (got 'no-such-name')");
}

// Each table lists every value of its enum (the enums are dense from 0).
TEST(EnumNamesTest, TablesCoverEveryValue) {
    EXPECT_EQ(kColormapNames.size(), std::size_t(ColormapId::Categorical) + 1);
    EXPECT_EQ(kScalingNames.size(), std::size_t(RopeScaling::Proportional) + 1);
    EXPECT_EQ(kLayoutNames.size(), std::size_t(SinusoidalLayout::Tensor2Tensor) + 1);
    EXPECT_EQ(kRopeVectorsNames.size(), std::size_t(RopeVectors::IndependentSamples) + 1);
    EXPECT_EQ(kFloatFormatNames.size(), std::size_t(FloatFormat::Float16) + 1);
    EXPECT_EQ(floatFormatName(FloatFormat::BFloat16), "bfloat16");
    for (const auto& entry : kColormapNames)
        EXPECT_EQ(allColormaps()[std::size_t(entry.value)], entry.value);
}

}  // namespace
}  // namespace poslab::test
