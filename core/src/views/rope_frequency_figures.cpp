// rope_frequency_figures.cpp — the wavelength ladder (views/rope_frequency_figures.hpp): one
// wavelength per pair on a log axis, the context and training lengths marked, and a scaling's
// thresholds.
#include "poslab/views/rope_frequency_figures.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "poslab/encodings/rope_scaling.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "poslab/views/rope_figures.hpp"

namespace poslab {

// ---------------------------------------------------------------------------------------------
// Frequencies
// ---------------------------------------------------------------------------------------------

std::string_view turnReferenceName(RopeTurnReference reference) {
    return enumName(kTurnReferenceNames, reference);
}

Result<RopeTurnReference> parseTurnReference(std::string_view name) {
    return parseEnum(kTurnReferenceNames, name, "incomplete_within");
}

std::vector<Marker> ropeScalingThresholds(const RopeParams& params, const Theme& theme) {
    std::vector<Marker> markers;
    const RopeScalingParams& s = params.scaling;
    const int d = rotatedDims(params), L0 = originalMaxPositions(params);
    if (d < 2 || !(params.base > 1)) return markers;
    auto marker = [&](double pair, std::string label, Rgba color) {
        Marker m;
        m.vertical = true;
        m.value = pair;
        m.label = std::move(label);
        m.color = color;
        markers.push_back(std::move(m));
    };
    // Reddish purple, apart from the lengths' colours; lighter on the dark theme.
    const Rgba color = theme.id == ThemeId::Paper ? seriesColor(3) : Rgba{225, 150, 195, 255};
    if (s.type == RopeScaling::Llama3) {
        // 2 pi base^(2i/d) = lambda  <=>  i = (d/2) log(lambda / 2 pi) / log(base)
        auto pairOf = [&](double wavelength) {
            return double(d) / 2 * std::log(wavelength / (2 * std::numbers::pi)) /
                   std::log(params.base);
        };
        // In words, as lesson 10.5's card says it: "λ = L0/4 = 1024: kept below" and "÷s above"
        // named the config's fields (original length, high/low frequency factors, factor).
        const double kept = double(L0) / s.highFreqFactor, divided = double(L0) / s.lowFreqFactor;
        auto length = [&](double factor, double wavelength) {
            const std::string whole = formatValue(wavelength, 6);
            return factor == 1.0
                       ? whole
                       : std::to_string(L0) + "/" + formatValue(factor, 3) + " = " + whole;
        };
        marker(pairOf(kept), "shorter than " + length(s.highFreqFactor, kept) + ": kept", color);
        marker(pairOf(divided),
               "longer than " + length(s.lowFreqFactor, divided) + ": stretched ×" +
                   formatValue(s.factor, 4),
               color);
    } else if (s.type == RopeScaling::Yarn) {
        const YarnCorrectionRange range =
            yarnCorrectionRange(s, {d, params.base, params.seqLen, L0});
        // β with "fast" and "slow" as upright subscripts, as the YaRN paper sets them; a
        // no-break space keeps the value beside its name where a legend wraps the label.
        marker(range.low,
               "YaRN ramp starts ($β_{\\mathrm{fast}}$\u00a0" + formatValue(s.betaFast, 3) + ")",
               color);
        marker(range.high,
               "ramp ends ($β_{\\mathrm{slow}}$\u00a0" + formatValue(s.betaSlow, 3) + ")", color);
    }
    return markers;
}

void drawRopeFrequencies(Figure& figure, Box area, const RopeParams& params,
                         const RopeFrequencyOptions& options, const Theme& theme,
                         PlotFrame* frameOut) {
    auto freqs = ropeFrequencies(params);
    auto original = unscaledFrequencies(params);
    if (!freqs || !original) {
        drawNote(figure, area, (!freqs ? freqs : original).error().message, theme);
        return;
    }
    const std::vector<double> wavelengths = ropeWavelengths(*freqs);
    const std::vector<double> originalWavelengths = ropeWavelengths(*original);
    const int pairCount = int(wavelengths.size());
    const int context = params.seqLen, training = originalMaxPositions(params);
    const bool byTraining = options.incompleteWithin == RopeTurnReference::Training;
    const int reference = byTraining ? training : context;
    const bool scaled = params.scaling.type != RopeScaling::None;
    // Scaled and judged by training: what the scaled model meets at the context that the model
    // never saw in training (as Extrapolation's "angle at L ÷ angle seen"), not whether the
    // stretched pairs turn within the training length: that count rises with every scaling.
    const bool byAnglesSeen = byTraining && scaled;
    const std::vector<bool> incomplete =
        byAnglesSeen ? ropeUnseenAngles(*freqs, *original, context, training)
                     : ropeIncompleteTurns(*freqs, reference);
    const int incompleteCount = int(std::count(incomplete.begin(), incomplete.end(), true));

    LinePlotSpec spec;
    spec.title = "Wavelength $2π/θ_i$ of each pair — " + ropeTitle(params);
    spec.x = integerAxis("pair $i$  ($θ_i = \\mathrm{base}^{-2i/d}$, fast → slow)", -0.5,
                         std::max(pairCount, 1) - 0.5);
    double low = INFINITY, high = 0;
    for (std::size_t i = 0; i < wavelengths.size(); ++i) {
        low = std::min({low, wavelengths[i], originalWavelengths[i]});
        high = std::max({high, wavelengths[i], originalWavelengths[i]});
    }
    high = std::max({high, double(context), double(training)});
    spec.y = {"wavelength (positions)", low / 1.6, high * 1.6, true};
    spec.autoRangeY = false;
    spec.legend = false;
    spec.markers = ropeScalingThresholds(params, theme);

    std::vector<LegendKey> legend;
    const bool dots = pairCount <= 160;
    if (scaled) {
        LineSeries plain;
        plain.x.resize(std::size_t(pairCount));
        for (int i = 0; i < pairCount; ++i) plain.x[std::size_t(i)] = i;
        plain.y = originalWavelengths;
        plain.color = theme.mutedText;
        plain.width = 2;
        spec.series.push_back(plain);
        legend.push_back({"unscaled ($2π·\\mathrm{base}^{2i/d}$)", theme.mutedText});
    }
    LineSeries main;
    main.x.resize(std::size_t(pairCount));
    for (int i = 0; i < pairCount; ++i) main.x[std::size_t(i)] = i;
    main.y = wavelengths;
    main.color = ropeQueryColor(theme);
    main.width = 2;
    main.markers = dots;
    spec.series.push_back(main);
    legend.push_back(
        {scaled ? "scaled: " + ropeScalingSummary(params) : "$2π·\\mathrm{base}^{2i/d}$",
         ropeQueryColor(theme), dots});

    // The pairs without a full turn, drawn over the curve in the accent colour, one dot each.
    LineSeries highlight;
    highlight.x = main.x;
    highlight.y.assign(std::size_t(pairCount), NAN);
    for (int i = 0; i < pairCount; ++i) {
        if (incomplete[std::size_t(i)]) highlight.y[std::size_t(i)] = wavelengths[std::size_t(i)];
    }
    highlight.color = theme.accent;
    highlight.width = 3;
    highlight.markers = true;
    spec.series.push_back(highlight);
    legend.push_back(
        {byAnglesSeen
             ? std::to_string(incompleteCount) + " of " + std::to_string(pairCount) +
                   " pairs reach angles at " + std::to_string(context) + " not seen in training"
             : std::to_string(incompleteCount) + " of " + std::to_string(pairCount) +
                   " pairs never complete a turn within the " +
                   (byTraining ? "training length " : "context ") + std::to_string(reference),
         theme.accent, true});
    legend.back().swatch = incompleteCount > 0;  // no accent dot keys a series of no dots

    // drawLinePlot places the legend where it hides no pair (long names wrapped), else outside;
    // the lengths below keep clear of it.
    spec.legend = true;
    for (const LegendKey& key : legend) spec.keys.push_back(key);
    struct Length {
        int value;
        std::string label;
        Rgba color;
    };
    const std::string above = " — pairs above it never complete a turn";
    std::vector<Length> lengths;
    if (context == training) {
        lengths.push_back(
            {context, "context = training length " + std::to_string(context) + above, theme.text});
    } else {
        lengths.push_back({context,
                           "context length " + std::to_string(context) + (byTraining ? "" : above),
                           theme.text});
        lengths.push_back({training,
                           "training length " + std::to_string(training) +
                               (byTraining && !byAnglesSeen ? above : ""),
                           seriesColor(2)});
    }
    // A length whose label has no place hiding no pair and no text is listed in the legend (its
    // dashed line in its colour) instead: the plot is drawn again with that key.
    std::vector<bool> listed(lengths.size(), false);
    bool shortNames = false;
    const Figure::Checkpoint start = figure.checkpoint();
    // The two longest names said shorter (the title gives 2π/θ_i; the count keeps its numbers).
    auto shorten = [&] {
        if (scaled) spec.keys.front().text = "unscaled";
        spec.keys[legend.size() - 1].text =
            std::to_string(incompleteCount) + " of " + std::to_string(pairCount) +
            (byAnglesSeen ? " pairs: unseen angles at " + std::to_string(context)
                          : " pairs: no full turn in " + std::to_string(reference));
    };
    // A name wider than the figure (a one-column print) said shorter: in rows under the plot
    // (drawLinePlot's rule) it would take two lines.
    if (std::any_of(spec.keys.begin(), spec.keys.end(), [&](const LegendKey& key) {
            return legendBoxWidth({key}, theme) > area.width - 16;
        })) {
        shortNames = true;
        shorten();
    }
    for (int pass = 0;; ++pass) {
        PlotFrame frame;
        drawLinePlot(figure, area, spec, theme, &frame);

        // The lengths, drawn here rather than as plot markers so that their labels sit at the left,
        // where the rising curve leaves room. Above the chosen one, a tint: no full turn in there.
        const Box& plot = frame.plot;
        figure.add(ClipPush{plot});
        const float referenceY = frame.toPixel(0, reference).y;
        // Scaled pairs are judged against their unscaled angles, not against a wavelength line.
        // Tint and lines go around the legend drawn inside the plot, not over its text.
        const Box legendBox = frame.legend;
        const bool legendInside =
            legendBox.width > 0 && legendBox.x < plot.right() && legendBox.y < plot.bottom();
        if (referenceY > plot.y && !byAnglesSeen) {
            const Box tint{plot.x, plot.y, plot.width,
                           std::min(referenceY, plot.bottom()) - plot.y};
            const Rgba fill = withAlpha(theme.accent, theme.id == ThemeId::Dark ? 34 : 22);
            for (const Box& piece : boxMinus(tint, legendInside ? legendBox : Box{}))
                figure.add(RectItem{piece, fill, {0, 0, 0, 0}, 1});
        }
        // Labels drawn so far, the legend and the plot's own texts (the scaling's threshold
        // labels, "ramp ends (β_slow 1)"): a close second line labels the other side.
        std::vector<Box> labelled;
        if (legendInside) labelled.push_back(legendBox);
        // The scaling's threshold lines too: a length's label across one reads as struck through.
        for (const Marker& marker : spec.markers) {
            const float px = frame.toPixel(marker.value, frame.y.low).x;
            if (marker.vertical && px >= plot.x && px <= plot.right())
                labelled.push_back({px - 1, plot.y, 2, plot.height});
        }
        for (std::size_t i = start.items; i < figure.items.size(); ++i) {
            if (const auto* text = std::get_if<TextItem>(&figure.items[i]))
                labelled.push_back(textBox(*text));
        }
        bool retry = false;
        for (std::size_t index = 0; index < lengths.size(); ++index) {
            const Length& length = lengths[index];
            const float y = frame.toPixel(0, length.value).y;
            const float left = legendInside && y >= legendBox.y && y <= legendBox.bottom()
                                   ? legendBox.x
                                   : plot.right();
            figure.add(LineItem{{plot.x, y}, {left, y}, length.color, 1.5f, true});
            if (left < plot.right())
                figure.add(
                    LineItem{{legendBox.right(), y}, {plot.right(), y}, length.color, 1.5f, true});
            // The whole label, else its first words ("context length 4096"), at the left or the
            // right, above or below the line: the first place that hides no pair and no text.
            const std::string shortLabel = length.label.substr(0, length.label.find(" — "));
            if (listed[index]) continue;
            auto place = [&](const std::string& label, bool below, bool right) {
                const FittedText fitted = fitText(label, theme.fontSize, plot.width - 16);
                return makeText({right ? plot.right() - 8 : plot.x + 8, below ? y + 3 : y - 3},
                                fitted.text, fitted.size, length.color,
                                right ? HorizontalAlign::Right : HorizontalAlign::Left,
                                below ? VerticalAlign::Top : VerticalAlign::Bottom);
            };
            auto clear = [&](const TextItem& text) {
                const Box box = textBox(text);
                if (box.y < plot.y || box.bottom() > plot.bottom()) return false;
                for (const Box& other : labelled)
                    if (boxesOverlap(box, other, 0)) return false;
                return true;
            };
            const bool below = y - theme.fontSize * 1.2f < plot.y;
            std::optional<TextItem> chosen, firstClear;
            for (const std::string* label : {&length.label, &shortLabel}) {
                for (bool right : {false, true}) {
                    for (bool side : {below, !below}) {
                        TextItem text = place(*label, side, right);
                        if (!clear(text)) continue;
                        if (!firstClear && label == &shortLabel) firstClear = text;
                        // Clear of the dots by markClearance too: the whole label just above them
                        // read as on them (1024x768, #28).
                        if (!crowdsMarks(figure, textBox(text), text.size)) {
                            chosen = text;
                            break;
                        }
                    }
                    if (chosen) break;
                }
                if (chosen) break;
            }
            // Also after a pass that listed another length: its key makes the legend taller
            // and may take this label's place (lesson 10.5 at 1440x900 F5, #28).
            if (!chosen && pass < int(lengths.size())) {
                listed[index] = retry = true;
                spec.keys.push_back({shortLabel, length.color, false, true});
                continue;
            }
            if (!chosen) chosen = firstClear;
            if (!chosen) continue;  // every side taken: the line and the legend say it
            labelled.push_back(textBox(*chosen));
            figure.add(*chosen);
        }
        figure.add(ClipPop{});
        // Many keys (the lengths and a scaling's ramp lines listed) in a column beside the plot
        // left it under half the area's width (lesson 10.4 at 1024x768 F5: 250 x 170 px, its x
        // label on three lines): the two longest names said shorter, so the column narrows.
        const bool squeezedBeside = frame.legendColumn.width > 0 &&
                                    frame.legendColumn.x >= plot.right() &&
                                    plot.width < area.width * 0.5f;
        if (!retry && squeezedBeside && !shortNames) {
            shortNames = true;
            retry = true;
            shorten();
        }
        if (!retry) {
            if (frameOut) *frameOut = frame;
            return;
        }
        figure.rollBack(start);
    }
}

}  // namespace poslab
