#include "poslab/figure/colorbar.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include "plot_parts.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/figure/text_boxes.hpp"

namespace poslab {

// ---- Sizes

float barWidthFor(const Theme& theme) {
    return std::max(10.f, theme.fontSize * 0.9f);
}

// A tick as long as a minus sign, and as thick at a projector's size, reads as one when it
// nearly touches "0.25": the 4 px that keep them apart at the screen's 14 px, grown with the
// text (at F5 it stayed 4 px beside 24 px labels).
float colorbarLabelGap(const Theme& theme) {
    return std::max(4.f, theme.fontSize * (4.f / 14));
}

// ---- Ticks

bool threeLabelsFit(float barHeight, float labelHeight) {
    return barHeight >= 3 * labelHeight + 2 * kColorbarLabelClearance;
}

namespace {

std::vector<Tick> niceTicks(ValueRange range, int maxCount, BarTicks kind) {
    if (kind == BarTicks::Angles) return piTicks(range.low, range.high, maxCount);
    return linearTicks(range.low, range.high, maxCount, kind == BarTicks::Integers);
}

// The pixels between the two closest ticks on a bar barHeight long (infinite for one tick).
float closestTicks(const std::vector<Tick>& ticks, ValueRange range, float barHeight) {
    float closest = std::numeric_limits<float>::infinity();
    const double span = range.high - range.low;
    for (std::size_t k = 1; k < ticks.size(); ++k)
        closest = std::min(closest,
                           float(std::abs(ticks[k].value - ticks[k - 1].value) / span * barHeight));
    return closest;
}

// Every multiple of `step` in range (none when more than 64 would be).
std::vector<Tick> multiplesOf(double step, ValueRange range) {
    std::vector<Tick> ticks;
    const double first = std::ceil(range.low / step - 1e-9);
    const double last = std::floor(range.high / step + 1e-9);
    // Counted in steps exactly (a range of a few doubles near 1 is 1e17 steps of its unit from 0,
    // where ++k would not move).
    if (!(last - first < 64) || !(std::max(std::abs(first), std::abs(last)) < 1e15)) return ticks;
    for (double k = first; k <= last; ++k) ticks.push_back({k == 0 ? 0.0 : k * step, ""});
    labelTicks(ticks);
    return ticks;
}

// No nice step (nor every other tick of a finer one) has three labels that keep clear of one
// another: the multiples of a step of 1, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten (whole
// steps on an integer bar), the smallest whose labels keep clear: 0, 3, 6 on a short bar of
// 0 .. 7; else the range's ends rounded inward to a tenth of its decade and the middle, made
// even; else two: the smallest step that has two (0 and 5), else the rounded ends (1 and 3).
// Evenly spaced always: the rounded ends and a rounded middle (0, 4, 7) or ends beside nice
// ticks (0, 5, 7) read as a scale that is not.
std::vector<Tick> evenlySpaced(const std::vector<Tick>& nice, ValueRange range, float barHeight,
                               float clearance, bool integers) {
    const double span = range.high - range.low;
    double unit = std::pow(10.0, std::floor(std::log10(span)) - 1);
    if (integers) unit = std::max(1.0, std::round(unit));
    if (!(unit > 0) || !std::isfinite(unit)) return nice;
    std::vector<Tick> two;
    for (double decade : {unit, unit * 10, unit * 100}) {
        for (double times : {1.0, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0}) {
            const double step = decade * times;
            if (integers && step != std::round(step)) continue;
            std::vector<Tick> ticks = multiplesOf(step, range);
            if (ticks.size() < 2 || closestTicks(ticks, range, barHeight) < clearance) continue;
            if (ticks.size() >= 3) return ticks;
            if (two.empty()) two = std::move(ticks);
        }
    }
    // The range's ends rounded inward to the unit and the middle between them, one unit off the
    // less round end when the units between them are odd (1e-5 .. 3e-4: 2e-5, 1.6e-4, 3e-4):
    // as far apart as the rounded ends and a rounded middle were, and evenly.
    auto clean = [&](double units) { return units == 0 ? 0.0 : units * unit; };  // no −0
    double low = std::ceil(range.low / unit - 1e-9), high = std::floor(range.high / unit + 1e-9);
    if (!(std::max(std::abs(low), std::abs(high)) < 1e15)) return two.empty() ? nice : two;
    if (std::fmod(high - low, 2) != 0) {
        auto roundness = [](double units) {  // the power of ten that divides it
            int zeros = 0;
            for (double v = std::abs(units); v >= 10 && std::fmod(v, 10) == 0 && zeros < 20;
                 v /= 10)
                ++zeros;
            return units == 0 ? 99 : zeros;
        };
        if (roundness(high) > roundness(low))
            low += 1;
        else
            high -= 1;
    }
    if (high - low >= 2) {
        std::vector<Tick> three{{clean(low), ""}, {clean((low + high) / 2), ""}, {clean(high), ""}};
        if (closestTicks(three, range, barHeight) >= clearance) {
            labelTicks(three);
            return three;
        }
    }
    if (!two.empty()) return two;
    std::vector<Tick> ends{{clean(std::ceil(range.low / unit - 1e-9)), ""},
                           {clean(std::floor(range.high / unit + 1e-9)), ""}};
    if (ends[0].value < ends[1].value && closestTicks(ends, range, barHeight) >= clearance) {
        labelTicks(ends);
        return ends;
    }
    return nice;
}

}  // namespace

std::vector<Tick> colorbarTicks(ValueRange range, float barHeight, float labelHeight,
                                BarTicks kind) {
    const double spacing = kind == BarTicks::Angles ? 40 : kColorbarTickSpacing;
    std::vector<Tick> ticks = niceTicks(range, tickCountFor(barHeight, spacing), kind);
    if (!(range.high > range.low) || !threeLabelsFit(barHeight, labelHeight) ||
        !std::isfinite(barHeight) || !std::isfinite(range.high - range.low))
        return ticks;
    const float clearance = labelHeight + kColorbarLabelClearance;
    const bool clear = closestTicks(ticks, range, barHeight) >= clearance;
    if (ticks.size() >= 3 && clear) return ticks;
    // A finer nice step, as long as its labels keep clear of one another: up to as many ticks
    // as labels fit on the bar.
    const int most = std::min(64, int(barHeight / clearance) + 1);
    for (int count = tickCountFor(barHeight, spacing) + 1; clear && count <= most; ++count) {
        std::vector<Tick> finer = niceTicks(range, count, kind);
        if (closestTicks(finer, range, barHeight) < clearance) break;  // finer steps are closer
        if (finer.size() >= 3) return finer;
    }
    if (kind == BarTicks::Angles) return ticks;
    // Every other (third, ...) tick of a finer nice step where those keep clear: 10, 30, 50 on
    // xPos's bar at one column, evenly spaced, where the rounded ends gave 6, 25, 50 (#28). The
    // coarsest step first, then the smallest stride; of its offsets the one with the most ticks.
    // (Up to four times as many ticks as labels fit: strides of up to four.)
    for (int count = tickCountFor(barHeight, spacing) + 1; clear && count <= 4 * most; ++count) {
        const std::vector<Tick> finer = niceTicks(range, count, kind);
        std::vector<Tick> best;
        for (std::size_t stride = 2; best.empty() && 3 * stride <= finer.size() + stride;
             ++stride) {
            for (std::size_t offset = 0; offset < stride; ++offset) {
                std::vector<Tick> every;
                for (std::size_t k = offset; k < finer.size(); k += stride)
                    every.push_back(finer[k]);
                if (every.size() >= 3 && every.size() > best.size() &&
                    closestTicks(every, range, barHeight) >= clearance)
                    best = std::move(every);
            }
        }
        if (!best.empty()) return best;
    }
    // Three nice ticks too close for their labels (the drawing leaves out one that touches the
    // one before) are no better than two.
    return evenlySpaced(clear ? ticks : std::vector<Tick>{}, range, barHeight, clearance,
                        kind == BarTicks::Integers);
}

// ---- The ramp

std::shared_ptr<const Matrix> colorbarRamp() {
    static const std::shared_ptr<const Matrix> ramp = [] {
        auto m = std::make_shared<Matrix>(kColormapSize, 1);
        for (int i = 0; i < kColormapSize; ++i) (*m)(i, 0) = 1.0 - double(i) / (kColormapSize - 1);
        return std::shared_ptr<const Matrix>(std::move(m));
    }();
    return ramp;
}

std::uint64_t colorbarVersion(ColormapId colormap) {
    static const auto versions = [] {
        std::array<std::uint64_t, 16> v{};
        for (auto& version : v) version = nextMatrixVersion();
        return v;
    }();
    return versions[std::size_t(colormap) % versions.size()];
}

void drawColorbarRamp(Figure& figure, Box bar, ColormapId colormap, const Theme& theme) {
    HeatmapItem ramp;
    ramp.box = bar;
    ramp.values = colorbarRamp();
    ramp.colormap = colormap;
    ramp.range = {0, 1};
    ramp.version = colorbarVersion(colormap);
    figure.add(ramp);
    figure.add(filledRect(bar, {0, 0, 0, 0}, theme.axis, strokeWidth(theme, 1)));
}

// ---- Whole bars

void drawColorbarTicks(Figure& figure, Box bar, ColormapId colormap, ValueRange range,
                       const std::vector<Tick>& ticks, const Theme& theme, const Box* labelBounds) {
    drawColorbarRamp(figure, bar, colormap, theme);
    std::optional<Box> lastLabel;
    for (const Tick& t : ticks) {
        if (range.high == range.low) break;
        const float fy = float(rangeFraction(t.value, range.low, range.high));
        if (fy < -1e-4f || fy > 1.0001f) continue;
        const float py = bar.bottom() - fy * bar.height;
        const float tick = strokeWidth(theme, 4);
        figure.add(
            LineItem{{bar.right(), py}, {bar.right() + tick, py}, theme.axis, tick / 4, false});
        // Clear of the tick: a tick touching "−0.25" reads as "−−0.25".
        TextItem label =
            makeText({bar.right() + tick + colorbarLabelGap(theme), py}, t.label, theme.fontSize,
                     theme.text, HorizontalAlign::Left, VerticalAlign::Middle);
        if (labelBounds) {
            plot_parts::addTickLabel(figure, std::move(label), lastLabel, *labelBounds);
        } else {
            // A bar shorter than two ticks' room still gets two steps (−1, 0, 1 on 24 px at
            // 480x320): a label that would touch the one before it is left out, its tick kept.
            const Box box = textBox(label);
            if (lastLabel && boxesOverlap(box,
                                          {lastLabel->x - 2, lastLabel->y - 2, lastLabel->width + 4,
                                           lastLabel->height + 4},
                                          0))
                continue;
            lastLabel = box;
            figure.add(std::move(label));
        }
    }
}

void drawColorbar(Figure& figure, Box bar, ColormapId colormap, ValueRange range,
                  const Theme& theme, bool integerTicks) {
    drawColorbarTicks(figure, bar, colormap, range,
                      colorbarTicks(range, bar.height, theme.fontSize,
                                    integerTicks ? BarTicks::Integers : BarTicks::Numbers),
                      theme);
}

float colorbarTickWidth(ValueRange range, float barHeight, const Theme& theme, bool integerTicks) {
    float widest = 0;
    for (const Tick& t : colorbarTicks(range, barHeight, theme.fontSize,
                                       integerTicks ? BarTicks::Integers : BarTicks::Numbers))
        widest = std::max(widest, estimateTextWidth(t.label, theme.fontSize));
    return widest + 2 + colorbarLabelGap(theme) + strokeWidth(theme, 4);
}

float colorbarBlockWidth(ValueRange range, float height, const Theme& theme) {
    // The bar is often shorter than `height` (titles and gaps come off it once the cells are
    // placed), and a shorter bar can get a different tick set with wider labels ("−12.5" where
    // "−15" was estimated): the widest label of the sets down to half the height.
    float widest = 0;
    for (int eighths = 4; eighths <= 8; ++eighths) {
        for (const Tick& t : colorbarTicks(range, height * float(eighths) / 8, theme.fontSize))
            widest = std::max(widest, estimateTextWidth(t.label, theme.fontSize));
    }
    return theme.fontSize * 0.9f + barWidthFor(theme) + 2 + colorbarLabelGap(theme) +
           strokeWidth(theme, 4) + widest + theme.fontSize * 2.6f;
}

void drawColorbar(Figure& figure, Box bar, ColormapId colormap, ValueRange range,
                  const std::string& caption, float labelX, bool maskedSwatch, const Theme& theme) {
    drawColorbarTicks(figure, bar, colormap, range,
                      range.high > range.low ? colorbarTicks(range, bar.height, theme.fontSize)
                                             : std::vector<Tick>{},
                      theme);
    std::optional<Box> captionBox;
    if (!caption.empty()) {
        TextItem text =
            centredText({labelX, bar.y + bar.height / 2}, caption, theme.fontSize, theme.mutedText,
                        HorizontalAlign::Center, VerticalAlign::Top, true);
        captionBox = textBox(text);
        figure.add(std::move(text));
    }
    if (maskedSwatch) {
        const float side = bar.width;
        // Below the lowest tick label, which is centred on the bar's bottom edge and hangs half a
        // line under it: with large text (presentation mode) and a narrow bar, 6 px would put
        // "masked" on top of it.
        const float top = bar.bottom() + std::max({6.0f, theme.fontSize * 0.5f + 2,
                                                   theme.fontSize * 0.95f - side / 2 + 2});
        // Short of the caption's column, which runs down to the bar's bottom; when "masked" is
        // too long for that at the smallest size the theme allows (one column in print), it goes
        // left of the swatch, which stays under the bar (below the caption's end it floated
        // far from the bar it explains).
        const float size = atLeastMinText(theme.fontSize * 0.9f, theme);
        const float room = labelX - bar.right() - 6;
        const bool leftOf = captionBox && estimateTextWidth("masked", size) > room;
        figure.add(filledRect({bar.x, top, side, side}, theme.masked, theme.axis));
        const FittedText label = leftOf
                                     ? FittedText{"masked", size}
                                     : fitText("masked", size, room, readableMinScale(size, theme));
        figure.add(centredText({leftOf ? bar.x - 6 : bar.right() + 6, top + side / 2}, label.text,
                               label.size, theme.mutedText,
                               leftOf ? HorizontalAlign::Right : HorizontalAlign::Left,
                               VerticalAlign::Middle));
    }
}

}  // namespace poslab
