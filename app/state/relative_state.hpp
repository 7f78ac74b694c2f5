// relative_state.hpp — what the user chose in the Relative view (xPos, KERPLE, Sandwich, FIRE and
// the family picture): the tab and core's figure options, which hold every parameter. A plug-in
// state (app/encodings/relative_encoding.cpp) under kRelativeKey in AppState::plugins and in
// sessions.
#pragma once

#include "poslab/views/relative_figures.hpp"
#include "state/enum_names.hpp"

namespace poslab::state {

inline constexpr const char* kRelativeKey = "relative";  // session section, lessons key

inline constexpr EnumNames<RelativeTab, 5> kRelativeTabNames{"tab",
                                                             {{{RelativeTab::Family, "family"},
                                                               {RelativeTab::Xpos, "xpos"},
                                                               {RelativeTab::Kerple, "kerple"},
                                                               {RelativeTab::Sandwich, "sandwich"},
                                                               {RelativeTab::Fire, "fire"}}}};

struct RelativeViewState {
    RelativeTab tab = RelativeTab::Family;  // the tab shown, and what File > Export writes
    RelativeFigureOptions options;          // every parameter of every tab (core's struct)
    int panel = 0;                          // the panel shown when they come one at a time
    friend bool operator==(const RelativeViewState&,
                           const RelativeViewState&) = default;  // member-wise: caches key on it
};

}  // namespace poslab::state
