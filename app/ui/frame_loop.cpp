#include "ui/frame_loop.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <random>
#include <thread>
#include <utility>

#include <sys/resource.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <nlohmann/json.hpp>
#include "commands/args.hpp"
#include "commands/launch_options.hpp"
#include "commands/option_reader.hpp"
#include "exit_codes.hpp"
#include "gfx/gl_context.hpp"
#include "poslab/base/background.hpp"
#include "poslab/base/format.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/base/limits.hpp"
#include "state/session_format.hpp"
#include "ui/bench_scenarios.hpp"
#include "ui/layout_sweep.hpp"
#include "ui/widgets.hpp"

namespace poslab::ui {

namespace {
constexpr int kMinWindowSide = 320, kMinWindowHeight = 240, kMaxWindowSide = 8192;
}  // namespace

Result<LaunchOptions> parseLaunchOptions(const std::vector<std::string>& arguments) {
    const std::vector<commands::OptionSpec> options = commands::launchOptionSpecs();
    // `poslab FILE [options]` (a desktop entry's %f) or `poslab [options] FILE`: one word that
    // is neither an option nor an option's value is the file, wherever it stands.
    LaunchOptions launch;
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& word = arguments[i];
        if (word.rfind("--", 0) == 0) {
            rest.push_back(word);
            const std::string name = word.substr(2, word.find('=') - 2);
            const bool takesValue =
                word.find('=') == std::string::npos &&
                std::any_of(options.begin(), options.end(), [&](const commands::OptionSpec& o) {
                    return o.name == name && !o.valueName.empty();
                });
            if (takesValue && i + 1 < arguments.size()) rest.push_back(arguments[++i]);
        } else if (launch.openPath.empty()) {
            launch.openPath = word;
        } else {
            return Error{"poslab opens one file at a time (got " +
                         quoteForMessage(launch.openPath) + " and " + quoteForMessage(word) + ")"};
        }
    }
    auto args = commands::parseArguments(rest, options, "poslab");
    if (!args) return args.error();
    commands::OptionReader read(*args);
    if (read.given("zoom")) {  // else 0: the session's zoom
        double zoom = 1;
        read.number("zoom", zoom, state::kMinUiZoom, state::kMaxUiZoom, "0.5..3");
        if (!read.ok()) return read.error();
        launch.zoom = float(zoom);
    }
    read.integer("bench-frames", launch.benchFrames, 0, 1000000);
    if (!read.ok()) return read.error();
    launch.benchScenario = "slider";
    read.text("bench-scenario", launch.benchScenario);
    for (const std::string& name : benchScenarioList(launch.benchScenario)) {
        if (name != "all" && !findBenchScenario(name)) {
            return Error{"--bench-scenario must be all or one of " + benchScenarioNames() +
                         " (got '" + name + "')"};
        }
    }
    // 0 (the default) keeps the scenario's own size; given, the help says 1..max.
    long long benchSeqLen = 0, benchDModel = 0;
    read.integer("bench-seq-len", benchSeqLen);
    if (!read.ok()) return read.error();
    if (benchSeqLen < 0 || benchSeqLen > kMaxSeqLen) {
        return Error{"--bench-seq-len must be 1.." + std::to_string(kMaxSeqLen) + " (got " +
                     std::to_string(benchSeqLen) + ")"};
    }
    launch.benchSeqLen = int(benchSeqLen);
    read.integer("bench-d-model", benchDModel);
    if (!read.ok()) return read.error();
    if (benchDModel < 0 || benchDModel > kMaxDModel) {
        return Error{"--bench-d-model must be 1.." + std::to_string(kMaxDModel) + " (got " +
                     std::to_string(benchDModel) + ")"};
    }
    launch.benchDModel = int(benchDModel);
    read.text("screenshot", launch.screenshotPath);
    read.text("view", launch.initialView);
    read.integer("soak", launch.soakFrames, 0, 10000000);
    long long seed = 1;
    read.integer("seed", seed);
    if (!read.ok()) return read.error();
    launch.soakSeed = static_cast<unsigned long long>(seed);
    // 0 is the default (no tour) but not a lesson: given, N must be 1..1000.
    if (read.given("lesson")) read.integer("lesson", launch.lesson, 1, 1000);
    read.text("lessons", launch.lessonsPath);
    if (!read.ok()) return read.error();
    launch.tourCheck = args->flag("tour-check");
    read.text("tour-screenshots", launch.tourScreenshots);
    if (!launch.tourScreenshots.empty() && !launch.tourCheck)
        return Error{"--tour-screenshots needs --tour-check"};
    launch.presentation = args->flag("presentation");
    launch.exportDialog = args->flag("export-dialog");
    launch.checkLayout = args->flag("check-layout");
    read.text("layout-screenshots", launch.layoutShotsDir);
    if (!launch.layoutShotsDir.empty() && !launch.checkLayout)
        return Error{"--layout-screenshots needs --check-layout"};
    // WxH, both whole numbers in range: "1024x768".
    // `what` names the option in the message: "window-size", "tour-sizes entries".
    auto windowSizeParser = [](std::string what) {
        return [what](std::string_view typed) -> Result<std::pair<int, int>> {
            const std::string text(typed);
            int width = 0, height = 0;
            char extra = 0;
            // Digits and one 'x' only: the one number syntax (no sign, no spaces).
            const bool plain = text.find_first_not_of("0123456789x") == std::string::npos;
            if (!plain || std::sscanf(text.c_str(), "%dx%d%c", &width, &height, &extra) != 2 ||
                width < kMinWindowSide || width > kMaxWindowSide || height < kMinWindowHeight ||
                height > kMaxWindowSide)
                return Error{what + " must be WxH within 320x240..8192x8192 (got '" + text + "')"};
            return std::pair<int, int>(width, height);
        };
    };
    std::optional<std::pair<int, int>> windowSize;
    read.choice("window-size", windowSize, windowSizeParser("window-size"));
    read.list("tour-sizes", launch.tourSizes, 8, windowSizeParser("tour-sizes entries"));
    if (!read.ok()) return read.error();
    if (!launch.tourSizes.empty() && !launch.tourCheck)
        return Error{"--tour-sizes needs --tour-check"};
    // WxH, or WxH:presentation for presentation mode at that size.
    read.list("layout-sizes", launch.layoutSizes, 8,
              [&](std::string_view typed) -> Result<LayoutSize> {
                  constexpr std::string_view kPresentation = ":presentation";
                  const bool presentation =
                      typed.size() > kPresentation.size() &&
                      typed.substr(typed.size() - kPresentation.size()) == kPresentation;
                  if (presentation) typed.remove_suffix(kPresentation.size());
                  auto size = windowSizeParser("layout-sizes entries")(typed);
                  if (!size) {
                      return Error{
                          "layout-sizes entries must be WxH or WxH:presentation within "
                          "320x240..8192x8192 (got '" +
                          std::string(typed) + (presentation ? ":presentation" : "") + "')"};
                  }
                  return LayoutSize{size->first, size->second, presentation};
              });
    if (!read.ok()) return read.error();
    if (!launch.layoutSizes.empty() && !launch.checkLayout)
        return Error{"--layout-sizes needs --check-layout"};
    read.list("layout-configs", launch.layoutConfigs, 8);
    read.text("layout-checkpoint", launch.layoutCheckpoint);
    if (!read.ok()) return read.error();
    if (!launch.layoutConfigs.empty() && !launch.checkLayout)
        return Error{"--layout-configs needs --check-layout"};
    if (!launch.layoutCheckpoint.empty() && !launch.checkLayout)
        return Error{"--layout-checkpoint needs --check-layout"};
    if (windowSize) {
        launch.windowWidth = windowSize->first;
        launch.windowHeight = windowSize->second;
        launch.windowSizeGiven = true;
    }
    read.text("session", launch.sessionPath);
    read.text("save-session", launch.saveSessionPath);
    launch.remember = args->flag("remember");
    launch.fresh = args->flag("fresh");
    return launch;
}

namespace {

using SteadyClock = std::chrono::steady_clock;

// Resident memory of this process from /proc/self/status, in MiB: VmRSS (now) or VmHWM (peak).
double residentMebibytes(const char* field) {
    std::FILE* status = std::fopen("/proc/self/status", "r");
    if (!status) return 0;
    char line[256];
    double kib = 0;
    const std::size_t length = std::strlen(field);
    while (std::fgets(line, sizeof line, status)) {
        if (std::strncmp(line, field, length) == 0) kib = std::atof(line + length + 1);
    }
    std::fclose(status);
    return kib / 1024;
}

// User plus system CPU time of the whole process (every thread), in seconds.
double processCpuSeconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](timeval t) { return double(t.tv_sec) + t.tv_usec * 1e-6; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// Random input for the soak test: the mouse wanders, clicks, drags and scrolls over the whole
// window below the menu bar, so every slider, combo, checkbox and canvas gets exercised.
struct SoakInput {
    std::mt19937_64 random;
    ImVec2 position{700, 450};
    int buttonFrames = 0;  // frames the left button stays down (a drag when > 1)
    ImVec2 velocity{0, 0};

    void apply(ImGuiIO& io) {
        std::uniform_real_distribution<float> unit(0.0f, 1.0f);
        const ImVec2 size = io.DisplaySize;
        if (buttonFrames == 0 && unit(random) < 0.25f) {
            // Jump somewhere new, press, and hold for a few frames (click or drag).
            position = ImVec2(unit(random) * size.x, 30 + unit(random) * (size.y - 30));
            buttonFrames = 1 + int(unit(random) * 6);
            velocity = ImVec2((unit(random) - 0.5f) * 80, (unit(random) - 0.5f) * 40);
        }
        if (buttonFrames > 0) {
            --buttonFrames;
            position.x = std::clamp(position.x + velocity.x, 0.0f, size.x - 1);
            position.y = std::clamp(position.y + velocity.y, 30.0f, size.y - 1);
        }
        io.MousePos = position;
        io.MouseDown[0] = buttonFrames > 0;
        io.MouseWheel = unit(random) < 0.1f ? (unit(random) - 0.5f) * 6 : 0.0f;
        io.KeyShift = unit(random) < 0.2f;
    }
};

// Where scripted frames put the pointer: the real one, the soak test's random walk, or away
// from every figure (the benchmark: a user dragging a slider has the pointer on the controls).
struct ScriptedPointer {
    SoakInput* soak = nullptr;
    bool away = false;
};

// Returns the number of triangles Dear ImGui submitted (the cost driver on software GL).
int renderFrame(GLFWwindow* window, Application& application, ScriptedPointer pointer = {}) {
    // The page without threads runs background jobs here, between two frames: the previous
    // frame (with its "computing" note or coarse figure) is already on screen.
    if constexpr (!kBackgroundThreads) runQueuedJobs(std::chrono::milliseconds(30));
    application.prepareFrame();  // fonts re-baked first when the scale changed
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // Two frames can read the same time (a coarse clock: the browser's is clamped), and ImGui
    // asserts on a zero DeltaTime.
    ImGui::GetIO().DeltaTime = std::max(ImGui::GetIO().DeltaTime, 1e-5f);
    // After the backend has read the real mouse:
    if (pointer.soak) pointer.soak->apply(ImGui::GetIO());
    if (pointer.away) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    application.frame();
    ImGui::Render();
    int width = 0, height = 0;
    glfwGetFramebufferSize(window, &width, &height);
    // The main window has no background of its own: clearing to its colour is far cheaper on
    // software GL than a full-window blended quad.
    const ImVec4 background = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
    gfx::clearFramebuffer(width, height, background.x, background.y, background.z);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    application.afterRender(width, height);
    glfwSwapBuffers(window);
    return ImGui::GetDrawData()->TotalIdxCount / 3;
}

void printFrameStatistics(std::vector<double> milliseconds) {
    if (milliseconds.empty()) return;
    std::sort(milliseconds.begin(), milliseconds.end());
    double sum = 0;
    for (double m : milliseconds) sum += m;
    auto percentile = [&](double q) {
        return milliseconds[std::min(milliseconds.size() - 1,
                                     std::size_t(q * milliseconds.size()))];
    };
    std::printf("frames %zu  median %.2f ms  mean %.2f ms  p95 %.2f ms  max %.2f ms\n",
                milliseconds.size(), percentile(0.5), sum / milliseconds.size(), percentile(0.95),
                milliseconds.back());
}

// One frame benchmark (bench_scenarios.hpp): the scenario's tab at its largest settings, its
// control moving every frame, whole frames timed (UI, samples, texture uploads, ImGui render,
// glFinish). The pointer is kept off the figures, where it would be while dragging a control.
// The view's state starts from its defaults, so `--bench-scenario all` runs each as if alone.
int runBenchScenario(GLFWwindow* window, Application& application, const BenchScenario& scenario,
                     const LaunchOptions& options) {
    constexpr int kWarmUp = 5;  // font atlas, shader compile, first table
    state::AppState& state = application.state();
    const state::AppState defaults;
    state.sinusoidal = defaults.sinusoidal;
    state.plugins = defaults.plugins;  // ALiBi, Context, ...
    state.t5 = defaults.t5;
    state.learned = defaults.learned;
    state.rope = defaults.rope;
    state.visionRope = defaults.visionRope;
    state.similarity = defaults.similarity;
    state.meaning = defaults.meaning;
    state.intuition = defaults.intuition;
    state.extrapolation = defaults.extrapolation;
    state.compare = defaults.compare;
    if (Status selected = application.selectView(scenario.view); !selected) {
        std::fprintf(stderr, "poslab: --bench-scenario %s: %s\n", scenario.name,
                     selected.error().message.c_str());
        return 1;
    }
    scenario.setup(state, {options.benchSeqLen, options.benchDModel});
    std::vector<double> times, cpuTimes;
    long long triangles = 0;
    double cpuStart = 0;
    const double peakBefore = residentMebibytes("VmHWM:");
    const auto layersBefore = application.figureLayerCounts();
    for (int i = 0; i < options.benchFrames + kWarmUp && !glfwWindowShouldClose(window); ++i) {
        glfwPollEvents();
        scenario.step(state, i);
        if (i == kWarmUp) cpuStart = processCpuSeconds();
        const auto start = SteadyClock::now();
        const double cpuBefore = processCpuSeconds();
        triangles += renderFrame(window, application, {nullptr, true});
        gfx::finishGl();
        const double ms =
            std::chrono::duration<double, std::milli>(SteadyClock::now() - start).count();
        if (i >= kWarmUp) {
            times.push_back(ms);
            cpuTimes.push_back((processCpuSeconds() - cpuBefore) * 1000);
        }
    }
    std::printf("scenario %s (%s: %s)\n", scenario.name, scenario.view, scenario.moving);
    printFrameStatistics(times);
    // Each frame's CPU over all threads, between its start and glFinish: on a loaded machine the
    // wall times' p95 is mostly waiting for a core, while this shows which frames cost more.
    // (A worker's build that runs across frames is counted in whichever frames it overlaps.)
    std::printf("CPU of each frame: ");
    printFrameStatistics(cpuTimes);
    // CPU summed over every thread (llvmpipe rasterises on its own, workers compute figures):
    // on a busy or small machine this is steadier than wall time, and it is what a laptop's
    // battery pays.
    std::printf("CPU %.2f ms per frame over all threads\n",
                (processCpuSeconds() - cpuStart) * 1000 / std::max<std::size_t>(1, times.size()));
    std::printf("triangles per frame %lld\n",
                triangles / std::max(1, options.benchFrames + kWarmUp));
    std::printf("resident memory %.0f MiB, peak %.0f MiB (%.0f before this scenario)\n",
                residentMebibytes("VmRSS:"), residentMebibytes("VmHWM:"), peakBefore);
    // Figures unchanged since the last frame are copied, not drawn (gfx/figure_layers.hpp).
    const auto layersAfter = application.figureLayerCounts();
    std::printf("figures copied from their layer %zu, copied into it %zu\n",
                layersAfter.first - layersBefore.first, layersAfter.second - layersBefore.second);
    if (!options.screenshotPath.empty()) {
        // The settled picture: the control let go, the exact figure waited for (up to 30 s),
        // what a user sees once a worker's result is in.
        const auto settling = SteadyClock::now();
        const auto deadline = settling + std::chrono::seconds(30);
        for (int i = 0; i < 3 || (application.waitingForWork() && SteadyClock::now() < deadline);
             ++i)
            renderFrame(window, application, {nullptr, true});
        std::printf(
            "settled in %.0f ms\n",
            std::chrono::duration<double, std::milli>(SteadyClock::now() - settling).count());
        application.requestedScreenshot = options.screenshotPath;
        renderFrame(window, application, {nullptr, true});
    }
    std::fflush(stdout);
    return 0;
}

// At 1024x768 and above every tab's label is on screen: a tab bar that hid some behind its
// scroll arrows (the frame just drawn) is text cut short.
void auditTabBars(LayoutAudit& audit) {
    if (!audit.checkCuts) return;
    for (int bar = scrolledTabBars(); bar > 0; --bar) {
        ++audit.cut;
        audit.faults.push_back("a tab bar hides tabs behind its scroll arrows");
    }
}

// --tour-check at the window's present size: every lesson and step in presentation mode, as a
// lecture shows them. Each must open its view without a warning, its card must be whole on
// screen and leave most of the window to the figures, and no figure drawn may have text over
// text, text cut off at its edge or a plot squeezed flat. Prints a line per step and a summary;
// returns the steps with faults. `screenshots`: a directory for one PNG per step, or "".
int checkTourSteps(GLFWwindow* window, Application& application, const std::string& screenshots) {
    constexpr float kMaxCardShare = 0.4f;  // of the window below the menu bar
    Tour& tour = application.tour();
    state::AppState& state = application.state();
    if (!screenshots.empty()) {
        std::error_code ignored;  // a directory that cannot be made: each screenshot says so
        std::filesystem::create_directories(screenshots, ignored);
    }
    int steps = 0, failed = 0;
    const auto start = SteadyClock::now();
    for (int lesson = 0; lesson < int(tour.lessons().size()); ++lesson) {
        const state::Lesson& entry = tour.lessons()[std::size_t(lesson)];
        for (int step = 0; step < int(entry.steps.size()); ++step) {
            ++steps;
            std::vector<std::string> problems;
            if (Status shown = tour.show(lesson, state, application, step); !shown)
                problems.push_back(shown.error().message);
            application.setStatus("");  // not the last step's "Saved screenshot …"
            // A few frames for the card's height to reach the layout and the caches to fill;
            // a figure computed on a worker is waited for (up to 30 s).
            const auto deadline = SteadyClock::now() + std::chrono::seconds(30);
            for (int frame = 0;
                 frame < 4 || (application.waitingForWork() && SteadyClock::now() < deadline);
                 ++frame) {
                glfwPollEvents();
                renderFrame(window, application, {nullptr, true});
            }
            LayoutAudit audit;  // the same checks as --check-layout
            int width = 0, height = 0;
            glfwGetWindowSize(window, &width, &height);
            audit.checkCuts = width >= 1024 && height >= 768;
            audit.minTextSize = kPresentationMinTextPx;  // presentation mode
            audit.checkSqueezed = true;
            application.layoutAudit = &audit;
            char name[64];
            std::snprintf(name, sizeof name, "/lesson-%02d-%d.png", lesson + 1, step + 1);
            if (!screenshots.empty()) application.requestedScreenshot = screenshots + name;
            renderFrame(window, application, {nullptr, true});
            application.layoutAudit = nullptr;
            auditTabBars(audit);
            problems.insert(problems.end(), audit.faults.begin(), audit.faults.end());
            if (audit.figures == 0) problems.push_back("no figure drawn");
            const std::string& view = entry.steps[std::size_t(step)].view;
            const std::string shownView = application.currentView();
            if (!isViewNamed(shownView, view))
                problems.push_back("shows the " + shownView + " view, not " + view);
            const CardMetrics card = tour.cardMetrics();
            const float share = card.height / std::max(1.0f, card.viewportHeight);
            if (card.height <= 0) {
                problems.push_back("no lesson card drawn");
            } else if (card.top < card.viewportTop) {
                problems.push_back("the card's text runs off the window");
            } else if (share > kMaxCardShare) {
                problems.push_back("the card takes " + std::to_string(int(share * 100)) +
                                   "% of the window (at most " +
                                   std::to_string(int(kMaxCardShare * 100)) + "%)");
            }
            std::printf("lesson %d step %d (%s): card %d px of %d (%d%%), %d figures checked%s\n",
                        lesson + 1, step + 1, view.c_str(), int(card.height),
                        int(card.viewportHeight), int(share * 100 + 0.5f), audit.figures,
                        problems.empty() ? ", ok" : "");
            for (const std::string& problem : problems) {
                std::printf("  FAULT: %s\n", problem.c_str());
                std::fprintf(stderr, "poslab: lesson %d step %d: %s\n", lesson + 1, step + 1,
                             problem.c_str());
            }
            if (!problems.empty()) ++failed;
        }
    }
    int width = 0, height = 0;
    glfwGetWindowSize(window, &width, &height);
    std::printf("tour check: %d lessons, %d steps at %dx%d, %d with faults, %.1f s\n",
                int(tour.lessons().size()), steps, width, height, failed,
                std::chrono::duration<double>(SteadyClock::now() - start).count());
    return failed;
}

// Resizes the window for --tour-sizes and --layout-sizes: the resize arrives as an event, so a
// few frames, up to 2 s, for it to reach the layout. False (and a line saying so, naming `option`)
// when the window did not take the size (a screen smaller than it).
bool resizeForCheck(GLFWwindow* window, Application& application, int width, int height,
                    const char* check, const char* option) {
    glfwSetWindowSize(window, width, height);
    const auto deadline = SteadyClock::now() + std::chrono::seconds(2);
    int shownWidth = 0, shownHeight = 0;
    for (int frame = 0; frame < 2 || ((shownWidth != width || shownHeight != height) &&
                                      SteadyClock::now() < deadline);
         ++frame) {
        glfwPollEvents();
        renderFrame(window, application, {nullptr, true});
        glfwGetWindowSize(window, &shownWidth, &shownHeight);
    }
    if (shownWidth == width && shownHeight == height) return true;
    std::printf("%s: the window could not be resized to %dx%d (it is %dx%d)\n", check, width,
                height, shownWidth, shownHeight);
    std::fprintf(stderr, "poslab: --%s: the window could not be resized to %dx%d\n", option, width,
                 height);
    return false;
}

// Whether every size a check is to resize its window to fits the screen: X lets a window grow
// past the screen (and without a window manager nothing shrinks it), so the check would audit a
// clipped window, figures partly off the screen. Else one line naming the size and the screen's.
bool sizesFitTheScreen(const std::vector<std::pair<int, int>>& sizes, const char* option) {
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* screen = monitor ? glfwGetVideoMode(monitor) : nullptr;
    if (!screen) return true;  // nothing to compare with: resizeForCheck reports what it gets
    for (const auto& [width, height] : sizes) {
        if (width <= screen->width && height <= screen->height) continue;
        std::fprintf(stderr, "poslab: --%s %dx%d is larger than the screen (%dx%d)\n", option,
                     width, height, screen->width, screen->height);
        return false;
    }
    return true;
}

// --tour-check: every step at the window's size, then again at each --tour-sizes size (the
// window resized in the same process: a second start of the GUI costs more than the steps).
int runTourCheck(GLFWwindow* window, Application& application, const LaunchOptions& options) {
    if (!sizesFitTheScreen(options.tourSizes, "tour-sizes")) return kExitBadInput;
    application.tour().setPresentation(application.state(), true);
    int failed = checkTourSteps(window, application, options.tourScreenshots);
    for (const auto& [width, height] : options.tourSizes) {
        if (!resizeForCheck(window, application, width, height, "tour check", "tour-sizes")) {
            ++failed;
            continue;
        }
        const std::string size = std::to_string(width) + "x" + std::to_string(height);
        failed += checkTourSteps(
            window, application,
            options.tourScreenshots.empty() ? std::string() : options.tourScreenshots + "/" + size);
    }
    return failed == 0 ? kExitOk : kExitFailed;
}

// Why a tab opened with `path` (--layout-configs, --layout-checkpoint) does not show its data,
// or "": a config.json the RoPE view refused or has not read, a checkpoint whose read failed or
// is not the one shown (as the view says: Panel::fileRead).
std::string fileNotShown(Application& application, const std::string& path, const Status& opened) {
    if (!opened) return path + " was not opened: " + opened.error().message;
    const Panel::FileRead read = application.openedFile(path);
    if (!read.problem.empty()) return path + " was not read: " + read.problem;
    if (!read.read) return path + " was not read";
    return "";
}

// "DIR/07-Relative-sandwich-panel-2" for the 7th checked tab "Relative / sandwich / panel 2":
// a screenshot's path without ".png", letters and digits of the name kept; "" when `directory`
// is "" (no screenshots asked for).
std::string screenshotStem(const std::string& directory, std::size_t number,
                           const std::string& name) {
    if (directory.empty()) return "";
    char prefix[24];
    std::snprintf(prefix, sizeof prefix, "/%02zu-", number);
    std::string file;
    for (char c : name) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            file += c;
        else if (!file.empty() && file.back() != '-')
            file += '-';
    }
    while (!file.empty() && file.back() == '-') file.pop_back();
    return directory + prefix + file;
}

// The visible view's controls column alone, shown (presentation mode hides it) and audited for
// narrow controls; no figures are drawn, so their workers do not start for a narrower area.
// `screenshot`: a PNG of the audited frame, or "". Returns the narrow controls, one line each.
std::vector<std::string> auditControlsAlone(GLFWwindow* window, Application& application,
                                            const std::string& screenshot) {
    bool& shown = application.state().showControls;
    const bool shownBefore = shown;
    shown = true;
    application.controlsOnly = true;
    PanelSweep& sweep = panelSweep();
    const int panels = sweep.count;  // the narrower figure area may offer more panels
    ControlSweep& controls = controlSweep();
    ControlSweep before = std::move(controls);
    controls = {false, {}, true};  // closed sections opened (T5's bucket values)
    for (int i = 0; i < 2; ++i) {  // the column opens, then its scroll bar is known
        glfwPollEvents();
        renderFrame(window, application, {nullptr, true});
    }
    controls = {true, {}, true};
    if (!screenshot.empty()) application.requestedScreenshot = screenshot;
    renderFrame(window, application, {nullptr, true});
    std::vector<std::string> squeezed = std::move(controls.squeezed);
    controls = std::move(before);
    shown = shownBefore;
    application.controlsOnly = false;
    sweep.count = panels;
    return squeezed;
}

// --check-layout at one window size and mode: every figure tab of every view (`views`), and every
// panel of a view that shows them one at a time, as each opens: a few frames to settle (the
// switch, fonts, workers), then one frame whose figures are audited. Prints one line per tab and
// panel and the summary; returns the faults.
std::size_t checkLayoutAtThisSize(GLFWwindow* window, Application& application,
                                  const std::vector<std::string>& views, const LayoutData& data,
                                  const std::string& screenshots) {
    if (!screenshots.empty()) {
        std::error_code ignored;  // a directory that cannot be made: each screenshot says so
        std::filesystem::create_directories(screenshots, ignored);
    }
    int width = 0, height = 0;
    glfwGetWindowSize(window, &width, &height);
    const bool presentation = application.state().tour.presentation;
    std::size_t faults = 0, figures = 0, shown = 0;
    LayoutAudit kinds;  // the faults of every tab, by kind
    const auto start = SteadyClock::now();
    for (const FigureTab& tab : figureTabs(views, data)) {
        const nlohmann::json before =
            tab.controlsOnly ? state::sessionToJson(application.state(), {}) : nlohmann::json();
        if (!tab.state.empty()) {
            state::Warnings warnings;
            state::applyStateJson(nlohmann::json::parse(tab.state), application.state(), warnings);
            for (const std::string& warning : warnings) std::printf("  %s\n", warning.c_str());
        }
        // Opened as `poslab FILE` opens it: the view reads it as it draws (a checkpoint on a
        // worker, waited for below).
        const Status opened = tab.file.empty() ? success() : application.openFile(tab.file);
        (void)application.selectView(tab.view);
        if (tab.controlsOnly) {
            // The settings that show the controls are the visit's alone: the next tabs and
            // sizes are checked as they were.
            std::string name = tab.view + " / " + tab.name;
            std::string shot = screenshotStem(screenshots, shown + 1, name);
            if (!shot.empty()) shot += ".png";
            glfwPollEvents();
            renderFrame(window, application, {nullptr, true});  // the view selected
            const std::vector<std::string> squeezed = auditControlsAlone(window, application, shot);
            state::Warnings ignored;
            state::applyStateJson(before, application.state(), ignored);
            std::printf("%s: %zu narrow controls\n", name.c_str(), squeezed.size());
            for (const std::string& control : squeezed) std::printf("  %s\n", control.c_str());
            faults += squeezed.size();
            kinds.narrowControls += int(squeezed.size());
            continue;
        }
        PanelSweep& sweep = panelSweep();
        sweep = {0, 1};
        for (int panel = 0; panel < sweep.count; ++panel) {
            sweep.panel = panel;
            // Two frames: the tab bar selects the tab, then the figures take their room (a
            // worker's figure is waited for); the audited frame is the third.
            const auto deadline = SteadyClock::now() + std::chrono::seconds(20);
            for (int i = 0;
                 i < 2 || (application.waitingForWork() && SteadyClock::now() < deadline); ++i) {
                glfwPollEvents();
                renderFrame(window, application, {nullptr, true});
                // The first frame may still draw the previous tab (the tab bar switches then):
                // its panel selector's count is not this tab's.
                if (panel == 0 && i == 0) sweep.count = 1;
            }
            // Whether the tab's file was read, once it has settled (before a screenshot's
            // message takes the status line).
            const std::string fileProblem =
                tab.file.empty() || panel > 0 ? "" : fileNotShown(application, tab.file, opened);
            LayoutAudit audit;
            audit.checkCuts = width >= 1024 && height >= 768;
            audit.minTextSize = presentation ? kPresentationMinTextPx : 0;
            application.layoutAudit = &audit;
            std::string name = application.currentView();
            if (!tab.name.empty()) name += " / " + tab.name;
            if (sweep.count > 1) name += " / panel " + std::to_string(panel + 1);
            const std::string shot = screenshotStem(screenshots, shown + 1, name);
            if (!shot.empty()) application.requestedScreenshot = shot + ".png";
            ControlSweep& controls = controlSweep();
            controls = {true, {}};
            renderFrame(window, application, {nullptr, true});
            application.layoutAudit = nullptr;
            auditTabBars(audit);
            // Presentation mode hides the controls; Ctrl+Tab shows them (a lesson's card asks
            // for one): each tab's controls are audited once more with the column shown, its
            // figures not (they are checked without it, as a projector shows them).
            if (presentation && panel == 0 && !application.state().showControls) {
                for (std::string& control : auditControlsAlone(
                         window, application, shot.empty() ? shot : shot + "-controls.png"))
                    controls.squeezed.push_back(std::move(control));
            }
            audit.narrowControls = int(controls.squeezed.size());
            for (std::string& control : controls.squeezed)
                audit.faults.push_back(std::move(control));
            controls = {};
            if (!fileProblem.empty()) audit.faults.push_back(fileProblem);
            std::printf("%s: %d figures, %zu text faults\n", name.c_str(), audit.figures,
                        audit.faults.size());
            for (const std::string& fault : audit.faults) std::printf("  %s\n", fault.c_str());
            faults += audit.faults.size();
            figures += std::size_t(audit.figures);
            kinds.overlapping += audit.overlapping, kinds.outside += audit.outside;
            kinds.overData += audit.overData, kinds.cut += audit.cut, kinds.small += audit.small;
            kinds.narrowControls += audit.narrowControls;
            ++shown;
            if (audit.figures == 0) {
                std::printf("  no figure drawn\n");
                ++faults;
            }
        }
        sweep = {};
    }
    // File > Export… at this size: its Export / Cancel row in the window (its options scroll
    // above it; at 1024x768 F5 the row had been below the window's edge).
    application.openExportDialog();
    for (int i = 0; i < 3; ++i) {  // opened, then sized from what it measured
        glfwPollEvents();
        renderFrame(window, application, {nullptr, true});
    }
    const float buttonsBottom = application.exportButtonsBottom();
    if (!(buttonsBottom > 0 && buttonsBottom <= float(height))) {
        std::printf(
            "Export dialog: its Export / Cancel row ends at %.0f px, past the window's %d\n",
            buttonsBottom, height);
        ++faults;
    }
    application.closeExportDialog();
    glfwPollEvents();
    renderFrame(window, application, {nullptr, true});
    std::printf(
        "check-layout: %zu views, %zu tabs and panels, %zu figures at %dx%d%s, %zu faults "
        "(%d overlapping, %d outside, %d over data, %d cut, %d small, %d narrow controls), "
        "%.1f s\n",
        views.size(), shown, figures, width, height, presentation ? " presentation" : "", faults,
        kinds.overlapping, kinds.outside, kinds.overData, kinds.cut, kinds.small,
        kinds.narrowControls, std::chrono::duration<double>(SteadyClock::now() - start).count());
    return faults;
}

// --check-layout: every view at the window's size (and presentation mode, when asked), then at
// each --layout-sizes size and mode, the window resized in the same process (a start of the GUI
// costs as much as a size's check, and the views' computed data is reused).
int runLayoutCheck(GLFWwindow* window, Application& application, const LaunchOptions& options) {
    std::vector<std::pair<int, int>> sizes;
    for (const LayoutSize& size : options.layoutSizes) sizes.emplace_back(size.width, size.height);
    if (!sizesFitTheScreen(sizes, "layout-sizes")) return kExitBadInput;
    // Every view opened once first (their caches and workers start), named by its tab's title:
    // the visible tab (currentView) follows a selection one frame late in the tab bar, which
    // listed the first view twice and never the last (Context, at every size whose tabs fit).
    std::vector<std::string> views;
    for (std::size_t view = 0; view < application.viewCount(); ++view) {
        application.selectView(view);
        renderFrame(window, application, {nullptr, true});
        views.push_back(application.viewTitle(view));
    }
    // Each size starts from the settings the first one did: the tabs a sweep selects are left
    // selected, and a later size would otherwise open every view at its last tab.
    const nlohmann::json settings = state::sessionToJson(application.state(), {});
    const LayoutData data{options.layoutConfigs, options.layoutCheckpoint};
    std::size_t faults =
        checkLayoutAtThisSize(window, application, views, data, options.layoutShotsDir);
    for (const LayoutSize& size : options.layoutSizes) {
        state::Warnings warnings;
        state::applyStateJson(settings, application.state(), warnings);
        // The config a Layers tab loaded is not a setting: forgotten, so that the tab without
        // data is checked as at the first size. (A checkpoint read stays in the Usage tab.)
        state::RopeViewState& rope = application.state().rope;
        rope.config.reset();
        rope.configLoaded.clear();
        rope.configNotes.clear();
        rope.configError.clear();
        application.tour().setPresentation(application.state(), size.presentation);
        if (!resizeForCheck(window, application, size.width, size.height, "check-layout",
                            "layout-sizes")) {
            ++faults;
            continue;
        }
        const std::string name = std::to_string(size.width) + "x" + std::to_string(size.height) +
                                 (size.presentation ? "-presentation" : "");
        faults += checkLayoutAtThisSize(
            window, application, views, data,
            options.layoutShotsDir.empty() ? std::string() : options.layoutShotsDir + "/" + name);
    }
    return faults == 0 ? kExitOk : kExitFailed;
}

}  // namespace

// A frame whose draw data grows (a figure drawn again after frames copied from its layer) gets
// new vertex, index and scene buffers of a few MiB from llvmpipe; with glibc's defaults those come
// from mmap and go back to the system when freed (or the heap's top is trimmed), so every such
// frame page-faults its buffers in again: a rope-rotation frame that draws its figure took 12.8
// ms of the UI thread's CPU instead of 7.1. Blocks up to 16 MiB stay in the heap, and up to 64
// MiB of free heap top is kept (the window's peak resident memory is unchanged in the
// scenarios measured).
static void keepFrameBuffersInTheHeap() {
#if defined(__GLIBC__) && !defined(__EMSCRIPTEN__)
    mallopt(M_MMAP_THRESHOLD, 16 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

void renderInteractiveFrame(GLFWwindow* window, Application& application) {
    renderFrame(window, application);
}

int runFrameLoop(GLFWwindow* window, Application& application, const LaunchOptions& options) {
    const auto frameBudget = std::chrono::microseconds(16667);  // 60 frames per second at most
    int framesToDraw = 3;  // ImGui settles layouts over a couple of frames after each event
    keepFrameBuffersInTheHeap();

    if (options.benchFrames > 0) {
        // In turn in one process, as `all` runs them: a worker one scenario leaves running is
        // seen in the next one's frames.
        int failed = 0;
        for (const std::string& name : benchScenarioList(options.benchScenario)) {
            if (name == "all") {
                for (const BenchScenario& scenario : benchScenarios()) {
                    failed += runBenchScenario(window, application, scenario, options) != 0;
                }
            } else if (const BenchScenario* scenario = findBenchScenario(name)) {
                failed += runBenchScenario(window, application, *scenario, options) != 0;
            } else {  // (the page's poslabRunBenchmark does not parse its options)
                std::fprintf(stderr, "poslab: no bench scenario '%s'\n", name.c_str());
                ++failed;
            }
        }
        return failed == 0 ? kExitOk : kExitFailed;
    }

    if (options.tourCheck) return runTourCheck(window, application, options);
    if (options.checkLayout) return runLayoutCheck(window, application, options);

    if (options.soakFrames > 0) {
        // Random input across every view, as fast as frames go; NaN reaching a texture fails.
        SoakInput soak{std::mt19937_64(options.soakSeed)};
        const int framesPerView =
            std::max(1, options.soakFrames / int(2 * application.viewCount()));
        std::vector<double> times;
        for (int i = 0; i < options.soakFrames && !glfwWindowShouldClose(window); ++i) {
            if (i % framesPerView == 0) application.selectView(std::size_t(i / framesPerView));
            glfwPollEvents();
            const auto start = SteadyClock::now();
            renderFrame(window, application, {&soak, false});
            times.push_back(
                std::chrono::duration<double, std::milli>(SteadyClock::now() - start).count());
            if (application.quitRequested()) break;
        }
        printFrameStatistics(times);
        if (application.nanTexelsDrawn() > 0) {
            std::fprintf(stderr, "poslab: soak: %zu NaN values reached a heatmap texture\n",
                         application.nanTexelsDrawn());
            return 1;
        }
        std::printf("soak: %zu frames over %zu views, no NaN drawn\n", times.size(),
                    application.viewCount());
        std::printf("resident memory %.0f MiB, peak %.0f MiB\n", residentMebibytes("VmRSS:"),
                    residentMebibytes("VmHWM:"));
        return 0;
    }

    int screenshotCountdown = options.screenshotPath.empty() ? -1 : 5;
    // A figure computed on a worker (the Learned view's Structure tab) is waited for, briefly.
    const auto screenshotDeadline = SteadyClock::now() + std::chrono::seconds(30);
    while (!glfwWindowShouldClose(window) && !application.quitRequested()) {
        if (framesToDraw > 0 || application.wantsAnimation() || screenshotCountdown >= 0) {
            glfwPollEvents();
        } else {
            glfwWaitEvents();  // sleep until input arrives (or glfwPostEmptyEvent wakes us)
            framesToDraw = 3;
        }
        const auto start = SteadyClock::now();
        if (screenshotCountdown == 0) application.requestedScreenshot = options.screenshotPath;
        renderFrame(window, application);
        if (screenshotCountdown == 0) break;
        const bool holdScreenshot = screenshotCountdown == 1 && application.waitingForWork() &&
                                    SteadyClock::now() < screenshotDeadline;
        if (screenshotCountdown > 0 && !holdScreenshot) --screenshotCountdown;
        if (framesToDraw > 0) --framesToDraw;
        if (ImGui::GetIO().MouseDown[0] || ImGui::IsAnyItemActive()) framesToDraw = 3;
        std::this_thread::sleep_until(start + frameBudget);
    }
    return 0;
}

}  // namespace poslab::ui
