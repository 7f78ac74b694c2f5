// lessons.hpp — the guided tour's lessons as data: assets/lessons.json (embedded at build time,
// installed to share/poslab/lessons.json) or a teacher's copy opened with --lessons FILE or
// Tour > Open lessons…. GL-free, so the tests read and check lessons exactly as the app does.
//
// The format (README, "Writing your own lessons"):
//   {"lessons": [{"title": "RoPE: rotation is relative position",
//                 "view":  "RoPE",                 // a tab title, case-insensitive
//                 "text":  "Two or three sentences.",
//                 "state": {"rope": {"m": 6}},     // a partial session (session_format.hpp),
//                                                  // plus "panel": N (lessons only, 1-based)
//                 "steps": [{"text": "…", "view": "Similarity", "state": {…}}]}]}  // optional
// A lesson shows its own text first, then each step in turn (Next goes through the steps before
// the next lesson). A step's state is applied on top of the lesson's and the earlier steps'; a
// step without "view" stays in the view shown before it.
//
// A lessons file is checked whole before it replaces the lessons shown: every view must exist,
// every state key must be one the session format knows, and every state must apply without a
// warning. The first problem is the error, in one line naming the file, the lesson and the key:
//   "my.json: lesson 3, step 1: state.rope.params.bas: unknown key"
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "poslab/base/result.hpp"

namespace poslab::state {

struct LessonStep {
    std::string view;      // tab title: "Meaning"
    std::string text;      // two or three sentences
    nlohmann::json state;  // a partial session, applied on top of the steps before it
    int panel = 0;  // state's "panel": 1..kMaxLessonPanel, the panel a view that shows one at a
                    // time opens at (projector sizes); 0 when the step leaves it alone
};

struct Lesson {
    std::string title;              // "Why order matters"
    std::vector<LessonStep> steps;  // at least one: the lesson's own view, text and state first
};

inline constexpr int kMaxLessonPanel = 64;           // "panel": N in a step's state, 1..64
inline constexpr std::size_t kMaxLessonText = 4000;  // bytes of one title, view or text
inline constexpr std::size_t kMaxLessonsBytes = std::size_t(4) << 20;  // larger: not lessons

// ---- Reading (errors are one line: "lesson 3, step 1: …"; the callers prefix the file)
// viewTitles: the tabs a lesson may open (the panels' titles); matched case-insensitively.
Result<std::vector<Lesson>> parseLessons(std::string_view jsonText,
                                         const std::vector<std::string>& viewTitles);
// Reads and parses a file; errors start with the path ("my.json: lesson 3: …").
Result<std::vector<Lesson>> loadLessonsFile(const std::string& path,
                                            const std::vector<std::string>& viewTitles);

// ---- Checks, also used by parseLessons
// The first key of `state` (a partial session) that sessions do not have, as
// "state.rope.params.bas", or "" when every key is known.
std::string unknownStateKey(const nlohmann::json& state);

}  // namespace poslab::state
