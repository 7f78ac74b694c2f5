// RopePanel's cache keys: a figure is recomputed exactly when something it is computed from
// changes. The keys once compared RopeParams field by field by hand and missed LongRoPE's
// short/long factor lists and p-RoPE's proportion, so a config differing only in those left the
// Angles, Scores and Precision tabs showing the previous model's figures.
#include <gtest/gtest.h>

#include <functional>

#include "panels/rope_panel.hpp"

namespace poslab::test {
namespace {

using ui::RopePanel;

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

}  // namespace
}  // namespace poslab::test
