#include "poslab/views/rope_precision_figures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "poslab/base/format.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/figure/text_fit.hpp"
#include "poslab/views/print_room.hpp"
#include "poslab/views/rope_figures.hpp"

namespace poslab {

Result<std::vector<RopePrecisionReport>> ropePrecisionReports(
    const RopeParams& params, const std::vector<FloatFormat>& formats, long long maxPosition,
    double threshold, const std::atomic<bool>* cancelled) {
    auto freqs = ropeFrequencies(params);
    if (!freqs) return freqs.error();
    std::vector<RopePrecisionReport> reports;
    for (FloatFormat format : formats) {
        auto report = ropePrecision(*freqs, format, maxPosition, threshold, cancelled);
        if (!report) return report.error();
        reports.push_back(std::move(report.value()));
    }
    return reports;
}

Result<std::vector<RopePrecisionReport>> ropePrecisionSampledReports(
    const RopeParams& params, const std::vector<FloatFormat>& formats, long long maxPosition,
    double threshold) {
    auto freqs = ropeFrequencies(params);
    if (!freqs) return freqs.error();
    std::vector<RopePrecisionReport> reports;
    for (FloatFormat format : formats) {
        auto report = ropePrecisionSampled(*freqs, format, maxPosition, threshold);
        if (!report) return report.error();
        reports.push_back(std::move(report.value()));
    }
    return reports;
}

void drawRopePrecision(Figure& figure, Box area, const RopeParams& params,
                       const std::vector<RopePrecisionReport>& reports, const Theme& theme) {
    if (reports.empty() || reports.front().pairs.empty()) {
        drawNote(figure, area, "no format or no rotated pair to scan", theme);
        return;
    }
    const long long maxPosition = reports.front().maxPosition;
    const double threshold = reports.front().threshold;
    const int pairs = int(reports.front().pairs.size());
    LinePlotSpec spec;
    spec.title = "First position where the RoPE phase error passes " + formatValue(threshold, 3) +
                 " rad — " + ropeTitle(params) + ", positions 0.." + std::to_string(maxPosition);
    spec.x = integerAxis("pair i (fast pairs left)", 0, double(std::max(1, pairs - 1)));
    spec.y = {"first position over " + formatValue(threshold, 3) + " rad", 1,
              double(std::max(10LL, maxPosition)) * 4, true};
    spec.autoRangeY = false;
    spec.legend = false;  // drawn below, bottom right, clear of the curves and the top row
    spec.legendLater = true;
    for (std::size_t f = 0; f < reports.size(); ++f) {
        const RopePrecisionReport& report = reports[f];
        LineSeries series;
        series.name = std::string(floatFormatName(report.format)) + ": ";
        series.name += report.firstPositionOver < 0
                           ? "none up to " + std::to_string(maxPosition)
                           : "first at m = " + std::to_string(report.firstPositionOver) +
                                 " (pair " + std::to_string(report.firstPair) + ")";
        series.color = seriesColor(int(f));
        series.markers = pairs <= 160;  // lone points between gaps stay visible
        for (int i = 0; i < pairs; ++i) {
            const long long first = report.pairs[std::size_t(i)].firstPositionOver;
            series.x.push_back(i);
            series.y.push_back(first < 0 ? std::numeric_limits<double>::quiet_NaN()
                                         : double(std::max(1LL, first)));
        }
        spec.series.push_back(std::move(series));
    }
    Marker end;
    end.vertical = false;
    end.value = double(maxPosition);
    end.label = "";  // the title gives the range; a label here would sit under the circles
    end.color = theme.mutedText;
    spec.markers.push_back(end);
    // The note on the open circles goes under the plot: inside, its lines crossed the circles
    // (they sit on the top line, the curves reach up to them from the right: no corner is free).
    // A narrow figure (a small window) keeps the plot's height and places the note inside
    // where it hides least: three or more lines under the plot left it no room for its legend.
    const std::string note = "open circles: within the threshold up to the last position scanned";
    const float noteSize = theme.fontSize;
    const std::size_t noteLines = wrapText(note, noteSize, area.width - 8).size();
    const bool noteBelow = noteLines <= 2;
    const float noteHeight = noteBelow ? noteSize * 1.3f * float(noteLines) + 4 : 0;
    Box plotArea = area;
    plotArea.height = std::max(1.f, area.height - noteHeight);
    PlotFrame frame;
    drawLinePlot(figure, plotArea, spec, theme, &frame);
    if (noteBelow)
        drawParagraph(figure, {area.x + 4, plotArea.bottom() + 2, area.width - 8, noteHeight}, note,
                      theme, noteSize, theme.mutedText);
    // A file at one column: the long title takes three lines, and the plot left is too short
    // for its y label along it and for the legend below the curves. Its height follows its
    // width (askForHeight): taller, the plot holds both.
    askForHeight(theme, std::max(theme.fontSize * 12,
                                 estimateTextWidth(spec.y.label, theme.fontSize) + theme.fontSize) -
                            frame.plot.height);
    // Pairs that never pass the threshold: open circles on the scanned-range line, per format
    // a little apart so that overlapping formats stay visible.
    for (std::size_t f = 0; f < reports.size(); ++f) {
        for (int i = 0; i < pairs; ++i) {
            if (reports[f].pairs[std::size_t(i)].firstPositionOver >= 0) continue;
            Point p = frame.toPixel(i, double(maxPosition));
            p.y -= strokeWidth(theme, 5) * float(f);  // presentation mode: larger, as the lines
            figure.add(CircleItem{p,
                                  strokeWidth(theme, 2.5f),
                                  {0, 0, 0, 0},
                                  seriesColor(int(f)),
                                  strokeWidth(theme, 1)});
        }
    }
    // Legend at the bottom right: the curves rise to the right, so that corner stays clear.
    std::vector<LegendKey> keys;
    for (const LineSeries& series : spec.series) keys.push_back({series.name, series.color, false});
    drawLegendAfter(figure, frame, keys, LegendCorner::BottomRight, 0, theme);
    if (!noteBelow) drawNoteLines(figure, frame, {{note, theme.mutedText}}, theme);
}

}  // namespace poslab
