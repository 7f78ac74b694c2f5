// status_text.hpp — the status line's message made to fit its row.
#pragma once

#include <string>
#include <string_view>

namespace poslab::ui {

// `text` whole when measure(text) <= width; else cut at a UTF-8 character's start and ended with
// "…" to fit, spaces before the "…" dropped. The status line shows it (the whole text as a
// tooltip): a long message ran past the window's right edge, its end unseen (a screenshot's
// path, the first start's hint at 1024x768 F5).
template <class Measure>
std::string fitToWidth(std::string_view text, float width, Measure measure) {
    if (measure(text) <= width) return std::string(text);
    std::string cut(text);
    while (!cut.empty()) {
        std::size_t end = cut.size() - 1;
        while (end > 0 && (static_cast<unsigned char>(cut[end]) & 0xC0) == 0x80) --end;
        cut.erase(end);
        while (!cut.empty() && cut.back() == ' ') cut.pop_back();
        if (measure(cut + "…") <= width) return cut + "…";
    }
    return "…";
}

}  // namespace poslab::ui
