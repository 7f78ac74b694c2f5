// CSV: exact round trips of every kind of double, and malformed text refused.
#include "poslab/io/csv.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "io_test_fixture.hpp"

namespace poslab {
namespace {

class CsvTest : public IoTest {};

TEST_F(CsvTest, CsvRoundTripsExactly) {
    const std::string path = (dir / "m.csv").string();
    ASSERT_TRUE(saveCsv(sample(), path).ok());
    const std::string text = readFile(path);
    EXPECT_EQ(text, "0.1,-2.5e-300,0.3333333333333333,-inf\ninf,nan,123456789.125,-0\n");
    auto back = parseCsv(text);
    ASSERT_TRUE(back.ok());
    ASSERT_EQ(back->rows, 2u);
    ASSERT_EQ(back->cols, 4u);
    for (std::size_t i = 0; i < 8; ++i) {
        if (std::isnan(sample().values[i]))
            EXPECT_TRUE(std::isnan(back->values[i]));
        else
            EXPECT_EQ(back->values[i], sample().values[i]);
    }
}

TEST_F(CsvTest, WrittenToAnOpenFileAsSaved) {
    // writeCsv into a file the caller opened: the same text saveCsv puts at a path.
    const std::string path = (dir / "open.csv").string();
    std::FILE* file = std::fopen(path.c_str(), "wb");
    ASSERT_NE(file, nullptr);
    Matrix m(2, 2);
    m.values = {1, 0.5, -2, 1e-7};
    ASSERT_TRUE(writeCsv(m, file).ok());
    std::fclose(file);
    EXPECT_EQ(readFile(path), "1,0.5\n-2,1e-07\n");
}

TEST(CsvParseTest, BlankLinesAndCarriageReturnsAreSkipped) {
    auto m = parseCsv("1,2\r\n\n3,4\n");
    ASSERT_TRUE(m.ok());
    ASSERT_EQ(m->rows, 2u);
    ASSERT_EQ(m->cols, 2u);
    EXPECT_EQ(m->values, (std::vector<double>{1, 2, 3, 4}));
    auto empty = parseCsv("");
    ASSERT_TRUE(empty.ok());
    EXPECT_TRUE(empty->empty());
}

TEST(CsvParseTest, MalformedTextIsAOneLineError) {
    EXPECT_EQ(parseCsv("1,2\n3\n").error().message, "CSV line 2 has 1 values, expected 2");
    EXPECT_EQ(parseCsv("1,x\n").error().message, "CSV line 1: 'x' is not a number");
    EXPECT_EQ(parseCsv("1,\n").error().message, "CSV line 1: '' is not a number");
    EXPECT_EQ(parseCsv("1.5e3 ,2\n").error().message, "CSV line 1: '1.5e3 ' is not a number");
}

TEST(CsvParseTest, CellsInMessagesAreEscapedAndCut) {
    // Failed before: the cell went into the message as it was, escape sequences and all.
    auto escaped = parseCsv("1,2\n3,\x1b[2J\n");
    ASSERT_FALSE(escaped.ok());
    EXPECT_EQ(escaped.error().message, "CSV line 2: '\\x1b[2J' is not a number");
    auto longCell = parseCsv(std::string(200, 'z') + "\n");
    ASSERT_FALSE(longCell.ok());
    EXPECT_EQ(longCell.error().message,
              "CSV line 1: '" + std::string(80, 'z') + "…' is not a number");
}

}  // namespace
}  // namespace poslab
