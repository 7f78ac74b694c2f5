// ranges.hpp — the descriptors (poslab/base/parameter.hpp) of the view parameters whose range
// the app chooses: session key, command-line option, limits, default, slider scale and meaning.
// The GUI's slider, the option reader and its help text and the session validator all read the
// entry, so they cannot drift apart. (Limits that are core's own are described next to the core
// struct they belong to: kAlibiHeadsParam in encodings/alibi.hpp, kMaxDModel in base/limits.hpp.)
#pragma once

#include "poslab/base/parameter.hpp"
#include "poslab/encodings/alibi.hpp"

namespace poslab::ui {

// The descriptors (poslab/base/parameter.hpp); the app's own entries below, core's next to the
// struct core validates (kAlibiHeadsParam in encodings/alibi.hpp).
using IntRange = IntParameter;
using DoubleRange = RealParameter;

// ---- The table
inline constexpr IntRange kCurveCountRange{
    "curveCount", "curves", 1, 8, 4, "number of dimensions plotted"};
inline constexpr const IntRange& kAlibiHeadsRange = kAlibiHeadsParam;  // core's (alibi.hpp)
// RoPE rotation: the GUI slider's 0..32 (the command line said 0..64, sessions 0..256).
inline constexpr IntRange kRopeTrailRange{
    "trail", "trail", 0, 32, 8, "earlier whole positions drawn as fading dots"};
inline constexpr IntRange kClockBitsRange{"clock.bits", "bits", 1, 12, 5, "bits shown"};
inline constexpr IntRange kClockPositionsRange{"clock.positions", "positions", 2, 4096, 64,
                                               "positions 0..N-1"};
inline constexpr IntRange kOrthogonalityDModelRange{"orthogonalityDModel", "d-model", 2, 8192, 64,
                                                    "vector width"};
// RoPE lengths. The heatmaps and curves sample what is visible, so the context reaches a
// long-context model's 1,048,576 (a config's max_position_embeddings sets it).
inline constexpr IntRange kRopeContextRange{
    "seqLen", "seq-len", 1, 1 << 20, 4096, "context length: positions 0..L-1"};
inline constexpr IntRange kRopeTrainingRange{
    "trainingLength", "training-length", 1, 1 << 20, 2048, "training length (L0)"};
inline constexpr IntRange kRopeDecayDistanceRange{
    "decayDistance", "max-distance", 1, 1 << 20, 250, "largest relative distance"};
inline constexpr DoubleRange kRopeScalingsFactorRange{
    "scalings.factor", "factor", 1, 256, 8, "scaling factor s of every curve"};
inline constexpr IntRange kRopeScalingsSeqLenRange{
    "scalings.dynamicSeqLen",
    "seq-len",
    0,
    1 << 24,
    0,
    "dynamic NTK evaluated at L (0: the context past L0, else s times L0)"};
// The Learned view's rotatable PC1-PC3 trajectory (views/trajectory_3d.hpp); the GUI wraps yaw.
inline constexpr DoubleRange kStructureYawRange{
    "structureYaw", "yaw", -180, 180, 30, "3-D trajectory: turn about PC2, degrees"};
inline constexpr DoubleRange kStructurePitchRange{
    "structurePitch", "pitch", -90, 90, 20, "3-D trajectory: tilt, degrees (90 looks down PC2)"};
inline constexpr double kAutoRotateDegreesPerSecond = 20;  // the Structure tab's auto-rotate
// Vision RoPE: the axial patch grid and the M-RoPE view's merge size.
inline constexpr IntRange kAxialGridSideRange{
    "axial.gridWidth", "grid", 1, 64, 16, "patches per side of the grid shown"};
inline constexpr IntRange kAxialHeadDimRange{
    "axial.headDim", "head-dim", 4, 1024, 64, "dimensions per head, a multiple of 4"};
inline constexpr IntRange kMropeMergeRange{"mrope.spatialMergeSize",          "merge-size", 1, 8, 2,
                                           "vision_config.spatial_merge_size"};
// Figure files: `poslab render` and the GUI's export dialog.
inline constexpr IntRange kFigureWidthRange{"width", "width", 64,
                                            8192,    1200,    "figure width in pixels"};
inline constexpr IntRange kFigureHeightRange{"height", "height", 64,
                                             8192,     800,      "figure height in pixels"};
inline constexpr DoubleRange kPngScaleRange{
    "scale", "scale", 0.25, 8, 1, "PNG: device pixels per figure pixel for HiDPI"};

}  // namespace poslab::ui
