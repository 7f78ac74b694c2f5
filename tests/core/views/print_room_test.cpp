// askForHeight and heightMayGrow: a file's figure records the largest height any part asked for;
// the screen (no PanelRoom) and nonsense amounts ask for nothing.
#include "poslab/views/print_room.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace poslab {
namespace {

TEST(PrintRoomTest, AFileKeepsTheLargestRequest) {
    PanelRoom room;
    Theme theme = paperTheme();
    theme.panelRoom = &room;
    EXPECT_TRUE(heightMayGrow(theme));
    askForHeight(theme, 120);
    askForHeight(theme, 40);  // a smaller request does not lower it
    EXPECT_EQ(room.missingHeight, 120);
    askForHeight(theme, 300.5f);
    EXPECT_EQ(room.missingHeight, 300.5f);
}

TEST(PrintRoomTest, NonPositiveOrNonFiniteRequestsAreIgnored) {
    PanelRoom room;
    Theme theme = paperTheme();
    theme.panelRoom = &room;
    for (float missing :
         {0.f, -5.f, std::numeric_limits<float>::quiet_NaN(),
          std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()})
        askForHeight(theme, missing);
    EXPECT_EQ(room.missingHeight, 0);
}

TEST(PrintRoomTest, TheScreenNeverGrows) {
    const Theme theme = darkTheme();  // no PanelRoom: a window's figure keeps its size
    EXPECT_FALSE(heightMayGrow(theme));
    askForHeight(theme, 500);  // nothing to record into, and no crash
    EXPECT_EQ(theme.panelRoom, nullptr);
}

}  // namespace
}  // namespace poslab
