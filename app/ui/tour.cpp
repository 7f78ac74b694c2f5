#include "ui/tour.hpp"

#include "ui/application.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdlib>

#include "gfx/fonts.hpp"
#include "ui/markup_text.hpp"
#include "ui/session.hpp"
#include "ui/widgets.hpp"

namespace poslab::ui {

Tour::Tour(std::vector<std::string> viewTitles) : viewTitles_(std::move(viewTitles)) {
    auto lessons = state::parseLessons(embeddedAsset("lessons.json"), viewTitles_);
    if (lessons)
        lessons_ = std::move(lessons).value();
    else
        loadError_ = "built-in lessons: " + lessons.error().message;
}

Status Tour::openFile(const std::string& path, state::AppState& state) {
    auto lessons = state::loadLessonsFile(path, viewTitles_);
    if (!lessons) return lessons.error();  // the lessons shown stay
    lessons_ = std::move(lessons).value();
    loadError_.clear();
    source_ = path;
    close(state);
    return success();
}

void Tour::useBuiltIn(state::AppState& state) {
    Tour builtIn(viewTitles_);
    lessons_ = std::move(builtIn.lessons_);
    loadError_ = std::move(builtIn.loadError_);
    source_.clear();
    close(state);
}

int Tour::stepCount() const {
    int count = 0;
    for (const state::Lesson& lesson : lessons_) count += int(lesson.steps.size());
    return count;
}

Status Tour::show(int index, state::AppState& state, Application& application, int step) {
    if (index < 0 || index >= int(lessons_.size())) {
        return Error{"--lesson must be 1.." + std::to_string(lessons_.size()) + " (got " +
                     std::to_string(index + 1) + ")"};
    }
    const state::Lesson& lesson = lessons_[std::size_t(index)];
    step = std::clamp(step, 0, int(lesson.steps.size()) - 1);
    state.tour.lesson = index;
    state.tour.step = step;
    // The lesson's state and every step's up to this one, in order: Back lands where Next did.
    state::Warnings warnings;
    for (int k = 0; k <= step; ++k)
        state::applyStateJson(lesson.steps[std::size_t(k)].state, state, warnings);
    const Status selected = application.selectView(lesson.steps[std::size_t(step)].view);
    if (!selected) warnings.push_back(selected.error().message);
    // The panel the latest step in this view asked for (Back lands on the panel Next showed).
    if (const int panel = stepPanel(lesson, step); panel > 0) application.requestPanel(panel);
    if (!warnings.empty()) {
        std::string joined;
        for (const std::string& w : warnings) joined += (joined.empty() ? "" : "; ") + w;
        return Error{"lesson " + std::to_string(index + 1) + " ('" + lesson.title +
                     "'): " + joined};
    }
    return success();
}

int Tour::stepPanel(const state::Lesson& lesson, int step) {
    if (step < 0 || step >= int(lesson.steps.size())) return 0;
    for (int k = step; k >= 0; --k) {
        const state::LessonStep& earlier = lesson.steps[std::size_t(k)];
        if (earlier.view != lesson.steps[std::size_t(step)].view) break;
        if (earlier.panel > 0) return earlier.panel;
    }
    return 0;
}

bool Tour::panelsOneAtATime(const state::AppState& state, std::string_view view) const {
    if (!state.tour.presentation || state.tour.lesson < 0 ||
        state.tour.lesson >= int(lessons_.size()))
        return false;
    const state::Lesson& lesson = lessons_[std::size_t(state.tour.lesson)];
    if (state.tour.step < 0 || state.tour.step >= int(lesson.steps.size())) return false;
    const std::string& shown = lesson.steps[std::size_t(state.tour.step)].view;
    return isViewNamed(view, shown) && stepPanel(lesson, state.tour.step) > 0;
}

Status Tour::next(state::AppState& state, Application& application) {
    const int index = state.tour.lesson;
    if (index < 0 || index >= int(lessons_.size())) return success();
    if (state.tour.step + 1 < int(lessons_[std::size_t(index)].steps.size()))
        return show(index, state, application, state.tour.step + 1);
    if (index + 1 < int(lessons_.size())) return show(index + 1, state, application);
    return success();
}

Status Tour::back(state::AppState& state, Application& application) {
    const int index = state.tour.lesson;
    if (index < 0 || index >= int(lessons_.size())) return success();
    if (state.tour.step > 0) return show(index, state, application, state.tour.step - 1);
    if (index > 0) {
        const int last = int(lessons_[std::size_t(index - 1)].steps.size()) - 1;
        return show(index - 1, state, application, last);
    }
    return success();
}

void Tour::setPresentation(state::AppState& state, bool on) {
    if (on == state.tour.presentation) return;
    state.tour.presentation = on;
    if (on) {
        controlsBeforePresentation_ = state.showControls;
        state.showControls = false;
    } else {
        state.showControls = controlsBeforePresentation_;
    }
}

void Tour::setFullScreen(GLFWwindow* window, bool on) {
    if (!window || on == fullScreen_) return;
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    if (on) {
        if (!mode) return;
        glfwGetWindowPos(window, &windowedX_, &windowedY_);
        glfwGetWindowSize(window, &windowedWidth_, &windowedHeight_);
        glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    } else {
        glfwSetWindowMonitor(window, nullptr, windowedX_, windowedY_, windowedWidth_,
                             windowedHeight_, 0);
    }
    fullScreen_ = on;
}

void Tour::handleShortcuts(state::AppState& state, Application& application, GLFWwindow* window) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput) return;
    if (ImGui::IsKeyPressed(GLFW_KEY_F5, false)) setPresentation(state, !state.tour.presentation);
    if (ImGui::IsKeyPressed(GLFW_KEY_F11, false)) setFullScreen(window, !fullScreen_);
    if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) {
        if (fullScreen_)
            setFullScreen(window, false);
        else if (state.tour.presentation)
            setPresentation(state, false);
        else if (state.tour.lesson >= 0)
            close(state);
    }
    const int lesson = state.tour.lesson;
    if (lesson < 0 || io.KeyCtrl) return;
    // Arrow keys and Page Up/Down (what presentation clickers send) step through the lessons.
    const bool next =
        ImGui::IsKeyPressed(GLFW_KEY_RIGHT) || ImGui::IsKeyPressed(GLFW_KEY_PAGE_DOWN);
    const bool back = ImGui::IsKeyPressed(GLFW_KEY_LEFT) || ImGui::IsKeyPressed(GLFW_KEY_PAGE_UP);
    if (next) (void)this->next(state, application);
    if (back) (void)this->back(state, application);
}

void Tour::drawMenu(state::AppState& state, Application& application, GLFWwindow* window) {
    if (!ImGui::BeginMenu("Tour")) return;
    if (!loadError_.empty()) ImGui::TextDisabled("%s", loadError_.c_str());
    if (!source_.empty()) ImGui::TextDisabled("Lessons from %s", source_.c_str());
    for (std::size_t i = 0; i < lessons_.size(); ++i) {
        const std::string label = std::to_string(i + 1) + ". " + lessons_[i].title;
        if (ImGui::MenuItem(label.c_str(), nullptr, state.tour.lesson == int(i))) {
            (void)show(int(i), state, application);
        }
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Open lessons…")) openRequested_ = true;
    if (!source_.empty() && ImGui::MenuItem("Built-in lessons")) useBuiltIn(state);
    ImGui::Separator();
    bool presentation = state.tour.presentation;
    if (ImGui::MenuItem("Presentation mode", "F5", &presentation))
        setPresentation(state, presentation);
    bool full = fullScreen_;
    if (ImGui::MenuItem("Full screen", "F11", &full)) setFullScreen(window, full);
    if (state.tour.lesson >= 0 && ImGui::MenuItem("Close the tour", "Esc")) close(state);
    ImGui::EndMenu();
}

void Tour::beginFrame(const state::AppState& state, FrameContext& context,
                      const gfx::FontSet* fonts) {
    fontPushed_ = false;
    if (!state.tour.presentation) return;
    context.uiScale *= kPresentationScale;
    context.theme = scaledTheme(context.theme, kPresentationScale);
    if (fonts && fonts->ui()) {
        ImGui::PushFont(fonts->forSize(ImGui::GetFontSize() * kPresentationScale));
        fontPushed_ = true;
    }
}

void Tour::endFrame() {
    if (fontPushed_) ImGui::PopFont();
    fontPushed_ = false;
}

float Tour::reservedHeight(const state::AppState& state) const {
    if (state.tour.lesson < 0 || state.tour.lesson >= int(lessons_.size())) return 0;
    // Before the first card is measured: a guess of five lines.
    return cardHeight_ > 0 ? cardHeight_ + 4 : ImGui::GetTextLineHeightWithSpacing() * 5;
}

void Tour::drawCard(state::AppState& state, Application& application) {
    const int index = state.tour.lesson;
    if (index < 0 || index >= int(lessons_.size())) {
        cardHeight_ = 0;
        card_ = {};
        return;
    }
    const state::Lesson& lesson = lessons_[std::size_t(index)];
    const int stepCount = int(lesson.steps.size());
    const int step = std::clamp(state.tour.step, 0, stepCount - 1);
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    // A strip across the bottom, below the status line, in the space the views leave free
    // (reservedHeight): it never covers a figure. It grows with its text (wrapped to the width).
    const float margin = 6;
    ImGui::SetNextWindowPos(
        ImVec2(viewport->WorkPos.x + margin, viewport->WorkPos.y + viewport->WorkSize.y - 2),
        ImGuiCond_Always, ImVec2(0, 1));
    ImGui::SetNextWindowSize(ImVec2(viewport->WorkSize.x - 2 * margin, 0));
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
        ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoFocusOnAppearing;
    if (ImGui::Begin("##lesson", nullptr, flags)) {
        if (stepCount > 1)
            ImGui::TextDisabled("Lesson %d of %zu (%d/%d)", index + 1, lessons_.size(), step + 1,
                                stepCount);
        else
            ImGui::TextDisabled("Lesson %d of %zu", index + 1, lessons_.size());
        ImGui::SameLine();
        ImGui::TextUnformatted(lesson.title.c_str());
        // The buttons at the right; below the title when a long title would run into them.
        const float buttonsX =
            ImGui::GetWindowWidth() - ImGui::CalcTextSize("< Back  Next >  Close ").x -
            ImGui::GetStyle().FramePadding.x * 6 - ImGui::GetStyle().WindowPadding.x;
        const float titleEnd = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x;
        if (titleEnd + ImGui::GetStyle().ItemSpacing.x <= buttonsX)
            ImGui::SameLine(buttonsX);
        else
            ImGui::SetCursorPosX(buttonsX);
        const bool first = index == 0 && step == 0;
        const bool last = index + 1 >= int(lessons_.size()) && step + 1 >= stepCount;
        ImGui::BeginDisabled(first);
        if (ImGui::Button("< Back")) (void)back(state, application);
        ImGui::EndDisabled();
        ImGui::SameLine();
        ImGui::BeginDisabled(last);
        if (ImGui::Button("Next >")) (void)next(state, application);
        ImGui::EndDisabled();
        ImGui::SameLine();
        if (ImGui::Button("Close")) close(state);
        markupTextWrapped(lesson.steps[std::size_t(step)].text);  // $θ_i$ as the figures set it
        // On a projector every line counts: the keys are the ones any presenter expects.
        if (!state.tour.presentation) {
            ImGui::TextDisabled(
                "Left/Right arrows step through the lessons; F5 presentation mode; F11 full "
                "screen.");
        }
        cardHeight_ = ImGui::GetWindowHeight();
        card_ = {ImGui::GetWindowPos().y, cardHeight_, viewport->WorkPos.y, viewport->WorkSize.y};
    }
    ImGui::End();
}

void Tour::drawOpenDialog(state::AppState& state, Application& application) {
    if (openRequested_) {
        openRequested_ = false;
        openMessage_.clear();
        if (openPath_.empty()) {
            const char* home = std::getenv("HOME");
            openPath_ = std::string(home ? home : ".") + "/lessons.json";
        }
        ImGui::OpenPopup("Open lessons");
    }
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 34, 0));
    if (!ImGui::BeginPopupModal("Open lessons", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::TextUnformatted("A lessons file (a copy of share/poslab/lessons.json, edited):");
    ImGui::SetNextItemWidth(-1);
    const bool enter =
        inputString("##lessons path", &openPath_, ImGuiInputTextFlags_EnterReturnsTrue);
    if (!openMessage_.empty()) {
        errorText(openMessage_);
    }
    if (ImGui::Button("Open") || enter) {
        if (Status s = openFile(openPath_, state); s) {
            application.setStatus("Opened " + std::to_string(lessons_.size()) + " lessons from " +
                                  openPath_);
            (void)show(0, state, application);
            ImGui::CloseCurrentPopup();
        } else {
            openMessage_ = s.error().message;
        }
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false))
        ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

}  // namespace poslab::ui
