#include "ui/export_dialog.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>

#include "gfx/cairo_renderer.hpp"
#include "poslab/base/background.hpp"
#include "poslab/figure/figure_controls.hpp"
#include "poslab/io/matrix_export.hpp"
#include "poslab/io/output_file.hpp"
#include "state/ranges.hpp"
#include "ui/panel.hpp"
#include "ui/widgets.hpp"

namespace poslab::ui {

namespace {

using Clock = std::chrono::steady_clock;

// "Sinusoidal" -> "poslab-sinusoidal", "RoPE scaling" -> "poslab-rope-scaling".
std::string defaultBaseName(const char* title) {
    std::string slug;
    for (const char* c = title; *c; ++c) {
        const auto ch = static_cast<unsigned char>(*c);
        if (std::isalnum(ch))
            slug += char(std::tolower(ch));
        else if (!slug.empty() && slug.back() != '-')
            slug += '-';
    }
    while (!slug.empty() && slug.back() == '-') slug.pop_back();
    return slug.empty() ? "poslab-figure" : "poslab-" + slug;
}

void copyText(char* buffer, std::size_t size, const std::string& text) {
    std::snprintf(buffer, size, "%s", text.c_str());
}

std::string fileName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

std::string seconds(Clock::duration elapsed) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", std::chrono::duration<double>(elapsed).count());
    return text;
}

}  // namespace

Status checkExportRequest(const ExportRequest& r) {
    if (!(r.png || r.svg || r.pdf || r.csv || r.npy)) return Error{"choose at least one format"};
    if (r.baseName.empty()) return Error{"the file name is empty"};
    if (r.baseName.find('/') != std::string::npos)
        return Error{"the file name must not contain '/' (set the folder)"};
    std::error_code error;
    if (r.folder.empty() || !std::filesystem::is_directory(r.folder, error)) {
        return Error{"folder '" + r.folder + "' does not exist"};
    }
    if (auto s = state::kFigureWidthRange.check(r.width); !s) return s.error();
    if (auto s = state::kFigureHeightRange.check(r.height); !s) return s.error();
    if (!state::kPngScaleRange.contains(r.scale))
        return Error{"PNG scale must be " + state::kPngScaleRange.rangeText()};
    if (auto s = checkFontScale(r.fontScale); !s) return Error{"font scale must be 0.5..3"};
    if (r.panel < 0) return Error{"panel must be 0 (all) or more"};
    if (r.png && (r.width * r.scale > 16384 || r.height * r.scale > 16384)) {
        return Error{"PNG size (width or height times scale) must stay within 16384 pixels"};
    }
    return success();
}

Theme exportTheme(const ExportRequest& r) {
    Theme theme = forFiles(themeFor(r.theme), r.fontScale);  // paper: sized for print
    theme.titleMode = r.titleMode;
    theme.titleText = r.titleText;
    theme.legend = r.legend;
    theme.aspect = r.aspect;
    theme.focusPanel = r.panel;
    return theme;
}

std::vector<std::string> exportPaths(const ExportRequest& r) {
    const std::filesystem::path base = std::filesystem::path(r.folder) / r.baseName;
    std::vector<std::string> paths;
    for (auto [wanted, extension] : {std::pair{r.png, ".png"},
                                     {r.svg, ".svg"},
                                     {r.pdf, ".pdf"},
                                     {r.csv, ".csv"},
                                     {r.npy, ".npy"}}) {
        if (wanted) paths.push_back(base.string() + extension);
    }
    return paths;
}

// ---- The background job
struct ExportJob {
    std::mutex mutex;
    std::vector<std::string> paths;  // set before the worker starts, then read-only
    std::size_t done = 0;            // files finished, written or failed
    std::vector<std::string> written;
    std::vector<std::string> errors;
    bool finished = false;
    Clock::time_point started = Clock::now();
};

namespace {

// The worker: owns copies of everything it needs (no panel, no AppState).
void writeExportFiles(std::shared_ptr<ExportJob> job, std::optional<Figure> raster,
                      std::optional<Figure> vector, std::optional<Matrix> data, float scale) {
    const std::size_t total = job->paths.size();
    for (std::size_t i = 0; i < total; ++i) {
        const std::string& path = job->paths[i];
        const std::string extension = fileExtension(path);
        Status status = success();
        if (extension == ".png") {
            auto image = gfx::rasterizeFigure(*raster, scale);
            status = image ? gfx::writePng(*image, path) : Status(image.error());
        } else if (extension == ".svg") {
            status = gfx::writeFigureSvg(*vector, path);
        } else if (extension == ".pdf") {
            status = gfx::writeFigurePdf(*vector, path);
        } else if (data) {
            status = saveMatrix(*data, path);
        } else {
            status = Error{"no data to write to " + path};
        }
        if (status) {
            std::printf("[%zu/%zu] wrote %s\n", i + 1, total, path.c_str());
        } else {
            std::printf("[%zu/%zu] failed: %s\n", i + 1, total, status.error().message.c_str());
        }
        std::fflush(stdout);
        std::lock_guard lock(job->mutex);
        ++job->done;
        if (status)
            job->written.push_back(path);
        else
            job->errors.push_back(status.error().message);
    }
    std::lock_guard lock(job->mutex);
    job->finished = true;
}

}  // namespace

ExportDialog::ExportDialog() = default;

ExportDialog::~ExportDialog() {
    if (worker_.valid()) waitForJob(worker_);
}

void ExportDialog::open() {
    openRequested_ = true;
}

void ExportDialog::close() {
    closeRequested_ = true;
}

void ExportDialog::exportNow(const Panel& panel, const state::AppState& state,
                             const ExportRequest& request, std::string* status) {
    if (Status valid = checkExportRequest(request); !valid) {
        *status = "Export failed: " + valid.error().message;
        return;
    }
    request_ = request;
    start(panel, state, status);
}

bool ExportDialog::busy() const {
    return job_ != nullptr;
}

void ExportDialog::start(const Panel& panel, const state::AppState& state, std::string* status) {
    // Panels are built for the UI thread: ask them for the figure and the numbers here, hand
    // plain copies to the worker.
    // The same path as `poslab render --width W --height H` (spec_format's buildFigure): square
    // plots and outside legends take the height their content needs; otherwise every panel of
    // a multi-panel view is shown, squeezed into the canvas (Theme::panelRoom), never one at a
    // time as on a small screen.
    const float maxHeight =
        float(std::min(state::kFigureHeightRange.high,
                       int(16384 / std::max(0.25f, request_.png ? request_.scale : 1.0f))));
    const SizedBuild buildAt = [&](const Theme& t, float width, float height) -> Result<Figure> {
        return panel.exportFigure(state, width, height, t);
    };
    // A PNG samples each heatmap at one texel per pixel (and says what a pixel averages); SVG
    // and PDF embed it cell for cell (Theme::cellResolution), as `poslab render --out F.pdf`.
    const auto build = [&](bool cells) -> Result<Figure> {
        Theme theme = exportTheme(request_);
        theme.cellResolution = cells;
        auto built =
            fitsCanvasToContent(theme)
                ? buildFittedToContent(buildAt, theme, float(request_.width),
                                       float(request_.height), maxHeight)
                : buildWithAllPanels(buildAt, theme, float(request_.width), float(request_.height),
                                     /*growHeight=*/false, maxHeight);
        if (built && request_.transparent) built->background = Rgba{0, 0, 0, 0};
        return built;
    };
    std::optional<Figure> raster, vector;
    for (const bool cells : {false, true}) {
        if (!(cells ? request_.svg || request_.pdf : request_.png)) continue;
        auto built = build(cells);
        if (!built) {
            *status = "Export failed: " + built.error().message;
            return;
        }
        (cells ? vector : raster) = std::move(built).value();
    }
    std::optional<Matrix> data;
    if (request_.csv || request_.npy) {
        auto matrix = panel.exportData(state);
        if (!matrix) {
            *status = "Export failed: " + matrix.error().message;
            return;
        }
        data = std::move(matrix).value();
    }
    if (worker_.valid()) waitForJob(worker_);
    job_ = std::make_shared<ExportJob>();
    job_->paths = exportPaths(request_);
    std::printf("exporting %s: %zu file%s\n", panel.title(), job_->paths.size(),
                job_->paths.size() == 1 ? "" : "s");
    std::fflush(stdout);
    // A thread of its own; in the page without threads, the frames after this one (background.hpp).
    worker_ = runInBackground([job = job_, raster = std::move(raster), vector = std::move(vector),
                               data = std::move(data), scale = request_.scale]() mutable {
        writeExportFiles(job, std::move(raster), std::move(vector), std::move(data), scale);
    });
    poll(status);
}

void ExportDialog::poll(std::string* status) {
    if (!job_) return;
    {
        std::lock_guard lock(job_->mutex);
        if (!job_->finished) {
            const std::size_t index = std::min(job_->done, job_->paths.size() - 1);
            *status = "Exporting " + std::to_string(index + 1) + "/" +
                      std::to_string(job_->paths.size()) + ": " + fileName(job_->paths[index]) +
                      " … " + seconds(Clock::now() - job_->started);
            return;
        }
    }
    worker_.get();
    std::string names;
    for (const std::string& path : job_->written)
        names += (names.empty() ? "" : ", ") + fileName(path);
    const std::string elapsed = seconds(Clock::now() - job_->started);
    if (job_->errors.empty()) {
        const std::string folder =
            std::filesystem::path(job_->written.front()).parent_path().string();
        *status = "Exported " + names + " to " + folder + " (" + elapsed + ")";
    } else {
        *status = "Export failed: " + job_->errors.front() +
                  (names.empty() ? std::string() : " (wrote " + names + ")");
    }
    job_.reset();
}

// The paper controls, the same as `poslab render --font-scale/--title/--no-title/--legend/
// --aspect/--panel`.
void ExportDialog::drawPaperControls() {
    ImGui::PushItemWidth(ImGui::GetFontSize() * 9);
    sliderFloat(state::kFontScaleParam, &request_.fontScale,
                "Every text of the figure this many times its size (--font-scale).");
    int title = int(request_.titleMode);
    ImGui::RadioButton("view's title", &title, int(TitleMode::Auto));
    ImGui::SameLine();
    ImGui::RadioButton("own title", &title, int(TitleMode::Replace));
    ImGui::SameLine();
    ImGui::RadioButton("no title", &title, int(TitleMode::Hidden));
    request_.titleMode = TitleMode(title);
    tooltipForLastItem("--title TEXT / --no-title: a caption usually carries the title.");
    if (request_.titleMode == TitleMode::Replace) {
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 24);
        ImGui::InputText("title", title_, sizeof title_);
        request_.titleText = title_;
    }
    int legend = int(request_.legend);
    ImGui::Combo("legend", &legend, "auto\0outside\0none\0");
    request_.legend = LegendPlacement(legend);
    tooltipForLastItem(
        "--legend: auto (inside the plot, where it covers the least data), outside (right of "
        "the plot) or none.");
    bool square = request_.aspect == AspectMode::Square;
    ImGui::Checkbox("square plots", &square);
    request_.aspect = square ? AspectMode::Square : AspectMode::Auto;
    tooltipForLastItem("--aspect square: every plot box as wide as tall.");
    ImGui::InputInt("panel (0: all)", &request_.panel);
    request_.panel = std::max(0, request_.panel);
    tooltipForLastItem(
        "--panel N: only panel N of a multi-panel view, drawn over the whole figure. A number "
        "past the view's panels is reported when you export.");
    ImGui::PopItemWidth();
}

void ExportDialog::draw(const Panel& panel, const state::AppState& state, std::string* status) {
    constexpr const char* kPopup = "Export";
    if (openRequested_) {
        openRequested_ = false;
        if (folder_[0] == 0) {
            std::error_code error;
            copyText(folder_, sizeof folder_, std::filesystem::current_path(error).string());
        }
        ImGui::OpenPopup(kPopup);
    }
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    // Never larger than the window (1024x768 in presentation mode is a dozen lines short of the
    // dialog): centred, clamped to the work area, its content scrolled instead of cut.
    const float margin = ImGui::GetFontSize();
    ImGui::SetNextWindowPos(viewport->GetCenter(), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSizeConstraints(
        ImVec2(0, 0), ImVec2(std::max(margin, viewport->WorkSize.x - 2 * margin),
                             std::max(margin, viewport->WorkSize.y - 2 * margin)));
    ImGui::SetNextWindowBgAlpha(1.0f);  // opaque: the figure's text showed through (6 %)
    if (ImGui::BeginPopupModal(
            kPopup, nullptr,
            ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_HorizontalScrollbar)) {
        // Named for the view it exports; checked while open, as --export-dialog opens it before
        // the session's view is shown.
        if (lastView_ != panel.title()) {
            lastView_ = panel.title();
            copyText(name_, sizeof name_, defaultBaseName(panel.title()));
        }
        if (closeRequested_) ImGui::CloseCurrentPopup();
        ImGui::Text("The %s view as files", panel.title());
        // The options in a region of their own, scrolled when the window is too short for them
        // (1024x768 in presentation mode): the files to be written and Export / Cancel below it
        // stay in view. Sized from last frame's measurements (the first frame: a guess).
        const ImGuiStyle& style = ImGui::GetStyle();
        const float chrome = ImGui::GetFrameHeight() + 2 * style.WindowPadding.y +
                             ImGui::GetTextLineHeightWithSpacing() + style.ItemSpacing.y;
        const float room = std::max(4 * ImGui::GetFrameHeightWithSpacing(),
                                    viewport->WorkSize.y - 2 * margin - chrome - footerHeight_);
        const bool measured = optionsWidth_ > 0 && optionsHeight_ > 0;
        const bool scrolls = measured && optionsHeight_ > room;
        const ImVec2 region =
            measured ? ImVec2(optionsWidth_ + (scrolls ? style.ScrollbarSize : 0.0f),
                              std::min(optionsHeight_, room))
                     : ImVec2(ImGui::GetFontSize() * 30, ImGui::GetFontSize() * 10);
        ImGui::BeginChild("options", region);
        ImGui::BeginGroup();
        // The path fields: 24 em, or half the window on a small one (labels beside them).
        ImGui::PushItemWidth(std::min(ImGui::GetFontSize() * 24, viewport->WorkSize.x * 0.5f));
        ImGui::InputText("folder", folder_, sizeof folder_);
        tooltipForLastItem("The directory the files go to (it must exist).");
        ImGui::InputText("file name", name_, sizeof name_);
        tooltipForLastItem(
            "Without extension: each format adds its own (.png, .svg, .pdf, .csv, .npy).");
        ImGui::PopItemWidth();

        sectionHeader("Figure");
        ImGui::Checkbox("PNG", &request_.png);
        tooltipForLastItem("Raster image at the size below times the scale, drawn with Cairo.");
        ImGui::SameLine();
        ImGui::Checkbox("SVG", &request_.svg);
        tooltipForLastItem(
            "Vector: text stays text (<text> elements), heatmaps are embedded images "
            "with crisp cells. Opens in browsers and Inkscape.");
        ImGui::SameLine();
        ImGui::Checkbox("PDF", &request_.pdf);
        tooltipForLastItem(
            "Vector: text is real, searchable text with an embedded DejaVu Sans; "
            "1 figure pixel = 0.75 pt. For LaTeX (\\includegraphics) and print.");
        ImGui::PushItemWidth(ImGui::GetFontSize() * 9);
        ImGui::InputInt("width", &request_.width, 100, 1000);
        const std::string widthHelp = "Figure width in figure pixels, " +
                                      state::kFigureWidthRange.rangeText() +
                                      ". Layout (fonts, margins) is laid out for this size.";
        tooltipForLastItem(widthHelp.c_str());
        ImGui::InputInt("height", &request_.height, 100, 1000);
        const std::string heightHelp =
            "Figure height in figure pixels, " + state::kFigureHeightRange.rangeText() + ".";
        tooltipForLastItem(heightHelp.c_str());
        sliderFloat(state::kPngScaleSlider, &request_.scale,
                    "Device pixels per figure pixel for the PNG: 2 gives a crisp image on "
                    "HiDPI screens and slides without changing the layout.");
        ImGui::PopItemWidth();
        int theme = request_.theme == ThemeId::Paper ? 0 : 1;
        ImGui::RadioButton("paper theme", &theme, 0);
        tooltipForLastItem("White background, black text: for print.");
        ImGui::SameLine();
        ImGui::RadioButton("dark theme", &theme, 1);
        tooltipForLastItem("The screen theme.");
        request_.theme = theme == 0 ? ThemeId::Paper : ThemeId::Dark;
        ImGui::Checkbox("transparent background", &request_.transparent);
        tooltipForLastItem(
            "Leave the figure background out: a PNG with alpha, an SVG/PDF with no "
            "page fill. Plot areas keep their own background.");
        drawPaperControls();

        sectionHeader("Data");
        ImGui::Checkbox("CSV", &request_.csv);
        tooltipForLastItem(
            "The numbers behind the main figure: one row per line, shortest "
            "round-trip decimals.");
        ImGui::SameLine();
        ImGui::Checkbox("NPY", &request_.npy);
        tooltipForLastItem("The same numbers as float64 .npy (numpy.load reads it).");
        ImGui::EndGroup();
        optionsWidth_ = ImGui::GetItemRectSize().x;
        optionsHeight_ = ImGui::GetItemRectSize().y;
        ImGui::EndChild();
        const float footerTop = ImGui::GetCursorPosY();

        request_.folder = folder_;
        request_.baseName = name_;
        const Status problem = checkExportRequest(request_);
        ImGui::Separator();
        if (problem) {
            for (const std::string& path : exportPaths(request_)) {
                std::error_code error;
                const bool exists = std::filesystem::exists(path, error);
                std::string line = fileName(path);
                if (fileExtension(path) == ".png") {
                    line +=
                        "  (" + std::to_string(int(std::lround(request_.width * request_.scale))) +
                        " x " + std::to_string(int(std::lround(request_.height * request_.scale))) +
                        " pixels)";
                }
                if (exists) line += "  replaces the existing file";
                ImGui::TextDisabled("%s", line.c_str());
            }
        } else {
            ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "%s",
                               problem.error().message.c_str());
        }
        const bool running = busy();
        if (running) ImGui::TextDisabled("An export is running; wait for it to finish.");

        ImGui::BeginDisabled(!problem || running);
        const bool exportPressed =
            ImGui::Button("Export") ||
            (problem && !running && ImGui::IsKeyPressed(GLFW_KEY_ENTER, false));
        ImGui::EndDisabled();
        tooltipForLastItem("Write the files (Enter). Progress shows in the status line.");
        ImGui::SameLine();
        const bool cancelPressed =
            ImGui::Button("Cancel") || ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false);
        buttonsBottom_ = ImGui::GetItemRectMax().y;
        footerHeight_ = ImGui::GetCursorPosY() - footerTop;
        if (exportPressed) {
            start(panel, state, status);
            ImGui::CloseCurrentPopup();
        } else if (cancelPressed) {
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    }
    closeRequested_ = false;
    poll(status);
}

}  // namespace poslab::ui
