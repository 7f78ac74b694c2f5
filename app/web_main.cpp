// web_main.cpp — PosLab in the browser (web/CMakeLists.txt): the desktop's start-up order
// (main.cpp) for a WebGL2 canvas, with the frame loop handed to the browser
// (emscripten_set_main_loop: a tab cannot block in a loop of its own) and the address's
// fragment holding the view and its settings (#view=RoPE&s=…, state/share_link.hpp). Desktop-only
// start-up (command line, window icon, remembered session, monitor fitting) is left out.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gfx/fonts.hpp"
#include "panels/registry.hpp"
#include "poslab/base/background.hpp"
#include "ui/application.hpp"
#include "ui/frame_loop.hpp"
#include "ui/session.hpp"

namespace {

// Everything the page keeps between animation frames (lives as long as the page).
struct Page {
    GLFWwindow* window = nullptr;
    poslab::gfx::FontSet fonts;
    std::unique_ptr<poslab::ui::Application> application;
    std::string appliedFragment;  // the last fragment applied (a new one arrives on hashchange)
    long long frames = 0;
};

Page* page = nullptr;

// The address's fragment without '#', as the browser holds it.
std::string locationFragment() {
    char* text = reinterpret_cast<char*>(EM_ASM_INT({
        const hash = window.location.hash.substring(1);
        const size = lengthBytesUTF8(hash) + 1;
        const buffer = _malloc(size);
        stringToUTF8(hash, buffer, size);
        return buffer;
    }));
    std::string fragment = text ? text : "";
    std::free(text);
    return fragment;
}

// Opens a link's fragment (state/share_link.hpp); a bad one is reported in the status line.
void applyFragment(const std::string& fragment) {
    if (fragment.empty()) return;
    (void)page->application->openLink(fragment);
}

// The address follows the view and its settings as sliders move (history.replaceState: no
// history entry per slider step, no hashchange), so the address bar is always a link to
// what is on screen. Checked a few times a second: a JSON diff of the state is cheap, not free.
void publishFragment() {
    if (page->frames % 10 != 0) return;
    const std::string fragment = page->application->linkFragment();
    if (fragment == page->appliedFragment) return;
    page->appliedFragment = fragment;
    EM_ASM({ history.replaceState(null, "", "#" + UTF8ToString($0)); }, fragment.c_str());
}

// ---- Files: the page has no file system of its own. Whatever the app writes into its working
// folder (/downloads: F12's screenshot, File > Export's CSV/NPY, File > Save session) is handed
// to the browser as a download, then removed; files the user picks or drops are written into
// /uploads (index.html; GLFW's drop callback for drops) and opened as on the desktop.
constexpr const char* kDownloads = "/downloads";

void offerDownloads() {
    if (page->frames % 15 != 0) return;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(kDownloads, error)) {
        if (!entry.is_regular_file(error)) continue;
        const std::string path = entry.path().string();
        const std::string name = entry.path().filename().string();
        if (name.find(".tmp") != std::string::npos) continue;  // output_file's temporary
        EM_ASM(
            {
                const data = FS.readFile(UTF8ToString($0));
                const link = document.createElement('a');
                link.href = URL.createObjectURL(new Blob([data]));
                link.download = UTF8ToString($1);
                document.body.appendChild(link);
                link.click();
                link.remove();
                setTimeout(
                    function() { URL.revokeObjectURL(link.href); }, 10000);
            },
            path.c_str(), name.c_str());
        std::filesystem::remove(entry.path(), error);
        page->application->setStatus("Downloaded " + name);
    }
}

// ---- Opening files: the page's file picker (index.html's <input type=file>, File > Open
// file…) writes the chosen files into /uploads and hands their paths to poslabOpenFiles, which
// passes them to GLFW's drop callback: picked and dropped files take one path (Application's
// drop handler, then openFile as `poslab FILE`).
void openFilePicker() {
    EM_ASM({ document.getElementById('file-picker').click(); });
}

// ---- Clipboard: emscripten's GLFW has none. Copies go to an in-page buffer and, where the
// browser allows (a secure page, a recent user gesture), to the system clipboard through
// navigator.clipboard; pastes read the buffer, which the page's paste event (Ctrl+V, from any
// program) fills first (index.html). Within the page copy and paste work whatever the browser
// allows.
EM_JS(void, pageCopyText, (const char* text), {
    const value = UTF8ToString(text);
    Module.poslabClipboard = value;
    if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(value).catch(function(){});  // the buffer still holds it
    }
});
EM_JS(char*, pageClipboardText, (), {
    const value = Module.poslabClipboard || "";
    const size = lengthBytesUTF8(value) + 1;
    const buffer = _malloc(size);
    stringToUTF8(value, buffer, size);
    return buffer;
});

void setClipboardText(void*, const char* text) {
    pageCopyText(text ? text : "");
}

const char* clipboardText(void*) {
    static std::string kept;  // ImGui reads it until the next call
    char* text = pageClipboardText();
    kept = text ? text : "";
    std::free(text);
    return kept.c_str();
}

// Which build runs, for the File menu and the start-up status line (index.html chose it by
// crossOriginIsolated).
std::string threadModeText() {
    if (poslab::kBackgroundThreads) {
        return "Threads: heavy figures compute on worker threads (the page is cross-origin "
               "isolated)";
    }
    return "Single-threaded: the host sends no isolation headers, so heavy figures compute "
           "between frames";
}

// The page's File menu items (Application::platformFileMenu).
void drawPageFileMenu() {
    if (ImGui::MenuItem("Open file…")) openFilePicker();
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(
            "A config.json, .npy, .safetensors or session file from this computer: read in the "
            "page, never uploaded (dropping it on the page does the same)");
    }
    if (ImGui::MenuItem("Download figure PNG")) {
        std::string view = page->application->currentView();
        for (char& c : view) c = c == ' ' ? '-' : char(std::tolower(static_cast<unsigned char>(c)));
        page->application->requestFigurePng(std::string(kDownloads) + "/poslab-" + view + ".png");
    }
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(
            "The figure as drawn on screen, without the controls. PDF, SVG and PNG at any scale "
            "come from the desktop app and `poslab render`");
    }
    ImGui::TextDisabled("%s", threadModeText().c_str());
}

// The canvas follows the page's size (CSS pixels); GLFW's window is the canvas.
void followCanvasSize() {
    double cssWidth = 0, cssHeight = 0;
    emscripten_get_element_css_size("#canvas", &cssWidth, &cssHeight);
    const int width = std::max(320, int(std::lround(cssWidth)));
    const int height = std::max(240, int(std::lround(cssHeight)));
    int current = 0, currentHeight = 0;
    glfwGetWindowSize(page->window, &current, &currentHeight);
    if (width != current || height != currentHeight) glfwSetWindowSize(page->window, width, height);
}

void frame() {
    followCanvasSize();
    const std::string fragment = locationFragment();
    if (fragment != page->appliedFragment) {
        page->appliedFragment = fragment;
        applyFragment(fragment);
    }
    poslab::ui::renderInteractiveFrame(page->window, *page->application);
    ++page->frames;
    publishFragment();
    offerDownloads();
}

}  // namespace

// ---- For the page and its self-test (tests/web): read through Module.ccall.
extern "C" {
EMSCRIPTEN_KEEPALIVE long long poslabFramesDrawn() {
    return page ? page->frames : 0;
}
EMSCRIPTEN_KEEPALIVE int poslabWaitingForWork() {
    return page && page->application && page->application->waitingForWork() ? 1 : 0;
}
// The desktop's frame benchmark (--bench-frames N --bench-scenario NAME) run in the page: the
// same scenario code and statistics, printed to the console. Blocks the page while it runs.
EMSCRIPTEN_KEEPALIVE int poslabRunBenchmark(const char* scenario, int frames) {
    if (!page || !page->application) return 1;
    poslab::ui::LaunchOptions options;
    options.benchFrames = frames;
    options.benchScenario = scenario;
    return poslab::ui::runFrameLoop(page->window, *page->application, options);
}
// Files the page's picker wrote into /uploads (paths one per line): handed to GLFW's drop
// callback, the path dropped files take. Returns 1 when there is no window yet.
EMSCRIPTEN_KEEPALIVE int poslabOpenFiles(const char* lines) {
    if (!page || !page->application) return 1;
    std::vector<std::string> paths;
    for (std::string_view rest = lines ? lines : ""; !rest.empty();) {
        const std::size_t end = std::min(rest.find('\n'), rest.size());
        if (end > 0) paths.emplace_back(rest.substr(0, end));
        rest.remove_prefix(std::min(end + 1, rest.size()));
    }
    std::vector<const char*> pointers;
    for (const std::string& path : paths) pointers.push_back(path.c_str());
    // glfwSetDropCallback returns the callback it replaces: Application's, put back at once.
    const GLFWdropfun drop = glfwSetDropCallback(page->window, nullptr);
    glfwSetDropCallback(page->window, drop);
    if (drop && !pointers.empty()) drop(page->window, int(pointers.size()), pointers.data());
    return 0;
}
// The status line's message (the web check reads what opening a file or a download reported).
EMSCRIPTEN_KEEPALIVE const char* poslabStatus() {
    static std::string status;
    status = page && page->application ? page->application->status() : "";
    return status.c_str();
}
// 1 in the build with threads, 0 in the single-threaded one.
EMSCRIPTEN_KEEPALIVE int poslabHasThreads() {
    return poslab::kBackgroundThreads ? 1 : 0;
}
// ImGui's clipboard, as its copy and paste shortcuts use it (the web check's round trip).
EMSCRIPTEN_KEEPALIVE const char* poslabImGuiClipboard() {
    const char* text = ImGui::GetClipboardText();
    return text ? text : "";
}
EMSCRIPTEN_KEEPALIVE void poslabImGuiCopy(const char* text) {
    ImGui::SetClipboardText(text);
}
// File > Download figure PNG, File > Save session… and File > Export…'s CSV and NPY without
// the clicks (the web check): each writes into /downloads, which the page hands to the browser.
EMSCRIPTEN_KEEPALIVE void poslabDownloadFigurePng(const char* path) {
    if (page && page->application) page->application->requestFigurePng(path);
}
EMSCRIPTEN_KEEPALIVE int poslabSaveSession(const char* path) {
    if (!page || !page->application) return 1;
    const poslab::Status saved = poslab::ui::saveSession(*page->application, path);
    page->application->setStatus(saved ? std::string("Saved the session ") + path
                                       : saved.error().message);
    return saved ? 0 : 1;
}
EMSCRIPTEN_KEEPALIVE int poslabExportNumbers(const char* folder, const char* name) {
    if (!page || !page->application) return 1;
    return page->application->exportVisibleNumbers(folder, name) ? 0 : 1;
}
// 1 in presentation mode (F5), else 0.
EMSCRIPTEN_KEEPALIVE int poslabPresentationOn() {
    return page && page->application && page->application->state().tour.presentation ? 1 : 0;
}
// The last frame's figures as "x y width height" in canvas pixels (Download figure PNG's crop).
EMSCRIPTEN_KEEPALIVE const char* poslabFigureArea() {
    static char text[96];
    const poslab::Box area =
        page && page->application ? page->application->figureArea() : poslab::Box{};
    std::snprintf(text, sizeof text, "%g %g %g %g", area.x, area.y, area.width, area.height);
    return text;
}
EMSCRIPTEN_KEEPALIVE const char* poslabCurrentView() {
    static std::string view;
    view = page && page->application ? page->application->currentView() : "";
    return view.c_str();
}
}

int main() {
    page = new Page;
    std::filesystem::create_directories(kDownloads);
    std::filesystem::create_directories("/uploads");
    std::filesystem::current_path(kDownloads);
    setenv("HOME", kDownloads, 1);  // File > Save session's default folder: downloaded too
    if (!glfwInit()) {
        std::fprintf(stderr, "poslab: GLFW could not start\n");
        return 1;
    }
    // WebGL2 (OpenGL ES 3.0): the shaders are embedded as GLSL ES 3.00.
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    double cssWidth = 1024, cssHeight = 768;
    emscripten_get_element_css_size("#canvas", &cssWidth, &cssHeight);
    page->window = glfwCreateWindow(int(cssWidth), int(cssHeight), "PosLab", nullptr, nullptr);
    if (!page->window) {
        std::fprintf(stderr, "poslab: this browser gave no WebGL2 context\n");
        return 1;
    }
    glfwMakeContextCurrent(page->window);
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    ImGui::StyleColorsDark();
    ImGui::GetStyle().FrameRounding = 3.0f;
    ImGui::GetStyle().WindowRounding = 0.0f;
    ImGui_ImplGlfw_InitForOpenGL(page->window, true);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    page->fonts.load(16.0f);
    page->application = std::make_unique<poslab::ui::Application>(poslab::panels::makePanels());
    if (auto status = page->application->initialize(page->window, &page->fonts); !status) {
        std::fprintf(stderr, "poslab: %s\n", status.error().message.c_str());
        return 1;
    }
    io.SetClipboardTextFn = setClipboardText;  // after the GLFW backend, which set GLFW's
    io.GetClipboardTextFn = clipboardText;
    io.ClipboardUserData = nullptr;
    page->application->platformFileMenu = drawPageFileMenu;
    page->application->setStatus(threadModeText());
    std::printf("poslab: %s\n", threadModeText().c_str());
    // The browser calls frame() once per animation frame; main returns, the page lives on.
    emscripten_set_main_loop(frame, 0, false);
    return 0;
}
