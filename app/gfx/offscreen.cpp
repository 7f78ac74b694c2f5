#include "gfx/offscreen.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gfx/dot_sprites.hpp"
#include "gfx/figure_layers.hpp"
#include "gfx/figure_renderer.hpp"
#include "gfx/fonts.hpp"
#include "gfx/gl_objects.hpp"
#include "gfx/heatmap_textures.hpp"
#include "gfx/image_io.hpp"
#include "gfx/sanitizer_support.hpp"
#include "poslab/figure/text_markup.hpp"

namespace poslab::gfx {

struct OffscreenRenderer::State {
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
    ImGuiContext* imgui = nullptr;
    bool backendReady = false;
    bool deviceObjectsReady = false;  // the backend made its shader and font texture
    FontSet fonts;
    HeatmapTextures heatmaps;
    std::unique_ptr<FigureLayers> layers;  // useFigureLayers()
    std::unique_ptr<DotSprites> dots;      // useDotSprites()
    int triangles = 0;                     // the last render's
};

namespace {

// The pixel sizes and characters a figure's text needs, for FontSet::loadOnly().
void fontNeeds(const Figure& figure, float scale, std::vector<float>& sizes, std::string& text) {
    for (const FigureItem& item : figure.items) {
        const auto* label = std::get_if<TextItem>(&item);
        if (!label || label->text.empty()) continue;
        for (const TextRun& run : parseMarkup(label->text)) {  // scripts at their own sizes
            const float pixels = label->size * run.scale * scale;
            if (std::find(sizes.begin(), sizes.end(), pixels) == sizes.end())
                sizes.push_back(pixels);
            text += run.text;
        }
    }
}

Result<EGLDisplay> surfacelessDisplay() {
    auto getPlatformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
        eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (!getPlatformDisplay)
        return Error{"EGL has no eglGetPlatformDisplayEXT (install libegl-mesa0)"};
    EGLDisplay display =
        getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (display == EGL_NO_DISPLAY) return Error{"EGL's Mesa surfaceless platform is not available"};
    EGLint major = 0, minor = 0;
    if (!eglInitialize(display, &major, &minor)) {
        return Error{"eglInitialize failed on the surfaceless platform (error 0x" + [] {
            char b[16];
            std::snprintf(b, sizeof b, "%x", eglGetError());
            return std::string(b);
        }() + ")"};
    }
    return display;
}

// Begins ImGui's frame for drawing `figure` (and `over`, drawn on it) into a display of `size`
// pixels: the fonts both need are baked first (re-uploaded once the backend has made its
// texture), and the target draws onto the frame's background list.
FigureTarget beginFigureFrame(FontSet& fonts, bool& deviceObjectsReady, ImVec2 size, float scale,
                              const Figure& figure, const Figure* over = nullptr) {
    // Baking every size the screen has costs more than drawing the figure; bake what it needs.
    std::vector<float> sizes;
    std::string text;
    fontNeeds(figure, scale, sizes, text);
    if (over) fontNeeds(*over, scale, sizes, text);
    if (fonts.loadOnly(sizes, text) && deviceObjectsReady) {
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = size;
    io.DisplayFramebufferScale = ImVec2(1, 1);
    io.DeltaTime = 1.0f / 60.0f;
    ImGui_ImplOpenGL3_NewFrame();  // the first call makes the shader and uploads the fonts
    deviceObjectsReady = true;
    ImGui::NewFrame();
    FigureTarget target;
    target.drawList = ImGui::GetBackgroundDrawList();
    target.scale = scale;
    target.fonts = &fonts;
    return target;
}

}  // namespace

Result<std::unique_ptr<OffscreenRenderer>> OffscreenRenderer::create() {
    pinDriverLibrariesForLeakChecks();  // any process making one, not only `poslab render`
    std::unique_ptr<OffscreenRenderer> renderer(new OffscreenRenderer());
    renderer->state_ = std::make_unique<State>();
    State& s = *renderer->state_;

    auto display = surfacelessDisplay();
    if (!display) return display.error();
    s.display = *display;
    if (!eglBindAPI(EGL_OPENGL_API)) return Error{"EGL cannot bind the desktop OpenGL API"};
    const EGLint configAttributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configCount = 0;
    eglChooseConfig(s.display, configAttributes, &config, 1, &configCount);
    const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                        3,
                                        EGL_CONTEXT_MINOR_VERSION,
                                        3,
                                        EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                        EGL_NONE};
    s.context = eglCreateContext(s.display, configCount > 0 ? config : EGL_NO_CONFIG_KHR,
                                 EGL_NO_CONTEXT, contextAttributes);
    if (s.context == EGL_NO_CONTEXT)
        return Error{"EGL could not create an OpenGL 3.3 core context"};
    if (!eglMakeCurrent(s.display, EGL_NO_SURFACE, EGL_NO_SURFACE, s.context)) {
        return Error{"EGL could not make the surfaceless context current"};
    }
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress))) {
        return Error{"could not load OpenGL functions through EGL"};
    }

    IMGUI_CHECKVERSION();
    s.imgui = ImGui::CreateContext();
    ImGui::SetCurrentContext(s.imgui);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    // Fonts are baked per figure in render(): only the sizes and characters it draws.
    if (!ImGui_ImplOpenGL3_Init("#version 330 core"))
        return Error{"the ImGui OpenGL3 backend failed to start"};
    s.backendReady = true;
    if (auto status = s.heatmaps.initialize(); !status) return status.error();
    return renderer;
}

OffscreenRenderer::~OffscreenRenderer() {
    if (!state_) return;
    State& s = *state_;
    if (s.imgui) {
        ImGui::SetCurrentContext(s.imgui);
        s.heatmaps = HeatmapTextures();
        s.layers.reset();  // its GL objects, while the context is current
        s.dots.reset();
        if (s.backendReady) ImGui_ImplOpenGL3_Shutdown();
        ImGui::DestroyContext(s.imgui);
    }
    if (s.display != EGL_NO_DISPLAY) {
        eglMakeCurrent(s.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (s.context != EGL_NO_CONTEXT) eglDestroyContext(s.display, s.context);
        // Terminating joins llvmpipe's worker threads before exit (LeakSanitizer's tracer has
        // crashed on them otherwise); sanitizer builds keep the driver mapped, see main.cpp.
        eglTerminate(s.display);
    }
}

void OffscreenRenderer::useDotSprites(bool use) {
    if (use && !state_->dots) state_->dots = std::make_unique<DotSprites>();
    if (!use) state_->dots.reset();
}

int OffscreenRenderer::lastTriangles() const {
    return state_->triangles;
}

void OffscreenRenderer::useFigureLayers() {
    if (!state_->layers) state_->layers = std::make_unique<FigureLayers>();
}

const FigureLayers* OffscreenRenderer::figureLayers() const {
    return state_->layers.get();
}

std::vector<ItemBox> OffscreenRenderer::footprints(const Figure& figure, float scale) {
    State& s = *state_;
    ImGui::SetCurrentContext(s.imgui);
    // The fonts renderOver bakes for this figure, so the glyphs are the ones it draws.
    const FigureTarget target = beginFigureFrame(
        s.fonts, s.deviceObjectsReady,
        ImVec2(std::max(1.0f, figure.width * scale), std::max(1.0f, figure.height * scale)), scale,
        figure);
    std::vector<ItemBox> boxes = itemFootprints(target, figure);
    ImGui::EndFrame();
    return boxes;
}

Result<ImageRgba> OffscreenRenderer::render(const Figure& figure, float scale) {
    return renderOver(figure.background, figure, scale);
}

Result<ImageRgba> OffscreenRenderer::renderOver(Rgba underlay, const Figure& figure, float scale,
                                                const Figure* over) {
    State& s = *state_;
    ImGui::SetCurrentContext(s.imgui);
    const int width = int(std::lround(figure.width * scale));
    const int height = int(std::lround(figure.height * scale));
    GLint maxSize = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxSize);
    if (width < 1 || height < 1 || width > maxSize || height > maxSize) {
        return Error{"image size " + std::to_string(width) + " x " + std::to_string(height) +
                     " must be 1.." + std::to_string(maxSize) + " pixels per side"};
    }

    GLuint framebufferName = 0, colorName = 0;
    glGenFramebuffers(1, &framebufferName);
    Framebuffer framebuffer(framebufferName);
    glGenRenderbuffers(1, &colorName);
    Renderbuffer color(colorName);
    glBindRenderbuffer(GL_RENDERBUFFER, colorName);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, framebufferName);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colorName);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        return Error{"could not create a " + std::to_string(width) + " x " +
                     std::to_string(height) + " offscreen framebuffer"};
    }

    FigureTarget target = beginFigureFrame(
        s.fonts, s.deviceObjectsReady, ImVec2(float(width), float(height)), scale, figure, over);
    target.heatmaps = &s.heatmaps;
    target.layers = s.layers.get();
    target.dots = s.dots.get();
    drawFigure(target, figure);
    if (over) drawFigure(target, *over);
    ImGui::Render();
    s.triangles = ImGui::GetDrawData()->TotalIdxCount / 3;

    glBindFramebuffer(GL_FRAMEBUFFER, framebufferName);
    glViewport(0, 0, width, height);
    glClearColor(underlay.r / 255.f, underlay.g / 255.f, underlay.b / 255.f, underlay.a / 255.f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glFinish();
    ImageRgba image = readFramebuffer(width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    s.heatmaps.endFrame();
    if (s.layers) s.layers->endFrame();
    if (s.dots) s.dots->endFrame();
    return image;
}

}  // namespace poslab::gfx
