// The option readers every command uses (commands/option_reader.hpp): values, the one-line
// messages the command-line tests expect, and the first error kept.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commands/option_reader.hpp"

namespace poslab::test {
namespace {

commands::ArgMap argsOf(const std::vector<std::string>& arguments) {
    const std::vector<commands::OptionSpec> options = {
        {"heads", "N", ""}, {"seed", "S", ""},    {"base", "B", ""},    {"bits", "N", ""},
        {"q", "LIST", ""},  {"dims", "LIST", ""}, {"pairing", "P", ""}, {"config", "FILE", ""}};
    auto args = commands::parseArguments(arguments, options, "poslab test");
    EXPECT_TRUE(args.ok());
    return args.ok() ? args.value() : commands::ArgMap{};
}

// Reads one option into `field` with `read`, returning the reader's first error (or success).
template <class Read>
Status readOne(const std::vector<std::string>& arguments, Read read) {
    const commands::ArgMap args = argsOf(arguments);
    commands::OptionReader reader(args);
    read(reader);
    if (!reader.ok()) return reader.error();
    return success();
}

TEST(OptionReaderTest, IntegerKeepsTheDefaultWhenAbsentAndIsCheckedWhenGiven) {
    int heads = -1;  // a default outside 1..128 is not checked: only what the user typed is
    EXPECT_TRUE(readOne({}, [&](auto& r) { r.integer("heads", heads, 1, 128); }).ok());
    EXPECT_EQ(heads, -1);
    EXPECT_TRUE(
        readOne({"--heads", "12"}, [&](auto& r) { r.integer("heads", heads, 1, 128); }).ok());
    EXPECT_EQ(heads, 12);
    auto beyond = readOne({"--heads", "129"}, [&](auto& r) { r.integer("heads", heads, 1, 128); });
    ASSERT_FALSE(beyond.ok());
    EXPECT_EQ(beyond.error().message, "--heads must be 1..128 (got 129)");
    EXPECT_EQ(heads, 12);
}

TEST(OptionReaderTest, WideIntRefusesWhatWouldWrapAnInt) {
    int heads = 8;
    EXPECT_TRUE(readOne({}, [&](auto& r) { r.wideInt("heads", heads); }).ok());
    EXPECT_EQ(heads, 8);
    // 2^32 + 8 would become 8 in an int.
    auto huge = readOne({"--heads", "4294967304"}, [&](auto& r) { r.wideInt("heads", heads); });
    ASSERT_FALSE(huge.ok());
    EXPECT_EQ(huge.error().message, "--heads is out of range (got 4294967304)");
    long long wide = 0;
    EXPECT_TRUE(
        readOne({"--heads", "1073741824"}, [&](auto& r) { r.wideInt("heads", wide); }).ok());
    EXPECT_EQ(wide, 1LL << 30);
}

TEST(OptionReaderTest, SeedsAreZeroToTwoToTheSixtyThreeMinusOne) {
    std::uint64_t seed = 5;
    EXPECT_TRUE(readOne({}, [&](auto& r) { r.seed(seed); }).ok());
    EXPECT_EQ(seed, 5u);
    EXPECT_TRUE(readOne({"--seed", "9223372036854775807"}, [&](auto& r) { r.seed(seed); }).ok());
    EXPECT_EQ(seed, 9223372036854775807ULL);
    auto negative = readOne({"--seed", "-1"}, [&](auto& r) { r.seed(seed); });
    ASSERT_FALSE(negative.ok());
    EXPECT_EQ(negative.error().message, "--seed must be 0..9223372036854775807 (got -1)");
    // A lower top (rope-scores: k takes seed + 1).
    auto top = readOne({"--seed", "9223372036854775807"},
                       [&](auto& r) { r.seed("seed", seed, 9223372036854775806LL); });
    ASSERT_FALSE(top.ok());
    EXPECT_EQ(top.error().message,
              "--seed must be 0..9223372036854775806 (got 9223372036854775807)");
}

TEST(OptionReaderTest, NumberListsAreFiniteAndCapped) {
    std::vector<double> q = {9};
    EXPECT_TRUE(readOne({}, [&](auto& r) { r.list("q", q, 4); }).ok());
    EXPECT_EQ(q, std::vector<double>{9});
    EXPECT_TRUE(readOne({"--q", "1,2.5,-3"}, [&](auto& r) { r.list("q", q, 4); }).ok());
    EXPECT_EQ(q, (std::vector<double>{1, 2.5, -3}));
    // inf, nan and 1e999 are not numbers to the parser (the finite check behind it stays).
    auto infinite = readOne({"--q", "1,inf"}, [&](auto& r) { r.list("q", q, 4); });
    ASSERT_FALSE(infinite.ok());
    EXPECT_EQ(infinite.error().message, "--q expects comma-separated numbers (got '1,inf')");
    EXPECT_EQ(q, (std::vector<double>{1, 2.5, -3}));  // unchanged
    auto many = readOne({"--q", "1,2,3,4,5"}, [&](auto& r) { r.list("q", q, 4); });
    ASSERT_FALSE(many.ok());
    EXPECT_NE(many.error().message.find("--q lists at most 4 entries"), std::string::npos)
        << many.error().message;
}

TEST(OptionReaderTest, IntegerListsCheckEachEntry) {
    std::vector<int> dims;
    EXPECT_TRUE(readOne({"--dims", "0,5,9"}, [&](auto& r) { r.list("dims", dims, 8, 0, 9); }).ok());
    EXPECT_EQ(dims, (std::vector<int>{0, 5, 9}));
    auto beyond = readOne({"--dims", "0,10"}, [&](auto& r) { r.list("dims", dims, 8, 0, 9); });
    ASSERT_FALSE(beyond.ok());
    EXPECT_EQ(beyond.error().message, "--dims entries must be 0..9 (got 10)");
    EXPECT_EQ(dims, (std::vector<int>{0, 5, 9}));  // unchanged
}

TEST(OptionReaderTest, ChoiceParsesANameAndPrefixesItsMessage) {
    auto parse = [](std::string_view text) -> Result<int> {
        if (text == "half") return 1;
        return Error{"pairing must be half (got '" + std::string(text) + "')"};
    };
    int pairing = 0;
    EXPECT_TRUE(
        readOne({"--pairing", "half"}, [&](auto& r) { r.choice("pairing", pairing, parse); }).ok());
    EXPECT_EQ(pairing, 1);
    auto bad = readOne({"--pairing", "x"}, [&](auto& r) { r.choice("pairing", pairing, parse); });
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, "--pairing must be half (got 'x')");
}

TEST(OptionReaderTest, ReaderKeepsTheFirstErrorAndDefaults) {
    int bits = 5;
    double base = 10000;
    std::uint64_t seed = 0;
    const commands::ArgMap args = argsOf({"--bits", "13", "--base", "abc"});
    commands::OptionReader read(args);  // holds a reference: the map must outlive it
    read.integer("bits", bits, 1, 12);
    read.number("base", base);
    read.seed(seed);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().message, "--bits must be 1..12 (got 13)");
    EXPECT_EQ(bits, 5);  // unchanged after the error
    EXPECT_EQ(base, 10000);

    const commands::ArgMap none = argsOf({});
    commands::OptionReader defaults(none);
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
    auto over = commands::checkListLength("positions", positions, std::size_t(1) << 20);
    ASSERT_FALSE(over.ok());
    EXPECT_EQ(over.error().message, "--positions lists at most 1048576 entries (got 1048577)");
    EXPECT_TRUE(commands::checkListLength("positions", positions.substr(2), std::size_t(1) << 20));
    // Entries that are no numbers at all are not read when the count is over.
    const commands::ArgMap args = argsOf({"--base", "x,y,z"});
    auto tooMany = args.numbers("base", 2);
    ASSERT_FALSE(tooMany.ok());
    EXPECT_EQ(tooMany.error().message, "--base lists at most 2 entries (got 3)");
    auto read = argsOf({"--base", "1,-2.5,1e3"}).numbers("base", 3);
    ASSERT_TRUE(read.ok());
    EXPECT_EQ(*read, (std::vector<double>{1, -2.5, 1000}));
}

// The readers that replaced the commands' direct ArgMap reads: any integer (the caller checks it
// against a loaded table), text as typed, and a list of words.
TEST(OptionReaderTest, PlainIntegersTextAndWordLists) {
    long long heads = 7;
    EXPECT_TRUE(readOne({}, [&](auto& r) { r.integer("heads", heads); }).ok());
    EXPECT_EQ(heads, 7);
    EXPECT_TRUE(readOne({"--heads", "-40"}, [&](auto& r) { r.integer("heads", heads); }).ok());
    EXPECT_EQ(heads, -40);
    auto bad = readOne({"--heads", "4.5"}, [&](auto& r) { r.integer("heads", heads); });
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, "--heads expects an integer (got '4.5')");

    std::string pairing = "half";
    EXPECT_TRUE(readOne({}, [&](auto& r) { r.text("pairing", pairing); }).ok());
    EXPECT_EQ(pairing, "half");
    EXPECT_TRUE(readOne({"--pairing", " a b,"}, [&](auto& r) { r.text("pairing", pairing); }).ok());
    EXPECT_EQ(pairing, " a b,");

    std::vector<std::string> words{"kept"};
    EXPECT_TRUE(readOne({}, [&](auto& r) { r.list("dims", words, 3); }).ok());
    EXPECT_EQ(words, std::vector<std::string>{"kept"});
    EXPECT_TRUE(readOne({"--dims", "a,,b"}, [&](auto& r) { r.list("dims", words, 3); }).ok());
    EXPECT_EQ(words, (std::vector<std::string>{"a", "", "b"}));
    auto many = readOne({"--dims", "a,b,c,d"}, [&](auto& r) { r.list("dims", words, 3); });
    ASSERT_FALSE(many.ok());
    EXPECT_EQ(many.error().message, "--dims lists at most 3 entries (got 4)");
}

// Paths come as typed (the loader opens them and names what is wrong); a required one says so in
// the command's own words, and the reads after it are skipped.
TEST(OptionReaderTest, PathsAreOptionalOrRequired) {
    std::optional<std::string> config;
    EXPECT_TRUE(readOne({}, [&](auto& r) { r.path("config", config); }).ok());
    EXPECT_FALSE(config.has_value());
    EXPECT_TRUE(
        readOne({"--config", "dir/a b.json"}, [&](auto& r) { r.path("config", config); }).ok());
    EXPECT_EQ(config, std::optional<std::string>("dir/a b.json"));

    std::string out = "kept";
    int heads = 3;
    auto missing = readOne({"--heads", "999"}, [&](auto& r) {
        r.path("config", out, "--config FILE is required (a Hugging Face config.json)");
        r.integer("heads", heads, 1, 128);
    });
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().message, "--config FILE is required (a Hugging Face config.json)");
    EXPECT_EQ(out, "kept");
    EXPECT_EQ(heads, 3);
    EXPECT_TRUE(
        readOne({"--config", "c.json"}, [&](auto& r) { r.path("config", out, "required"); }).ok());
    EXPECT_EQ(out, "c.json");

    std::optional<std::string> title;  // text, told apart from "not given" even when empty
    EXPECT_TRUE(readOne({"--pairing="}, [&](auto& r) { r.text("pairing", title); }).ok());
    EXPECT_EQ(title, std::optional<std::string>(""));
}

TEST(OptionReaderTest, ChoicesFillOptionalsAndListsOfNames) {
    auto parse = [](std::string_view text) -> Result<int> {
        if (text == "half") return 1;
        if (text == "interleaved") return 2;
        return Error{"pairing entries must be half or interleaved (got '" + std::string(text) +
                     "')"};
    };
    std::optional<int> pairing;
    EXPECT_TRUE(readOne({}, [&](auto& r) { r.choice("pairing", pairing, parse); }).ok());
    EXPECT_FALSE(pairing.has_value());
    EXPECT_TRUE(readOne({"--pairing", "interleaved"}, [&](auto& r) {
                    r.choice("pairing", pairing, parse);
                }).ok());
    EXPECT_EQ(pairing, std::optional<int>(2));

    std::vector<int> names = {7};
    EXPECT_TRUE(readOne({}, [&](auto& r) { r.list("pairing", names, 3, parse); }).ok());
    EXPECT_EQ(names, std::vector<int>{7});
    EXPECT_TRUE(readOne({"--pairing", "half,interleaved,half"}, [&](auto& r) {
                    r.list("pairing", names, 3, parse);
                }).ok());
    EXPECT_EQ(names, (std::vector<int>{1, 2, 1}));
    auto bad =
        readOne({"--pairing", "half,odd"}, [&](auto& r) { r.list("pairing", names, 3, parse); });
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, "--pairing entries must be half or interleaved (got 'odd')");
    EXPECT_EQ(names, (std::vector<int>{1, 2, 1}));  // unchanged
    auto many = readOne({"--pairing", "half,half,half,half"},
                        [&](auto& r) { r.list("pairing", names, 3, parse); });
    ASSERT_FALSE(many.ok());
    EXPECT_EQ(many.error().message, "--pairing lists at most 3 entries (got 4)");
}

TEST(OptionReaderTest, AnOptionGivenTwiceIsAnError) {
    const std::vector<commands::OptionSpec> options = {{"base", "B", ""}, {"fresh", "", ""}};
    auto twice = commands::parseArguments({"--base", "1", "--base=2"}, options, "poslab test");
    ASSERT_FALSE(twice.ok());
    EXPECT_EQ(twice.error().message, "--base given twice");
    auto flag = commands::parseArguments({"--fresh", "--fresh"}, options, "poslab test");
    ASSERT_FALSE(flag.ok());
    EXPECT_EQ(flag.error().message, "--fresh given twice");
}

}  // namespace
}  // namespace poslab::test
