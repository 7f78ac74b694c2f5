// Reading figure specs (cli/spec_format.hpp): the inputs the spec fuzzer
// (tests/fuzz/spec_fuzz.cpp) probes, through the real binary and the reader itself. Each test
// failed before its fix.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "commands/commands.hpp"
#include "commands/spec_format.hpp"
#include "poslab/figure/figure_controls.hpp"
#include "process.hpp"

namespace poslab::test {
namespace {

class SpecFormatTest : public ::testing::Test {
  protected:
    std::string dir =
        temporaryDirectory(std::string("spec-format-") +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string writeSpec(const std::string& json) const {
        std::ofstream(dir + "/figures.json") << json;
        return dir + "/figures.json";
    }
};

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> result;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        result.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return result;
}

// Names and values with a newline or an escape sequence in them used to split the figure's error
// over several lines of stderr (and could forge a "poslab: ..." line); now each is escaped.
TEST_F(SpecFormatTest, EveryErrorIsOneLineWhateverTheNamesHold) {
    const std::string spec = writeSpec(R"([
        {"view": "sinusoidal", "layout": "diagonal\nsecond line", "out": "l.svg"},
        {"view": "unknown\nview", "out": "v.svg"},
        {"view": "sinusoidal", "field\nwith newline": 1, "out": "f.svg"},
        {"view": "sinusoidal", "colormap": "red\u001b[0m", "out": "c.svg"}])");
    const ProcessResult result = runPoslab({"render", "--spec", spec});
    EXPECT_EQ(result.exitCode, 2);
    const std::vector<std::string> err = lines(result.err);
    ASSERT_EQ(err.size(), 5u) << result.err;  // one per figure and the summary
    for (const std::string& line : err) {
        EXPECT_EQ(line.rfind("poslab: ", 0), 0u) << line;
        EXPECT_EQ(line.find('\x1b'), std::string::npos) << line;
    }
    EXPECT_NE(
        err[0].find(
            R"(figure 1: --layout must be interleaved, concat or t2t (got 'diagonal\nsecond line'))"),
        std::string::npos)
        << err[0];
    EXPECT_NE(err[1].find(R"(figure 2: unknown view 'unknown\nview')"), std::string::npos)
        << err[1];
    EXPECT_NE(err[2].find(R"(figure 3: unknown field 'field\nwith newline')"), std::string::npos)
        << err[2];
    EXPECT_NE(err[3].find(R"(figure 4: --colormap must be)"), std::string::npos) << err[3];
    EXPECT_NE(err[3].find(R"(red\x1b[0m)"), std::string::npos) << err[3];
}

// A deeply nested value in a field was printed back with nlohmann's recursive dump(), one stack
// frame per level: 300000 levels crashed poslab with a stack overflow (exit 139). Now the JSON
// reader refuses nesting over 64 levels before parsing: the whole spec, in one line.
TEST_F(SpecFormatTest, ADeeplyNestedValueIsAnErrorNotACrash) {
    const std::size_t depth = 300000;
    const std::string spec =
        writeSpec(R"([{"view": "sinusoidal", "base": )" + std::string(depth, '[') +
                  std::string(depth, ']') + R"(, "out": "x.svg"}])");
    const ProcessResult result = runPoslab({"render", "--spec", spec});
    EXPECT_EQ(result.exitCode, 2);
    const std::vector<std::string> err = lines(result.err);
    ASSERT_EQ(err.size(), 1u) << result.err.substr(0, 500);
    EXPECT_EQ(err[0],
              "poslab: " + spec +
                  ": nested deeper than 64 levels of [ and { (PosLab's limit for JSON files)");
    EXPECT_FALSE(fileExists(dir + "/x.svg"));
}

// The reader on its own (what the fuzzer calls): one Result per figure, outputs next to the spec.
TEST(SpecReaderTest, EntriesAreCheckedOneByOne) {
    const commands::CommandRegistry registry = commands::buildRegistry();
    auto entries = commands::readSpecText(
        R"([{"view": "sinusoidal", "d_model": 8, "seq_len": 8, "out": "a.svg"},
            {"view": "sinusoidal", "d_model": 8, "out": "/abs/b.pdf"},
            {"view": "no-such-view", "out": "c.svg"}, 5])",
        "/specs/figures.json", registry);
    ASSERT_TRUE(entries.ok()) << entries.error().message;
    ASSERT_EQ(entries->size(), 4u);
    ASSERT_TRUE((*entries)[0].ok());
    EXPECT_EQ((*entries)[0]->view->name, "sinusoidal");
    EXPECT_EQ((*entries)[0]->args.raw("out"), "/specs/a.svg");
    ASSERT_TRUE((*entries)[1].ok());
    EXPECT_EQ((*entries)[1]->args.raw("out"), "/abs/b.pdf");
    EXPECT_FALSE((*entries)[2].ok());
    EXPECT_FALSE((*entries)[3].ok());

    auto built = commands::buildFigure(*(*entries)[0]->view,
                                       commands::renderOptionsFor(*(*entries)[0]->view),
                                       (*entries)[0]->args);
    ASSERT_TRUE(built.ok()) << built.error().message;
    EXPECT_EQ(built->figure.width, 1200.0f);  // the default size
    EXPECT_EQ(built->settings.height, 800);

    auto broken = commands::readSpecText("[{", "figures.json", registry);
    ASSERT_FALSE(broken.ok());
    EXPECT_EQ(broken.error().message.rfind("figures.json is not valid JSON: ", 0), 0u)
        << broken.error().message;
}

// The list is read in one pass before any tree is made: a figure's field given twice is its own
// error (a field of a nested value is not a figure's), the figures are counted whatever they hold,
// and the count is checked only for a list.
TEST(SpecReaderTest, FiguresAreCountedAndTheirFieldsCheckedBeforeTheTree) {
    const commands::CommandRegistry registry = commands::buildRegistry();
    auto entries = commands::readSpecText(
        R"([{"view": "sinusoidal", "out": "a.svg"},
            {"view": "sinusoidal", "out": "b.svg", "d_model": 8, "out": "c.svg", "d_model": 9},
            {"view": {"name": 1, "name": 2}, "out": "e.svg"}, {"view": "sinusoidal", "out": "d.svg"}])",
        "/specs/figures.json", registry);
    ASSERT_TRUE(entries.ok()) << entries.error().message;
    ASSERT_EQ(entries->size(), 4u);
    EXPECT_TRUE((*entries)[0].ok());
    ASSERT_FALSE((*entries)[1].ok());
    EXPECT_NE((*entries)[1].error().message.find("field 'out' given twice"), std::string::npos)
        << (*entries)[1].error().message;
    ASSERT_FALSE((*entries)[2].ok());
    EXPECT_EQ((*entries)[2].error().message.find("given twice"), std::string::npos)
        << (*entries)[2].error().message;
    EXPECT_TRUE((*entries)[3].ok());

    std::string scalars = "[";
    for (int i = 0; i < 10'000; ++i) scalars += "1,";
    auto over = commands::readSpecText(scalars + "[[]]]", "many.json", registry);
    ASSERT_FALSE(over.ok());
    EXPECT_EQ(over.error().message,
              "many.json lists 10001 figures, more than the 10000 a spec may hold");
    auto exactly =
        commands::readSpecText(scalars.substr(0, scalars.size() - 1) + "]", "many.json", registry);
    ASSERT_TRUE(exactly.ok()) << exactly.error().message;
    EXPECT_EQ(exactly->size(), 10'000u);

    std::string object = "{";
    for (int i = 0; i < 10'001; ++i) object += "\"k" + std::to_string(i) + "\": 1,";
    object.back() = '}';
    auto notAList = commands::readSpecText(object, "object.json", registry);
    ASSERT_FALSE(notAList.ok());
    EXPECT_NE(notAList.error().message.find("must hold a JSON list"), std::string::npos)
        << notAList.error().message;
}

// Specs mirror the render options, the paper controls too: a field per control, read the same way.
TEST(SpecReaderTest, PaperControlsAreFieldsOfASpec) {
    const commands::CommandRegistry registry = commands::buildRegistry();
    auto entries = commands::readSpecText(
        R"([{"view": "t5", "panel": 2, "title": "Panel two", "font_scale": 1.5,
             "legend": "outside", "aspect": "square", "out": "a.svg"},
            {"view": "rope-scalings", "no_title": true, "out": "b.svg"},
            {"view": "t5", "panel": 99, "out": "c.svg"}])",
        "/specs/figures.json", registry);
    ASSERT_TRUE(entries.ok()) << entries.error().message;
    ASSERT_EQ(entries->size(), 3u);
    auto build = [&](std::size_t i) {
        const commands::SpecEntry& entry = *(*entries)[i];
        return commands::buildFigure(*entry.view, commands::renderOptionsFor(*entry.view),
                                     entry.args);
    };
    auto panel = build(0);
    ASSERT_TRUE(panel.ok()) << panel.error().message;
    EXPECT_EQ(panel->settings.theme.focusPanel, 2);
    EXPECT_FLOAT_EQ(panel->settings.theme.fontScale, 1.5f * kPaperPrintScale);  // paper: print
    EXPECT_EQ(panel->settings.theme.legend, LegendPlacement::Outside);
    EXPECT_EQ(panel->settings.theme.aspect, AspectMode::Square);
    bool titled = false;
    for (const FigureItem& item : panel->figure.items)
        if (const auto* t = std::get_if<TextItem>(&item)) titled |= t->text == "Panel two";
    EXPECT_TRUE(titled);
    auto untitled = build(1);
    ASSERT_TRUE(untitled.ok()) << untitled.error().message;
    for (const FigureItem& item : untitled->figure.items) {
        if (const auto* t = std::get_if<TextItem>(&item)) {
            EXPECT_EQ(t->text.find("Scaled"), std::string::npos);
        }
    }
    auto outOfRange = build(2);
    ASSERT_FALSE(outOfRange.ok());
    EXPECT_EQ(outOfRange.error().message.rfind("--panel must be 1..", 0), 0u)
        << outOfRange.error().message;
}

}  // namespace
}  // namespace poslab::test
