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

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "gfx/fonts.hpp"
#include "panels/registry.hpp"
#include "ui/application.hpp"
#include "ui/frame_loop.hpp"

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
                setTimeout(function() { URL.revokeObjectURL(link.href); }, 10000);
            },
            path.c_str(), name.c_str());
        std::filesystem::remove(entry.path(), error);
        page->application->setStatus("Downloaded " + name);
    }
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
// A file the page's picker wrote into /uploads: opened as `poslab FILE` opens it.
EMSCRIPTEN_KEEPALIVE int poslabOpenFile(const char* path) {
    if (!page || !page->application) return 1;
    return page->application->openFile(path) ? 0 : 1;
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
    page->application = std::make_unique<poslab::ui::Application>(poslab::ui::makePanels());
    if (auto status = page->application->initialize(page->window, &page->fonts); !status) {
        std::fprintf(stderr, "poslab: %s\n", status.error().message.c_str());
        return 1;
    }
    // The browser calls frame() once per animation frame; main returns, the page lives on.
    emscripten_set_main_loop(frame, 0, false);
    return 0;
}
