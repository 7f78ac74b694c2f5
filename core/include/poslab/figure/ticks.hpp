// ticks.hpp — where an axis or a colour bar is ticked and how its labels read.
//
// One label style per axis: plain decimals (0.25, 1000) when every tick reads well so, else
// powers of ten typeset with figure markup ($2·10^{5}$, $10^{-4}$): never 0.001 beside 1e-4.
// Negative labels use the minus sign U+2212, not the hyphen. Integer axes (cell indices, pairs,
// positions) are ticked at integers only; log axes add 2·10^k and 5·10^k when whole decades
// alone would leave the axis nearly bare, and label every 1, 2, 3 or 5 decades of a long one.
#pragma once

#include <string>
#include <vector>

namespace poslab {

// ---- Ticks
struct Tick {
    double value;
    std::string label;  // figure text: may hold markup (figure/text_markup.hpp)
};
// Nice steps (1, 2, 2.5, 5 x 10^k; 2.5 left out for integers), at most maxCount ticks, two at
// least where two nice values fit in [low, high].
std::vector<Tick> linearTicks(double low, double high, int maxCount, bool integers = false);
// Decades 10^k; every 2nd, 3rd or 5th one (3 or more: exponents a multiple of the stride), or
// coarser past 40 decades, when more than maxCount steps between them would not fit or more than
// eight would be labelled; with 2·10^k and 5·10^k added when fewer than three decades fall in
// range and maxCount allows.
std::vector<Tick> logTicks(double low, double high, int maxCount);
// The decades in [low, high] that `labelled` (logTicks' ticks) leaves without a label: a log
// axis marks them with short unlabelled ticks, so every decade can be counted.
std::vector<double> logMinorTicks(double low, double high, const std::vector<Tick>& labelled);
// Angles in radians: ticks at multiples of pi/2 ("0", "π/2", "π", "3π/2", "2π", "−π"), or of
// pi, 2 pi, ... when more than maxCount would fit in [low, high].
std::vector<Tick> piTicks(double low, double high, int maxCount);
// How a colour bar is ticked (colorbar.hpp: colorbarTicks): nice decimals, whole numbers only,
// or multiples of π/2 (radians).
enum class BarTicks { Numbers, Integers, Angles };
// Ticks for an axis of `pixels` pixels, one per `spacing` pixels: 2..1000, also for inf or NaN
// sizes (an int conversion of those is undefined behaviour).
int tickCountFor(double pixels, double spacing);

// ---- Labels
enum class TickStyle { Plain, PowersOfTen };
inline constexpr const char* kMinusSign = "\u2212";  // U+2212, for negative numbers in figures
// A formatted number ("-0.02", "-462") with its leading hyphen-minus as U+2212, for figure text.
std::string withMinusSign(std::string number);
// Plain when every non-zero |value| lies in [1e-3, 1e6) (ticks of one axis share the result).
TickStyle tickStyleFor(const std::vector<double>& values);
// One value in a style: "−0.25", "12000"; "$-2.5·10^{5}$", "$10^{-4}$", "0".
std::string tickLabel(double value, TickStyle style);
// Labels every tick in the style its values call for together.
void labelTicks(std::vector<Tick>& ticks);

}  // namespace poslab
