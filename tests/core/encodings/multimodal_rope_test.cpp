// Multimodal RoPE: the three position streams written out by hand from HF's get_rope_index, and
// the pair -> stream maps from apply_multimodal_rotary_pos_emb / apply_interleaved_mrope.
#include "poslab/encodings/multimodal_rope.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "poslab/encodings/rope.hpp"

namespace poslab {
namespace {

using Longs = std::vector<long long>;

std::vector<PromptSegment> prompt(const char* text) {
    auto parsed = parseMropePrompt(text);
    EXPECT_TRUE(parsed) << (parsed ? "" : parsed.error().message);
    return parsed ? *parsed : std::vector<PromptSegment>{};
}

TEST(MropeTest, TextImageTextStreamsAsGetRopeIndex) {
    // 3 text tokens, a 1x4x6 patch grid merged 2x2 into 2 rows x 3 columns = 6 tokens starting at
    // position 3, then text from max(3, 4, 5) + 1 = 6.
    auto positions = mropePositions(prompt("text:3,image:1x4x6,text:2"), MropeSettings{});
    ASSERT_TRUE(positions) << positions.error().message;
    EXPECT_EQ(positions->temporal, (Longs{0, 1, 2, 3, 3, 3, 3, 3, 3, 6, 7}));
    EXPECT_EQ(positions->height, (Longs{0, 1, 2, 3, 3, 3, 4, 4, 4, 6, 7}));
    EXPECT_EQ(positions->width, (Longs{0, 1, 2, 3, 4, 5, 3, 4, 5, 6, 7}));
    EXPECT_EQ(positions->nextPosition, 8);
    EXPECT_EQ(positions->ropeDelta, 8 - 11);  // HF's mrope_position_deltas
    ASSERT_EQ(positions->spans.size(), 3u);
    EXPECT_EQ(positions->spans[1].tokens, 6);
    EXPECT_EQ(positions->spans[1].advance, 3);  // max(h, w) / merge = 6 / 2, not 6 tokens
}

TEST(MropeTest, ImageAdvancesByLargerMergedSide) {
    // 1x28x42 patches: 14 x 21 merged = 294 tokens, but the text after it moves on by 21.
    auto positions = mropePositions(prompt("text:5,image:1x28x42,text:3"), MropeSettings{});
    ASSERT_TRUE(positions);
    EXPECT_EQ(positions->spans[1].tokens, 294);
    EXPECT_EQ(positions->spans[1].advance, 21);
    EXPECT_EQ(positions->temporal[5 + 294], 5 + 21);
}

TEST(MropeTest, Qwen25VideoTemporalIndexScaledBySecondsAndTokensPerSecond) {
    // 3 frame groups of 4x4 patches (2x2 merged): t index = long(i * 0.75 s * 2 tokens/s) =
    // long(0, 1.5, 3.0) = 0, 1, 3; the text after starts at 2 + 3 + 1 = 6.
    MropeSettings settings = mropePreset(MropeModel::Qwen25VL);
    settings.tokensPerSecond = 2;
    auto positions = mropePositions(prompt("text:2,video:3x4x4@0.75,text:1"), settings);
    ASSERT_TRUE(positions) << positions.error().message;
    EXPECT_EQ(positions->temporal, (Longs{0, 1, 2, 2, 2, 2, 3, 3, 3, 3, 5, 5, 5, 5, 6}));
    EXPECT_EQ(positions->height, (Longs{0, 1, 2, 2, 3, 3, 2, 2, 3, 3, 2, 2, 3, 3, 6}));
    EXPECT_EQ(positions->width, (Longs{0, 1, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 6}));
}

TEST(MropeTest, Qwen2VideoTemporalIndexIsFrameGroup) {
    auto positions =
        mropePositions(prompt("text:2,video:3x4x4@0.75,text:1"), mropePreset(MropeModel::Qwen2VL));
    ASSERT_TRUE(positions);
    EXPECT_EQ(positions->temporal, (Longs{0, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5}));
    EXPECT_EQ(positions->width.back(), 5);
}

TEST(MropeTest, Qwen3VideoIsOneGridPerFrame) {
    // video_grid_thw split into (1, 4, 4) x 3: each frame starts at the previous max + 1.
    auto positions =
        mropePositions(prompt("text:2,video:3x4x4,text:1"), mropePreset(MropeModel::Qwen3VL));
    ASSERT_TRUE(positions);
    EXPECT_EQ(positions->temporal, (Longs{0, 1, 2, 2, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6, 8}));
    EXPECT_EQ(positions->height, (Longs{0, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8}));
    EXPECT_EQ(positions->width, (Longs{0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8}));
}

TEST(MropeTest, ContiguousSectionsAsHfSplitsTheDoubledCos) {
    // HF: cos has head_dim = 128 entries (freqs repeated twice); it is split into
    // mrope_section * 2 = [16,24,24,16,24,24] chunks and chunk i takes stream i % 3. Dim c < 64
    // belongs to pair c (rotate_half pairs c with c + 64).
    auto streams = mropePairStreams({16, 24, 24}, 128, MropeLayout::Contiguous);
    ASSERT_TRUE(streams);
    ASSERT_EQ(streams->size(), 64u);
    const int chunks[6] = {16, 24, 24, 16, 24, 24};
    int dim = 0;
    for (int i = 0; i < 6; ++i) {
        for (int n = 0; n < chunks[i]; ++n, ++dim) {
            const int pair = dim % 64;
            EXPECT_EQ(int((*streams)[std::size_t(pair)]), i % 3) << "dim " << dim;
        }
    }
    EXPECT_EQ((*streams)[15], PositionStream::Temporal);
    EXPECT_EQ((*streams)[16], PositionStream::Height);
    EXPECT_EQ((*streams)[39], PositionStream::Height);
    EXPECT_EQ((*streams)[40], PositionStream::Width);
}

TEST(MropeTest, InterleavedSectionsAsQwen3) {
    // [24,20,20] over 64 pairs: H at 1, 4, ..., 58 (below 60), W at 2, 5, ..., 59, T elsewhere
    // (0, 3, ..., 57 and 60..63): T H W T H W ... T T T T.
    auto streams = mropePairStreams({24, 20, 20}, 128, MropeLayout::Interleaved);
    ASSERT_TRUE(streams);
    for (int j = 0; j < 64; ++j) {
        const PositionStream expected = j >= 60      ? PositionStream::Temporal
                                        : j % 3 == 0 ? PositionStream::Temporal
                                        : j % 3 == 1 ? PositionStream::Height
                                                     : PositionStream::Width;
        EXPECT_EQ((*streams)[std::size_t(j)], expected) << "pair " << j;
    }
}

TEST(MropeTest, SectionMustSumToHalfTheHead) {
    auto s = validateMropeSection({16, 24, 20}, 128);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().message, "mrope_section must sum to head_dim / 2 = 64 (got 16+24+20 = 60)");
    EXPECT_FALSE(mropePairStreams({4, 30, 30}, 128, MropeLayout::Interleaved));  // 90 > 64
}

TEST(MropeTest, TextOnlyEqualsOneDimensionalRope) {
    MropeSettings settings;  // [16,24,24], base 1e6, head 128
    auto positions = mropePositions(prompt("text:40"), settings);
    ASSERT_TRUE(positions);
    auto angles = mropeAngles(*positions, settings);
    ASSERT_TRUE(angles);
    RopeParams rope;
    rope.headDim = 128;
    rope.base = 1e6;
    auto freqs = ropeFrequencies(rope);
    ASSERT_TRUE(freqs);
    for (int n = 0; n < 40; ++n) {
        EXPECT_EQ(positions->temporal[std::size_t(n)], n);
        EXPECT_EQ(positions->height[std::size_t(n)], n);
        EXPECT_EQ(positions->width[std::size_t(n)], n);
        for (std::size_t j = 0; j < 64; ++j) {
            EXPECT_NEAR((*angles)(std::size_t(n), j), n * freqs->inverse[j], 1e-12);
        }
    }
}

TEST(MropeTest, AnglesTakeEachPairsStream) {
    MropeSettings settings;
    auto positions = mropePositions(prompt("text:3,image:1x4x6,text:2"), settings);
    ASSERT_TRUE(positions);
    auto angles = mropeAngles(*positions, settings, 7, 1);  // token 7: (3, 4, 4)
    ASSERT_TRUE(angles);
    ASSERT_EQ(angles->rows, 1u);
    EXPECT_NEAR((*angles)(0, 0), 3.0, 1e-12);                                 // T, theta_0 = 1
    EXPECT_NEAR((*angles)(0, 20), 4.0 * std::pow(1e6, -40.0 / 128), 1e-12);   // H
    EXPECT_NEAR((*angles)(0, 50), 4.0 * std::pow(1e6, -100.0 / 128), 1e-12);  // W
}

TEST(MropeTest, PromptSyntaxRoundTripsAndRejectsBadSegments) {
    auto parsed = parseMropePrompt("text:5,image:1x28x42,text:3,video:4x14x14@0.5");
    ASSERT_TRUE(parsed);
    EXPECT_EQ(formatMropePrompt(*parsed), "text:5,image:1x28x42,text:3,video:4x14x14@0.5");
    EXPECT_FALSE(parseMropePrompt(""));
    EXPECT_FALSE(parseMropePrompt("text:0"));
    EXPECT_FALSE(parseMropePrompt("image:1x28"));
    EXPECT_FALSE(parseMropePrompt("audio:3"));
    EXPECT_FALSE(parseMropePrompt("image:1x2000x2"));
    EXPECT_FALSE(parseMropePrompt("video:2x4x4@0"));
    auto odd = mropePositions(prompt("image:1x5x4"), MropeSettings{});
    ASSERT_FALSE(odd);
    EXPECT_NE(odd.error().message.find("multiples of spatial_merge_size 2"), std::string::npos);
}

}  // namespace
}  // namespace poslab
