// Memo: computes once per key, again exactly when the key changes (by ==), and counts versions.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "poslab/base/memo.hpp"

namespace poslab {
namespace {

struct Key {
    int size = 0;
    std::vector<double> list;  // a field a hand-written equality could forget
    bool operator==(const Key&) const = default;
};

TEST(MemoTest, ComputesOncePerKey) {
    Memo<Key, std::string> memo;
    int calls = 0;
    auto make = [&] {
        ++calls;
        return std::string("value ") + std::to_string(calls);
    };
    EXPECT_TRUE(memo.empty());
    EXPECT_EQ(memo.key(), nullptr);
    EXPECT_EQ(memo.get({1, {}}, make), "value 1");
    EXPECT_EQ(memo.get({1, {}}, make), "value 1");
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(memo.version(), 1u);
    EXPECT_TRUE(memo.holds({1, {}}));
}

TEST(MemoTest, EveryFieldOfTheKeyCounts) {
    Memo<Key, int> memo;
    int calls = 0;
    auto make = [&] { return ++calls; };
    memo.get({1, {0.5}}, make);
    EXPECT_EQ(memo.get({1, {0.5, 2.0}}, make), 2);  // only the list differs
    EXPECT_EQ(memo.get({2, {0.5, 2.0}}, make), 3);
    EXPECT_EQ(memo.get({2, {0.5, 2.0}}, make), 3);
    EXPECT_EQ(memo.version(), 3u);
}

TEST(MemoTest, StoreAndClear) {
    Memo<int, double> memo;
    memo.store(4, 2.5);
    ASSERT_NE(memo.value(), nullptr);
    EXPECT_EQ(*memo.value(), 2.5);
    EXPECT_EQ(*memo.key(), 4);
    EXPECT_EQ(memo.get(4, [] { return -1.0; }), 2.5);  // kept: make() not called
    memo.clear();
    EXPECT_TRUE(memo.empty());
    EXPECT_FALSE(memo.holds(4));
    EXPECT_EQ(memo.get(4, [] { return -1.0; }), -1.0);
    EXPECT_EQ(memo.version(), 2u);  // two values stored, whatever was cleared between
}

}  // namespace
}  // namespace poslab
