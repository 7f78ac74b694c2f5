// background.hpp — work handed off the UI thread, whether or not the platform has threads.
//
// The desktop and the cross-origin isolated page run a job on a thread of its own (std::async).
// The page built without threads (web/: poslab-st.wasm, for hosts that cannot send the isolation
// headers) has none: there a job waits in a queue that the main thread runs between frames
// (runQueuedJobs, at the start of each frame), so the frame that started a job is shown first —
// with the previous or coarse figure and its "computing" note — and a coarse-then-fine chain of
// jobs still shows its coarse result a frame before the fine one. Callers poll the future
// (wait_for(0s) == ready) on either kind of build; a caller that must block uses waitForJob.
//
//   job_ = runInBackground([key] { return heavyFigure(key); });
//   if (job_.valid() && job_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) ...
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <future>
#include <memory>
#include <type_traits>
#include <utility>

namespace poslab {

// ---- Which kind of build this is
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
inline constexpr bool kBackgroundThreads = false;  // the page without threads: a queue
#else
inline constexpr bool kBackgroundThreads = true;  // a thread per job
#endif

// ---- The queue of the build without threads (empty and unused elsewhere)
void queueJob(std::function<void()> job);  // runs job on the main thread at runQueuedJobs
// Runs queued jobs, oldest first, until `budget` has passed since the call (at least one job, so
// every job makes progress whatever its size). Returns how many are left.
std::size_t runQueuedJobs(std::chrono::steady_clock::duration budget);
std::size_t queuedJobs();  // jobs waiting to run

// ---- Starting and waiting
// Starts work() (no arguments, copied or moved into the job) and returns its future.
template <class Work>
auto runInBackground(Work&& work) -> std::future<std::invoke_result_t<std::decay_t<Work>&>> {
    using Value = std::invoke_result_t<std::decay_t<Work>&>;
    if constexpr (kBackgroundThreads) {
        return std::async(std::launch::async, std::forward<Work>(work));
    } else {
        // packaged_task is move-only and std::function copies: share it.
        auto task = std::make_shared<std::packaged_task<Value()>>(std::forward<Work>(work));
        std::future<Value> result = task->get_future();
        queueJob([task] { (*task)(); });
        return result;
    }
}

// Blocks until `job` (from runInBackground, valid) is done. Without threads nothing else would
// ever run it: the queue is run up to and including it first.
template <class Value>
void waitForJob(const std::future<Value>& job) {
    if constexpr (!kBackgroundThreads) {
        while (job.wait_for(std::chrono::seconds(0)) != std::future_status::ready &&
               queuedJobs() > 0) {
            runQueuedJobs(std::chrono::steady_clock::duration::zero());
        }
    }
    job.wait();
}

}  // namespace poslab
