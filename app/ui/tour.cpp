#include "ui/tour.hpp"

#include "ui/application.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>

#include "gfx/fonts.hpp"
#include "ui/session.hpp"

namespace poslab::ui {

Result<std::vector<Lesson>> parseLessons(std::string_view jsonText) {
    const nlohmann::json document = nlohmann::json::parse(jsonText, nullptr, false);
    if (document.is_discarded()) return Error{"lessons: not valid JSON"};
    if (!document.is_object() || !document.contains("lessons") || !document["lessons"].is_array()) {
        return Error{"lessons: expected {\"lessons\": [...]}"};
    }
    std::vector<Lesson> lessons;
    int index = 0;
    for (const nlohmann::json& entry : document["lessons"]) {
        ++index;
        const std::string where = "lesson " + std::to_string(index);
        if (!entry.is_object()) return Error{where + ": expected an object"};
        Lesson lesson;
        for (auto [key, field] :
             {std::pair{"title", &lesson.title}, std::pair{"view", &lesson.view},
              std::pair{"text", &lesson.text}}) {
            auto it = entry.find(key);
            if (it == entry.end() || !it->is_string() || it->get<std::string>().empty()) {
                return Error{where + ": \"" + key + "\" must be a non-empty string"};
            }
            *field = it->get<std::string>();
        }
        auto state = entry.find("state");
        if (state != entry.end() && !state->is_object())
            return Error{where + ": \"state\" must be an object"};
        lesson.state = state != entry.end() ? *state : nlohmann::json::object();
        lessons.push_back(std::move(lesson));
    }
    if (lessons.empty()) return Error{"lessons: the list is empty"};
    return lessons;
}

Tour::Tour() {
    auto lessons = parseLessons(embeddedAsset("lessons.json"));
    if (lessons)
        lessons_ = std::move(lessons).value();
    else
        loadError_ = lessons.error().message;
}

Status Tour::show(int index, AppState& state, Application& application) {
    if (index < 0 || index >= int(lessons_.size())) {
        return Error{"--lesson must be 1.." + std::to_string(lessons_.size()) + " (got " +
                     std::to_string(index + 1) + ")"};
    }
    const Lesson& lesson = lessons_[std::size_t(index)];
    state.tour.lesson = index;
    Warnings warnings;
    applyStateJson(lesson.state, state, warnings);
    const Status selected = application.selectView(lesson.view);
    if (!selected) warnings.push_back(selected.error().message);
    if (!warnings.empty()) {
        std::string joined;
        for (const std::string& w : warnings) joined += (joined.empty() ? "" : "; ") + w;
        return Error{"lesson " + std::to_string(index + 1) + " ('" + lesson.title +
                     "'): " + joined};
    }
    return success();
}

void Tour::setPresentation(AppState& state, bool on) {
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

void Tour::handleShortcuts(AppState& state, Application& application, GLFWwindow* window) {
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
    if (next && lesson + 1 < int(lessons_.size())) (void)show(lesson + 1, state, application);
    if (back && lesson > 0) (void)show(lesson - 1, state, application);
}

void Tour::drawMenu(AppState& state, Application& application, GLFWwindow* window) {
    if (!ImGui::BeginMenu("Tour")) return;
    if (!loadError_.empty()) ImGui::TextDisabled("%s", loadError_.c_str());
    for (std::size_t i = 0; i < lessons_.size(); ++i) {
        const std::string label = std::to_string(i + 1) + ". " + lessons_[i].title;
        if (ImGui::MenuItem(label.c_str(), nullptr, state.tour.lesson == int(i))) {
            (void)show(int(i), state, application);
        }
    }
    ImGui::Separator();
    bool presentation = state.tour.presentation;
    if (ImGui::MenuItem("Presentation mode", "F5", &presentation))
        setPresentation(state, presentation);
    bool full = fullScreen_;
    if (ImGui::MenuItem("Full screen", "F11", &full)) setFullScreen(window, full);
    if (state.tour.lesson >= 0 && ImGui::MenuItem("Close the tour", "Esc")) close(state);
    ImGui::EndMenu();
}

void Tour::beginFrame(const AppState& state, FrameContext& context, const gfx::FontSet* fonts) {
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

float Tour::reservedHeight(const AppState& state) const {
    if (state.tour.lesson < 0 || state.tour.lesson >= int(lessons_.size())) return 0;
    // Before the first card is measured: a guess of five lines.
    return cardHeight_ > 0 ? cardHeight_ + 4 : ImGui::GetTextLineHeightWithSpacing() * 5;
}

void Tour::drawCard(AppState& state, Application& application) {
    const int index = state.tour.lesson;
    if (index < 0 || index >= int(lessons_.size())) {
        cardHeight_ = 0;
        return;
    }
    const Lesson& lesson = lessons_[std::size_t(index)];
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    // A strip across the bottom, below the status line, in the space the views leave free
    // (reservedHeight): it never covers a figure.
    const float margin = 6;
    ImGui::SetNextWindowPos(
        ImVec2(viewport->WorkPos.x + margin, viewport->WorkPos.y + viewport->WorkSize.y - 2),
        ImGuiCond_Always, ImVec2(0, 1));
    ImGui::SetNextWindowSize(ImVec2(viewport->WorkSize.x - 2 * margin, 0));
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
        ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoFocusOnAppearing;
    if (ImGui::Begin("##lesson", nullptr, flags)) {
        ImGui::TextDisabled("Lesson %d of %zu", index + 1, lessons_.size());
        ImGui::SameLine();
        ImGui::TextUnformatted(lesson.title.c_str());
        ImGui::SameLine(ImGui::GetWindowWidth() - ImGui::CalcTextSize("< Back  Next >  Close ").x -
                        ImGui::GetStyle().FramePadding.x * 6 - ImGui::GetStyle().WindowPadding.x);
        ImGui::BeginDisabled(index == 0);
        if (ImGui::Button("< Back")) (void)show(index - 1, state, application);
        ImGui::EndDisabled();
        ImGui::SameLine();
        ImGui::BeginDisabled(index + 1 >= int(lessons_.size()));
        if (ImGui::Button("Next >")) (void)show(index + 1, state, application);
        ImGui::EndDisabled();
        ImGui::SameLine();
        if (ImGui::Button("Close")) close(state);
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(lesson.text.c_str());
        ImGui::PopTextWrapPos();
        ImGui::TextDisabled(
            "Left/Right arrows step through the lessons; F5 presentation mode; F11 full screen.");
        cardHeight_ = ImGui::GetWindowHeight();
    }
    ImGui::End();
}

}  // namespace poslab::ui
