#include "poslab/figure/text_fit.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "poslab/figure/text_markup.hpp"

namespace poslab {

float estimateTextWidth(std::string_view text, float size) {
    return markupWidth(text, 0.56f * size);  // UTF-8 characters, scripts at their own size
}

namespace {

// A word that joins the words either side of it into one expression ("m = 0.5", "(1 − c²)",
// "mθ mod 2π"): no line break next to it while the expression fits a line.
bool isOperatorWord(std::string_view word) {
    for (const char* op :
         {"=", "−", "-", "+", "×", "·", "/", "÷", "→", "≈", "<", ">", "≤", "≥", "mod"})
        if (word == op) return true;
    return false;
}

// A word ending in a function's name ("sin", "ωk·cos"): the function is applied to the word
// after it, so no line breaks between them ("cos ωk·sin" over "ωp" broke sin ωp in two, #28).
bool endsWithFunctionName(std::string_view word) {
    for (const std::string_view name : {"sin", "cos", "tan", "exp", "log", "ln"}) {
        if (word.size() < name.size() || word.substr(word.size() - name.size()) != name) continue;
        const std::size_t at = word.size() - name.size();
        if (at == 0 || !std::isalpha(static_cast<unsigned char>(word[at - 1]))) return true;
    }
    return false;
}

}  // namespace

std::size_t titleBreak(std::string_view title) {
    auto hasWord = [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end && k < title.size(); ++k)
            if (std::isalnum(static_cast<unsigned char>(title[k]))) return true;
        return false;
    };
    auto startsWithNumber = [](std::string_view word) {
        if (word.substr(0, 3) == "−") word.remove_prefix(3);  // U+2212, a negative value
        if (!word.empty() && (word[0] == '-' || word[0] == '+')) word.remove_prefix(1);
        return !word.empty() && std::isdigit(static_cast<unsigned char>(word[0]));
    };
    // A break inside parentheses ("Bucket of j−i (32 buckets," over "max_distance 128)") only
    // when the title has no other.
    std::size_t split = std::string_view::npos, splitInside = std::string_view::npos;
    double best = 1e300, bestInside = 1e300;
    for (std::size_t at = title.find(' '); at != std::string_view::npos;
         at = title.find(' ', at + 1)) {
        // A run of spaces ("x·p  (rms 0.5)") is one break, at its last space: titleHalves
        // drops the rest.
        if (at + 1 < title.size() && title[at + 1] == ' ') continue;
        std::size_t runStart = at;
        while (runStart > 0 && title[runStart - 1] == ' ') --runStart;
        if (runStart == 0) continue;
        // Never inside $...$ markup (each line must stay whole maths) nor inside square
        // brackets, which hold a vector or an index ("Concatenate: [x;" over "p], width 2d").
        // Parentheses may hold a list that breaks as prose does ("(seed 0," over "std 0.02)").
        std::size_t dollars = 0;
        int depth = 0, parens = 0;
        for (std::size_t k = 0; k < runStart; ++k) {
            dollars += title[k] == '$' && (k == 0 || title[k - 1] != '\\');
            if (title[k] == '[') ++depth;
            if (title[k] == ']' && depth > 0) --depth;
            if (title[k] == '(') ++parens;
            if (title[k] == ')' && parens > 0) --parens;
        }
        if (dollars % 2 == 1 || depth > 0) continue;
        const std::size_t before = title.rfind(' ', runStart - 1);
        const std::size_t after = title.find(' ', at + 1);
        const std::size_t wordBegin = before == std::string_view::npos ? 0 : before + 1;
        const std::size_t wordEnd = after == std::string_view::npos ? title.size() : after;
        const std::string_view wordBefore = title.substr(wordBegin, runStart - wordBegin);
        const std::string_view wordAfter = title.substr(at + 1, wordEnd - at - 1);
        // A dash ends a line ("… mod 2π —" over "head_dim 64, …"); it never starts one.
        const bool afterDash = wordBefore == "—" && runStart > 0 && hasWord(0, runStart);
        // Both sides words, and neither an operator such as "mod" ("… m·θi mod" over "2π …"),
        // nor a citation's "et" cut from its "al." ("Su et" over "al. 2021").
        if ((!afterDash && !hasWord(wordBegin, runStart)) || !hasWord(at + 1, wordEnd) ||
            isOperatorWord(wordBefore) || isOperatorWord(wordAfter) ||
            (wordBefore == "et" && wordAfter.substr(0, 3) == "al.") ||
            endsWithFunctionName(wordBefore)) {
            continue;
        }
        // Nor a number cut from the word after it ("Layers of smollm3: 36" over "layers, …",
        // "0.1" over "rad", #28): a number ending in a digit or a letter is one phrase with
        // what follows; one ending in ',' ':' or ')' closes its phrase.
        // "vs" sets two things side by side: a reader pauses before it, as after a dash
        // ("RoPE A/B: A: base 10000" over "vs B: base 500000", not "… A:" over "base 10000 …").
        const bool beforeVersus = wordAfter == "vs" || wordAfter == "vs." || wordAfter == "versus";
        if (!beforeVersus && !wordBefore.empty() &&
            startsWithNumber(wordBefore[0] == '(' ? wordBefore.substr(1) : wordBefore) &&
            std::isalnum(static_cast<unsigned char>(wordBefore.back())))
            continue;
        // Balanced halves first, then where a reader pauses: after a dash, a colon or a comma
        // rather than inside a phrase; never a value cut from the name before it ("head_dim"
        // over "64", "(rms" over "0.535)") nor a parenthesis opened at a line's end ("(a" over
        // "first-token flag").
        double cost = std::abs(double(at) - double(title.size()) / 2);
        const char last = wordBefore.empty() ? ' ' : wordBefore.back();
        if (afterDash || beforeVersus)
            cost += 0;
        else if (last == ':' || last == ';')
            cost += 2;
        else if (last == ',')
            cost += 3;
        else
            cost += 6;
        if (startsWithNumber(wordAfter)) cost += 10;
        if (!wordBefore.empty() && wordBefore[0] == '(' &&
            wordBefore.find(')') == std::string_view::npos)
            cost += 6;
        if (parens > 0) {
            if (cost < bestInside) bestInside = cost, splitInside = at;
        } else if (cost < best) {
            best = cost, split = at;
        }
    }
    return split != std::string_view::npos ? split : splitInside;
}

std::pair<std::string, std::string> titleHalves(std::string_view title, std::size_t split) {
    if (split >= title.size()) return {std::string(title), std::string()};
    std::size_t headEnd = split;
    while (headEnd > 0 && title[headEnd - 1] == ' ') --headEnd;
    return {std::string(title.substr(0, headEnd)), std::string(title.substr(split + 1))};
}

FittedText fitText(std::string_view text, float size, float maxWidth, float minScale) {
    FittedText fitted{std::string(text), size};
    const float width = estimateTextWidth(text, size);
    if (width <= maxWidth || width <= 0) return fitted;
    fitted.size = std::max(size * minScale, size * maxWidth / width);
    // The proportional size fits by construction; float rounding may put its width a hair over.
    if (estimateTextWidth(text, fitted.size) <= maxWidth * 1.0001f) return fitted;
    // Still too wide at the smallest size: drop whole UTF-8 characters from the end.
    std::string cut(text);
    while (!cut.empty() && estimateTextWidth(cut + "…", fitted.size) > maxWidth) {
        std::size_t end = cut.size() - 1;
        while (end > 0 && (static_cast<unsigned char>(cut[end]) & 0xC0) == 0x80) --end;
        cut.erase(end);
        while (!cut.empty() && cut.back() == ' ') cut.pop_back();
    }
    fitted.text = cut + "…";
    return fitted;
}

float scaledMinTextPx(const Theme& theme) {
    if (!(theme.fontScale > 1)) return 0;
    return std::max(kReadableTextPx, kReadableTextPx * theme.fontScale * kScaledTextTolerance);
}

float readableMinScale(float size, const Theme& theme) {
    if (size <= 0) return 0.75f;
    const float scale =
        theme.fontScale <= 1 ? 0.75f : std::clamp(scaledMinTextPx(theme) / size, 0.55f, 1.f);
    return std::clamp(theme.minTextSize / size, scale, 1.f);
}

float atLeastMinText(float size, const Theme& theme) {
    return std::max(size, theme.minTextSize);
}

namespace {

// wrapText, and with `beforeOperators` a break also before an operator (TeX's convention): the
// operator then starts the next line with its right operand ("angle at L" over "÷ angle seen").
std::vector<std::string> wrapWords(std::string_view text, float size, float maxWidth,
                                   bool beforeOperators) {
    // Break points: spaces outside $...$ (a line must stay whole maths).
    std::vector<std::string> words;
    std::string word;
    bool maths = false;
    for (std::size_t k = 0; k < text.size(); ++k) {
        const char c = text[k];
        if (c == '$' && (k == 0 || text[k - 1] != '\\')) maths = !maths;
        if (c == ' ' && !maths) {
            if (!word.empty()) words.push_back(std::move(word));
            word.clear();
            continue;
        }
        word += c;
    }
    if (!word.empty()) words.push_back(std::move(word));
    // A function's name and its argument are one word here ("sin ωp", "cos ωk·sin ωp").
    std::vector<std::string> applied;
    for (std::string& next : words) {
        if (!applied.empty() && endsWithFunctionName(applied.back()) && !isOperatorWord(next))
            applied.back() += " " + next;
        else
            applied.push_back(std::move(next));
    }
    words = std::move(applied);
    // "m = 0.5", "(1 − c²)" and "mθ mod 2π" stay whole: a lone operator keeps the words
    // either side of it on its line.
    auto isOperator = [](const std::string& word) { return isOperatorWord(word); };
    // Groups of words kept together, each one piece when it fits the width, else word by word.
    std::vector<std::vector<std::string>> groups;
    for (std::size_t k = 0; k < words.size(); ++k) {
        const bool join = !groups.empty() &&
                          ((!beforeOperators && isOperator(words[k])) ||
                           isOperator(groups.back().back()) || groups.back().back().back() == '=');
        if (join)
            groups.back().push_back(std::move(words[k]));
        else
            groups.push_back({std::move(words[k])});
    }
    words.clear();
    for (std::vector<std::string>& group : groups) {
        std::string whole;
        for (const std::string& word : group) whole += (whole.empty() ? "" : " ") + word;
        if (group.size() == 1 || estimateTextWidth(whole, size) <= maxWidth)
            words.push_back(std::move(whole));
        else  // too wide whole: a lone operator still starts the line of the word after it
            for (std::size_t w = 0; w < group.size(); ++w) {
                if (isOperator(group[w]) && w + 1 < group.size() &&
                    estimateTextWidth(group[w] + " " + group[w + 1], size) <= maxWidth)
                    group[w + 1] = group[w] + " " + group[w + 1];
                else if (isOperator(group[w]) && w > 0 &&
                         estimateTextWidth(words.back() + " " + group[w], size) <= maxWidth)
                    words.back() += " " + group[w];  // else it ends the line before
                else
                    words.push_back(std::move(group[w]));
            }
    }
    std::vector<std::string> lines;
    for (std::string& next : words) {
        if (!lines.empty() && estimateTextWidth(lines.back() + " " + next, size) <= maxWidth)
            lines.back() += " " + next;
        else
            lines.push_back(std::move(next));
    }
    return lines;
}

}  // namespace

std::vector<std::string> wrapText(std::string_view text, float size, float maxWidth) {
    return wrapWords(text, size, maxWidth, false);
}

bool WrappedText::cut() const {
    const std::string_view ellipsis = "…";
    return !lines.empty() && lines.back().size() >= ellipsis.size() &&
           lines.back().compare(lines.back().size() - ellipsis.size(), ellipsis.size(), ellipsis) ==
               0;
}

WrappedText wrapToFit(std::string_view text, float size, float maxWidth, int maxLines,
                      float minScale) {
    WrappedText out;
    out.size = size;
    if (text.empty()) return out;
    maxLines = std::max(1, maxLines);
    auto fits = [&](const std::vector<std::string>& lines, float at) {
        if (int(lines.size()) > maxLines) return false;
        for (const std::string& line : lines)
            if (estimateTextWidth(line, at) > maxWidth * 1.0001f) return false;
        return true;
    };
    // Wrapped at the full size first; smaller only when the lines run past maxLines (or one
    // word alone is wider than the box). Steps of 4 % down to the smallest size.
    const float smallest = size * std::min(1.f, minScale);
    for (float at = size;; at = std::max(smallest, at * 0.96f)) {
        std::vector<std::string> lines = estimateTextWidth(text, at) <= maxWidth
                                             ? std::vector<std::string>{std::string(text)}
                                             : wrapText(text, at, maxWidth);
        // Operators kept with both operands need more lines than allowed: a break before an
        // operator rather than a smaller size.
        if (!fits(lines, at)) {
            std::vector<std::string> before = wrapWords(text, at, maxWidth, true);
            if (fits(before, at)) lines = std::move(before);
        }
        if (fits(lines, at)) {
            out.lines = std::move(lines);
            out.size = at;
            return out;
        }
        if (at <= smallest) {
            // The smallest size cannot hold it in maxLines: each line fitted (a lone word too
            // wide is cut), and what runs past the last line is cut with "…".
            out.size = smallest;
            for (std::size_t i = 0; i < lines.size(); ++i) {
                if (int(out.lines.size()) == maxLines - 1 && i + 1 < lines.size()) {
                    std::string rest;
                    for (std::size_t k = i; k < lines.size(); ++k)
                        rest += (rest.empty() ? "" : " ") + lines[k];
                    out.lines.push_back(fitText(rest, smallest, maxWidth, 1).text);
                    break;
                }
                out.lines.push_back(fitText(lines[i], smallest, maxWidth, 1).text);
            }
            return out;
        }
    }
}

}  // namespace poslab
