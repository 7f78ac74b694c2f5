#include "poslab/figure/ticks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>

#include "poslab/base/format.hpp"

namespace poslab {

namespace {

// Tick counts come from pixel sizes; the cap keeps a huge or non-finite area from asking for
// millions of labels. Every tick loop below runs at most kMaxTicks * 3 times.
constexpr int kMaxTicks = 1000;

// A log axis over many decades is labelled every stride-th decade, the smallest stride here that
// fits: 1, 2, 3 or 5 decades, and coarser only past 40 decades. Finite doubles span 632 decades:
// the last stride leaves at most two labels.
constexpr int kLogStrides[] = {1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000};
constexpr int kMostLogLabels = 8;

// The shortest %g (4 significant digits or more) that needs no exponent: nice tick values
// are short, and the plain style only takes magnitudes that %g writes without one.
std::string plainNumber(double value) {
    char buffer[64];
    if (value == std::floor(value) && std::abs(value) < 1e15) {
        std::snprintf(buffer, sizeof buffer, "%.0f", value);
        return buffer;
    }
    for (int digits = 4; digits <= 17; ++digits) {
        std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
        // No exponent, and the value itself (to 1e-9), not a rounding of it: 12500.5, not 12500.
        if (std::string(buffer).find('e') == std::string::npos &&
            std::abs(std::strtod(buffer, nullptr) - value) <= std::abs(value) * 1e-9)
            return buffer;
    }
    return formatValue(value);
}

}  // namespace

std::string withMinusSign(std::string number) {
    if (!number.empty() && number[0] == '-') number.replace(0, 1, kMinusSign);
    return number;
}

int tickCountFor(double pixels, double spacing) {
    const double count = pixels / spacing;
    if (!(count >= 2)) return 2;  // also NaN
    return count >= kMaxTicks ? kMaxTicks : int(count);
}

// ---- Labels

TickStyle tickStyleFor(const std::vector<double>& values) {
    for (double v : values) {
        const double magnitude = std::abs(v);
        if (magnitude == 0 || !std::isfinite(v)) continue;
        if (magnitude < 1e-3 * (1 - 1e-12) || magnitude >= 1e6) return TickStyle::PowersOfTen;
    }
    return TickStyle::Plain;
}

std::string tickLabel(double value, TickStyle style) {
    if (value == 0) return "0";
    if (!std::isfinite(value)) return withMinusSign(formatValue(value));
    if (style == TickStyle::Plain) return withMinusSign(plainNumber(value));
    int exponent = int(std::floor(std::log10(std::abs(value)) + 1e-9));
    char mantissa[32];
    std::snprintf(mantissa, sizeof mantissa, "%.4g", std::abs(value) / std::pow(10.0, exponent));
    std::string m = mantissa;
    if (m == "10") m = "1", ++exponent;  // 9.99995 rounds up a decade
    std::string label = value < 0 ? "$-" : "$";
    if (m != "1") label += m + "·";
    return label + "10^{" + std::to_string(exponent) + "}$";
}

void labelTicks(std::vector<Tick>& ticks) {
    std::vector<double> values;
    for (const Tick& t : ticks) values.push_back(t.value);
    const TickStyle style = tickStyleFor(values);
    for (Tick& t : ticks) t.label = tickLabel(t.value, style);
}

// ---- Ticks

std::vector<Tick> linearTicks(double low, double high, int maxCount, bool integers) {
    std::vector<Tick> ticks;
    if (!(high >= low) || !std::isfinite(low) || !std::isfinite(high) || maxCount < 1) return ticks;
    maxCount = std::min(maxCount, kMaxTicks);
    if (integers) {
        // Integer axes: only whole numbers are ticks. A range holding none (0.2 .. 0.8) has no
        // honest tick; one holding a single integer gets that one.
        const double lowest = std::ceil(low - 1e-9), highest = std::floor(high + 1e-9);
        if (lowest > highest) return ticks;
        if (lowest == highest) {
            ticks.push_back({lowest, ""});
            labelTicks(ticks);
            return ticks;
        }
    }
    if (high == low) {
        ticks.push_back({low, ""});
        labelTicks(ticks);
        return ticks;
    }
    // A width near or beyond the largest double (-1.7e308 .. 1.7e308): the step search below
    // multiplies the width by up to 10. Tick a tenth of the range and scale the ticks back:
    // steps stay 1, 2, 2.5 or 5 times a power of ten.
    if (!std::isfinite((high - low) * 10)) {
        for (const Tick& t : linearTicks(low / 10, high / 10, maxCount, false)) {
            const double value = t.value * 10;
            if (std::isfinite(value)) ticks.push_back({value, ""});
        }
        if (ticks.empty()) ticks.push_back({low, ""});
        labelTicks(ticks);
        return ticks;
    }
    const double raw = (high - low) / maxCount;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    // A range too narrow for its magnitude (1 .. 1 + 1e-16, or subnormal widths): no two round
    // numbers between the ends are apart as doubles. Its ends are the only honest ticks.
    const double resolution = std::max(std::abs(low), std::abs(high)) * 1e-12;
    if (!(magnitude > 0) || !std::isnormal(raw) || raw <= resolution) {
        ticks.push_back({low, ""});
        if (maxCount >= 2 && formatValue(high) != formatValue(low)) ticks.push_back({high, ""});
        labelTicks(ticks);
        return ticks;
    }
    double step = magnitude;
    for (double factor : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (integers && factor == 2.5) continue;
        step = factor * magnitude;
        if (step >= raw) break;
    }
    if (integers) step = std::max(1.0, std::round(step));
    // A short axis could get a single tick (0 .. 4095 in two labels' room: step 5000). Two ends
    // say more: take the largest smaller nice step with two multiples in range. Like the usual
    // step, it may have maxCount steps between its ticks (0, 2000, 4000), and its ticks are its
    // multiples, so an axis through 0 is ticked at 0 (-63 .. 63 read -50, 50 when the stride
    // counted ticks, not steps). Only a step with more than maxCount steps takes every
    // stride-th multiple.
    auto multiples = [&](double s) {
        return std::floor(high / s + 1e-9) - std::ceil(low / s - 1e-9) + 1;
    };
    double first = std::ceil(low / step - 1e-9) * step;
    if (maxCount >= 2 && multiples(step) < 2) {
        // Candidates fall in size, so the first with two multiples has the fewest steps.
        double nice = 0;
        for (double decade : {10.0, 1.0}) {  // the decade above the step's, then its own
            const double m = magnitude * decade;
            for (double factor : {5.0, 2.5, 2.0, 1.0}) {
                const double candidate = factor * m;
                if (candidate >= step || (integers && (factor == 2.5 || candidate < 1))) continue;
                if (multiples(candidate) >= 2) {
                    nice = candidate;
                    break;
                }
            }
            if (nice > 0) break;
        }
        if (nice > 0) {
            const double stride = std::ceil((multiples(nice) - 1) / maxCount);
            step = nice * stride;
            // Multiples of the (strided) step hold 0; a stride that leaves fewer than two of
            // them starts from the first multiple of the nice step instead.
            first = multiples(step) >= 2 ? std::ceil(low / step - 1e-9) * step
                                         : std::ceil(low / nice - 1e-9) * nice;
        }
    }
    // Counted, not accumulated: first + i * step reaches past high within maxCount + 2 steps,
    // and the count caps the loop whatever rounding does.
    const double end = high + step * 1e-9;
    for (int i = 0; i <= maxCount * 3; ++i) {
        const double v = first + double(i) * step;
        if (!(v <= end)) break;
        const double clean = std::abs(v) < step * 1e-9 ? 0.0 : v;
        ticks.push_back({integers ? std::round(clean) : clean, ""});
    }
    labelTicks(ticks);
    return ticks;
}

std::vector<Tick> logTicks(double low, double high, int maxCount) {
    std::vector<Tick> ticks;
    if (!(low > 0) || !(high > low) || !std::isfinite(high)) return ticks;
    maxCount = std::clamp(maxCount, 1, kMaxTicks);
    // Finite positive doubles have log10 in [-323.3, 308.3]: the exponents fit an int.
    const int first = int(std::ceil(std::log10(low) - 1e-9));
    const int last = int(std::floor(std::log10(high) + 1e-9));
    const int decades = last - first + 1;
    if (decades < 3) {
        // Few decades in range (Scalings' 0.1 .. 1): 1, 2 and 5 times each power of ten, or
        // 1 and 3 (about half a decade apart), whichever set fits the room.
        for (const auto& mantissas : {std::vector<double>{1, 2, 5}, std::vector<double>{1, 3}}) {
            std::vector<Tick> finer;
            for (int e = first - 1; e <= last; ++e) {
                for (double m : mantissas) {
                    const double v = m * std::pow(10.0, e);
                    if (std::isfinite(v) && v >= low * (1 - 1e-9) && v <= high * (1 + 1e-9))
                        finer.push_back({v, ""});
                }
            }
            if (int(finer.size()) > decades && int(finer.size()) <= maxCount) {
                ticks = std::move(finer);
                break;
            }
        }
    }
    if (ticks.empty()) {
        // Every 1, 2, 3 or 5 decades (then 10, 20, 50, ...): the smallest stride whose labels
        // keep at most maxCount steps between them (0.1, 1, 10 in two labels' room, not 0.1 and
        // 10 with the 1 a scale is read from left out) and number at most kMostLogLabels, so a
        // long axis reads 10^-15, 10^-10, 10^-5, 10^0 rather than every seventh decade (#28);
        // logMinorTicks marks the decades between. Strides of 3 or more sit at exponents that
        // are multiples of the stride (10^-15, 10^-10, not 10^-18, 10^-13); 2 from the first
        // decade (10, 1000, 10^5 as well as 100, 10^4).
        auto exponents = [&](int stride) {
            std::vector<int> out;
            const int start = stride <= 2 ? first : int(std::ceil(double(first) / stride)) * stride;
            for (int e = start; e <= last && int(out.size()) <= kMostLogLabels; e += stride)
                out.push_back(e);
            return out;
        };
        std::vector<int> chosen;
        for (const int stride : kLogStrides) {
            chosen = exponents(stride);
            if (!chosen.empty() && int(chosen.size()) - 1 <= maxCount &&
                int(chosen.size()) <= kMostLogLabels)
                break;
        }
        for (const int e : chosen) ticks.push_back({std::pow(10.0, e), ""});
    }
    // Powers of ten read better than 0.0001 or 100000 on a log axis: plain only within 1e-3..1e4.
    bool plain = true;
    for (const Tick& t : ticks) plain = plain && t.value >= 1e-3 * (1 - 1e-12) && t.value <= 1e4;
    for (Tick& t : ticks)
        t.label = tickLabel(t.value, plain ? TickStyle::Plain : TickStyle::PowersOfTen);
    return ticks;
}

std::vector<double> logMinorTicks(double low, double high, const std::vector<Tick>& labelled) {
    std::vector<double> minor;
    if (!(low > 0) || !(high > low) || !std::isfinite(high)) return minor;
    const int first = int(std::ceil(std::log10(low) - 1e-9));
    const int last = int(std::floor(std::log10(high) + 1e-9));
    for (int e = first; e <= last; ++e) {
        const double v = std::pow(10.0, e);
        const bool shown = std::any_of(labelled.begin(), labelled.end(), [&](const Tick& t) {
            return std::abs(t.value - v) <= v * 1e-9;
        });
        if (!shown) minor.push_back(v);
    }
    return minor;
}

std::vector<Tick> piTicks(double low, double high, int maxCount) {
    std::vector<Tick> ticks;
    if (!(high >= low) || !std::isfinite(low) || !std::isfinite(high) || maxCount < 1) return ticks;
    // Past 1e12 radians no multiple of pi is worth a label (and k += step would stop moving).
    if (!(high - low <= 1e12) || std::abs(low) > 1e12 || std::abs(high) > 1e12) return ticks;
    constexpr double kHalfPi = std::numbers::pi / 2;
    // Step in half turns of pi/2: 1, 2, 4, ... until the count fits.
    long long step = 1;
    while ((high - low) / (kHalfPi * double(step)) + 1 > maxCount) step *= 2;
    const double first = std::ceil(low / (kHalfPi * double(step)) - 1e-9);
    for (double k = first * double(step); k * kHalfPi <= high * (1 + 1e-12) + 1e-12;
         k += double(step)) {
        if (ticks.size() >= std::size_t(maxCount) + 1) break;
        const long long halves = std::llround(k);
        std::string label;
        if (halves == 0) {
            label = "0";
        } else if (halves % 2 == 0) {
            const long long turns = halves / 2;
            label = turns == 1 ? "π" : turns == -1 ? "-π" : std::to_string(turns) + "π";
        } else {
            label = (halves == 1 ? "" : halves == -1 ? "-" : std::to_string(halves)) + "π/2";
        }
        ticks.push_back({double(halves) * kHalfPi, withMinusSign(label)});
    }
    return ticks;
}

}  // namespace poslab
