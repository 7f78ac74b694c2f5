// deberta.hpp — DeBERTa's disentangled attention (He et al. 2020) as Hugging Face computes it
// (transformers/models/deberta_v2/modeling_deberta_v2.py: make_log_bucket_position,
// build_relative_position, DisentangledSelfAttention.disentangled_attention_bias).
//
// Relative position of query i and key j: delta = i - j (query minus key). With position_buckets
// (bucket_size) > 0 it is bucketed by make_log_bucket_position:
//   mid = bucket_size // 2;  |delta| <= mid keeps delta (the identity);  beyond,
//   bucket = sign(delta) (ceil(log(|delta| / mid) / log((max_position - 1) / mid) (mid - 1)) + mid)
// torch evaluates that in float32: |delta| / mid is a float32 division, torch.log is float32,
// torch.tensor((max_position - 1) / mid) rounds Python's double to float32 before its log, the
// product with mid - 1, the ceil and the + mid are float32. This file does the same steps, taking
// each log as the correctly rounded float32 value (as t5_bias.hpp does). That decides the knife
// edges, where the value before ceil is an integer in real numbers: with bucket_size 128 and
// max_position 81 (mid 64, (81 - 1)/64 = 1.25), delta 125 gives 125/64 = 1.25^3, so the value is
// exactly 3 * 63 = 189 and real arithmetic says bucket 64 + 189 = 253; float32 gives 189.00002
// and bucket 254. Where the real value is a whisker above an integer float32 can also land on it
// (bucket_size 16, max_position 763, delta 1461: 8.0000009 in reals, 8 in float32: bucket 16).
// Buckets are odd-symmetric (bucket(-d) = -bucket(d)) and grow without bound past max_position;
// the gathers below clamp the index.
//
// Scores (one head, head width d, content q_i, k_j; relative embeddings projected to Kr, Qr, 2k
// rows with k = att_span = position_buckets if > 0 else max_relative_positions):
//   c2c_ij = q_i . k_j / sqrt(d s)                                   s = 1 + [c2p] + [p2c]
//   c2p_ij = q_i . Kr[clamp(delta(i, j) + k, 0, 2k - 1)] / sqrt(d s)
//   p2c_ij = k_j . Qr[clamp(-delta(j, i) + k, 0, 2k - 1)] / sqrt(d s)
// The p2c index is the code's: it builds delta(j, i), negates it, gathers and transposes. Since
// buckets are odd-symmetric, -delta(j, i) = delta(i, j): p2c reads Qr at the SAME index c2p reads
// Kr. The paper's equation uses delta(j, i) (the key's view) instead: clamp(j - i + k).
// Here Kr and Qr rows, q and k are seeded N(0, 1) stand-ins for the trained projections.
#pragma once

#include <cstdint>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

inline constexpr int kMaxDebertaBuckets = 1 << 16;  // position_buckets: 0 (none) or 2..65536
inline constexpr int kMaxDebertaHeadDim = 256;

// ---- Parameters (defaults: microsoft/deberta-v3-base)
struct DebertaParams {
    int seqLen = 512;                // queries and keys, 1..kMaxSeqLen
    int positionBuckets = 256;       // bucket_size; 0: no buckets (delta clamped by the gather)
    int maxRelativePositions = 512;  // max_position: > position_buckets / 2 + 1
    int headDim = 64;                // d, 1..256
    bool c2p = true, p2c = true;     // pos_att_type "p2c|c2p"
    std::uint64_t seed = 0;          // q, k, Kr, Qr
    friend bool operator==(const DebertaParams&,
                           const DebertaParams&) = default;  // member-wise: caches key on it
};
Status validate(const DebertaParams& params);  // ranges only (not the L x L memory)

// ---- Buckets and indices
// make_log_bucket_position for one relative position (float32 as torch; see above).
// Precondition: bucketSize >= 2 and maxPosition > bucketSize / 2 + 1.
long long debertaLogBucket(long long relativePosition, int bucketSize, int maxPosition);
// build_relative_position's entry for query i, key j: the bucket of i - j, or i - j itself.
long long debertaRelativePosition(long long query, long long key, const DebertaParams& params);
int debertaAttSpan(const DebertaParams& params);      // k: rows of Kr and Qr are 2k
int debertaScaleFactor(const DebertaParams& params);  // s = 1 + [c2p] + [p2c]
int debertaC2pIndex(long long query, long long key, const DebertaParams& params);
int debertaP2cIndex(long long query, long long key, const DebertaParams& params);  // the code's
int debertaPaperP2cIndex(long long query, long long key, const DebertaParams& params);

// ---- Seeded vectors (row `index` of a stream, N(0, 1), random access: a view samples rows)
enum class DebertaStream { Query, Key, PositionKey, PositionQuery };
std::vector<double> debertaVector(const DebertaParams& params, DebertaStream stream,
                                  long long index);

// ---- Terms
enum class DebertaTerm { C2c, C2p, P2c, Sum };
inline constexpr EnumNames<DebertaTerm, 4> kDebertaTermNames{{{DebertaTerm::C2c, "c2c"},
                                                              {DebertaTerm::C2p, "c2p"},
                                                              {DebertaTerm::P2c, "p2c"},
                                                              {DebertaTerm::Sum, "sum"}}};
Result<DebertaTerm> parseDebertaTerm(std::string_view name);
// One term at (i, j), already divided by sqrt(d s); a disabled term (c2p or p2c off) is 0.
double debertaTermValue(const DebertaParams& params, DebertaTerm term, long long query,
                        long long key);
// What debertaTermSample may keep between calls (the GUI rebuilds the figure while
// position_buckets or max_position move): what does not depend on them. The q and k rows at the
// rows and columns asked, Kr and Qr rows by index, c2c's q.k and each row's q.Kr[index] (each
// column's k.Qr[index]), all before the 1/sqrt(d s) scale. Valid for one seed and head_dim (a
// call with others starts it again; other rows and columns keep only Kr and Qr). The values are
// the same bits as without it.
struct DebertaSampleMemo {
    std::uint64_t seed = 0;
    int headDim = -1;
    std::vector<long long> rows, cols;
    std::vector<std::vector<double>> q, k, kr, qr;  // empty: not made yet
    std::vector<double> c2c;                        // rows x cols, empty: not made yet
    // [row][index] q.Kr[index] and [column][index] k.Qr[index], NaN: not made yet; kept while
    // 2 x span <= kDotsSpan (a larger span reads few indices a row).
    static constexpr int kDotsSpan = 4096;
    std::vector<std::vector<double>> c2pDots, p2cDots;
};
// The term at every (rows[a], cols[b]): rows.size() x cols.size(), each q, k, Kr, Qr row made once.
Matrix debertaTermSample(const DebertaParams& params, DebertaTerm term,
                         const std::vector<long long>& rows, const std::vector<long long>& cols,
                         DebertaSampleMemo* memo = nullptr);
Result<Matrix> debertaRelativePositionMatrix(const DebertaParams& params);  // L x L, checks memory
Result<Matrix> debertaTermMatrix(const DebertaParams& params, DebertaTerm term);  // L x L

}  // namespace poslab
