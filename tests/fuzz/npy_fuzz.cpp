// .npy loader: any bytes give a matrix or a one-line error, never a crash or a huge allocation.
#include <cstdint>
#include <string_view>

#include "poslab/io/npy_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto matrix = poslab::parseNpy(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!matrix && matrix.error().message.find('\n') != std::string::npos) __builtin_trap();
    return 0;
}
