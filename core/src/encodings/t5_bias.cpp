#include "poslab/encodings/t5_bias.hpp"

#include <climits>
#include <cmath>
#include <string>

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/encodings/learned.hpp"

namespace poslab {

namespace {

// Bucket of a distance d >= 0 among `buckets` buckets (one direction's share): HF's code after
// the sign handling. The log branch is float32 as in torch; see the file comment in the header.
int distanceBucket(long long distance, int buckets, int maxDistance) {
    const int maxExact = buckets / 2;
    if (maxExact < 1) return 0;  // invalid parameters: validate() refuses them
    if (distance < maxExact) return int(distance);
    const int last = buckets - 1;
    if (maxDistance <= maxExact) return last;  // invalid: the log ratio would be <= 0
    // math.log(max_distance / max_exact) is a Python double; torch rounds it to float32 when it
    // divides the float32 tensor by it.
    const float denominator = float(std::log(double(maxDistance) / double(maxExact)));
    const float ratio = float(distance) / float(maxExact);  // relative_position.float() / max_exact
    // torch.log of a float32 tensor. Taking the double log and rounding it gives the correctly
    // rounded float32 value on every standard library (std::log(float) differs between them).
    const float logRatio = float(std::log(double(ratio)));
    const float scaled = logRatio / denominator * float(buckets - maxExact);
    // min(max_exact + trunc(scaled), last), comparing before converting so a huge value never
    // overflows the int: trunc(scaled) >= k exactly when scaled >= k for an integer k.
    if (!(scaled < float(last - maxExact))) return last;
    return maxExact + int(scaled);  // .to(torch.long): truncation toward zero (scaled >= 0)
}

// Buckets per direction: half of them each way when bidirectional.
int directionBuckets(bool bidirectional, int numBuckets) {
    return bidirectional ? numBuckets / 2 : numBuckets;
}

}  // namespace

int t5RelativePositionBucket(int relativePosition, bool bidirectional, int numBuckets,
                             int maxDistance) {
    const long long position = relativePosition;  // |INT_MIN| does not fit an int
    const int buckets = directionBuckets(bidirectional, numBuckets);
    if (bidirectional) {
        const int offset = position > 0 ? buckets : 0;  // keys after the query use the upper half
        return offset + distanceBucket(position < 0 ? -position : position, buckets, maxDistance);
    }
    // Decoder: -min(rp, 0), so every key after the query lands in bucket 0 with rp = 0.
    return distanceBucket(position < 0 ? -position : 0, buckets, maxDistance);
}

int t5MaxExact(const T5Params& params) {
    return directionBuckets(params.bidirectional, params.numBuckets) / 2;
}

Status validate(const T5Params& params) {
    if (auto s = requireIntInRange("seq_len", params.seqLen, 1, kMaxSeqLen); !s) return s;
    // Each direction needs max_exact = buckets / 2 >= 1, or the log branch divides by zero.
    const int minBuckets = params.bidirectional ? 4 : 2;
    if (params.numBuckets < minBuckets || params.numBuckets > kMaxT5Buckets) {
        return Error{"num_buckets must be " + std::to_string(minBuckets) + ".." +
                     std::to_string(kMaxT5Buckets) +
                     (params.bidirectional ? " when bidirectional" : "") + " (got " +
                     std::to_string(params.numBuckets) + ")"};
    }
    if (auto s = requireIntInRange("max_distance", params.maxDistance, t5MaxExact(params) + 1,
                                   kMaxSeqLen);
        !s) {
        return s;
    }
    return checkMatrixSize(std::size_t(params.seqLen), std::size_t(params.seqLen),
                           "the T5 bucket matrix");
}

namespace {

// An L x L matrix whose entry [i][j] is valueOf(bucket(j - i)). The bucket depends on j - i
// only, so the 2L - 1 distinct buckets are computed once.
template <class ValueOf>
Matrix fillByRelativePosition(const T5Params& params, ValueOf valueOf) {
    const int length = params.seqLen;
    std::vector<double> byOffset(std::size_t(2 * length - 1));
    for (int offset = 0; offset < 2 * length - 1; ++offset) {
        const int bucket = t5RelativePositionBucket(offset - (length - 1), params.bidirectional,
                                                    params.numBuckets, params.maxDistance);
        byOffset[std::size_t(offset)] = valueOf(bucket);
    }
    Matrix matrix(static_cast<std::size_t>(length), static_cast<std::size_t>(length));
    for (int i = 0; i < length; ++i) {
        // Row i, column j reads offset j - i + L - 1, so the row is a contiguous slice.
        const double* source = byOffset.data() + (length - 1 - i);
        double* row = matrix.row(std::size_t(i));
        for (int j = 0; j < length; ++j) row[j] = source[j];
    }
    return matrix;
}

}  // namespace

Result<Matrix> t5BucketMatrix(const T5Params& params) {
    if (auto status = validate(params); !status) return status.error();
    return fillByRelativePosition(params, [](int bucket) { return double(bucket); });
}

Result<Matrix> t5BiasMatrix(const T5Params& params, const std::vector<double>& bucketBiases) {
    if (auto status = validate(params); !status) return status.error();
    if (bucketBiases.size() != std::size_t(params.numBuckets)) {
        return Error{"bucket biases must have num_buckets = " + std::to_string(params.numBuckets) +
                     " values (got " + std::to_string(bucketBiases.size()) + ")"};
    }
    for (std::size_t b = 0; b < bucketBiases.size(); ++b) {
        if (!std::isfinite(bucketBiases[b])) {
            return Error{"bucket bias " + std::to_string(b) + " must be a finite number (got " +
                         formatNumber(bucketBiases[b]) + ")"};
        }
    }
    return fillByRelativePosition(params,
                                  [&](int bucket) { return bucketBiases[std::size_t(bucket)]; });
}

std::vector<double> seededBucketBiases(int numBuckets, std::uint64_t seed) {
    std::vector<double> biases;
    if (numBuckets <= 0) return biases;
    NormalSampler sampler(seed);
    biases.reserve(std::size_t(numBuckets));
    for (int b = 0; b < numBuckets; ++b) biases.push_back(sampler.next());
    return biases;
}

std::vector<BucketRange> t5BucketRanges(const T5Params& params) {
    std::vector<BucketRange> ranges;
    T5Params checked = params;
    checked.seqLen = 1;  // the ranges do not depend on the length; skip its memory check
    if (!validate(checked)) return ranges;

    const int buckets = directionBuckets(params.bidirectional, params.numBuckets);
    const int last = buckets - 1;
    auto bucketOf = [&](long long d) { return distanceBucket(d, buckets, params.maxDistance); };

    // distanceBucket is non-decreasing in d (log, a positive division and a positive product
    // are monotone in float32 too), so each bucket is one interval of distances. Find the
    // distance where the last bucket starts, then the first distance of every bucket by binary
    // search.
    long long far = params.maxDistance;
    // At most once or twice (d = max_distance is ~last); capped so that no parameter set can
    // double past the long long range.
    for (int doubling = 0; doubling < 40 && bucketOf(far) < last; ++doubling) far *= 2;
    auto firstDistanceOf = [&](int bucket) {  // smallest d with bucketOf(d) >= bucket
        long long low = 0, high = far;
        while (low < high) {
            const long long middle = low + (high - low) / 2;
            if (bucketOf(middle) >= bucket) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return low;
    };
    std::vector<long long> first(std::size_t(buckets) + 1);
    for (int b = 0; b < buckets; ++b) first[std::size_t(b)] = firstDistanceOf(b);
    first[std::size_t(buckets)] = LLONG_MAX;  // sentinel: the last bucket never ends

    // One range per non-empty distance bucket: `sign` -1 for keys before the query (rp = -d),
    // +1 for keys after it (rp = +d), with bucket numbers shifted by `offset`.
    auto addSide = [&](int sign, int offset, int firstBucket) {
        for (int b = firstBucket; b < buckets; ++b) {
            const long long low = first[std::size_t(b)];
            const long long high = first[std::size_t(b) + 1] - 1;  // the next bucket's start - 1
            if (high < low || bucketOf(low) != b) continue;        // skipped by the rounding
            BucketRange range;
            range.bucket = offset + b;
            if (sign < 0) {
                range.maxDistance = int(-low);
                range.minUnbounded = b == last;
                range.minDistance = b == last ? INT_MIN : int(-high);
            } else {
                range.minDistance = int(low);
                range.maxUnbounded = b == last;
                range.maxDistance = b == last ? INT_MAX : int(high);
            }
            ranges.push_back(range);
        }
    };
    if (params.bidirectional) {
        addSide(-1, 0, 0);        // rp <= 0: buckets 0 .. n-1 (bucket 0 is rp = 0 alone)
        addSide(+1, buckets, 1);  // rp >= 1: buckets n+1 .. 2n-1 (n + 0 is never used)
    } else {
        addSide(-1, 0, 0);
        // Bucket 0 holds rp = 0 and, through -min(rp, 0), every key after the query.
        ranges.front().maxDistance = INT_MAX;
        ranges.front().maxUnbounded = true;
    }
    return ranges;
}

}  // namespace poslab
