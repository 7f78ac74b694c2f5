#include "poslab/base/background.hpp"

#include <deque>
#include <mutex>

namespace poslab {

namespace {

// Only the build without threads fills it; the lock keeps it correct anywhere.
struct JobQueue {
    std::mutex lock;
    std::deque<std::function<void()>> jobs;
};

JobQueue& jobQueue() {
    static JobQueue queue;
    return queue;
}

}  // namespace

void queueJob(std::function<void()> job) {
    JobQueue& queue = jobQueue();
    std::lock_guard guard(queue.lock);
    queue.jobs.push_back(std::move(job));
}

std::size_t runQueuedJobs(std::chrono::steady_clock::duration budget) {
    JobQueue& queue = jobQueue();
    const auto start = std::chrono::steady_clock::now();
    for (bool first = true;; first = false) {
        std::function<void()> job;
        {
            std::lock_guard guard(queue.lock);
            if (queue.jobs.empty()) return 0;
            if (!first && std::chrono::steady_clock::now() - start >= budget)
                return queue.jobs.size();
            job = std::move(queue.jobs.front());
            queue.jobs.pop_front();
        }
        job();  // outside the lock: a job may queue another (a coarse result's fine follow-up)
    }
}

std::size_t queuedJobs() {
    JobQueue& queue = jobQueue();
    std::lock_guard guard(queue.lock);
    return queue.jobs.size();
}

}  // namespace poslab
