#include "poslab/figure/text_boxes.hpp"

#include <algorithm>
#include <string>
#include <variant>

#include "poslab/figure/plot.hpp"

namespace poslab {

Box textBox(const TextItem& text) {
    const float width = estimateTextWidth(text.text, text.size), height = text.size;
    // The box in the text's own frame, relative to the anchor.
    const float left = text.horizontal == HorizontalAlign::Left     ? 0
                       : text.horizontal == HorizontalAlign::Center ? -width / 2
                                                                    : -width;
    const float top = text.vertical == VerticalAlign::Top      ? 0
                      : text.vertical == VerticalAlign::Middle ? -height / 2
                                                               : -height;
    if (!text.vertical90) return {text.anchor.x + left, text.anchor.y + top, width, height};
    // Turned counter-clockwise on a y-down page: own (u, v) lands at (v, -u).
    return {text.anchor.x + top, text.anchor.y - (left + width), height, width};
}

bool boxesOverlap(Box a, Box b, float tolerance) {
    const float across = std::min(a.right(), b.right()) - std::max(a.x, b.x);
    const float down = std::min(a.bottom(), b.bottom()) - std::max(a.y, b.y);
    return across > tolerance && down > tolerance;
}

namespace {

struct IndexedBox {
    std::size_t index;
    Box box;
};

std::vector<IndexedBox> textBoxes(const Figure& figure) {
    std::vector<IndexedBox> boxes;
    for (std::size_t i = 0; i < figure.items.size(); ++i) {
        const auto* text = std::get_if<TextItem>(&figure.items[i]);
        if (!text || text->text.find_first_not_of(' ') == std::string::npos) continue;
        boxes.push_back({i, textBox(*text)});
    }
    return boxes;
}

}  // namespace

std::vector<TextOverlap> overlappingTexts(const Figure& figure, float tolerance) {
    const std::vector<IndexedBox> boxes = textBoxes(figure);
    std::vector<TextOverlap> pairs;
    for (std::size_t a = 0; a < boxes.size(); ++a) {
        for (std::size_t b = a + 1; b < boxes.size(); ++b) {
            if (boxesOverlap(boxes[a].box, boxes[b].box, tolerance))
                pairs.push_back({boxes[a].index, boxes[b].index});
        }
    }
    return pairs;
}

std::vector<std::size_t> textsOutsideFigure(const Figure& figure, float tolerance) {
    std::vector<std::size_t> outside;
    for (const IndexedBox& b : textBoxes(figure)) {
        const Box& box = b.box;
        if (!(box.x >= -tolerance && box.y >= -tolerance &&
              box.right() <= figure.width + tolerance && box.bottom() <= figure.height + tolerance))
            outside.push_back(b.index);
    }
    return outside;
}

}  // namespace poslab
