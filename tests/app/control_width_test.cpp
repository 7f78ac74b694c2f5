// --check-layout's narrow controls (ui/widgets.hpp, ui/layout_sweep.hpp): a field narrower than
// the value it shows is reported, whichever kind of control it is, and no view draws a control
// the check cannot see. Widths expected are worked out from ImGui's own layout of each widget
// (frame padding either side of the text, an input's - and + buttons a frame high, a combo's
// arrow a frame wide), not from the widgets' code. Also the RoPE Usage tab's answer to "was this
// checkpoint read?", which --check-layout asks instead of reading the status line.
#include <gtest/gtest.h>

#include <imgui.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../core/io/fake_checkpoint.hpp"
#include "panels/rope_usage_tab.hpp"
#include "process.hpp"
#include "ui/layout_sweep.hpp"
#include "ui/widgets.hpp"

namespace poslab::test {
namespace {

// One ImGui frame without a backend: a window `width` pixels wide at the top left, the controls
// drawn in it by `draw` while --check-layout audits controls. Returns what the audit reported.
class ControlWidthTest : public ::testing::Test {
  protected:
    void SetUp() override {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(800, 600);
        io.IniFilename = nullptr;
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // the default font, 13 px
    }
    void TearDown() override {
        ui::controlSweep() = {};
        ImGui::DestroyContext();
    }

    template <class Draw>
    static std::vector<std::string> audited(float width, Draw draw) {
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(width, 500));
        ImGui::Begin("controls", nullptr, ImGuiWindowFlags_NoDecoration);
        ui::controlSweep() = {true, {}};
        draw();
        std::vector<std::string> squeezed = ui::controlSweep().squeezed;
        ui::controlSweep() = {};
        ImGui::End();
        ImGui::EndFrame();
        return squeezed;
    }
    static float text(const char* s) { return ImGui::CalcTextSize(s).x; }
    static float padding() { return 2 * ImGui::GetStyle().FramePadding.x; }
};

// A seed field (the ALiBi, T5, RoPE and FIRE seeds were ImGui::InputInt calls the check did not
// see): in a window too narrow for six digits beside its - and + buttons even across the window,
// it is reported; in a wide one it is not.
TEST_F(ControlWidthTest, ANarrowSeedFieldIsReported) {
    int seed = 123456;
    const auto narrow = audited(90, [&] { ui::inputInt("seed", &seed, nullptr); });
    ASSERT_EQ(narrow.size(), 1u);
    EXPECT_NE(narrow[0].find("'seed'"), std::string::npos) << narrow[0];
    EXPECT_NE(narrow[0].find("'123456'"), std::string::npos) << narrow[0];
    // Across the window: its content width less the buttons; the value needs its text and
    // padding.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float buttons = 2 * (ImGui::GetFrameHeight() + style.ItemInnerSpacing.x);
    ASSERT_LT(90 - 2 * style.WindowPadding.x - buttons, text("123456") + padding());
    EXPECT_TRUE(audited(400, [&] { ui::inputInt("seed", &seed, nullptr); }).empty());
}

// A combo whose preview is cut (RoPE's "layer type" read "full_a" at 480x320): reported, with
// the width its preview needs: the text, the frame's padding and the arrow button.
TEST_F(ControlWidthTest, ACutComboIsReported) {
    const std::vector<std::string> types = {"sliding_attention", "full_attention"};
    auto combo = [&] {
        if (ui::beginCombo("layer type", "full_attention", types)) ImGui::EndCombo();
    };
    const auto narrow = audited(80, combo);
    ASSERT_EQ(narrow.size(), 1u);
    const int needs = int(text("full_attention") + padding() + ImGui::GetFrameHeight() + 0.5f);
    EXPECT_NE(narrow[0].find("'layer type'"), std::string::npos) << narrow[0];
    EXPECT_NE(narrow[0].find("needs " + std::to_string(needs)), std::string::npos) << narrow[0];
    // Wide enough for the label beside a whole preview: nothing; at a width the label would cut
    // it, the label goes above and the box shows it whole.
    EXPECT_TRUE(audited(400, combo).empty());
    EXPECT_TRUE(audited(needs + 2 * ImGui::GetStyle().WindowPadding.x + 4, combo).empty());
}

// A field given a width by its view (SetNextItemWidth) that cuts its value is reported too: a
// number typed in with buttons, numbers side by side, a text field under 8 em and shorter than
// its text, a path field's hint.
TEST_F(ControlWidthTest, FieldsGivenTooLittleWidthAreReported) {
    double bias = -1.2345;
    int section[3] = {16, 24, 100};
    std::string vector = "0.5, -1, 2, 0.25, 3";
    const auto narrow = audited(400, [&] {
        ImGui::SetNextItemWidth(60);
        ui::inputDouble("##bias", &bias, 0.1, 1.0, "%.4f", nullptr);
        ImGui::SetNextItemWidth(40);
        ui::inputInts("##section", section, 3, nullptr);
        ImGui::SetNextItemWidth(50);
        ui::inputString("##q", &vector);
    });
    ASSERT_EQ(narrow.size(), 3u);
    EXPECT_NE(narrow[0].find("'-1.2345'"), std::string::npos) << narrow[0];
    EXPECT_NE(narrow[1].find("'100'"), std::string::npos) << narrow[1];
    EXPECT_NE(narrow[2].find("'0.5, -1, 2, 0.25, 3'"), std::string::npos) << narrow[2];
    // The same fields at the width their values need: nothing.
    const float buttons = 2 * (ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
    const auto wide = audited(400, [&] {
        ImGui::SetNextItemWidth(text("-1.2345") + padding() + buttons + 1);
        ui::inputDouble("##bias", &bias, 0.1, 1.0, "%.4f", nullptr);
        ImGui::SetNextItemWidth(3 * (text("100") + padding()) +
                                2 * ImGui::GetStyle().ItemInnerSpacing.x + 1);
        ui::inputInts("##section", section, 3, nullptr);
        ImGui::SetNextItemWidth(8 * ImGui::GetFontSize() + padding() + 1);  // 8 em of a long text
        ui::inputString("##q", &vector);
    });
    EXPECT_TRUE(wide.empty()) << wide.front();
}

// A path field keeps its button beside it only while the field keeps 8 em; below, the field
// takes the row and the button goes under it, so the hint reads whole.
TEST_F(ControlWidthTest, APathFieldGivesItsButtonARowWhenNarrow) {
    std::string path;
    for (float width : {140.0f, 200.0f, 400.0f}) {
        const auto reported = audited(width, [&] {
            ui::pathField("##config", "path/to/config.json", &path, "Load", nullptr);
        });
        EXPECT_TRUE(reported.empty()) << width << ": " << reported.front();
    }
}

std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The check sees what the shared widgets draw; a view calling ImGui's inputs, drags, sliders or
// combos itself would draw a control it never audits (session 23's check missed ALiBi's, T5's,
// RoPE's and FIRE's seeds and every combo, and T5's bucket values behind a closed section). The
// export dialog's fields are its own (fixed widths in a window that grows to fit them) and are
// listed here as not audited.
TEST(ControlSourcesTest, ViewsDrawTheirControlsThroughTheSharedWidgets) {
    // POSLAB_TEST_DATA_DIR is <source>/tests/data.
    const std::filesystem::path app =
        std::filesystem::path(POSLAB_TEST_DATA_DIR).parent_path().parent_path() / "app";
    // A closed section's controls are drawn only while it is open: collapsingSection opens it
    // for the check.
    const std::vector<std::string> raw = {
        "ImGui::Input",      "ImGui::Drag",    "ImGui::Slider", "ImGui::Combo",
        "ImGui::BeginCombo", "ImGui::ListBox", "ImGui::Color",  "ImGui::CollapsingHeader"};
    int files = 0, found = 0;
    for (const char* folder : {"panels", "encodings", "ui"}) {
        for (const auto& entry : std::filesystem::directory_iterator(app / folder)) {
            const std::string name = entry.path().filename().string();
            if (name.rfind("widgets", 0) == 0 || name == "export_dialog.cpp") continue;
            ++files;
            const std::string source = readText(entry.path());
            for (const std::string& call : raw) {
                for (std::size_t at = source.find(call); at != std::string::npos;
                     at = source.find(call, at + 1)) {
                    ADD_FAILURE() << name << ": " << source.substr(at, 40);
                    ++found;
                }
            }
        }
    }
    EXPECT_GT(files, 40);
    EXPECT_EQ(found, 0);
}

// --check-layout asks the Usage tab whether it holds a checkpoint's measure (the status line's
// "Read …" was its signal: any later message there, a screenshot's, hid it). A checkpoint that
// reads: held, no problem; a path that is not one: not held, and why.
TEST(RopeUsageTabTest, SaysWhetherItHoldsACheckpointsMeasure) {
    const std::string dir = temporaryDirectory("usage-tab");
    fake::Model model;
    model.layers = 2, model.heads = 8, model.kvHeads = 4, model.headDim = 64;
    model.rotatedDims = 64, model.hidden = 32;
    fake::writeModel(dir + "/ckpt", model);
    auto readWhole = [](panels::RopeUsageTab& tab, const std::string& path) {
        state::RopeUsageState state;
        std::string status;
        ui::FrameContext context;
        context.statusMessage = &status;
        tab.open(state, path, context);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (tab.reading() && std::chrono::steady_clock::now() < deadline) {
            tab.collect(context);
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        return status;
    };
    panels::RopeUsageTab tab;
    const std::string ckpt = dir + "/ckpt";
    EXPECT_FALSE(tab.holds(ckpt));
    (void)readWhole(tab, ckpt);
    EXPECT_TRUE(tab.holds(ckpt));
    EXPECT_EQ(tab.problemWith(ckpt), "");
    EXPECT_FALSE(tab.holds(dir + "/other"));

    const std::string missing = dir + "/missing";
    const std::string status = readWhole(tab, missing);
    EXPECT_FALSE(tab.holds(missing));
    EXPECT_NE(tab.problemWith(missing), "");
    EXPECT_EQ(tab.problemWith(missing), status);  // the message the status line showed
    EXPECT_EQ(tab.problemWith(ckpt), "");
}

}  // namespace
}  // namespace poslab::test
