// rope_usage_state.hpp — what the user has chosen in the RoPE view's Usage tab: which checkpoint
// and how to look at it. The measure itself is a cache in the tab (panels/rope_usage_tab.hpp).
#pragma once

#include <string>

#include "poslab/views/rope_usage_figures.hpp"

namespace poslab::state {

enum class UsagePairing { FromConfig, Half, Interleaved };  // the --pairing override

struct RopeUsageState {
    std::string checkpointPath;  // a folder, an index or a .safetensors file ("" none yet)
    RopeUsageViewParams figure;  // layer shown head by head, p-RoPE fraction
    UsagePairing pairing = UsagePairing::FromConfig;
    int selectedPanel = 0;  // when the figure shows one panel at a time
    friend bool operator==(const RopeUsageState&, const RopeUsageState&) = default;
};

}  // namespace poslab::state
