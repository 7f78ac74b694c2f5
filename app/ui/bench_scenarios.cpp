#include "ui/bench_scenarios.hpp"

#include "state/contextual_state.hpp"
#include "state/relative_state.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "poslab/analysis/frequency_resolution.hpp"
#include "poslab/analysis/intuition.hpp"
#include "poslab/analysis/table_structure.hpp"
#include "poslab/analysis/toy_attention.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/encodings/alibi.hpp"
#include "poslab/encodings/t5_bias.hpp"
#include "state/ranges.hpp"

namespace poslab::ui {

namespace {

// The Relative view is a plug-in: its state lives in AppState::plugins.
state::RelativeViewState& relativeState(state::AppState& s) {
    return s.plugins.get<state::RelativeViewState>(state::kRelativeKey);
}
state::ContextualViewState& contextualState(state::AppState& s) {  // the Context view's, likewise
    return s.plugins.get<state::ContextualViewState>(state::kContextualKey);
}

// The sliders' upper ends that live in the panels' own files (learned_panel.cpp,
// rope_panel.cpp, …): repeated here, checked by the scenarios' printed settings.
constexpr int kGuiRopeHeadDim = 512;  // RoPE view: head_dim slider
constexpr int kGuiRopePrecisionPositions = 1 << 18;
constexpr int kGuiLearnedTableLength = 16384;
constexpr int kGuiLearnedDModel = 2048;
constexpr int kGuiWideDModel = 1024;  // the understanding views' head_dim / d_model sliders
constexpr int kGuiT5Buckets = 256;    // Compare and Extrapolation
constexpr int kGuiT5MaxDistance = 4096;

// A value swept back and forth between low and high over `period` frames (a slider dragged).
double sweep(int frame, double low, double high, int period = 100) {
    const int phase = frame % (2 * period);
    const double t = double(phase < period ? phase : 2 * period - phase) / period;
    return low + (high - low) * t;
}
int sweepInt(int frame, int low, int high, int period = 100) {
    return int(std::lround(sweep(frame, low, high, period)));
}
// A base or factor dragged on a log slider: x1.01 per frame, back after 200 frames.
double logSweep(int frame, double start) {
    return start * std::pow(1.01, frame % 200);
}

int orDefault(int given, int fallback) {
    return given > 0 ? given : fallback;
}

void ropeAtMost(state::AppState& s, state::RopeFigureId figure, const BenchSizes& sizes) {
    s.rope.figure = figure;
    s.rope.params.headDim = orDefault(sizes.dModel, kGuiRopeHeadDim);
    s.rope.params.headDim += s.rope.params.headDim % 2;
    s.rope.params.seqLen = orDefault(sizes.seqLen, state::kRopeContextRange.high);
    s.rope.params.trainingLength = state::kRopeTrainingRange.high / 2;
}

// clang-format off
const std::array kBenchScenarios = {
    // ---- Sinusoidal
    BenchScenario{"slider", "Sinusoidal", "base slider (d 1024, L 4096: the README's reference)",
        [](state::AppState& s, const BenchSizes& z) {
            s.sinusoidal.params.dModel = orDefault(z.dModel, 1024);
            s.sinusoidal.params.seqLen = orDefault(z.seqLen, 4096);
        },
        [](state::AppState& s, int f) { s.sinusoidal.params.base = logSweep(f, 10000); }},
    BenchScenario{"pan-zoom", "Sinusoidal", "heatmap zoom and pan",
        [](state::AppState& s, const BenchSizes& z) {
            s.sinusoidal.params.dModel = orDefault(z.dModel, 4096);
            s.sinusoidal.params.seqLen = orDefault(z.seqLen, kMaxSeqLen);
        },
        [](state::AppState& s, int f) {
            panZoomStep(s.sinusoidal.window, f, s.sinusoidal.params.seqLen,
                        s.sinusoidal.params.dModel);
        }},
    BenchScenario{"sinusoidal-max", "Sinusoidal", "base slider, 8 curves of 65536 positions",
        [](state::AppState& s, const BenchSizes& z) {
            s.sinusoidal.params.dModel = orDefault(z.dModel, kMaxDModel);
            s.sinusoidal.params.seqLen = orDefault(z.seqLen, kMaxSeqLen);
            s.sinusoidal.curveCount = state::kCurveCountRange.high;
            s.sinusoidal.curvePositions = orDefault(z.seqLen, 65536);
            s.sinusoidal.markTrainingLength = true;
            s.sinusoidal.trainingLength = s.sinusoidal.params.seqLen / 2;
        },
        [](state::AppState& s, int f) { s.sinusoidal.params.base = logSweep(f, 10000); }},
    // ---- RoPE: one per tab
    BenchScenario{"rope-rotation", "RoPE", "positions playing (m, n advance)",
        [](state::AppState& s, const BenchSizes& z) {
            ropeAtMost(s, state::RopeFigureId::Rotation, z);
            s.rope.panels = 64;
            s.rope.trail = state::kRopeTrailRange.high;
        },
        [](state::AppState& s, int f) { s.rope.m = 6 + 0.25 * f; s.rope.n = 2 + 0.25 * f; }},
    BenchScenario{"rope-pan-zoom", "RoPE", "angle heatmap zoom and pan (head_dim 4096)",
        [](state::AppState& s, const BenchSizes& z) {
            ropeAtMost(s, state::RopeFigureId::Angles, {z.seqLen, orDefault(z.dModel, 4096)});
        },
        [](state::AppState& s, int f) {
            panZoomStep(s.rope.angleWindow, f, s.rope.params.seqLen, s.rope.params.headDim / 2);
        }},
    BenchScenario{"rope-scores", "RoPE", "score heatmap zoom and pan",
        [](state::AppState& s, const BenchSizes& z) { ropeAtMost(s, state::RopeFigureId::Scores, z); },
        [](state::AppState& s, int f) {
            panZoomStep(s.rope.scoreWindow, f, s.rope.params.seqLen, s.rope.params.seqLen);
        }},
    BenchScenario{"rope-frequencies", "RoPE", "base slider",
        [](state::AppState& s, const BenchSizes& z) { ropeAtMost(s, state::RopeFigureId::Frequencies, z); },
        [](state::AppState& s, int f) { s.rope.params.base = logSweep(f, 10000); }},
    BenchScenario{"rope-decay", "RoPE", "base slider, distances to 2^20 on a log axis",
        [](state::AppState& s, const BenchSizes& z) {
            ropeAtMost(s, state::RopeFigureId::Decay, z);
            s.rope.decayDistance = state::kRopeDecayDistanceRange.high;
            s.rope.decayLogAxis = true;
        },
        [](state::AppState& s, int f) { s.rope.params.base = logSweep(f, 10000); }},
    BenchScenario{"rope-precision", "RoPE", "base slider, 2^18 positions scanned",
        [](state::AppState& s, const BenchSizes& z) {
            ropeAtMost(s, state::RopeFigureId::Precision, z);
            s.rope.precisionPositions = kGuiRopePrecisionPositions;
        },
        [](state::AppState& s, int f) { s.rope.params.base = logSweep(f, 10000); }},
    BenchScenario{"rope-layers", "RoPE", "base slider",
        [](state::AppState& s, const BenchSizes& z) { ropeAtMost(s, state::RopeFigureId::Layers, z); },
        [](state::AppState& s, int f) { s.rope.params.base = logSweep(f, 10000); }},
    BenchScenario{"rope-scalings", "RoPE", "factor slider, dynamic NTK at 2^24",
        [](state::AppState& s, const BenchSizes& z) {
            ropeAtMost(s, state::RopeFigureId::Scalings, z);
            s.rope.scalings.dynamicSeqLen = state::kRopeScalingsSeqLenRange.high;
        },
        [](state::AppState& s, int f) {
            s.rope.scalings.factor = sweep(f, state::kRopeScalingsFactorRange.low + 1,
                                           state::kRopeScalingsFactorRange.high);
        }},
    // ---- Vision RoPE
    BenchScenario{"vision-mrope", "Vision RoPE", "rope_theta slider (head_dim 1024, merge 1)",
        [](state::AppState& s, const BenchSizes& z) {
            s.visionRope.figure = state::VisionRopeFigureId::Multimodal;
            s.visionRope.mrope.headDim = orDefault(z.dModel, kGuiWideDModel);
            const int half = s.visionRope.mrope.headDim / 2;
            s.visionRope.mrope.section = {half / 4, half * 3 / 8, half - half / 4 - half * 3 / 8};
            s.visionRope.mrope.spatialMergeSize = state::kMropeMergeRange.low;
        },
        [](state::AppState& s, int f) { s.visionRope.mrope.base = logSweep(f, 1e6); }},
    BenchScenario{"vision-axial", "Vision RoPE", "query patch moving over a 64 x 64 grid",
        [](state::AppState& s, const BenchSizes& z) {
            s.visionRope.figure = state::VisionRopeFigureId::Axial;
            s.visionRope.axial.headDim = orDefault(z.dModel, state::kAxialHeadDimRange.high);
            s.visionRope.axial.headDim -= s.visionRope.axial.headDim % 4;
            s.visionRope.axial.gridWidth = s.visionRope.axial.gridHeight =
                state::kAxialGridSideRange.high;
        },
        [](state::AppState& s, int f) {
            s.visionRope.axial.queryX = sweepInt(f, 0, state::kAxialGridSideRange.high - 1);
            s.visionRope.axial.queryY = sweepInt(f, 0, state::kAxialGridSideRange.high - 1, 37);
        }},
    // ---- Bias views
    BenchScenario{"alibi", "ALiBi", "query row slider (128 heads, L 65536)",
        [](state::AppState& s, const BenchSizes& z) {
            auto& alibi = s.plugins.get<state::AlibiViewState>(state::kAlibiKey);
            alibi.heads = kMaxAlibiHeads;
            alibi.seqLen = orDefault(z.seqLen, kMaxGuiSeqLen);
            alibi.randomContent = true;
        },
        [](state::AppState& s, int f) {
            auto& alibi = s.plugins.get<state::AlibiViewState>(state::kAlibiKey);
            alibi.queryIndex = sweepInt(f, 0, alibi.seqLen - 1);
        }},
    BenchScenario{"t5", "T5", "max_distance slider (1024 buckets, L 65536)",
        [](state::AppState& s, const BenchSizes& z) {
            s.t5.seqLen = orDefault(z.seqLen, kMaxGuiSeqLen);
            s.t5.numBuckets = kMaxT5Buckets;
        },
        [](state::AppState& s, int f) { s.t5.maxDistance = sweepInt(f, 600, kMaxGuiSeqLen); }},
    BenchScenario{"learned-table", "Learned", "positions-shown slider (16384 x 2048 table)",
        [](state::AppState& s, const BenchSizes& z) {
            s.learned.tab = state::LearnedTab::Table;
            s.learned.seqLen = orDefault(z.seqLen, kGuiLearnedTableLength);
            s.learned.dModel = orDefault(z.dModel, kGuiLearnedDModel);
            s.learned.curveCount = state::kCurveCountRange.high;
        },
        [](state::AppState& s, int f) {
            s.learned.positionsShown = sweepInt(f, 64, 2 * s.learned.seqLen);
        }},
    BenchScenario{"learned-structure", "Learned", "3-D trajectory turning (16384 x 2048 table)",
        [](state::AppState& s, const BenchSizes& z) {
            s.learned.tab = state::LearnedTab::Structure;
            s.learned.seqLen = orDefault(z.seqLen, kGuiLearnedTableLength);
            s.learned.dModel = orDefault(z.dModel, kGuiLearnedDModel);
            s.learned.structureComponents = kMaxStructureComponents;
            s.learned.structureTrajectory = TrajectoryStyle::Rotatable;
        },
        [](state::AppState& s, int f) {
            s.learned.structureYaw = std::remainder(30.0 + 2.0 * f, 360.0);
        }},
    // ---- Relative (the family figure at L = 65,536; every frame rebuilds one member)
    BenchScenario{"relative-slider", "Relative", "KERPLE r1 slider, family at L 65536",
        [](state::AppState& s, const BenchSizes& z) {
            relativeState(s).options.seqLen = orDefault(z.seqLen, 65536);
        },
        [](state::AppState& s, int f) {
            relativeState(s).options.kerpleLog.r1 = 1.0 + 0.01 * (f % 200);
        }},
    // One per tab, each dragging that tab's own slider at L = 65,536 (issue #25: every matrix view
    // live at that length).
    BenchScenario{"relative-xpos", "Relative", "xPos gamma slider, L 65536",
        [](state::AppState& s, const BenchSizes& z) {
            relativeState(s).tab = RelativeTab::Xpos;
            relativeState(s).options.seqLen = orDefault(z.seqLen, 65536);
            relativeState(s).options.xpos.headDim = orDefault(z.dModel, 512);  // the slider's top
        },
        [](state::AppState& s, int f) { relativeState(s).options.xpos.gamma = sweep(f, 0.1, 4.0); }},
    BenchScenario{"relative-kerple", "Relative", "KERPLE power r2 slider, L 65536",
        [](state::AppState& s, const BenchSizes& z) {
            relativeState(s).tab = RelativeTab::Kerple;
            relativeState(s).options.seqLen = orDefault(z.seqLen, 65536);
        },
        [](state::AppState& s, int f) { relativeState(s).options.kerplePower.r2 = sweep(f, 0.05, 3.0); }},
    BenchScenario{"relative-sandwich", "Relative", "Sandwich head slider, L 65536",
        [](state::AppState& s, const BenchSizes& z) {
            relativeState(s).tab = RelativeTab::Sandwich;
            relativeState(s).options.seqLen = orDefault(z.seqLen, 65536);
            relativeState(s).options.sandwich.headDim = orDefault(z.dModel, 1024);
            relativeState(s).options.sandwich.heads = kMaxSandwichHeads;
        },
        [](state::AppState& s, int f) {
            relativeState(s).options.sandwich.head = sweepInt(f, 0, kMaxSandwichHeads - 1);
        }},
    BenchScenario{"relative-fire", "Relative", "FIRE c slider, L 65536",
        [](state::AppState& s, const BenchSizes& z) {
            relativeState(s).tab = RelativeTab::Fire;
            relativeState(s).options.seqLen = orDefault(z.seqLen, 65536);
            relativeState(s).options.fire.mlpWidth = 256;  // the slider's top
            relativeState(s).options.fire.heads = kMaxFireHeads;
        },
        [](state::AppState& s, int f) { relativeState(s).options.fire.c = logSweep(f, 0.01); }},  // to 0.07
    // The Context view (a plug-in): one per tab, each at its sliders' tops.
    BenchScenario{"context-cope", "Context", "CoPE W_q/W_k seed slider (d_model at its top)",
        [](state::AppState& s, const BenchSizes&) {
            contextualState(s).tab = state::ContextualTab::Cope;
            contextualState(s).cope.dModel = state::kCopeDModel.high;
            contextualState(s).cope.npos = state::kCopeNpos.high;
        },
        [](state::AppState& s, int f) { contextualState(s).cope.seed = std::uint64_t(f % 100); }},
    BenchScenario{"context-deberta", "Context", "DeBERTa position_buckets slider, L 65536",
        [](state::AppState& s, const BenchSizes& z) {
            contextualState(s).tab = state::ContextualTab::Deberta;
            DebertaParams& p = contextualState(s).deberta;
            p.seqLen = orDefault(z.seqLen, state::kDebertaSeqLen.high);
            p.maxRelativePositions = state::kDebertaMaxPosition.high;
            p.headDim = orDefault(z.dModel, state::kDebertaHeadDim.high);
        },
        [](state::AppState& s, int f) {
            contextualState(s).deberta.positionBuckets = 2 * sweepInt(f, 8, state::kDebertaBuckets.high / 2);
        }},
    BenchScenario{"context-nope", "Context", "NoPE & iRoPE attn_scale slider, L 65536",
        [](state::AppState& s, const BenchSizes& z) {
            contextualState(s).tab = state::ContextualTab::Nope;
            contextualState(s).nope.seqLen = orDefault(z.seqLen, state::kNopeSeqLen.high);
            contextualState(s).nope.irope.numLayers = state::kIropeLayers.high;
        },
        [](state::AppState& s, int f) { contextualState(s).nope.temperature.attnScale = sweep(f, 0.01, 1.0); }},
    BenchScenario{"context-randomized", "Context", "randomized positions seed slider (N 65536, L 4096)",
        [](state::AppState& s, const BenchSizes& z) {
            contextualState(s).tab = state::ContextualTab::Randomized;
            RandomizedPositionsParams& p = contextualState(s).randomized;
            p.maxLength = orDefault(z.seqLen, state::kRandomizedRange.high);
            p.length = int(std::min<long long>(p.maxLength, state::kRandomizedLength.high));
            p.draws = state::kRandomizedDraws.high;
        },
        [](state::AppState& s, int f) { contextualState(s).randomized.seed = std::uint64_t(f % 100); }},
    // ---- Understanding views
    BenchScenario{"similarity-rope", "Similarity", "heatmap zoom and pan (RoPE, L 65536)",
        [](state::AppState& s, const BenchSizes& z) {
            s.similarity.params.encoding = SimilarityEncoding::Rope;
            s.similarity.params.seqLen = orDefault(z.seqLen, kMaxGuiSeqLen);
            s.similarity.params.rope.headDim = orDefault(z.dModel, kGuiWideDModel);
        },
        [](state::AppState& s, int f) {
            const int n = s.similarity.params.seqLen;
            panZoomStep(s.similarity.window, f, n, n);
        }},
    BenchScenario{"similarity-learned", "Similarity", "heatmap zoom and pan (learned Gram)",
        [](state::AppState& s, const BenchSizes& z) {
            s.similarity.params.encoding = SimilarityEncoding::Learned;
            s.similarity.params.seqLen = orDefault(z.seqLen, kMaxGuiLearnedSimilarity);
            s.similarity.params.learned.dModel = orDefault(z.dModel, kGuiWideDModel);
        },
        [](state::AppState& s, int f) {
            const int n = s.similarity.params.seqLen;
            panZoomStep(s.similarity.window, f, n, n);
        }},
    BenchScenario{"meaning-terms", "Meaning", "content scale slider (d 2048, 256 tokens)",
        [](state::AppState& s, const BenchSizes& z) {
            s.meaning.figure = state::MeaningFigure::Terms;
            s.meaning.params.dModel = orDefault(z.dModel, 2048);
            s.meaning.params.seqLen = std::min(orDefault(z.seqLen, 256), 256);
            s.meaning.params.vocabulary = 1000;
        },
        [](state::AppState& s, int f) { s.meaning.params.contentScale = sweep(f, 0.1, 4); }},
    BenchScenario{"meaning-orthogonality", "Meaning", "seed slider (d 8192, 200000 samples)",
        [](state::AppState& s, const BenchSizes& z) {
            s.meaning.figure = state::MeaningFigure::Orthogonality;
            s.meaning.orthogonalityDModel = orDefault(z.dModel, state::kOrthogonalityDModelRange.high);
            s.meaning.orthogonalitySamples = orDefault(z.seqLen, 200000);
        },
        [](state::AppState& s, int f) { s.meaning.params.seed = std::uint64_t(1 + f % 1000); }},
    BenchScenario{"meaning-add-vs-concat", "Meaning", "content scale slider (d 2048, 256 tokens)",
        [](state::AppState& s, const BenchSizes& z) {
            s.meaning.figure = state::MeaningFigure::AddVersusConcat;
            s.meaning.params.dModel = orDefault(z.dModel, 2048);
            s.meaning.params.seqLen = std::min(orDefault(z.seqLen, 256), 256);
        },
        [](state::AppState& s, int f) { s.meaning.params.contentScale = sweep(f, 0.1, 4); }},
    BenchScenario{"intuition-binary-clock", "Intuitions", "base slider (12 bits, 4096 positions)",
        [](state::AppState& s, const BenchSizes& z) {
            s.intuition.figure = state::IntuitionFigure::BinaryClock;
            s.intuition.clock.bits = state::kClockBitsRange.high;
            s.intuition.clock.positions = state::kClockPositionsRange.high;
            s.intuition.clock.sinusoidal.dModel = orDefault(z.dModel, kGuiWideDModel);
        },
        [](state::AppState& s, int f) { s.intuition.clock.sinusoidal.base = logSweep(f, 10000); }},
    BenchScenario{"intuition-linear-shift", "Intuitions", "shift k slider (d 512, 65536 checked)",
        [](state::AppState& s, const BenchSizes& z) {
            s.intuition.figure = state::IntuitionFigure::LinearShift;
            s.intuition.shift.sinusoidal.dModel = orDefault(z.dModel, kMaxSineOnlyDModel);
            s.intuition.shift.positions = 65536;
            s.intuition.shift.position = 4096;
            s.intuition.shift.shownDims = 64;
        },
        [](state::AppState& s, int f) { s.intuition.shift.shift = sweep(f, 1, 500); }},
    BenchScenario{"intuition-attention-shuffle", "Intuitions", "base slider (RoPE, d 64)",
        [](state::AppState& s, const BenchSizes&) {
            s.intuition.figure = state::IntuitionFigure::AttentionShuffle;
            s.intuition.attention.position = ToyPosition::Rope;
            s.intuition.attention.dModel = kMaxToyDModel;
        },
        [](state::AppState& s, int f) { s.intuition.attention.base = logSweep(f, 10000); }},
    BenchScenario{"intuition-frequency-resolution", "Intuitions",
        "shared pair slider (d 1024, 65536 positions)",
        [](state::AppState& s, const BenchSizes& z) {
            s.intuition.figure = state::IntuitionFigure::FrequencyResolution;
            s.intuition.frequencies.dModel = orDefault(z.dModel, kMaxResolutionDModel);
            s.intuition.frequencies.positions = orDefault(z.seqLen, kMaxResolutionPositions);
        },
        [](state::AppState& s, int f) {
            s.intuition.frequencies.sharedPair =
                sweepInt(f, 0, s.intuition.frequencies.dModel / 2 - 1);
        }},
    BenchScenario{"extrapolation", "Extrapolation", "used-length slider (every size at its top)",
        [](state::AppState& s, const BenchSizes& z) {
            ExtrapolationOptions& o = s.extrapolation.options;
            o.trainingLength = orDefault(z.seqLen, 65536);
            o.evaluationLength = 4 * o.trainingLength;
            o.dModel = o.headDim = orDefault(z.dModel, kGuiWideDModel);
            o.alibiHeads = kMaxAlibiHeads;
            o.t5Buckets = kGuiT5Buckets;
            o.t5MaxDistance = kGuiT5MaxDistance;
        },
        [](state::AppState& s, int f) {
            const int training = s.extrapolation.options.trainingLength;
            s.extrapolation.options.evaluationLength = sweepInt(f, training + 1, 4 * training);
        }},
    BenchScenario{"compare-all", "Compare", "base slider (every encoding at its top)",
        [](state::AppState& s, const BenchSizes& z) {
            s.compare.mode = state::CompareMode::AllEncodings;
            CompareOptions& o = s.compare.options;
            o.dModel = orDefault(z.dModel, kGuiWideDModel);
            o.seqLen = std::min(orDefault(z.seqLen, 2048), 2048);
            o.alibiHeads = kMaxAlibiHeads;
            o.t5Buckets = kGuiT5Buckets;
            o.t5MaxDistance = kGuiT5MaxDistance;
        },
        [](state::AppState& s, int f) { s.compare.options.base = logSweep(f, 10000); }},
    BenchScenario{"compare-rope-ab", "Compare", "B's base slider (head_dim 1024, 65536 offsets)",
        [](state::AppState& s, const BenchSizes& z) {
            s.compare.mode = state::CompareMode::RopeAB;
            s.compare.headDim = orDefault(z.dModel, kGuiWideDModel);
            s.compare.trainingLength = 1 << 20;
            s.compare.maxOffset = std::min(orDefault(z.seqLen, 65536), 65536);
        },
        [](state::AppState& s, int f) { s.compare.b.base = logSweep(f, 500000); }},
};
// clang-format on

}  // namespace

std::span<const BenchScenario> benchScenarios() {
    return kBenchScenarios;
}

const BenchScenario* findBenchScenario(std::string_view name) {
    for (const BenchScenario& scenario : kBenchScenarios) {
        if (name == scenario.name) return &scenario;
    }
    return nullptr;
}

std::string benchScenarioNames() {
    std::string names;
    for (const BenchScenario& scenario : kBenchScenarios) {
        if (!names.empty()) names += ", ";
        names += scenario.name;
    }
    return names;
}

std::vector<std::string> benchScenarioList(std::string_view value) {
    std::vector<std::string> names;
    std::size_t start = 0;
    for (std::size_t comma = value.find(',');; comma = value.find(',', start)) {
        names.emplace_back(
            value.substr(start, comma == std::string_view::npos ? comma : comma - start));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return names;
}

void panZoomStep(CellWindow& window, int frame, long long rows, long long cols) {
    if (window.rowCount == 0) window = {0, rows, 0, cols};
    const int phase = frame % 150;
    auto zoom = [&](double rowFactor, double colFactor) {
        const double centreRow = window.firstRow + window.rowCount / 2.0;
        const double centreCol = window.firstCol + window.colCount / 2.0;
        window.rowCount =
            std::clamp<long long>(std::llround(window.rowCount * rowFactor), 16, rows);
        window.colCount = std::clamp<long long>(std::llround(window.colCount * colFactor), 8, cols);
        window.firstRow = std::llround(centreRow - window.rowCount / 2.0);
        window.firstCol = std::llround(centreCol - window.colCount / 2.0);
    };
    if (phase < 50) {
        zoom(0.8, 0.9);
    } else if (phase < 100) {
        const long long direction = (phase / 25) % 2 == 0 ? 1 : -1;
        window.firstRow += direction * std::max<long long>(1, window.rowCount / 20);
        window.firstCol += direction * std::max<long long>(1, window.colCount / 40);
    } else {
        zoom(1.25, 1.0 / 0.9);
    }
    window = clampWindow(window, rows, cols);
}

}  // namespace poslab::ui
