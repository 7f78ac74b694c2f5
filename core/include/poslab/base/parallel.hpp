// parallel.hpp — a loop split between the machine's cores.
//
// For work that is large next to the cost of starting a thread (tens of microseconds): a live
// view's per-frame sample, long similarity profiles. The GL driver renders on the same cores, but
// not while a frame's data is being computed, so those cores would otherwise sit idle.
#pragma once

#include <functional>

namespace poslab {

// Calls work(first, last) on contiguous parts of [0, count) that together cover it, one part per
// worker, at most one worker per core and each with at least minimumPerWorker items (so small
// loops run on the calling thread alone); returns when every part is done. The calling thread
// does the first part.
void parallelFor(long long count, long long minimumPerWorker,
                 const std::function<void(long long first, long long last)>& work);

}  // namespace poslab
