// text_boxes.hpp — where a figure's text lands, estimated without a font, and the two layout
// faults a reader notices first: labels drawn over each other and labels cut off at the edge.
//
// A TextItem's box is estimateTextWidth wide and `size` tall, placed by its alignment about the
// anchor; rotated text (vertical90) is laid out the same way and turned 90 degrees
// counter-clockwise about the anchor, as every renderer does. Used by the figure tests over
// every view and size, and available to views that place labels by trial.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "poslab/figure/figure.hpp"

namespace poslab {

Box textBox(const TextItem& text);                 // the estimated box, in figure pixels
bool boxesOverlap(Box a, Box b, float tolerance);  // intersect by more than tolerance each way
std::vector<Box> boxMinus(Box box, Box hole);      // box without hole: at most 4 boxes

struct TextOverlap {
    std::size_t first = 0, second = 0;  // indices into Figure::items, first < second
};
// Pairs of non-empty texts whose boxes overlap by more than `tolerance` pixels in both
// directions (the estimate is a little wide for most fonts: 1 px of contact is not a fault).
std::vector<TextOverlap> overlappingTexts(const Figure& figure, float tolerance = 1);
// Indices of non-empty texts whose box reaches more than `tolerance` pixels past the figure.
std::vector<std::size_t> textsOutsideFigure(const Figure& figure, float tolerance = 1);
// Indices of texts cut short: ending in "…" (fitText, drawParagraph when room ran out).
std::vector<std::size_t> cutTexts(const Figure& figure);

// ---- Text and data (Figure::marks)
// Whether `box`, shrunk by `tolerance` on every side, covers any visible part of the mark: a
// curve's stroke, a point's dot, an area's cells, a reference line.
bool boxCoversMark(Box box, const MarkFootprint& mark, float tolerance = 1);
// How much of the data a box hides: curve segments, points and areas it covers, counted from
// figure.marks[firstMark] on (a plot's own marks); reference lines are not counted.
int marksCovered(const Figure& figure, Box box, std::size_t firstMark = 0, float tolerance = 1);
struct TextOverMark {
    std::size_t text = 0, mark = 0;  // indices into Figure::items and Figure::marks
};
// Non-empty texts drawn over a data mark (one entry per text: the first mark it covers; a
// reference line is not one: text may touch it).
std::vector<TextOverMark> textsOverMarks(const Figure& figure, float tolerance = 1);
// How close a text may come to a curve or a point before it reads as on it: a fifth of its
// size, 3 px at least ("exact below 8" 3.6 px under T5's steps at one column, #28). Heatmap cells
// and filled areas have no such margin: words and values sit beside them as axis labels do.
float markClearance(float textSize);
// Whether a box of text `textSize` tall covers a mark or comes within markClearance of a curve
// or a point (for placing labels; textsCrowdingMarks checks placed text the same way).
bool crowdsMarks(const Figure& figure, Box box, float textSize);
// textsOverMarks, and besides those the texts within markClearance of a curve or a point.
std::vector<TextOverMark> textsCrowdingMarks(const Figure& figure);
// Where a w x h box (a legend, a note) can go inside `within` hiding no mark (from firstMark
// on; reference lines too), no text and none of `avoid`: the first free box of `preferred`
// (corners, in the order a reader looks), else the free position nearest the first preferred one on
// a grid over `within`; nullopt when nothing is free.
std::optional<Box> placeFree(const Figure& figure, Box within, float w, float h,
                             const std::vector<Box>& preferred, const std::vector<Box>& avoid = {},
                             std::size_t firstMark = 0);

}  // namespace poslab
