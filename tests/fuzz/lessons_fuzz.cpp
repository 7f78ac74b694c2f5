// Lessons files (state/lessons.hpp): any text is a list of lessons or a one-line error, never a
// crash — deep nesting, numbers beyond a double, megabytes of text and unknown state keys
// included. Every accepted lesson has a title and steps whose text fits a card.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "state/lessons.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::vector<std::string> titles = {"Sinusoidal", "RoPE",  "Similarity",
                                                    "Learned",    "ALiBi", "T5"};
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto lessons = poslab::state::parseLessons(text, titles);
    if (!lessons) {
        if (lessons.error().message.find('\n') != std::string::npos) __builtin_trap();
        return 0;
    }
    for (const poslab::state::Lesson& lesson : *lessons) {
        if (lesson.title.empty() || lesson.steps.empty()) __builtin_trap();
        for (const auto& step : lesson.steps) {
            if (step.text.size() > poslab::state::kMaxLessonText) __builtin_trap();
        }
    }
    return 0;
}
