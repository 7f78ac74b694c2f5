#include "poslab/views/relative_family.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "poslab/base/limits.hpp"
#include "poslab/base/phase_grid.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/encodings/alibi.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/views/relative_oscillators.hpp"
#include "poslab/views/rope_figures.hpp"

namespace poslab {

namespace {

constexpr double kMaskedCell = -std::numeric_limits<double>::infinity();

// Everything a member's curve needs that does not depend on the distance, computed once.
struct MemberCurve {
    const RelativeFigureOptions* options = nullptr;
    FamilyMember member = FamilyMember::Alibi;
    double slope = 0;
    std::vector<double> t5Biases;
    FireMlp mlp;
    double fireQuery = 0;
    double ropeAtZero = 1;

    MemberCurve(const RelativeFigureOptions& o, FamilyMember m) : options(&o), member(m) {
        if (m == FamilyMember::Alibi) {
            const auto slopes = alibiSlopes(o.alibiHeads);
            if (o.alibiHead >= 0 && std::size_t(o.alibiHead) < slopes.size())
                slope = slopes[std::size_t(o.alibiHead)];
        } else if (m == FamilyMember::T5) {
            t5Biases = seededBucketBiases(o.t5.numBuckets, o.t5Seed);
        } else if (m == FamilyMember::Fire) {
            mlp = seededFireMlp(o.fire.mlpWidth, o.fire.heads, o.fire.seed);
            fireQuery = double(o.seqLen - 1);
        } else if (m == FamilyMember::Rope) {
            ropeAtZero = ropeDecayBoundAt(o.xpos.headDim, o.xpos.base, 0);
        }
    }
    // The raw value at distance r (not yet shifted to 0 at r = 0).
    double raw(double r) const {
        const RelativeFigureOptions& o = *options;
        switch (member) {
            case FamilyMember::Alibi:
                return -slope * r;
            case FamilyMember::T5: {
                const int bucket = t5RelativePositionBucket(-int(r), o.t5.bidirectional,
                                                            o.t5.numBuckets, o.t5.maxDistance);
                return t5Biases.empty() ? 0 : t5Biases[std::size_t(bucket)];
            }
            case FamilyMember::KerplePower:
                return kerpleBias(o.kerplePower, r);
            case FamilyMember::KerpleLog:
                return kerpleBias(o.kerpleLog, r);
            case FamilyMember::Sandwich:
                return sandwichBias(o.sandwich, r);
            case FamilyMember::Fire: {
                const long long query = std::max<long long>((long long)fireQuery, (long long)r);
                return fireMlpOutput(mlp, o.fire.head,
                                     firePhi(o.fire, query, query - (long long)r));
            }
            case FamilyMember::Xpos:
                return std::log(xposDecay(o.xpos, r));
            case FamilyMember::Rope:
                return std::log(ropeDecayBoundAt(o.xpos.headDim, o.xpos.base, r) / ropeAtZero);
        }
        return 0;
    }
    double shifted(double r) const { return raw(r) - raw(0); }
};

// A curve cut where it first falls below `floor`: the crossing point is kept, the rest is left
// out (a non-finite y breaks the line), so nothing is drawn outside the axes.
void cutBelow(LineSeries& series, double floor) {
    for (std::size_t k = 0; k < series.y.size(); ++k) {
        if (series.y[k] >= floor || !std::isfinite(series.y[k])) continue;
        if (k > 0 && std::isfinite(series.y[k - 1]) && series.y[k - 1] > floor) {
            const double t = (series.y[k - 1] - floor) / (series.y[k - 1] - series.y[k]);
            series.x[k] = series.x[k - 1] + t * (series.x[k] - series.x[k - 1]);
            series.y[k] = floor;
            ++k;
        }
        series.x.resize(std::min(k, series.x.size()));
        series.y.resize(series.x.size());
        return;
    }
}

}  // namespace

std::string familyMemberName(FamilyMember member) {
    switch (member) {
        case FamilyMember::Alibi:
            return "ALiBi";
        case FamilyMember::T5:
            return "T5";
        case FamilyMember::KerplePower:
            return "KERPLE power";
        case FamilyMember::KerpleLog:
            return "KERPLE log";
        case FamilyMember::Sandwich:
            return "Sandwich";
        case FamilyMember::Fire:
            return "FIRE";
        case FamilyMember::Xpos:
            return "xPos decay";
        case FamilyMember::Rope:
            return "RoPE bound";
    }
    return "";
}

Status validate(const RelativeFigureOptions& o) {
    if (auto s = requireIntInRange("seq_len", o.seqLen, 2, kMaxSeqLen); !s) return s;
    if (auto s = requireIntInRange("training_length", o.trainingLength, 1, kMaxSeqLen); !s)
        return s;
    if (auto s = requireInRange("bias_floor", o.biasFloor, -1e6, -0.1); !s) return s;
    if (auto s = validate(o.xpos); !s) return s;
    if (auto s = validate(o.kerplePower); !s) return s;
    if (auto s = validate(o.kerpleLog); !s) return s;
    if (auto s = validate(o.sandwich); !s) return s;
    if (auto s = validate(o.fire); !s) return s;
    if (auto s = requireIntInRange("alibi_heads", o.alibiHeads, 1, kMaxAlibiHeads); !s) return s;
    if (auto s = requireIntInRange("alibi_head", o.alibiHead, 0, o.alibiHeads - 1); !s) return s;
    T5Params shape = o.t5;
    shape.seqLen = 1;
    return validate(shape);
}

double familyValue(const RelativeFigureOptions& options, FamilyMember member, double distance) {
    return MemberCurve(options, member).shifted(distance);
}

std::vector<double> familyDistances(int maxDistance, int columns, bool logarithmic) {
    std::vector<double> out;
    if (maxDistance < 1) return {0};
    const long long budget = 2LL * std::max(columns, 1);
    if (logarithmic) {
        const double top = std::log(double(maxDistance));
        for (long long s = 0; s <= budget; ++s) {
            const double d = std::round(std::exp(top * double(s) / double(budget)));
            if (out.empty() || d > out.back()) out.push_back(d);
        }
        return out;
    }
    const long long step = std::max<long long>(1, (maxDistance + budget - 1) / budget);
    for (long long d = 0; d <= maxDistance; d += step) out.push_back(double(d));
    if (out.back() != double(maxDistance)) out.push_back(double(maxDistance));
    return out;
}

std::vector<double> toeplitzByOffset(const RelativeFigureOptions& options, FamilyMember member,
                                     int length) {
    std::vector<double> byOffset(std::size_t(2 * std::max(length, 1) - 1), kMaskedCell);
    const std::size_t zero = std::size_t(length - 1);
    if (member == FamilyMember::Sandwich) {
        const auto curve = sandwichBiasByDistance(options.sandwich, length);
        for (int r = 0; r < length; ++r) byOffset[zero - std::size_t(r)] = curve[std::size_t(r)];
        return byOffset;
    }
    if (member == FamilyMember::Xpos || member == FamilyMember::Rope) {
        // q . k for q = k = ones: sum_i 2 zeta_i^(r/sb) cos(r theta_i) (RoPE: zeta = 1). The
        // cosines come from the phase grid; the scales by multiplying by zeta_i^(1/sb) each
        // step, restarted from pow() every 64 distances (relative error below 1e-13). O(L d)
        // cheap operations: L = 65,536 stays live.
        const XposParams& p = options.xpos;
        const std::vector<double> theta = xposThetas(p);
        const std::vector<double> zeta =
            member == FamilyMember::Xpos ? xposZeta(p) : std::vector<double>(theta.size(), 1.0);
        std::vector<double> step(zeta.size()), scale(zeta.size(), 1.0);
        for (std::size_t i = 0; i < zeta.size(); ++i)
            step[i] = std::pow(zeta[i], 1.0 / p.scaleBase);
        forEachGridPhase(theta, 0, 1, length,
                         [&](long long r, const double* cosines, const double*) {
                             if (r % 64 == 0) {
                                 for (std::size_t i = 0; i < zeta.size(); ++i)
                                     scale[i] = std::pow(zeta[i], double(r) / p.scaleBase);
                             }
                             double total = 0;
                             for (std::size_t i = 0; i < zeta.size(); ++i) {
                                 total += 2.0 * scale[i] * cosines[i];
                                 scale[i] *= step[i];
                             }
                             byOffset[zero - std::size_t(r)] = total;
                         });
        return byOffset;
    }
    const MemberCurve curve(options, member);
    for (int r = 0; r < length; ++r) byOffset[zero - std::size_t(r)] = curve.raw(r);
    return byOffset;
}

std::vector<double> toeplitzAtDistances(const RelativeFigureOptions& options, FamilyMember member,
                                        const std::vector<double>& distances) {
    switch (member) {
        case FamilyMember::Sandwich:
            return oscillatorValues(sandwichOscillators(options.sandwich), distances);
        case FamilyMember::Xpos:
            return oscillatorValues(xposOnesOscillators(options.xpos), distances);
        case FamilyMember::Rope:
            return oscillatorValues(ropeOnesOscillators(options.xpos), distances);
        default:
            break;
    }
    const MemberCurve curve(options, member);
    std::vector<double> values;
    values.reserve(distances.size());
    for (double r : distances) values.push_back(curve.raw(r));
    return values;
}

namespace {

// A member's raw values (not yet shifted to 0 at r = 0) at `distances`: the rotary members
// through their oscillator sums (one complex multiply per pair where the spacing repeats), the
// others one by one.
std::vector<double> memberValues(const RelativeFigureOptions& o, FamilyMember member,
                                 const std::vector<double>& distances) {
    if (member == FamilyMember::Sandwich)
        return oscillatorValues(sandwichOscillators(o.sandwich), distances);
    if (member == FamilyMember::Xpos) {
        std::vector<double> values = oscillatorValues(xposDecayOscillators(o.xpos), distances);
        for (double& v : values) v = std::log(v);
        return values;
    }
    const MemberCurve curve(o, member);
    std::vector<double> values;
    values.reserve(distances.size());
    for (double r : distances) values.push_back(curve.raw(r));
    return values;
}

std::vector<LineSeries> familySeries(const RelativeFigureOptions& o, int columns,
                                     std::vector<FamilyCurveMemo>* memo) {
    const int reach = o.seqLen - 1;
    std::vector<double> distances;
    std::vector<LineSeries> out;
    for (int k = 0; k < kFamilyMembers; ++k) {
        const FamilyMember member = kFamilyMemberList[std::size_t(k)];
        const RelativeFigureOptions key = memberOptions(o, member);
        FamilyCurveMemo* kept = nullptr;
        if (memo) {
            for (auto& c : *memo) {
                if (c.member == k && c.columns == columns && c.logarithmic == o.logDistance &&
                    c.key == key)
                    kept = &c;
            }
        }
        LineSeries s;
        if (kept) {
            s = kept->series;
        } else {
            if (distances.empty()) {
                distances = familyDistances(reach, columns, o.logDistance);
                if (o.logDistance) std::erase_if(distances, [](double r) { return r < 1; });
            }
            s.name = familyMemberName(member);
            const double zero = MemberCurve(o, member).raw(0);
            s.x = distances;
            s.y = memberValues(o, member, distances);
            for (double& y : s.y) y -= zero;
            s.color = seriesColor(k);
            if (memo) {
                std::erase_if(*memo, [&](const auto& c) { return c.member == k; });
                memo->push_back({key, k, columns, o.logDistance, s});
            }
        }
        cutBelow(s, o.biasFloor);
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace

RelativeFigureOptions memberOptions(const RelativeFigureOptions& o, FamilyMember member) {
    RelativeFigureOptions p;
    p.seqLen = o.seqLen;
    switch (member) {
        case FamilyMember::Alibi:
            p.alibiHeads = o.alibiHeads;
            p.alibiHead = o.alibiHead;
            break;
        case FamilyMember::T5:
            p.t5 = o.t5;
            p.t5Seed = o.t5Seed;
            break;
        case FamilyMember::KerplePower:
            p.kerplePower = o.kerplePower;
            break;
        case FamilyMember::KerpleLog:
            p.kerpleLog = o.kerpleLog;
            break;
        case FamilyMember::Sandwich:
            p.sandwich = o.sandwich;
            break;
        case FamilyMember::Fire:
            p.fire = o.fire;
            break;
        case FamilyMember::Xpos:
        case FamilyMember::Rope:
            p.xpos = o.xpos;
            break;
    }
    return p;
}

namespace {

// Eight samples per column (familyDistances(reach, 4 columns): evenly spaced), then the min/max
// envelope: RoPE's oscillation draws as a band. Coarse: two a column, a quarter of the work.
std::vector<double> curveDistances(int reach, int columns, Detail detail = Detail::Exact) {
    return familyDistances(reach, detail == Detail::Coarse ? columns : columns * 4, false);
}

LineSeries sampled(const std::string& name, int reach, int columns, int index,
                   const std::vector<double>& distances, const std::vector<double>& values) {
    LineSeries s;
    s.name = name;
    s.color = seriesColor(index);
    envelope(distances, values, 0, reach, columns, s.x, s.y);
    return s;
}

LineSeries sampled(const std::string& name, int reach, int columns, int index,
                   const std::function<double(double)>& value, Detail detail) {
    const std::vector<double> distances = curveDistances(reach, columns, detail);
    std::vector<double> values;
    values.reserve(distances.size());
    for (double r : distances) values.push_back(value(r));
    return sampled(name, reach, columns, index, distances, values);
}

// A tab curve's raw values that the slider being dragged does not change (RoPE's beside xPos's
// gamma, Sandwich's kernel beside its head), kept in the memo under an id past the members.
enum KeptCurve { kRopeOnesCurve = 100, kSandwichKernelCurve = 101 };
template <class Compute>
std::vector<double> keptValues(std::vector<FamilyCurveMemo>* memo, int id,
                               const RelativeFigureOptions& key, const std::vector<double>& at,
                               Compute compute) {
    if (memo) {
        for (const FamilyCurveMemo& c : *memo)
            if (c.member == id && c.key == key && c.series.x == at) return c.series.y;
    }
    std::vector<double> values = compute();
    if (memo) {
        std::erase_if(*memo, [&](const FamilyCurveMemo& c) { return c.member == id; });
        LineSeries kept;
        kept.x = at;
        kept.y = values;
        memo->push_back({key, id, 0, false, std::move(kept)});
    }
    return values;
}

}  // namespace

std::vector<LineSeries> relativeTabCurves(const RelativeFigureOptions& o, RelativeTab tab,
                                          int columns, std::vector<FamilyCurveMemo>* memo,
                                          Detail detail) {
    std::vector<LineSeries> series;
    const int reach = std::max(1, o.seqLen - 1);
    columns = std::max(1, columns);
    switch (tab) {
        case RelativeTab::Family:
            return familySeries(o, columns, memo);
        case RelativeTab::Xpos: {
            const XposParams& p = o.xpos;
            const std::vector<double> at = curveDistances(reach, columns, detail);
            RelativeFigureOptions ropeKey;  // RoPE's curve: head_dim, base and length only
            ropeKey.seqLen = o.seqLen;
            ropeKey.xpos.headDim = p.headDim;
            ropeKey.xpos.base = p.base;
            series.push_back(sampled("RoPE", reach, columns, 1, at,
                                     keptValues(memo, kRopeOnesCurve, ropeKey, at, [&] {
                                         return oscillatorValues(ropeOnesOscillators(p), at);
                                     })));
            series.push_back(sampled("xPos", reach, columns, 0, at,
                                     oscillatorValues(xposOnesOscillators(p), at)));
            std::vector<double> envelopeValues = oscillatorValues(xposDecayOscillators(p), at);
            for (double& v : envelopeValues) v *= p.headDim;
            series.push_back(sampled("envelope $d·\\mathrm{mean}$ $ζ^{r/sb}$", reach, columns, 2,
                                     at, envelopeValues));
            break;
        }
        case RelativeTab::Kerple:
            series.push_back(sampled(
                "power", reach, columns, 2, [&](double r) { return kerpleBias(o.kerplePower, r); },
                detail));
            series.push_back(sampled(
                "log", reach, columns, 3, [&](double r) { return kerpleBias(o.kerpleLog, r); },
                detail));
            break;
        case RelativeTab::Sandwich: {
            const SandwichParams& p = o.sandwich;
            const int step = std::max(1, p.heads / 8);
            // The kernel is the same for every head; only the compression 8h/H differs.
            SandwichParams first = p;
            first.head = 0;
            const std::vector<double> at = curveDistances(reach, columns, detail);
            RelativeFigureOptions kernelKey;  // the kernel: width and length only
            kernelKey.seqLen = o.seqLen;
            kernelKey.sandwich.headDim = p.headDim;
            kernelKey.sandwich.heads = p.heads;
            const std::vector<double> kernel =
                keptValues(memo, kSandwichKernelCurve, kernelKey, at,
                           [&] { return oscillatorValues(sandwichOscillators(first), at); });
            for (int h = 0; h < p.heads; h += step) {
                SandwichParams head = p;
                head.head = h;
                const double ratio = sandwichCompression(first) / sandwichCompression(head);
                std::vector<double> values = kernel;
                for (double& v : values) v *= ratio;
                LineSeries s =
                    sampled("head " + formatValue(h), reach, columns, h / step, at, values);
                if (h == p.head) s.width = 3.2f;
                series.push_back(std::move(s));
            }
            break;
        }
        case RelativeTab::Fire: {
            // Queries before L all divide by ψ(L), so each one's curve lies on the next one's up
            // to its end (length 1024: query 255 on 511's, hidden under it). The later curve's
            // key says so and, where its points are at most 2 pixels apart, it is dashed
            // (dashSeries: about 7 pixels on, 5 off) so that the one under it shows through.
            const double unitsPerPixel = double(reach) / columns;
            int index = 0, previous = -1;
            for (int query : {reach / 4, reach / 2, reach}) {
                LineSeries s;
                s.name = "query i = " + formatValue(query);
                s.color = seriesColor(index++);
                const bool onThePrevious = previous >= 0 && query <= o.fire.threshold;
                const bool dashed = onThePrevious && unitsPerPixel >= 0.5;
                if (onThePrevious)
                    s.name += std::string(dashed ? " (dashed; " : " (") + formatValue(previous) +
                              "'s curve is part of it)";
                for (double r : familyDistances(query, columns, false)) {
                    s.x.push_back(r);
                    s.y.push_back(firePhi(o.fire, query, query - (long long)r));
                }
                if (dashed) dashSeries(s, 1 / unitsPerPixel);
                series.push_back(std::move(s));
                previous = query;
            }
            break;
        }
    }
    return series;
}

}  // namespace poslab
