// export_dialog.hpp — File > Export… (Ctrl+E, or the status line's Export… button): the active
// view as figure files (PNG, SVG, PDF) and as the numbers behind it (CSV, NPY).
//
// The figure is the panel's exportFigure() — the same poslab::Figure the screen draws — at the
// size, scale and theme chosen here; the data is the panel's exportData(). Both are built on the
// UI thread when Export is pressed (panels are not thread-safe); encoding and writing the files
// happens on a worker thread, with progress in the status line and on the terminal, so a large
// PNG or CSV never freezes the window. Every file is written atomically (temporary + rename).
#pragma once

#include <future>
#include <memory>
#include <string>
#include <vector>

#include "poslab/base/result.hpp"
#include "poslab/figure/plot.hpp"
#include "state/app_state.hpp"

namespace poslab::ui {

class Panel;
struct ExportJob;  // a running export's progress, shared with its worker thread

// What to write; the dialog edits one of these.
struct ExportRequest {
    std::string folder;    // existing directory
    std::string baseName;  // file name without extension: each format adds its own
    bool png = true, svg = false, pdf = true;  // figure formats
    bool csv = false, npy = false;             // data formats
    int width = 1200, height = 800;            // figure pixels (64..8192)
    float scale = 2.0f;              // PNG device pixels per figure pixel (0.25..8), for HiDPI
    ThemeId theme = ThemeId::Paper;  // the paper theme unless chosen otherwise
    bool transparent = false;        // no figure background (PNG alpha; SVG/PDF without page fill)
    // Paper controls, as `poslab render` has them (figure_controls.hpp)
    float fontScale = 1;                             // kMinFontScale..kMaxFontScale
    TitleMode titleMode = TitleMode::Auto;           // the view's title, titleText, or none
    std::string titleText;                           // TitleMode::Replace
    LegendPlacement legend = LegendPlacement::Auto;  // auto, outside, none
    AspectMode aspect = AspectMode::Auto;            // square plot boxes
    int panel = 0;                                   // 0: every panel; N: panel N alone
};
// The export theme: themeFor(request.theme) with the request's paper controls.
Theme exportTheme(const ExportRequest& request);

// The request's problem in one line ("width must be 64..8192 (got 10)"), or success.
Status checkExportRequest(const ExportRequest& request);
// The files the request writes, in order: folder/baseName.png, .svg, .pdf, .csv, .npy.
std::vector<std::string> exportPaths(const ExportRequest& request);

class ExportDialog {
  public:
    ExportDialog();
    ~ExportDialog();  // waits for a running export, so no file is left half-written
    ExportDialog(const ExportDialog&) = delete;
    ExportDialog& operator=(const ExportDialog&) = delete;

    void open();   // shows the dialog on the next draw()
    void close();  // closes it on the next draw() (the layout check)
    // Where its Export / Cancel row ended (bottom edge, px) when last drawn; 0 before that.
    float buttonsBottom() const { return buttonsBottom_; }
    // Export pressed with `request` (checked as the dialog checks it): the page's scripted
    // downloads. Progress and the result go to *status over the next frames.
    void exportNow(const Panel& panel, const state::AppState& state, const ExportRequest& request,
                   std::string* status);
    // Call once per frame inside the main window, after the panels: draws the modal dialog for
    // `panel` (the active tab) and reports a running export's progress into *status.
    void draw(const Panel& panel, const state::AppState& state, std::string* status);
    bool busy() const;  // an export is running: keep frames coming to show its progress

  private:
    void start(const Panel& panel, const state::AppState& state, std::string* status);
    void poll(std::string* status);
    void drawPaperControls();

    ExportRequest request_;
    char folder_[1024] = {};
    char name_[256] = {};
    char title_[256] = {};
    std::string lastView_;  // the view the name was made for
    bool openRequested_ = false;
    bool closeRequested_ = false;
    float buttonsBottom_ = 0;
    // Last frame's sizes: the options' region is as large as they are, or as tall as the window
    // leaves under the file list and the buttons (which then stay in view; the options scroll).
    float optionsWidth_ = 0, optionsHeight_ = 0;
    float footerHeight_ = 0;
    std::shared_ptr<ExportJob> job_;
    std::future<void> worker_;  // writes job_'s files (runInBackground)
};

}  // namespace poslab::ui
