#include "poslab/encodings/multimodal_rope.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "poslab/base/decimal.hpp"
#include "poslab/base/format.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

namespace {

constexpr EnumNames<PromptSegmentKind, 3> kSegmentNames{{{PromptSegmentKind::Text, "text"},
                                                         {PromptSegmentKind::Image, "image"},
                                                         {PromptSegmentKind::Video, "video"}}};
constexpr EnumNames<PositionStream, 3> kStreamNames{
    {{PositionStream::Temporal, "T"}, {PositionStream::Height, "H"}, {PositionStream::Width, "W"}}};

// A whole non-negative integer, nothing else ("12"); false on anything more or too large.
bool readCount(std::string_view text, long long& out) {
    if (text.empty() || text.size() > 9) return false;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && out >= 0;
}

// Plain decimal only, as every number PosLab reads (decimal.hpp): "0x10" and "inf" are refused.
bool readSeconds(std::string_view text, double& out) {
    const ParsedDecimal parsed = parseDecimal(text);
    if (parsed.status != DecimalStatus::Ok) return false;
    out = parsed.value;
    return true;
}

std::string segmentLabel(std::size_t index, std::string_view text) {
    return "segment " + std::to_string(index + 1) + " " + quoteForMessage(text);
}

}  // namespace

std::string_view mropeModelName(MropeModel model) {
    return enumName(kMropeModelNames, model);
}
Result<MropeModel> parseMropeModel(std::string_view name) {
    return parseEnum(kMropeModelNames, name, "model");
}
std::string_view mropeLayoutName(MropeLayout layout) {
    return enumName(kMropeLayoutNames, layout);
}
Result<MropeLayout> parseMropeLayout(std::string_view name) {
    return parseEnum(kMropeLayoutNames, name, "layout");
}
std::string_view promptSegmentKindName(PromptSegmentKind kind) {
    return enumName(kSegmentNames, kind);
}
std::string_view positionStreamName(PositionStream stream) {
    return enumName(kStreamNames, stream);
}

MropeSettings mropePreset(MropeModel model) {
    MropeSettings settings;
    settings.model = model;
    if (model == MropeModel::Qwen3VL) {
        settings.layout = MropeLayout::Interleaved;
        settings.section = {24, 20, 20};
        settings.base = 5000000;
    }
    return settings;
}

Status validateMropeSection(const std::array<int, 3>& section, int headDim) {
    for (int s : section) {
        if (s < 0) {
            return Error{"mrope_section entries must be >= 0 (got " + std::to_string(s) + ")"};
        }
    }
    const long long sum = (long long)section[0] + section[1] + section[2];
    if (headDim % 2 != 0 || sum != headDim / 2) {
        return Error{"mrope_section must sum to head_dim / 2 = " + std::to_string(headDim / 2) +
                     " (got " + std::to_string(section[0]) + "+" + std::to_string(section[1]) +
                     "+" + std::to_string(section[2]) + " = " + std::to_string(sum) + ")"};
    }
    return success();
}

Status validate(const MropeSettings& settings) {
    if (auto s = requireIntInRange("head_dim", settings.headDim, 4, 1024); !s) return s;
    if (settings.headDim % 2 != 0) {
        return Error{"head_dim must be even (got " + std::to_string(settings.headDim) + ")"};
    }
    if (auto s = requireInRange("rope_theta", settings.base, 1, 1e12, false); !s) return s;
    if (auto s =
            requireIntInRange("spatial_merge_size", settings.spatialMergeSize, 1, kMaxSpatialMerge);
        !s)
        return s;
    if (auto s = requireInRange("tokens_per_second", settings.tokensPerSecond, 0, 1000, false); !s)
        return s;
    auto streams = mropePairStreams(settings.section, settings.headDim, settings.layout);
    if (!streams) return streams.error();
    return success();
}

// ---- Prompts

Result<std::vector<PromptSegment>> parseMropePrompt(std::string_view text) {
    std::vector<PromptSegment> prompt;
    if (text.empty()) return Error{"prompt is empty (e.g. text:5,image:1x28x42,text:3)"};
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == std::string_view::npos) comma = text.size();
        const std::string_view item = text.substr(start, comma - start);
        const std::size_t index = prompt.size();
        if (index >= std::size_t(kMaxPromptSegments)) {
            return Error{"prompt has more than " + std::to_string(kMaxPromptSegments) +
                         " segments"};
        }
        const std::size_t colon = item.find(':');
        const std::string_view kindText = item.substr(0, colon);
        auto kind = parseEnum(kSegmentNames, kindText, segmentLabel(index, item) + ": kind");
        if (!kind || colon == std::string_view::npos) {
            return Error{segmentLabel(index, item) +
                         " must be text:N, image:TxHxW or video:TxHxW[@S]"};
        }
        std::string_view value = item.substr(colon + 1);
        PromptSegment segment;
        segment.kind = *kind;
        if (*kind == PromptSegmentKind::Text) {
            long long n = 0;
            if (!readCount(value, n) || n < 1 || n > kMaxTextTokens) {
                return Error{segmentLabel(index, item) + ": text tokens must be 1.." +
                             std::to_string(kMaxTextTokens)};
            }
            segment.tokens = int(n);
        } else {
            if (*kind == PromptSegmentKind::Video) {
                const std::size_t at = value.find('@');
                if (at != std::string_view::npos) {
                    if (!readSeconds(value.substr(at + 1), segment.secondsPerGrid) ||
                        !(segment.secondsPerGrid > 0) || segment.secondsPerGrid > 3600) {
                        return Error{segmentLabel(index, item) +
                                     ": seconds per grid after '@' must be > 0 and <= 3600"};
                    }
                    value = value.substr(0, at);
                }
            }
            long long dims[3] = {0, 0, 0};
            std::size_t from = 0;
            bool good = true;
            for (int d = 0; d < 3 && good; ++d) {
                std::size_t x = value.find('x', from);
                if (d == 2) x = value.size();
                if (x == std::string_view::npos) {
                    good = false;
                    break;
                }
                good = readCount(value.substr(from, x - from), dims[d]);
                from = x + 1;
            }
            if (!good) {
                return Error{segmentLabel(index, item) + " must be " + std::string(kindText) +
                             ":TxHxW (grid in patches, e.g. " + std::string(kindText) +
                             ":1x28x42)"};
            }
            if (dims[0] < 1 || dims[0] > kMaxGridT || dims[1] < 1 || dims[1] > kMaxGridSide ||
                dims[2] < 1 || dims[2] > kMaxGridSide) {
                return Error{segmentLabel(index, item) + ": grid T must be 1.." +
                             std::to_string(kMaxGridT) + ", H and W 1.." +
                             std::to_string(kMaxGridSide)};
            }
            segment.t = int(dims[0]);
            segment.h = int(dims[1]);
            segment.w = int(dims[2]);
        }
        prompt.push_back(segment);
        start = comma + 1;
        if (comma == text.size()) break;
    }
    return prompt;
}

std::string formatMropePrompt(const std::vector<PromptSegment>& prompt) {
    std::string out;
    for (const PromptSegment& segment : prompt) {
        if (!out.empty()) out += ',';
        out += promptSegmentKindName(segment.kind);
        out += ':';
        if (segment.kind == PromptSegmentKind::Text) {
            out += std::to_string(segment.tokens);
            continue;
        }
        out.append(std::to_string(segment.t)).append("x");
        out.append(std::to_string(segment.h)).append("x");
        out.append(std::to_string(segment.w));
        if (segment.kind == PromptSegmentKind::Video && segment.secondsPerGrid != 1) {
            out.append("@").append(formatNumber(segment.secondsPerGrid));
        }
    }
    return out;
}

Status validatePrompt(const std::vector<PromptSegment>& prompt, int spatialMergeSize) {
    if (prompt.empty()) return Error{"prompt is empty (e.g. text:5,image:1x28x42,text:3)"};
    if (prompt.size() > std::size_t(kMaxPromptSegments)) {
        return Error{"prompt has more than " + std::to_string(kMaxPromptSegments) + " segments"};
    }
    if (spatialMergeSize < 1) return Error{"spatial_merge_size must be >= 1"};
    long long total = 0;
    for (std::size_t i = 0; i < prompt.size(); ++i) {
        const PromptSegment& s = prompt[i];
        const std::string name = "segment " + std::to_string(i + 1) + " (" +
                                 std::string(promptSegmentKindName(s.kind)) + ")";
        if (s.kind == PromptSegmentKind::Text) {
            if (s.tokens < 1 || s.tokens > kMaxTextTokens) {
                return Error{name + ": text tokens must be 1.." + std::to_string(kMaxTextTokens) +
                             " (got " + std::to_string(s.tokens) + ")"};
            }
            total += s.tokens;
        } else {
            if (s.t < 1 || s.t > kMaxGridT || s.h < 1 || s.h > kMaxGridSide || s.w < 1 ||
                s.w > kMaxGridSide) {
                return Error{name + ": grid T must be 1.." + std::to_string(kMaxGridT) +
                             ", H and W 1.." + std::to_string(kMaxGridSide)};
            }
            if (s.h % spatialMergeSize != 0 || s.w % spatialMergeSize != 0) {
                return Error{name + ": grid H and W must be multiples of spatial_merge_size " +
                             std::to_string(spatialMergeSize) + " (got " + std::to_string(s.h) +
                             "x" + std::to_string(s.w) + ")"};
            }
            if (!(s.secondsPerGrid > 0) || s.secondsPerGrid > 3600) {
                return Error{name + ": seconds per grid must be > 0 and <= 3600"};
            }
            total += (long long)s.t * (s.h / spatialMergeSize) * (s.w / spatialMergeSize);
        }
        if (total > kMaxPromptTokens) {
            return Error{"prompt has more than " + std::to_string(kMaxPromptTokens) + " tokens"};
        }
    }
    return success();
}

// ---- Position streams

const std::vector<long long>& MropePositions::stream(PositionStream s) const {
    return s == PositionStream::Temporal ? temporal : s == PositionStream::Height ? height : width;
}

Result<MropePositions> mropePositions(const std::vector<PromptSegment>& prompt,
                                      const MropeSettings& settings) {
    if (auto s = validate(settings); !s) return s.error();
    if (auto s = validatePrompt(prompt, settings.spatialMergeSize); !s) return s.error();
    MropePositions out;
    const int merge = settings.spatialMergeSize;
    long long next = 0;  // max + 1 of everything so far: where the next segment starts
    auto push = [&](long long t, long long h, long long w) {
        out.temporal.push_back(t);
        out.height.push_back(h);
        out.width.push_back(w);
        out.spanOfToken.push_back(int(out.spans.size()) - 1);
    };
    // One grid (a picture, or a video's frames) starting at `start`: T, H, W offsets from it.
    auto addGrid = [&](int segment, PromptSegmentKind kind, int t, int h, int w,
                       double temporalScale) {
        PromptSpan span;
        span.kind = kind;
        span.segment = segment;
        span.firstToken = out.tokenCount();
        span.gridT = t;
        span.gridH = h / merge;
        span.gridW = w / merge;
        span.tokens = (long long)t * span.gridH * span.gridW;
        span.startPosition = next;
        out.spans.push_back(span);
        long long top = next;
        for (int i = 0; i < t; ++i) {
            // Qwen2.5-VL: long(i * second_per_grid_t * tokens_per_second), truncated toward 0
            // as torch's .long() does; others: the frame-group index.
            const long long ti =
                temporalScale > 0 ? (long long)(double(i) * temporalScale) : (long long)i;
            for (int r = 0; r < span.gridH; ++r) {
                for (int c = 0; c < span.gridW; ++c) {
                    push(next + ti, next + r, next + c);
                    top = std::max({top, next + ti, next + r, next + c});
                }
            }
        }
        out.spans.back().advance = top + 1 - next;
        next = top + 1;
    };
    for (std::size_t i = 0; i < prompt.size(); ++i) {
        const PromptSegment& s = prompt[i];
        if (s.kind == PromptSegmentKind::Text) {
            PromptSpan span;
            span.kind = s.kind;
            span.segment = int(i);
            span.firstToken = out.tokenCount();
            span.tokens = s.tokens;
            span.gridT = s.tokens;
            span.startPosition = next;
            span.advance = s.tokens;
            out.spans.push_back(span);
            for (int k = 0; k < s.tokens; ++k) push(next + k, next + k, next + k);
            next += s.tokens;
        } else if (s.kind == PromptSegmentKind::Image) {
            addGrid(int(i), s.kind, s.t, s.h, s.w, 0);
        } else if (settings.model == MropeModel::Qwen3VL) {
            // Qwen3-VL splits video_grid_thw into t single-frame grids (repeat_interleave, t = 1).
            for (int f = 0; f < s.t; ++f) addGrid(int(i), s.kind, 1, s.h, s.w, 0);
        } else if (settings.model == MropeModel::Qwen25VL) {
            addGrid(int(i), s.kind, s.t, s.h, s.w, s.secondsPerGrid * settings.tokensPerSecond);
        } else {
            addGrid(int(i), s.kind, s.t, s.h, s.w, 0);
        }
    }
    out.nextPosition = next;
    out.ropeDelta = next - out.tokenCount();
    return out;
}

// ---- Pairs

Result<std::vector<PositionStream>> mropePairStreams(const std::array<int, 3>& section, int headDim,
                                                     MropeLayout layout) {
    if (auto s = validateMropeSection(section, headDim); !s) return s.error();
    const int pairs = headDim / 2;
    std::vector<PositionStream> streams(std::size_t(pairs), PositionStream::Temporal);
    if (layout == MropeLayout::Contiguous) {
        for (int j = 0; j < pairs; ++j) {
            streams[std::size_t(j)] = j < section[0]                ? PositionStream::Temporal
                                      : j < section[0] + section[1] ? PositionStream::Height
                                                                    : PositionStream::Width;
        }
        return streams;
    }
    // Interleaved: start from T everywhere, then overwrite H at 1, 4, 7, ... below 3 s_h and W at
    // 2, 5, 8, ... below 3 s_w (apply_interleaved_mrope's two strided slices).
    for (int j = 1; j < std::min(pairs, 3 * section[1]); j += 3)
        streams[std::size_t(j)] = PositionStream::Height;
    for (int j = 2; j < std::min(pairs, 3 * section[2]); j += 3)
        streams[std::size_t(j)] = PositionStream::Width;
    int counts[3] = {0, 0, 0};
    for (PositionStream s : streams) ++counts[int(s)];
    if (counts[1] != section[1] || counts[2] != section[2]) {
        return Error{"mrope_section [" + std::to_string(section[0]) + "," +
                     std::to_string(section[1]) + "," + std::to_string(section[2]) +
                     "] cannot be interleaved over " + std::to_string(pairs) +
                     " pairs: 3 x the H and W sections must stay within the pairs"};
    }
    return streams;
}

std::vector<double> mropeInverseFrequencies(const MropeSettings& settings) {
    std::vector<double> inverse(std::size_t(settings.headDim / 2));
    for (std::size_t j = 0; j < inverse.size(); ++j) {
        inverse[j] = std::pow(settings.base, -2.0 * double(j) / double(settings.headDim));
    }
    return inverse;
}

Result<Matrix> mropeAngles(const MropePositions& positions, const MropeSettings& settings,
                           long long firstToken, long long rows) {
    auto streams = mropePairStreams(settings.section, settings.headDim, settings.layout);
    if (!streams) return streams.error();
    if (auto s = validate(settings); !s) return s.error();
    const long long count = positions.tokenCount();
    firstToken = std::clamp(firstToken, 0LL, count);
    if (rows < 0 || firstToken + rows > count) rows = count - firstToken;
    const std::vector<double> inverse = mropeInverseFrequencies(settings);
    Matrix angles(std::size_t(rows), inverse.size());
    for (long long r = 0; r < rows; ++r) {
        const long long n = firstToken + r;
        for (std::size_t j = 0; j < inverse.size(); ++j) {
            const double p = double(positions.stream((*streams)[j])[std::size_t(n)]);
            angles(std::size_t(r), j) = p * inverse[j];
        }
    }
    return angles;
}

}  // namespace poslab
