// Result and Status: a value or a one-line error, and nothing in between.
#include "poslab/base/result.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace poslab {
namespace {

Result<int> half(int n) {
    if (n % 2 != 0) return Error{"n must be even (got " + std::to_string(n) + ")"};
    return n / 2;
}

TEST(ResultTest, HoldsAValueOrAnError) {
    const Result<int> good = half(8);
    ASSERT_TRUE(good.ok());
    EXPECT_TRUE(bool(good));
    EXPECT_EQ(good.value(), 4);
    EXPECT_EQ(*good, 4);
    const Result<int> bad = half(3);
    EXPECT_FALSE(bad.ok());
    EXPECT_FALSE(bool(bad));
    EXPECT_EQ(bad.error().message, "n must be even (got 3)");
}

TEST(ResultTest, ValuesAreReachableAndMovable) {
    Result<std::vector<double>> values = std::vector<double>{1, 2, 3};
    EXPECT_EQ(values->size(), 3u);
    values.value().push_back(4);  // mutable through value() &
    EXPECT_EQ(values->back(), 4);
    Result<std::unique_ptr<int>> owner = std::make_unique<int>(7);
    std::unique_ptr<int> taken = std::move(owner).value();  // value() && moves out
    ASSERT_NE(taken, nullptr);
    EXPECT_EQ(*taken, 7);
}

TEST(ResultTest, MembersMoveOutThroughTheArrow) {
    // A member moved through -> leaves its source empty: moved, not copied. Before, -> gave a
    // const pointer and std::move(result->table) copied a whole table.
    struct Loaded {
        std::vector<double> table;
    };
    Result<Loaded> loaded = Loaded{std::vector<double>(1000, 1.0)};
    const double* data = loaded->table.data();
    std::vector<double> table = std::move(loaded->table);
    EXPECT_EQ(table.data(), data);  // the same buffer
    EXPECT_TRUE(loaded->table.empty());
    Result<std::unique_ptr<int>> owner = std::make_unique<int>(3);
    std::unique_ptr<int> taken = std::move(*owner);
    EXPECT_EQ(*taken, 3);
}

TEST(ResultTest, StatusCarriesNoValue) {
    const Status fine = success();
    EXPECT_TRUE(fine.ok());
    const Status failed = Error{"seq_len must be 1..1048576 (got 0)"};
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.error().message, "seq_len must be 1..1048576 (got 0)");
    // An error passes from one Result type to another unchanged.
    auto forward = [](const Result<int>& r) -> Status {
        if (!r) return r.error();
        return success();
    };
    EXPECT_EQ(forward(half(5)).error().message, "n must be even (got 5)");
    EXPECT_TRUE(forward(half(6)).ok());
}

}  // namespace
}  // namespace poslab
