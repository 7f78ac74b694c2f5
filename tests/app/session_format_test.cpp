// Reading saved sessions (ui/session_format.hpp), called directly: the inputs the session fuzzer
// (tests/fuzz/session_fuzz.cpp) probes, each written out with the behaviour a user must see.
// Each test failed before its fix.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

#include "state/contextual_state.hpp"
#include "state/relative_state.hpp"
#include "state/session_format.hpp"

namespace poslab::test {
namespace {

using state::AppState;
using state::SessionLayout;
using state::Warnings;

struct Read {
    Status status = success();
    AppState state;
    SessionLayout layout;
    Warnings warnings;
};

Read readSession(const std::string& text) {
    Read read;
    read.status = state::readSessionText(text, read.state, read.layout, read.warnings);
    return read;
}

bool warned(const Warnings& warnings, const std::string& fragment) {
    return std::any_of(warnings.begin(), warnings.end(),
                       [&](const std::string& w) { return w.find(fragment) != std::string::npos; });
}

// JSON integers beyond the field's type used to be cast and wrap around: 2^32 + 64 became a
// d_model of 64 and a seed of -1 became 2^64 - 1, both accepted without a word.
TEST(SessionFormatTest, IntegersBeyondTheFieldAreReportedNotWrapped) {
    const Read read = readSession(R"({"format": "poslab-session",
        "window": {"width": 4294968736},
        "sinusoidal": {"params": {"dModel": 4294967360}},
        "meaning": {"params": {"seed": -1}},
        "rope": {"angleWindow": [18446744073709551615, 10, 0, 10]}})");
    ASSERT_TRUE(read.status.ok()) << read.status.error().message;
    EXPECT_TRUE(warned(read.warnings, "session.window.width: ")) << read.warnings.size();
    EXPECT_TRUE(warned(read.warnings, "sinusoidal.params.dModel: "));
    EXPECT_TRUE(warned(read.warnings, "meaning.params.seed: "));
    EXPECT_TRUE(warned(read.warnings, "rope.angleWindow: "));
    const AppState defaults;
    EXPECT_EQ(read.layout.windowWidth, 0);  // unknown: the window stays as it is
    EXPECT_EQ(read.state.sinusoidal.params.dModel, defaults.sinusoidal.params.dModel);
    EXPECT_EQ(read.state.meaning.params.seed, defaults.meaning.params.seed);
    EXPECT_EQ(read.state.rope.angleWindow.firstRow, 0);
}

// The largest values each type holds are still read exactly.
TEST(SessionFormatTest, IntegersAtTheLimitsOfTheirTypeAreRead) {
    const Read read = readSession(R"({"format": "poslab-session",
        "meaning": {"params": {"seed": 18446744073709551615}},
        "rope": {"querySeed": -2147483648, "keySeed": 2147483647}})");
    ASSERT_TRUE(read.status.ok());
    EXPECT_TRUE(read.warnings.empty()) << read.warnings.front();
    EXPECT_EQ(read.state.meaning.params.seed, 18446744073709551615ull);
    EXPECT_EQ(read.state.rope.querySeed, -2147483647 - 1);
    EXPECT_EQ(read.state.rope.keySeed, 2147483647);
}

// A version too large for an int wrapped to -1 and passed for an old file.
// The sinusoidal view computes only its visible window, so a session may hold a table far
// larger than memory (2^20 x 4096 is 32 GiB as doubles); it used to be refused by the
// whole-table memory cap and the GUI slider's old 65536 limit.
TEST(SessionFormatTest, AMillionPositionSinusoidalViewIsRead) {
    const Read read = readSession(R"({"format": "poslab-session",
        "sinusoidal": {"params": {"dModel": 4096, "seqLen": 1048576}, "trainingLength": 1000000}})");
    ASSERT_TRUE(read.status.ok()) << read.status.error().message;
    EXPECT_TRUE(read.warnings.empty()) << read.warnings.front();
    EXPECT_EQ(read.state.sinusoidal.params.seqLen, 1048576);
    EXPECT_EQ(read.state.sinusoidal.params.dModel, 4096);
    EXPECT_EQ(read.state.sinusoidal.trainingLength, 1000000);

    const Read beyond = readSession(R"({"format": "poslab-session",
        "sinusoidal": {"params": {"dModel": 4096, "seqLen": 1048577}}})");
    ASSERT_TRUE(beyond.status.ok());
    EXPECT_TRUE(warned(beyond.warnings, "seq_len must be 1..1048576"));
    EXPECT_EQ(beyond.state.sinusoidal.params.seqLen, AppState().sinusoidal.params.seqLen);
}

// A sentence saved half typed (its reordering no longer fits) reads back as typed: the figure
// says what is wrong. A value no figure can take (an odd width) is refused with a warning.
TEST(SessionFormatTest, AHalfTypedSentenceIsReadBackAsTyped) {
    const Read read = readSession(R"({"format": "poslab-session",
        "intuition": {"figure": "attention-shuffle",
                      "attention": {"sentence": "The dog", "shuffled": "The mouse chased the cat",
                                    "position": "rope"},
                      "shift": {"sinOnly": true}, "frequencies": {"sharedPair": 3}}})");
    ASSERT_TRUE(read.status.ok());
    EXPECT_TRUE(read.warnings.empty()) << read.warnings.front();
    EXPECT_EQ(read.state.intuition.figure, state::IntuitionFigure::AttentionShuffle);
    EXPECT_EQ(read.state.intuition.attention.sentence, "The dog");
    EXPECT_EQ(read.state.intuition.attention.position, ToyPosition::Rope);
    EXPECT_TRUE(read.state.intuition.shift.sinOnly);
    EXPECT_EQ(read.state.intuition.frequencies.sharedPair, 3);

    const Read odd = readSession(R"({"format": "poslab-session",
        "intuition": {"attention": {"dModel": 7}}})");
    ASSERT_TRUE(odd.status.ok());
    EXPECT_TRUE(warned(odd.warnings, "d_model must be even, 2..64 (got 7)"));
    EXPECT_EQ(odd.state.intuition.attention.dModel, 16);
}

// The Structure tab's camera: a pitch past straight down is refused with its range; the view
// keeps its defaults.
TEST(SessionFormatTest, TrajectoryAnglesAreCheckedOnReading) {
    const Read good = readSession(R"({"format": "poslab-session", "learned":
        {"structureTrajectory": "2d", "structureYaw": -180, "structurePitch": 90}})");
    ASSERT_TRUE(good.status.ok());
    EXPECT_TRUE(good.warnings.empty()) << good.warnings.front();
    EXPECT_EQ(good.state.learned.structureTrajectory, TrajectoryStyle::Flat);
    EXPECT_EQ(good.state.learned.structurePitch, 90);
    const Read bad = readSession(R"({"format": "poslab-session", "learned":
        {"structureYaw": 10, "structurePitch": 91}})");
    ASSERT_TRUE(bad.status.ok());
    EXPECT_TRUE(warned(bad.warnings, "structurePitch must be -90..90")) << bad.warnings.front();
    EXPECT_EQ(bad.state.learned.structurePitch, AppState().learned.structurePitch);
    const Read style = readSession(R"({"format": "poslab-session", "learned":
        {"structureTrajectory": "4d"}})");
    EXPECT_TRUE(warned(style.warnings, "trajectory must be 2d or 3d (got '4d')"));
}

TEST(SessionFormatTest, AHugeVersionIsANewerFile) {
    const Read read =
        readSession(R"({"format": "poslab-session", "version": 18446744073709551615})");
    ASSERT_TRUE(read.status.ok());
    EXPECT_TRUE(warned(read.warnings, "written by a newer PosLab"));
}

// Warnings are printed one per line on stderr: a name with a newline in it (found by the fuzzer)
// used to split its warning over two lines.
TEST(SessionFormatTest, WarningsAboutNamesStayOnOneLine) {
    const Read read = readSession(
        R"({"format": "poslab-session", "theme": "dark\nmode", "alibi": {"colormap": "a\u001bb"}})");
    ASSERT_TRUE(read.status.ok());
    ASSERT_EQ(read.warnings.size(), 3u);  // theme, alibi.colormap, alibi kept its settings
    for (const std::string& w : read.warnings) {
        EXPECT_EQ(w.find_first_of("\n\r\x1b"), std::string::npos) << w;
    }
    EXPECT_TRUE(warned(read.warnings, "session.theme: "));
    EXPECT_TRUE(warned(read.warnings, R"("dark\nmode")"));
    EXPECT_EQ(read.state.theme, AppState{}.theme);
}

// Every field a session holds, set away from its default by hand (values the validators accept).
AppState everyFieldChanged() {
    AppState s;
    s.theme = ThemeId::Paper;
    s.showControls = false;
    s.uiZoom = 1.75f;
    s.linkBase = "https://example.org/poslab/";
    auto& sin = s.sinusoidal;
    sin.params = {64, 300, 500, SinusoidalLayout::Concat};
    sin.colormap = ColormapId::Viridis;
    sin.window = {1, 2, 3, 4};
    sin.markTrainingLength = true;
    sin.trainingLength = 200;
    sin.firstCurveDimension = 2;
    sin.curveCount = 3;
    sin.curvePositions = 50;
    auto& rope = s.rope;
    rope.params.headDim = 32;
    rope.params.base = 20000;
    rope.params.rotaryFraction = 0.5;
    rope.params.pairing = RopePairing::Interleaved;
    rope.params.seqLen = 2048;
    rope.params.trainingLength = 1024;
    rope.params.scaling = {RopeScaling::Yarn, 4,          512, 2, 8, 16, 2, 1.1, 0.9, 0.8, false,
                           {1.5, 2.5},        {3.5, 4.5}, 0.5};
    rope.figure = state::RopeFigureId::Scores;
    rope.vectors = state::RopeVectorSource::Custom;
    rope.querySeed = 5;
    rope.keySeed = 6;
    rope.keyEqualsQuery = true;
    rope.customQuery = "1,2";
    rope.customKey = "3,4";
    rope.m = 10;
    rope.n = 3;
    rope.playing = true;  // a lesson starts the animation
    rope.speed = 5;
    rope.playMovesBoth = false;
    rope.scrubTogether = false;
    rope.panels = 8;
    rope.spreadPairs = false;
    rope.firstPair = 2;
    rope.trail = 4;
    rope.angleWindow = {5, 6, 7, 8};
    rope.scoreWindow = {9, 10, 11, 12};
    rope.scoreColormap = ColormapId::Magma;
    rope.incompleteWithin = RopeTurnReference::Training;
    rope.decayDistance = 100;
    rope.decayLogAxis = true;
    rope.scalings = {16, 100000, RopeScalingsAxis::Wavelength};
    rope.precisionPositions = 4096;
    rope.configPath = "/x/config.json";
    s.plugins.get<state::AlibiViewState>(state::kAlibiKey) = {
        12, 64, true, 3, 10, 5, true, 7, 2.5, ColormapId::Magma};
    auto& ctx =
        s.plugins.get<state::ContextualViewState>(state::kContextualKey);  // the Context view
    ctx.tab = state::ContextualTab::Nope;
    ctx.cope = {"A b. C d!", CopeGateSource::Sentences, 8, 3, 4, 12, false};
    ctx.deberta = {1024, 128, 300, 32, false, false, 5};
    ctx.nope.sections = NopeSections::Irope;
    ctx.nope.irope.numLayers = 24;
    ctx.nope.irope.noRopeLayerInterval = 3;
    ctx.nope.irope.attentionChunkSize = 2048;
    ctx.nope.seqLen = 9000;
    ctx.nope.maskLayer = 2;
    ctx.nope.temperature = {4096, 0.2};
    ctx.randomized = {20, 500, 7, 9};
    s.t5 = {100, 16, 64, false, 3, std::vector<double>(16, 0.25)};
    auto& learned = s.learned;
    learned.seqLen = 256;
    learned.dModel = 32;
    learned.seed = 4;
    learned.std = 0.05;
    learned.npyPath = "/x/wpe.npy";
    learned.positionsShown = 300;
    learned.firstCurveDimension = 1;
    learned.curveCount = 2;
    learned.colormap = ColormapId::Viridis;
    learned.tensor = "model.decoder.embed_positions.weight";
    learned.tab = state::LearnedTab::Structure;
    learned.structureSource = state::StructureSource::Sinusoidal;
    learned.structureComponents = 20;
    learned.structureTrajectory = TrajectoryStyle::Flat;
    learned.structureYaw = -75;
    learned.structurePitch = 45;
    learned.autoRotate = true;
    auto& sim = s.similarity;
    sim.params.encoding = SimilarityEncoding::Rope;
    sim.params.metric = SimilarityMetric::Dot;
    sim.params.seqLen = 256;
    sim.params.sinusoidal = {32, 100, 1000, SinusoidalLayout::Tensor2Tensor};
    sim.params.learned = {LearnedParams{}.seqLen, 16, 9, 0.1};  // its rows are sim.params.seqLen
    sim.params.rope = rope.params;
    sim.params.ropeVectors = RopeVectors::SameSample;
    sim.params.ropeSeed = 11;
    sim.learnedTablePath = "/x/table.npy";
    sim.colormap = ColormapId::Cividis;
    sim.window = {2, 3, 4, 5};
    sim.reference = 3;
    sim.maxOffset = 100;
    sim.markTrainingLength = true;
    sim.trainingLength = 128;
    auto& meaning = s.meaning;
    meaning.params.dModel = 32;
    meaning.params.seqLen = 16;
    meaning.params.positions = PositionTableKind::Learned;
    meaning.params.base = 5000;
    meaning.params.vocabulary = 100;
    meaning.params.contentScale = 2;
    meaning.params.positionScale = 0.5;
    meaning.params.seed = 3;
    meaning.tokensPath = "/x/tokens.npy";
    meaning.figure = state::MeaningFigure::AddVersusConcat;
    meaning.orthogonalityDModel = 128;
    meaning.orthogonalitySamples = 5000;
    auto& intuition = s.intuition;
    intuition.figure = state::IntuitionFigure::LinearShift;
    intuition.clock = {6, 100, {32, 100, 500, SinusoidalLayout::Concat}};
    intuition.shift = {{8, 128, 700, SinusoidalLayout::Tensor2Tensor}, 3, 11, 40, 8, true};
    intuition.attention = {"dog bites man", "man bites dog", 9, ToyPosition::Alibi, 8, 4, 500};
    intuition.frequencies = {32, 700, 1000, 5};
    s.extrapolation.options = {
        256, 1024, 32, 32, 5000, 4, 16, 64, ExtrapolationSet::RelativeFamily};
    auto& compare = s.compare;
    compare.mode = state::CompareMode::RopeAB;
    compare.options = {32, 64, 5000, 4, 16, 64, 2, CompareBias::Fire, CompareBias::Deberta};
    compare.a = {true, "/x/a.json", 20000};
    compare.b = {true, "/x/b.json", 40000};
    compare.headDim = 64;
    compare.trainingLength = 2048;
    compare.maxOffset = 4096;
    auto& vision = s.visionRope;
    vision.figure = state::VisionRopeFigureId::Axial;
    vision.prompt = "text:3,image:1x4x6,text:2";
    vision.mrope = {MropeModel::Qwen25VL, MropeLayout::Interleaved, {18, 15, 15}, 96, 500000, 1, 4};
    vision.axial = {AxialRopeLayout::Pixtral, 32, 1000, 8, 12, 3, 4, AxialVectors::Random, 9};
    vision.configPath = "/x/qwen-vl.json";
    auto& relative = s.plugins.get<state::RelativeViewState>(state::kRelativeKey);  // every key
    relative.tab = RelativeTab::Fire;
    auto& ro = relative.options;
    ro.seqLen = 4096;
    ro.trainingLength = 1024;
    ro.logDistance = true;
    ro.biasFloor = -50;
    ro.xpos = {128, 0.5, 1024, 500000};
    ro.kerplePower = {KerpleKernel::Power, 0.25, 1.5};
    ro.kerpleLog = {KerpleKernel::Logarithmic, 2, 0.5};
    ro.sandwich = {64, 12, 3};
    ro.fire = {0.2, 256, 1e-6, 16, 4, 2, 7};
    ro.alibiHeads = 16;
    ro.alibiHead = 3;
    ro.t5Seed = 5;
    return s;
}

// Paths to the leaves of `a` whose value is the same in `b` (arrays count as one leaf).
void sameLeaves(const nlohmann::json& a, const nlohmann::json& b, const std::string& path,
                std::vector<std::string>& same) {
    if (a.is_object() && b.is_object()) {
        for (auto it = a.begin(); it != a.end(); ++it) {
            if (b.contains(it.key())) sameLeaves(*it, b[it.key()], path + "." + it.key(), same);
        }
    } else if (a == b) {
        same.push_back(path);
    }
}

// The state structs compare member-wise (defaulted ==, which the panel caches key on): the
// state read back from a session equals the one written, and a change in any view is seen.
TEST(SessionFormatTest, StateReadBackEqualsTheStateWritten) {
    const AppState changed = everyFieldChanged();
    Read read = readSession(state::sessionToJson(changed, SessionLayout{}).dump());
    ASSERT_TRUE(read.status.ok());
    EXPECT_TRUE(read.state == changed);
    EXPECT_TRUE(read.state.sinusoidal == changed.sinusoidal);
    EXPECT_TRUE(read.state.rope == changed.rope);
    EXPECT_TRUE(read.state.plugins.get<state::AlibiViewState>(state::kAlibiKey) ==
                changed.plugins.get<state::AlibiViewState>(state::kAlibiKey));
    EXPECT_TRUE(read.state.t5 == changed.t5);
    EXPECT_TRUE(read.state.learned == changed.learned);
    EXPECT_TRUE(read.state.similarity == changed.similarity);
    EXPECT_TRUE(read.state.meaning == changed.meaning);
    EXPECT_TRUE(read.state.intuition == changed.intuition);
    EXPECT_TRUE(read.state.extrapolation == changed.extrapolation);
    EXPECT_TRUE(read.state.compare == changed.compare);
    EXPECT_TRUE(read.state.visionRope == changed.visionRope);
    EXPECT_TRUE(read.state.plugins.get<state::RelativeViewState>(state::kRelativeKey) ==
                changed.plugins.get<state::RelativeViewState>(state::kRelativeKey));
    EXPECT_TRUE(read.state.tour == changed.tour);
    const AppState original;
    EXPECT_FALSE(changed == original);
    EXPECT_FALSE(changed.sinusoidal == original.sinusoidal);
    EXPECT_FALSE(changed.rope == original.rope);
    EXPECT_FALSE(changed.plugins.get<state::AlibiViewState>(state::kAlibiKey) ==
                 original.plugins.get<state::AlibiViewState>(state::kAlibiKey));
    EXPECT_FALSE(changed.t5 == original.t5);
    EXPECT_FALSE(changed.learned == original.learned);
    EXPECT_FALSE(changed.similarity == original.similarity);
    EXPECT_FALSE(changed.meaning == original.meaning);
    EXPECT_FALSE(changed.intuition == original.intuition);
    EXPECT_FALSE(changed.extrapolation == original.extrapolation);
    EXPECT_FALSE(changed.compare == original.compare);
    EXPECT_FALSE(changed.visionRope == original.visionRope);
}

// A session written and read back restores every field: the state read back writes the same
// document, and that document differs from the default one in every value (so no field is left
// out of the writer, and none the writer has is skipped by the reader).
TEST(SessionFormatTest, EveryFieldRoundTrips) {
    const AppState changed = everyFieldChanged();
    const SessionLayout layout{"RoPE", 10, 20, 800, 600, true};
    const nlohmann::json written = state::sessionToJson(changed, layout);

    std::vector<std::string> unchanged;
    sameLeaves(written, state::sessionToJson(AppState{}, SessionLayout{}), "", unchanged);
    const std::vector<std::string> headers = {".format", ".version"};
    for (const std::string& h : headers) std::erase(unchanged, h);
    EXPECT_TRUE(unchanged.empty()) << "fields left at their default: " << unchanged.front();

    Read read = readSession(written.dump());
    ASSERT_TRUE(read.status.ok()) << read.status.error().message;
    EXPECT_TRUE(read.warnings.empty()) << read.warnings.front();
    EXPECT_EQ(state::sessionToJson(read.state, read.layout), written);
    // A few fields checked directly against the values set above.
    EXPECT_EQ(read.state.rope.figure, state::RopeFigureId::Scores);
    EXPECT_EQ(read.state.rope.vectors, state::RopeVectorSource::Custom);
    EXPECT_EQ(read.state.rope.params.scaling.type, RopeScaling::Yarn);
    EXPECT_EQ(read.state.meaning.figure, state::MeaningFigure::AddVersusConcat);
    EXPECT_EQ(read.state.compare.mode, state::CompareMode::RopeAB);
    EXPECT_EQ(read.state.t5.bucketBiases, std::vector<double>(16, 0.25));
    EXPECT_EQ(read.state.learned.tensor, "model.decoder.embed_positions.weight");
    EXPECT_EQ(read.state.learned.tab, state::LearnedTab::Structure);
    EXPECT_EQ(read.state.learned.structureSource, state::StructureSource::Sinusoidal);
    EXPECT_EQ(read.state.learned.structureComponents, 20);
    EXPECT_EQ(read.state.learned.structureTrajectory, TrajectoryStyle::Flat);
    EXPECT_EQ(read.state.learned.structureYaw, -75);
    EXPECT_EQ(read.state.learned.structurePitch, 45);
    EXPECT_EQ(read.layout.view, "RoPE");
    EXPECT_TRUE(read.layout.fullScreen);
}

// The names in the files, as the README and the lessons spell them.
// A Phi-3.5 config's LongRoPE (with its lists) and a p-RoPE proportion come back from a saved
// session; before, "longrope" was written but refused on reading.
TEST(SessionFormatTest, LongRopeScalingAndItsListsRoundTrip) {
    AppState state;
    RopeParams& p = state.rope.params;
    p.headDim = 8;
    p.scaling.type = RopeScaling::LongRope;
    p.scaling.factor = 32;
    p.scaling.originalMaxPositions = 4096;
    p.scaling.shortFactor = {1.0, 1.25, 1.5, 2.0};
    p.scaling.longFactor = {1.5, 3.0, 6.0, 12.0};
    ASSERT_TRUE(validate(p).ok()) << validate(p).error().message;
    const nlohmann::json written = state::sessionToJson(state, SessionLayout{});
    EXPECT_EQ(written["rope"]["params"]["scaling"]["type"], "longrope");
    AppState read;
    SessionLayout layout;
    state::Warnings warnings;
    ASSERT_TRUE(state::applySessionJson(written, read, layout, warnings).ok());
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    EXPECT_EQ(read.rope.params.scaling.type, RopeScaling::LongRope);
    EXPECT_EQ(read.rope.params.scaling.shortFactor, p.scaling.shortFactor);
    EXPECT_EQ(read.rope.params.scaling.longFactor, p.scaling.longFactor);
    EXPECT_EQ(read.rope.params.scaling.originalMaxPositions, 4096);
}

TEST(SessionFormatTest, AppEnumsAreWrittenByName) {
    AppState state = everyFieldChanged();
    const nlohmann::json written = state::sessionToJson(state, SessionLayout{});
    EXPECT_EQ(written["meaning"]["figure"], "add-vs-concat");
    EXPECT_EQ(written["intuition"]["figure"], "linear-shift");
    EXPECT_EQ(written["compare"]["mode"], "rope-ab");
    state.meaning.figure = state::MeaningFigure::Orthogonality;
    EXPECT_EQ(state::sessionToJson(state, SessionLayout{})["meaning"]["figure"],
              "near-orthogonality");
}

// An unknown name is one warning line naming the key and every valid name; the view keeps its
// settings.
TEST(SessionFormatTest, AnUnknownEnumNameIsOneLineNamingTheChoices) {
    const Read read = readSession(R"({"format": "poslab-session", "meaning": {"figure": "sum"},
                                      "compare": {"mode": "ab"}})");
    ASSERT_TRUE(read.status.ok());
    EXPECT_TRUE(warned(read.warnings,
                       "meaning.figure: figure must be terms, near-orthogonality "
                       "or add-vs-concat (got 'sum')"));
    EXPECT_TRUE(warned(read.warnings, "compare.mode: mode must be all or rope-ab (got 'ab')"));
    EXPECT_EQ(read.state.meaning.figure, state::MeaningFigure::Terms);
    for (const std::string& w : read.warnings) EXPECT_EQ(w.find('\n'), std::string::npos) << w;
}

// A file that never ends (a device, a pipe left open) is refused at once, through InputFile,
// instead of being read until memory runs out (or, for a FIFO, forever).
TEST(SessionFormatTest, AnEndlessFileIsRefused) {
    AppState state;
    SessionLayout layout;
    Warnings warnings;
    const Status status = state::loadSessionFile("/dev/zero", state, layout, warnings);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().message, "/dev/zero: not a regular file (a character device)");
}

TEST(SessionFormatTest, AFailedSaveNamesTheFileAndTheReason) {
    struct stat full {};
    if (::stat("/dev/full", &full) != 0 || !S_ISCHR(full.st_mode)) GTEST_SKIP() << "no /dev/full";
    const Status status =
        state::saveSessionFile("/dev/full", state::AppState{}, state::SessionLayout{});
    ASSERT_FALSE(status.ok());
    // Before: the save "succeeded" by renaming its temporary over the device node.
    EXPECT_EQ(status.error().message, "cannot write '/dev/full': No space left on device");
    struct stat after {};
    ASSERT_EQ(::stat("/dev/full", &after), 0);
    EXPECT_TRUE(S_ISCHR(after.st_mode));  // written in place, not replaced
}

}  // namespace
}  // namespace poslab::test
