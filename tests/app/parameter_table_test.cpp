// Every slider's descriptor (state/parameter_table.hpp) against the session reader and the state's
// default, one table-driven test over all of them; and the sources: no slider states its own
// limits (each takes a descriptor), and every descriptor in state/ranges.hpp is in the table.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <variant>

#include "state/parameter_table.hpp"
#include "state/session_format.hpp"

namespace poslab::test {
namespace {

using nlohmann::json;
using ui::ParameterUse;
using ui::SessionAgreement;

struct Limits {
    std::string key, range;
    double low, high, fallback;
    bool integer;
};

Limits limitsOf(const ParameterUse& use) {
    return std::visit(
        [](const auto* p) {
            using P = std::decay_t<decltype(*p)>;
            return Limits{std::string(p->key), p->rangeText(),
                          double(p->low),      double(p->high),
                          double(p->fallback), std::is_same_v<P, IntParameter>};
        },
        use.parameter);
}

// Reads {pointer: value} as a session into a default AppState.
struct SessionRead {
    ui::AppState state;
    ui::Warnings warnings;
};
SessionRead readSession(const std::string& pointer, const json& value) {
    json session = {{"format", "poslab-session"}};
    session[json::json_pointer(pointer)] = value;
    SessionRead read;
    ui::SessionLayout layout;
    EXPECT_TRUE(ui::applySessionJson(session, read.state, layout, read.warnings).ok());
    return read;
}

json valueOf(const Limits& l, double v) {
    return l.integer ? json(static_cast<long long>(v)) : json(v);
}

std::string describe(const ParameterUse& use) {
    const Limits l = limitsOf(use);
    return l.key + " at " + std::string(use.session.empty() ? "(no session)" : use.session);
}

TEST(ParameterTableTest, EveryDescriptorIsUsableOnASlider) {
    for (const ParameterUse& use : ui::viewParameters()) {
        SCOPED_TRACE(describe(use));
        const Limits l = limitsOf(use);
        EXPECT_LT(l.low, l.high);
        EXPECT_GE(l.fallback, l.low);
        EXPECT_LE(l.fallback, l.high);
    }
}

// The view starts where the slider can show it; an Exact entry's default is the state's.
TEST(ParameterTableTest, StateDefaultsAgree) {
    const ui::AppState defaults;
    for (const ParameterUse& use : ui::viewParameters()) {
        SCOPED_TRACE(describe(use));
        const Limits l = limitsOf(use);
        const double value = use.value(defaults);
        EXPECT_GE(value, l.low);
        EXPECT_LE(value, l.high);
        if (use.agreement == SessionAgreement::Exact) {
            EXPECT_EQ(value, l.fallback);
        }
    }
}

// An Exact entry: the session accepts exactly the slider's range. Its limits read back
// unchanged; one step past either is refused (one warning, the view's previous settings kept),
// and past the top the message states the descriptor's range. (Below the bottom, core's own check
// may speak first: "seq_len must be 1..1048576 (got 0)".)
TEST(ParameterTableTest, SessionAcceptsExactlyTheSliderRange) {
    int exact = 0;
    for (const ParameterUse& use : ui::viewParameters()) {
        if (use.agreement != SessionAgreement::Exact) continue;
        ++exact;
        SCOPED_TRACE(describe(use));
        const Limits l = limitsOf(use);
        for (double v : {l.low, l.high}) {
            const SessionRead read = readSession(std::string(use.session), valueOf(l, v));
            EXPECT_TRUE(read.warnings.empty()) << v << ": " << read.warnings.front();
            EXPECT_EQ(use.value(read.state), v);
        }
        const double step = l.integer ? 1 : std::max(1e-3, (l.high - l.low) * 1e-3);
        for (double v : {l.low - step, l.high + step}) {
            const SessionRead read = readSession(std::string(use.session), valueOf(l, v));
            ASSERT_EQ(read.warnings.size(), 1u) << v;
            EXPECT_NE(read.warnings[0].find("must be "), std::string::npos) << read.warnings[0];
            if (v > l.high) {
                EXPECT_NE(read.warnings[0].find("must be " + l.range), std::string::npos)
                    << read.warnings[0];
            }
            EXPECT_EQ(use.value(read.state), use.value(ui::AppState{}));  // kept
        }
    }
    EXPECT_GE(exact, 30);
}

// Every entry with a session field: the state's default reads back, and the field is the one the
// pointer names (a slider limit the session accepts lands in the field; Within and Bounded
// entries may refuse one, whose other settings then conflict, as a whole view).
TEST(ParameterTableTest, SessionFieldsAreTheSlidersFields) {
    const ui::AppState defaults;
    for (const ParameterUse& use : ui::viewParameters()) {
        if (use.session.empty()) continue;
        SCOPED_TRACE(describe(use));
        const Limits l = limitsOf(use);
        const double fallback = use.value(defaults);
        const SessionRead same = readSession(std::string(use.session), valueOf(l, fallback));
        EXPECT_TRUE(same.warnings.empty()) << same.warnings.front();
        EXPECT_EQ(use.value(same.state), fallback);
        int landed = 0, refused = 0;
        for (double v : {l.low, l.high}) {
            if (v == fallback) continue;
            const SessionRead read = readSession(std::string(use.session), valueOf(l, v));
            if (!read.warnings.empty()) {
                ++refused;
                EXPECT_EQ(use.value(read.state), fallback);  // kept
            } else {
                ++landed;
                EXPECT_EQ(use.value(read.state), v);
            }
        }
        EXPECT_TRUE(landed > 0 || refused > 0);
        if (use.agreement != SessionAgreement::Bounded &&
            use.agreement != SessionAgreement::Within) {
            EXPECT_EQ(refused, 0);
        }
    }
}

// ---- The sources: every slider takes a descriptor
std::filesystem::path sourceDir() {  // POSLAB_TEST_DATA_DIR is <source>/tests/data
    return std::filesystem::path(POSLAB_TEST_DATA_DIR).parent_path().parent_path();
}

std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(ParameterTableTest, NoSliderStatesItsOwnLimits) {
    const std::filesystem::path app = sourceDir() / "app";
    // A raw ImGui slider or drag, or the widget called with a label instead of a descriptor.
    const std::regex literal(R"(\b(ImGui::(Slider|Drag)\w*|slider(Int|Double|Float))\s*\(\s*")");
    int found = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(app)) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_regular_file() || name.rfind("widgets", 0) == 0) continue;
        if (entry.path().extension() != ".cpp" && entry.path().extension() != ".hpp") continue;
        const std::string text = readText(entry.path());
        for (auto it = std::sregex_iterator(text.begin(), text.end(), literal);
             it != std::sregex_iterator(); ++it) {
            ADD_FAILURE() << entry.path().string() << ": " << it->str();
            ++found;
        }
    }
    EXPECT_EQ(found, 0);
}

// Every descriptor state/ranges.hpp declares is a slider's (in the table) or one of the figure
// file's, which RangeTableTest.FigureSizeEntriesDriveRenderSettings checks against the options.
TEST(ParameterTableTest, EveryRangesEntryIsInTheTable) {
    std::set<std::string> listed;
    for (const ParameterUse& use : ui::viewParameters()) listed.insert(limitsOf(use).key);
    const std::string text = readText(sourceDir() / "app" / "state" / "ranges.hpp");
    const std::regex declaration(
        R"(inline constexpr (IntRange|DoubleRange) (k\w+)\{\s*"([^"]+)\")");
    const std::set<std::string> figureFile = {"width", "height", "scale", "fontScale"};
    int declarations = 0;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), declaration);
         it != std::sregex_iterator(); ++it) {
        ++declarations;
        const std::string key = (*it)[3];
        if (figureFile.count(key)) continue;
        EXPECT_TRUE(listed.count(key)) << (*it)[2] << " (" << key << ") is not in viewParameters()";
    }
    EXPECT_GT(declarations, 60);
}

}  // namespace
}  // namespace poslab::test
