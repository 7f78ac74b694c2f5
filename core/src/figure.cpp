#include "poslab/figure.hpp"

#include <atomic>

namespace poslab {

std::uint64_t nextMatrixVersion() {
    static std::atomic<std::uint64_t> counter{0};
    return ++counter;
}

}  // namespace poslab
