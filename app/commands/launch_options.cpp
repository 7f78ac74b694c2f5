#include "commands/launch_options.hpp"

namespace poslab::commands {

std::vector<OptionSpec> launchOptionSpecs() {
    return {
        {"view", "NAME", "open this view first (sinusoidal, rope, alibi, t5, learned, …)"},
        {"lesson", "N", "open the guided tour at lesson N (Tour menu; arrows step)"},
        {"lessons", "FILE",
         "the tour's lessons from FILE (a copy of share/poslab/lessons.json, edited); a bad "
         "file is reported and the built-in lessons remain"},
        {"tour-check", "",
         "step through every lesson in presentation mode, check that each card fits and no "
         "figure's text overlaps, print one line per step, quit (exit 1 on a fault)"},
        {"tour-screenshots", "DIR", "with --tour-check: save each step as DIR/lesson-NN-S.png"},
        {"tour-sizes", "WxH,…",
         "with --tour-check: then every step again at each of these window sizes (the "
         "screenshots as DIR/WxH/lesson-NN-S.png)"},
        {"presentation", "", "start in presentation mode (F5: large text, no controls)"},
        {"export-dialog", "", "open File > Export… at start (with --screenshot: the dialog)"},
        {"window-size", "WxH",
         "the window's size in pixels, 320x240..8192x8192 (default 1440x900 times the monitor's "
         "scale, within its work area)"},
        {"zoom", "Z",
         "interface zoom 0.5..3 on top of the monitor's scale (Ctrl+= / Ctrl+- / Ctrl+0; "
         "remembered in the session)"},
        {"session", "FILE", "open a saved session (File > Save session)"},
        {"save-session", "FILE", "save the session to FILE at exit"},
        {"fresh", "", "ignore the session remembered in ~/.config/poslab"},
        {"remember", "", "use the remembered session even with --screenshot/--bench-frames"},
        {"screenshot", "FILE.png", "save a screenshot after the first frames, then quit"},
        {"bench-frames", "N",
         "time N frames of a heatmap changing, print frame times and resident memory, quit"},
        {"bench-scenario", "NAME",
         "one per view and tab at its largest settings (slider: the sinusoidal base moves, the "
         "default; pan-zoom, rope-pan-zoom, rope-scores, alibi, t5, learned-structure, …: an "
         "unknown name lists them all), or all: every scenario in turn; a,b,…: these in turn"},
        {"bench-seq-len", "L", "positions in the benchmark's table"},
        {"bench-d-model", "D", "dimensions in the benchmark's table (head_dim for RoPE)"},
        {"check-layout", "",
         "open every view, check that no figure text overlaps another or leaves its figure, "
         "print what does, quit (exit 1 on any; tests)"},
        {"layout-screenshots", "DIR",
         "with --check-layout: save each tab and panel checked as DIR/NN-view-tab.png"},
        {"layout-sizes", "WxH[:presentation],…",
         "with --check-layout: then every view again at each of these window sizes, in "
         "presentation mode where :presentation follows (the screenshots in DIR/WxH or "
         "DIR/WxH-presentation)"},
        {"layout-configs", "FILE,…",
         "with --check-layout: the RoPE view's Layers tab again with each of these config.json "
         "files loaded"},
        {"layout-checkpoint", "PATH",
         "with --check-layout: the RoPE view's Usage tab again with this checkpoint (a folder, "
         "index or .safetensors file) read"},
        {"soak", "N", "drive every view with N frames of random input, then quit (tests)"},
        {"seed", "S", "random seed for --soak (default 1)"}};
}

}  // namespace poslab::commands
