#include "poslab/io/json_reader.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

namespace poslab {
namespace {

namespace fs = std::filesystem;

std::string nested(std::size_t depth, char open = '[', char close = ']') {
    return std::string(depth, open) + std::string(depth, close);
}

TEST(JsonReaderTest, DepthIsCountedOutsideStringsOnly) {
    EXPECT_EQ(scanJsonShape("{}").depth, 1);
    EXPECT_EQ(scanJsonShape(R"({"a": [[1], {"b": []}]})").depth, 4);
    EXPECT_EQ(scanJsonShape(R"(["[[[[", "\"[[[", "\\"])").depth, 1);  // brackets in strings
    EXPECT_EQ(scanJsonShape(nested(64)).depth, 64);
}

TEST(JsonReaderTest, ValuesCountScalarsContainersAndKeys) {
    EXPECT_EQ(scanJsonShape("[1, 22, true, null, \"x\"]").values, 6u);
    EXPECT_EQ(scanJsonShape(R"({"a": 1, "b": [2.5e3]})").values, 6u);  // 2 keys count too
}

TEST(JsonReaderTest, DeepNestingIsRefusedBeforeTheParse) {
    // Failed before: a copy or dump of a value nested 100k deep overflowed the stack.
    EXPECT_TRUE(parseJson(nested(64)));
    auto deep = parseJson(nested(100000));
    ASSERT_FALSE(deep);
    EXPECT_EQ(deep.error().message,
              "nested deeper than 64 levels of [ and { (PosLab's limit for JSON files)");
    auto deepObject = parseJson<nlohmann::ordered_json>(std::string(200000, '{'));
    ASSERT_FALSE(deepObject);
    EXPECT_NE(deepObject.error().message.find("deeper than 64"), std::string::npos);
}

TEST(JsonReaderTest, EveryExceptionTypeBecomesAnError) {
    auto huge = parseJson("[1e400]");  // json's out_of_range, not a parse_error
    ASSERT_FALSE(huge);
    EXPECT_NE(huge.error().message.find("number overflow"), std::string::npos)
        << huge.error().message;
    EXPECT_EQ(huge.error().message.find("[json.exception"), std::string::npos);
    auto syntax = parseJson("{\"a\": \x1b[31m}");
    ASSERT_FALSE(syntax);
    EXPECT_EQ(syntax.error().message.find('\x1b'), std::string::npos) << syntax.error().message;
    auto badUtf8 = parseJson("\"\xff\xfe\"");
    ASSERT_FALSE(badUtf8);
    EXPECT_EQ(badUtf8.error().message.find('\xff'), std::string::npos);
    // A callback that throws ends the parse with the callback's message.
    auto thrown = parseJson("[1]", [](int, nlohmann::json::parse_event_t, nlohmann::json&) -> bool {
        throw std::runtime_error("too many tensors");
    });
    ASSERT_FALSE(thrown);
    EXPECT_NE(thrown.error().message.find("too many tensors"), std::string::npos);
}

TEST(JsonReaderTest, TheTreeIsCountedAgainstTheMemoryCap) {
    // 130 KiB of "[]," is 44k values: about 4 MiB of tree, over a 1 MiB cap. (Was 700k values
    // against 16 MiB, the same check four times over the cap: 2.3 s of CPU under ASan+UBSan,
    // most of it the parse under the default cap below; now 0.2 s.)
    std::string text = "[";
    for (int i = 0; i < 44000; ++i) text += "[],";
    text += "[]]";
    ::setenv("POSLAB_MEMORY_CAP_MIB", "1", 1);
    auto refused = parseJson(text);
    ::unsetenv("POSLAB_MEMORY_CAP_MIB");
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("over the memory cap of 1 MiB"), std::string::npos)
        << refused.error().message;
    EXPECT_TRUE(parseJson(text));  // under the default cap
}

TEST(JsonReaderTest, DescribeNeverDumpsContainers) {
    nlohmann::json deep = nlohmann::json::array();
    deep.push_back(nlohmann::json::object({{"a", 1}}));
    deep.push_back(2);
    EXPECT_EQ(describeJson(deep), "an array of 2 values");
    EXPECT_EQ(describeJson(nlohmann::json::object()), "an empty object");
    EXPECT_EQ(describeJson(nlohmann::json("a\x1b[2Jb")), "\"a\\x1b[2Jb\"");
    EXPECT_EQ(describeJson(nlohmann::json(1.5)), "1.5");
    EXPECT_EQ(describeJson(nlohmann::json::parse("[8, -1, \"a\"]")), "[8,-1,\"a\"]");  // as written
    EXPECT_EQ(describeJson(nlohmann::json::parse("[1,2,3,4,5,6,7,8,9]")), "an array of 9 values");
    EXPECT_EQ(describeJson(nlohmann::ordered_json::object({{"k", 1}})), "an object of 1 key");
}

class JsonFileTest : public ::testing::Test {
  protected:
    fs::path dir = fs::temp_directory_path() / ("poslab_json_reader_" + std::to_string(::getpid()));
    void SetUp() override { fs::create_directories(dir); }
    void TearDown() override { fs::remove_all(dir); }
};

TEST_F(JsonFileTest, AFifoIsRefusedAtOnce) {
    const std::string fifo = (dir / "spec.json").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto text = readUserTextFile(fifo, 1 << 20, "a spec");  // O_NONBLOCK open: never waits
    ASSERT_FALSE(text);
    EXPECT_EQ(text.error().message, fifo + ": not a regular file (a FIFO)");
}

TEST_F(JsonFileTest, SizeLimitsNameTheFile) {
    const std::string path = (dir / "big\x1b.json").string();
    std::ofstream(path) << std::string(3 << 20, ' ');
    auto text = readUserTextFile(path, 2 << 20, "a lessons file");
    ASSERT_FALSE(text);
    EXPECT_EQ(text.error().message,
              (dir / "big\\x1b.json").string() + ": larger than 2 MiB, not a lessons file");
    ::setenv("POSLAB_MEMORY_CAP_MIB", "1", 1);
    auto capped = readUserTextFile(path, 16 << 20, "a spec");
    ::unsetenv("POSLAB_MEMORY_CAP_MIB");
    ASSERT_FALSE(capped);
    EXPECT_NE(capped.error().message.find("exceed the memory cap of 1 MiB"), std::string::npos);
    auto read = readUserTextFile(path, 16 << 20, "a spec");
    ASSERT_TRUE(read);
    EXPECT_EQ(read->size(), std::size_t(3) << 20);
}

// A broken config.json in one line a status line holds: the line and the keys open there.
TEST(JsonReaderTest, SyntaxErrorPlaceNamesTheLineAndTheKey) {
    EXPECT_EQ(jsonSyntaxErrorPlace(R"({"a": 1})"), "");
    EXPECT_EQ(jsonSyntaxErrorPlace("{\"a\": 1,}"), "line 1, after \"a\": unexpected '}'");
    EXPECT_EQ(jsonSyntaxErrorPlace("{\n  \"hidden_size\": 4096,\n  \"rope_theta\": 5e,\n}"),
              "line 3, after \"rope_theta\": unexpected ','");
    EXPECT_EQ(jsonSyntaxErrorPlace("{\"rope_scaling\": {\n\"factor\": 8,,\n}}"),
              "line 2, after \"rope_scaling.factor\": unexpected ','");
    EXPECT_EQ(jsonSyntaxErrorPlace("{\"a\": [1, 2"), "line 1, after \"a\": the text ends too soon");
    EXPECT_EQ(jsonSyntaxErrorPlace("  \n"), "line 2: the text is empty");
    // A parser message runs to 200 characters; this stays short whatever the token.
    const std::string longToken = "{\"k\": " + std::string(500, 'x') + "}";
    EXPECT_LT(jsonSyntaxErrorPlace(longToken).size(), 80u) << jsonSyntaxErrorPlace(longToken);
}

}  // namespace
}  // namespace poslab
