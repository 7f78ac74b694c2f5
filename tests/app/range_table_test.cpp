// The parameter range table (state/ranges.hpp) against everything that states a range: the
// command-line help texts, the command's own check, and the session validator. A range changed in
// one place only fails here.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "commands/commands.hpp"
#include "state/bias_state.hpp"
#include "state/ranges.hpp"
#include "state/session_format.hpp"

namespace poslab::test {
namespace {

using state::IntRange;

// Every help line of every command that has the option.
std::vector<std::string> helpLines(const std::string& option) {
    std::vector<std::string> lines;
    const commands::CommandRegistry registry = commands::buildRegistry();
    auto collect = [&](const std::vector<commands::OptionSpec>& options) {
        for (const commands::OptionSpec& o : options)
            if (o.name == option) lines.push_back(o.help);
    };
    for (const commands::ExportKind& kind : registry.exports) collect(kind.options);
    for (const commands::RenderView& view : registry.renders) collect(view.options);
    return lines;
}

// The warnings from reading {view: {key: value}}; a dotted key is nested: "clock.bits" is
// {view: {clock: {bits: value}}}.
state::Warnings sessionWarnings(const std::string& view, const std::string& key, long long value) {
    nlohmann::json fields = {{key, value}};
    if (auto dot = key.find('.'); dot != std::string::npos)
        fields = {{key.substr(0, dot), {{key.substr(dot + 1), value}}}};
    nlohmann::json session = {{"format", "poslab-session"}, {view, fields}};
    state::AppState state;
    state::SessionLayout layout;
    state::Warnings warnings;
    EXPECT_TRUE(state::applySessionJson(session, state, layout, warnings).ok());
    return warnings;
}

void expectSessionAgrees(const IntRange& range, const std::string& view) {
    SCOPED_TRACE(view + "." + std::string(range.key));
    EXPECT_TRUE(sessionWarnings(view, std::string(range.key), range.high).empty());
    EXPECT_TRUE(sessionWarnings(view, std::string(range.key), range.low).empty());
    const state::Warnings above = sessionWarnings(view, std::string(range.key), range.high + 1);
    ASSERT_EQ(above.size(), 1u);
    EXPECT_EQ(above[0], view + ": " + std::string(range.key) + " must be " + range.rangeText() +
                            " (got " + std::to_string(range.high + 1) +
                            ") (kept the previous settings)");
    EXPECT_EQ(sessionWarnings(view, std::string(range.key), range.low - 1).size(), 1u);
}

TEST(RangeTableTest, HelpTextsStateTheTableRange) {
    for (const IntRange* range : {&state::kCurveCountRange, &state::kAlibiHeadsRange}) {
        const std::vector<std::string> lines = helpLines(std::string(range->option));
        ASSERT_FALSE(lines.empty()) << range->option;
        for (const std::string& line : lines) {
            EXPECT_NE(line.find(range->rangeText()), std::string::npos) << line;
        }
    }
    EXPECT_EQ(state::kCurveCountRange.help(), "number of dimensions plotted, 1..8 (default 4)");
}

TEST(RangeTableTest, SessionValidatorUsesTheTable) {
    expectSessionAgrees(state::kCurveCountRange, "sinusoidal");
    expectSessionAgrees(state::kCurveCountRange, "learned");
    expectSessionAgrees(state::kAlibiHeadsRange, "alibi");
    // The RoPE view's GUI-only entries: the decay slider reaches a long context's 1,048,576.
    expectSessionAgrees(state::kRopeDecayDistanceRange, "rope");
    expectSessionAgrees(state::kRopeScalingsSeqLenRange, "rope");
    EXPECT_GE(state::kRopeContextRange.high, 1 << 20);
    EXPECT_GE(state::kRopeTrainingRange.high, 1 << 20);
}

// The command's own check (core's validate) accepts the table's limits and refuses one past.
TEST(RangeTableTest, CommandLineCheckAgreesWithTheTable) {
    const commands::CommandRegistry registry = commands::buildRegistry();
    auto learned = std::find_if(registry.renders.begin(), registry.renders.end(),
                                [](const commands::RenderView& v) { return v.name == "learned"; });
    ASSERT_NE(learned, registry.renders.end());
    const IntRange& range = state::kCurveCountRange;
    auto render = [&](int curves) {
        auto args = commands::parseArguments(
            {"--seq-len", "16", "--d-model", "16", "--curves", std::to_string(curves)},
            learned->options, "poslab render learned");
        EXPECT_TRUE(args.ok());
        commands::RenderSettings settings;
        settings.width = 400;
        settings.height = 300;
        return learned->build(*args, settings);
    };
    EXPECT_TRUE(render(range.high).ok());
    EXPECT_TRUE(render(range.low).ok());
    auto beyond = render(range.high + 1);
    ASSERT_FALSE(beyond.ok());
    EXPECT_NE(beyond.error().message.find(range.rangeText()), std::string::npos)
        << beyond.error().message;
}

// ---- Every entry of the table: its render view's help text and check, and its session view
struct RangeUse {
    const IntRange* range;
    std::string render;                     // the `poslab render` view reading the option
    std::vector<std::string> renderArgs;    // other options, to keep the figure small
    std::vector<std::string> sessionViews;  // the session views whose validator reads the entry
};

void PrintTo(const RangeUse& use, std::ostream* os) {
    *os << use.range->key;
}

class RangeEntryTest : public ::testing::TestWithParam<RangeUse> {
  protected:
    Result<Figure> render(int value) const {
        const RangeUse& use = GetParam();
        const commands::CommandRegistry registry = commands::buildRegistry();
        auto view =
            std::find_if(registry.renders.begin(), registry.renders.end(),
                         [&](const commands::RenderView& v) { return v.name == use.render; });
        EXPECT_NE(view, registry.renders.end()) << use.render;
        if (view == registry.renders.end()) return Error{"no view " + use.render};
        std::vector<std::string> words = use.renderArgs;
        words.push_back("--" + std::string(use.range->option));
        words.push_back(std::to_string(value));
        auto args = commands::parseArguments(words, view->options, "poslab render " + use.render);
        if (!args) return args.error();
        commands::RenderSettings settings;
        settings.width = 400;
        settings.height = 300;
        return view->build(*args, settings);
    }
};

TEST_P(RangeEntryTest, HelpTextStatesTheRange) {
    const RangeUse& use = GetParam();
    const commands::CommandRegistry registry = commands::buildRegistry();
    auto view = std::find_if(registry.renders.begin(), registry.renders.end(),
                             [&](const commands::RenderView& v) { return v.name == use.render; });
    ASSERT_NE(view, registry.renders.end()) << use.render;
    auto option =
        std::find_if(view->options.begin(), view->options.end(),
                     [&](const commands::OptionSpec& o) { return o.name == use.range->option; });
    ASSERT_NE(option, view->options.end()) << use.range->option;
    const std::string expected =
        std::to_string(use.range->low) + ".." + std::to_string(use.range->high);
    EXPECT_NE(option->help.find(expected), std::string::npos) << option->help;
    EXPECT_NE(option->help.find(std::string(use.range->meaning)), std::string::npos)
        << option->help;
}

TEST_P(RangeEntryTest, CommandLineAcceptsTheLimitsAndRefusesOnePast) {
    const IntRange& range = *GetParam().range;
    for (int inside : {range.low, range.high}) {
        auto figure = render(inside);
        EXPECT_TRUE(figure.ok()) << inside << ": " << figure.error().message;
    }
    for (int outside : {range.low - 1, range.high + 1}) {
        auto figure = render(outside);
        ASSERT_FALSE(figure.ok()) << outside;
        EXPECT_NE(figure.error().message.find(range.rangeText() + " (got " +
                                              std::to_string(outside) + ")"),
                  std::string::npos)
            << figure.error().message;
    }
}

TEST_P(RangeEntryTest, SessionValidatorAgrees) {
    for (const std::string& view : GetParam().sessionViews)
        expectSessionAgrees(*GetParam().range, view);
}

// The slider reads the same entry: its limits are the entry's (a slider is ImGui-only, so what is
// checked here is that the entry is usable as one: low < high, the default inside).
TEST_P(RangeEntryTest, DefaultLiesInside) {
    const IntRange& range = *GetParam().range;
    EXPECT_LT(range.low, range.high);
    EXPECT_TRUE(range.check(range.fallback).ok());
    EXPECT_NE(range.help().find("(default " + std::to_string(range.fallback) + ")"),
              std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    Table, RangeEntryTest,
    ::testing::Values(RangeUse{&state::kCurveCountRange,
                               "learned",
                               {"--seq-len", "16", "--d-model", "16"},
                               {"sinusoidal", "learned"}},
                      RangeUse{&state::kAlibiHeadsRange, "alibi", {"--seq-len", "8"}, {"alibi"}},
                      RangeUse{
                          &state::kRopeTrailRange, "rope-rotation", {"--head-dim", "8"}, {"rope"}},
                      RangeUse{&state::kClockBitsRange, "binary-clock", {}, {"intuition"}},
                      RangeUse{&state::kClockPositionsRange, "binary-clock", {}, {"intuition"}},
                      RangeUse{&state::kOrthogonalityDModelRange,
                               "near-orthogonality",
                               {"--samples", "10"},
                               {"meaning"}}));

// The 3-D trajectory's camera: the slider, --yaw/--pitch and the session check read these; they
// agree with core's limit and defaults and with the view state's defaults.
TEST(RangeTableTest, TrajectoryAnglesMatchCoreAndTheViewState) {
    EXPECT_EQ(state::kStructurePitchRange.high, kMaxPitchDegrees);
    EXPECT_EQ(state::kStructurePitchRange.low, -kMaxPitchDegrees);
    EXPECT_EQ(state::kStructureYawRange.fallback, ViewAngles{}.yawDegrees);
    EXPECT_EQ(state::kStructurePitchRange.fallback, ViewAngles{}.pitchDegrees);
    EXPECT_EQ(state::LearnedViewState{}.structureYaw, state::kStructureYawRange.fallback);
    EXPECT_EQ(state::LearnedViewState{}.structurePitch, state::kStructurePitchRange.fallback);
    EXPECT_EQ(state::kStructurePitchRange.help(),
              "3-D trajectory: tilt, degrees (90 looks down PC2), -90..90 (default 20)");
}

TEST(RangeTableTest, TrailIsTheSliderRange) {
    // The command line said 0..64 and sessions 0..256; the GUI slider's 0..32 is the one range.
    EXPECT_EQ(state::kRopeTrailRange.rangeText(), "0..32");
    EXPECT_EQ(state::kRopeTrailRange.help(),
              "earlier whole positions drawn as fading dots, 0..32 (default 8)");
}

// Figure size and PNG scale: every render's help and readRenderSettings read the entries.
TEST(RangeTableTest, FigureSizeEntriesDriveRenderSettings) {
    EXPECT_EQ(state::kFigureWidthRange.help(), "figure width in pixels, 64..8192 (default 1200)");
    EXPECT_EQ(state::kFigureHeightRange.help(), "figure height in pixels, 64..8192 (default 800)");
    EXPECT_EQ(state::kPngScaleRange.help(),
              "PNG: device pixels per figure pixel for HiDPI, 0.25..8 (default 1)");
    const std::vector<commands::OptionSpec> options = commands::renderCommonOptions();
    auto helpOf = [&](std::string_view name) {
        for (const commands::OptionSpec& o : options)
            if (o.name == name) return o.help;
        return std::string("(no option)");
    };
    EXPECT_EQ(helpOf("width"), state::kFigureWidthRange.help());
    EXPECT_EQ(helpOf("height"), state::kFigureHeightRange.help());
    EXPECT_EQ(helpOf("scale"), state::kPngScaleRange.help());
    auto settings = [&](std::vector<std::string> words) {
        auto args = commands::parseArguments(words, options, "poslab render");
        EXPECT_TRUE(args.ok());
        return commands::readRenderSettings(*args);
    };
    const IntRange& width = state::kFigureWidthRange;
    EXPECT_TRUE(settings({"--width", std::to_string(width.low)}).ok());
    EXPECT_TRUE(settings({"--width", std::to_string(width.high), "--scale", "1"}).ok());
    auto narrow = settings({"--width", std::to_string(width.low - 1)});
    ASSERT_FALSE(narrow.ok());
    EXPECT_EQ(narrow.error().message, "--width must be 64..8192 (got 63)");
    auto tall = settings({"--height", std::to_string(state::kFigureHeightRange.high + 1)});
    ASSERT_FALSE(tall.ok());
    EXPECT_EQ(tall.error().message, "--height must be 64..8192 (got 8193)");
    EXPECT_TRUE(settings({"--scale", "0.25"}).ok());
    auto fine = settings({"--scale", "0.24"});
    ASSERT_FALSE(fine.ok());
    EXPECT_EQ(fine.error().message, "--scale must be 0.25..8 (got 0.24)");
    EXPECT_FALSE(settings({"--scale", "nan"}).ok());
}

}  // namespace
}  // namespace poslab::test
