// The option readers every command uses (commands/option_reader.hpp): values, the one-line
// messages the command-line tests expect, and the first error kept.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "commands/option_reader.hpp"

namespace poslab::test {
namespace {

cli::ArgMap argsOf(const std::vector<std::string>& arguments) {
    const std::vector<cli::OptionSpec> options = {
        {"heads", "N", ""}, {"seed", "S", ""}, {"base", "B", ""}, {"bits", "N", ""}};
    auto args = cli::parseArguments(arguments, options, "poslab test");
    EXPECT_TRUE(args.ok());
    return args.ok() ? args.value() : cli::ArgMap{};
}

TEST(OptionReaderTest, IntIfGivenIsEmptyWhenAbsentAndCheckedWhenGiven) {
    auto absent = cli::readIntIfGiven(argsOf({}), "heads", 1, 128);
    ASSERT_TRUE(absent.ok());
    EXPECT_FALSE(absent->has_value());
    auto given = cli::readIntIfGiven(argsOf({"--heads", "12"}), "heads", 1, 128);
    ASSERT_TRUE(given.ok());
    EXPECT_EQ(given->value(), 12);
    auto beyond = cli::readIntIfGiven(argsOf({"--heads", "129"}), "heads", 1, 128);
    ASSERT_FALSE(beyond.ok());
    EXPECT_EQ(beyond.error().message, "--heads must be 1..128 (got 129)");
}

TEST(OptionReaderTest, WideIntRefusesWhatWouldWrapAnInt) {
    auto fallback = cli::readWideInt(argsOf({}), "heads", 8);
    ASSERT_TRUE(fallback.ok());
    EXPECT_EQ(*fallback, 8);
    // 2^32 + 8 would become 8 in an int.
    auto huge = cli::readWideInt(argsOf({"--heads", "4294967304"}), "heads", 8);
    ASSERT_FALSE(huge.ok());
    EXPECT_EQ(huge.error().message, "--heads is out of range (got 4294967304)");
}

TEST(OptionReaderTest, SeedsAreZeroToTwoToTheSixtyThreeMinusOne) {
    auto top = cli::readSeed(argsOf({"--seed", "9223372036854775807"}), "seed");
    ASSERT_TRUE(top.ok());
    EXPECT_EQ(*top, 9223372036854775807ULL);
    auto negative = cli::readSeed(argsOf({"--seed", "-1"}), "seed");
    ASSERT_FALSE(negative.ok());
    EXPECT_EQ(negative.error().message, "--seed must be 0..9223372036854775807 (got -1)");
}

TEST(OptionReaderTest, ReaderKeepsTheFirstErrorAndDefaults) {
    int bits = 5;
    double base = 10000;
    std::uint64_t seed = 0;
    const cli::ArgMap args = argsOf({"--bits", "13", "--base", "abc"});
    cli::OptionReader read(args);  // holds a reference: the map must outlive it
    read.integer("bits", bits, 1, 12);
    read.number("base", base);
    read.seed(seed);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().message, "--bits must be 1..12 (got 13)");
    EXPECT_EQ(bits, 5);  // unchanged after the error
    EXPECT_EQ(base, 10000);

    const cli::ArgMap none = argsOf({});
    cli::OptionReader defaults(none);
    defaults.integer("bits", bits, 1, 12);
    defaults.seed(seed);
    EXPECT_TRUE(defaults.ok());
    EXPECT_EQ(bits, 5);
}

TEST(OptionReaderTest, ListsAreCountedBeforeTheirEntriesAreRead) {
    // --positions of rope-rotate: 2^20 entries, more than one command-line argument can hold
    // (exec refuses 128 KiB), so the cap is checked here rather than through the binary.
    std::string positions = "0";
    for (int i = 1; i < (1 << 20) + 1; ++i) positions += ",1";
    auto over = cli::checkListLength("positions", positions, std::size_t(1) << 20);
    ASSERT_FALSE(over.ok());
    EXPECT_EQ(over.error().message, "--positions lists at most 1048576 entries (got 1048577)");
    EXPECT_TRUE(cli::checkListLength("positions", positions.substr(2), std::size_t(1) << 20));
    // Entries that are no numbers at all are not read when the count is over.
    const cli::ArgMap args = argsOf({"--base", "x,y,z"});
    auto tooMany = args.numbers("base", 2);
    ASSERT_FALSE(tooMany.ok());
    EXPECT_EQ(tooMany.error().message, "--base lists at most 2 entries (got 3)");
    auto read = argsOf({"--base", "1,-2.5,1e3"}).numbers("base", 3);
    ASSERT_TRUE(read.ok());
    EXPECT_EQ(*read, (std::vector<double>{1, -2.5, 1000}));
}

TEST(OptionReaderTest, AnOptionGivenTwiceIsAnError) {
    const std::vector<cli::OptionSpec> options = {{"base", "B", ""}, {"fresh", "", ""}};
    auto twice = cli::parseArguments({"--base", "1", "--base=2"}, options, "poslab test");
    ASSERT_FALSE(twice.ok());
    EXPECT_EQ(twice.error().message, "--base given twice");
    auto flag = cli::parseArguments({"--fresh", "--fresh"}, options, "poslab test");
    ASSERT_FALSE(flag.ok());
    EXPECT_EQ(flag.error().message, "--fresh given twice");
}

}  // namespace
}  // namespace poslab::test
