// RefiningMemo: the exact value comes from a worker (or, synchronous, from get() itself once the
// key holds still); meanwhile the coarse value of the current key or the last exact value is
// shown; a job for a key since left is cancelled; destruction stops and joins the job.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>

#include "poslab/base/background.hpp"
#include "poslab/base/refining_memo.hpp"

namespace poslab {
namespace {

using Memo = RefiningMemo<int, std::string>;

// Calls get() as frames would until the exact value arrives (the worker is not gated here).
// Between two calls the frame loop's queue runs: where there are no threads (the page's build
// without them, and these tests compiled to wasm) that is where the job is done.
template <class Compute>
Refined<std::string> untilExact(Memo& memo, int key, Compute compute, bool coarse) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (;;) {
        Refined<std::string> shown = memo.get(key, compute, coarse);
        if (shown.exact || std::chrono::steady_clock::now() > deadline) return shown;
        runQueuedJobs(std::chrono::steady_clock::duration::zero());
        std::this_thread::yield();
    }
}

// The value a key's exact and coarse computes give: "exact 3", "coarse 3".
std::string named(Detail detail, int key) {
    return (detail == Detail::Exact ? "exact " : "coarse ") + std::to_string(key);
}

// Restores the process-wide mode whatever a test does.
struct ThreadsAfterwards {
    ~ThreadsAfterwards() { setBackgroundWork(BackgroundWork::Threads); }
};

TEST(RefiningMemoTest, CoarseWhileTheKeyMovesExactOnceItHoldsStill) {
    Memo memo;
    std::atomic<int> exactCalls{0};
    auto compute = [&](int key, Detail detail, const std::atomic<bool>&) {
        if (detail == Detail::Exact) ++exactCalls;
        return named(detail, key);
    };
    for (int key = 1; key <= 5; ++key) {  // a slider dragged: a new key every frame
        const Refined<std::string> shown = memo.get(key, compute, true);
        ASSERT_NE(shown.value, nullptr);
        EXPECT_EQ(*shown.value, named(Detail::Coarse, key));
        EXPECT_TRUE(shown.current);
        EXPECT_FALSE(shown.exact);
    }
    EXPECT_FALSE(memo.running());  // nothing exact started while it moved
    EXPECT_EQ(exactCalls.load(), 0);
    const Refined<std::string> settled = untilExact(memo, 5, compute, true);
    ASSERT_TRUE(settled.exact);
    EXPECT_EQ(*settled.value, named(Detail::Exact, 5));
    EXPECT_EQ(exactCalls.load(), 1);
    // Kept: asking again computes nothing and keeps the version.
    const Refined<std::string> again = memo.get(5, compute, true);
    EXPECT_EQ(again.version, settled.version);
    EXPECT_EQ(exactCalls.load(), 1);
}

TEST(RefiningMemoTest, WithoutACoarseValueTheLastExactOneStandsIn) {
    Memo memo;
    auto compute = [](int key, Detail detail, const std::atomic<bool>&) {
        return named(detail, key);
    };
    const Refined<std::string> first = memo.get(1, compute);
    if (!first.exact) {
        EXPECT_EQ(first.value, nullptr);  // nothing finished yet
    }
    ASSERT_TRUE(untilExact(memo, 1, compute, false).exact);
    const Refined<std::string> moved = memo.get(2, compute);  // its job starts at once
    if (!moved.exact) {
        ASSERT_NE(moved.value, nullptr);
        EXPECT_EQ(*moved.value, named(Detail::Exact, 1));  // the previous key's, marked so
        EXPECT_FALSE(moved.current);
    }
    const Refined<std::string> second = untilExact(memo, 2, compute, false);
    ASSERT_TRUE(second.exact);
    EXPECT_EQ(*second.value, named(Detail::Exact, 2));
    EXPECT_NE(second.version, first.version);
}

TEST(RefiningMemoTest, AJobForAKeyLeftIsCancelledAndNeverShown) {
    Memo memo;
    std::atomic<bool> sawCancel{false};
    auto compute = [&](int key, Detail detail, const std::atomic<bool>& cancelled) {
        if (detail == Detail::Exact && key == 1) {
            while (!cancelled) std::this_thread::yield();  // a long job: only a cancel ends it
            sawCancel = true;
            return std::string("cancelled");
        }
        return named(detail, key);
    };
    memo.get(1, compute, true);
    memo.get(1, compute, true);  // still: the exact job for 1 starts
    ASSERT_TRUE(memo.running());
    memo.get(2, compute, true);  // moved on: the job for 1 is told to stop
    const Refined<std::string> settled = untilExact(memo, 2, compute, true);
    ASSERT_TRUE(settled.exact);
    EXPECT_EQ(*settled.value, named(Detail::Exact, 2));
    EXPECT_TRUE(sawCancel.load());
    ASSERT_NE(memo.exactKey(), nullptr);
    EXPECT_EQ(*memo.exactKey(), 2);  // the cancelled value was thrown away
}

TEST(RefiningMemoTest, DestructionStopsAndJoinsTheJob) {
    std::atomic<bool> finished{false};
    {
        Memo memo;
        memo.get(7, [&](int, Detail, const std::atomic<bool>& cancelled) {
            while (!cancelled) std::this_thread::yield();
            finished = true;
            return std::string();
        });
        ASSERT_TRUE(memo.running());
    }  // would hang here without the cancel, and race on `finished` without the join
    EXPECT_TRUE(finished.load());
}

TEST(RefiningMemoTest, ClearForgetsEveryValue) {
    Memo memo;
    auto compute = [](int key, Detail detail, const std::atomic<bool>&) {
        return named(detail, key);
    };
    ASSERT_TRUE(untilExact(memo, 3, compute, false).exact);
    memo.clear();
    EXPECT_EQ(memo.exactKey(), nullptr);
    EXPECT_TRUE(untilExact(memo, 3, compute, false).exact);
}

TEST(RefiningMemoTest, ACrashInTheJobReachesTheCaller) {
    Memo memo;
    auto compute = [](int, Detail, const std::atomic<bool>&) -> std::string {
        throw std::runtime_error("out of memory");
    };
    EXPECT_THROW(untilExact(memo, 1, compute, false), std::runtime_error);
    EXPECT_FALSE(memo.running());
}

TEST(RefiningMemoTest, SynchronousComputesOnTheCallersThreadOnceStill) {
    const ThreadsAfterwards restore;
    setBackgroundWork(BackgroundWork::Synchronous);
    Memo memo;
    const std::thread::id caller = std::this_thread::get_id();
    bool elsewhere = false;
    auto compute = [&](int key, Detail detail, const std::atomic<bool>&) {
        elsewhere = elsewhere || std::this_thread::get_id() != caller;
        return named(detail, key);
    };
    const Refined<std::string> moving = memo.get(4, compute, true);
    EXPECT_EQ(*moving.value, named(Detail::Coarse, 4));
    EXPECT_FALSE(memo.running());
    const Refined<std::string> still = memo.get(4, compute, true);  // no waiting: computed here
    EXPECT_TRUE(still.exact);
    EXPECT_EQ(*still.value, named(Detail::Exact, 4));
    const Refined<std::string> noCoarse = memo.get(5, compute);  // exact at once without one
    EXPECT_TRUE(noCoarse.exact);
    EXPECT_EQ(*noCoarse.value, named(Detail::Exact, 5));
    EXPECT_FALSE(elsewhere);
}

// A clock the test moves by hand.
struct FakeClock {
    std::chrono::steady_clock::time_point now{};
    std::function<std::chrono::steady_clock::time_point()> function() {
        return [this] { return now; };
    }
};

TEST(RefiningMemoTest, PacedJobsForAMovingKeyStartAnIntervalApart) {
    using namespace std::chrono_literals;
    Memo memo;
    FakeClock clock;
    memo.pace(200ms, clock.function());
    std::atomic<int> exactCalls{0};
    auto compute = [&](int key, Detail detail, const std::atomic<bool>&) {
        if (detail == Detail::Exact) ++exactCalls;
        return named(detail, key);
    };
    ASSERT_TRUE(untilExact(memo, 1, compute, false).exact);  // the first starts at once (t = 0)
    ASSERT_FALSE(memo.running());
    clock.now += 100ms;
    const Refined<std::string> moving = memo.get(2, compute);  // 100 ms after the last start
    EXPECT_FALSE(memo.running());
    ASSERT_NE(moving.value, nullptr);
    EXPECT_EQ(*moving.value, named(Detail::Exact, 1));  // the last exact value stands in
    EXPECT_FALSE(moving.current);
    clock.now += 99ms;
    memo.get(3, compute);  // 199 ms: still too soon
    EXPECT_FALSE(memo.running());
    clock.now += 1ms;
    memo.get(4, compute);  // 200 ms: its turn
    EXPECT_TRUE(memo.running());
    ASSERT_TRUE(untilExact(memo, 4, compute, false).exact);
    EXPECT_EQ(exactCalls.load(), 2);  // 2 and 3 were never computed
    clock.now += 10ms;
    memo.get(5, compute);  // moved, 10 ms after the last start: waits
    EXPECT_FALSE(memo.running());
    memo.get(5, compute);  // held still: starts at once, whatever the pace
    EXPECT_TRUE(memo.running());
    const Refined<std::string> settled = untilExact(memo, 5, compute, false);
    ASSERT_TRUE(settled.exact);
    EXPECT_EQ(*settled.value, named(Detail::Exact, 5));
    EXPECT_EQ(exactCalls.load(), 3);
}

TEST(RefiningMemoTest, PacedJobsLeaveTheWorkerRestingAsLongAsTheLastRan) {
    using namespace std::chrono_literals;
    Memo memo;
    FakeClock clock;
    memo.pace(200ms, clock.function());
    auto compute = [](int key, Detail detail, const std::atomic<bool>&) {
        return named(detail, key);
    };
    memo.get(1, compute);  // starts at t = 0
    EXPECT_TRUE(memo.running());
    clock.now += 300ms;  // seen finished 300 ms later: the next may start at 600 ms
    ASSERT_TRUE(untilExact(memo, 1, compute, false).exact);
    clock.now += 299ms;
    memo.get(2, compute);  // 599 ms after the last start: past 200 ms, but 2 x 300 ms not yet
    EXPECT_FALSE(memo.running());
    clock.now += 1ms;
    memo.get(3, compute);
    EXPECT_TRUE(memo.running());
    EXPECT_TRUE(untilExact(memo, 3, compute, false).exact);
}

TEST(RefiningMemoTest, PacedSynchronousComputesAnIntervalApartOrOnceStill) {
    using namespace std::chrono_literals;
    const ThreadsAfterwards restore;
    setBackgroundWork(BackgroundWork::Synchronous);
    Memo memo;
    FakeClock clock;
    memo.pace(200ms, clock.function());
    auto compute = [](int key, Detail detail, const std::atomic<bool>&) {
        return named(detail, key);
    };
    EXPECT_EQ(*memo.get(1, compute).value, named(Detail::Exact, 1));  // the first: at once
    clock.now += 50ms;
    const Refined<std::string> moving = memo.get(2, compute);
    EXPECT_FALSE(moving.exact);
    EXPECT_EQ(*moving.value, named(Detail::Exact, 1));
    EXPECT_TRUE(memo.get(2, compute).exact);  // still
    clock.now += 200ms;
    EXPECT_TRUE(memo.get(3, compute).exact);  // its turn
}

}  // namespace
}  // namespace poslab
