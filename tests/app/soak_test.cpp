// The GUI driven by random input across every view (the scripted --soak mode). In the ASan
// build (./dev test runs both) this also proves no crash and no leak; here it proves no NaN
// reaches a heatmap texture. Long soaks (10,000+ frames) are run by hand: see the README.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "../core/io/fake_checkpoint.hpp"
#include "process.hpp"
#include "state/app_state.hpp"
#include "state/session_format.hpp"

namespace poslab::test {
namespace {

TEST(SoakTest, RandomInputAcrossEveryView) {
    if (runShell("command -v xvfb-run").exitCode != 0) GTEST_SKIP() << "xvfb-run not installed";
    // Random clicks may press Export or Screenshot: run where stray files do no harm.
    const std::string dir = temporaryDirectory("soak");
    for (const char* seed : {"1", "2"}) {
        auto result = runShell("cd " + shellQuote(dir) +
                               " && xvfb-run -a -s '-noreset -screen 0 1440x900x24' " +
                               shellQuote(POSLAB_BINARY) + " --soak 300 --seed " + seed);
        EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
        EXPECT_NE(result.out.find("no NaN drawn"), std::string::npos) << result.out << result.err;
    }
}

// Hostile sessions, opened with --session and as the remembered session: extreme finite values,
// subnormals, huge sizes, wrong types, deep nesting, huge strings, control characters in paths and
// a FIFO as a table. Each must start, say what it ignored, draw no NaN and quit within seconds.
// One X server for all of them; each run is a short soak across every view.
TEST(SoakTest, HostileSessionsStartAndQuit) {
    if (runShell("command -v xvfb-run").exitCode != 0) GTEST_SKIP() << "xvfb-run not installed";
    const std::string dir = temporaryDirectory("hostile");
    const std::string fifo = dir + "/table.npy";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    using nlohmann::json;
    const json valid = state::sessionToJson(state::AppState{}, state::SessionLayout{});
    auto with = [&](const std::vector<std::pair<std::string, json>>& changes) {
        json session = valid;
        for (const auto& [pointer, value] : changes) session[json::json_pointer(pointer)] = value;
        return session;
    };
    const double largest = 1.7976931348623157e308, subnormal = 4.9e-324;
    std::string qk;
    for (int i = 0; i < 128; ++i) qk += (i ? "," : "") + std::string(i % 2 ? "-1e154" : "1e154");
    // 5000 nested arrays, spliced into the text after dump(): a json value that deep would
    // overflow this test's own stack when copied (recursively) under AddressSanitizer.
    const json deep = "@DEEP@";
    const std::string deepText = std::string(5000, '[') + "0" + std::string(5000, ']');
    // Five sessions, each several kinds of hostility at once (few processes: each start of the
    // GUI costs a second or two).
    const std::vector<std::pair<std::string, json>> sessions = {
        {"extremes", with({{"/view", "rope"},
                           {"/sinusoidal/params/base", largest},
                           {"/rope/params/base", largest},
                           {"/rope/m", largest},
                           {"/rope/n", -largest},
                           {"/rope/customQuery", qk},
                           {"/rope/customKey", qk},
                           {"/alibi/contentScale", largest},
                           {"/meaning/params/contentScale", largest},
                           {"/intuition/shift/shift", -largest},
                           {"/uiZoom", largest}})},
        {"tiny-and-huge", with({{"/view", "similarity"},
                                {"/learned/std", subnormal},
                                {"/rope/params/scaling/factor", subnormal},
                                {"/sinusoidal/params/seqLen", 2147483647LL},
                                {"/sinusoidal/params/dModel", 1e18},
                                {"/learned/seqLen", 9007199254740993LL},
                                {"/similarity/params/seqLen", 1048576},
                                {"/window/width", 1e300}})},
        {"types", with({{"/view", 42},
                        {"/sinusoidal", "text"},
                        {"/rope/params", json::array({1, 2})},
                        {"/learned/seqLen", "512"},
                        {"/theme", nullptr}})},
        {"deep-and-long", with({{"/window", deep},
                                {"/rope/params/scaling", deep},
                                {"/view", std::string(100000, 'v')},
                                {"/rope/customQuery", std::string(1 << 20, '1')}})},
        {"paths", with({{"/view", "learned"},
                        {"/learned/npyPath", fifo},
                        {"/meaning/tokensPath", fifo},
                        {"/similarity/learnedTablePath", dir + "/\x1b[31mred\n\a.npy"},
                        {"/compare/a/configPath", std::string(1 << 20, 'a')}})},
    };
    const std::vector<std::string> remembered = {"extremes", "types", "paths"};
    std::string script = "cd " + shellQuote(dir) + "\n";
    for (std::size_t i = 0; i < sessions.size(); ++i) {
        std::string text = sessions[i].second.dump();  // control characters as \u001b
        for (std::size_t at; (at = text.find("\"@DEEP@\"")) != std::string::npos;)
            text.replace(at, 8, deepText);
        const std::string name = sessions[i].first;
        std::ofstream(dir + "/" + name + ".json") << text;
        std::filesystem::create_directories(dir + "/cfg-" + name + "/poslab");
        std::ofstream(dir + "/cfg-" + name + "/poslab/session.json") << text;
        const std::string run = "timeout 30 " + shellQuote(POSLAB_BINARY) + " --soak 10 --seed 1";
        script += "/usr/bin/time -f %e -o " + name + ".time " + run + " --session " + name +
                  ".json >" + name + ".out 2>" + name + ".err; echo $? >" + name + ".rc\n";
        if (std::find(remembered.begin(), remembered.end(), name) == remembered.end()) continue;
        script += "XDG_CONFIG_HOME=$PWD/cfg-" + name + " /usr/bin/time -f %e -o " + name +
                  ".rtime " + run + " --remember >" + name + ".rout 2>" + name +
                  ".rerr; echo $? >" + name + ".rrc\n";
    }
    std::ofstream(dir + "/run.sh") << script;
    auto all = runShell("xvfb-run -a -s '-noreset -screen 0 1440x900x24' sh " +
                        shellQuote(dir + "/run.sh"));
    ASSERT_EQ(all.exitCode, 0) << all.err;
    auto contents = [&](const std::string& file) { return readFile(dir + "/" + file); };
    double slowest = 0;
    for (const auto& [name, session] : sessions) {
        for (const std::string mode : {"", "r"}) {
            if (mode == "r" &&
                std::find(remembered.begin(), remembered.end(), name) == remembered.end())
                continue;
            SCOPED_TRACE(name + (mode.empty() ? " --session" : " remembered"));
            const std::string err = contents(name + "." + mode + "err");
            EXPECT_EQ(contents(name + "." + mode + "rc"), "0\n") << err;
            EXPECT_NE(contents(name + "." + mode + "out").find("no NaN drawn"), std::string::npos)
                << err;
            const double seconds =
                std::atof(contents(name + "." + (mode.empty() ? "" : "r") + "time").c_str());
            slowest = std::max(slowest, seconds);
            EXPECT_LT(seconds, 20.0);
            // Every line it printed is one escaped line: no raw escape or bell from a path.
            EXPECT_EQ(err.find('\x1b'), std::string::npos) << err;
            EXPECT_EQ(err.find('\x07'), std::string::npos) << err;
            // Values out of range and wrong types are reported, one line each, naming the key.
            if (name != "paths") {
                EXPECT_NE(err.find("poslab: "), std::string::npos) << "no error line";
            }
        }
    }
    struct stat info {};
    ASSERT_EQ(::stat(fifo.c_str(), &info), 0);
    EXPECT_TRUE(S_ISFIFO(info.st_mode));  // opened as a table, never replaced or blocked on
    RecordProperty("slowest_seconds", std::to_string(slowest));
}

// --check-layout's summary line for one size: how many tabs and panels it visited and its faults
// by kind; `lines` are the lines printed for that size (from the previous summary on).
struct LayoutSummary {
    std::string size, lines;
    int views = 0, shown = 0, figures = 0, faults = 0;
    int overlapping = 0, outside = 0, overData = 0, cut = 0, small = 0, narrowControls = 0;
};
// Every size's summary in the order checked (--layout-sizes runs several in one process).
std::vector<LayoutSummary> layoutSummaries(const std::string& out) {
    const std::regex line(R"(check-layout: (\d+) views, (\d+) tabs and panels, (\d+) figures at )"
                          R"((\d+x\d+( presentation)?), (\d+) faults \((\d+) overlapping, (\d+) )"
                          R"(outside, (\d+) over data, (\d+) cut, (\d+) small, (\d+) narrow )"
                          R"(controls\))");
    std::vector<LayoutSummary> summaries;
    std::size_t from = 0;
    for (auto it = std::sregex_iterator(out.begin(), out.end(), line); it != std::sregex_iterator();
         ++it) {
        const std::smatch& m = *it;
        auto n = [&](int i) { return std::stoi(m[i].str()); };
        const std::size_t at = std::size_t(m.position(0));
        summaries.push_back({m[4].str(), out.substr(from, at - from), n(1), n(2), n(3), n(6), n(7),
                             n(8), n(9), n(10), n(11), n(12)});
        from = at + std::size_t(m.length(0));
    }
    return summaries;
}

// --check-layout names each view it visits at the start of a line ("Context / cope / panel 2:
// 1 figures, ..."). In a window whose tab bar fits on one row the list of views was taken from
// the visible tab one frame after selecting each, so it held the first view twice and never the
// last: the Context view (CoPE, DeBERTa, NoPE and iRoPE, randomized positions) went unchecked at
// 1440x900, 1024x768 without presentation mode and 480x320. The views are the tab bar's, in order,
// and no tab or panel is named twice (LayoutAuditTest.VisitsEveryViewOnce checked the order and
// Sinusoidal's one line at 480x320 in a process of its own; the test below checks both there, on
// the same lines, and the order at every size). Returns Sinusoidal's lines (a panel each where
// its panels are shown one at a time).
int expectEveryViewOnceInOrder(const LayoutSummary& summary) {
    const std::vector<std::string> views = {
        "Sinusoidal", "RoPE",    "Vision RoPE", "ALiBi",         "T5",      "Relative", "Learned",
        "Similarity", "Meaning", "Intuitions",  "Extrapolation", "Compare", "Context"};
    // Each view's lines in one run, in tab order, and Sinusoidal (no tabs, no panels) on one.
    std::vector<std::string> order;
    std::set<std::string> names;
    int sinusoidalLines = 0;
    std::size_t start = 0;
    const std::string& out = summary.lines;
    while (start < out.size()) {
        const std::size_t end = std::min(out.find('\n', start), out.size());
        const std::string line = out.substr(start, end - start);
        start = end + 1;
        const std::size_t colon = line.find(": ");
        if (line.empty() || line[0] == ' ' || colon == std::string::npos ||
            line.find(" figures, ") == std::string::npos)
            continue;
        const std::string view = line.substr(0, std::min(colon, line.find(" / ")));
        if (view == "Sinusoidal") ++sinusoidalLines;
        if (order.empty() || order.back() != view) order.push_back(view);
        EXPECT_TRUE(names.insert(line.substr(0, colon)).second) << summary.size << line;
    }
    EXPECT_EQ(order, views) << summary.size << out;
    return sinusoidalLines;
}

// One window size (and presentation mode): every tab of every view and every panel of a view
// that shows them one at a time (--check-layout). No text over another or past its figure's edge,
// on the first tab of each view (what the check used to visit); texts over data, cut short
// (1024x768 and up) or below the presentation size (F5) are counted against what was left when
// these checks were written (#28), so they can only shrink. Presentation's small texts are the
// seven figures issue #28 lists as not yet scaled; 480x320's overlaps are in tabs the check did
// not visit before (Learned Structure, Meaning's add-vs-concat panels, Relative colour bars).
struct KnownFaults {
    int overlapping = 0, outside = 0, overData = 0, cut = 0, small = 0;
};
// The RoPE view's Layers tab with each config the check is given and its Usage tab with a
// checkpoint (without data both show only a note; --check-layout checked nothing else there
// until session 23): each visited once, with its file read, at every size.
const std::vector<std::string> kLayoutConfigs = {"gemma-3-4b-it.json",
                                                 "llama-4-scout-17b-16e-instruct.json"};
int linesStartingWith(const std::string& text, const std::string& start) {
    int count = 0;
    for (std::size_t at = 0; at < text.size(); at = text.find('\n', at) + 1) {
        if (text.compare(at, start.size(), start) == 0) ++count;
        if (text.find('\n', at) == std::string::npos) break;
    }
    return count;
}
void expectDataTabsChecked(const LayoutSummary& summary) {
    for (const std::string& config : kLayoutConfigs)
        EXPECT_EQ(linesStartingWith(summary.lines, "RoPE / layers of " + config + ": 1 figures"), 1)
            << summary.size << summary.lines;
    // One line, or one per panel where they are shown one at a time.
    EXPECT_GE(linesStartingWith(summary.lines, "RoPE / usage of ckpt"), 1)
        << summary.size << summary.lines;
    EXPECT_EQ(summary.lines.find("was not"), std::string::npos) << summary.size << summary.lines;
}
// Returns Sinusoidal's lines (expectEveryViewOnceInOrder).
int expectLayoutWithin(const LayoutSummary& summary, KnownFaults known) {
    const std::string& size = summary.size;
    EXPECT_EQ(summary.views, 13) << size << summary.lines;
    // Every figure tab (RoPE's 9, Learned's 2, ...) and panel, not only each view's first.
    EXPECT_GE(summary.shown, 30) << size << summary.lines;
    EXPECT_LE(summary.overlapping, known.overlapping) << size << summary.lines;
    EXPECT_LE(summary.outside, known.outside) << size << summary.lines;
    EXPECT_LE(summary.overData, known.overData) << size << summary.lines;
    EXPECT_LE(summary.cut, known.cut) << size << summary.lines;
    EXPECT_LE(summary.small, known.small) << size << summary.lines;
    // A control narrower than its value's text (a seed's digits cut by its - and + buttons: the
    // Learned view's seed at 480x320), at every size.
    EXPECT_EQ(summary.narrowControls, 0) << size << summary.lines;
    // Controls shown only in some state are visited in it, their controls alone (ALiBi's seed
    // behind "random content logits", RoPE's typed-in q and k, Compare's config paths, ...).
    for (const char* hidden :
         {"RoPE / typed-in q and k", "ALiBi / random content logits", "T5 / per-bucket bias values",
          "Similarity / a learned table", "Compare / config paths"})
        EXPECT_EQ(linesStartingWith(summary.lines,
                                    std::string(hidden) + " (controls): 0 narrow controls"),
                  1)
            << size << hidden << summary.lines;
    expectDataTabsChecked(summary);
    ::testing::Test::RecordProperty("layout_" + size, std::to_string(summary.faults));
    return expectEveryViewOnceInOrder(summary);
}

// A laptop (1440x900); a projector: 1024x768 in presentation mode (fonts and lines 1.75 times
// larger), and at the same size with the controls beside the figures; and a paper's column or a
// small window: 480x320 (the controls take at most 45 % of it) reflows its panels or shows them
// one at a time. One GUI process checks the four (--layout-sizes resizes its window and switches
// presentation mode): a process of its own for each cost a GUI start and the views' data again.
TEST(PresentationTest, EveryViewAtEveryWindowSizeKeepsItsTextApartAndInside) {
    if (runShell("command -v xvfb-run").exitCode != 0) GTEST_SKIP() << "xvfb-run not installed";
    const std::string dir = temporaryDirectory("layout");
    // A checkpoint of a modest model's shape: 16 layers, 8 heads, 32 pairs a head.
    fake::Model model;
    model.layers = 16, model.heads = 8, model.kvHeads = 4, model.headDim = 64;
    model.rotatedDims = 64, model.hidden = 32;
    fake::writeModel(dir + "/ckpt", model);
    std::string configs;
    for (const std::string& config : kLayoutConfigs)
        configs +=
            (configs.empty() ? "" : ",") + std::string(POSLAB_TEST_DATA_DIR) + "/configs/" + config;
    const auto result =
        runShell("cd " + shellQuote(dir) + " && XDG_CONFIG_HOME=" + shellQuote(dir) +
                 " xvfb-run -a -s '-noreset -screen 0 1440x900x24' " + shellQuote(POSLAB_BINARY) +
                 " --fresh --window-size 1440x900 --check-layout"
                 " --layout-sizes 1024x768:presentation,1024x768,480x320 --layout-configs " +
                 shellQuote(configs) + " --layout-checkpoint ckpt");
    const std::vector<LayoutSummary> summaries = layoutSummaries(result.out);
    ASSERT_EQ(summaries.size(), 4u) << result.out << result.err;
    int faults = 0;
    for (const LayoutSummary& summary : summaries) faults += summary.faults;
    EXPECT_EQ(result.exitCode, faults == 0 ? 0 : 1) << result.err;
    const std::vector<std::string> sizes = {"1440x900", "1024x768 presentation", "1024x768",
                                            "480x320"};
    for (std::size_t i = 0; i < sizes.size(); ++i) EXPECT_EQ(summaries[i].size, sizes[i]);
    // 1440x900 (a laptop).
    // Was {0, 0, 6, 3, 0}, then {0, 0, 2, 2, 0} (Frequencies' closest-pair note and
    // Extrapolation's "trained" over data).
    expectLayoutWithin(summaries[0], {0, 0, 0, 0, 0});
    // 1024x768 in presentation mode.
    // None left: a line's label with no free place is listed in the legend (a dashed key), a
    // legend with no free place inside goes beside or below the plot, notes wrap. (Before #28's
    // placement work: 11 over data, 20 cut; then {0, 0, 5, 2, 0}.) Small: figure text under
    // 80 % of the projector's body size (19.6 px) or a title under 80 % of its title size
    // (23.8 px), where the check used to pass anything from the screen's 14 px up: 37 found,
    // 34 once a y label no longer shrinks past 80 % (squeezed figure titles, composite views
    // drawn at a reduced scale, colour-bar labels), then 5 (colour-bar captions on two rotated
    // columns, figure titles on two full-size lines, Why position's words at full size), then
    // none (fitting stops at the same 80 % the check asks for, so two "training length" labels
    // went above the plot or into the legend and NoPE's sampling note wrapped; two titles
    // shortened to fit one full-size line).
    expectLayoutWithin(summaries[1], {0, 0, 0, 0, 0});
    // The same window with the controls beside the figures (the comment above promised it; not
    // checked until session 15): 7 texts cut (Binary clock's two narrow heatmaps' titles and x
    // label, Similarity's colour-bar caption, Compare's cosine title) and T5 panel 3's
    // "max_distance 128" over data. A ceiling, so that it only goes down. None since session 16:
    // T5's edge labels are marker labels, placed where they hide no step of the curve; titles
    // and x labels of a narrow heatmap use its colour bar's width, a square map's caption takes
    // two lines on its short bar, a plot's short title stands in for a cut one.
    expectLayoutWithin(summaries[2], {0, 0, 0, 0, 0});
    // 480x320.
    // Over data: 23, then 36 once legend boxes over data were counted as well (13 legends),
    // then 33, then 30 (M-RoPE's pairs caption fitted beside its key in a window this short
    // instead of wrapped under it, which squeezed the position plot to a strip). The legends
    // left on data there sit in plots under 60 px tall: below them, even side by side, the plot
    // would keep under 1.5 lines of text (line_plot's kShortPlotLines). Then {3, 0, 26, 0, 0}:
    // a window with under 18 lines for its figures lays them out on a page 24 lines tall, which
    // scrolls (Meaning's add-vs-concat keeps its heatmap over the paragraph; the two-key legends
    // fit beside their curves), and Similarity stacks its map over its curve when the two side by
    // side would leave the map under 16 lines wide. Then {1, 0, 11, 0, 0}: Sinusoidal's and
    // stacked Similarity's curves keep 14 lines, add-vs-concat keeps a twelve-line map, and a
    // legend the view draws itself (RoPE precision) moves below the plot as the plot's own does.
    // Then {1, 0, 9, 0, 0}: a note with no free place takes the least crowded corner, binary
    // clock's keys go above its stack of short bit plots. Left: notes and marker labels that
    // views place by hand (T5's max_distance, Extrapolation's training lines on heatmaps,
    // Near-orthogonality's sample note, RoPE's training length), rope-ab's y label on a tick.
    // Then {0, 0, 2, 0, 0}: T5's edge labels placed as marker labels (or dashed legend keys), a
    // heatmap too narrow for its side strip names its horizontal lines above the plot (RoPE's
    // training length, Extrapolation's "trained" and "table ends"), a line plot's left margin
    // fits the y tick labels of its final height, and Near-orthogonality's short histogram
    // names its dashed lines by their marker and keeps the std alone as its note. Left: the
    // spread plot's legend there (it drops its second key too) and Extrapolation's
    // "distance i − j". Then {0, 0, 1, 0, 0} with the other session-16 branches merged:
    // Extrapolation's ALiBi names its heads by slope alone in a short plot (its x label sat on
    // the curves of a plot squeezed flat by two-row keys), and "distance i − j" is clear. Left:
    // Near-orthogonality's spread-plot legend. None since session 17: stacked on screen, the
    // spread plot names its sample "sampled" and its two keys take one row below it.
    // Sinusoidal (no tabs, no panels at this size) on one line: the first view, once.
    EXPECT_EQ(expectLayoutWithin(summaries[3], {0, 0, 0, 0, 0}), 1) << summaries[3].lines;
}

TEST(PresentationTest, WindowSizeIsChecked) {
    for (const char* bad : {"100x768", "1024x", "1024x768x2", "wide", "9000x900"}) {
        auto refused = runPoslab({"--window-size", bad}, "DISPLAY= ");
        EXPECT_EQ(refused.exitCode, 2) << bad;
        EXPECT_EQ(refused.err,
                  "poslab: --window-size must be WxH within 320x240..8192x8192 (got '" +
                      std::string(bad) + "')\n")
            << bad;
    }
}

// --layout-sizes is read before any window opens: a mistake is one line naming the entry.
TEST(PresentationTest, LayoutSizesAreCheckedBeforeAWindowOpens) {
    const ProcessResult alone = runPoslab({"--layout-sizes", "480x320"}, "DISPLAY= ");
    EXPECT_EQ(alone.exitCode, 2);
    EXPECT_EQ(alone.err, "poslab: --layout-sizes needs --check-layout\n");
    // The data for RoPE's Layers and Usage tabs likewise.
    for (const char* option : {"--layout-configs", "--layout-checkpoint"}) {
        const ProcessResult without = runPoslab({option, "config.json"}, "DISPLAY= ");
        EXPECT_EQ(without.exitCode, 2) << option;
        EXPECT_EQ(without.err, "poslab: " + std::string(option) + " needs --check-layout\n");
    }
    for (const char* bad : {"1024x768:f5", "12x9:presentation", ":presentation"}) {
        const ProcessResult refused = runPoslab(
            {"--check-layout", "--layout-sizes", std::string("480x320,") + bad}, "DISPLAY= ");
        EXPECT_EQ(refused.exitCode, 2) << bad;
        EXPECT_EQ(refused.err,
                  "poslab: --layout-sizes entries must be WxH or WxH:presentation within "
                  "320x240..8192x8192 (got '" +
                      std::string(bad) + "')\n")
            << bad;
    }
}

// A --layout-sizes size larger than the X screen: X lets the window grow past the screen, so
// the check ran and measured a clipped window. It is refused before any check, in one line
// naming the size and the screen's, exit 2.
TEST(PresentationTest, LayoutSizesLargerThanTheScreenAreRefused) {
    if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not installed";
    const std::string dir = temporaryDirectory("layout-screen");
    const ProcessResult result =
        runShell("cd " + shellQuote(dir) + " && XDG_CONFIG_HOME=" + shellQuote(dir) +
                 " xvfb-run -a -s '-noreset -screen 0 1024x768x24' " + shellQuote(POSLAB_BINARY) +
                 " --fresh --window-size 800x600 --check-layout --layout-sizes 480x320,1440x900");
    EXPECT_EQ(result.exitCode, 2) << result.out;
    EXPECT_EQ(result.err, "poslab: --layout-sizes 1440x900 is larger than the screen (1024x768)\n");
    EXPECT_EQ(result.out.find("check-layout:"), std::string::npos) << result.out;
}

// The frame-time benchmarks (README, Benchmarks): one process runs every scenario (one per view
// and tab) for a few frames and reports each. Small sizes here (--bench-seq-len, --bench-d-model:
// every scenario's other settings, what moves and the reporting are the same), in a small
// window; the largest sizes are the README's run. At the scenarios' own largest sizes this one
// test took 34 s in Release and 74 s under ASan, the longest in the suite.
TEST(BenchTest, EveryScenarioReportsItsFrames) {
    if (runShell("command -v xvfb-run").exitCode != 0) GTEST_SKIP() << "xvfb-run not installed";
    const std::string dir = temporaryDirectory("bench");
    auto result =
        runShell("cd " + shellQuote(dir) + " && xvfb-run -a -s '-noreset -screen 0 1440x900x24' " +
                 shellQuote(POSLAB_BINARY) +
                 " --fresh --window-size 800x600 --bench-seq-len 64 --bench-d-model 32"
                 " --bench-frames 2 --bench-scenario all");
    EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
    // clang-format off
    const std::vector<std::string> scenarios = {
        "slider", "pan-zoom", "sinusoidal-max", "rope-rotation", "rope-pan-zoom", "rope-scores",
        "rope-frequencies", "rope-decay", "rope-precision", "rope-layers", "rope-scalings",
        "vision-mrope", "vision-axial", "alibi", "t5", "learned-table", "learned-structure",
        "similarity-rope", "similarity-learned", "meaning-terms", "meaning-orthogonality",
        "meaning-add-vs-concat", "intuition-binary-clock", "intuition-linear-shift",
        "intuition-attention-shuffle", "intuition-frequency-resolution", "extrapolation",
        "compare-all", "compare-rope-ab"};
    // clang-format on
    std::size_t reported = 0;
    for (std::size_t at = 0; (at = result.out.find("frames 2 ", at)) != std::string::npos; ++at) {
        ++reported;
    }
    EXPECT_GE(reported, scenarios.size()) << result.out;
    for (const std::string& scenario : scenarios) {
        EXPECT_NE(result.out.find("scenario " + scenario + " ("), std::string::npos)
            << scenario << result.out;
    }
    EXPECT_NE(result.out.find("scenario rope-pan-zoom (RoPE: "), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("resident memory"), std::string::npos) << result.out;
    // Every view has at least one scenario: the tab titles --check-layout walks through.
    for (const char* view : {"Sinusoidal", "RoPE", "Vision RoPE", "ALiBi", "T5", "Learned",
                             "Similarity", "Meaning", "Intuitions", "Extrapolation", "Compare"}) {
        EXPECT_NE(result.out.find("(" + std::string(view) + ": "), std::string::npos) << view;
    }
    auto bad = runPoslab({"--bench-frames", "3", "--bench-scenario", "zoom"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_EQ(bad.err.rfind("poslab: --bench-scenario must be all or one of slider, pan-zoom, ", 0),
              0u)
        << bad.err;
    EXPECT_NE(bad.err.find("compare-rope-ab (got 'zoom')\n"), std::string::npos) << bad.err;
    // A list names each scenario (a,b: in turn in one process); any unknown one is the error.
    auto badInList = runPoslab({"--bench-frames", "3", "--bench-scenario", "slider,zoom"});
    EXPECT_EQ(badInList.exitCode, 2);
    EXPECT_NE(badInList.err.find("compare-rope-ab (got 'zoom')\n"), std::string::npos)
        << badInList.err;
}

}  // namespace
}  // namespace poslab::test
