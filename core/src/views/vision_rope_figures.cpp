#include "poslab/views/vision_rope_figures.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>

#include "poslab/base/format.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "poslab/views/print_room.hpp"

namespace poslab {

namespace {

std::string grid(int t, int h, int w) {
    return std::to_string(t) + "×" + std::to_string(h) + "×" + std::to_string(w);
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
                                           const MropePositions& positions, bool brief) {
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
        const std::string larger =
            "max(" + std::to_string(sum.mergedH) + ", " + std::to_string(sum.mergedW) + ")";
        if (brief) {  // the merged grid says where the tokens and the advance come from
            lines.push_back(name + ": " + std::to_string(sum.tokens) + " tokens (" +
                            grid(s.t, sum.mergedH, sum.mergedW) + "), position +" +
                            std::to_string(sum.advance) +
                            (image && s.t == 1 ? " = " + larger : std::string()) + ", not +" +
                            std::to_string(sum.tokens));
            continue;
        }
        std::string line = name + ": " + grid(s.t, s.h, s.w) + " patches → " +
                           grid(s.t, sum.mergedH, sum.mergedW) + " = " +
                           std::to_string(sum.tokens) + " tokens; the position advances by " +
                           std::to_string(sum.advance) + ", not " + std::to_string(sum.tokens);
        if (image && s.t == 1) line += " (" + larger + ")";
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
    // One line per image or video: the long form when each fits on one line, else the brief one
    // (at 1024x768 F5 each long line took two, the plot kept ~130 px and the video's was left
    // out as "… and 1 more").
    const float noteWidth = std::max(1.f, area.width - 16);
    std::vector<std::string> allNotes = mropeAdvanceLines(prompt, *positions);
    for (const std::string& note : allNotes) {
        if (estimateTextWidth(note, theme.fontSize) > noteWidth) {
            allNotes = mropeAdvanceLines(prompt, *positions, true);
            break;
        }
    }
    const int pairs = int(streams->size());
    int counts[3] = {0, 0, 0};
    for (PositionStream s : *streams) ++counts[int(s)];
    // The strip's key: "T 16  H 24  W 24" and the caption, beside it when it fits on that line,
    // else wrapped on lines of its own below (a one-column print), never cut.
    // The plot's box is narrower than the area by its y axis's tick labels and label: six ems
    // at most, taken off here so the room kept below the plot holds the caption's lines.
    const float captionWidth = std::max(1.f, area.width - 16 - theme.fontSize * 6);
    float keyWidth = 0;
    for (PositionStream s :
         {PositionStream::Temporal, PositionStream::Height, PositionStream::Width}) {
        keyWidth += 14 +
                    estimateTextWidth(
                        std::string(positionStreamName(s)) + " " + std::to_string(counts[int(s)]),
                        theme.fontSize) +
                    12;
    }
    // Beside the key in its long form, else in a shorter one (a projector: a line of its own
    // below the key took the plot's room), else wrapped below.
    std::string caption = "pairs (" + std::string(mropeLayoutName(settings.layout)) +
                          "; pair j rotates dims j, j+" + std::to_string(pairs) + ")";
    const std::string shortCaption = std::string(mropeLayoutName(settings.layout)) +
                                     ": pair j rotates dims j, j+" + std::to_string(pairs);
    if (estimateTextWidth(caption, theme.fontSize) > captionWidth - keyWidth &&
        estimateTextWidth(shortCaption, theme.fontSize) <= captionWidth - keyWidth)
        caption = shortCaption;
    const bool captionBeside =
        estimateTextWidth(caption, theme.fontSize) <= captionWidth - keyWidth;
    int captionLines =
        captionBeside ? 0 : int(wrapText(caption, theme.fontSize, captionWidth).size());
    // The key's line, the caption's own lines, the strip and its tick labels.
    const float stripHeight = std::clamp(area.height * 0.05f, 10.f, 26.f);
    auto stripBlockFor = [&](int lines) {
        return line * float(1 + lines) + stripHeight + line + 8;
    };
    // The plot: a title of up to three lines, tick labels, the axis label and a readable box.
    const float plotNeeds = theme.titleSize * 3.5f + theme.fontSize * 7;
    // A window too short for the plot, the wrapped caption and one note line (480x320): the
    // caption is fitted beside the key, as before, rather than squeezing the plot into a strip.
    const bool captionFitted = captionLines > 0 && !heightMayGrow(theme) &&
                               area.height - stripBlockFor(captionLines) - line < plotNeeds;
    if (captionFitted) captionLines = 0;
    // One line per image or video, wrapped to the width (never cut); as many as leave the
    // position plot its room, the rest counted ("… and 2 more images or videos"). A file that
    // may grow (Theme::panelRoom, `--width` alone) asks for the height the notes need.
    const float stripBlock = stripBlockFor(captionLines);
    std::vector<std::vector<std::string>> wrappedNotes;
    int allLines = 0;
    for (const std::string& note : allNotes) {
        wrappedNotes.push_back(wrapText(note, theme.fontSize, noteWidth));
        allLines += int(wrappedNotes.back().size());
    }
    // On screen at most 30 % of the height (at least 3 lines); a file takes what it needs.
    int noteRoom = std::max(1, int((area.height - stripBlock - plotNeeds - 6) / line));
    if (!heightMayGrow(theme))
        noteRoom = std::min(noteRoom, std::max(3, int(area.height * 0.3f / line)));
    if (allLines > noteRoom) {
        // At most 12 note lines' worth; a line more for the strip, which grows with the height.
        askForHeight(theme, stripBlock + plotNeeds + 6 + line * float(std::min(allLines, 12) + 1) -
                                area.height);
    }
    std::vector<std::string> notes;
    for (std::size_t i = 0; i < wrappedNotes.size(); ++i) {
        const bool last = i + 1 == wrappedNotes.size();
        const int room = noteRoom - int(notes.size()) - (last ? 0 : 1);  // 1 for "… and N more"
        if (int(wrappedNotes[i].size()) <= room) {
            notes.insert(notes.end(), wrappedNotes[i].begin(), wrappedNotes[i].end());
            continue;
        }
        const std::string more = "… and " + std::to_string(allNotes.size() - i) + " more " +
                                 (allNotes.size() - i == 1 ? "image or video" : "images or videos");
        for (const std::string& part : wrapText(more, theme.fontSize, noteWidth))
            notes.push_back(part);
        break;
    }
    if (allNotes.empty()) {
        for (const std::string& part : wrapText("text only: all three streams are equal (1-D RoPE)",
                                                theme.fontSize, noteWidth))
            notes.push_back(part);
    }
    const float notesHeight = line * float(notes.size()) + 6;
    Box plotArea = area;
    plotArea.height = std::max(40.f, area.height - stripBlock - notesHeight);

    // ---- The three streams
    const long long tokens = positions->tokenCount();
    LinePlotSpec spec;
    spec.title = "M-RoPE positions (" + std::string(mropeModelName(settings.model)) +
                 "): " + std::to_string(tokens) + " tokens, generated text continues at " +
                 std::to_string(positions->nextPosition) + " (rope delta " +
                 withMinusSign(std::to_string(positions->ropeDelta)) + ")";
    spec.x = integerAxis("token index", 0, double(std::max(1LL, tokens - 1)));
    spec.y = integerAxis("position", 0, 1);  // position ids are integers: no tick at 12.5
    spec.legend = false;                     // the strip below names the streams
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
    // A file at one column (`render mrope --width 600`, the height derived) gave the position plot
    // what the strip and notes left: a box 0.18 times as tall as wide, the W stream's teeth a
    // comb. It asks for a box at least kFilePlotAspect as tall as wide (a screen keeps its size).
    constexpr float kFilePlotAspect = 0.45f;
    if (heightMayGrow(theme) && frame.plot.width > 0)
        askForHeight(theme, kFilePlotAspect * frame.plot.width - frame.plot.height);
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
    float y = plotArea.bottom() + 4;
    const float left = frame.plot.x, stripWidth = std::max(1.f, frame.plot.width);
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
    if (captionBeside) {
        figure.add(makeText({x, y + line * 0.5f}, caption, theme.fontSize, theme.mutedText,
                            HorizontalAlign::Left, VerticalAlign::Middle));
    } else if (captionFitted) {
        const FittedText fitted = fitText(caption, theme.fontSize, left + stripWidth - x);
        if (fitted.text.size() > 8) {
            figure.add(makeText({x, y + line * 0.5f}, fitted.text, fitted.size, theme.mutedText,
                                HorizontalAlign::Left, VerticalAlign::Middle));
        }
    } else {  // on lines of their own under the key, inside the area
        const WrappedText wrapped =
            wrapToFit(caption, theme.fontSize, std::min(captionWidth, area.right() - 8 - left),
                      captionLines, readableMinScale(theme.fontSize, theme));
        for (const std::string& part : wrapped.lines) {
            y += line;
            figure.add(makeText({left, y + line * 0.5f}, part, wrapped.size, theme.mutedText,
                                HorizontalAlign::Left, VerticalAlign::Middle));
        }
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
        figure.add(makeText({tx, y + 2}, tick.label, atLeastMinText(theme.fontSize * 0.85f, theme),
                            theme.mutedText, HorizontalAlign::Center, VerticalAlign::Top));
    }
    y += line + 4;

    // ---- How far each image or video moved the position
    for (const std::string& note : notes) {
        figure.add(makeText({area.x + 8, y + line * 0.5f}, note, theme.fontSize, theme.text,
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
    const int quarter = params.headDim / 4;
    const std::string pairsNote =
        params.layout == AxialRopeLayout::RopeVit
            ? "pairs 0–" + std::to_string(quarter - 1) + " turn with x, " +
                  std::to_string(quarter) + "–" + std::to_string(2 * quarter - 1) +
                  " with y; $θ_k = \\mathrm{base}^{-4k/d}$ on both"
            : "pairs 0–" + std::to_string(quarter - 1) + " turn with y (even θ), " +
                  std::to_string(quarter) + "–" + std::to_string(2 * quarter - 1) +
                  " with x (odd θ)";
    // The note on lines of its own under the heatmap, wrapped to the figure's width (beside
    // the x label it had no room at one column); a file whose height follows its width asks
    // for those lines (Theme::panelRoom), so the heatmap keeps its size.
    const float noteSize = atLeastMinText(theme.fontSize * 0.85f, theme);
    const float noteStep = noteSize * 1.2f;
    const std::vector<std::string> noteLines =
        wrapText(pairsNote, noteSize, std::max(1.f, area.width - 16));
    const float noteBand = noteStep * float(noteLines.size()) + 6;
    askForHeight(theme, noteBand);
    Box heatmapArea = area;
    heatmapArea.height = std::max(40.f, area.height - noteBand);
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
    drawHeatmap(figure, heatmapArea, spec, theme, &frame);
    const Point a = frame.toPixel(params.queryX, params.queryY);
    const Point b = frame.toPixel(params.queryX + 1, params.queryY + 1);
    const Box cell{std::min(a.x, b.x), std::min(a.y, b.y), std::abs(b.x - a.x),
                   std::abs(b.y - a.y)};
    figure.add(RectItem{cell, {0, 0, 0, 0}, theme.accent, 2.5f});
    float noteY = heatmapArea.bottom() + 2;
    for (const std::string& part : noteLines) {
        figure.add(makeText({area.x + area.width / 2, noteY}, part, noteSize, theme.mutedText,
                            HorizontalAlign::Center, VerticalAlign::Top));
        noteY += noteStep;
    }
    if (frameOut) *frameOut = frame;
}

}  // namespace poslab
