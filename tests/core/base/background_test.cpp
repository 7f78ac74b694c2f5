#include "poslab/base/background.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace poslab {
namespace {

using std::chrono::hours;
using std::chrono::steady_clock;

bool ready(const std::future<int>& job) {
    return job.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

// The queue of the build without threads (the page's poslab-st.wasm), driven by hand here.
TEST(BackgroundTest, QueuedJobsRunOldestFirstAtLeastOnePerCall) {
    ASSERT_EQ(queuedJobs(), 0u);
    std::string order;
    queueJob([&] { order += 'a'; });
    queueJob([&] { order += 'b'; });
    queueJob([&] { order += 'c'; });
    EXPECT_EQ(queuedJobs(), 3u);
    // A zero budget still runs one job: every job makes progress, one frame at a time.
    EXPECT_EQ(runQueuedJobs(steady_clock::duration::zero()), 2u);
    EXPECT_EQ(order, "a");
    EXPECT_EQ(runQueuedJobs(hours(1)), 0u);
    EXPECT_EQ(order, "abc");
    EXPECT_EQ(runQueuedJobs(hours(1)), 0u);  // an empty queue: nothing to do
}

TEST(BackgroundTest, AJobQueuedByAJobRunsInALaterSlice) {
    std::vector<std::string> ran;
    queueJob([&] {
        ran.push_back("coarse");
        queueJob([&] { ran.push_back("fine"); });
    });
    EXPECT_EQ(runQueuedJobs(steady_clock::duration::zero()), 1u);
    EXPECT_EQ(ran, std::vector<std::string>{"coarse"});
    EXPECT_EQ(runQueuedJobs(steady_clock::duration::zero()), 0u);
    EXPECT_EQ(ran, (std::vector<std::string>{"coarse", "fine"}));
}

TEST(BackgroundTest, RunInBackgroundDeliversTheValueAndWaitForJobFinishesIt) {
    std::future<int> job = runInBackground([] { return 6 * 7; });
    waitForJob(job);  // without threads: runs the queue up to this job
    EXPECT_TRUE(ready(job));
    EXPECT_EQ(job.get(), 42);
    EXPECT_EQ(queuedJobs(), 0u);
    if constexpr (!kBackgroundThreads) {
        // Without threads a job waits for the next slice: the frame that started it is shown.
        std::future<int> later = runInBackground([] { return 1; });
        EXPECT_FALSE(ready(later));
        runQueuedJobs(steady_clock::duration::zero());
        EXPECT_TRUE(ready(later));
    }
}

}  // namespace
}  // namespace poslab
