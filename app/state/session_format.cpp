#include "state/session_format.hpp"

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "poslab/analysis/table_structure.hpp"
#include "poslab/base/format.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/encodings/alibi.hpp"
#include "poslab/encodings/learned.hpp"
#include "poslab/encodings/t5_bias.hpp"
#include "poslab/io/json_reader.hpp"
#include "poslab/io/output_file.hpp"
#include "poslab/views/rope_figures.hpp"
#include "state/ranges.hpp"
#include "state/session_fields.hpp"

namespace poslab::state {

using nlohmann::json;

namespace {

// ---- Names of the enums defined in core (their one table each is there)
inline constexpr EnumCodec<ColormapId> kColormapNames{colormapName, parseColormap};
inline constexpr EnumCodec<CompareBias> kCompareBiasCodec{compareBiasName, parseCompareBias};
inline constexpr EnumCodec<ExtrapolationSet> kExtrapolationSetCodec{extrapolationSetName,
                                                                    parseExtrapolationSet};
inline constexpr EnumCodec<TrajectoryStyle> kTrajectoryNames{trajectoryStyleName,
                                                             parseTrajectoryStyle};
inline constexpr EnumCodec<SinusoidalLayout> kLayoutNames{layoutName, parseLayout};
inline constexpr EnumCodec<RopePairing> kPairingNames{pairingName, parsePairing};
inline constexpr EnumCodec<MropeModel> kMropeModelCodec{mropeModelName, parseMropeModel};
inline constexpr EnumCodec<MropeLayout> kMropeLayoutCodec{mropeLayoutName, parseMropeLayout};
inline constexpr EnumCodec<AxialRopeLayout> kAxialLayoutCodec{axialRopeLayoutName,
                                                              parseAxialRopeLayout};
inline constexpr EnumCodec<AxialVectors> kAxialVectorsCodec{axialVectorsName, parseAxialVectors};
// Every scaling a session may hold: parseScaling() takes only the six a few numbers set, but a
// loaded config's LongRoPE or p-RoPE is saved with its lists and proportion, so it reads back.
Result<RopeScaling> parseSessionScaling(std::string_view name) {
    for (RopeScaling type : {RopeScaling::LongRope, RopeScaling::Proportional}) {
        if (name == scalingName(type)) return type;
    }
    auto type = parseScaling(name);
    if (!type) {
        return Error{
            "scaling must be none, linear, ntk, dynamic-ntk, yarn, llama3, longrope or "
            "proportional (got " +
            quoteForMessage(name) + ")"};
    }
    return type;
}
inline constexpr EnumCodec<RopeScaling> kScalingNames{scalingName, parseSessionScaling};
inline constexpr EnumCodec<RopeScalingsAxis> kScalingsAxisCodec{scalingsAxisName,
                                                                parseScalingsAxis};
inline constexpr EnumCodec<RopeTurnReference> kTurnReferenceNames{turnReferenceName,
                                                                  parseTurnReference};
inline constexpr EnumCodec<SimilarityEncoding> kSimilarityEncodingNames{similarityEncodingName,
                                                                        parseSimilarityEncoding};
inline constexpr EnumCodec<SimilarityMetric> kSimilarityMetricNames{similarityMetricName,
                                                                    parseSimilarityMetric};
inline constexpr EnumCodec<RopeVectors> kRopeVectorsNames{ropeVectorsName, parseRopeVectors};
inline constexpr EnumCodec<PositionTableKind> kPositionTableNames{positionTableName,
                                                                  parsePositionTable};
inline constexpr EnumCodec<ToyPosition> kToyPositionCodec{toyPositionName, parseToyPosition};

// ---- The fields of each struct, in one list for reading and writing
template <class F, Is<SinusoidalParams> P>
void visitFields(F& f, P& p) {
    f.integer("dModel", p.dModel);
    f.integer("seqLen", p.seqLen);
    f.number("base", p.base);
    f.name("layout", p.layout, kLayoutNames);
}

template <class F, Is<RopeScalingParams> S>
void visitFields(F& f, S& s) {
    f.name("type", s.type, kScalingNames);
    f.number("factor", s.factor);
    f.integer("originalMaxPositions", s.originalMaxPositions);
    f.number("lowFreqFactor", s.lowFreqFactor);
    f.number("highFreqFactor", s.highFreqFactor);
    f.number("betaFast", s.betaFast);
    f.number("betaSlow", s.betaSlow);
    f.optionalNumber("attentionFactor", s.attentionFactor);
    f.optionalNumber("mscale", s.mscale);
    f.optionalNumber("mscaleAllDim", s.mscaleAllDim);
    f.boolean("truncate", s.truncate);
    f.numberList("shortFactor", s.shortFactor);
    f.numberList("longFactor", s.longFactor);
    f.number("ropeProportion", s.ropeProportion);
}

template <class F, Is<RopeParams> P>
void visitFields(F& f, P& p) {
    f.integer("headDim", p.headDim);
    f.number("base", p.base);
    f.number("rotaryFraction", p.rotaryFraction);
    f.name("pairing", p.pairing, kPairingNames);
    f.integer("seqLen", p.seqLen);
    f.integer("trainingLength", p.trainingLength);
    f.child("scaling", [&](auto& g) { visitFields(g, p.scaling); });
}

template <class F, Is<SimilarityParams> P>
void visitFields(F& f, P& p) {
    f.name("encoding", p.encoding, kSimilarityEncodingNames);
    f.name("metric", p.metric, kSimilarityMetricNames);
    f.integer("seqLen", p.seqLen);
    f.child("sinusoidal", [&](auto& g) { visitFields(g, p.sinusoidal); });
    f.child("learned", [&](auto& g) {
        g.integer("dModel", p.learned.dModel);
        g.integer("seed", p.learned.seed);
        g.number("std", p.learned.std);
    });
    f.child("rope", [&](auto& g) { visitFields(g, p.rope); });
    f.name("ropeVectors", p.ropeVectors, kRopeVectorsNames);
    f.integer("ropeSeed", p.ropeSeed);
}

template <class F, Is<SinusoidalViewState> V>
void visitFields(F& f, V& v) {
    f.child("params", [&](auto& g) { visitFields(g, v.params); });
    f.name("colormap", v.colormap, kColormapNames);
    f.window("window", v.window);
    f.boolean("markTrainingLength", v.markTrainingLength);
    f.integer("trainingLength", v.trainingLength);
    f.integer("firstCurveDimension", v.firstCurveDimension);
    f.integer("curveCount", v.curveCount);
    f.integer("curvePositions", v.curvePositions);
}

// The RoPE view: parameters, q/k source, positions and animation, figure settings. What the
// config.json loader reported is transient and not saved.
template <class F, Is<RopeViewState> V>
void visitFields(F& f, V& v) {
    f.child("params", [&](auto& g) { visitFields(g, v.params); });
    f.converted(
        "figure", v.figure, [](RopeFigureId id) { return int(id); },
        [](int id) { return RopeFigureId(id); });  // checked with the view: never clamped
    f.converted(
        "customVectors", v.vectors,
        [](RopeVectorSource source) { return source == RopeVectorSource::Custom; },
        [](bool custom) { return custom ? RopeVectorSource::Custom : RopeVectorSource::Seeded; });
    f.integer("querySeed", v.querySeed);
    f.integer("keySeed", v.keySeed);
    f.boolean("keyEqualsQuery", v.keyEqualsQuery);
    f.text("customQuery", v.customQuery);
    f.text("customKey", v.customKey);
    f.number("m", v.m);
    f.number("n", v.n);
    f.boolean("playing", v.playing);  // a lesson can start the animation
    f.number("speed", v.speed);
    f.boolean("playMovesBoth", v.playMovesBoth);
    f.boolean("scrubTogether", v.scrubTogether);
    f.integer("panels", v.panels);
    f.integer("precisionPositions", v.precisionPositions);
    f.boolean("spreadPairs", v.spreadPairs);
    f.integer("firstPair", v.firstPair);
    f.integer("trail", v.trail);
    f.window("angleWindow", v.angleWindow);
    f.window("scoreWindow", v.scoreWindow);
    f.name("scoreColormap", v.scoreColormap, kColormapNames);
    f.name("incompleteWithin", v.incompleteWithin, kTurnReferenceNames);
    f.integer("decayDistance", v.decayDistance);
    f.boolean("decayLogAxis", v.decayLogAxis);
    f.child("scalings", [&](auto& g) {
        g.number("factor", v.scalings.factor);
        g.integer("dynamicSeqLen", v.scalings.dynamicSeqLen);
        g.name("axis", v.scalings.axis, kScalingsAxisCodec);
    });
    f.text("configPath", v.configPath);
}

// bucketBiases is written here and read on its own in fromJson: a bad list is ignored with a
// warning instead of rejecting the view's other settings.
template <class F, Is<T5ViewState> V>
void visitFields(F& f, V& v) {
    f.integer("seqLen", v.seqLen);
    f.integer("numBuckets", v.numBuckets);
    f.integer("maxDistance", v.maxDistance);
    f.boolean("bidirectional", v.bidirectional);
    f.integer("biasSeed", v.biasSeed);
    if constexpr (!F::kReading) {
        f.converted(
            "bucketBiases", v.bucketBiases, [](const std::vector<double>& b) { return json(b); },
            nullptr);
    }
}

// A loaded table is named by its path (a .npy or .safetensors file, key "npyPath" as in older
// sessions) and tensor; opening the session reads it again (rereadSessionFiles).
template <class F, Is<LearnedViewState> V>
void visitFields(F& f, V& v) {
    f.integer("seqLen", v.seqLen);
    f.integer("dModel", v.dModel);
    f.integer("seed", v.seed);
    f.number("std", v.std);
    f.text("npyPath", v.npyPath);
    f.text("tensor", v.tensor);
    f.integer("positionsShown", v.positionsShown);
    f.integer("firstCurveDimension", v.firstCurveDimension);
    f.integer("curveCount", v.curveCount);
    f.name("colormap", v.colormap, kColormapNames);
    f.name("tab", v.tab, kLearnedTabNames);
    f.name("structureSource", v.structureSource, kStructureSourceNames);
    f.integer("structureComponents", v.structureComponents);
    f.name("structureTrajectory", v.structureTrajectory, kTrajectoryNames);
    f.number("structureYaw", v.structureYaw);
    f.number("structurePitch", v.structurePitch);
    f.boolean("autoRotate", v.autoRotate);
}

template <class F, Is<SimilarityViewState> V>
void visitFields(F& f, V& v) {
    f.child("params", [&](auto& g) { visitFields(g, v.params); });
    f.text("learnedTablePath", v.learnedTablePath);
    f.name("colormap", v.colormap, kColormapNames);
    f.window("window", v.window);
    f.integer("reference", v.reference);
    f.integer("maxOffset", v.maxOffset);
    f.boolean("markTrainingLength", v.markTrainingLength);
    f.integer("trainingLength", v.trainingLength);
}

template <class F, Is<MeaningViewState> V>
void visitFields(F& f, V& v) {
    f.child("params", [&](auto& g) {
        auto& p = v.params;
        g.integer("dModel", p.dModel);
        g.integer("seqLen", p.seqLen);
        g.name("positions", p.positions, kPositionTableNames);
        g.number("base", p.base);
        g.integer("vocabulary", p.vocabulary);
        g.number("contentScale", p.contentScale);
        g.number("positionScale", p.positionScale);
        g.integer("seed", p.seed);
    });
    f.text("tokensPath", v.tokensPath);
    f.name("figure", v.figure, kMeaningFigureNames);
    f.integer("orthogonalityDModel", v.orthogonalityDModel);
    f.integer("orthogonalitySamples", v.orthogonalitySamples);
}

template <class F, Is<IntuitionViewState> V>
void visitFields(F& f, V& v) {
    f.name("figure", v.figure, kIntuitionFigureNames);
    f.child("clock", [&](auto& g) {
        g.integer("bits", v.clock.bits);
        g.integer("positions", v.clock.positions);
        g.child("sinusoidal", [&](auto& h) { visitFields(h, v.clock.sinusoidal); });
    });
    f.child("shift", [&](auto& g) {
        g.child("sinusoidal", [&](auto& h) { visitFields(h, v.shift.sinusoidal); });
        g.number("shift", v.shift.shift);
        g.integer("position", v.shift.position);
        g.integer("positions", v.shift.positions);
        g.integer("shownDims", v.shift.shownDims);
        g.boolean("sinOnly", v.shift.sinOnly);
    });
    f.child("attention", [&](auto& g) {
        auto& a = v.attention;
        g.text("sentence", a.sentence);
        g.text("shuffled", a.shuffled);
        g.integer("shuffleSeed", a.shuffleSeed);
        g.name("position", a.position, kToyPositionCodec);
        g.integer("dModel", a.dModel);
        g.integer("seed", a.seed);
        g.number("base", a.base);
    });
    f.child("frequencies", [&](auto& g) {
        auto& r = v.frequencies;
        g.integer("dModel", r.dModel);
        g.number("base", r.base);
        g.integer("positions", r.positions);
        g.integer("sharedPair", r.sharedPair);
    });
}

template <class F, Is<ExtrapolationViewState> V>
void visitFields(F& f, V& v) {
    auto& o = v.options;
    f.integer("trainingLength", o.trainingLength);
    f.integer("evaluationLength", o.evaluationLength);
    f.integer("dModel", o.dModel);
    f.integer("headDim", o.headDim);
    f.number("ropeBase", o.ropeBase);
    f.integer("alibiHeads", o.alibiHeads);
    f.integer("t5Buckets", o.t5Buckets);
    f.integer("t5MaxDistance", o.t5MaxDistance);
    f.name("set", o.set, kExtrapolationSetCodec);
}

template <class F, Is<VisionRopeViewState> V>
void visitFields(F& f, V& v) {
    f.name("figure", v.figure, kVisionRopeFigureNames);
    f.text("prompt", v.prompt);
    f.child("mrope", [&](auto& g) {
        auto& m = v.mrope;
        g.name("model", m.model, kMropeModelCodec);
        g.name("layout", m.layout, kMropeLayoutCodec);
        g.integer("sectionT", m.section[0]);
        g.integer("sectionH", m.section[1]);
        g.integer("sectionW", m.section[2]);
        g.integer("headDim", m.headDim);
        g.number("base", m.base);
        g.integer("spatialMergeSize", m.spatialMergeSize);
        g.number("tokensPerSecond", m.tokensPerSecond);
    });
    f.child("axial", [&](auto& g) {
        auto& a = v.axial;
        g.name("layout", a.layout, kAxialLayoutCodec);
        g.integer("headDim", a.headDim);
        g.number("base", a.base);
        g.integer("gridWidth", a.gridWidth);
        g.integer("gridHeight", a.gridHeight);
        g.integer("queryX", a.queryX);
        g.integer("queryY", a.queryY);
        g.name("vectors", a.vectors, kAxialVectorsCodec);
        g.integer("seed", a.seed);
    });
    f.text("configPath", v.configPath);
}

template <class F, Is<RopeSideState> S>
void visitFields(F& f, S& s) {
    f.boolean("useConfig", s.useConfig);
    f.text("configPath", s.configPath);
    f.number("base", s.base);
}

template <class F, Is<CompareViewState> V>
void visitFields(F& f, V& v) {
    f.name("mode", v.mode, kCompareModeNames);
    f.child("options", [&](auto& g) {
        auto& o = v.options;
        g.integer("dModel", o.dModel);
        g.integer("seqLen", o.seqLen);
        g.number("base", o.base);
        g.integer("alibiHeads", o.alibiHeads);
        g.integer("t5Buckets", o.t5Buckets);
        g.integer("t5MaxDistance", o.t5MaxDistance);
        g.integer("seed", o.seed);
        g.name("biasA", o.biasA, kCompareBiasCodec);
        g.name("biasB", o.biasB, kCompareBiasCodec);
        // The relative members' own parameters, under the Relative view's keys.
        g.number("kerplePower.r1", o.kerplePower.r1);
        g.number("kerplePower.r2", o.kerplePower.r2);
        g.number("kerpleLog.r1", o.kerpleLog.r1);
        g.number("kerpleLog.r2", o.kerpleLog.r2);
        g.integer("sandwich.headDim", o.sandwich.headDim);
        g.integer("sandwich.heads", o.sandwich.heads);
        g.integer("sandwich.head", o.sandwich.head);
        g.number("fire.c", o.fire.c);
        g.number("fire.threshold", o.fire.threshold);
        g.integer("fire.mlpWidth", o.fire.mlpWidth);
        g.integer("fire.heads", o.fire.heads);
        g.integer("fire.head", o.fire.head);
        g.number("xpos.gamma", o.xposGamma);
        g.number("xpos.scaleBase", o.xposScaleBase);
    });
    f.child("a", [&](auto& g) { visitFields(g, v.a); });
    f.child("b", [&](auto& g) { visitFields(g, v.b); });
    f.integer("headDim", v.headDim);
    f.integer("trainingLength", v.trainingLength);
    f.integer("maxOffset", v.maxOffset);
}

// Writes `state` through its visitFields() overload.
template <class State>
json writeFields(const State& state) {
    JsonWriter writer;
    visitFields(writer, state);
    return writer.take();
}

// Reads the fields visitFields() lists into a copy of `view`; see applyChecked.
template <class View, class Valid>
void readView(const json& object, View& view, const char* path, Warnings& warnings, Valid valid) {
    applyChecked(
        object, view, path, warnings, [](Fields& f, View& v) { visitFields(f, v); }, valid);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Per state struct
// ---------------------------------------------------------------------------------------------

json toJson(const SinusoidalViewState& v) {
    return writeFields(v);
}
json toJson(const RopeViewState& v) {
    return writeFields(v);
}
json toJson(const T5ViewState& v) {
    return writeFields(v);
}
json toJson(const LearnedViewState& v) {
    return writeFields(v);
}
json toJson(const SimilarityViewState& v) {
    return writeFields(v);
}
json toJson(const MeaningViewState& v) {
    return writeFields(v);
}
json toJson(const IntuitionViewState& v) {
    return writeFields(v);
}
json toJson(const ExtrapolationViewState& v) {
    return writeFields(v);
}
json toJson(const CompareViewState& v) {
    return writeFields(v);
}
json toJson(const VisionRopeViewState& v) {
    return writeFields(v);
}

void fromJson(const json& object, SinusoidalViewState& view, Warnings& warnings) {
    readView(object, view, "sinusoidal", warnings, [](const SinusoidalViewState& v) -> Status {
        // The view computes only its visible window: any table up to 2^20 x 8192 is fine.
        if (auto s = validateRanges(v.params); !s) return s;
        if (auto s = kSinusoidalTrainingSlider.check(v.trainingLength); !s) return s;
        if (auto s = kCurveCountRange.check(v.curveCount); !s) return s;
        if (auto s = kSinusoidalCurvePositions.check(v.curvePositions); !s) return s;
        return requireIntInRange("firstCurveDimension", v.firstCurveDimension, 0,
                                 v.params.dModel - 1);
    });
}

void fromJson(const json& object, RopeViewState& view, Warnings& warnings) {
    readView(object, view, "rope", warnings, [](const RopeViewState& v) -> Status {
        if (auto s = requireIntInRange("figure", int(v.figure), 0, int(RopeFigureId::Usage)); !s)
            return s;  // a tab index from another version names no tab: refused, not clamped
        if (auto s = validate(v.params); !s) return s;
        if (auto s = requireInRange("m", v.m, 0, kRopeContextRange.high); !s) return s;
        if (auto s = requireInRange("n", v.n, 0, kRopeContextRange.high); !s) return s;
        if (!kRopeScalingsFactorRange.contains(v.scalings.factor)) {
            return Error{"scalings.factor must be " + kRopeScalingsFactorRange.rangeText()};
        }
        if (auto s = kRopeScalingsSeqLenRange.check(v.scalings.dynamicSeqLen); !s) return s;
        if (auto s = kRopeSpeed.check(v.speed); !s) return s;  // the sliders' ranges
        if (auto s = kRopePanels.check(v.panels); !s) return s;
        if (auto s = kRopeFirstPair.check(v.firstPair); !s) return s;
        if (auto s = kRopeTrailRange.check(v.trail); !s) return s;
        if (auto s = kRopePrecisionPositions.check(v.precisionPositions); !s) return s;
        return kRopeDecayDistanceRange.check(v.decayDistance);
    });
}

void fromJson(const json& object, T5ViewState& view, Warnings& warnings) {
    readView(object, view, "t5", warnings, [](const T5ViewState& v) -> Status {
        T5Params params{v.seqLen, v.numBuckets, v.maxDistance, v.bidirectional};
        if (auto s = validate(params); !s) return s;
        return kT5SeqLenSlider.check(v.seqLen);
    });
    // Per-bucket biases: kept only when they are numbers, one per bucket.
    if (auto it = object.find("bucketBiases"); it != object.end()) {
        std::vector<double> biases;
        bool valid = it->is_array();
        if (valid) {
            for (const json& value : *it) {
                if (!value.is_number() || !std::isfinite(value.get<double>())) {
                    valid = false;
                    break;
                }
                biases.push_back(value.get<double>());
            }
        }
        if (valid && (biases.empty() || int(biases.size()) == view.numBuckets)) {
            view.bucketBiases = std::move(biases);
        } else {
            warnings.push_back("t5.bucketBiases: expected one finite number per bucket (ignored)");
        }
    }
}

void fromJson(const json& object, LearnedViewState& view, Warnings& warnings) {
    // A loaded .npy table is not reloaded automatically: the path is restored for the Load button.
    readView(object, view, "learned", warnings, [](const LearnedViewState& v) -> Status {
        LearnedParams params{v.seqLen, v.dModel, std::uint64_t(v.seed), v.std};
        if (auto s = validate(params); !s) return s;
        if (auto s = requireIntInRange("seqLen", v.seqLen, 1, kMaxGuiSeqLen); !s) return s;
        if (auto s = kLearnedPositionsShown.check(v.positionsShown); !s) return s;
        if (auto s = kCurveCountRange.check(v.curveCount); !s) return s;
        if (auto s = kLearnedComponents.check(v.structureComponents); !s) return s;
        for (auto [range, value] : {std::pair{&kStructureYawRange, v.structureYaw},
                                    std::pair{&kStructurePitchRange, v.structurePitch}}) {
            if (auto s = requireInRange(range->key, value, range->low, range->high); !s) return s;
        }
        return requireIntInRange("firstCurveDimension", v.firstCurveDimension, 0, v.dModel - 1);
    });
}

void fromJson(const json& object, SimilarityViewState& view, Warnings& warnings) {
    readView(object, view, "similarity", warnings, [](const SimilarityViewState& v) -> Status {
        // Each encoding's own settings must be valid, not just the one shown.
        for (auto e : {SimilarityEncoding::Sinusoidal, SimilarityEncoding::Learned,
                       SimilarityEncoding::Rope}) {
            SimilarityParams p = v.params;
            p.encoding = e;
            if (e == SimilarityEncoding::Learned)
                p.seqLen = std::min(p.seqLen, kMaxGuiLearnedSimilarity);
            if (auto s = validate(p); !s) return s;
        }
        if (v.params.seqLen > kMaxGuiSeqLen) {
            return Error{"seqLen must be 1.." + std::to_string(kMaxGuiSeqLen) + " (got " +
                         std::to_string(v.params.seqLen) + ")"};
        }
        if (auto s = kSimilarityReference.check(v.reference); !s) return s;
        if (auto s = kSimilarityCurveRange.check(v.maxOffset); !s) return s;
        return kSimilarityTrainingMark.check(v.trainingLength);
    });
}

void fromJson(const json& object, MeaningViewState& view, Warnings& warnings) {
    readView(object, view, "meaning", warnings, [](const MeaningViewState& v) -> Status {
        MeaningParams p = v.params;
        p.tokens = nullptr;
        if (auto s = validate(p); !s) return s;
        if (auto s = kOrthogonalityDModelRange.check(v.orthogonalityDModel); !s) return s;
        return kOrthogonalitySamples.check(v.orthogonalitySamples);
    });
}

void fromJson(const json& object, IntuitionViewState& view, Warnings& warnings) {
    readView(object, view, "intuition", warnings, [](const IntuitionViewState& v) -> Status {
        if (auto s = kClockBitsRange.check(v.clock.bits); !s) return s;
        if (auto s = kClockPositionsRange.check(v.clock.positions); !s) return s;
        if (auto s = validate(v.clock.sinusoidal); !s) return s;
        if (auto s = validate(v.shift.sinusoidal); !s) return s;
        if (auto s = kShiftDModel.check(v.shift.sinusoidal.dModel); !s) return s;
        if (auto s = kShiftAmount.check(v.shift.shift); !s) return s;
        if (auto s = kShiftPosition.check(v.shift.position); !s) return s;
        if (auto s = kShiftChecked.check(v.shift.positions); !s) return s;
        if (auto s = kShiftShownDims.check(v.shift.shownDims); !s) return s;
        if (auto s = validateRanges(v.attention); !s) return s;  // words: the figure says
        return validate(v.frequencies);
    });
}

void fromJson(const json& object, ExtrapolationViewState& view, Warnings& warnings) {
    readView(object, view, "extrapolation", warnings,
             [](const ExtrapolationViewState& v) { return validate(v.options); });
}

void fromJson(const json& object, VisionRopeViewState& view, Warnings& warnings) {
    readView(object, view, "visionRope", warnings, [](const VisionRopeViewState& v) -> Status {
        if (auto s = validate(v.mrope); !s) return s;
        if (auto s = kMropeMergeRange.check(v.mrope.spatialMergeSize); !s) return s;
        auto prompt = parseMropePrompt(v.prompt);
        if (!prompt) return Error{"prompt: " + prompt.error().message};
        if (auto s = validatePrompt(*prompt, v.mrope.spatialMergeSize); !s) {
            return Error{"prompt: " + s.error().message};
        }
        if (auto s = kAxialHeadDimRange.check(v.axial.headDim); !s) return s;
        if (auto s = kAxialGridWidthSlider.check(v.axial.gridWidth); !s) return s;
        if (auto s = kAxialGridHeightSlider.check(v.axial.gridHeight); !s) return s;
        return validate(v.axial);
    });
}

void fromJson(const json& object, CompareViewState& view, Warnings& warnings) {
    readView(object, view, "compare", warnings, [](const CompareViewState& v) -> Status {
        if (auto s = validate(v.options); !s) return s;
        if (auto s = requireInRange("a.base", v.a.base, 1.0, 1e12, false); !s) return s;
        if (auto s = requireInRange("b.base", v.b.base, 1.0, 1e12, false); !s) return s;
        if (auto s = kCompareHeadDim.check(v.headDim); !s) return s;
        if (v.headDim % 2 != 0)
            return Error{"headDim must be even (got " + std::to_string(v.headDim) + ")"};
        if (auto s = kCompareTraining.check(v.trainingLength); !s) return s;
        return kCompareMaxOffset.check(v.maxOffset);
    });
}

}  // namespace poslab::state
