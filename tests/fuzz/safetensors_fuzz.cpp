// .safetensors reader: any bytes give a header and a table or a one-line error, never a crash,
// an out-of-bounds read or a huge allocation. The first tensor named like a position table (or
// else the first tensor) is decoded, so every dtype path and the offset checks are exercised.
#include <cstdint>
#include <string>
#include <string_view>

#include "poslab/io/position_table.hpp"
#include "poslab/io/safetensors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto header = poslab::parseSafetensors(bytes);
    if (!header) {
        if (header.error().message.find('\n') != std::string::npos) __builtin_trap();
        return 0;
    }
    std::string name;
    if (auto found = poslab::findPositionTable(*header, "fuzz")) {
        name = *found;
    } else if (!header->tensors.empty()) {
        name = header->tensors.front().name;
    } else {
        return 0;
    }
    auto table = poslab::parseSafetensorsTensor(bytes, name);
    if (!table && table.error().message.find('\n') != std::string::npos) __builtin_trap();
    return 0;
}
