// key_help.hpp — the keys PosLab answers to, listed once: the Help menu shows them, and the
// first start's status line points at the Tour (keys a lecturer needs before opening a menu).
#pragma once

#include <array>
#include <string_view>

namespace poslab::ui {

struct KeyHelp {
    std::string_view keys;  // as printed: "Ctrl+Tab"
    std::string_view what;  // one short line
};

inline constexpr std::array<KeyHelp, 15> kKeyHelp{{
    {"F5", "presentation mode: large text for a projector, controls hidden"},
    {"F11", "full screen (Esc leaves it, then presentation mode)"},
    {"Ctrl+Tab", "hide or show the controls (also in presentation mode)"},
    {"Left / Right", "the tour: previous / next step (Page Up / Page Down too)"},
    {"Up / Down", "a view shown one panel at a time: previous / next panel"},
    {"Ctrl+= / Ctrl+-", "zoom the interface in / out (Ctrl+0: actual size)"},
    {"Space", "RoPE: play or pause the rotation"},
    {"Ctrl+E", "export the view: PNG, SVG or PDF, its numbers as CSV or NPY"},
    {"F12", "screenshot of the window (PNG in the working directory)"},
    {"Ctrl+Q", "quit"},
    {"Wheel", "over a heatmap: zoom positions (Shift+wheel: dimensions)"},
    {"Drag", "pan a zoomed heatmap; turn a 3-D trajectory"},
    {"Double-click", "reset a heatmap's zoom"},
    {"Hover", "a cell's value and its formula"},
    {"Esc", "leave full screen, then presentation mode, then the tour"},
}};

// The status line's first words on a first start (no session remembered, none opened).
inline constexpr std::string_view kFirstStartHint =
    "New to PosLab? Tour > 1 (or --lesson 1) walks through it; Left/Right step, F5 presents. "
    "Help lists the keys.";

}  // namespace poslab::ui
