// ranges.hpp — the descriptors (poslab/base/parameter.hpp) of the view parameters whose range
// the app chooses: session key, command-line option, limits, default, slider scale and meaning.
// The GUI's slider, the option reader and its help text and the session validator all read the
// entry, so they cannot drift apart. (Limits that are core's own are described next to the core
// struct they belong to: kAlibiHeadsParam in encodings/alibi.hpp, kMaxDModel in base/limits.hpp.)
#pragma once

#include "poslab/analysis/cope_sentence.hpp"
#include "poslab/analysis/frequency_resolution.hpp"
#include "poslab/analysis/intuition.hpp"
#include "poslab/analysis/table_structure.hpp"
#include "poslab/analysis/toy_attention.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/parameter.hpp"
#include "poslab/encodings/alibi.hpp"
#include "poslab/encodings/axial_rope.hpp"
#include "poslab/encodings/deberta.hpp"
#include "poslab/encodings/fire.hpp"
#include "poslab/encodings/nope.hpp"
#include "poslab/encodings/sandwich.hpp"
#include "poslab/encodings/t5_bias.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab::state {

// The descriptors (poslab/base/parameter.hpp); the app's own entries below, core's next to the
// struct core validates (kAlibiHeadsParam in encodings/alibi.hpp).
using IntRange = IntParameter;
using DoubleRange = RealParameter;

// ---- The table
inline constexpr IntRange kCurveCountRange{
    "curveCount",           "curves",    1, 8, 4, "number of dimensions plotted",
    ParameterScale::Linear, "dimensions"};
inline constexpr const IntRange& kAlibiHeadsRange = kAlibiHeadsParam;  // core's (alibi.hpp)
// The same heads on the Compare and Extrapolation views' "ALiBi heads" slider.
inline constexpr IntRange kAlibiHeadsSlider =
    kAlibiHeadsParam.labelled("ALiBi heads", ParameterScale::Log);
// RoPE rotation: the GUI slider's 0..32 (the command line said 0..64, sessions 0..256).
inline constexpr IntRange kRopeTrailRange{
    "trail", "trail", 0, 32, 8, "earlier whole positions drawn as fading dots"};
inline constexpr IntRange kClockBitsRange{"clock.bits", "bits", 1, 12, 5, "bits shown"};
inline constexpr IntRange kClockPositionsRange{
    "clock.positions",  "positions",         2,          4096, 64,
    "positions 0..N-1", ParameterScale::Log, "positions"};
inline constexpr IntRange kOrthogonalityDModelRange{
    "orthogonalityDModel", "d-model", 2, 8192, 64, "vector width", ParameterScale::Log, "d_model"};
// RoPE lengths. The heatmaps and curves sample what is visible, so the context reaches a
// long-context model's 1,048,576 (a config's max_position_embeddings sets it).
inline constexpr IntRange kRopeContextRange{"seqLen",
                                            "seq-len",
                                            1,
                                            1 << 20,
                                            4096,
                                            "context length: positions 0..L-1",
                                            ParameterScale::Log,
                                            "sequence length"};
inline constexpr IntRange kRopeTrainingRange{
    "trainingLength",    "training-length", 1, 1 << 20, 2048, "training length (L0)",
    ParameterScale::Log, "training length"};
inline constexpr IntRange kRopeDecayDistanceRange{
    "decayDistance",     "max-distance",  1, 1 << 20, 250, "largest relative distance",
    ParameterScale::Log, "decay distance"};
inline constexpr DoubleRange kRopeScalingsFactorRange{
    "scalings.factor",   "factor",  1, 256, 8, "scaling factor s of every curve",
    ParameterScale::Log, "factor s"};
inline constexpr IntRange kRopeScalingsSeqLenRange{
    "scalings.dynamicSeqLen",
    "seq-len",
    0,
    1 << 24,
    0,
    "dynamic NTK evaluated at L (0: the context past L0, else s times L0)",
    ParameterScale::Linear,
    "dynamic NTK at L"};
// The Learned view's rotatable PC1-PC3 trajectory (views/trajectory_3d.hpp); the GUI wraps yaw.
inline constexpr DoubleRange kStructureYawRange{
    "structureYaw",         "yaw", -180,     180,   30, "3-D trajectory: turn about PC2, degrees",
    ParameterScale::Linear, "yaw", "\u00B0", "%.0f"};
inline constexpr DoubleRange kStructurePitchRange{
    "structurePitch",
    "pitch",
    -90,
    90,
    20,
    "3-D trajectory: tilt, degrees (90 looks down PC2)",
    ParameterScale::Linear,
    "pitch",
    "\u00B0",
    "%.0f"};
inline constexpr double kAutoRotateDegreesPerSecond = 20;  // the Structure tab's auto-rotate
// Vision RoPE: the axial patch grid and the M-RoPE view's merge size.
inline constexpr IntRange kAxialGridSideRange{
    "axial.gridWidth", "grid", 1, 64, 16, "patches per side of the grid shown"};
inline constexpr IntRange kAxialGridWidthSlider =
    kAxialGridSideRange.labelled("grid width", ParameterScale::Linear);
inline constexpr IntRange kAxialGridHeightSlider{
    "axial.gridHeight",     "grid",       1, 64, 16, "patches per side of the grid shown",
    ParameterScale::Linear, "grid height"};
inline constexpr IntRange kAxialHeadDimRange{
    "axial.headDim",        "head-dim", 4, 1024, 64, "dimensions per head, a multiple of 4",
    ParameterScale::Linear, "head_dim"};
inline constexpr IntRange kMropeMergeRange{
    "mrope.spatialMergeSize",           "merge-size",           1,           8, 2,
    "vision_config.spatial_merge_size", ParameterScale::Linear, "merge size"};
// Figure files: `poslab render` and the GUI's export dialog.
inline constexpr IntRange kFigureWidthRange{"width", "width", 64,
                                            8192,    1200,    "figure width in pixels"};
inline constexpr IntRange kFigureHeightRange{"height", "height", 64,
                                             8192,     800,      "figure height in pixels"};
inline constexpr DoubleRange kPngScaleRange{"scale",
                                            "scale",
                                            0.25,
                                            8,
                                            1,
                                            "PNG: device pixels per figure pixel for HiDPI",
                                            ParameterScale::Log,
                                            "PNG scale",
                                            "x",
                                            "%.2g"};

// ---- Every slider's limits, view by view (the GUI's own: what the view can show live; core's
// validate() may accept more on the command line). `poslab::state::viewParameters()`
// (state/parameter_table.hpp) lists each with the session field it drives; the table test
// checks the slider, the session and the state default agree with the entry.
using enum ParameterScale;
// Shared by every view with a sinusoidal or RoPE table.
inline constexpr DoubleRange kSinusoidalBaseSlider{"base",           "base", 1.0001, 1e7, 10000,
                                                   "frequency base", Log,    "base", {},  "%.6g"};
inline constexpr DoubleRange kRopeBaseSlider{"base",       "base", 1.0001, 1e8, 10000,
                                             "rope_theta", Log,    "base", {},  "%.6g"};
inline constexpr IntRange kSeedSliderParam{"seed", "seed", 0, 1000, 0, "random seed"};
inline constexpr IntRange kWeightsSeedSlider =
    kSeedSliderParam.labelled("weights seed", ParameterScale::Linear);
inline constexpr IntRange kTableSeedSlider =
    kSeedSliderParam.labelled("table seed", ParameterScale::Linear);
inline constexpr IntRange kGuiSeqLenParam{"seqLen", "seq-len",         1,   kMaxGuiSeqLen,
                                          64,       "sequence length", Log, "sequence length"};

// Sinusoidal view
inline constexpr IntRange kSinusoidalDModelSlider{"dModel", "d-model", 2,   kMaxDModel,
                                                  128,      "d_model", Log, "d_model"};
inline constexpr IntRange kSinusoidalSeqLenSlider{"seqLen", "seq-len",   1,   kMaxSeqLen,
                                                  256,      "positions", Log, "sequence length"};
inline constexpr IntRange kSinusoidalTrainingSlider{
    "trainingLength", "training-length", 1, kMaxSeqLen, 128, "training length", Log,
    "training length"};
inline constexpr IntRange kCurveFirstDimension{
    "firstCurveDimension", "first-dim", 0, kMaxDModel - 1, 0, "first dimension plotted", Linear,
    "first dimension"};
inline constexpr IntRange kSinusoidalCurvePositions{
    "curvePositions", "positions", 2, 65536, 100, "positions plotted", Log, "positions"};

// ALiBi view (kAlibiHeadsParam above)
inline constexpr IntRange kAlibiSeqLenSlider{"seqLen", "seq-len",          1,   kMaxGuiSeqLen,
                                             32,       "rows and columns", Log, "sequence length"};
inline constexpr IntRange kAlibiEnlargedHead{
    "enlargedHead", "head",         0, kMaxAlibiHeads - 1, 0, "the head drawn large",
    Linear,         "enlarged head"};
inline constexpr IntRange kAlibiQueryRow{
    "queryIndex", "query", 0, kMaxGuiSeqLen - 1, 31, "the query previewed", Linear, "query row"};
inline constexpr IntRange kAlibiPreviewKeys{
    "previewKeys", "keys", 0, kMaxGuiSeqLen, 0, "keys previewed (0: all)", Log, "keys shown"};
inline constexpr DoubleRange kAlibiContentScale{
    "contentScale", "content-scale", 0, 10, 1, "content logit spread", Linear, "scale", {}, "%.2f"};

// Relative view
inline constexpr IntRange kRelativeSeqLen{"seqLen", "seq-len", 2,   kMaxGuiSeqLen,
                                          2048,     "L",       Log, "sequence length"};
inline constexpr IntRange kRelativeTraining{
    "trainingLength", "training-length", 1, kMaxGuiSeqLen, 512, "training length", Log,
    "training length"};
inline constexpr DoubleRange kRelativeBiasFloor{
    "biasFloor", "bias-floor", -1000, -0.1, -20, "curves cut below", Linear, "bias floor"};
inline constexpr IntRange kRelativeAlibiHeads{
    "alibiHeads", "alibi-heads", 1, kMaxAlibiHeads, 8, "ALiBi heads", Log, "ALiBi heads"};
inline constexpr IntRange kRelativeAlibiHead{"alibiHead", "alibi-head", 0,      kMaxAlibiHeads - 1,
                                             0,           "ALiBi head", Linear, "ALiBi head"};
inline constexpr IntRange kXposHeadDim{"xpos.headDim",  "head-dim", 2,         512, 64,
                                       "xPos head_dim", Log,        "head_dim"};
inline constexpr DoubleRange kXposGamma{"xpos.gamma", "gamma", 0, 4, 0.4, "xPos gamma"};
inline constexpr DoubleRange kXposScaleBase{
    "xpos.scaleBase", "scale-base", 1, 1e6, 512, "xPos scale_base", Log, "scale_base", {}, "%.4g"};
inline constexpr DoubleRange kXposBase{"xpos.base",     "base", 2,      1e7, 10000,
                                       "rotation base", Log,    "base", {},  "%.6g"};
inline constexpr DoubleRange kKerplePowerR1{"kerplePower.r1", "r1", 0, 10, 1, "KERPLE power r1"};
inline constexpr DoubleRange kKerplePowerR2{"kerplePower.r2", "r2", 0, 3, 1, "KERPLE power r2"};
inline constexpr DoubleRange kKerpleLogR1{"kerpleLog.r1", "r1", 0, 10, 1, "KERPLE log r1"};
inline constexpr DoubleRange kKerpleLogR2{"kerpleLog.r2", "r2", 0, 10, 1, "KERPLE log r2"};
inline constexpr IntRange kSandwichHeadDim{
    "sandwich.headDim", "head-dim", 2, 1024, 128, "Sandwich width", Log, "d (sinusoids)"};
inline constexpr IntRange kSandwichHeads{
    "sandwich.heads", "heads", 1, kMaxSandwichHeads, 8, "Sandwich heads", Log, "heads##sandwich"};
inline constexpr IntRange kSandwichHead{
    "sandwich.head", "head",          0, kMaxSandwichHeads - 1, 0, "Sandwich head",
    Linear,          "head##sandwich"};
inline constexpr DoubleRange kFireC{"fire.c", "c", 1e-4, 100, 0.1, "FIRE c", Log, "c"};
inline constexpr DoubleRange kFireThreshold{
    "fire.threshold", "threshold", 1, 65536, 512, "FIRE L", Log, "L (threshold)", {}, "%.5g"};
inline constexpr IntRange kFireMlpWidth{"fire.mlpWidth",  "mlp-width", 1,          256, 32,
                                        "FIRE MLP width", Log,         "MLP width"};
inline constexpr IntRange kFireHeads{"fire.heads", "heads",      1, kMaxFireHeads, 8, "FIRE heads",
                                     Log,          "heads##fire"};
inline constexpr IntRange kFireHead{"fire.head", "head",      0,      kMaxFireHeads - 1,
                                    0,           "FIRE head", Linear, "head##fire"};

// Learned view (kCurveCountRange, kStructureYawRange, kStructurePitchRange above)
inline constexpr DoubleRange kLearnedStd{
    "std", "std", 1e-4, 10, 0.02, "initial standard deviation", Log, "std", {}, "%.4g"};
inline constexpr IntRange kLearnedTableLength{"seqLen", "seq-len",      1,   16384,
                                              512,      "table length", Log, "table length"};
inline constexpr IntRange kLearnedDModel{"dModel", "d-model", 1,   2048,
                                         64,       "d_model", Log, "d_model"};
inline constexpr IntRange kLearnedPositionsShown{
    "positionsShown",   "positions", 1, kMaxGuiSeqLen, 640, "positions on the axes", Log,
    "positions to show"};
inline constexpr IntRange kLearnedComponents{
    "structureComponents",  "components", 1,           kMaxStructureComponents, 12,
    "principal components", Linear,       "components"};

// Compare view
inline constexpr IntRange kCompareDModel{"options.dModel", "d-model", 4,        1024, 64,
                                         "d_model",        Log,       "d_model"};
inline constexpr IntRange kCompareSeqLen{"options.seqLen", "seq-len", 2,          2048, 128,
                                         "positions",      Log,       "positions"};
inline constexpr IntRange kT5BucketsSlider{"t5Buckets", "t5-buckets", 4,   256,
                                           32,          "T5 buckets", Log, "T5 buckets"};
inline constexpr IntRange kT5MaxDistanceSlider{
    "t5MaxDistance", "t5-max-distance", 8, 4096, 128, "T5 max distance", Log, "T5 max distance"};
inline constexpr IntRange kCompareHeadDim{"headDim", "head-dim", 2,   1024,
                                          128,       "head_dim", Log, "head_dim"};
inline constexpr IntRange kCompareTraining{
    "trainingLength", "training-length", 16, 1 << 20, 4096, "training length", Log,
    "training length"};
inline constexpr IntRange kCompareMaxOffset{"maxOffset", "max-offset",       2,   65536,
                                            8192,        "offsets compared", Log, "max offset"};

// Similarity view
inline constexpr IntRange kSimilaritySeqLen{
    "seqLen", "seq-len", 2, kMaxGuiSeqLen, 512, "positions compared", Log, "positions"};
inline constexpr IntRange kSimilaritySinusoidalDModel{"dModel", "d-model", 1,   kMaxDModel,
                                                      128,      "d_model", Log, "d_model"};
inline constexpr IntRange kSimilarityLearnedDModel{"dModel", "d-model", 1,   1024,
                                                   64,       "d_model", Log, "d_model"};
inline constexpr DoubleRange kSimilarityLearnedStd{
    "std", "std", 0.001, 10, 0.02, "initial standard deviation", Log, "std"};
inline constexpr IntRange kRopeHeadDimSlider{"headDim", "head-dim", 2,   1024,
                                             64,        "head_dim", Log, "head_dim"};
inline constexpr DoubleRange kRopeFactorSlider{"factor", "factor",           1,   64,
                                               8,        "scaling factor s", Log, "factor"};
inline constexpr IntRange kRopeOriginalLengthSlider{
    "trainingLength", "training-length", 16, 1 << 20, 2048, "original context L0", Log,
    "training length"};
inline constexpr IntRange kSimilarityReference{
    "reference", "reference", 0, kMaxGuiSeqLen - 1, 0, "reference query", Linear, "reference"};
inline constexpr IntRange kSimilarityCurveRange{"maxOffset", "max-offset",  0,   kMaxGuiSeqLen - 1,
                                                0,           "curve range", Log, "curve range"};
inline constexpr IntRange kSimilarityTrainingMark{
    "trainingLength",       "training-length", 1, kMaxGuiSeqLen, 256, "training length", Log,
    "training length##mark"};

// RoPE view (kRopeContextRange, kRopeTrainingRange, kRopeTrailRange, kRopeDecayDistanceRange,
// kRopeScalingsFactorRange, kRopeScalingsSeqLenRange above)
inline constexpr IntRange kRopeViewHeadDim{"headDim", "head-dim", 2,   512,
                                           128,       "head_dim", Log, "head_dim"};
inline constexpr DoubleRange kRopeViewBase{"base",       "base", 10,     1e8, 10000,
                                           "rope_theta", Log,    "base", {},  "%.6g"};
inline constexpr DoubleRange kRotaryFraction{
    "rotaryFraction", "rotary-fraction", 0.05, 1,     1, "partial_rotary_factor",
    Linear,           "rotary fraction", {},   "%.3f"};
inline constexpr DoubleRange kLowFreqFactorSlider{
    "lowFreqFactor",  "low-freq-factor", 0.25, 16, 1, "Llama 3 low_freq_factor", Log,
    "low freq factor"};
inline constexpr DoubleRange kHighFreqFactorSlider{
    "highFreqFactor",  "high-freq-factor", 0.25, 64, 4, "Llama 3 high_freq_factor", Log,
    "high freq factor"};
inline constexpr DoubleRange kBetaFastSlider{"betaFast", "beta-fast",      0.25, 256,
                                             32,         "YaRN beta_fast", Log,  "beta fast"};
inline constexpr DoubleRange kBetaSlowSlider{"betaSlow", "beta-slow",      0.05, 64,
                                             1,          "YaRN beta_slow", Log,  "beta slow"};
inline constexpr DoubleRange kRopeSpeed{
    "speed", "speed", 0.05, 500, 2, "positions per second", Log, "speed", " positions/s"};
inline constexpr DoubleRange kRopeQueryPosition{
    "m", "m", 0, kMaxSeqLen - 1, 0, "query position", Linear, "m", {}, "%.2f"};
inline constexpr DoubleRange kRopeKeyPosition{"n",    "n", 0,  kMaxSeqLen - 1, 0, "key position",
                                              Linear, "n", {}, "%.2f"};
inline constexpr IntRange kRopePanels{"panels", "panels", 1, 64, 16, "rotation panels"};
inline constexpr IntRange kRopeFirstPair{
    "firstPair", "first-pair", 0, kMaxDModel / 2 - 1, 0, "first pair shown", Linear, "first pair"};
inline constexpr IntRange kRopePrecisionPositions{
    "precisionPositions", "positions", 256, 1 << 18, 16384, "positions scanned", Log,
    "positions scanned"};
inline constexpr IntRange kUsageLayer{"layer", "layer", 0, 1 << 16, 0, "layer shown"};
inline constexpr DoubleRange kUsageKeepFraction{"keepFraction", "keep", 0.05,       1,  0.75,
                                                "p-RoPE p",     Linear, "p-RoPE p", {}, "%.2f"};

// Intuition view
inline constexpr IntRange kClockSinusoidalDModel{"dModel", "d-model", 2,   1024,
                                                 128,      "d_model", Log, "d_model"};
inline constexpr IntRange kToyDModel{"dModel", "d-model", 2, kMaxToyDModel, 16, "d_model"};
inline constexpr DoubleRange kShiftAmount{"shift.shift", "shift", -200, 200, 5,
                                          "k",           Linear,  "k",  {},  "%.2f"};
inline constexpr IntRange kShiftPosition{"shift.position", "position", 0, 4096, 10, "p", Log, "p"};
inline constexpr IntRange kShiftChecked{"shift.positions",   "positions", 1,        65536, 256,
                                        "positions checked", Log,         "checked"};
inline constexpr IntRange kShiftDModel{"shift.dModel", "d-model", 1,        kMaxSineOnlyDModel, 16,
                                       "d_model",      Log,       "d_model"};
inline constexpr IntRange kShiftShownDims{"shift.shownDims", "dims", 2,           64, 16,
                                          "dims shown",      Linear, "dims shown"};
inline constexpr IntRange kResolutionDModel{"dModel", "d-model", 2,   kMaxResolutionDModel,
                                            64,       "d_model", Log, "d_model"};
inline constexpr IntRange kResolutionPositions{
    "positions", "positions", 2, kMaxResolutionPositions, 512, "positions", Log, "positions"};
inline constexpr IntRange kResolutionPair{
    "sharedPair", "pair", 0, kMaxResolutionDModel / 2 - 1, 0, "shared pair", Linear, "pair"};

// Meaning view (kOrthogonalityDModelRange above)
inline constexpr IntRange kOrthogonalitySamples{
    "orthogonalitySamples", "samples", 100, 200000, 20000, "random vectors", Log, "samples"};
inline constexpr IntRange kMeaningDModel{"dModel", "d-model", 2,   2048,
                                         64,       "d_model", Log, "d_model"};
inline constexpr IntRange kMeaningTokens{"seqLen", "seq-len", 2, 256, 48, "tokens", Log, "tokens"};
inline constexpr IntRange kMeaningVocabulary{"vocabulary", "vocabulary",     1,   1000,
                                             12,           "distinct words", Log, "vocabulary"};
inline constexpr DoubleRange kMeaningWordScale{"contentScale", "word-scale", 0,           10, 1,
                                               "word scale",   Linear,       "word scale"};
inline constexpr DoubleRange kMeaningPositionScale{
    "positionScale", "position-scale", 0, 100, 1, "position scale", Log, "position scale"};

// T5 view
inline constexpr IntRange kT5SeqLenSlider{"seqLen", "seq-len",         1,   kMaxGuiSeqLen,
                                          160,      "sequence length", Log, "sequence length"};
inline constexpr IntRange kT5NumBucketsSlider{"numBuckets", "buckets",     1,   kMaxT5Buckets,
                                              32,           "num_buckets", Log, "num_buckets"};
inline constexpr IntRange kT5MaxDistanceViewSlider{
    "maxDistance", "max-distance", 1, kMaxGuiSeqLen, 128, "max_distance", Log, "max_distance"};

// Extrapolation view
inline constexpr IntRange kExtrapolationTraining{
    "trainingLength", "training-length", 16, 65536, 512, "training length", Log, "training length"};
inline constexpr IntRange kExtrapolationUsed{
    "evaluationLength", "used-length", 17, 262144, 2048, "used length", Log, "used length"};
inline constexpr IntRange kExtrapolationDModel{"dModel", "d-model", 2,   1024,
                                               64,       "d_model", Log, "d_model"};
inline constexpr DoubleRange kExtrapolationRopeBase =
    kRopeBaseSlider.labelled("RoPE base", ParameterScale::Log);
inline constexpr IntRange kExtrapolationHeadDim{"headDim", "head-dim",      4,   1024,
                                                64,        "RoPE head_dim", Log, "RoPE head_dim"};

// Vision RoPE view (kAxialGridSideRange, kAxialHeadDimRange, kMropeMergeRange above)
inline constexpr IntRange kMropeHeadDim{"mrope.headDim", "head-dim", 4,         1024, 128,
                                        "head_dim",      Log,        "head_dim"};
inline constexpr DoubleRange kMropeBase{"mrope.base", "base", 1.0001, 1e9, 1000000,
                                        "rope_theta", Log,    "base", {},  "%.6g"};
inline constexpr DoubleRange kMropeTokensPerSecond{
    "mrope.tokensPerSecond", "tokens-per-second", 0.25, 16, 2, "tokens per second", Log,
    "tokens/second"};
inline constexpr DoubleRange kAxialBase{"axial.base", "base", 1.0001, 1e6, 100,
                                        "axial base", Log,    "base", {},  "%.6g"};
inline constexpr IntRange kAxialQueryX{
    "axial.queryX", "query-x", 0, kMaxAxialGridSide - 1, 0, "query column", Linear, "query x"};
inline constexpr IntRange kAxialQueryY{
    "axial.queryY", "query-y", 0, kMaxAxialGridSide - 1, 0, "query row", Linear, "query y"};

// Context view (a plug-in: app/encodings/contextual_*.cpp)
inline constexpr IntRange kCopeDModel{"cope.dModel", "d-model", 2,        kMaxCopeDModel, 16,
                                      "d_model",     Linear,    "d_model"};
inline constexpr IntRange kCopeNpos{"cope.npos", "npos", 0, 256, 0, "npos (0: tokens + 1)"};
inline constexpr IntRange kDebertaSeqLen{
    "deberta.seqLen", "seq-len", 1, kMaxGuiSeqLen, 512, "sequence length", Log, "sequence length"};
inline constexpr IntRange kDebertaBuckets{"deberta.positionBuckets",
                                          "position-buckets",
                                          0,
                                          1024,
                                          256,
                                          "position_buckets",
                                          Log,
                                          "buckets"};
inline constexpr IntRange kDebertaMaxPosition{"deberta.maxRelativePositions",
                                              "max-relative-positions",
                                              1,
                                              kMaxGuiSeqLen,
                                              512,
                                              "max_relative_positions",
                                              Log,
                                              "max position"};
inline constexpr IntRange kDebertaHeadDim{
    "deberta.headDim", "head-dim", 1, kMaxDebertaHeadDim, 64, "head_dim", Linear, "head_dim"};
inline constexpr IntRange kNopeSeqLen{"nope.seqLen", "seq-len",         2,   kMaxGuiSeqLen,
                                      32768,         "sequence length", Log, "sequence length"};
inline constexpr IntRange kIropeLayers{"nope.numLayers",    "layers", 1,       kMaxIropeLayers, 48,
                                       "num_hidden_layers", Linear,   "layers"};
inline constexpr IntRange kIropeInterval{"nope.noRopeLayerInterval",
                                         "no-rope-layer-interval",
                                         1,
                                         16,
                                         4,
                                         "no_rope_layer_interval",
                                         Linear,
                                         "NoPE every"};
inline constexpr IntRange kIropeChunk{"nope.attentionChunkSize",
                                      "attention-chunk-size",
                                      0,
                                      kMaxGuiSeqLen,
                                      8192,
                                      "attention_chunk_size",
                                      Log,
                                      "chunk size"};
inline constexpr IntRange kNopeMaskLayer{
    "nope.maskLayer", "mask-layer",   0, kMaxIropeLayers - 1, 0, "mask of layer",
    Linear,           "mask of layer"};
inline constexpr DoubleRange kTemperatureFloorScale{
    "nope.floorScale", "floor-scale", 1, 1e6, 8192, "floor_scale", Log, "floor_scale", {}, "%.0f"};
inline constexpr DoubleRange kTemperatureAttnScale{
    "nope.attnScale", "attn-scale", 0, 1, 0.1, "attn_scale", Linear, "attn_scale", {}, "%.3f"};
inline constexpr IntRange kRandomizedRange{
    "randomized.maxLength", "max-length", 1, kMaxGuiSeqLen, 2048, "N", Log, "N (range)"};
inline constexpr IntRange kRandomizedLength{"randomized.length", "length", 1, 4096, 64, "L", Log,
                                            "L (length)"};
inline constexpr IntRange kRandomizedDraws{"randomized.draws", "draws", 1, 16, 4, "draws"};

// Export dialog (kFigureWidthRange, kFigureHeightRange above)
inline constexpr const DoubleRange& kPngScaleSlider = kPngScaleRange;
inline constexpr DoubleRange kFontScaleParam{
    "fontScale", "font-scale", kMinFontScale, kMaxFontScale, 1,
    "text size", Linear,       "font scale",  "x",           "%.2f"};

}  // namespace poslab::state
