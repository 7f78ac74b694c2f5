// The parameter range table (state/ranges.hpp) against everything that states a range: the
// command-line help texts, the command's own check, and the session validator. A range changed in
// one place only fails here.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "commands/commands.hpp"
#include "state/ranges.hpp"
#include "state/session_format.hpp"

namespace poslab::test {
namespace {

using ui::IntRange;

// Every help line of every command that has the option.
std::vector<std::string> helpLines(const std::string& option) {
    std::vector<std::string> lines;
    const cli::CommandRegistry registry = cli::buildRegistry();
    auto collect = [&](const std::vector<cli::OptionSpec>& options) {
        for (const cli::OptionSpec& o : options)
            if (o.name == option) lines.push_back(o.help);
    };
    for (const cli::ExportKind& kind : registry.exports) collect(kind.options);
    for (const cli::RenderView& view : registry.renders) collect(view.options);
    return lines;
}

// The warnings from reading {view: {key: value}}.
ui::Warnings sessionWarnings(const std::string& view, const std::string& key, long long value) {
    nlohmann::json session = {{"format", "poslab-session"}, {view, {{std::string(key), value}}}};
    ui::AppState state;
    ui::SessionLayout layout;
    ui::Warnings warnings;
    EXPECT_TRUE(ui::applySessionJson(session, state, layout, warnings).ok());
    return warnings;
}

void expectSessionAgrees(const IntRange& range, const std::string& view) {
    SCOPED_TRACE(view + "." + std::string(range.key));
    EXPECT_TRUE(sessionWarnings(view, std::string(range.key), range.high).empty());
    EXPECT_TRUE(sessionWarnings(view, std::string(range.key), range.low).empty());
    const ui::Warnings above = sessionWarnings(view, std::string(range.key), range.high + 1);
    ASSERT_EQ(above.size(), 1u);
    EXPECT_EQ(above[0], view + ": " + std::string(range.key) + " must be " + range.rangeText() +
                            " (got " + std::to_string(range.high + 1) +
                            ") (kept the previous settings)");
    EXPECT_EQ(sessionWarnings(view, std::string(range.key), range.low - 1).size(), 1u);
}

TEST(RangeTableTest, HelpTextsStateTheTableRange) {
    for (const IntRange* range : {&ui::kCurveCountRange, &ui::kAlibiHeadsRange}) {
        const std::vector<std::string> lines = helpLines(std::string(range->option));
        ASSERT_FALSE(lines.empty()) << range->option;
        for (const std::string& line : lines) {
            EXPECT_NE(line.find(range->rangeText()), std::string::npos) << line;
        }
    }
    EXPECT_EQ(ui::kCurveCountRange.help(), "number of dimensions plotted, 1..8 (default 4)");
}

TEST(RangeTableTest, SessionValidatorUsesTheTable) {
    expectSessionAgrees(ui::kCurveCountRange, "sinusoidal");
    expectSessionAgrees(ui::kCurveCountRange, "learned");
    expectSessionAgrees(ui::kAlibiHeadsRange, "alibi");
}

// The command's own check (core's validate) accepts the table's limits and refuses one past.
TEST(RangeTableTest, CommandLineCheckAgreesWithTheTable) {
    const cli::CommandRegistry registry = cli::buildRegistry();
    auto learned = std::find_if(registry.renders.begin(), registry.renders.end(),
                                [](const cli::RenderView& v) { return v.name == "learned"; });
    ASSERT_NE(learned, registry.renders.end());
    const IntRange& range = ui::kCurveCountRange;
    auto render = [&](int curves) {
        auto args = cli::parseArguments(
            {"--seq-len", "16", "--d-model", "16", "--curves", std::to_string(curves)},
            learned->options, "poslab render learned");
        EXPECT_TRUE(args.ok());
        cli::RenderSettings settings;
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

}  // namespace
}  // namespace poslab::test
