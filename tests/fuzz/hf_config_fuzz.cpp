// Hugging Face config.json reader: any text gives a config or a one-line error.
#include <cstdint>
#include <string_view>

#include "poslab/encodings/rope.hpp"
#include "poslab/io/hf_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto config = poslab::parseHfConfig(std::string_view(reinterpret_cast<const char*>(data), size));
    if (config) {
        // A config that parses must describe valid RoPE parameters or say why not.
        auto frequencies = poslab::ropeFrequencies(config->rope);
        (void)frequencies;
    } else if (config.error().message.find('\n') != std::string::npos) {
        __builtin_trap();
    }
    return 0;
}
