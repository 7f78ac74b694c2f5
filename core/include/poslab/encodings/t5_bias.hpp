// t5_bias.hpp — T5's bucketed relative position bias (Raffel et al. 2020), as in Hugging Face.
//
// T5 learns one scalar per head for each of num_buckets buckets of relative position
// rp = key - query and adds it to the attention logit. t5RelativePositionBucket() is
// T5Attention._relative_position_bucket from transformers' modeling_t5.py (itself Mesh
// TensorFlow's):
//
//   bidirectional (encoder)  n = num_buckets // 2; rp > 0 adds n; d = |rp|
//   unidirectional (decoder) n = num_buckets; d = max(-rp, 0): every future key shares bucket 0
//   max_exact = n // 2; d < max_exact is its own bucket, else
//   bucket = min(max_exact + int(log(d / max_exact) / log(max_distance / max_exact)
//                                * (n - max_exact)), n - 1)
//
// torch evaluates the logarithmic branch in float32: d / max_exact and its log are float32, the
// Python-double log(max_distance / max_exact) is rounded to float32 before the division, and
// .to(long) truncates toward zero. This file does the same float32 steps, taking each log as
// the correctly rounded float32 value. That matters exactly on bucket edges: with 32 buckets and
// max_distance 128 (bidirectional: n = 16, max_exact = 8) distances 16, 32 and 64 give
// log(2)/log(16)*8, log(4)/log(16)*8 and log(8)/log(16)*8, which in float32 are exactly
// 2, 4 and 6 (float32 log(2^k) is k * float32(log 2) for k = 1..4, so the quotients are exact):
// buckets 10, 12, 14 (26, 28, 30 for keys after the query). Plain float64 arithmetic agrees
// there but not everywhere: with 40 buckets and max_distance 320, distance 20 is exactly 2 in
// float32 (bucket 12) and 1.9999999999999998 in float64 (bucket 11).
//
// Where an exact tie's logs are not multiples of log 2, float32 lands within an ulp of the
// integer and the answer depends on the log implementation: 17 decoder buckets, max_distance 27,
// d = 18 is exactly 6 in real numbers (27/8 = 1.5^3, 18/8 = 1.5^2); correctly rounded float32
// logs give 5.9999995 (bucket 13), numpy's SIMD float32 log gives 6.0 (bucket 14). torch's
// log (Sleef, 1 ulp) may go either way. The released T5 models' settings (32 buckets,
// max_distance 128, either mode) have no such case: their only ties are d = 16, 32, 64 above.
#pragma once

#include <cstdint>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

inline constexpr int kMaxT5Buckets = 1024;

struct T5Params {
    int seqLen = 64;            // rows and columns, 1..kMaxSeqLen
    int numBuckets = 32;        // relative_attention_num_buckets: 2..1024 (4.. when bidirectional)
    int maxDistance = 128;      // relative_attention_max_distance: > max_exact, <= kMaxSeqLen
    bool bidirectional = true;  // encoder (true) or decoder self-attention (false)
    friend bool operator==(const T5Params&, const T5Params&) = default;  // member-wise: caches key on it
};

// ---- Buckets
// HF's bucket for relativePosition = key - query. Precondition: validate() accepts numBuckets
// and maxDistance (otherwise the result is 0 or the last bucket, never undefined behaviour).
int t5RelativePositionBucket(int relativePosition, bool bidirectional, int numBuckets,
                             int maxDistance);
int t5MaxExact(const T5Params& params);  // distances below this get one bucket each

// ---- Validation and matrices
Status validate(const T5Params& params);                // ranges and memory cap
Result<Matrix> t5BucketMatrix(const T5Params& params);  // L x L, [i][j] = bucket(j - i)
// L x L, [i][j] = bucketBiases[bucket(j - i)]; bucketBiases needs numBuckets finite values.
Result<Matrix> t5BiasMatrix(const T5Params& params, const std::vector<double>& bucketBiases);

// numBuckets standard normal values, a stand-in for one head's trained relative_attention_bias
// column (seeded as random.hpp's NormalSampler, so the same seed gives the same values).
std::vector<double> seededBucketBiases(int numBuckets, std::uint64_t seed);

// ---- Bucket edges, for hover text and edge charts
// The relative positions (key - query) one bucket covers: minDistance..maxDistance, inclusive.
// A bucket reaching to -infinity (the farthest past bucket) or +infinity (the farthest future
// bucket; in unidirectional mode bucket 0, which holds 0 and every future key) sets the flag;
// its value on that side is then INT_MIN or INT_MAX.
struct BucketRange {
    int bucket = 0;
    int minDistance = 0;        // smallest relative position in the bucket
    int maxDistance = 0;        // largest relative position in the bucket
    bool minUnbounded = false;  // extends to -infinity
    bool maxUnbounded = false;  // extends to +infinity
};
// Non-empty buckets in increasing bucket order. Buckets nobody reaches are left out: bucket
// num_buckets // 2 in bidirectional mode (a key after the query has |rp| >= 1), the last one when
// bidirectional numBuckets is odd, and log buckets that the rounding skips when there are more
// buckets than distances. Empty for invalid params.
std::vector<BucketRange> t5BucketRanges(const T5Params& params);

}  // namespace poslab
