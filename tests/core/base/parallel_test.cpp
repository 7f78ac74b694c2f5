#include "poslab/base/parallel.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace poslab {
namespace {

// The parts parallelFor hands out, sorted by their first index.
std::vector<std::pair<long long, long long>> partsOf(long long count, long long minimum) {
    std::mutex lock;
    std::vector<std::pair<long long, long long>> parts;
    parallelFor(count, minimum, [&](long long first, long long last) {
        const std::lock_guard<std::mutex> guard(lock);
        parts.emplace_back(first, last);
    });
    std::sort(parts.begin(), parts.end());
    return parts;
}

TEST(ParallelTest, PartsCoverTheRangeOnceInOrder) {
    const long long cores = std::max(1u, std::thread::hardware_concurrency());
    for (long long count : {1LL, 2LL, 7LL, 1000LL, 1000003LL}) {
        const auto parts = partsOf(count, 1);
        ASSERT_FALSE(parts.empty());
        EXPECT_LE((long long)parts.size(), std::min(cores, count));
        long long next = 0;
        for (const auto& [first, last] : parts) {
            EXPECT_EQ(first, next) << count;  // contiguous, no gap, no overlap
            EXPECT_LT(first, last) << count;  // never empty
            next = last;
        }
        EXPECT_EQ(next, count);
    }
}

TEST(ParallelTest, SmallLoopsStayOnTheCallingThread) {
    EXPECT_EQ(partsOf(100, 1000), (std::vector<std::pair<long long, long long>>{{0, 100}}));
    EXPECT_TRUE(partsOf(0, 1).empty());  // nothing to do: work is never called
    const std::thread::id caller = std::this_thread::get_id();
    bool sameThread = false;
    parallelFor(10, 100,
                [&](long long, long long) { sameThread = std::this_thread::get_id() == caller; });
    EXPECT_TRUE(sameThread);
}

}  // namespace
}  // namespace poslab
