// Every parameter and options struct compares member-wise with a defaulted ==: the GUI's caches
// key on these structs, so a field added later is part of every key without anyone remembering
// to add it (hand-written equalities used to miss new fields).
#include <gtest/gtest.h>

#include <concepts>

#include "poslab/analysis/frequency_resolution.hpp"
#include "poslab/analysis/meaning.hpp"
#include "poslab/analysis/similarity.hpp"
#include "poslab/analysis/table_structure.hpp"
#include "poslab/analysis/toy_attention.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/encodings/alibi.hpp"
#include "poslab/encodings/axial_rope.hpp"
#include "poslab/encodings/learned.hpp"
#include "poslab/encodings/multimodal_rope.hpp"
#include "poslab/encodings/rope.hpp"
#include "poslab/encodings/rope_scaling.hpp"
#include "poslab/encodings/sinusoidal.hpp"
#include "poslab/encodings/t5_bias.hpp"
#include "poslab/io/hf_config.hpp"
#include "poslab/views/alibi_figures.hpp"
#include "poslab/views/compare_ab_figures.hpp"
#include "poslab/views/compare_figures.hpp"
#include "poslab/views/extrapolation_figures.hpp"
#include "poslab/views/intuition_figures.hpp"
#include "poslab/views/learned_figures.hpp"
#include "poslab/views/learned_structure_figures.hpp"
#include "poslab/views/rope_figures.hpp"
#include "poslab/views/rope_scalings_figures.hpp"
#include "poslab/views/similarity_figures.hpp"
#include "poslab/views/sinusoidal_figures.hpp"
#include "poslab/views/t5_figures.hpp"
#include "poslab/views/trajectory_3d.hpp"

namespace poslab {
namespace {

// A defaulted == that cannot be generated (a member without ==) is deleted, not an error:
// these fail to compile instead.
static_assert(std::equality_comparable<CellWindow>);
static_assert(std::equality_comparable<SinusoidalParams>);
static_assert(std::equality_comparable<RopeScalingParams>);
static_assert(std::equality_comparable<RopeParams>);
static_assert(std::equality_comparable<MropeSettings>);
static_assert(std::equality_comparable<PromptSegment>);
static_assert(std::equality_comparable<AxialRopeParams>);
static_assert(std::equality_comparable<LearnedParams>);
static_assert(std::equality_comparable<AlibiParams>);
static_assert(std::equality_comparable<T5Params>);
static_assert(std::equality_comparable<SimilarityParams>);
static_assert(std::equality_comparable<MeaningParams>);
static_assert(std::equality_comparable<StructureOptions>);
static_assert(std::equality_comparable<SinusoidalHeatmapOptions>);
static_assert(std::equality_comparable<SinusoidalCurveOptions>);
static_assert(std::equality_comparable<RopeRotationOptions>);
static_assert(std::equality_comparable<RopeAngleOptions>);
static_assert(std::equality_comparable<RopeScoreOptions>);
static_assert(std::equality_comparable<RopeFrequencyOptions>);
static_assert(std::equality_comparable<RopeScalingsOptions>);
static_assert(std::equality_comparable<AlibiFigureOptions>);
static_assert(std::equality_comparable<T5FigureOptions>);
static_assert(std::equality_comparable<LearnedFigureOptions>);
static_assert(std::equality_comparable<LearnedStructureOptions>);
static_assert(std::equality_comparable<ViewAngles>);
static_assert(std::equality_comparable<Trajectory3dOptions>);
static_assert(std::equality_comparable<SimilarityFigureOptions>);
static_assert(std::equality_comparable<BinaryClockOptions>);
static_assert(std::equality_comparable<LinearShiftOptions>);
static_assert(std::equality_comparable<ToyAttentionParams>);
static_assert(std::equality_comparable<FrequencyResolutionParams>);
static_assert(std::equality_comparable<ExtrapolationOptions>);
static_assert(std::equality_comparable<CompareOptions>);
static_assert(std::equality_comparable<RopeConfiguration>);
static_assert(std::equality_comparable<HfModelConfig>);

TEST(ParametersTest, NestedFieldsArePartOfEquality) {
    RopeParams a;
    RopeParams b = a;
    EXPECT_TRUE(a == b);
    b.scaling.shortFactor = {1.0, 2.0};  // a LongRoPE list, two levels down
    EXPECT_FALSE(a == b);
    b = a;
    b.scaling.mscale = 0.707;  // an optional that is set
    EXPECT_FALSE(a == b);

    SimilarityParams s, t;
    t.rope.scaling.factor = 8;
    EXPECT_FALSE(s == t);
    // A loaded table is compared by identity: the same shared table is equal, another is not.
    auto table = std::make_shared<const Matrix>(2, 2, 1.0);
    s.learnedTable = t.learnedTable = table;
    t.rope = s.rope;
    EXPECT_TRUE(s == t);
    t.learnedTable = std::make_shared<const Matrix>(2, 2, 1.0);
    EXPECT_FALSE(s == t);
}

TEST(ParametersTest, LectureIntuitionFieldsArePartOfEquality) {
    LinearShiftOptions a, b;
    b.sinOnly = true;
    EXPECT_FALSE(a == b);
    ToyAttentionParams x, y;
    y.shuffled = "mouse the chased the cat";
    EXPECT_FALSE(x == y);
    y = x;
    y.position = ToyPosition::Rope;
    EXPECT_FALSE(x == y);
    FrequencyResolutionParams f, g;
    g.sharedPair = 3;
    EXPECT_FALSE(f == g);
}

}  // namespace
}  // namespace poslab
