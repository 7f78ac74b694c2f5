// CSV reader: any text gives a matrix or a one-line error.
#include <cstdint>
#include <string_view>

#include "poslab/io/csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto matrix = poslab::parseCsv(std::string_view(reinterpret_cast<const char*>(data), size));
    if (matrix && matrix->rows * matrix->cols != matrix->values.size()) __builtin_trap();
    return 0;
}
