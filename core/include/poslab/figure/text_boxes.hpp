// text_boxes.hpp — where a figure's text lands, estimated without a font, and the two layout
// faults a reader notices first: labels drawn over each other and labels cut off at the edge.
//
// A TextItem's box is estimateTextWidth wide and `size` tall, placed by its alignment about the
// anchor; rotated text (vertical90) is laid out the same way and turned 90 degrees
// counter-clockwise about the anchor, as every renderer does. Used by the figure tests over
// every view and size, and available to views that place labels by trial.
#pragma once

#include <cstddef>
#include <vector>

#include "poslab/figure/figure.hpp"

namespace poslab {

Box textBox(const TextItem& text);                 // the estimated box, in figure pixels
bool boxesOverlap(Box a, Box b, float tolerance);  // intersect by more than tolerance each way

struct TextOverlap {
    std::size_t first = 0, second = 0;  // indices into Figure::items, first < second
};
// Pairs of non-empty texts whose boxes overlap by more than `tolerance` pixels in both
// directions (the estimate is a little wide for most fonts: 1 px of contact is not a fault).
std::vector<TextOverlap> overlappingTexts(const Figure& figure, float tolerance = 1);
// Indices of non-empty texts whose box reaches more than `tolerance` pixels past the figure.
std::vector<std::size_t> textsOutsideFigure(const Figure& figure, float tolerance = 1);

}  // namespace poslab
