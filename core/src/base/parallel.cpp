#include "poslab/base/parallel.hpp"

#include <algorithm>
#include <thread>
#include <vector>

namespace poslab {

void parallelFor(long long count, long long minimumPerWorker,
                 const std::function<void(long long first, long long last)>& work) {
    if (count <= 0) return;
    const long long cores = std::max(1u, std::thread::hardware_concurrency());
    const long long workers =
        std::clamp<long long>(count / std::max(1LL, minimumPerWorker), 1, cores);
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
