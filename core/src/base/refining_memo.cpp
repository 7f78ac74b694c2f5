#include "poslab/base/refining_memo.hpp"

namespace poslab {

namespace {
std::atomic<BackgroundWork> gBackgroundWork{BackgroundWork::Threads};
}  // namespace

void setBackgroundWork(BackgroundWork mode) {
    gBackgroundWork.store(mode, std::memory_order_relaxed);
}

BackgroundWork backgroundWork() {
    return gBackgroundWork.load(std::memory_order_relaxed);
}

}  // namespace poslab
