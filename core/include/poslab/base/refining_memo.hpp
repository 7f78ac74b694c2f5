// refining_memo.hpp — a value too slow for one frame, computed off the caller's thread.
//
// Memo's idiom (a value kept while its key stays equal) for work that takes longer than a frame:
// the exact value is computed on a worker thread, and meanwhile get() returns what there is: a
// coarse value for the current key (computed on the caller's thread, when the view has a cheap
// approximation) or the last exact value finished (for an earlier key). With a coarse value the
// exact one starts once the key holds still (the same key on two calls in a row: the slider was
// let go) and a job for a key since left is cancelled; without one the worker keeps computing
// the newest key, so the last finished value follows a moving control. Standard C++ only.
//
//   RefiningMemo<Params, Curves> curves_;
//   const auto shown = curves_.get(params, [](const Params& p, Detail detail,
//                                             const std::atomic<bool>& cancelled) {
//       return detail == Detail::Coarse ? coarseCurves(p) : exactCurves(p, cancelled); });
//   if (!shown.exact) context.waiting = true;  // a screenshot waits for the exact value
//
// compute(key, detail, cancelled) runs on the worker for Detail::Exact: it must capture nothing
// the caller's thread changes (copy what it reads), and may return early, with anything, once
// `cancelled` is set (that value is thrown away). Jobs start through runInBackground
// (base/background.hpp): a thread, or in the page built without threads the queue the main loop
// runs between frames, so the frame that started a job is shown first. A thread that fails to
// start switches to setBackgroundWork(BackgroundWork::Synchronous): every exact value computed
// inside get(), once the key holds still: the same pictures, one slow frame.
//
// Paced (pace(interval), none by default): while the key moves, an exact job starts no sooner
// than `interval` after the last one started, nor before the worker has rested as long as the
// last one ran (busy at most half the time), the last exact value standing in meanwhile; once
// the key holds still the next starts at once. For a value without a coarse one whose every
// arrival costs the caller (a figure drawn whole, several times a usual frame's work): a dragged
// control then gets a few exact values a second instead of one each time the worker is done,
// and the worker's core is free between them.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

#include "poslab/base/background.hpp"
#include "poslab/base/memo.hpp"

namespace poslab {

enum class Detail { Coarse, Exact };  // what a compute is asked for

// ---- Process-wide: may RefiningMemo start threads?
enum class BackgroundWork { Threads, Synchronous };
void setBackgroundWork(BackgroundWork mode);  // before the first get(); Threads by default
BackgroundWork backgroundWork();

// What get() returns for one call.
template <class Value>
struct Refined {
    const Value* value = nullptr;  // nullptr: nothing computed yet (the first exact value runs)
    bool exact = false;            // value is the exact one for the key asked
    bool current = false;          // value is for the key asked (exact, or its coarse value)
    std::uint64_t version = 0;     // changes whenever `value` does (for caches built from it)
};

template <class Key, class Value>
class RefiningMemo {
  public:
    using Clock = std::chrono::steady_clock;
    RefiningMemo() = default;
    explicit RefiningMemo(Clock::duration interval) { pace(interval); }  // paced from the start
    RefiningMemo(const RefiningMemo&) = delete;
    RefiningMemo& operator=(const RefiningMemo&) = delete;
    ~RefiningMemo() { cancelAndJoin(); }  // a running job is told to stop, then waited for

    // ---- Use (once a frame)
    // compute(const Key&, Detail, const std::atomic<bool>& cancelled) -> Value. `coarse`: whether
    // the view has a coarse value (compute is then called with Detail::Coarse on this thread).
    template <class Compute>
    Refined<Value> get(const Key& key, Compute compute, bool coarse = false);
    // The same with no coarse value: the last finished exact value stands in.
    template <class Compute>
    Refined<Value> getExact(const Key& key, Compute compute) {
        return get(key, std::move(compute), false);
    }
    void clear();  // forgets every value and cancels the job (the inputs behind a key changed)
    // While the key moves, exact jobs start at least `interval` apart (see the header's notes);
    // `now` is the clock (a test's own).
    void pace(
        Clock::duration interval,
        std::function<Clock::time_point()> now = [] { return Clock::now(); }) {
        pace_ = interval;
        now_ = std::move(now);
    }

    // ---- State
    bool running() const { return job_ != nullptr; }      // an exact job is on the worker
    const Key* exactKey() const { return exact_.key(); }  // the last exact value's key

  private:
    struct Job {
        Key key;
        std::atomic<bool> cancelled{false};
        std::atomic<bool> done{false};
        std::optional<Value> value;  // written by the worker before `done`
        std::exception_ptr failure;  // compute threw: rethrown on the caller's thread
        std::future<void> finished;  // runInBackground's: a thread, or the page's frame queue
        explicit Job(const Key& k) : key(k) {}
    };
    // The finished job's value becomes the exact one (unless it was cancelled).
    void collect();
    void cancelAndJoin();
    template <class Compute>
    bool start(const Key& key, Compute compute);  // false: no thread could be started

    Memo<Key, Value> exact_;   // the last exact value and its key
    Memo<Key, Value> coarse_;  // the coarse value of the newest key
    std::optional<Key> last_;  // the key of the previous get(): still when equal
    std::unique_ptr<Job> job_;
    struct Shown {
        const Value* value = nullptr;
        std::uint64_t stored = 0;
        bool operator==(const Shown&) const = default;
    };
    Shown shown_;  // the value returned last: version_ moves when it changes
    std::uint64_t version_ = 0;
    Clock::duration pace_{0};                     // 0: not paced
    Clock::duration lastRun_{0};                  // how long the last exact compute took (paced)
    std::function<Clock::time_point()> now_;      // set with pace_
    std::optional<Clock::time_point> lastStart_;  // when the last exact compute started (paced)
};

// ---------------------------------------------------------------------------------------------

template <class Key, class Value>
template <class Compute>
Refined<Value> RefiningMemo<Key, Value>::get(const Key& key, Compute compute, bool coarse) {
    collect();
    const bool still = last_ && *last_ == key;
    last_ = key;
    Refined<Value> result;
    auto shown = [&](const Value* value, bool exact, bool current) {
        // Which value this is: the memo it lives in and that memo's count of values stored.
        const Shown now{value, value == exact_.value() ? exact_.version() : coarse_.version()};
        if (!(now == shown_)) ++version_;
        shown_ = now;
        result.value = value;
        result.exact = exact;
        result.current = current;
        result.version = value ? version_ : 0;
        return result;
    };
    if (exact_.holds(key)) {
        if (job_) job_->cancelled = true;  // the control came back to a finished key
        return shown(exact_.value(), true, true);
    }
    // A job for a key since left is stopped when something current can be shown instead.
    if (job_ && coarse && !(job_->key == key)) job_->cancelled = true;
    // Paced: a moving key's exact value waits for its turn (the last one stands in).
    const bool tooSoon = pace_ > Clock::duration::zero() && lastStart_ &&
                         now_() - *lastStart_ < std::max(pace_, 2 * lastRun_);
    const bool wantExact = still || (!coarse && !tooSoon);
    // A page without threads, or a thread that could not start: the exact value is made here.
    if (wantExact && !job_ && backgroundWork() == BackgroundWork::Threads && !start(key, compute))
        setBackgroundWork(BackgroundWork::Synchronous);
    if (wantExact && backgroundWork() == BackgroundWork::Synchronous) {
        if (pace_ > Clock::duration::zero()) lastStart_ = now_();
        const std::atomic<bool> never{false};
        exact_.store(key, compute(key, Detail::Exact, never));
        if (pace_ > Clock::duration::zero()) lastRun_ = now_() - *lastStart_;
        return shown(exact_.value(), true, true);
    }
    if (coarse) {
        const Value& value = coarse_.get(
            key, [&] { return compute(key, Detail::Coarse, std::atomic<bool>{false}); });
        return shown(&value, false, true);
    }
    return shown(exact_.value(), false, false);
}

template <class Key, class Value>
template <class Compute>
bool RefiningMemo<Key, Value>::start(const Key& key, Compute compute) {
    auto job = std::make_unique<Job>(key);
    Job* running = job.get();
    try {
        running->finished = runInBackground([running, compute = std::move(compute)]() mutable {
            try {
                running->value.emplace(compute(running->key, Detail::Exact, running->cancelled));
            } catch (...) {
                running->failure = std::current_exception();
            }
            running->done.store(true, std::memory_order_release);
        });
    } catch (const std::system_error&) {  // a thread could not be started
        return false;
    }
    job_ = std::move(job);
    if (pace_ > Clock::duration::zero()) lastStart_ = now_();
    return true;
}

template <class Key, class Value>
void RefiningMemo<Key, Value>::collect() {
    if (!job_ || !job_->done.load(std::memory_order_acquire)) return;
    job_->finished.wait();
    std::unique_ptr<Job> job = std::move(job_);
    // Seen here, at a frame's start: the run's length to within a frame.
    if (pace_ > Clock::duration::zero() && lastStart_) lastRun_ = now_() - *lastStart_;
    if (job->failure) std::rethrow_exception(job->failure);
    if (!job->cancelled && job->value) exact_.store(job->key, std::move(*job->value));
}

template <class Key, class Value>
void RefiningMemo<Key, Value>::cancelAndJoin() {
    if (!job_) return;
    job_->cancelled = true;
    waitForJob(job_->finished);  // the page without threads runs it here
    job_.reset();
}

template <class Key, class Value>
void RefiningMemo<Key, Value>::clear() {
    cancelAndJoin();
    exact_.clear();
    coarse_.clear();
    last_.reset();
    lastStart_.reset();
    lastRun_ = Clock::duration::zero();
    shown_ = {};
}

}  // namespace poslab
