// The safetensors header as JSON text (io/safetensors.hpp, parseSafetensorsHeader): mutations
// reach the JSON reader directly — deep nesting, huge key counts, duplicate keys, odd numbers —
// without the 8-byte length in front. A header or a one-line error, never a crash; an accepted
// header's tensors tile its (empty) byte buffer within the caps.
#include <cstdint>
#include <string>
#include <string_view>

#include "poslab/io/safetensors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view header(reinterpret_cast<const char*>(data), size);
    auto parsed = poslab::parseSafetensorsHeader(header, 8 + size, "fuzz");
    if (!parsed) {
        if (parsed.error().message.find('\n') != std::string::npos) __builtin_trap();
        return 0;
    }
    if (parsed->tensors.size() > poslab::kMaxSafetensorsTensors ||
        parsed->metadata.size() > poslab::kMaxSafetensorsMetadata)
        __builtin_trap();
    for (const auto& tensor : parsed->tensors) {
        if (tensor.end != 0 || tensor.begin != 0) __builtin_trap();  // no data bytes follow
    }
    return 0;
}
