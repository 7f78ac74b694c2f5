// Links that carry a view and its settings (state/share_link.hpp): what a lecturer copies on the
// desktop must open the same figure in the page, and a damaged link must change nothing.
#include <gtest/gtest.h>

#include <string>

#include "state/share_link.hpp"

namespace poslab::test {
namespace {

using state::AppState;
using state::Warnings;

// RFC 3986 section 2: unreserved characters stay, everything else is %XX in upper-case hex.
TEST(ShareLinkTest, PercentEncodingFollowsRfc3986) {
    EXPECT_EQ(state::percentEncode("Vision RoPE"), "Vision%20RoPE");
    EXPECT_EQ(state::percentEncode("{\"base\":10}"), "%7B%22base%22:10%7D");
    EXPECT_EQ(state::percentEncode("a&b=c#"), "a%26b%3Dc%23");
    EXPECT_EQ(state::percentEncode("θ"), "%CE%B8");  // UTF-8 bytes of U+03B8
    EXPECT_EQ(*state::percentDecode("%ce%B8%20x"), "θ x");
    EXPECT_FALSE(state::percentDecode("100%"));
    EXPECT_FALSE(state::percentDecode("%G0"));
}

TEST(ShareLinkTest, FreshStateLinksTheViewAlone) {
    EXPECT_EQ(state::linkFragment(AppState{}, "RoPE"), "view=RoPE");
}

// Settings changed on the desktop come back exactly from the link; the rest stays at defaults.
TEST(ShareLinkTest, ChangedSettingsRoundTrip) {
    AppState shared;
    shared.sinusoidal.params.base = 500000;
    shared.sinusoidal.params.dModel = 256;
    shared.rope.params.base = 1e6;
    const std::string fragment = state::linkFragment(shared, "Sinusoidal");
    EXPECT_NE(fragment.find("&s="), std::string::npos);
    EXPECT_EQ(fragment.find(' '), std::string::npos);

    AppState opened;
    opened.t5.numBuckets = 16;  // whatever the page showed before: reset by the link
    Warnings warnings;
    auto request =
        state::applyLinkFragment("https://example.org/poslab/#" + fragment, opened, warnings);
    ASSERT_TRUE(request) << request.error().message;
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(request->view, "Sinusoidal");
    EXPECT_EQ(opened.sinusoidal.params.base, 500000);
    EXPECT_EQ(opened.sinusoidal.params.dModel, 256);
    EXPECT_EQ(opened.rope.params.base, 1e6);
    EXPECT_EQ(opened.t5.numBuckets, AppState{}.t5.numBuckets);
    EXPECT_EQ(state::linkFragment(opened, "Sinusoidal"), fragment);
}

TEST(ShareLinkTest, LessonLinks) {
    AppState state;
    Warnings warnings;
    auto request = state::applyLinkFragment("lesson=7", state, warnings);
    ASSERT_TRUE(request);
    EXPECT_EQ(request->lesson, 7);
    EXPECT_FALSE(state::applyLinkFragment("lesson=0", state, warnings));
    EXPECT_FALSE(state::applyLinkFragment("lesson=7x", state, warnings));
}

// A damaged or foreign fragment is refused in one line and leaves the state as it was.
TEST(ShareLinkTest, BadLinksChangeNothing) {
    AppState state;
    state.sinusoidal.params.base = 1234;
    const AppState before = state;
    Warnings warnings;
    for (const char* fragment : {"view=RoPE&s=%7Bnot-json", "view=RoPE&s=%5B1%5D", "page=2",
                                 "view=RoPE&s=%7B%22rope%22:%7B%22base%22:1e400%7D%7D", "s=%"}) {
        auto request = state::applyLinkFragment(fragment, state, warnings);
        EXPECT_FALSE(request) << fragment;
        EXPECT_TRUE(state == before) << fragment;
    }
    // Nesting beyond the JSON reader's bound is refused before it is parsed.
    std::string deep = "s=" + std::string(100, '[') + std::string(100, ']');
    EXPECT_FALSE(state::applyLinkFragment(deep, state, warnings));
}

// An out-of-range value inside a valid link is a warning, as in a session file; the view keeps
// its defaults.
TEST(ShareLinkTest, OutOfRangeValueWarns) {
    AppState state;
    Warnings warnings;
    auto request = state::applyLinkFragment(
        "view=RoPE&s=" + state::percentEncode("{\"sinusoidal\":{\"params\":{\"base\":-5}}}"), state,
        warnings);
    ASSERT_TRUE(request);
    EXPECT_FALSE(warnings.empty());
    EXPECT_EQ(state.sinusoidal.params.base, AppState{}.sinusoidal.params.base);
}

TEST(ShareLinkTest, LinkAddresses) {
    EXPECT_TRUE(state::isLinkAddress("https://host/poslab/#view=RoPE"));
    EXPECT_TRUE(state::isLinkAddress("file:///srv/poslab/index.html#lesson=2"));
    EXPECT_FALSE(state::isLinkAddress("https://host/poslab/"));
    EXPECT_FALSE(state::isLinkAddress("config.json"));
    EXPECT_EQ(state::linkAddress("http://h/p/#old", "view=T5"), "http://h/p/#view=T5");
    EXPECT_EQ(state::linkAddress("http://h/p/", "view=T5"), "http://h/p/#view=T5");
}

}  // namespace
}  // namespace poslab::test
