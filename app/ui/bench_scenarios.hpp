// bench_scenarios.hpp — the frame benchmarks (`poslab --bench-frames N --bench-scenario NAME`):
// one per view and tab, each at the largest settings that tab's controls accept, with its
// costliest control moving every frame while the frames are timed (frame_loop.cpp).
//
// A new view or tab adds one row to kBenchScenarios in bench_scenarios.cpp: a name, the tab's
// title, what moves, and two functions (the largest settings; one frame's move).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "state/app_state.hpp"

namespace poslab::ui {

// --bench-seq-len and --bench-d-model (0: each scenario's own largest). Given, they replace the
// scenario's lengths and widths (the suite runs every scenario small this way).
struct BenchSizes {
    int seqLen = 0;
    int dModel = 0;
};

struct BenchScenario {
    const char* name;    // --bench-scenario NAME
    const char* view;    // the tab it opens (Application::selectView takes its title)
    const char* moving;  // what changes every frame, printed with the figures
    void (*setup)(state::AppState& state, const BenchSizes& sizes);  // the largest settings
    void (*step)(state::AppState& state, int frame);                 // one frame's move
};

std::span<const BenchScenario> benchScenarios();                // in tab order
const BenchScenario* findBenchScenario(std::string_view name);  // nullptr: no such scenario
std::string benchScenarioNames();  // "slider, pan-zoom, …" for errors
// --bench-scenario's value split at commas ("rope-precision,rope-layers": in turn, in one run).
std::vector<std::string> benchScenarioList(std::string_view value);
// The pan-zoom cycle (150 frames): zoom into the middle, pan, zoom out again, as wheel and drag.
void panZoomStep(CellWindow& window, int frame, long long rows, long long cols);

}  // namespace poslab::ui
