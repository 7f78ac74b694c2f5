// Encodings registered as plug-ins (state/encoding_registry.hpp), with ALiBi as the example: its
// one registration file gives the tab, the commands, the session section and the state, with no
// central list naming it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "commands/commands.hpp"
#include "panels/registry.hpp"
#include "state/bias_state.hpp"
#include "state/encoding_registry.hpp"
#include "state/session_format.hpp"

namespace poslab::test {
namespace {

using state::AlibiViewState;
using state::kAlibiKey;

TEST(EncodingRegistryTest, AlibiIsRegisteredOnce) {
    int count = 0;
    for (const state::EncodingPlugin& plugin : state::encodingPlugins())
        count += plugin.key == kAlibiKey;
    EXPECT_EQ(count, 1);
    ASSERT_NE(state::findEncodingPlugin(kAlibiKey), nullptr);
    EXPECT_EQ(state::findEncodingPlugin("no such encoding"), nullptr);
}

TEST(EncodingRegistryTest, ThePanelFollowsTheTabItNames) {
    const auto panels = panels::makePanels();
    std::vector<std::string> titles;
    for (const auto& panel : panels) titles.push_back(panel->title());
    const auto alibi = std::find(titles.begin(), titles.end(), "ALiBi");
    ASSERT_NE(alibi, titles.end());
    ASSERT_NE(alibi, titles.begin());
    EXPECT_EQ(*(alibi - 1), "Vision RoPE");
    EXPECT_EQ(*(alibi + 1), "T5");  // the tab order of the built-in list it left
}

TEST(EncodingRegistryTest, CommandsComeFromTheRegistration) {
    const commands::CommandRegistry registry = commands::buildRegistry();
    auto hasExport = [&](const std::string& name) {
        return std::any_of(registry.exports.begin(), registry.exports.end(),
                           [&](const commands::ExportKind& k) { return k.name == name; });
    };
    EXPECT_TRUE(hasExport("alibi-slopes"));
    EXPECT_TRUE(hasExport("alibi-bias"));
    EXPECT_TRUE(std::any_of(registry.renders.begin(), registry.renders.end(),
                            [](const commands::RenderView& v) { return v.name == "alibi"; }));
}

TEST(EncodingRegistryTest, StatesCopyDeeplyAndCompareByValue) {
    state::AppState a;
    state::AppState b = a;
    EXPECT_TRUE(a == b);
    b.plugins.get<AlibiViewState>(kAlibiKey).heads = 12;
    EXPECT_EQ(a.plugins.get<AlibiViewState>(kAlibiKey).heads, 8);  // a's own copy
    EXPECT_FALSE(a == b);
    a = b;
    EXPECT_TRUE(a == b);
    EXPECT_EQ(a.plugins.get<AlibiViewState>(kAlibiKey).heads, 12);
}

TEST(EncodingRegistryTest, TheSessionSectionRoundTripsAndIsChecked) {
    state::AppState state;
    auto& alibi = state.plugins.get<AlibiViewState>(kAlibiKey);
    alibi.heads = 16;
    alibi.symmetric = true;
    alibi.colormap = ColormapId::Magma;
    const nlohmann::json session = state::sessionToJson(state, {});
    ASSERT_TRUE(session.contains("alibi"));
    EXPECT_EQ(session["alibi"]["heads"], 16);
    EXPECT_EQ(session["alibi"]["colormap"], "magma");

    state::AppState read;
    state::SessionLayout layout;
    state::Warnings warnings;
    ASSERT_TRUE(state::applySessionJson(session, read, layout, warnings).ok());
    EXPECT_TRUE(warnings.empty());
    EXPECT_TRUE(read == state);

    // Out of the descriptor's range: refused whole, one warning, the previous settings kept.
    nlohmann::json bad = session;
    bad["alibi"]["heads"] = 0;
    bad["alibi"]["seqLen"] = 10;
    warnings.clear();
    ASSERT_TRUE(state::applySessionJson(bad, read, layout, warnings).ok());
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0], "alibi: heads must be 1..128 (got 0) (kept the previous settings)");
    EXPECT_EQ(read.plugins.get<AlibiViewState>(kAlibiKey).seqLen, alibi.seqLen);
}

}  // namespace
}  // namespace poslab::test
