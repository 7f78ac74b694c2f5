// The Context view's plug-in registration (app/encodings/contextual_encoding.cpp): its tab, its
// commands, and its session section round-tripping every field, refused whole when out of range.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "commands/commands.hpp"
#include "panels/registry.hpp"
#include "state/contextual_state.hpp"
#include "state/encoding_registry.hpp"
#include "state/session_format.hpp"

namespace poslab::test {
namespace {

using state::ContextualViewState;
using state::kContextualKey;

TEST(ContextualEncodingTest, TabAndCommandsAreRegistered) {
    const auto panels = panels::makePanels();
    std::vector<std::string> titles;
    for (const auto& panel : panels) titles.push_back(panel->title());
    EXPECT_EQ(std::count(titles.begin(), titles.end(), "Context"), 1);
    const commands::CommandRegistry registry = commands::buildRegistry();
    for (const char* name : {"cope", "deberta-buckets", "deberta", "nope", "irope-layers",
                             "irope-mask", "randomized-positions", "randomized-order-stats"}) {
        EXPECT_TRUE(std::any_of(registry.exports.begin(), registry.exports.end(),
                                [&](const commands::ExportKind& k) { return k.name == name; }))
            << name;
    }
    for (const char* name : {"cope", "deberta", "nope", "irope", "randomized-positions"}) {
        EXPECT_TRUE(std::any_of(registry.renders.begin(), registry.renders.end(),
                                [&](const commands::RenderView& v) { return v.name == name; }))
            << name;
    }
}

TEST(ContextualEncodingTest, EveryFieldRoundTripsAndBadValuesAreRefusedWhole) {
    state::AppState state;
    ContextualViewState& ctx = state.plugins.get<ContextualViewState>(kContextualKey);
    ctx.tab = state::ContextualTab::Nope;
    ctx.cope = {"A b. C d!", CopeGateSource::Sentences, 8, 3, 4, 12, false};
    ctx.deberta = {1024, 128, 300, 32, false, false, 5};
    ctx.nope.sections = NopeSections::Irope;
    ctx.nope.irope.numLayers = 24;
    ctx.nope.irope.noRopeLayerInterval = 3;
    ctx.nope.irope.attentionChunkSize = 2048;
    ctx.nope.seqLen = 9000;
    ctx.nope.maskLayer = 2;
    ctx.nope.temperature = {4096, 0.2};
    ctx.randomized = {20, 500, 7, 9};
    const nlohmann::json session = state::sessionToJson(state, {});
    ASSERT_TRUE(session.contains("contextual"));
    EXPECT_EQ(session["contextual"]["cope"]["gates"], "sentences");
    state::AppState read;
    state::SessionLayout layout;
    state::Warnings warnings;
    ASSERT_TRUE(state::applySessionJson(session, read, layout, warnings).ok());
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    EXPECT_TRUE(read.plugins.get<ContextualViewState>(kContextualKey) == ctx);

    nlohmann::json bad = session;
    bad["contextual"]["deberta"]["positionBuckets"] = 1;
    bad["contextual"]["randomized"]["draws"] = 3;
    warnings.clear();
    ASSERT_TRUE(state::applySessionJson(bad, read, layout, warnings).ok());
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("position_buckets must be 2..65536 (got 1)"), std::string::npos)
        << warnings[0];
    EXPECT_EQ(read.plugins.get<ContextualViewState>(kContextualKey).randomized.draws, 7);
}

}  // namespace
}  // namespace poslab::test
