// RopePanel's cache keys: a figure is recomputed exactly when something it is computed from
// changes. The keys once compared RopeParams field by field by hand and missed LongRoPE's
// short/long factor lists and p-RoPE's proportion, so a config differing only in those left the
// Angles, Scores and Precision tabs showing the previous model's figures.
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>

#include "panels/rope_panel.hpp"

namespace poslab::test {
namespace {

using panels::RopePanel;
using state::RopeVectorSource;
using state::RopeViewState;

// Every field of RopeParams and its scaling that changes a frequency, each changed on its own.
std::vector<std::pair<const char*, std::function<void(RopeParams&)>>> changes() {
    return {
        {"headDim", [](RopeParams& p) { p.headDim = 128; }},
        {"base", [](RopeParams& p) { p.base = 500000; }},
        {"rotaryFraction", [](RopeParams& p) { p.rotaryFraction = 0.5; }},
        {"pairing", [](RopeParams& p) { p.pairing = RopePairing::Interleaved; }},
        {"seqLen", [](RopeParams& p) { p.seqLen = 8192; }},
        {"trainingLength", [](RopeParams& p) { p.trainingLength = 1024; }},
        {"scaling.type", [](RopeParams& p) { p.scaling.type = RopeScaling::Linear; }},
        {"scaling.factor", [](RopeParams& p) { p.scaling.factor = 8; }},
        {"scaling.shortFactor", [](RopeParams& p) { p.scaling.shortFactor.assign(32, 1.5); }},
        {"scaling.longFactor", [](RopeParams& p) { p.scaling.longFactor.assign(32, 4.0); }},
        {"scaling.ropeProportion", [](RopeParams& p) { p.scaling.ropeProportion = 0.25; }},
    };
}

RopeParams longRope() {
    RopeParams p{64, 10000, 1.0, RopePairing::Half, {}, 4096, 2048};
    p.scaling.type = RopeScaling::LongRope;
    p.scaling.originalMaxPositions = 2048;
    p.scaling.shortFactor.assign(32, 1.0);
    p.scaling.longFactor.assign(32, 2.0);
    return p;
}

TEST(RopePanelCacheTest, EveryParameterIsPartOfEveryFigureKey) {
    const RopeParams shown = longRope();
    for (const auto& [field, change] : changes()) {
        RopeParams now = shown;
        change(now);
        EXPECT_NE((RopePanel::AngleKey{now, {}, 400, 300}),
                  (RopePanel::AngleKey{shown, {}, 400, 300}))
            << field;
        EXPECT_NE((RopePanel::OffsetsKey{now, 1}), (RopePanel::OffsetsKey{shown, 1})) << field;
        EXPECT_NE((RopePanel::PrecisionKey{now, 16384}), (RopePanel::PrecisionKey{shown, 16384}))
            << field;
    }
}

TEST(RopePanelCacheTest, EqualInputsKeepTheCachedFigure) {
    const RopeParams a = longRope(), b = longRope();
    EXPECT_EQ((RopePanel::AngleKey{a, {0, 10, 0, 5}, 400, 300}),
              (RopePanel::AngleKey{b, {0, 10, 0, 5}, 400, 300}));
    EXPECT_EQ((RopePanel::OffsetsKey{a, 3}), (RopePanel::OffsetsKey{b, 3}));
    EXPECT_EQ((RopePanel::PrecisionKey{a, 256}), (RopePanel::PrecisionKey{b, 256}));
    // The other inputs of each key count too.
    EXPECT_NE((RopePanel::AngleKey{a, {0, 10, 0, 5}, 400, 300}),
              (RopePanel::AngleKey{b, {1, 10, 0, 5}, 400, 300}));
    EXPECT_NE((RopePanel::OffsetsKey{a, 3}), (RopePanel::OffsetsKey{b, 4}));
    EXPECT_NE((RopePanel::PrecisionKey{a, 256}), (RopePanel::PrecisionKey{b, 512}));
}

// The q/k key lists RopeViewState's fields by hand (the whole state would also hold m, n and the
// zoom windows, which change every frame). Every field whose change changes what queryKeyFor
// returns must change the key; position, zoom and figure fields must not (no recompute per frame).
std::vector<std::pair<const char*, std::function<void(RopeViewState&)>>> viewChanges() {
    return {
        {"vectors",
         [](RopeViewState& v) {
             v.vectors = v.vectors == RopeVectorSource::Seeded ? RopeVectorSource::Custom
                                                               : RopeVectorSource::Seeded;
         }},
        {"querySeed", [](RopeViewState& v) { v.querySeed = 7; }},
        {"keySeed", [](RopeViewState& v) { v.keySeed = 9; }},
        {"keyEqualsQuery", [](RopeViewState& v) { v.keyEqualsQuery = true; }},
        {"params.headDim", [](RopeViewState& v) { v.params.headDim = 32; }},
        {"m", [](RopeViewState& v) { v.m = 40; }},
        {"n", [](RopeViewState& v) { v.n = 30; }},
        {"params.base", [](RopeViewState& v) { v.params.base = 500000; }},
        {"params.seqLen", [](RopeViewState& v) { v.params.seqLen = 128; }},
        {"panels", [](RopeViewState& v) { v.panels = 4; }},
        {"angleWindow",
         [](RopeViewState& v) {
             v.angleWindow = {1, 10, 0, 5};
         }},
        {"configPath", [](RopeViewState& v) { v.configPath = "config.json"; }},
    };
}

bool sameVectors(const Result<RopePanel::QueryKey>& a, const Result<RopePanel::QueryKey>& b) {
    if (bool(a) != bool(b)) return false;
    if (!a) return a.error().message == b.error().message;
    return a->q == b->q && a->k == b->k;
}

TEST(RopePanelCacheTest, VectorKeyHoldsEveryFieldTheVectorsAreReadFrom) {
    for (const RopeVectorSource source : {RopeVectorSource::Seeded, RopeVectorSource::Custom}) {
        RopeViewState shown;
        shown.vectors = source;
        shown.customQuery = "1, 2, 3";
        shown.customKey = "4, 5";
        auto changes = viewChanges();
        changes.emplace_back("customQuery", [](RopeViewState& v) { v.customQuery = "0.5"; });
        changes.emplace_back("customKey", [](RopeViewState& v) { v.customKey = "-1, 2"; });
        const std::set<std::string> unread{"m",      "n",           "params.base", "params.seqLen",
                                           "panels", "angleWindow", "configPath"};
        int readFields = 0;
        for (const auto& [field, change] : changes) {
            RopeViewState now = shown;
            change(now);
            const bool read =
                !sameVectors(RopePanel::queryKeyFor(now), RopePanel::queryKeyFor(shown));
            readFields += read;
            const bool keyed = RopePanel::vectorKeyFor(now) != RopePanel::vectorKeyFor(shown);
            const std::string what =
                std::string(field) +
                (source == RopeVectorSource::Seeded ? " (seeded)" : " (custom)");
            if (read) {
                EXPECT_TRUE(keyed) << what << " changes q or k but not the key";
            }
            if (unread.count(field)) {
                EXPECT_FALSE(keyed) << what << " is not read for q and k";
            }
        }
        // Seeded: source, both seeds, k = q, head_dim; custom: source, k = q, head_dim, lists.
        EXPECT_EQ(readFields, 5) << (source == RopeVectorSource::Seeded ? "seeded" : "custom");
    }
}

}  // namespace
}  // namespace poslab::test
