// Figure files as a paper's reviewer reads them, through the real binary: one panel keeps its own
// notes and the GUI's numbering, square plots and outside legends get a canvas sized to them,
// colour-bar labels carry the minus sign U+2212, and markup is typeset (no "$" or "_" left).
// Each failed before its fix.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "process.hpp"

namespace poslab::test {
namespace {

class TypesettingCliTest : public CommandLineTest {
  protected:
    std::string svgOf(std::vector<std::string> arguments) {
        arguments.push_back("--out");
        arguments.push_back(path("figure.svg"));
        const auto result = runPoslab(arguments);
        EXPECT_EQ(result.exitCode, 0) << result.err;
        return readFile(path("figure.svg"));
    }
    static double attribute(const std::string& svg, const std::string& name) {
        std::smatch match;
        const std::regex pattern("<svg[^>]* " + name + "=\"([0-9.]+)\"");
        return std::regex_search(svg, match, pattern) ? std::stod(match[1]) : -1;
    }
};

TEST_F(TypesettingCliTest, OnePanelKeepsItsOwnNotes) {
    // T5's third panel (bucket id against j - i) labels its edges; --panel 3 dropped them.
    const std::string svg = svgOf({"render", "t5", "--num-buckets", "32", "--max-distance", "128",
                                   "--seq-len", "256", "--panel", "3"});
    EXPECT_NE(svg.find("exact below 8"), std::string::npos);
    EXPECT_NE(svg.find("max_distance 128"), std::string::npos);
    EXPECT_NE(svg.find("Bucket id against "), std::string::npos);
    EXPECT_EQ(svg.find("Bias against relative position"), std::string::npos);  // panel 4's
}

TEST_F(TypesettingCliTest, PanelNumbersAreTheGuis) {
    // ALiBi's GUI shows four panels: the grid of heads, one head enlarged, slopes, attention.
    // --panel counted every head's plot, so panel 2 was head 1 of the grid.
    const std::string enlarged = svgOf({"render", "alibi", "--heads", "8", "--panel", "2"});
    EXPECT_NE(enlarged.find("Head 0: m = "), std::string::npos);
    const std::string slopes = svgOf({"render", "alibi", "--heads", "8", "--panel", "3"});
    EXPECT_NE(slopes.find("Slope per head"), std::string::npos);
    const auto past =
        runPoslab({"render", "alibi", "--heads", "8", "--panel", "5", "--out", path("past.svg")});
    EXPECT_EQ(past.exitCode, 2);
    EXPECT_NE(past.err.find("--panel must be 1..4"), std::string::npos) << past.err;
}

TEST_F(TypesettingCliTest, SquarePlotsAndOutsideLegendsSizeTheCanvas) {
    // --width alone: the width stays, the height is what the square plot needs (it was the full
    // 800 px with wide empty margins either side of a 600 px square).
    const std::string square =
        svgOf({"render", "rope-scalings", "--aspect", "square", "--width", "600"});
    EXPECT_EQ(attribute(square, "width"), 600);
    // (At print sizes the legend takes a column beside the plot, which leaves a smaller square.)
    const double height = attribute(square, "height");
    EXPECT_GT(height, 300);
    EXPECT_LT(height, 760);
    // A height given is kept.
    const std::string given = svgOf(
        {"render", "rope-scalings", "--aspect", "square", "--width", "600", "--height", "800"});
    EXPECT_EQ(attribute(given, "height"), 800);
    const std::string outside = svgOf(
        {"render", "rope-scalings", "--legend", "outside", "--aspect", "square", "--width", "900"});
    EXPECT_EQ(attribute(outside, "width"), 900);
    EXPECT_LT(attribute(outside, "height"), 800);
}

TEST_F(TypesettingCliTest, WidthAloneKeepsThreeToTwoAndLongTitlesWrap) {
    // A one-column figure: --width 600 alone was 600 x 800, and Meaning's title was cut with "…".
    // One plot keeps 3:2; Meaning's panels at print sizes need more rows than 400 px hold, so its
    // canvas grows to show every one (it showed one panel of six).
    const std::string one = svgOf({"render", "rope-decay", "--width", "600"});
    EXPECT_EQ(attribute(one, "width"), 600);
    EXPECT_EQ(attribute(one, "height"), 400);
    const std::string svg = svgOf({"render", "meaning", "--width", "600"});
    EXPECT_EQ(attribute(svg, "width"), 600);
    EXPECT_GT(attribute(svg, "height"), 1200);
    EXPECT_NE(svg.find(">How position and meaning coexist"), std::string::npos);
    EXPECT_NE(svg.find("term by term<"), std::string::npos);  // the title's end, on its own line
    EXPECT_EQ(svg.find("term b\u2026"), std::string::npos);
}

TEST_F(TypesettingCliTest, ColourBarsUseTheMinusSignAndMarkupIsTypeset) {
    const std::string svg = svgOf({"render", "rope-scores", "--head-dim", "16", "--seq-len", "64"});
    EXPECT_NE(svg.find("\u2212"), std::string::npos);  // a negative colour-bar tick
    EXPECT_EQ(svg.find(">-0"), std::string::npos);     // never hyphen-minus numbers
    EXPECT_EQ(svg.find(">-1"), std::string::npos);
    EXPECT_EQ(svg.find("q_m"), std::string::npos);  // $q_m·k_n$ set as runs, not source
    EXPECT_NE(svg.find("<tspan"), std::string::npos);
}

// Each <text> element's content with its tags (the maths' <tspan> runs) taken out: the words a
// reader sees. Found with find(), not std::regex: the tests' code is -O0 and instrumented in the
// sanitizer run, where a regex over 40 SVGs of ~100 KB (heatmap images) cost about 5 s of CPU.
std::vector<std::string> svgTexts(const std::string& svg) {
    std::vector<std::string> texts;
    for (std::size_t at = svg.find("<text"); at != std::string::npos;) {
        const std::size_t open = svg.find('>', at);
        const std::size_t close = open == std::string::npos ? open : svg.find("</text>", open + 1);
        if (close == std::string::npos) break;
        std::string plain;
        for (std::size_t i = open + 1; i < close;) {
            const std::size_t tagEnd = svg[i] == '<' ? svg.find('>', i + 1) : std::string::npos;
            if (tagEnd != std::string::npos && tagEnd < close && tagEnd > i + 1) {
                i = tagEnd + 1;
                continue;
            }
            plain += svg[i++];
        }
        texts.push_back(std::move(plain));
        at = svg.find("<text", close + 7);
    }
    return texts;
}

// Figure text as a paper sets it, in every view that renders from its defaults. A minus written
// as a hyphen ("bias -m·(i - j)", "j - i", "Δ -144.2°", "rope delta -462", "below -10", "+-1 sd",
// "mean -0.00037"): each <text>'s runs joined, then a hyphen that begins a number or a symbol,
// or stands alone between spaces, or follows a plus. Hyphens inside words ("lag-1",
// "first-token", "i-j" in a formula's source) are not minus signs. Plain-text maths where markup
// is wanted: "sqrt(", "x" for × between numbers ("64 x 3", "2x1 cells", "(4x)"), "q.k" or " . "
// for the dot product, a raw one-letter subscript ("q_i", "b_ij", "W_Q") and "d_model".
// Identifiers the user types (head_dim, max_distance, get_slopes) stay as they are.
// One `render --spec` batch draws every figure (40 processes were most of this test's CPU).
TEST_F(TypesettingCliTest, FigureTextIsTypesetInEveryView) {
    const std::vector<std::pair<const char*, std::regex>> faults = {
        {"hyphen for a minus", std::regex("(^|[\\s(\\[=,:;])-(?=[\\w.(])|\\s-\\s|\\+-")},
        {"sqrt( for √", std::regex("sqrt\\(")},
        {"x for ×", std::regex("\\d\\s*x\\s*\\d|\\dx\\)")},
        {"a dot for ·", std::regex("\\bq\\.k\\b|\\w \\. \\w")},
        {"a raw subscript",
         std::regex("(^|[^\\w])[A-Za-z]_(\\{|[A-Za-z0-9]{1,2}\\b)|\\bd_model\\b")},
    };
    // Each figure: what a failure names it by, and its spec entry (the command line's options).
    std::vector<std::pair<std::string, nlohmann::json>> figures;
    for (const char* view : {"rope-rotation",
                             "rope-angles",
                             "rope-scores",
                             "rope-frequencies",
                             "rope-scalings",
                             "rope-decay",
                             "rope-precision",
                             "mrope",
                             "axial-rope",
                             "t5",
                             "learned-pca",
                             "similarity",
                             "meaning",
                             "add-vs-concat",
                             "near-orthogonality",
                             "binary-clock",
                             "linear-shift",
                             "attention-shuffle",
                             "frequency-resolution",
                             "extrapolation",
                             "compare",
                             "compare-ab",
                             "alibi",
                             "cope",
                             "deberta",
                             "nope",
                             "irope",
                             "randomized-positions",
                             "relative-family",
                             "xpos",
                             "kerple",
                             "sandwich",
                             "fire"})
        figures.push_back({view, {{"view", view}}});
    for (const char* view : {"sinusoidal", "sinusoidal-curves"})
        figures.push_back({view, {{"view", view}, {"d_model", 64}, {"seq_len", 128}}});
    // A one-column export too, where notes and titles wrap (DeBERTa's clamp marker, the
    // orthogonality note).
    for (const char* view : {"deberta", "near-orthogonality", "cope", "fire", "xpos"})
        figures.push_back({std::string(view) + " --width 600", {{"view", view}, {"width", 600}}});
    nlohmann::json spec = nlohmann::json::array();
    for (std::size_t i = 0; i < figures.size(); ++i) {
        figures[i].second["out"] = "figure" + std::to_string(i) + ".svg";
        spec.push_back(figures[i].second);
    }
    std::ofstream(path("figures.json")) << spec.dump();
    const auto result = runPoslab({"render", "--spec", path("figures.json")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    for (std::size_t i = 0; i < figures.size(); ++i) {
        const std::string& figure = figures[i].first;
        const std::string svg = readFile(path("figure" + std::to_string(i) + ".svg"));
        ASSERT_NE(svg.find("<text"), std::string::npos) << figure;
        for (const std::string& text : svgTexts(svg)) {
            for (const auto& [fault, pattern] : faults)
                EXPECT_FALSE(std::regex_search(text, pattern))
                    << figure << ", " << fault << ": " << text;
        }
    }
}

// ALiBi's slopes are powers of two: its log₂-slope axis is ticked at whole numbers. The
// one-column PDF read −7.5, −5, −2.5.
TEST_F(TypesettingCliTest, LogSlopeAxisIsTickedAtWholePowers) {
    for (const char* heads : {"8", "12"}) {
        const std::string svg = svgOf({"render", "alibi", "--heads", heads, "--width", "600"});
        ASSERT_NE(svg.find("Slope per head"), std::string::npos);
        EXPECT_EQ(svg.find(">\u22127.5<"), std::string::npos) << heads << " heads";
        EXPECT_EQ(svg.find(">\u22122.5<"), std::string::npos) << heads << " heads";
        EXPECT_TRUE(svg.find(">\u22124<") != std::string::npos ||
                    svg.find(">\u22126<") != std::string::npos)
            << heads << " heads";
    }
}

// The paper theme draws no line in Okabe-Ito's yellow (#f0e442), which vanishes on white: the
// README says so, and seriesColor(index, theme) made it black, but a view that coloured its series
// itself (the Relative family's Sandwich, every fifth Sandwich head, Why position's fifth word)
// still drew it yellow.
TEST_F(TypesettingCliTest, PaperLinesAreNeverYellow) {
    for (const char* view : {"relative-family", "sandwich", "attention-shuffle"}) {
        const std::string svg = svgOf({"render", view});
        ASSERT_NE(svg.find("stroke=\""), std::string::npos) << view;  // lines drawn
        EXPECT_EQ(svg.find("#f0e442"), std::string::npos) << view;
    }
}

}  // namespace
}  // namespace poslab::test
