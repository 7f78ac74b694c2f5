// multimodal_rope.hpp — Qwen2-VL's multimodal RoPE (M-RoPE), as Hugging Face transformers computes
// it: every token carries three positions (temporal, height, width) and each rotary pair is driven
// by one of them.
//
// Positions (the model's get_rope_index): the prompt is a run of segments.
//   text     each token gets the same index on all three streams, counting on from max + 1 of
//            everything before (0 at the start)
//   image    grid (t, h, w) in patches; spatial_merge_size m merges m x m patches into one token,
//            so t * (h/m) * (w/m) tokens. Token (i, j, k) gets (i, j, k) + start, start = the
//            position the next text token would have had. The next text starts at max + 1:
//            start + max(t-1, h/m-1, w/m-1) + 1 — an image advances the position by max(h, w)/m,
//            not by its token count.
//   video    Qwen2-VL: like an image, the temporal index is the frame-group index.
//            Qwen2.5-VL: temporal index = long(i * second_per_grid_t * tokens_per_second).
//            Qwen3-VL: split into t single-frame grids (1, h, w) (the real prompt puts timestamp
//            text between them, which then carries the time).
// Pairs (apply_multimodal_rotary_pos_emb): mrope_section [s_t, s_h, s_w], s_t + s_h + s_w =
//   head_dim / 2.  Contiguous (Qwen2-VL, Qwen2.5-VL): pairs [0, s_t) use T, the next s_h use H,
//   the last s_w use W (HF splits the doubled cos/sin by section * 2: the same per pair).
//   Interleaved (Qwen3-VL, mrope_interleaved): pair j uses H when j % 3 == 1 and j < 3 s_h, W when
//   j % 3 == 2 and j < 3 s_w, else T  (T H W T H W ... T T), as apply_interleaved_mrope.
// Pair j at token n is rotated by position_{stream(j)}(n) * theta_j; for a text-only prompt all
// three streams are equal and M-RoPE is 1-D RoPE.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"
#include "poslab/encodings/rope_scaling.hpp"

namespace poslab {

// ---- Kinds and names
enum class MropeModel { Qwen2VL, Qwen25VL, Qwen3VL };  // whose get_rope_index
enum class MropeLayout { Contiguous, Interleaved };    // how mrope_section maps onto pairs
enum class PromptSegmentKind { Text, Image, Video };
enum class PositionStream { Temporal, Height, Width };

inline constexpr EnumNames<MropeModel, 3> kMropeModelNames{{{MropeModel::Qwen2VL, "qwen2-vl"},
                                                            {MropeModel::Qwen25VL, "qwen2.5-vl"},
                                                            {MropeModel::Qwen3VL, "qwen3-vl"}}};
inline constexpr EnumNames<MropeLayout, 2> kMropeLayoutNames{
    {{MropeLayout::Contiguous, "contiguous"}, {MropeLayout::Interleaved, "interleaved"}}};
std::string_view mropeModelName(MropeModel model);
Result<MropeModel> parseMropeModel(std::string_view name);  // "model must be qwen2-vl, ..."
std::string_view mropeLayoutName(MropeLayout layout);
Result<MropeLayout> parseMropeLayout(std::string_view name);
std::string_view promptSegmentKindName(PromptSegmentKind kind);  // "text", "image", "video"
std::string_view positionStreamName(PositionStream stream);      // "T", "H", "W"

// ---- Limits (the prompt syntax's caps, printed in --help)
inline constexpr int kMaxPromptSegments = 64;
inline constexpr int kMaxTextTokens = 100000;  // per text segment
inline constexpr int kMaxGridT = 512;          // temporal patches (frame groups) per grid
inline constexpr int kMaxGridSide = 1024;      // h and w, in patches
inline constexpr long long kMaxPromptTokens = 1 << 20;
inline constexpr int kMaxSpatialMerge = 8;

// ---- Settings
struct MropeSettings {
    MropeModel model = MropeModel::Qwen2VL;
    MropeLayout layout = MropeLayout::Contiguous;  // Qwen3-VL: interleaved
    std::array<int, 3> section{16, 24, 24};        // mrope_section (T, H, W), sum = headDim / 2
    int headDim = 128;                             // 4..1024, even
    double base = 1000000;                         // rope_theta: > 1 and <= 1e12
    int spatialMergeSize = 2;                      // vision_config.spatial_merge_size: 1..8
    double tokensPerSecond = 2;                    // Qwen2.5-VL vision_config: > 0, <= 1000
    friend bool operator==(const MropeSettings&, const MropeSettings&) = default;
};
// The released checkpoints' settings: Qwen2-VL-7B and Qwen2.5-VL-7B [16,24,24] contiguous,
// base 1e6 (2.5-VL: tokens_per_second 2); Qwen3-VL-8B [24,20,20] interleaved, base 5e6.
MropeSettings mropePreset(MropeModel model);
Status validate(const MropeSettings& settings);  // section, head size, base, merge, tokens/s

// ---- Prompts
struct PromptSegment {
    PromptSegmentKind kind = PromptSegmentKind::Text;
    int tokens = 1;             // text: how many tokens; 1..kMaxTextTokens
    int t = 1, h = 2, w = 2;    // image/video grid in patches (before merging)
    double secondsPerGrid = 1;  // video: second_per_grid_t (Qwen2.5-VL; HF's default 1.0)
    friend bool operator==(const PromptSegment&, const PromptSegment&) = default;
};
// "text:5,image:1x28x42,text:3,video:4x14x14@0.5": comma-separated segments, text:N tokens,
// image:TxHxW and video:TxHxW grids in patches, a video's "@S" seconds per temporal grid.
// Errors name the segment: "segment 2 'image:1x28' must be image:TxHxW (e.g. image:1x28x42)".
Result<std::vector<PromptSegment>> parseMropePrompt(std::string_view text);
std::string formatMropePrompt(const std::vector<PromptSegment>& prompt);  // inverse of the parse
// Grids divisible by the merge size, counts within the caps, at least one segment.
Status validatePrompt(const std::vector<PromptSegment>& prompt, int spatialMergeSize);

// ---- Position streams
struct PromptSpan {  // one segment as the model sees it
    PromptSegmentKind kind = PromptSegmentKind::Text;
    long long firstToken = 0, tokens = 0;
    int gridT = 1, gridH = 1, gridW = 1;  // merged grid (text: tokens x 1 x 1)
    long long startPosition = 0;          // position of its first token on every stream
    long long advance = 0;                // next segment's start minus this one's
    int segment = 0;                      // index into the prompt
};
struct MropePositions {
    std::vector<long long> temporal, height, width;  // one entry per token
    std::vector<int> spanOfToken;                    // index into spans, per token
    std::vector<PromptSpan> spans;
    long long nextPosition = 0;  // max over all streams + 1: where generated text continues
    long long ropeDelta = 0;     // nextPosition - token count (HF's mrope_position_deltas)
    long long tokenCount() const { return (long long)temporal.size(); }
    const std::vector<long long>& stream(PositionStream s) const;
};
Result<MropePositions> mropePositions(const std::vector<PromptSegment>& prompt,
                                      const MropeSettings& settings);

// ---- Pairs
// Which stream drives each of the headDim/2 rotary pairs. Errors: "mrope_section must have 3
// entries", "mrope_section must sum to head_dim / 2 = 64 (got 16+24+20 = 60)".
Status validateMropeSection(const std::array<int, 3>& section, int headDim);
Result<std::vector<PositionStream>> mropePairStreams(const std::array<int, 3>& section, int headDim,
                                                     MropeLayout layout);
std::vector<double> mropeInverseFrequencies(const MropeSettings& settings);  // base^(-2j/d)

// Row n = token n, column j = pair j: position_{stream(j)}(n) * theta_j in radians (not reduced),
// for tokens firstToken .. firstToken + rows - 1 (clamped to the prompt).
Result<Matrix> mropeAngles(const MropePositions& positions, const MropeSettings& settings,
                           long long firstToken = 0, long long rows = -1);

}  // namespace poslab
