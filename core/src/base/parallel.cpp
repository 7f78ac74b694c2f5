#include "poslab/base/parallel.hpp"

#include <algorithm>
#include <thread>
#include <vector>

namespace poslab {

void parallelFor(long long count, long long minimumPerWorker,
                 const std::function<void(long long first, long long last)>& work) {
    if (count <= 0) return;
    const long long most = count / std::max(1LL, minimumPerWorker);  // workers the items allow
    // The core count asked once: glibc reads it from /sys on every call (an open, a read and a
    // close), which was most of the system time of loops that call this per small item.
    static const long long cores = std::max(1u, std::thread::hardware_concurrency());
    const long long workers = most <= 1 ? 1 : std::min(most, cores);
    if (workers == 1) {
        work(0, count);
        return;
    }
    auto bound = [&](long long worker) { return count * worker / workers; };
    std::vector<std::thread> threads;
    threads.reserve(std::size_t(workers - 1));
    for (long long w = 1; w < workers; ++w) threads.emplace_back(work, bound(w), bound(w + 1));
    work(0, bound(1));
    for (std::thread& t : threads) t.join();
}

}  // namespace poslab
