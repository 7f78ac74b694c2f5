// `poslab render --spec FIGURES.json`: a batch of figures from one JSON file, each entry the same
// figure the command line makes, bad entries reported by number and field while the rest render.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

#include "cli/spec.hpp"
#include "commands/commands.hpp"
#include "process.hpp"

namespace poslab::test {
namespace {

class SpecTest : public ::testing::Test {
  protected:
    std::string dir = temporaryDirectory(
        std::string("spec-") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path(const std::string& name) const { return dir + "/" + name; }
    std::string writeSpec(const std::string& json) const {
        std::ofstream(path("figures.json")) << json;
        return path("figures.json");
    }
};

// How many lines of `text` contain `fragment`.
int linesWith(const std::string& text, const std::string& fragment) {
    int count = 0;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        if (text.substr(start, end - start).find(fragment) != std::string::npos) ++count;
        start = end + 1;
    }
    return count;
}

TEST_F(SpecTest, BadEntriesAreReportedAndTheOthersStillRender) {
    const std::string spec = writeSpec(R"([
        {"view": "sinusoidal", "d_model": 32, "seq_len": 64, "out": "fig1.pdf"},
        {"view": "sinusoidal", "d_model": 0, "seq_len": 64, "out": "fig2.png"},
        {"view": "sinusoidal", "d_model": 32, "colour": "red", "out": "fig3.svg"},
        {"view": "sinusoidal-curves", "d_model": 32, "dims": [4, 5], "out": "fig4.svg"},
        {"view": "no-such-view", "out": "fig5.png"},
        {"view": "sinusoidal", "d_model": 8, "out": "fig6.jpg"},
        {"view": "sinusoidal", "d_model": 8},
        {"view": "sinusoidal", "d_model": 8, "seq_len": 8, "out": "fig8.png"}
    ])");
    auto result = runPoslab({"render", "--spec", spec}, "env -u DISPLAY");
    EXPECT_EQ(result.exitCode, 2);
    // Good entries: written, with progress on the terminal.
    for (const char* name : {"fig1.pdf", "fig4.svg", "fig8.png"})
        EXPECT_TRUE(fileExists(path(name))) << name;
    EXPECT_EQ(linesWith(result.out, "[1/8] wrote"), 1) << result.out;
    EXPECT_EQ(linesWith(result.out, "[4/8] wrote"), 1) << result.out;
    EXPECT_EQ(linesWith(result.out, "[8/8] wrote"), 1) << result.out;
    // Bad entries: one line each, naming the figure and what is wrong, and no file.
    EXPECT_EQ(linesWith(result.err, "figure 2: --d-model must be 1..8192 (got 0)"), 1)
        << result.err;
    EXPECT_EQ(linesWith(result.err, "figure 3: unknown field 'colour'"), 1) << result.err;
    EXPECT_EQ(linesWith(result.err, "figure 5: unknown view 'no-such-view'"), 1) << result.err;
    EXPECT_EQ(linesWith(result.err, "figure 6: --out must end in .png, .svg or .pdf"), 1)
        << result.err;
    EXPECT_EQ(linesWith(result.err, "figure 7: field 'out' is required"), 1) << result.err;
    EXPECT_EQ(linesWith(result.err, "5 of 8 figures failed"), 1) << result.err;
    for (const char* name : {"fig2.png", "fig3.svg", "fig5.png", "fig6.jpg"})
        EXPECT_FALSE(fileExists(path(name))) << name;
    EXPECT_EQ(linesWith(result.err, "poslab:"), 6);  // nothing else on stderr
}

TEST_F(SpecTest, AnEntryIsTheSameFigureAsTheCommandLine) {
    const std::string spec = writeSpec(R"([{"view": "sinusoidal", "d_model": 24, "seq_len": 100.0,
        "base": 1e3, "layout": "concat", "colormap": "magma", "training_length": 60,
        "width": 400, "height": 300, "scale": 2, "theme": "dark", "out": "spec.png"}])");
    auto fromSpec = runPoslab({"render", "--spec", spec}, "env -u DISPLAY");
    ASSERT_EQ(fromSpec.exitCode, 0) << fromSpec.err;
    auto fromCli = runPoslab({"render",
                              "sinusoidal",
                              "--d-model",
                              "24",
                              "--seq-len",
                              "100",
                              "--base",
                              "1000",
                              "--layout",
                              "concat",
                              "--colormap",
                              "magma",
                              "--training-length",
                              "60",
                              "--width",
                              "400",
                              "--height",
                              "300",
                              "--scale",
                              "2",
                              "--theme",
                              "dark",
                              "--out",
                              path("cli.png")},
                             "env -u DISPLAY");
    ASSERT_EQ(fromCli.exitCode, 0) << fromCli.err;
    const ImageRgba a = loadPng(path("spec.png")), b = loadPng(path("cli.png"));
    EXPECT_EQ(a.width, 800);
    EXPECT_EQ(a.height, 600);
    EXPECT_EQ(a.pixels, b.pixels);
}

TEST_F(SpecTest, RelativeOutputsAreRelativeToTheSpecFile) {
    const std::string spec =
        writeSpec(R"([{"view": "sinusoidal-curves", "d_model": 8, "out": "curves.svg",
                                           "transparent": true}])");
    auto result =
        runShell("cd / && " + shellQuote(POSLAB_BINARY) + " render --spec " + shellQuote(spec));
    ASSERT_EQ(result.exitCode, 0) << result.err;
    ASSERT_TRUE(fileExists(path("curves.svg")));
    // transparent: no full-page background rectangle before the first plot element.
    const std::string svg = readFile(path("curves.svg"));
    EXPECT_EQ(svg.find("<rect width="), std::string::npos);
}

TEST_F(SpecTest, BrokenFilesAreOneLineErrors) {
    struct Case {
        std::string content, message;
    };
    for (const Case& c :
         {Case{"[{\"view\": ", "is not valid JSON"},
          Case{"{\"view\": \"sinusoidal\"}", "must hold a JSON list of figures"},
          Case{"[3]", "figure 1: expected an object"},
          Case{"[{\"out\": \"x.png\"}]", "figure 1: field 'view' must name a view"}}) {
        const std::string spec = writeSpec(c.content);
        auto result = runPoslab({"render", "--spec", spec});
        EXPECT_EQ(result.exitCode, 2) << c.content;
        EXPECT_NE(result.err.find(c.message), std::string::npos)
            << c.content << " -> " << result.err;
        EXPECT_FALSE(fileExists(path("x.png")));
    }
    auto missing = runPoslab({"render", "--spec", path("absent.json")});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("absent.json: cannot open the file (No such file or directory)"),
              std::string::npos)
        << missing.err;
    EXPECT_EQ(linesWith(missing.err, "poslab:"), 1);
}

// The conversion itself: JSON values become the text a user would type.
TEST(SpecArgumentsTest, JsonValuesBecomeOptionText) {
    const commands::CommandRegistry registry = commands::buildRegistry();
    auto find = [&](const std::string& name) {
        return *std::find_if(registry.renders.begin(), registry.renders.end(),
                             [&](const commands::RenderView& v) { return v.name == name; });
    };
    const commands::RenderView curves = find("sinusoidal-curves");
    auto args = commands::specEntryArguments(
        nlohmann::json::parse(R"({"view": "sinusoidal-curves", "d_model": 128,
        "seq_len": 512.0, "base": 0.5e5, "positions": 2.5, "dims": [4, 5, 6], "layout": "t2t",
        "transparent": true, "out": "x.pdf"})"),
        curves);
    ASSERT_TRUE(args.ok()) << args.error().message;
    EXPECT_EQ(args->raw("d-model"), "128");
    EXPECT_EQ(args->raw("seq-len"), "512");
    EXPECT_EQ(args->raw("base"), "50000");
    EXPECT_EQ(args->raw("positions"), "2.5");
    EXPECT_EQ(args->raw("dims"), "4,5,6");
    EXPECT_EQ(args->raw("layout"), "t2t");
    EXPECT_TRUE(args->flag("transparent"));
    EXPECT_FALSE(args->has("view"));
    EXPECT_EQ(args->values().size(), 8u);

    auto flagOff =
        commands::specEntryArguments(nlohmann::json::parse(R"({"transparent": false})"), curves);
    ASSERT_TRUE(flagOff.ok());
    EXPECT_FALSE(flagOff->has("transparent"));

    for (const char* bad : {R"({"colour": "red"})", R"({"transparent": 1})", R"({"base": true})",
                            R"({"base": null})", R"({"dims": [[1]]})", R"({"base": {"x": 1}})"}) {
        auto result = commands::specEntryArguments(nlohmann::json::parse(bad), curves);
        EXPECT_FALSE(result.ok()) << bad;
        if (!result.ok()) {
            EXPECT_NE(result.error().message.find("field '"), std::string::npos)
                << result.error().message;
        }
    }
}

}  // namespace
}  // namespace poslab::test
