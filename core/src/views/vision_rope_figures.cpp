#include "poslab/views/vision_rope_figures.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>

#include "poslab/base/format.hpp"
#include "poslab/figure/text_boxes.hpp"

namespace poslab {

namespace {

std::string grid(int t, int h, int w) {
    return std::to_string(t) + "x" + std::to_string(h) + "x" + std::to_string(w);
}

// One stream's curve, at most about 2 points per pixel column: each bucket of tokens gives its
// minimum and maximum, so an image's saw-tooth keeps its full height when squeezed.
LineSeries streamSeries(const std::vector<long long>& values, int maxBuckets, PositionStream s) {
    LineSeries series;
    series.name = std::string(positionStreamName(s));
    series.color = positionStreamColor(s);
    const long long n = (long long)values.size();
    if (n <= 2LL * maxBuckets) {
        for (long long i = 0; i < n; ++i) {
            series.x.push_back(double(i));
            series.y.push_back(double(values[std::size_t(i)]));
        }
        return series;
    }
    for (int b = 0; b < maxBuckets; ++b) {
        const long long first = n * b / maxBuckets, last = n * (b + 1) / maxBuckets;
        if (last <= first) continue;
        auto [lo, hi] = std::minmax_element(values.begin() + first, values.begin() + last);
        const double x = 0.5 * double(first + last - 1);
        series.x.push_back(x);
        series.y.push_back(double(*lo));
        series.x.push_back(x);
        series.y.push_back(double(*hi));
    }
    return series;
}

}  // namespace

Rgba positionStreamColor(PositionStream stream) {
    return seriesColor(int(stream));
}

std::vector<std::string> mropeAdvanceLines(const std::vector<PromptSegment>& prompt,
                                           const MropePositions& positions) {
    // Qwen3-VL splits a video into one span per frame: sum them per prompt segment.
    struct Sum {
        long long tokens = 0, advance = 0;
        int mergedH = 0, mergedW = 0;
    };
    std::map<int, Sum> sums;
    for (const PromptSpan& span : positions.spans) {
        if (span.kind == PromptSegmentKind::Text) continue;
        Sum& sum = sums[span.segment];
        sum.tokens += span.tokens;
        sum.advance += span.advance;
        sum.mergedH = span.gridH;
        sum.mergedW = span.gridW;
    }
    std::vector<std::string> lines;
    int images = 0, videos = 0;
    for (const auto& [segment, sum] : sums) {
        const PromptSegment& s = prompt[std::size_t(segment)];
        const bool image = s.kind == PromptSegmentKind::Image;
        const std::string name =
            image ? "image " + std::to_string(++images) : "video " + std::to_string(++videos);
        std::string line = name + ": " + grid(s.t, s.h, s.w) + " patches → " +
                           grid(s.t, sum.mergedH, sum.mergedW) + " = " +
                           std::to_string(sum.tokens) + " tokens; the position advances by " +
                           std::to_string(sum.advance) + ", not " + std::to_string(sum.tokens);
        if (image && s.t == 1) {
            line +=
                " (max(" + std::to_string(sum.mergedH) + ", " + std::to_string(sum.mergedW) + "))";
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

void drawMropeFigure(Figure& figure, Box area, const std::vector<PromptSegment>& prompt,
                     const MropeSettings& settings, const Theme& theme) {
    auto positions = mropePositions(prompt, settings);
    if (!positions) {
        drawNote(figure, area, positions.error().message, theme);
        return;
    }
    auto streams = mropePairStreams(settings.section, settings.headDim, settings.layout);
    if (!streams) {
        drawNote(figure, area, streams.error().message, theme);
        return;
    }
    const float line = theme.fontSize * 1.45f;
    const std::vector<std::string> allNotes = mropeAdvanceLines(prompt, *positions);
    // At most 3 note lines, fewer when the figure is short; a note too long for one line wraps
    // (one that cannot is cut), and the notes with no room left are counted.
    const int noteRoom = std::clamp(int((area.height * 0.22f) / line), 1, 3);
    const float noteWidth = std::max(1.f, area.width - 16);
    std::vector<std::string> notes;
    for (std::size_t i = 0; i < allNotes.size(); ++i) {
        const bool last = i + 1 == allNotes.size();
        const int room = noteRoom - int(notes.size()) - (last ? 0 : 1);  // 1 for "… and N more"
        const std::vector<std::string> wrapped = wrapText(allNotes[i], theme.fontSize, noteWidth);
        if (int(wrapped.size()) <= room) {
            notes.insert(notes.end(), wrapped.begin(), wrapped.end());
        } else if (room >= 1) {
            notes.push_back(allNotes[i]);  // cut to one line below
        } else {
            notes.push_back("… and " + std::to_string(allNotes.size() - i) +
                            " more images or videos");
            break;
        }
    }
    if (notes.empty()) notes.push_back("text only: all three streams are equal (1-D RoPE)");
    const float stripHeight = std::clamp(area.height * 0.05f, 10.f, 26.f);
    const float notesHeight = line * float(notes.size()) + 6;
    const float stripBlock = line + stripHeight + line + 8;  // caption, strip, tick labels
    Box plotArea = area;
    plotArea.height = std::max(40.f, area.height - stripBlock - notesHeight);

    // ---- The three streams
    const long long tokens = positions->tokenCount();
    LinePlotSpec spec;
    spec.title = "M-RoPE positions (" + std::string(mropeModelName(settings.model)) +
                 "): " + std::to_string(tokens) + " tokens, generated text continues at " +
                 std::to_string(positions->nextPosition) + " (rope delta " +
                 std::to_string(positions->ropeDelta) + ")";
    spec.x = integerAxis("token index", 0, double(std::max(1LL, tokens - 1)));
    spec.y = {"position", 0, 1};
    spec.legend = false;  // the strip below names the streams
    const int buckets = std::max(16, int(area.width));
    float width = 3.5f;
    for (PositionStream s :
         {PositionStream::Width, PositionStream::Height, PositionStream::Temporal}) {
        LineSeries series = streamSeries(positions->stream(s), buckets, s);
        series.width = width;
        width -= 1.0f;
        series.markers = tokens <= 40;
        spec.series.push_back(std::move(series));
    }
    PlotFrame frame;
    drawLinePlot(figure, plotArea, spec, theme, &frame);
    // Shade image and video segments, and name them where the band is wide enough.
    const float labelSize = atLeastMinText(theme.fontSize * 0.9f, theme);
    std::map<int, std::pair<long long, long long>> segments;  // segment -> first, end token
    for (const PromptSpan& span : positions->spans) {
        if (span.kind == PromptSegmentKind::Text) continue;
        auto [it, added] =
            segments.try_emplace(span.segment, span.firstToken, span.firstToken + span.tokens);
        if (!added) it->second.second = span.firstToken + span.tokens;
    }
    int images = 0, videos = 0;
    for (const auto& [segment, range] : segments) {
        const PromptSegment& s = prompt[std::size_t(segment)];
        const bool image = s.kind == PromptSegmentKind::Image;
        const std::string name =
            image ? "image " + std::to_string(++images) : "video " + std::to_string(++videos);
        const float x0 = std::max(frame.plot.x, frame.toPixel(double(range.first) - 0.5, 0).x);
        const float x1 =
            std::min(frame.plot.right(), frame.toPixel(double(range.second) - 0.5, 0).x);
        if (!(x1 > x0)) continue;
        const Rgba shade = image ? Rgba{90, 160, 230, 40} : Rgba{230, 150, 60, 40};
        figure.add(RectItem{{x0, frame.plot.y, x1 - x0, frame.plot.height}, shade, {0, 0, 0, 0}});
        if (estimateTextWidth(name, labelSize) + 6 < x1 - x0 && frame.plot.height > 3 * labelSize) {
            // At the band's top, else its bottom, where it hides no stream; else the shade alone.
            for (const float top : {frame.plot.y + 4, frame.plot.bottom() - 4 - labelSize}) {
                const TextItem label =
                    makeText({0.5f * (x0 + x1), top}, name, labelSize, theme.mutedText,
                             HorizontalAlign::Center, VerticalAlign::Top);
                if (marksCovered(figure, textBox(label)) > 0) continue;
                figure.add(label);
                break;
            }
        }
    }

    // ---- Which stream drives each rotary pair
    const int pairs = int(streams->size());
    float y = plotArea.bottom() + 4;
    const float left = frame.plot.x, stripWidth = std::max(1.f, frame.plot.width);
    int counts[3] = {0, 0, 0};
    for (PositionStream s : *streams) ++counts[int(s)];
    float x = left;
    for (PositionStream s :
         {PositionStream::Temporal, PositionStream::Height, PositionStream::Width}) {
        const std::string label =
            std::string(positionStreamName(s)) + " " + std::to_string(counts[int(s)]);
        figure.add(
            RectItem{{x, y + line * 0.5f - 5, 10, 10}, positionStreamColor(s), {0, 0, 0, 0}});
        figure.add(makeText({x + 14, y + line * 0.5f}, label, theme.fontSize, theme.text,
                            HorizontalAlign::Left, VerticalAlign::Middle));
        x += 14 + estimateTextWidth(label, theme.fontSize) + 12;
    }
    const std::string caption = "pairs (" + std::string(mropeLayoutName(settings.layout)) +
                                "; pair j rotates dims j, j+" + std::to_string(pairs) + ")";
    const FittedText fitted = fitText(caption, theme.fontSize, left + stripWidth - x);
    if (fitted.text.size() > 8) {
        figure.add(makeText({x, y + line * 0.5f}, fitted.text, fitted.size, theme.mutedText,
                            HorizontalAlign::Left, VerticalAlign::Middle));
    }
    y += line;
    const float cell = stripWidth / float(pairs);
    for (int j = 0; j < pairs; ++j) {
        figure.add(RectItem{{left + cell * float(j), y, std::max(cell, 0.5f), stripHeight},
                            positionStreamColor((*streams)[std::size_t(j)]),
                            {0, 0, 0, 0}});
    }
    figure.add(RectItem{{left, y, stripWidth, stripHeight}, {0, 0, 0, 0}, theme.axis, 1});
    y += stripHeight + 2;
    for (const Tick& tick :
         linearTicks(0, pairs - 1, tickCountFor(stripWidth, 70), /*integers=*/true)) {
        const float tx = left + cell * (float(tick.value) + 0.5f);
        if (tx < left - 1 || tx > left + stripWidth + 1) continue;
        figure.add(LineItem{{tx, y - 2}, {tx, y + 2}, theme.axis, 1});
        figure.add(makeText({tx, y + 2}, tick.label, atLeastMinText(theme.fontSize * 0.85f, theme), theme.mutedText,
                            HorizontalAlign::Center, VerticalAlign::Top));
    }
    y += line + 4;

    // ---- How far each image or video moved the position
    for (const std::string& note : notes) {
        const FittedText text = fitText(note, theme.fontSize, area.width - 16);
        figure.add(makeText({area.x + 8, y + line * 0.5f}, text.text, text.size, theme.text,
                            HorizontalAlign::Left, VerticalAlign::Middle));
        y += line;
    }
}

void drawAxialRopeFigure(Figure& figure, Box area, const AxialRopeParams& params,
                         const Theme& theme, PlotFrame* frameOut) {
    auto map = axialSimilarityMap(params);
    if (!map) {
        drawNote(figure, area, map.error().message, theme);
        return;
    }
    HeatmapSpec spec;
    spec.title =
        "2-D axial RoPE (" + std::string(axialRopeLayoutName(params.layout)) + "), head_dim " +
        std::to_string(params.headDim) + ", base " + formatValue(params.base) + ": query patch (" +
        std::to_string(params.queryX) + ", " + std::to_string(params.queryY) +
        "), q = k = " + std::string(params.vectors == AxialVectors::Ones ? "ones" : "random");
    spec.x = {"patch x (column)", 0, double(params.gridWidth), false, true};
    spec.y = {"patch y (row)", 0, double(params.gridHeight), false, true};
    spec.values = std::make_shared<const Matrix>(std::move(map.value()));
    spec.colormap = ColormapId::BlueWhiteRed;
    spec.range = {-1, 1};
    spec.colorbarLabel = "score / (|q| |k|)";
    spec.squareCells = true;
    PlotFrame frame;
    drawHeatmap(figure, area, spec, theme, &frame);
    const Point a = frame.toPixel(params.queryX, params.queryY);
    const Point b = frame.toPixel(params.queryX + 1, params.queryY + 1);
    const Box cell{std::min(a.x, b.x), std::min(a.y, b.y), std::abs(b.x - a.x),
                   std::abs(b.y - a.y)};
    figure.add(RectItem{cell, {0, 0, 0, 0}, theme.accent, 2.5f});
    const int quarter = params.headDim / 4;
    const std::string pairsNote =
        params.layout == AxialRopeLayout::RopeVit
            ? "pairs 0–" + std::to_string(quarter - 1) + " turn with x, " +
                  std::to_string(quarter) + "–" + std::to_string(2 * quarter - 1) +
                  " with y; $θ_k=\\mathrm{base}^{-4k/d}$ on both"
            : "pairs 0–" + std::to_string(quarter - 1) + " turn with y (even θ), " +
                  std::to_string(quarter) + "–" + std::to_string(2 * quarter - 1) +
                  " with x (odd θ)";
    drawCornerNote(figure, area, &frame, pairsNote, theme);
    if (frameOut) *frameOut = frame;
}

}  // namespace poslab
