// vision_rope_state.hpp — what the user has chosen in the Vision RoPE view: plain parameters, no
// caches (see app_state.hpp).
#pragma once

#include <string>
#include <vector>

#include "poslab/encodings/axial_rope.hpp"
#include "poslab/encodings/multimodal_rope.hpp"
#include "state/enum_names.hpp"

namespace poslab::state {

// The figure tabs (saved by name).
enum class VisionRopeFigureId { Multimodal, Axial };
inline constexpr EnumNames<VisionRopeFigureId, 2> kVisionRopeFigureNames{
    "figure", {{{VisionRopeFigureId::Multimodal, "mrope"}, {VisionRopeFigureId::Axial, "axial"}}}};

inline constexpr const char* kDefaultMropePrompt = "text:5,image:1x28x42,text:3,video:4x14x14";

struct VisionRopeViewState {
    VisionRopeFigureId figure = VisionRopeFigureId::Multimodal;

    // ---- Multimodal RoPE (Qwen2-VL family)
    std::string prompt = kDefaultMropePrompt;  // parseMropePrompt syntax
    MropeSettings mrope;                       // Qwen2-VL-7B's by default

    // ---- 2-D axial RoPE (vision transformers)
    AxialRopeParams axial;

    // ---- config.json (path field and Load button)
    std::string configPath;
    std::string configLoaded;              // one line about the last file loaded ("" if none)
    std::vector<std::string> configNotes;  // what the reader noted
    std::string configError;               // why the last attempt failed ("" if it did not)
    friend bool operator==(const VisionRopeViewState&, const VisionRopeViewState&) = default;
};

}  // namespace poslab::state
