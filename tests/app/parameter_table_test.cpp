// Every slider's descriptor (state/parameter_table.hpp) against the session reader and the state's
// default, one table-driven test over all of them; and the sources: no slider states its own
// limits (each takes a descriptor), and every descriptor in state/ranges.hpp is in the table.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "commands/commands.hpp"
#include "state/parameter_table.hpp"
#include "state/session_format.hpp"

namespace poslab::test {
namespace {

using nlohmann::json;
using state::ParameterUse;
using state::SessionAgreement;

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
    state::AppState state;
    state::Warnings warnings;
};
SessionRead readSession(const std::string& pointer, const json& value) {
    json session = {{"format", "poslab-session"}};
    session[json::json_pointer(pointer)] = value;
    SessionRead read;
    state::SessionLayout layout;
    EXPECT_TRUE(state::applySessionJson(session, read.state, layout, read.warnings).ok());
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
    for (const ParameterUse& use : state::viewParameters()) {
        SCOPED_TRACE(describe(use));
        const Limits l = limitsOf(use);
        EXPECT_LT(l.low, l.high);
        EXPECT_GE(l.fallback, l.low);
        EXPECT_LE(l.fallback, l.high);
    }
}

// The view starts where the slider can show it; an Exact entry's default is the state's.
TEST(ParameterTableTest, StateDefaultsAgree) {
    const state::AppState defaults;
    for (const ParameterUse& use : state::viewParameters()) {
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
    for (const ParameterUse& use : state::viewParameters()) {
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
            EXPECT_EQ(use.value(read.state), use.value(state::AppState{}));  // kept
        }
    }
    EXPECT_GE(exact, 30);
}

// Every entry with a session field: the state's default reads back, and the field is the one the
// pointer names (a slider limit the session accepts lands in the field; Within and Bounded
// entries may refuse one, whose other settings then conflict, as a whole view).
TEST(ParameterTableTest, SessionFieldsAreTheSlidersFields) {
    const state::AppState defaults;
    for (const ParameterUse& use : state::viewParameters()) {
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

// ---- The command line: the same descriptors as options of `poslab render`
// The render view that reads a slider's option, by the longest prefix of its session pointer.
std::string renderViewOf(std::string_view session) {
    static const std::pair<std::string_view, std::string_view> views[] = {
        {"/sinusoidal/", "sinusoidal"},
        {"/sinusoidal/curve", "sinusoidal-curves"},
        {"/sinusoidal/firstCurve", "sinusoidal-curves"},
        {"/rope/params/", "rope-frequencies"},
        {"/rope/decayDistance", "rope-decay"},
        {"/rope/precisionPositions", "rope-precision"},
        {"/rope/scalings/", "rope-scalings"},
        {"/rope/m", "rope-rotation"},
        {"/rope/n", "rope-rotation"},
        {"/rope/panels", "rope-rotation"},
        {"/rope/trail", "rope-rotation"},
        {"/rope/firstPair", "rope-rotation"},
        {"/visionRope/axial", "axial-rope"},
        {"/visionRope/mrope", "mrope"},
        {"/t5/", "t5"},
        {"/learned/", "learned"},
        {"/learned/structure", "learned-pca"},
        {"/similarity/", "similarity"},
        {"/meaning/params/", "meaning"},
        {"/meaning/orthogonality", "near-orthogonality"},
        {"/intuition/attention/", "attention-shuffle"},
        {"/intuition/clock/", "binary-clock"},
        {"/intuition/frequencies/", "frequency-resolution"},
        {"/intuition/shift/", "linear-shift"},
        {"/extrapolation/", "extrapolation"},
        {"/compare/", "compare"},
        {"/alibi/", "alibi"},
        {"/contextual/cope", "cope"},
        {"/contextual/deberta", "deberta"},
        {"/contextual/nope", "nope"},
        {"/contextual/randomized", "randomized-positions"},
        {"/relative/", "relative-family"},
        {"/relative/xpos", "xpos"},
        {"/relative/kerple", "kerple"},
        {"/relative/sandwich", "sandwich"},
        {"/relative/fire", "fire"},
    };
    std::string_view best, view;
    for (const auto& [prefix, name] : views) {
        if (session.substr(0, prefix.size()) == prefix && prefix.size() > best.size()) {
            best = prefix;
            view = name;
        }
    }
    return std::string(view);
}

std::string optionText(const Limits& l, double v) {
    if (l.integer) return std::to_string(static_cast<long long>(v));
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", v);
    std::string plain = text;  // the option syntax takes "1e20", not "1e+20"
    if (const auto plus = plain.find("e+"); plus != std::string::npos) plain.erase(plus + 1, 1);
    return plain;
}

// Options a slider's option needs beside it on the command line (the GUI shows the slider only
// in that setting): the encoding a Similarity slider belongs to, a scaling for --factor.
std::vector<std::string> contextOf(std::string_view session) {
    std::vector<std::string> words;
    for (const char* encoding : {"learned", "rope"}) {
        if (session.find("/similarity/params/" + std::string(encoding)) == 0)
            words.insert(words.end(), {"--encoding", encoding});
    }
    if (session.find("/scaling/factor") != std::string_view::npos)
        words.insert(words.end(), {"--scaling", "linear"});
    // Fewest pairs sampled: d_model 8192 with the default 2000 would take a second and a half.
    if (session.find("/meaning/orthogonalityDModel") == 0)
        words.insert(words.end(), {"--samples", "100"});
    return words;
}

// Rows whose render option deliberately or not yet differs from the slider (the session agrees
// with the slider): skipped here as Bounded rows are, and listed so that every other row is still
// checked; a row that agrees again fails the count below (remove it here).
const std::map<std::string_view, std::string_view> kOptionDisagreements = {
    {"/sinusoidal/trainingLength", "--training-length 0 means none on the command line"},
    {"/sinusoidal/curvePositions", "--positions takes 1..1048576 (the slider 2..65536)"},
    {"/relative/seqLen", "--seq-len reaches core's 1048576 (the slider 2..65536)"},
    {"/learned/positionsShown", "--positions is bounded by --seq-len only"},
    {"/similarity/reference", "--reference stops at 255 (the slider at 65535)"},
    {"/similarity/maxOffset", "--max-offset is bounded by --seq-len only"},
    {"/similarity/trainingLength", "--training-length 0 means none; no top but --seq-len"},
    {"/similarity/params/sinusoidal/dModel", "the slider reaches 1, which cosine refuses"},
    {"/rope/decayDistance", "--max-distance takes 0"},
    {"/rope/scalings/factor", "--factor is core's (any factor >= 1)"},
    {"/intuition/shift/shift", "--shift has no limit of its own"},
    {"/intuition/shift/position", "--position is bounded by --positions only"},
    {"/intuition/shift/positions", "--positions reaches core's limit"},
    {"/intuition/shift/sinusoidal/dModel", "--d-model reaches core's 8192 (the slider 512)"},
    {"/intuition/shift/shownDims", "--dims stops at 16 (the slider at 64)"},
    {"/meaning/orthogonalitySamples", "--samples has its own range"},
};

// What `poslab render VIEW --option value` says (small figure): "" when it draws.
std::string renderRefusal(const commands::RenderView& view, const std::string& option,
                          const std::string& value, std::vector<std::string> words = {}) {
    if (!option.empty()) words.insert(words.end(), {"--" + option, value});
    auto args = commands::parseArguments(words, view.options, "poslab render " + view.name);
    if (!args) return args.error().message;
    commands::RenderSettings settings;
    settings.width = 160, settings.height = 120;
    auto figure = view.build(*args, settings);
    return figure ? "" : figure.error().message;
}

// Every slider whose option a render view of its section also takes: the option accepts the
// slider's limits, and an Exact one (the session checks the same range) refuses one step past
// either, as the session does. Views that need other options to draw at all are skipped; an
// option whose range another option bounds is a Bounded row, as for the session.
TEST(ParameterTableTest, RenderOptionsAcceptTheSliderRange) {
    const commands::CommandRegistry registry = commands::buildRegistry();
    int checked = 0, disagreements = 0;
    std::map<std::string, bool> drawsAlone;
    for (const ParameterUse& use : state::viewParameters()) {
        if (use.session.empty() || use.agreement == SessionAgreement::SliderOnly) continue;
        const std::string name = renderViewOf(use.session);
        if (name.empty()) continue;  // the GUI's only (RoPE's animation speed)
        const auto view =
            std::find_if(registry.renders.begin(), registry.renders.end(),
                         [&](const commands::RenderView& v) { return v.name == name; });
        ASSERT_NE(view, registry.renders.end()) << use.session;
        const Limits l = limitsOf(use);
        const std::string option =
            std::visit([](const auto* p) { return std::string(p->option); }, use.parameter);
        const bool takes =
            std::any_of(view->options.begin(), view->options.end(),
                        [&](const commands::OptionSpec& o) { return o.name == option; });
        const std::vector<std::string> context = contextOf(use.session);
        if (!takes) continue;
        std::string setting = view->name;  // the view with the context alone must draw
        for (const std::string& word : context) setting += " " + word;
        if (!drawsAlone.count(setting))
            drawsAlone[setting] = renderRefusal(*view, "", "", context).empty();
        if (!drawsAlone[setting]) continue;
        SCOPED_TRACE(describe(use) + " as render " + view->name + " --" + option);
        ++checked;
        if (use.agreement == SessionAgreement::Bounded) continue;
        if (kOptionDisagreements.count(use.session)) {
            ++disagreements;
            continue;
        }
        for (double v : {l.low, l.high}) {
            EXPECT_EQ(renderRefusal(*view, option, optionText(l, v), context), "") << v;
        }
        if (use.agreement != SessionAgreement::Exact) continue;
        const double step = l.integer ? 1 : std::max(1e-3, (l.high - l.low) * 1e-3);
        for (double v : {l.low - step, l.high + step}) {
            EXPECT_NE(renderRefusal(*view, option, optionText(l, v), context), "") << v;
        }
    }
    EXPECT_GE(checked, 40);
    EXPECT_EQ(disagreements, int(kOptionDisagreements.size()));  // none stale
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
        // A match begins with "ImGui::" or "slider": the pattern is tried there alone (anchored,
        // the character before still seen by \b), not at every character of every source, which
        // cost 2.5 s of CPU under ASan+UBSan (the tests' code is -O0 there).
        std::vector<std::size_t> starts;
        for (const char* token : {"ImGui::", "slider"}) {
            for (std::size_t at = text.find(token); at != std::string::npos;
                 at = text.find(token, at + 1))
                starts.push_back(at);
        }
        for (const std::size_t at : starts) {
            std::smatch match;
            const auto flags = std::regex_constants::match_continuous |
                               (at > 0 ? std::regex_constants::match_prev_avail
                                       : std::regex_constants::match_default);
            if (!std::regex_search(text.begin() + std::ptrdiff_t(at), text.end(), match, literal,
                                   flags))
                continue;
            ADD_FAILURE() << entry.path().string() << ": " << match.str();
            ++found;
        }
    }
    EXPECT_EQ(found, 0);
}

// Every descriptor state/ranges.hpp declares is a slider's (in the table) or one of the figure
// file's, which RangeTableTest.FigureSizeEntriesDriveRenderSettings checks against the options.
TEST(ParameterTableTest, EveryRangesEntryIsInTheTable) {
    std::set<std::string> listed;
    for (const ParameterUse& use : state::viewParameters()) listed.insert(limitsOf(use).key);
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
