// application.hpp — the GUI's frame: menu bar, view tabs, shortcuts, status line, screenshots.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "state/app_state.hpp"
#include "ui/export_dialog.hpp"
#include "ui/panel.hpp"
#include "ui/session.hpp"
#include "ui/tour.hpp"

struct GLFWwindow;
struct ImGuiStyle;

namespace poslab::gfx {
class FontSet;
class HeatmapTextures;  // GL objects: held by pointer so no GL header reaches this file's users
class FigureLayers;
class DotSprites;
}  // namespace poslab::gfx

namespace poslab::ui {

// A window size and mode for --check-layout's --layout-sizes.
struct LayoutSize {
    int width = 0, height = 0;
    bool presentation = false;
};

struct LaunchOptions {
    int benchFrames = 0;  // > 0: run a benchmark scenario for N frames, print timings, quit
    std::string benchScenario = "slider";  // bench_scenarios.hpp, or "all": each in turn
    int benchSeqLen = 0;  // table size for the benchmark (0: the scenario's default)
    int benchDModel = 0;
    std::string screenshotPath;  // non-empty: save a screenshot after a few frames, quit
    std::string initialView;     // tab to open first
    int soakFrames = 0;          // > 0: random input for N frames across every view, then quit
    unsigned long long soakSeed = 1;
    int lesson = 0;               // > 0: open the tour at this lesson (1-based)
    std::string lessonsPath;      // non-empty: the tour's lessons from this file (--lessons)
    bool tourCheck = false;       // step through every lesson, check the cards and figures, quit
    std::string tourScreenshots;  // with tourCheck: a directory for one screenshot per step
    // With tourCheck: every step again at each of these window sizes, in the same process.
    std::vector<std::pair<int, int>> tourSizes;
    std::string layoutShotsDir;   // with checkLayout: one screenshot per tab and panel
    // With checkLayout: every view again at each of these sizes and modes, in the same process.
    std::vector<LayoutSize> layoutSizes;
    // With checkLayout: RoPE's Layers tab checked again with each config.json, its Usage tab
    // with a checkpoint (folder, index or .safetensors), at every size.
    std::vector<std::string> layoutConfigs;
    std::string layoutCheckpoint;
    bool presentation = false;    // start in presentation mode (large fonts, no controls)
    bool exportDialog = false;    // open File > Export… at start
    std::string sessionPath;      // non-empty: open this session file at start-up
    std::string saveSessionPath;  // non-empty: save the session here at exit
    bool remember = false;        // use the remembered session even in scripted runs
    bool fresh = false;           // ignore the remembered session (and do not overwrite it)
    float zoom = 0;               // > 0: interface zoom for this run (--zoom), over the session's
    std::string openPath;         // non-empty: a file to open in its view (`poslab FILE`)
    int windowWidth = 1440;       // --window-size: a projector's 1024x768, a laptop's, a 4K's
    int windowHeight = 900;
    bool windowSizeGiven = false;  // --window-size given: not shrunk to the screen
    bool checkLayout = false;      // visit every view, check its figures' text boxes, report, quit
};

class Application {
  public:
    explicit Application(std::vector<std::unique_ptr<Panel>> panels);  // panels/registry.hpp
    ~Application();
    Status initialize(GLFWwindow* window, gfx::FontSet* fonts);  // after the ImGui backends
    Status selectView(const std::string& name);  // by tab title, case-insensitive (--view)
    void selectView(std::size_t index) { viewToSelect_ = int(index % panels_.size()); }
    // The view selected last (selectView) shows panel `panel` (1-based; 0: as it is) the first
    // time it draws, when it shows one panel at a time: a lesson step's "panel".
    void requestPanel(int panel) {
        panelRequest_ = panel;
        panelRequestView_ = viewToSelect_;
    }
    std::size_t viewCount() const { return panels_.size(); }
    const char* viewTitle(std::size_t index) const { return panels_[index]->title(); }  // tab order
    std::size_t nanTexelsDrawn() const;
    void openExportDialog() { exportDialog_.open(); }  // File > Export… (Ctrl+E)
    void closeExportDialog() { exportDialog_.close(); }
    float exportButtonsBottom() const { return exportDialog_.buttonsBottom(); }  // px, 0: not drawn
    // File > Export… of the visible view's numbers as folder/name.csv and .npy, without the
    // dialog (the page's check); written in the background like the dialog's.
    Status exportVisibleNumbers(const std::string& folder, const std::string& name);
    void frame();  // build one frame's UI (between NewFrame and Render)
    void afterRender(int framebufferWidth, int framebufferHeight);  // screenshots, cache upkeep
    // Figures copied from their layer instead of drawn, and copied into it, so far (benchmarks).
    std::pair<std::size_t, std::size_t> figureLayerCounts() const;
    bool wantsAnimation() const { return animating_; }  // keep drawing even without input
    bool waitingForWork() const { return waiting_; }    // a panel's figure is still computing
    bool quitRequested() const { return quit_; }
    state::AppState& state() { return state_; }
    Status startLesson(int number);   // the tour at lesson `number` (1-based, --lesson)
    std::string currentView() const;  // the visible tab's title
    void setStatus(std::string message) { status_ = std::move(message); }
    const std::string& status() const { return status_; }  // the status line's message
    GLFWwindow* window() const { return window_; }
    Tour& tour() { return tour_; }
    // Opens a config.json, .npy, .safetensors or session file in the view that reads it (the
    // command line's FILE and files dropped on the window); problems go to the status line.
    Status openFile(const std::string& path);
    // Why the view openFile handed `path` to could not use it, once it has drawn ("" if it
    // could, or has not read it yet): a config.json the RoPE view refused (not JSON, no head
    // size). Scripted runs (--screenshot) report it and exit 2, as for a file openFile refuses.
    std::string openedFileProblem(const std::string& path) const;
    // What became of `path` in the view it was handed to (Panel::fileRead): read, refused or
    // not yet (--check-layout's --layout-configs and --layout-checkpoint).
    Panel::FileRead openedFile(const std::string& path) const;
    // Opens a link's fragment (state/share_link.hpp: `poslab 'URL#view=…'`, the page's address):
    // its settings, view and lesson. A bad link is an Error and changes nothing.
    Status openLink(std::string_view address);
    std::string linkFragment() const;  // the visible view and its settings, for a link

    // ---- Scale: the monitor's content scale (GLFW) times the interface zoom
    float uiScale() const { return contentScale_ * state_.uiZoom; }
    void setZoom(float zoom);  // clamped to kMinUiZoom..kMaxUiZoom
    // Before ImGui's NewFrame: re-bakes the fonts and rescales the style when the scale changed
    // (a zoom key, or the window moved to a monitor with another scale).
    void prepareFrame();

    std::string requestedScreenshot;  // set by F12 or --screenshot; written after the frame
    // ---- The visible figure as the screen draws it (the page's "Download figure PNG"): every
    // figure canvas of the visible view, cropped from the window after a frame without menus.
    void requestFigurePng(std::string path) {
        figurePngPath_ = std::move(path);
        figurePngFrames_ = 2;  // the menu that asked closes first
    }
    Box figureArea() const { return figureArea_; }  // last frame's figures (screen pixels)
    // The platform's own File menu items, after Open session… (the page: Open file…, Download
    // figure PNG). Empty on the desktop.
    std::function<void()> platformFileMenu;
    // Non-null: every figure drawn in the next frames is checked for overlapping or cut-off
    // text, one line per fault (--check-layout, --tour-check).
    LayoutAudit* layoutAudit = nullptr;
    bool controlsOnly = false;  // the next frames draw the views' controls, no figures
    // --window-size at start-up: a session opened then keeps the window's size and leaves full
    // screen alone (the command line is the user's latest word).
    bool keepWindowSize = false;

  private:
    void drawMenuBar();
    void handleShortcuts();
    std::string saveFigurePng(int framebufferWidth, int framebufferHeight);  // the status line

    state::AppState state_;
    std::vector<std::unique_ptr<Panel>> panels_;
    gfx::FontSet* fonts_ = nullptr;
    std::unique_ptr<gfx::HeatmapTextures> heatmaps_;
    std::unique_ptr<gfx::FigureLayers> layers_;  // null: POSLAB_FIGURE_LAYERS=0
    std::unique_ptr<gfx::DotSprites> dots_;      // null: POSLAB_DOT_SPRITES=0
    GLFWwindow* window_ = nullptr;
    std::string status_;
    int viewToSelect_ = -1;        // a tab to bring forward on the next frame
    int panelRequest_ = 0;         // requestPanel: the panel (1-based) for view panelRequestView_
    int panelRequestView_ = -1;    // -1: none pending
    std::size_t activePanel_ = 0;  // the visible tab: File > Export acts on it
    bool tabsWrapped_ = false;     // last frame drew the views as rows of buttons (narrow window)
    ExportDialog exportDialog_;    // File > Export…, Ctrl+E
    Tour tour_;                    // lessons, presentation mode, full screen (tour.hpp)
    SessionDialog sessionDialog_;  // File > Save session… / Open session…
    bool animating_ = false;
    bool waiting_ = false;
    float contentScale_ = 1.0f;              // the window's monitor: 2 on a 4K laptop at 200 %
    float bakedScale_ = 1.0f;                // the scale the fonts and style were last built for
    std::unique_ptr<ImGuiStyle> baseStyle_;  // the style at scale 1, scaled from afresh each time
    std::vector<std::pair<std::size_t, std::string>> pendingFiles_;  // panel index, path
    Box figureArea_;             // the figures of the last frame (FrameContext::figureArea)
    std::string figurePngPath_;  // requestFigurePng: where, "" when none is pending
    int figurePngFrames_ = 0;    // frames to draw before the crop is taken
    bool quit_ = false;
};

}  // namespace poslab::ui
