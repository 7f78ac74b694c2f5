// The figure-text markup against run lists written out by hand: what TeX's maths mode would set
// for the same source (sub/superscript levels, italic Latin letters, Greek by name, the minus).
#include "poslab/figure/text_markup.hpp"

#include <gtest/gtest.h>

namespace poslab {
namespace {

constexpr float kSub = kSubscriptShift, kSup = kSuperscriptShift, kS = kScriptScale;
constexpr TextStyle kUp = TextStyle::Upright, kIt = TextStyle::Italic;

void expectRuns(std::string_view source, const std::vector<TextRun>& expected) {
    const std::vector<TextRun> runs = parseMarkup(source);
    ASSERT_EQ(runs.size(), expected.size()) << source;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        EXPECT_EQ(runs[i].text, expected[i].text) << source << " run " << i;
        EXPECT_FLOAT_EQ(runs[i].shift, expected[i].shift) << source << " run " << i;
        EXPECT_FLOAT_EQ(runs[i].scale, expected[i].scale) << source << " run " << i;
        EXPECT_EQ(runs[i].style, expected[i].style) << source << " run " << i;
    }
}

TEST(TextMarkupTest, TextOutsideDollarsIsLiteral) {
    expectRuns("max_position_embeddings ^ 2", {{"max_position_embeddings ^ 2", 0, 1, kUp}});
    expectRuns("", {});
    EXPECT_FALSE(hasMarkup("rope_theta"));
    expectRuns("costs \\$5", {{"costs $5", 0, 1, kUp}});
}

TEST(TextMarkupTest, SubscriptOfOneCharacter) {
    // $θ_i$: θ upright (a literal glyph), i italic, lowered, smaller.
    expectRuns("$θ_i$", {{"θ", 0, 1, kUp}, {"i", kSub, kS, kIt}});
    expectRuns("angle $θ_i$ per position",
               {{"angle θ", 0, 1, kUp}, {"i", kSub, kS, kIt}, {" per position", 0, 1, kUp}});
}

TEST(TextMarkupTest, DotProductOfIndexedVectors) {
    expectRuns("$q_m·k_n$", {{"q", 0, 1, kIt},
                             {"m", kSub, kS, kIt},
                             {"·", 0, 1, kUp},
                             {"k", 0, 1, kIt},
                             {"n", kSub, kS, kIt}});
    EXPECT_EQ(plainText("$q_m \\cdot k_n$"), "qm · kn");
}

TEST(TextMarkupTest, BracedSubscriptWithGreekByName) {
    // $\Sigma_{k<j}$: Σ upright, then the whole group k<j lowered (letters italic, '<' upright).
    expectRuns(
        "$\\Sigma_{k<j}$",
        {{"Σ", 0, 1, kUp}, {"k", kSub, kS, kIt}, {"<", kSub, kS, kUp}, {"j", kSub, kS, kIt}});
    expectRuns("$d_{model}$", {{"d", 0, 1, kIt}, {"model", kSub, kS, kIt}});
    expectRuns("$d_{\\mathrm{model}}$", {{"d", 0, 1, kIt}, {"model", kSub, kS, kUp}});
}

TEST(TextMarkupTest, SuperscriptsAndTheMinusSign) {
    expectRuns("$10^4$", {{"10", 0, 1, kUp}, {"4", kSup, kS, kUp}});
    // Hyphen-minus becomes U+2212 in maths; a nested script shrinks and shifts again.
    expectRuns("$10^{-3}$", {{"10", 0, 1, kUp}, {"\u22123", kSup, kS, kUp}});
    expectRuns("$e^{x_i}$",
               {{"e", 0, 1, kIt}, {"x", kSup, kS, kIt}, {"i", kSup + kS * kSub, kS * kS, kIt}});
}

TEST(TextMarkupTest, CommandsEscapesAndUnknownNames) {
    EXPECT_EQ(plainText("$\\theta \\le 2\\pi$"), "θ ≤ 2π");
    EXPECT_EQ(plainText("$\\{a\\}\\_\\$$"), "{a}_$");
    EXPECT_EQ(plainText("$\\nosuch$"), "\\nosuch");  // shown as typed, not dropped
    EXPECT_EQ(plainText("$a\\,b$"), "a\u2009b");     // thin space
}

TEST(TextMarkupTest, UnbalancedSourceStillDraws) {
    // fitText may cut a label inside its maths: the rest runs to the end, nothing is lost.
    EXPECT_EQ(plainText("$θ_{ab"), "θab");
    EXPECT_EQ(plainText("$x^"), "x");
    EXPECT_EQ(plainText("$a}b$"), "a}b");
    EXPECT_EQ(plainText("$\\"), "\\");
}

TEST(TextMarkupTest, WidthCountsScriptsAtTheirSize) {
    // "10" at full size and "4" at kScriptScale: (2 + 0.72) glyphs of 0.5.
    EXPECT_FLOAT_EQ(markupWidth("$10^4$", 0.5f), 0.5f * (2 + kS));
    EXPECT_FLOAT_EQ(markupWidth("π/2", 0.5f), 1.5f);  // plain: one per UTF-8 character
}

}  // namespace
}  // namespace poslab
