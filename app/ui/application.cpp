#include "ui/application.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <ctime>

#include "gfx/dot_sprites.hpp"
#include "gfx/figure_layers.hpp"
#include "gfx/fonts.hpp"
#include "gfx/heatmap_textures.hpp"
#include "gfx/image_io.hpp"
#include "poslab/base/format.hpp"
#include "state/open_file.hpp"
#include "state/share_link.hpp"
#include "ui/key_help.hpp"
#include "ui/share_menu.hpp"
#include "ui/status_text.hpp"
#include "ui/widgets.hpp"

namespace poslab::ui {

namespace {

std::vector<std::string> titlesOf(const std::vector<std::unique_ptr<Panel>>& panels) {
    std::vector<std::string> titles;
    for (const auto& panel : panels) titles.emplace_back(panel->title());
    return titles;
}

}  // namespace

Application::Application(std::vector<std::unique_ptr<Panel>> panels)
    : panels_(std::move(panels)),
      heatmaps_(std::make_unique<gfx::HeatmapTextures>()),
      tour_(titlesOf(panels_)) {}

Application::~Application() = default;

std::size_t Application::nanTexelsDrawn() const {
    return heatmaps_->nanTexelsUploaded();
}

Status Application::initialize(GLFWwindow* window, gfx::FontSet* fonts) {
    window_ = window;
    fonts_ = fonts;
    // Files dropped onto the window go to the visible panel (the RoPE view reads config.json).
    glfwSetWindowUserPointer(window, this);
    glfwSetDropCallback(window, [](GLFWwindow* w, int count, const char** paths) {
        auto* application = static_cast<Application*>(glfwGetWindowUserPointer(w));
        for (int i = 0; i < count; ++i) (void)application->openFile(paths[i]);
    });
    // HiDPI: fonts and widgets follow the monitor's scale, also when the window changes monitor.
    float scaleX = 1, scaleY = 1;
    glfwGetWindowContentScale(window, &scaleX, &scaleY);
    contentScale_ = std::clamp(std::max(scaleX, scaleY), 0.5f, 4.0f);
    glfwSetWindowContentScaleCallback(window, [](GLFWwindow* w, float x, float y) {
        auto* application = static_cast<Application*>(glfwGetWindowUserPointer(w));
        application->contentScale_ = std::clamp(std::max(x, y), 0.5f, 4.0f);
    });
    baseStyle_ = std::make_unique<ImGuiStyle>(ImGui::GetStyle());
    // POSLAB_FIGURE_LAYERS=0 draws every figure every frame (to compare pixels and timings).
    const char* layers = std::getenv("POSLAB_FIGURE_LAYERS");
    if (!layers || std::string(layers) != "0") layers_ = std::make_unique<gfx::FigureLayers>();
    // POSLAB_DOT_SPRITES=0 draws small dots as ImGui's polygons (the pictures to compare).
    const char* dots = std::getenv("POSLAB_DOT_SPRITES");
    if (!dots || std::string(dots) != "0") dots_ = std::make_unique<gfx::DotSprites>();
    return heatmaps_->initialize();
}

Status Application::selectView(const std::string& name) {
    auto lower = [](std::string text) {
        for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
        return text;
    };
    std::string names;
    for (std::size_t i = 0; i < panels_.size(); ++i) {
        if (isViewNamed(panels_[i]->title(), name)) {
            viewToSelect_ = int(i);
            return success();
        }
        names += (names.empty() ? "" : ", ") + lower(panels_[i]->title());
    }
    return Error{"--view must be one of " + names + " (got " + quoteForMessage(name) + ")"};
}

namespace {

std::string timestampedScreenshotName() {
    char name[64];
    const std::time_t now = std::time(nullptr);
    std::strftime(name, sizeof name, "poslab-%Y%m%d-%H%M%S.png", std::localtime(&now));
    return name;
}

}  // namespace

Status Application::openFile(const std::string& path) {
    if (state::isLinkAddress(path)) return openLink(path);
    auto kind = state::classifyFileToOpen(path);
    if (!kind) {
        status_ = kind.error().message;
        return kind.error();
    }
    if (*kind == state::FileToOpen::Session) {
        Status opened = openSession(*this, path);
        status_ = opened ? "Opened the session " + path : opened.error().message;
        return opened;
    }
    const std::string view = state::viewFor(*kind);
    for (std::size_t i = 0; i < panels_.size(); ++i) {
        if (view == panels_[i]->title()) {
            viewToSelect_ = int(i);
            pendingFiles_.emplace_back(i, path);  // handed over when that panel draws
            return success();
        }
    }
    return Error{"no " + view + " view to open '" + path + "' in"};
}

std::string Application::openedFileProblem(const std::string& path) const {
    const state::RopeViewState& rope = state_.rope;
    if (rope.configPath == path && !rope.configError.empty()) return rope.configError;
    return "";
}

Panel::FileRead Application::openedFile(const std::string& path) const {
    for (const auto& panel : panels_) {
        Panel::FileRead read = panel->fileRead(state_, path);
        if (read.read || !read.problem.empty()) return read;
    }
    return {};
}

Status Application::openLink(std::string_view address) {
    state::Warnings warnings;
    auto request = state::applyLinkFragment(address, state_, warnings);
    if (!request) {
        status_ = request.error().message;
        return request.error();
    }
    status_ = warnings.empty() ? "" : "Link: " + warnings.front();
    if (request->lesson > 0) return startLesson(request->lesson);
    if (!request->view.empty()) return selectView(request->view);
    return success();
}

std::string Application::linkFragment() const {
    return poslab::state::linkFragment(state_, currentView());
}

void Application::setZoom(float zoom) {
    state_.uiZoom = std::clamp(zoom, state::kMinUiZoom, state::kMaxUiZoom);
}

void Application::prepareFrame() {
    const float scale = uiScale();
    if (std::abs(scale - bakedScale_) < 1e-3f || !fonts_ || !baseStyle_) return;
    fonts_->rebuild(16.0f, scale);
    ImGuiStyle style = *baseStyle_;
    style.ScaleAllSizes(scale);
    ImGui::GetStyle() = style;
    bakedScale_ = scale;
}

void Application::handleShortcuts() {
    const ImGuiIO& io = ImGui::GetIO();
    // Zoom like a browser: Ctrl+= (or Ctrl++), Ctrl+-, Ctrl+0; the keypad's + and - too.
    if (io.KeyCtrl && !io.WantTextInput) {
        if (ImGui::IsKeyPressed(GLFW_KEY_EQUAL) || ImGui::IsKeyPressed(GLFW_KEY_KP_ADD))
            setZoom(state_.uiZoom * 1.1f);
        if (ImGui::IsKeyPressed(GLFW_KEY_MINUS) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT))
            setZoom(state_.uiZoom / 1.1f);
        if (ImGui::IsKeyPressed(GLFW_KEY_0, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_0, false))
            setZoom(1.0f);
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_F12, false)) requestedScreenshot = timestampedScreenshotName();
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_Q, false)) quit_ = true;
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_E, false)) exportDialog_.open();
    if (!io.WantTextInput && ImGui::IsKeyPressed(GLFW_KEY_TAB, false) && io.KeyCtrl) {
        state_.showControls = !state_.showControls;
    }
    tour_.handleShortcuts(state_, *this, window_);  // F5 presentation, F11 full screen, arrows
}

void Application::drawMenuBar() {
    if (!ImGui::BeginMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Export…", "Ctrl+E")) exportDialog_.open();
        if (ImGui::MenuItem("Save session…")) sessionDialog_.openSave();
        if (ImGui::MenuItem("Open session…")) sessionDialog_.openLoad();
        if (platformFileMenu) platformFileMenu();
        if (ImGui::MenuItem("Screenshot", "F12")) requestedScreenshot = timestampedScreenshotName();
        drawShareLinkMenu(state_, linkFragment(), status_);  // Copy link, the page's address
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) quit_ = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        ImGui::MenuItem("Controls", "Ctrl+Tab", &state_.showControls);
        ImGui::Separator();
        if (ImGui::MenuItem("Zoom in", "Ctrl+=")) setZoom(state_.uiZoom * 1.1f);
        if (ImGui::MenuItem("Zoom out", "Ctrl+-")) setZoom(state_.uiZoom / 1.1f);
        if (ImGui::MenuItem("Actual size", "Ctrl+0")) setZoom(1.0f);
        ImGui::TextDisabled("Zoom %.0f %% (monitor scale %.2g)", state_.uiZoom * 100,
                            contentScale_);
        ImGui::Separator();
        if (ImGui::MenuItem("Dark figures", nullptr, state_.theme == ThemeId::Dark))
            state_.theme = ThemeId::Dark;
        if (ImGui::MenuItem("Paper figures", nullptr, state_.theme == ThemeId::Paper))
            state_.theme = ThemeId::Paper;
        ImGui::EndMenu();
    }
    tour_.drawMenu(state_, *this, window_);
    if (ImGui::BeginMenu("Help")) {
        // One key per row, its action aligned beside it (key_help.hpp lists them once).
        if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingFixedFit)) {
            for (const KeyHelp& key : kKeyHelp) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(key.keys.data(), key.keys.data() + key.keys.size());
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(key.what.data(), key.what.data() + key.what.size());
            }
            ImGui::EndTable();
        }
        ImGui::Separator();
        ImGui::TextUnformatted("The tour: Tour > 1 (or poslab --lesson 1).");
        ImGui::TextUnformatted("The same figures from the command line: poslab render --help");
        ImGui::EndMenu();
    }
    ImGui::EndMenuBar();
}

void Application::frame() {
    handleShortcuts();
    FrameContext context;
    context.fonts = fonts_;
    context.heatmaps = heatmaps_.get();
    context.layers = layers_.get();
    context.dots = dots_.get();
    context.uiScale = uiScale();
    context.theme = scaledTheme(themeFor(state_.theme), context.uiScale);
    context.statusMessage = &status_;
    context.layoutAudit = layoutAudit;
    context.controlsOnly = controlsOnly;
    Box figureArea;
    context.figureArea = &figureArea;
    tour_.beginFrame(state_, context, fonts_);  // presentation: larger fonts and figure text

    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
        ImGuiWindowFlags_MenuBar | ImGuiWindowFlags_NoBringToFrontOnFocus |
        ImGuiWindowFlags_NoBackground;  // the frame loop clears to WindowBg
    ImGui::Begin("PosLab", nullptr, flags);
    drawMenuBar();
    // A lecture (presentation mode, a lesson's card shown) gives the status row's height to the
    // figure, which the card and the larger text leave short (plots squeezed to strips at
    // 1024x768, #28); a message still shows, and Export stays in the File menu (Ctrl+E).
    const bool statusRow =
        !(state_.tour.presentation && state_.tour.lesson >= 0) || !status_.empty();
    const float statusHeight = statusRow ? ImGui::GetFrameHeightWithSpacing() : 0;
    ImGui::BeginChild(
        "main",
        ImVec2(0, -statusHeight - tour_.reservedHeight(state_)));  // room for the lesson card
    // The view's panel, with the files opened for it and a lesson's "panel" (first frame only).
    auto drawPanel = [&](std::size_t i) {
        activePanel_ = i;
        context.droppedFiles.clear();
        for (auto it = pendingFiles_.begin(); it != pendingFiles_.end();) {
            if (it->first == i) {
                context.droppedFiles.push_back(it->second);
                it = pendingFiles_.erase(it);
            } else {
                ++it;
            }
        }
        context.requestedPanel = int(i) == panelRequestView_ ? panelRequest_ : 0;
        context.theme.panelsOneAtATime = tour_.panelsOneAtATime(state_, panels_[i]->title());
        panels_[i]->draw(state_, context);
        context.theme.panelsOneAtATime = false;
        if (int(i) == panelRequestView_) panelRequestView_ = -1;
    };
    // One row of tabs while every title fits; else two rows of tab buttons, so every view stays
    // one click away on a 1024-pixel projector (a scrolled bar hid three of them). Narrower
    // still (480 pixels) the rows would eat the figures: one scrolled row of tabs again.
    std::vector<const char*> titles;
    for (const auto& panel : panels_) titles.push_back(panel->title());
    const bool wrapTabs =
        ui::tabRows(titles.data(), int(titles.size()), ImGui::GetContentRegionAvail().x) == 2;
    if (wrapTabs) {
        if (viewToSelect_ >= 0) activePanel_ = std::size_t(viewToSelect_);
        tabsWrapped_ = true;
        const int clicked =
            ui::tabButtonRows("views", titles.data(), int(titles.size()),
                              [&](int i) { return std::size_t(i) == activePanel_; });
        if (clicked >= 0) activePanel_ = std::size_t(clicked);
        if (activePanel_ < panels_.size()) {
            ImGui::PushID(panels_[activePanel_]->title());
            drawPanel(activePanel_);
            ImGui::PopID();
        }
    } else {
        // Back from rows of buttons: the tab bar opens on the view they showed.
        if (tabsWrapped_ && viewToSelect_ < 0) viewToSelect_ = int(activePanel_);
        tabsWrapped_ = false;
        if (ImGui::BeginTabBar("views", ImGuiTabBarFlags_FittingPolicyScroll)) {
            for (std::size_t i = 0; i < panels_.size(); ++i) {
                const ImGuiTabItemFlags tabFlags =
                    int(i) == viewToSelect_ ? ImGuiTabItemFlags_SetSelected : 0;
                if (ImGui::BeginTabItem(panels_[i]->title(), nullptr, tabFlags)) {
                    drawPanel(i);
                    ImGui::EndTabItem();
                }
            }
            ImGui::EndTabBar();
        }
    }
    ImGui::EndChild();
    viewToSelect_ = -1;
    if (activePanel_ < panels_.size()) exportDialog_.draw(*panels_[activePanel_], state_, &status_);
    if (statusRow) {
        if (ImGui::SmallButton("Export…")) exportDialog_.open();
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip(
                "Export this view as PNG, SVG or PDF and its numbers as CSV or NPY (Ctrl+E)");
        }
        ImGui::SameLine();
        const std::string_view message =
            status_.empty() ? std::string_view("Hover a figure for values; F12 saves a screenshot.")
                            : std::string_view(status_);
        const std::string shown =
            ui::fitToWidth(message, ImGui::GetContentRegionAvail().x, [](std::string_view text) {
                return ImGui::CalcTextSize(text.data(), text.data() + text.size()).x;
            });
        ImGui::TextDisabled("%s", shown.c_str());
        if (shown.size() != message.size() && ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", std::string(message).c_str());
    }
    sessionDialog_.draw(*this);
    tour_.drawOpenDialog(state_, *this);
    ImGui::End();
    tour_.drawCard(state_, *this);
    tour_.endFrame();
    figureArea_ = figureArea;
    animating_ = context.animating || exportDialog_.busy() ||  // progress keeps frames coming
                 !figurePngPath_.empty();
    waiting_ = context.waiting;
}

Status Application::startLesson(int number) {
    if (!tour_.loadError().empty()) return Error{tour_.loadError()};
    return tour_.show(number - 1, state_, *this);
}

std::string Application::currentView() const {
    return activePanel_ < panels_.size() ? panels_[activePanel_]->title() : "";
}

std::pair<std::size_t, std::size_t> Application::figureLayerCounts() const {
    if (!layers_) return {0, 0};
    return {layers_->copies(), layers_->captured()};
}

void Application::afterRender(int framebufferWidth, int framebufferHeight) {
    if (!requestedScreenshot.empty()) {
        const ImageRgba image = gfx::readFramebuffer(framebufferWidth, framebufferHeight);
        const Status saved = gfx::savePng(image, requestedScreenshot);
        status_ = saved ? "Saved screenshot " + requestedScreenshot : saved.error().message;
        requestedScreenshot.clear();
    }
    if (!figurePngPath_.empty() && --figurePngFrames_ <= 0) {
        status_ = saveFigurePng(framebufferWidth, framebufferHeight);
        figurePngPath_.clear();
    }
    heatmaps_->endFrame();
    if (layers_) layers_->endFrame();
    if (dots_) dots_->endFrame();
}

Status Application::exportVisibleNumbers(const std::string& folder, const std::string& name) {
    if (activePanel_ >= panels_.size()) return Error{"no view to export"};
    ExportRequest request;
    request.folder = folder;
    request.baseName = name;
    request.png = request.svg = request.pdf = false;
    request.csv = request.npy = true;
    exportDialog_.exportNow(*panels_[activePanel_], state_, request, &status_);
    if (!exportDialog_.busy()) return Error{status_};
    return success();
}

std::string Application::saveFigurePng(int framebufferWidth, int framebufferHeight) {
    const Box area = figureArea_;
    if (area.width < 1 || area.height < 1) return "No figure on screen to save";
    // Screen pixels to framebuffer pixels (a HiDPI framebuffer is larger than the window).
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float sx = display.x > 0 ? float(framebufferWidth) / display.x : 1.0f;
    const float sy = display.y > 0 ? float(framebufferHeight) / display.y : 1.0f;
    const int x0 = int(std::floor(area.x * sx)), y0 = int(std::floor(area.y * sy));
    const int x1 = int(std::ceil((area.x + area.width) * sx));
    const int y1 = int(std::ceil((area.y + area.height) * sy));
    const ImageRgba figure = gfx::cropImage(
        gfx::readFramebuffer(framebufferWidth, framebufferHeight), x0, y0, x1 - x0, y1 - y0);
    const Status saved = gfx::writePng(figure, figurePngPath_);
    return saved ? "Saved the figure " + figurePngPath_ + " (" + std::to_string(figure.width) +
                       "x" + std::to_string(figure.height) + ", as drawn on screen)"
                 : saved.error().message;
}

}  // namespace poslab::ui
