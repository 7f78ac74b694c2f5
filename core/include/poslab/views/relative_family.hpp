// relative_family.hpp — the relative-position family's members as values: the options every
// Relative figure shares, each member's bias (or log-score) against distance, and the curves
// each tab of the Relative view draws, sampled to a plot's pixel columns. No layout or drawing
// (relative_figures.hpp): the Compare and Extrapolation views use these values too.
//
// Usage:
//   RelativeFigureOptions o;  o.seqLen = 65536;                      // validate(o) first
//   double v = familyValue(o, FamilyMember::KerpleLog, 100);         // one distance
//   auto curves = relativeTabCurves(o, RelativeTab::Family, 800);    // a plot 800 px wide
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "poslab/base/refining_memo.hpp"  // Detail
#include "poslab/encodings/fire.hpp"
#include "poslab/encodings/kerple.hpp"
#include "poslab/encodings/sandwich.hpp"
#include "poslab/encodings/t5_bias.hpp"
#include "poslab/encodings/xpos.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// ---- What is shown
enum class RelativeTab { Family, Xpos, Kerple, Sandwich, Fire };
// The members of the family picture, in legend order.
enum class FamilyMember { Alibi, T5, KerplePower, KerpleLog, Sandwich, Fire, Xpos, Rope };
inline constexpr int kFamilyMembers = 8;
std::string familyMemberName(FamilyMember member);  // "ALiBi", "KERPLE power", ...

struct RelativeFigureOptions {
    int seqLen = 2048;  // L of every matrix and the reach of the distance axes: 2..kMaxSeqLen
    int trainingLength = 512;  // marked on the distance axes: 1..kMaxSeqLen
    bool logDistance = false;  // family curves: log distance axis (from 1) instead of linear
    double biasFloor = -20;    // family curves: lowest value shown, -1e6..-0.1 (cut below)
    XposParams xpos;
    KerpleParams kerplePower{KerpleKernel::Power, 0.5, 0.8};
    KerpleParams kerpleLog{KerpleKernel::Logarithmic, 1.0, 1.0};
    SandwichParams sandwich;
    FireParams fire;
    int alibiHeads = 8, alibiHead = 0;  // the ALiBi member: fairseq slopes of that many heads
    T5Params t5{1, 32, 128, false};     // the T5 member (seqLen unused), decoder buckets
    std::uint64_t t5Seed = 0;           // its bucket values (seededBucketBiases)
    friend bool operator==(const RelativeFigureOptions&,
                           const RelativeFigureOptions&) = default;  // caches key on it
};
Status validate(
    const RelativeFigureOptions& options);  // every member's params and the ranges above

// ---- Curves against distance r = i - j (query i, key j <= i)
// Each member's value minus its value at r = 0 (softmax ignores a constant per row, so only the
// shape matters): ALiBi -m r; T5 b[bucket(-r)]; KERPLE both kernels; Sandwich; FIRE's MLP bias
// for the query at r_max (the last row, so every distance exists); xPos log(mean_i
// zeta_i^(r/sb)), the log of the decay it multiplies RoPE by; RoPE log(B(r)/B(0)) with B
// RoFormer's long-term decay bound (Su et al. Fig. 2) for xPos's head_dim and base.
double familyValue(const RelativeFigureOptions& options, FamilyMember member, double distance);
// The distances a curve is evaluated at for a plot `columns` pixels wide over 0..maxDistance
// (log: 1..maxDistance, log-spaced): every integer when there are at most 2 per column.
std::vector<double> familyDistances(int maxDistance, int columns, bool logarithmic);
// byOffset[(j - i) + (L - 1)] of a member's L x L matrix: the value at distance i - j for j <= i,
// -inf after (causal). FIRE has no such form (use fireSample).
std::vector<double> toeplitzByOffset(const RelativeFigureOptions& options, FamilyMember member,
                                     int length);
// toeplitzByOffset's values at some distances only (ascending, >= 0): the rotary members through
// their oscillator sums, the rest one by one. Not FIRE.
std::vector<double> toeplitzAtDistances(const RelativeFigureOptions& options, FamilyMember member,
                                        const std::vector<double>& distances);
// The members in legend order (the enum's order), to loop over.
inline constexpr std::array<FamilyMember, kFamilyMembers> kFamilyMemberList = {
    FamilyMember::Alibi,    FamilyMember::T5,   FamilyMember::KerplePower, FamilyMember::KerpleLog,
    FamilyMember::Sandwich, FamilyMember::Fire, FamilyMember::Xpos,        FamilyMember::Rope};
// The options with everything but `member`'s own parameters (and seqLen) at their defaults.
RelativeFigureOptions memberOptions(const RelativeFigureOptions& options, FamilyMember member);

// ---- A tab's curves, for a plot `columns` pixels wide
// Family: every member minus its value at 0, at familyDistances(L - 1, columns, logDistance),
// cut where it falls below biasFloor. Xpos / Kerple / Sandwich: at 8 evenly spaced distances a
// column, drawn as their min/max envelope per column (Detail::Coarse, while a control moves:
// 2 a column, drawn as they are). Fire: phi for three queries.
struct FamilyCurveMemo {        // a family curve kept between rebuilds (moving one member's slider)
    RelativeFigureOptions key;  // memberOptions() of the member
    int member = 0, columns = 0;
    bool logarithmic = false;
    LineSeries series;  // before the cut at the bias floor
};
std::vector<LineSeries> relativeTabCurves(const RelativeFigureOptions& options, RelativeTab tab,
                                          int columns, std::vector<FamilyCurveMemo>* memo = nullptr,
                                          Detail detail = Detail::Exact);

}  // namespace poslab
