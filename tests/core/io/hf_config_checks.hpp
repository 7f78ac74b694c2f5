// hf_config_checks.hpp — what the tests of real config.json files (tests/data/configs) share:
// loading one by name, the plain RoPE frequency written out, and finding a warning.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "poslab/io/hf_config.hpp"

namespace poslab {

inline HfModelConfig load(const std::string& name) {
    auto config = loadHfConfig(std::string(POSLAB_TEST_DATA_DIR) + "/configs/" + name + ".json");
    EXPECT_TRUE(config.ok()) << name << ": " << config.error().message;
    return config.ok() ? *config : HfModelConfig{};
}

// The plain RoPE frequency of pair i with d rotated dims: 1 / base^(2i/d).
inline double plain(double base, int i, int d) {
    return 1.0 / std::pow(base, 2.0 * i / d);
}

inline bool hasLine(const std::vector<std::string>& lines, const std::string& fragment) {
    for (const auto& line : lines)
        if (line.find(fragment) != std::string::npos) return true;
    return false;
}

}  // namespace poslab
