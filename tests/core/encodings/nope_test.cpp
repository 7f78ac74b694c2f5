#include "poslab/encodings/nope.hpp"

#include <gtest/gtest.h>

namespace poslab {
namespace {

TEST(NopeTest, CausalAverageOfAFirstTokenIndicatorIsOneOverTPlusOne) {
    Matrix x(50, 2, 0.0);
    x(0, 0) = 1;                                       // "I am the first token"
    for (std::size_t t = 0; t < 50; ++t) x(t, 1) = 3;  // a feature every token has
    const Matrix out = uniformCausalAverage(x);
    for (std::size_t t = 0; t < 50; ++t) {
        EXPECT_NEAR(out(t, 0), 1.0 / double(t + 1), 1e-15) << t;
        EXPECT_NEAR(out(t, 1), 3.0, 1e-15);  // a constant carries no position
        EXPECT_DOUBLE_EQ(nopeFirstTokenSignal(static_cast<long long>(t)), 1.0 / double(t + 1));
    }
}

TEST(NopeTest, PrecisionBoundsTheRecoveredPosition) {
    for (long long t = 0; t < 2000; ++t)
        EXPECT_EQ(nopeRecoveredPosition(t, SignalPrecision::Float64), t);
    // bfloat16 keeps 8 significant bits: 0.1 -> 0.10009766, 1/3 -> 0.333984375.
    EXPECT_EQ(roundToPrecision(0.1, SignalPrecision::BFloat16), 0.10009765625);
    EXPECT_EQ(roundToPrecision(1.0 / 3, SignalPrecision::BFloat16), 0.333984375);
    EXPECT_EQ(roundToPrecision(1.0 / 3, SignalPrecision::Float32), double(1.0f / 3.0f));
    // 1/(t+1) - 1/(t+2) ~ 1/t^2 must exceed half an ulp ~ 2^-bits / t, so t ~ 2^bits. The first
    // failures, found by a separate script that rounds with Python's struct (float32, and
    // float32 with the low 16 bits rounded to nearest even for bfloat16):
    const long long bf16 = nopeFirstUnresolved(SignalPrecision::BFloat16, 1 << 20);
    EXPECT_EQ(bf16, 189);
    EXPECT_EQ(nopeRecoveredPosition(11864337, SignalPrecision::Float32), 11864337);
    EXPECT_NE(nopeRecoveredPosition(11864338, SignalPrecision::Float32), 11864338);
    EXPECT_EQ(nopeFirstUnresolved(SignalPrecision::Float32, 1 << 16), 1 << 16);  // none below
    EXPECT_NE(nopeRecoveredPosition(bf16, SignalPrecision::BFloat16), bf16);
}

TEST(IropeTest, DefaultLayersFollowTheConfig) {
    // Llama4TextConfig: int((l + 1) % 4 != 0): layers 3, 7, 11, ... are NoPE.
    const std::vector<int> layers = defaultNoRopeLayers(8, 4);
    EXPECT_EQ(layers, (std::vector<int>{1, 1, 1, 0, 1, 1, 1, 0}));
    IropeParams p;
    EXPECT_TRUE(layerUsesRope(p, 0));
    EXPECT_FALSE(layerUsesRope(p, 3));
    EXPECT_FALSE(layerUsesRope(p, 47));
    p.noRopeLayerInterval = 1;  // every layer NoPE
    EXPECT_FALSE(layerUsesRope(p, 0));
    p.numLayers = 3;
    p.noRopeLayers = {0, 1, 0};  // given: wins over the interval
    EXPECT_TRUE(layerUsesRope(p, 1));
    EXPECT_FALSE(layerUsesRope(p, 0));
}

TEST(IropeTest, ChunkedMaskKeepsKeysOfTheQuerysChunk) {
    IropeParams p;
    p.attentionChunkSize = 4;
    // Query 5 in a RoPE layer sees keys 4 and 5 only (chunk 1 = positions 4..7).
    for (long long k = 0; k < 8; ++k) EXPECT_EQ(iropeAttends(p, 0, 5, k), k == 4 || k == 5) << k;
    // A NoPE layer sees the whole causal prefix.
    for (long long k = 0; k < 8; ++k) EXPECT_EQ(iropeAttends(p, 3, 5, k), k <= 5) << k;
    EXPECT_EQ(iropeVisibleKeys(p, 0, 5), 2);
    EXPECT_EQ(iropeVisibleKeys(p, 0, 8), 1);
    EXPECT_EQ(iropeVisibleKeys(p, 3, 8), 9);
    p.attentionChunkSize = 0;  // no chunking
    EXPECT_TRUE(iropeAttends(p, 0, 5, 0));
}

TEST(IropeTest, ValidateNamesBadFields) {
    IropeParams p;
    p.noRopeLayers = {1, 0};
    EXPECT_EQ(validate(p).error().message,
              "no_rope_layers must have num_layers = 48 entries (got 2)");
    p.numLayers = 2;
    p.noRopeLayers = {1, 2};
    EXPECT_EQ(validate(p).error().message, "no_rope_layers[1] must be 0..1 (got 2)");
    p.noRopeLayers.clear();
    p.noRopeLayerInterval = 0;
    EXPECT_EQ(validate(p).error().message, "no_rope_layer_interval must be 1..256 (got 0)");
}

}  // namespace
}  // namespace poslab
