#include "ui/frame_loop.hpp"

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "cli/args.hpp"

namespace poslab::ui {

Result<LaunchOptions> parseLaunchOptions(const std::vector<std::string>& arguments) {
    const std::vector<cli::OptionSpec> options = {
        {"bench-frames", "N", "frames to time while the base slider moves"},
        {"screenshot", "FILE.png", "save a screenshot after the first frames, then quit"},
        {"view", "NAME", "view to open first"}};
    auto args = cli::parseArguments(arguments, options, "poslab");
    if (!args) return args.error();
    LaunchOptions launch;
    auto frames = args->integer("bench-frames", 0);
    if (!frames) return frames.error();
    if (*frames < 0 || *frames > 1000000) {
        return Error{"--bench-frames must be 0..1000000 (got " + std::to_string(*frames) + ")"};
    }
    launch.benchFrames = int(*frames);
    launch.screenshotPath = args->text("screenshot", "").value();
    launch.initialView = args->text("view", "").value();
    return launch;
}

namespace {

using Clock = std::chrono::steady_clock;

// POSLAB_BENCH_D / POSLAB_BENCH_L override the benchmark's table size (for profiling).
int benchDModelFromEnvironment(int fallback) {
    const char* text = std::getenv("POSLAB_BENCH_D");
    return text ? std::clamp(std::atoi(text), 1, 8192) : fallback;
}
int benchSeqLenFromEnvironment(int fallback) {
    const char* text = std::getenv("POSLAB_BENCH_L");
    return text ? std::clamp(std::atoi(text), 1, 65536) : fallback;
}

void renderFrame(GLFWwindow* window, Application& application) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    application.frame();
    ImGui::Render();
    int width = 0, height = 0;
    glfwGetFramebufferSize(window, &width, &height);
    glViewport(0, 0, width, height);
    glClearColor(0.118f, 0.125f, 0.141f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    application.afterRender(width, height);
    glfwSwapBuffers(window);
}

void printFrameStatistics(std::vector<double> milliseconds) {
    if (milliseconds.empty()) return;
    std::sort(milliseconds.begin(), milliseconds.end());
    double sum = 0;
    for (double m : milliseconds) sum += m;
    auto percentile = [&](double q) {
        return milliseconds[std::min(milliseconds.size() - 1, std::size_t(q * milliseconds.size()))];
    };
    std::printf("frames %zu  median %.2f ms  mean %.2f ms  p95 %.2f ms  max %.2f ms\n",
                milliseconds.size(), percentile(0.5), sum / milliseconds.size(), percentile(0.95),
                milliseconds.back());
}

}  // namespace

int runFrameLoop(GLFWwindow* window, Application& application, const LaunchOptions& options) {
    const auto frameBudget = std::chrono::microseconds(16667);  // 60 frames per second at most
    int framesToDraw = 3;  // ImGui settles layouts over a couple of frames after each event

    if (options.benchFrames > 0) {
        // Move the base slider every frame, as a user dragging it would, and time whole frames
        // (UI, table sample, texture upload, shader, ImGui render, glFinish).
        std::vector<double> times;
        SinusoidalViewState& view = application.state().sinusoidal;
        view.params.dModel = benchDModelFromEnvironment(1024);
        view.params.seqLen = benchSeqLenFromEnvironment(4096);
        for (int i = 0; i < options.benchFrames + 5 && !glfwWindowShouldClose(window); ++i) {
            glfwPollEvents();
            view.params.base = 10000.0 * std::pow(1.01, i % 200);
            const auto start = Clock::now();
            renderFrame(window, application);
            glFinish();
            const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
            if (i >= 5) times.push_back(ms);  // skip warm-up (font atlas, shader compile)
        }
        printFrameStatistics(times);
        return 0;
    }

    int screenshotCountdown = options.screenshotPath.empty() ? -1 : 5;
    while (!glfwWindowShouldClose(window) && !application.quitRequested()) {
        if (framesToDraw > 0 || application.wantsAnimation() || screenshotCountdown >= 0) {
            glfwPollEvents();
        } else {
            glfwWaitEvents();  // sleep until input arrives (or glfwPostEmptyEvent wakes us)
            framesToDraw = 3;
        }
        const auto start = Clock::now();
        if (screenshotCountdown == 0) application.requestedScreenshot = options.screenshotPath;
        renderFrame(window, application);
        if (screenshotCountdown == 0) break;
        if (screenshotCountdown > 0) --screenshotCountdown;
        if (framesToDraw > 0) --framesToDraw;
        if (ImGui::GetIO().MouseDown[0] || ImGui::IsAnyItemActive()) framesToDraw = 3;
        std::this_thread::sleep_until(start + frameBudget);
    }
    return 0;
}

}  // namespace poslab::ui
