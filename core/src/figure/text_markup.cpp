#include "poslab/figure/text_markup.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace poslab {

namespace {

struct Command {
    std::string_view name, glyph;
};
// Greek by TeX name, and the symbols figure text uses.
constexpr std::array kCommands{
    Command{"alpha", "α"},   Command{"beta", "β"},   Command{"gamma", "γ"},   Command{"delta", "δ"},
    Command{"epsilon", "ε"}, Command{"zeta", "ζ"},   Command{"eta", "η"},     Command{"theta", "θ"},
    Command{"iota", "ι"},    Command{"kappa", "κ"},  Command{"lambda", "λ"},  Command{"mu", "μ"},
    Command{"nu", "ν"},      Command{"xi", "ξ"},     Command{"pi", "π"},      Command{"rho", "ρ"},
    Command{"sigma", "σ"},   Command{"tau", "τ"},    Command{"upsilon", "υ"}, Command{"phi", "φ"},
    Command{"chi", "χ"},     Command{"psi", "ψ"},    Command{"omega", "ω"},   Command{"Gamma", "Γ"},
    Command{"Delta", "Δ"},   Command{"Theta", "Θ"},  Command{"Lambda", "Λ"},  Command{"Xi", "Ξ"},
    Command{"Pi", "Π"},      Command{"Sigma", "Σ"},  Command{"Phi", "Φ"},     Command{"Psi", "Ψ"},
    Command{"Omega", "Ω"},   Command{"cdot", "·"},   Command{"times", "×"},   Command{"le", "≤"},
    Command{"leq", "≤"},     Command{"ge", "≥"},     Command{"geq", "≥"},     Command{"ne", "≠"},
    Command{"neq", "≠"},     Command{"approx", "≈"}, Command{"infty", "∞"},   Command{"ldots", "…"},
    Command{"pm", "±"},      Command{"to", "→"},     Command{"sqrt", "√"},    Command{"sum", "Σ"},
    Command{"lfloor", "⌊"},  Command{"rfloor", "⌋"}, Command{"lceil", "⌈"},   Command{"rceil", "⌉"},
    Command{"in", "∈"},      Command{"propto", "∝"}, Command{"prime", "′"},   Command{"circ", "∘"},
    Command{"langle", "⟨"},  Command{"rangle", "⟩"}, Command{"ell", "ℓ"},     Command{"mid", "|"},
};
constexpr std::string_view kMinus = "\u2212", kThinSpace = "\u2009";

bool isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

std::size_t utf8Length(std::string_view text, std::size_t at) {
    std::size_t end = at + 1;
    while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
    return end - at;
}

struct Level {
    float shift = 0, scale = 1;
    bool upright = false;  // \mathrm, \text: letters stay upright
};

class Parser {
  public:
    explicit Parser(std::string_view text) : text_(text) {}

    std::vector<TextRun> parse() {
        while (at_ < text_.size()) {
            if (text_.compare(at_, 2, "\\$") == 0) {
                emit("$", {}, TextStyle::Upright);
                at_ += 2;
            } else if (text_[at_] == '$') {
                ++at_;
                math(Level{}, End::Dollar);
                if (at_ < text_.size() && text_[at_] == '$') ++at_;
            } else {
                const std::size_t length = utf8Length(text_, at_);
                emit(text_.substr(at_, length), {}, TextStyle::Upright);
                at_ += length;
            }
        }
        return std::move(runs_);
    }

  private:
    enum class End { Dollar, Brace };

    void emit(std::string_view glyphs, const Level& level, TextStyle style) {
        if (glyphs.empty()) return;
        if (!runs_.empty()) {
            TextRun& last = runs_.back();
            if (last.shift == level.shift && last.scale == level.scale && last.style == style) {
                last.text += glyphs;
                return;
            }
        }
        runs_.push_back({std::string(glyphs), level.shift, level.scale, style});
    }

    // A maths sequence up to its closing '$' or '}' (left for the caller), or the end.
    void math(const Level& level, End end) {
        while (at_ < text_.size()) {
            const char c = text_[at_];
            if (c == '$' && end == End::Dollar) return;
            if (c == '}' && end == End::Brace) return;
            atom(level);
        }
    }

    // One unit of maths: a character, a command, a group, or a script with its argument.
    void atom(const Level& level) {
        const char c = text_[at_];
        if (c == '{') {
            group(level);
        } else if (c == '_' || c == '^') {
            ++at_;
            const Level script{
                level.shift + level.scale * (c == '^' ? kSuperscriptShift : kSubscriptShift),
                level.scale * kScriptScale, level.upright};
            if (at_ < text_.size() && text_[at_] != '$' && text_[at_] != '}') atom(script);
        } else if (c == '\\') {
            command(level);
        } else if (c == '-') {
            emit(kMinus, level, TextStyle::Upright);
            ++at_;
        } else if (c == '}') {  // a stray closing brace at the top of the maths
            emit("}", level, TextStyle::Upright);
            ++at_;
        } else {
            const std::size_t length = utf8Length(text_, at_);
            emit(text_.substr(at_, length), level,
                 isLetter(c) && !level.upright ? TextStyle::Italic : TextStyle::Upright);
            at_ += length;
        }
    }

    void group(const Level& level) {
        ++at_;  // '{'
        math(level, End::Brace);
        if (at_ < text_.size() && text_[at_] == '}') ++at_;
    }

    void command(const Level& level) {
        ++at_;  // '\'
        if (at_ >= text_.size()) {
            emit("\\", level, TextStyle::Upright);
            return;
        }
        if (!isLetter(text_[at_])) {
            const char c = text_[at_];
            const std::size_t length = utf8Length(text_, at_);
            emit(c == ',' ? kThinSpace : text_.substr(at_, length), level, TextStyle::Upright);
            at_ += length;
            return;
        }
        const std::size_t start = at_;
        while (at_ < text_.size() && isLetter(text_[at_])) ++at_;
        const std::string_view name = text_.substr(start, at_ - start);
        if (name == "mathrm" || name == "text" || name == "mathit") {
            Level inner = level;
            inner.upright = name != "mathit";
            if (at_ < text_.size() && text_[at_] == '{')
                group(inner);
            else if (at_ < text_.size() && text_[at_] != '$' && text_[at_] != '}')
                atom(inner);
            return;
        }
        for (const Command& known : kCommands) {
            if (known.name == name) {
                emit(known.glyph, level, TextStyle::Upright);
                return;
            }
        }
        emit(text_.substr(start - 1, at_ - start + 1), level, TextStyle::Upright);  // as typed
    }

    std::string_view text_;
    std::size_t at_ = 0;
    std::vector<TextRun> runs_;
};

std::size_t glyphCount(std::string_view text) {
    std::size_t glyphs = 0;
    for (unsigned char c : text) glyphs += (c & 0xC0) != 0x80;  // UTF-8 lead bytes
    return glyphs;
}

}  // namespace

bool hasMarkup(std::string_view text) {
    return text.find('$') != std::string_view::npos;
}

std::vector<TextRun> parseMarkup(std::string_view text) {
    if (!hasMarkup(text)) {
        if (text.empty()) return {};
        return {TextRun{std::string(text)}};
    }
    return Parser(text).parse();
}

std::string plainText(std::string_view text) {
    if (!hasMarkup(text)) return std::string(text);
    std::string plain;
    for (const TextRun& run : parseMarkup(text)) plain += run.text;
    return plain;
}

float markupWidth(std::string_view text, float glyphWidth) {
    if (!hasMarkup(text)) return glyphWidth * float(glyphCount(text));
    float width = 0;
    for (const TextRun& run : parseMarkup(text))
        width += glyphWidth * run.scale * float(glyphCount(run.text));
    return width;
}

}  // namespace poslab
