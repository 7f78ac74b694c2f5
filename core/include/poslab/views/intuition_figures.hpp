// intuition_figures.hpp — the Intuition view's figures, one header per figure; including this
// header includes them all. Used by the GUI panel, `poslab render` and the guided tour.
//
//   binary_clock_figures.hpp          the binary clock beside the sinusoidal dimensions
//   linear_shift_figures.hpp          the linear shift T_k, and why it needs sin AND cos
//   attention_shuffle_figures.hpp     why position at all: attention over a shuffled sentence
//   frequency_resolution_figures.hpp  why many frequencies: distances between positions
#pragma once

#include "poslab/views/attention_shuffle_figures.hpp"
#include "poslab/views/binary_clock_figures.hpp"
#include "poslab/views/frequency_resolution_figures.hpp"
#include "poslab/views/linear_shift_figures.hpp"
