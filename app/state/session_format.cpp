#include "state/session_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <utility>

#include "poslab/base/format.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/encodings/alibi.hpp"
#include "poslab/encodings/learned.hpp"
#include "poslab/encodings/t5_bias.hpp"
#include "poslab/io/output_file.hpp"
#include "poslab/views/rope_figures.hpp"

namespace poslab::ui {

using nlohmann::json;

namespace {

// A JSON integer as Int when Int holds it exactly; nullopt for other values and for integers
// beyond Int (a cast would wrap them around: 2^32 + 64 would become 64).
template <class Int>
std::optional<Int> integerValue(const json& v) {
    if (v.is_number_unsigned()) {
        const auto value = v.get<std::uint64_t>();
        if (std::in_range<Int>(value)) return Int(value);
    } else if (v.is_number_integer()) {
        const auto value = v.get<std::int64_t>();
        if (std::in_range<Int>(value)) return Int(value);
    }
    return std::nullopt;
}

// Reads the keys of one JSON object into fields, collecting one warning per unusable value.
class Fields {
  public:
    Fields(const json& object, std::string path, Warnings& warnings)
        : object_(object), path_(std::move(path)), warnings_(warnings) {
        if (!object_.is_object()) warn("", "expected an object");
    }
    bool ok() const { return ok_; }

    void number(const char* key, double& out) {
        if (const json* v = find(key)) {
            if (v->is_number())
                out = v->get<double>();
            else
                warn(key, "expected a number");
        }
    }
    template <class Int>
    void integer(const char* key, Int& out) {
        if (const json* v = find(key)) {
            if (auto value = integerValue<Int>(*v))
                out = *value;
            else if (v->is_number_integer())
                warn(key, "out of range (got " + v->dump() + ")");
            else
                warn(key, "expected an integer");
        }
    }
    void boolean(const char* key, bool& out) {
        if (const json* v = find(key)) {
            if (v->is_boolean())
                out = v->get<bool>();
            else
                warn(key, "expected true or false");
        }
    }
    void text(const char* key, std::string& out) {
        if (const json* v = find(key)) {
            if (v->is_string())
                out = v->get<std::string>();
            else
                warn(key, "expected a string");
        }
    }
    void optionalNumber(const char* key, std::optional<double>& out) {
        if (const json* v = find(key)) {
            if (v->is_null())
                out.reset();
            else if (v->is_number())
                out = v->get<double>();
            else
                warn(key, "expected a number or null");
        }
    }
    // Enums by name, through the parse function every enum already has.
    template <class Enum, class Parse>
    void name(const char* key, Enum& out, Parse parse) {
        if (const json* v = find(key)) {
            if (!v->is_string()) {
                warn(key, "expected a name");
                return;
            }
            // The parse errors quote the name as it is; one with a newline or an escape sequence
            // would break the one-line warning, so it is shown escaped instead.
            const std::string& text = v->get_ref<const std::string&>();
            if (std::any_of(text.begin(), text.end(),
                            [](unsigned char c) { return c < 0x20 || c == 0x7f; })) {
                warn(key, "unknown name " + v->dump());
                return;
            }
            auto parsed = parse(text);
            if (parsed)
                out = *parsed;
            else
                warn(key, parsed.error().message);
        }
    }
    void window(const char* key, CellWindow& out) {
        if (const json* v = find(key)) {
            const bool shaped = v->is_array() && v->size() == 4 &&
                                std::all_of(v->begin(), v->end(), [](const json& e) {
                                    return integerValue<long long>(e).has_value();
                                });
            if (shaped) {
                out = {(*v)[0].get<long long>(), (*v)[1].get<long long>(), (*v)[2].get<long long>(),
                       (*v)[3].get<long long>()};
            } else {
                warn(key, "expected [firstRow, rowCount, firstCol, colCount]");
            }
        }
    }
    // A nested object read by `read(Fields&)`; its warnings count as this object's.
    template <class Read>
    void child(const char* key, Read read) {
        if (const json* v = find(key)) {
            Fields nested(*v, path_ + "." + key, warnings_);
            if (nested.ok()) read(nested);
            ok_ = ok_ && nested.ok();
        }
    }
    void warn(const std::string& key, const std::string& message) {
        warnings_.push_back(path_ + (key.empty() ? "" : "." + key) + ": " + message);
        ok_ = false;
    }

  private:
    const json* find(const char* key) const {
        if (!object_.is_object()) return nullptr;
        auto it = object_.find(key);
        return it == object_.end() ? nullptr : &*it;
    }
    const json& object_;
    std::string path_;
    Warnings& warnings_;
    bool ok_ = true;
};

// Reads into a copy and keeps it only when every value was usable and `valid` accepts the whole.
template <class State, class Read, class Valid>
void applyChecked(const json& object, State& state, const std::string& path, Warnings& warnings,
                  Read read, Valid valid) {
    State copy = state;
    Fields fields(object, path, warnings);
    if (fields.ok()) read(fields, copy);
    if (!fields.ok()) {
        warnings.push_back(path + ": kept the previous settings");
        return;
    }
    if (Status s = valid(copy); !s) {
        warnings.push_back(path + ": " + s.error().message + " (kept the previous settings)");
        return;
    }
    state = std::move(copy);
}

json windowJson(const CellWindow& w) {
    return json::array({w.firstRow, w.rowCount, w.firstCol, w.colCount});
}

// ---- Names of this file's own enums
std::string_view meaningFigureName(MeaningFigure f) {
    switch (f) {
        case MeaningFigure::Terms:
            return "terms";
        case MeaningFigure::Orthogonality:
            return "near-orthogonality";
        case MeaningFigure::AddVersusConcat:
            return "add-vs-concat";
    }
    return "terms";
}
Result<MeaningFigure> parseMeaningFigure(std::string_view name) {
    for (auto f :
         {MeaningFigure::Terms, MeaningFigure::Orthogonality, MeaningFigure::AddVersusConcat}) {
        if (name == meaningFigureName(f)) return f;
    }
    return Error{"figure must be terms, near-orthogonality or add-vs-concat (got '" +
                 std::string(name) + "')"};
}
std::string_view intuitionFigureName(IntuitionFigure f) {
    return f == IntuitionFigure::LinearShift ? "linear-shift" : "binary-clock";
}
Result<IntuitionFigure> parseIntuitionFigure(std::string_view name) {
    if (name == "binary-clock") return IntuitionFigure::BinaryClock;
    if (name == "linear-shift") return IntuitionFigure::LinearShift;
    return Error{"figure must be binary-clock or linear-shift (got '" + std::string(name) + "')"};
}
std::string_view compareModeName(CompareMode m) {
    return m == CompareMode::RopeAB ? "rope-ab" : "all";
}
Result<CompareMode> parseCompareMode(std::string_view name) {
    if (name == "all") return CompareMode::AllEncodings;
    if (name == "rope-ab") return CompareMode::RopeAB;
    return Error{"mode must be all or rope-ab (got '" + std::string(name) + "')"};
}

// ---- Shared pieces
json sinusoidalParamsJson(const SinusoidalParams& p) {
    return {{"dModel", p.dModel},
            {"seqLen", p.seqLen},
            {"base", p.base},
            {"layout", layoutName(p.layout)}};
}
void readSinusoidalParams(Fields& f, SinusoidalParams& p) {
    f.integer("dModel", p.dModel);
    f.integer("seqLen", p.seqLen);
    f.number("base", p.base);
    f.name("layout", p.layout, parseLayout);
}

void readRopeParams(Fields& f, RopeParams& p) {
    f.integer("headDim", p.headDim);
    f.number("base", p.base);
    f.number("rotaryFraction", p.rotaryFraction);
    f.name("pairing", p.pairing, parsePairing);
    f.integer("seqLen", p.seqLen);
    f.integer("trainingLength", p.trainingLength);
    f.child("scaling", [&](Fields& g) {
        RopeScalingParams& s = p.scaling;
        g.name("type", s.type, parseScaling);
        g.number("factor", s.factor);
        g.integer("originalMaxPositions", s.originalMaxPositions);
        g.number("lowFreqFactor", s.lowFreqFactor);
        g.number("highFreqFactor", s.highFreqFactor);
        g.number("betaFast", s.betaFast);
        g.number("betaSlow", s.betaSlow);
        g.optionalNumber("attentionFactor", s.attentionFactor);
        g.optionalNumber("mscale", s.mscale);
        g.optionalNumber("mscaleAllDim", s.mscaleAllDim);
        g.boolean("truncate", s.truncate);
    });
}

void readSimilarityParams(Fields& f, SimilarityParams& p) {
    f.name("encoding", p.encoding, parseSimilarityEncoding);
    f.name("metric", p.metric, parseSimilarityMetric);
    f.integer("seqLen", p.seqLen);
    f.child("sinusoidal", [&](Fields& g) { readSinusoidalParams(g, p.sinusoidal); });
    f.child("learned", [&](Fields& g) {
        g.integer("dModel", p.learned.dModel);
        g.integer("seed", p.learned.seed);
        g.number("std", p.learned.std);
    });
    f.child("rope", [&](Fields& g) { readRopeParams(g, p.rope); });
    f.name("ropeVectors", p.ropeVectors, parseRopeVectors);
    f.integer("ropeSeed", p.ropeSeed);
}

json optionalJson(const std::optional<double>& v) {
    return v ? json(*v) : json(nullptr);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Per state struct
// ---------------------------------------------------------------------------------------------

json toJson(const RopeParams& p) {
    const RopeScalingParams& s = p.scaling;
    return {{"headDim", p.headDim},
            {"base", p.base},
            {"rotaryFraction", p.rotaryFraction},
            {"pairing", pairingName(p.pairing)},
            {"seqLen", p.seqLen},
            {"trainingLength", p.trainingLength},
            {"scaling",
             {{"type", scalingName(s.type)},
              {"factor", s.factor},
              {"originalMaxPositions", s.originalMaxPositions},
              {"lowFreqFactor", s.lowFreqFactor},
              {"highFreqFactor", s.highFreqFactor},
              {"betaFast", s.betaFast},
              {"betaSlow", s.betaSlow},
              {"attentionFactor", optionalJson(s.attentionFactor)},
              {"mscale", optionalJson(s.mscale)},
              {"mscaleAllDim", optionalJson(s.mscaleAllDim)},
              {"truncate", s.truncate}}}};
}

json toJson(const SimilarityParams& p) {
    return {{"encoding", similarityEncodingName(p.encoding)},
            {"metric", similarityMetricName(p.metric)},
            {"seqLen", p.seqLen},
            {"sinusoidal", sinusoidalParamsJson(p.sinusoidal)},
            {"learned",
             {{"dModel", p.learned.dModel}, {"seed", p.learned.seed}, {"std", p.learned.std}}},
            {"rope", toJson(p.rope)},
            {"ropeVectors", ropeVectorsName(p.ropeVectors)},
            {"ropeSeed", p.ropeSeed}};
}

json toJson(const SinusoidalViewState& v) {
    return {{"params", sinusoidalParamsJson(v.params)},
            {"colormap", colormapName(v.colormap)},
            {"window", windowJson(v.window)},
            {"markTrainingLength", v.markTrainingLength},
            {"trainingLength", v.trainingLength},
            {"firstCurveDimension", v.firstCurveDimension},
            {"curveCount", v.curveCount},
            {"curvePositions", v.curvePositions}};
}

void fromJson(const json& object, SinusoidalViewState& view, Warnings& warnings) {
    applyChecked(
        object, view, "sinusoidal", warnings,
        [](Fields& f, SinusoidalViewState& v) {
            f.child("params", [&](Fields& g) { readSinusoidalParams(g, v.params); });
            f.name("colormap", v.colormap, parseColormap);
            f.window("window", v.window);
            f.boolean("markTrainingLength", v.markTrainingLength);
            f.integer("trainingLength", v.trainingLength);
            f.integer("firstCurveDimension", v.firstCurveDimension);
            f.integer("curveCount", v.curveCount);
            f.integer("curvePositions", v.curvePositions);
        },
        [](const SinusoidalViewState& v) -> Status {
            // The view computes only its visible window: any table up to 2^20 x 8192 is fine.
            if (auto s = validateRanges(v.params); !s) return s;
            if (auto s = requireIntInRange("trainingLength", v.trainingLength, 1, kMaxSeqLen);
                !s)
                return s;
            if (auto s = requireIntInRange("curveCount", v.curveCount, 1, 8); !s) return s;
            if (auto s = requireIntInRange("curvePositions", v.curvePositions, 2, kMaxGuiSeqLen);
                !s)
                return s;
            return requireIntInRange("firstCurveDimension", v.firstCurveDimension, 0,
                                     v.params.dModel - 1);
        });
}

// The RoPE view: parameters, q/k source, positions and animation, figure settings. What the
// config.json loader reported is transient and not saved.
json toJson(const RopeViewState& v) {
    return {{"params", toJson(v.params)},
            {"figure", int(v.figure)},
            {"customVectors", v.vectors == RopeVectorSource::Custom},
            {"querySeed", v.querySeed},
            {"keySeed", v.keySeed},
            {"keyEqualsQuery", v.keyEqualsQuery},
            {"customQuery", v.customQuery},
            {"customKey", v.customKey},
            {"m", v.m},
            {"n", v.n},
            {"speed", v.speed},
            {"playMovesBoth", v.playMovesBoth},
            {"scrubTogether", v.scrubTogether},
            {"panels", v.panels},
            {"spreadPairs", v.spreadPairs},
            {"firstPair", v.firstPair},
            {"trail", v.trail},
            {"angleWindow", windowJson(v.angleWindow)},
            {"scoreWindow", windowJson(v.scoreWindow)},
            {"scoreColormap", colormapName(v.scoreColormap)},
            {"incompleteWithin", turnReferenceName(v.incompleteWithin)},
            {"decayDistance", v.decayDistance},
            {"configPath", v.configPath}};
}

void fromJson(const json& object, RopeViewState& view, Warnings& warnings) {
    applyChecked(
        object, view, "rope", warnings,
        [](Fields& f, RopeViewState& v) {
            f.child("params", [&](Fields& g) { readRopeParams(g, v.params); });
            int figure = int(v.figure);
            f.integer("figure", figure);
            v.figure = RopeFigureId(std::clamp(figure, 0, int(RopeFigureId::Decay)));
            bool custom = v.vectors == RopeVectorSource::Custom;
            f.boolean("customVectors", custom);
            v.vectors = custom ? RopeVectorSource::Custom : RopeVectorSource::Seeded;
            f.integer("querySeed", v.querySeed);
            f.integer("keySeed", v.keySeed);
            f.boolean("keyEqualsQuery", v.keyEqualsQuery);
            f.text("customQuery", v.customQuery);
            f.text("customKey", v.customKey);
            f.number("m", v.m);
            f.number("n", v.n);
            f.number("speed", v.speed);
            f.boolean("playMovesBoth", v.playMovesBoth);
            f.boolean("scrubTogether", v.scrubTogether);
            f.integer("panels", v.panels);
            f.boolean("spreadPairs", v.spreadPairs);
            f.integer("firstPair", v.firstPair);
            f.integer("trail", v.trail);
            f.window("angleWindow", v.angleWindow);
            f.window("scoreWindow", v.scoreWindow);
            f.name("scoreColormap", v.scoreColormap, parseColormap);
            f.name("incompleteWithin", v.incompleteWithin, parseTurnReference);
            f.integer("decayDistance", v.decayDistance);
            f.text("configPath", v.configPath);
        },
        [](const RopeViewState& v) -> Status {
            if (auto s = validate(v.params); !s) return s;
            if (auto s = requireInRange("m", v.m, 0, kMaxGuiSeqLen); !s) return s;
            if (auto s = requireInRange("n", v.n, 0, kMaxGuiSeqLen); !s) return s;
            if (auto s = requireInRange("speed", v.speed, 0, 1e4); !s) return s;
            if (auto s = requireIntInRange("panels", v.panels, 1, 256); !s) return s;
            if (auto s = requireIntInRange("firstPair", v.firstPair, 0, kMaxDModel); !s) return s;
            if (auto s = requireIntInRange("trail", v.trail, 0, 256); !s) return s;
            return requireIntInRange("decayDistance", v.decayDistance, 1, kMaxGuiSeqLen);
        });
}

json toJson(const AlibiViewState& v) {
    return {{"heads", v.heads},
            {"seqLen", v.seqLen},
            {"symmetric", v.symmetric},
            {"enlargedHead", v.enlargedHead},
            {"queryIndex", v.queryIndex},
            {"previewKeys", v.previewKeys},
            {"randomContent", v.randomContent},
            {"contentSeed", v.contentSeed},
            {"contentScale", v.contentScale},
            {"colormap", colormapName(v.colormap)}};
}

void fromJson(const json& object, AlibiViewState& view, Warnings& warnings) {
    applyChecked(
        object, view, "alibi", warnings,
        [](Fields& f, AlibiViewState& v) {
            f.integer("heads", v.heads);
            f.integer("seqLen", v.seqLen);
            f.boolean("symmetric", v.symmetric);
            f.integer("enlargedHead", v.enlargedHead);
            f.integer("queryIndex", v.queryIndex);
            f.integer("previewKeys", v.previewKeys);
            f.boolean("randomContent", v.randomContent);
            f.integer("contentSeed", v.contentSeed);
            f.number("contentScale", v.contentScale);
            f.name("colormap", v.colormap, parseColormap);
        },
        [](const AlibiViewState& v) -> Status {
            if (auto s = requireIntInRange("heads", v.heads, 1, 128); !s) return s;
            if (auto s = requireIntInRange("seqLen", v.seqLen, 1, kMaxGuiSeqLen); !s) return s;
            if (auto s = requireIntInRange("enlargedHead", v.enlargedHead, 0, v.heads - 1); !s)
                return s;
            if (auto s = requireIntInRange("queryIndex", v.queryIndex, 0, kMaxGuiSeqLen); !s)
                return s;
            if (auto s = requireIntInRange("previewKeys", v.previewKeys, 0, kMaxGuiSeqLen); !s)
                return s;
            return requireInRange("contentScale", v.contentScale, 0, 1e3);
        });
}

json toJson(const T5ViewState& v) {
    return {{"seqLen", v.seqLen},           {"numBuckets", v.numBuckets},
            {"maxDistance", v.maxDistance}, {"bidirectional", v.bidirectional},
            {"biasSeed", v.biasSeed},       {"bucketBiases", v.bucketBiases}};
}

void fromJson(const json& object, T5ViewState& view, Warnings& warnings) {
    applyChecked(
        object, view, "t5", warnings,
        [](Fields& f, T5ViewState& v) {
            f.integer("seqLen", v.seqLen);
            f.integer("numBuckets", v.numBuckets);
            f.integer("maxDistance", v.maxDistance);
            f.boolean("bidirectional", v.bidirectional);
            f.integer("biasSeed", v.biasSeed);
        },
        [](const T5ViewState& v) -> Status {
            T5Params params{v.seqLen, v.numBuckets, v.maxDistance, v.bidirectional};
            if (auto s = validate(params); !s) return s;
            return requireIntInRange("seqLen", v.seqLen, 1, kMaxGuiSeqLen);
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

json toJson(const LearnedViewState& v) {
    return {{"seqLen", v.seqLen},
            {"dModel", v.dModel},
            {"seed", v.seed},
            {"std", v.std},
            {"npyPath", v.npyPath},
            {"positionsShown", v.positionsShown},
            {"firstCurveDimension", v.firstCurveDimension},
            {"curveCount", v.curveCount},
            {"colormap", colormapName(v.colormap)}};
}

void fromJson(const json& object, LearnedViewState& view, Warnings& warnings) {
    // A loaded .npy table is not reloaded automatically: the path is restored for the Load button.
    applyChecked(
        object, view, "learned", warnings,
        [](Fields& f, LearnedViewState& v) {
            f.integer("seqLen", v.seqLen);
            f.integer("dModel", v.dModel);
            f.integer("seed", v.seed);
            f.number("std", v.std);
            f.text("npyPath", v.npyPath);
            f.integer("positionsShown", v.positionsShown);
            f.integer("firstCurveDimension", v.firstCurveDimension);
            f.integer("curveCount", v.curveCount);
            f.name("colormap", v.colormap, parseColormap);
        },
        [](const LearnedViewState& v) -> Status {
            LearnedParams params{v.seqLen, v.dModel, std::uint64_t(v.seed), v.std};
            if (auto s = validate(params); !s) return s;
            if (auto s = requireIntInRange("seqLen", v.seqLen, 1, kMaxGuiSeqLen); !s) return s;
            if (auto s = requireIntInRange("positionsShown", v.positionsShown, 1, kMaxGuiSeqLen);
                !s)
                return s;
            if (auto s = requireIntInRange("curveCount", v.curveCount, 1, 8); !s) return s;
            return requireIntInRange("firstCurveDimension", v.firstCurveDimension, 0, v.dModel - 1);
        });
}

json toJson(const SimilarityViewState& v) {
    return {{"params", toJson(v.params)},
            {"learnedTablePath", v.learnedTablePath},
            {"colormap", colormapName(v.colormap)},
            {"window", windowJson(v.window)},
            {"reference", v.reference},
            {"maxOffset", v.maxOffset},
            {"markTrainingLength", v.markTrainingLength},
            {"trainingLength", v.trainingLength}};
}

void fromJson(const json& object, SimilarityViewState& view, Warnings& warnings) {
    applyChecked(
        object, view, "similarity", warnings,
        [](Fields& f, SimilarityViewState& v) {
            f.child("params", [&](Fields& g) { readSimilarityParams(g, v.params); });
            f.text("learnedTablePath", v.learnedTablePath);
            f.name("colormap", v.colormap, parseColormap);
            f.window("window", v.window);
            f.integer("reference", v.reference);
            f.integer("maxOffset", v.maxOffset);
            f.boolean("markTrainingLength", v.markTrainingLength);
            f.integer("trainingLength", v.trainingLength);
        },
        [](const SimilarityViewState& v) -> Status {
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
            if (auto s = requireIntInRange("reference", v.reference, 0, kMaxGuiSeqLen); !s)
                return s;
            if (auto s = requireIntInRange("maxOffset", v.maxOffset, 0, kMaxGuiSeqLen); !s)
                return s;
            return requireIntInRange("trainingLength", v.trainingLength, 1, kMaxGuiSeqLen);
        });
}

json toJson(const MeaningViewState& v) {
    const MeaningParams& p = v.params;
    return {{"params",
             {{"dModel", p.dModel},
              {"seqLen", p.seqLen},
              {"positions", positionTableName(p.positions)},
              {"base", p.base},
              {"vocabulary", p.vocabulary},
              {"contentScale", p.contentScale},
              {"positionScale", p.positionScale},
              {"seed", p.seed}}},
            {"tokensPath", v.tokensPath},
            {"figure", meaningFigureName(v.figure)},
            {"orthogonalityDModel", v.orthogonalityDModel},
            {"orthogonalitySamples", v.orthogonalitySamples}};
}

void fromJson(const json& object, MeaningViewState& view, Warnings& warnings) {
    applyChecked(
        object, view, "meaning", warnings,
        [](Fields& f, MeaningViewState& v) {
            f.child("params", [&](Fields& g) {
                MeaningParams& p = v.params;
                g.integer("dModel", p.dModel);
                g.integer("seqLen", p.seqLen);
                g.name("positions", p.positions, parsePositionTable);
                g.number("base", p.base);
                g.integer("vocabulary", p.vocabulary);
                g.number("contentScale", p.contentScale);
                g.number("positionScale", p.positionScale);
                g.integer("seed", p.seed);
            });
            f.text("tokensPath", v.tokensPath);
            f.name("figure", v.figure, parseMeaningFigure);
            f.integer("orthogonalityDModel", v.orthogonalityDModel);
            f.integer("orthogonalitySamples", v.orthogonalitySamples);
        },
        [](const MeaningViewState& v) -> Status {
            MeaningParams p = v.params;
            p.tokens = nullptr;
            if (auto s = validate(p); !s) return s;
            if (auto s = requireIntInRange("orthogonalityDModel", v.orthogonalityDModel, 2, 8192);
                !s)
                return s;
            return requireIntInRange("orthogonalitySamples", v.orthogonalitySamples, 100, 200000);
        });
}

json toJson(const IntuitionViewState& v) {
    return {{"figure", intuitionFigureName(v.figure)},
            {"clock",
             {{"bits", v.clock.bits},
              {"positions", v.clock.positions},
              {"sinusoidal", sinusoidalParamsJson(v.clock.sinusoidal)}}},
            {"shift",
             {{"sinusoidal", sinusoidalParamsJson(v.shift.sinusoidal)},
              {"shift", v.shift.shift},
              {"position", v.shift.position},
              {"positions", v.shift.positions},
              {"shownDims", v.shift.shownDims}}}};
}

void fromJson(const json& object, IntuitionViewState& view, Warnings& warnings) {
    applyChecked(
        object, view, "intuition", warnings,
        [](Fields& f, IntuitionViewState& v) {
            f.name("figure", v.figure, parseIntuitionFigure);
            f.child("clock", [&](Fields& g) {
                g.integer("bits", v.clock.bits);
                g.integer("positions", v.clock.positions);
                g.child("sinusoidal",
                        [&](Fields& h) { readSinusoidalParams(h, v.clock.sinusoidal); });
            });
            f.child("shift", [&](Fields& g) {
                g.child("sinusoidal",
                        [&](Fields& h) { readSinusoidalParams(h, v.shift.sinusoidal); });
                g.number("shift", v.shift.shift);
                g.integer("position", v.shift.position);
                g.integer("positions", v.shift.positions);
                g.integer("shownDims", v.shift.shownDims);
            });
        },
        [](const IntuitionViewState& v) -> Status {
            if (auto s = requireIntInRange("clock.bits", v.clock.bits, 1, 12); !s) return s;
            if (auto s = requireIntInRange("clock.positions", v.clock.positions, 2, 4096); !s)
                return s;
            if (auto s = validate(v.clock.sinusoidal); !s) return s;
            if (auto s = validate(v.shift.sinusoidal); !s) return s;
            if (auto s = requireIntInRange("shift.dModel", v.shift.sinusoidal.dModel, 1, 512); !s)
                return s;
            if (auto s = requireInRange("shift.shift", v.shift.shift, -1e6, 1e6); !s) return s;
            if (auto s = requireIntInRange("shift.position", v.shift.position, 0, kMaxGuiSeqLen);
                !s)
                return s;
            if (auto s = requireIntInRange("shift.positions", v.shift.positions, 1, kMaxGuiSeqLen);
                !s)
                return s;
            return requireIntInRange("shift.shownDims", v.shift.shownDims, 2, 512);
        });
}

json toJson(const ExtrapolationViewState& v) {
    const ExtrapolationOptions& o = v.options;
    return {{"trainingLength", o.trainingLength},
            {"evaluationLength", o.evaluationLength},
            {"dModel", o.dModel},
            {"headDim", o.headDim},
            {"ropeBase", o.ropeBase},
            {"alibiHeads", o.alibiHeads},
            {"t5Buckets", o.t5Buckets},
            {"t5MaxDistance", o.t5MaxDistance}};
}

void fromJson(const json& object, ExtrapolationViewState& view, Warnings& warnings) {
    applyChecked(
        object, view, "extrapolation", warnings,
        [](Fields& f, ExtrapolationViewState& v) {
            ExtrapolationOptions& o = v.options;
            f.integer("trainingLength", o.trainingLength);
            f.integer("evaluationLength", o.evaluationLength);
            f.integer("dModel", o.dModel);
            f.integer("headDim", o.headDim);
            f.number("ropeBase", o.ropeBase);
            f.integer("alibiHeads", o.alibiHeads);
            f.integer("t5Buckets", o.t5Buckets);
            f.integer("t5MaxDistance", o.t5MaxDistance);
        },
        [](const ExtrapolationViewState& v) { return validate(v.options); });
}

json toJson(const CompareViewState& v) {
    const CompareOptions& o = v.options;
    auto side = [](const RopeSideState& s) {
        return json{{"useConfig", s.useConfig}, {"configPath", s.configPath}, {"base", s.base}};
    };
    return {{"mode", compareModeName(v.mode)},
            {"options",
             {{"dModel", o.dModel},
              {"seqLen", o.seqLen},
              {"base", o.base},
              {"alibiHeads", o.alibiHeads},
              {"t5Buckets", o.t5Buckets},
              {"t5MaxDistance", o.t5MaxDistance},
              {"seed", o.seed}}},
            {"a", side(v.a)},
            {"b", side(v.b)},
            {"headDim", v.headDim},
            {"trainingLength", v.trainingLength},
            {"maxOffset", v.maxOffset}};
}

void fromJson(const json& object, CompareViewState& view, Warnings& warnings) {
    applyChecked(
        object, view, "compare", warnings,
        [](Fields& f, CompareViewState& v) {
            f.name("mode", v.mode, parseCompareMode);
            f.child("options", [&](Fields& g) {
                CompareOptions& o = v.options;
                g.integer("dModel", o.dModel);
                g.integer("seqLen", o.seqLen);
                g.number("base", o.base);
                g.integer("alibiHeads", o.alibiHeads);
                g.integer("t5Buckets", o.t5Buckets);
                g.integer("t5MaxDistance", o.t5MaxDistance);
                g.integer("seed", o.seed);
            });
            auto side = [&](const char* key, RopeSideState& s) {
                f.child(key, [&](Fields& g) {
                    g.boolean("useConfig", s.useConfig);
                    g.text("configPath", s.configPath);
                    g.number("base", s.base);
                });
            };
            side("a", v.a);
            side("b", v.b);
            f.integer("headDim", v.headDim);
            f.integer("trainingLength", v.trainingLength);
            f.integer("maxOffset", v.maxOffset);
        },
        [](const CompareViewState& v) -> Status {
            if (auto s = validate(v.options); !s) return s;
            if (auto s = requireInRange("a.base", v.a.base, 1.0, 1e12, false); !s) return s;
            if (auto s = requireInRange("b.base", v.b.base, 1.0, 1e12, false); !s) return s;
            if (auto s = requireIntInRange("headDim", v.headDim, 2, 8192); !s) return s;
            if (v.headDim % 2 != 0)
                return Error{"headDim must be even (got " + std::to_string(v.headDim) + ")"};
            if (auto s =
                    requireIntInRange("trainingLength", v.trainingLength, 1, kMaxRopePositions);
                !s)
                return s;
            return requireIntInRange("maxOffset", v.maxOffset, 2, kMaxGuiSeqLen);
        });
}

// ---------------------------------------------------------------------------------------------
// Whole sessions
// ---------------------------------------------------------------------------------------------

json sessionToJson(const AppState& state, const SessionLayout& layout) {
    return {{"format", kSessionFormat},
            {"version", kSessionVersion},
            {"view", layout.view},
            {"window",
             {{"x", layout.windowX},
              {"y", layout.windowY},
              {"width", layout.windowWidth},
              {"height", layout.windowHeight},
              {"fullScreen", layout.fullScreen}}},
            {"theme", themeName(state.theme)},
            {"showControls", state.showControls},
            {"uiZoom", state.uiZoom},
            {"sinusoidal", toJson(state.sinusoidal)},
            {"similarity", toJson(state.similarity)},
            {"meaning", toJson(state.meaning)},
            {"intuition", toJson(state.intuition)},
            {"extrapolation", toJson(state.extrapolation)},
            {"compare", toJson(state.compare)},
            {"rope", toJson(state.rope)},
            {"alibi", toJson(state.alibi)},
            {"t5", toJson(state.t5)},
            {"learned", toJson(state.learned)}};
}

void applyStateJson(const json& object, AppState& state, Warnings& warnings) {
    if (!object.is_object()) {
        warnings.push_back("state: expected an object");
        return;
    }
    Fields top(object, "session", warnings);
    top.name("theme", state.theme, parseTheme);
    top.boolean("showControls", state.showControls);
    double zoom = state.uiZoom;
    top.number("uiZoom", zoom);
    if (zoom >= kMinUiZoom && zoom <= kMaxUiZoom) {
        state.uiZoom = float(zoom);
    } else {
        warnings.push_back("session.uiZoom: must be 0.5..3 (got " + formatValue(zoom, 6) +
                           "); kept " + formatValue(state.uiZoom, 6));
    }
    auto apply = [&](const char* key, auto& view) {
        auto it = object.find(key);
        if (it != object.end()) fromJson(*it, view, warnings);
    };
    apply("sinusoidal", state.sinusoidal);
    apply("similarity", state.similarity);
    apply("meaning", state.meaning);
    apply("intuition", state.intuition);
    apply("extrapolation", state.extrapolation);
    apply("compare", state.compare);
    apply("rope", state.rope);
    apply("alibi", state.alibi);
    apply("t5", state.t5);
    apply("learned", state.learned);
}

Status applySessionJson(const json& object, AppState& state, SessionLayout& layout,
                        Warnings& warnings) {
    if (!object.is_object()) return Error{"not a PosLab session (expected a JSON object)"};
    auto format = object.find("format");
    if (format == object.end() || !format->is_string() ||
        format->get<std::string>() != kSessionFormat) {
        return Error{"not a PosLab session (\"format\" must be \"" + std::string(kSessionFormat) +
                     "\")"};
    }
    auto version = object.find("version");
    if (version != object.end() && version->is_number_integer()) {
        const bool newer = version->is_number_unsigned()
                               ? version->get<std::uint64_t>() > std::uint64_t(kSessionVersion)
                               : version->get<std::int64_t>() > kSessionVersion;
        if (newer) {
            warnings.push_back("session: written by a newer PosLab (version " + version->dump() +
                               "); settings it added are ignored");
        }
    }
    Fields top(object, "session", warnings);
    top.text("view", layout.view);
    top.child("window", [&](Fields& w) {
        w.integer("x", layout.windowX);
        w.integer("y", layout.windowY);
        w.integer("width", layout.windowWidth);
        w.integer("height", layout.windowHeight);
        w.boolean("fullScreen", layout.fullScreen);
    });
    applyStateJson(object, state, warnings);
    return success();
}

Status saveSessionFile(const std::string& path, const AppState& state,
                       const SessionLayout& layout) {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) {
        std::error_code ignored;
        std::filesystem::create_directories(parent, ignored);  // ~/.config/poslab on first use
    }
    const std::string text = sessionToJson(state, layout).dump(2) + "\n";
    return writeFileAtomically(path, [&](std::FILE* file) -> Status {
        if (std::fwrite(text.data(), 1, text.size(), file) != text.size())
            return Error{"write failed"};
        return success();
    });
}

Status readSessionText(std::string_view text, AppState& state, SessionLayout& layout,
                       Warnings& warnings) {
    if (text.size() > kMaxSessionBytes) return Error{"too large for a session file"};
    const json object = json::parse(text, nullptr, false);
    if (object.is_discarded()) return Error{"not valid JSON"};
    return applySessionJson(object, state, layout, warnings);
}

Status loadSessionFile(const std::string& path, AppState& state, SessionLayout& layout,
                       Warnings& warnings) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot open"};
    // Read in chunks up to the cap: a huge file or a device that never ends is refused.
    std::string text;
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        text.append(chunk, std::size_t(in.gcount()));
        if (text.size() > kMaxSessionBytes) return Error{path + ": too large for a session file"};
    }
    if (auto s = readSessionText(text, state, layout, warnings); !s)
        return Error{path + ": " + s.error().message};
    return success();
}

std::string rememberedSessionPath() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg == '/') {
        return std::string(xdg) + "/poslab/session.json";
    }
    if (const char* home = std::getenv("HOME"); home && *home) {
        return std::string(home) + "/.config/poslab/session.json";
    }
    return "";
}

}  // namespace poslab::ui
