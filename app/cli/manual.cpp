#include "cli/manual.hpp"

#include <cctype>
#include <cstdio>
#include <set>

namespace poslab::cli {

namespace {

std::vector<std::string>& viewNames() {
    static std::vector<std::string> names;
    return names;
}

// Options every render view takes, plus --out; export kinds take --out.
std::vector<commands::OptionSpec> renderOptions(const commands::RenderView& view) {
    std::vector<commands::OptionSpec> options = view.options;
    for (const commands::OptionSpec& o : commands::renderCommonOptions()) options.push_back(o);
    return options;
}

std::string roffOptions(const std::vector<commands::OptionSpec>& options) {
    std::string text;
    for (const commands::OptionSpec& o : options) {
        // .BI alternates bold and italic: the option bold, its value's name italic.
        if (o.valueName.empty())
            text += ".TP\n.B \\-\\-" + roffEscape(o.name) + "\n";
        else
            text +=
                ".TP\n.BI \"\\-\\-" + roffEscape(o.name) + " \" " + roffEscape(o.valueName) + "\n";
        text += roffEscape(o.help) + "\n";
    }
    return text;
}

std::string joined(const std::vector<std::string>& words, const std::string& separator = " ") {
    std::string text;
    for (const std::string& w : words) text += (text.empty() ? "" : separator) + w;
    return text;
}

std::string optionWords(const std::vector<commands::OptionSpec>& options) {
    std::vector<std::string> words;
    for (const commands::OptionSpec& o : options) words.push_back("--" + o.name);
    return joined(words);
}

std::string shellWords(const std::vector<std::string>& words) {
    std::string text;
    for (const std::string& w : words) text += (text.empty() ? "" : " ") + w;
    return text;
}

// bash: `case $prev in ... esac` completing the values of `options`; empty when none take one.
std::string bashValueCases(const std::vector<commands::OptionSpec>& options) {
    std::string cases;
    for (const commands::OptionSpec& o : options) {
        if (o.valueName.empty()) continue;
        const ValueChoices choices = valueChoices(o);
        std::string action;
        switch (choices.kind) {
            case ValueCompletion::Files:
                action = "COMPREPLY=($(compgen -f -- \"$cur\"))";
                break;
            case ValueCompletion::Directories:
                action = "COMPREPLY=($(compgen -d -- \"$cur\"))";
                break;
            case ValueCompletion::Words:
                action =
                    "COMPREPLY=($(compgen -W \"" + shellWords(choices.words) + "\" -- \"$cur\"))";
                break;
            case ValueCompletion::TensorNames:
                action = "_poslab_tensors";
                break;
            case ValueCompletion::Nothing:
                action = "COMPREPLY=()";  // a number or free text: nothing to offer
                break;
        }
        if (o.name == "view" && !viewNames().empty()) {
            // Names with spaces ("vision rope") stay one word, escaped.
            std::string lines;
            for (const std::string& v : viewNames()) lines += (lines.empty() ? "" : "\\n") + v;
            action = "local IFS=$'\\n'; COMPREPLY=($(compgen -W $'" + lines +
                     "' -- \"$cur\")); COMPREPLY=(\"${COMPREPLY[@]// /\\\\ }\")";
        }
        cases += "            --" + o.name + ") " + action + "; return;;\n";
    }
    return cases.empty() ? "" : "        case $prev in\n" + cases + "        esac\n";
}

// The tensor names of the file after --from (or --table): a .safetensors header's keys (8 bytes
// of little-endian length, then JSON), or a sharded index's weight_map.
const char* kBashTensorFunction =
    "_poslab_tensors() {\n"
    "    local file= i names length\n"
    "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
    "        case ${COMP_WORDS[i]} in --from|--table) file=${COMP_WORDS[i+1]};; esac\n"
    "    done\n"
    "    file=${file/#\\~/$HOME}\n"
    "    [ -f \"$file\" ] && [ -r \"$file\" ] || return\n"
    "    case $file in\n"
    "        *.json) names=$(grep -o '\"[^\"]*\" *: *\"[^\"]*\\.safetensors\"' \"$file\" | "
    "sed 's/^\"\\([^\"]*\\)\".*/\\1/');;\n"
    "        *) length=$(head -c 8 \"$file\" | od -An -tu8 | tr -d ' \\n')\n"
    "           [ -n \"$length\" ] && [ \"$length\" -lt 100000000 ] 2>/dev/null || return\n"
    "           names=$(tail -c +9 \"$file\" | head -c \"$length\" | grep -o '\"[^\"]*\": *{' | "
    "sed 's/^\"\\([^\"]*\\)\".*/\\1/' | grep -vx __metadata__);;\n"
    "    esac\n"
    "    COMPREPLY=($(compgen -W \"$names\" -- \"$cur\"))\n"
    "}\n";

std::string bashScript(const commands::CommandRegistry& registry,
                       const std::vector<commands::OptionSpec>& guiOptions) {
    std::vector<std::string> kinds, views;
    for (const commands::ExportKind& k : registry.exports) kinds.push_back(k.name);
    for (const commands::RenderView& v : registry.renders) views.push_back(v.name);
    std::string script =
        "# bash completion for poslab (generated by poslab --completions bash)\n" +
        std::string(kBashTensorFunction) +
        "_poslab() {\n"
        "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} opts\n"
        "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
        "        COMPREPLY=($(compgen -W \"export render --help --version --manual --completions " +
        optionWords(guiOptions) +
        "\" -- \"$cur\") $(compgen -f -- \"$cur\")); return\n"
        "    fi\n"
        "    case ${COMP_WORDS[1]} in\n"
        "        export)\n"
        "            if [ \"$COMP_CWORD\" -eq 2 ]; then COMPREPLY=($(compgen -W \"" +
        joined(kinds) +
        " --help\" -- \"$cur\")); return; fi\n"
        "            case ${COMP_WORDS[2]} in\n";
    for (const commands::ExportKind& k : registry.exports) {
        std::vector<commands::OptionSpec> options = k.options;
        options.push_back({"out", "FILE", "output file"});
        script += "                " + k.name + ") opts=\"" + optionWords(k.options) +
                  " --out --help\"\n" + bashValueCases(options) + "                ;;\n";
    }
    script +=
        "            esac;;\n"
        "        render)\n"
        "            if [ \"$COMP_CWORD\" -eq 2 ]; then COMPREPLY=($(compgen -W \"" +
        joined(views) +
        " --spec --help\" -- \"$cur\")); return; fi\n"
        "            case ${COMP_WORDS[2]} in\n"
        "                --spec) COMPREPLY=($(compgen -f -- \"$cur\")); return;;\n";
    for (const commands::RenderView& v : registry.renders) {
        script += "                " + v.name + ") opts=\"" + optionWords(renderOptions(v)) +
                  " --help\"\n" + bashValueCases(renderOptions(v)) + "                ;;\n";
    }
    script +=
        "            esac;;\n"
        "        --completions) COMPREPLY=($(compgen -W \"bash zsh\" -- \"$cur\")); return;;\n"
        "        *)\n"
        "            opts=\"" +
        optionWords(guiOptions) + "\"\n" + bashValueCases(guiOptions) +
        "            ;;\n"
        "    esac\n"
        "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
        "}\n"
        "complete -o default -F _poslab poslab\n";
    return script;
}

// zsh: one _arguments spec per command, descriptions from the help lines, values by kind.
std::string zshQuoted(const std::string& text) {  // inside '...' and an _arguments [...]
    std::string out;
    for (char c : text) {
        if (c == '\'')
            out += "'\\''";
        else if (c == '[' || c == ']' || c == ':' || c == '\\')
            out += std::string("\\") + c;
        else
            out += c;
    }
    return out;
}

std::string zshSpecs(const std::vector<commands::OptionSpec>& options) {
    std::string text;
    for (const commands::OptionSpec& o : options) {
        text += " '--" + o.name + "[" + zshQuoted(o.help) + "]";
        if (!o.valueName.empty()) {
            const ValueChoices choices = valueChoices(o);
            std::string action;
            switch (choices.kind) {
                case ValueCompletion::Files:
                    action = "_files";
                    break;
                case ValueCompletion::Directories:
                    action = "_files -/";
                    break;
                case ValueCompletion::Words:
                    action = "(" + shellWords(choices.words) + ")";
                    break;
                case ValueCompletion::TensorNames:
                    action = "_poslab_tensors";
                    break;
                case ValueCompletion::Nothing:
                    action = " ";  // the value's name is shown; nothing is offered
                    break;
            }
            if (o.name == "view" && !viewNames().empty()) action = "_poslab_views";
            // Appended piece by piece: GCC 12 warns (-Wstringop-overflow, wrongly) on ":" + ...
            text.append(":").append(zshQuoted(o.valueName)).append(":").append(zshQuoted(action));
        }
        text += "'";
    }
    return text;
}

const char* kZshTensorFunction =
    "_poslab_tensors() {\n"
    "    local file=${opt_args[--from]:-${opt_args[--table]}} length\n"
    "    local -a names\n"
    "    file=${~file}\n"
    "    [[ -f $file && -r $file ]] || return 1\n"
    "    if [[ $file == *.json ]]; then\n"
    "        names=(${(f)\"$(grep -o '\"[^\"]*\" *: *\"[^\"]*\\.safetensors\"' $file | "
    "sed 's/^\"\\([^\"]*\\)\".*/\\1/')\"})\n"
    "    else\n"
    "        length=$(head -c 8 $file | od -An -tu8 | tr -d ' \\n')\n"
    "        [[ $length == <-> && $length -lt 100000000 ]] || return 1\n"
    "        names=(${(f)\"$(tail -c +9 $file | head -c $length | grep -o '\"[^\"]*\": *{' | "
    "sed 's/^\"\\([^\"]*\\)\".*/\\1/' | grep -vx __metadata__)\"})\n"
    "    fi\n"
    "    _wanted tensors expl tensor compadd -a names\n"
    "}\n";

// --view's names: compadd quotes the one with a space ("vision rope") itself.
std::string zshViewFunction() {
    std::string names;
    for (const std::string& v : viewNames()) names.append(" '").append(v).append("'");
    return "_poslab_views() {\n    local -a views\n    views=(" + names +
           ")\n    _wanted views expl view compadd -a views\n}\n";
}

// Before _arguments for `poslab export KIND ...` / `poslab render VIEW ...`: the command and its
// kind are not arguments of the options that follow (else _arguments completes nothing).
const char* kZshSubcommandWords =
    "words=(\"$words[1]\" \"${(@)words[4,-1]}\"); (( CURRENT -= 2 )); ";

std::string zshScript(const commands::CommandRegistry& registry,
                      const std::vector<commands::OptionSpec>& guiOptions) {
    std::string script =
        "#compdef poslab\n"
        "# zsh completion for poslab (generated by poslab --completions zsh)\n" +
        std::string(kZshTensorFunction) + zshViewFunction() +
        "_poslab() {\n"
        "    if (( CURRENT == 2 )); then\n"
        "        _alternative 'commands:command:((export\\:\"write a matrix as CSV or NPY, or RoPE "
        "info as JSON\" "
        "render\\:\"draw a figure to PNG, SVG or PDF\"))' 'files:file:_files' "
        "'options:option:(" +
        optionWords(guiOptions) +
        " --help --version --manual --completions)'\n"
        "        return\n"
        "    fi\n"
        "    case $words[2] in\n"
        "    export)\n"
        "        if (( CURRENT == 3 )); then _values kind";
    for (const commands::ExportKind& k : registry.exports) script += " '" + k.name + "'";
    script += "; return; fi\n        case $words[3] in\n";
    for (const commands::ExportKind& k : registry.exports) {
        std::vector<commands::OptionSpec> options = k.options;
        options.push_back({"out", "FILE", std::string("output file (") + k.outFormats() + ")"});
        script += "        " + k.name + ") " + kZshSubcommandWords + "_arguments" +
                  zshSpecs(options) + ";;\n";
    }
    script += "        esac;;\n    render)\n        if (( CURRENT == 3 )); then _values view";
    for (const commands::RenderView& v : registry.renders) script += " '" + v.name + "'";
    script += " '--spec'; return; fi\n        case $words[3] in\n";
    script += "        --spec) _files;;\n";
    for (const commands::RenderView& v : registry.renders) {
        script += "        " + v.name + ") " + kZshSubcommandWords + "_arguments" +
                  zshSpecs(renderOptions(v)) + ";;\n";
    }
    script += "        esac;;\n    --completions) _values shell bash zsh;;\n    *) _arguments" +
              zshSpecs(guiOptions) + " '*:file:_files';;\n    esac\n}\n_poslab \"$@\"\n";
    return script;
}

}  // namespace

void setViewNames(std::vector<std::string> names) {
    viewNames() = std::move(names);
}

ValueChoices valueChoices(const commands::OptionSpec& option) {
    const std::string& value = option.valueName;
    if (value.empty()) return {};
    if (option.name == "tensor") return {ValueCompletion::TensorNames, {}};
    if (option.name == "view") return {ValueCompletion::Words, viewNames()};
    if (value.find("FILE") != std::string::npos || value.find('.') != std::string::npos)
        return {ValueCompletion::Files, {}};
    if (value == "DIR") return {ValueCompletion::Directories, {}};
    static const std::set<std::string> wordValues = {"NAME",  "KIND",   "STYLE",   "TYPE", "MODE",
                                                     "SHELL", "LAYOUT", "PAIRING", "WHAT", "WHERE"};
    if (!wordValues.count(value)) return {};
    // "2d (default: PC1 vs PC2) or 3d (...)", "rope: none, linear or ntk (default none)":
    // parentheses dropped, then names separated by ", " or " or ".
    std::string help = option.help;
    // A leading "rope: " or "without --from: " (before any parenthesis) is not a name.
    if (const auto colon = help.find(": "); colon < help.find('(')) help = help.substr(colon + 2);
    std::string flat;
    int depth = 0;
    for (char c : help) {
        if (c == '(' || c == '[')
            ++depth;
        else if ((c == ')' || c == ']') && depth > 0)
            --depth;
        else if (depth == 0)
            flat += c;
    }
    flat = flat.substr(0, flat.find(';'));
    // Items between ", " and " or ": each one name; the last may trail words ("sinusoidal or
    // learned position vectors"); any other prose means the help is no list.
    for (std::size_t at; (at = flat.find(" or ")) != std::string::npos;) flat.replace(at, 4, ",");
    std::vector<std::string> items;
    for (std::size_t begin = 0; begin <= flat.size();) {
        std::size_t end = flat.find(',', begin);
        if (end == std::string::npos) end = flat.size();
        std::string item = flat.substr(begin, end - begin);
        item.erase(0, item.find_first_not_of(' '));
        item.erase(item.find_last_not_of(' ') + 1);
        if (!item.empty()) items.push_back(item);
        begin = end + 1;
    }
    std::vector<std::string> words;
    for (std::size_t i = 0; i < items.size(); ++i) {
        std::string word = items[i];
        if (const auto space = word.find(' '); space != std::string::npos) {
            if (i + 1 < items.size()) return {};
            word.resize(space);
        }
        for (char c : word) {
            if (!(std::islower(static_cast<unsigned char>(c)) ||
                  std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_'))
                return {};  // prose, not a list of names
        }
        words.push_back(word);
    }
    if (words.size() < 2) return {};
    return {ValueCompletion::Words, words};
}

std::string roffEscape(std::string_view text) {
    std::string out;
    bool lineStart = true;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const auto byte = static_cast<unsigned char>(c);
        if (lineStart && (c == '.' || c == '\'')) out += "\\&";
        lineStart = c == '\n';
        if (c == '\\') {
            out += "\\e";
        } else if (c == '-') {
            out += "\\-";
        } else if (byte >= 0x80) {
            // UTF-8 as groff's \[uXXXX]: "…" and "·" print in any locale, with no warning.
            const int length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
            unsigned code = length == 1 ? 0xFFFD : byte & (0x7F >> length);
            for (int k = 1; k < length && i + 1 < text.size(); ++k)
                code = (code << 6) | (static_cast<unsigned char>(text[++i]) & 0x3F);
            if (code == 0xA0) {
                out += "\\ ";  // no-break space
                continue;
            }
            char escaped[16];
            std::snprintf(escaped, sizeof escaped, "\\[u%04X]", code);
            out += escaped;
        } else {
            out += c;
        }
    }
    return out;
}

std::string manualPage(const commands::CommandRegistry& registry,
                       const std::vector<commands::OptionSpec>& guiOptions,
                       std::string_view version) {
    std::string page =
        ".TH POSLAB 1 \"\" \"poslab " + roffEscape(version) +
        "\" \"User Commands\"\n"
        ".SH NAME\nposlab \\- see how transformers encode token position\n"
        ".SH SYNOPSIS\n"
        ".B poslab\n[\\fIOPTIONS\\fR] [\\fIFILE\\fR]\n.br\n"
        ".B poslab export\n\\fIKIND\\fR [\\fIOPTIONS\\fR] \\-\\-out "
        "\\fIFILE\\fR.csv|.npy|.json\n.br\n"
        ".B poslab render\n\\fIVIEW\\fR [\\fIOPTIONS\\fR] \\-\\-out "
        "\\fIFILE\\fR.png|.svg|.pdf\n.br\n"
        ".B poslab render \\-\\-spec\n\\fIFIGURES\\fR.json\n"
        ".SH DESCRIPTION\n"
        "PosLab shows how transformers encode token position: the sinusoidal table, learned "
        "position embeddings, T5 relative position buckets, rotary embeddings (RoPE) and their "
        "long\\-context scalings, and ALiBi. Without a command it opens the window; "
        "\\fBexport\\fR writes the numbers behind a view and \\fBrender\\fR draws its figure "
        "with no display. A \\fIFILE\\fR given to the window (a model\\(aqs config.json, a .npy "
        "table, a .safetensors checkpoint, a saved session .json) is opened in the view that "
        "reads it; a file it cannot use still opens the window, with the reason in the status "
        "line.\n"
        ".SH OPTIONS\n"
        ".TP\n.B \\-\\-help\nPrint a summary of the commands and options.\n"
        ".TP\n.B \\-\\-version\nPrint the version.\n"
        ".TP\n.B \\-\\-manual\nPrint this manual page (roff).\n"
        ".TP\n.BI \"\\-\\-completions \" SHELL\nPrint the completion script for bash or zsh.\n" +
        roffOptions(guiOptions) + ".SH EXPORT KINDS\n";
    for (const commands::ExportKind& k : registry.exports) {
        std::vector<commands::OptionSpec> options = k.options;
        options.push_back({"out", "FILE",
                           std::string("output file (") + k.outFormats() +
                               ", chosen by the extension); required"});
        page += ".SS " + roffEscape(k.name) + "\n" + roffEscape(k.summary) + "\n" +
                roffOptions(options);
    }
    page += ".SH RENDER VIEWS\nEvery view takes these options:\n" +
            roffOptions(commands::renderCommonOptions());
    for (const commands::RenderView& v : registry.renders) {
        page += ".SS " + roffEscape(v.name) + "\n" + roffEscape(v.summary) + "\n" +
                roffOptions(v.options);
    }
    page +=
        ".SH EXIT STATUS\n.TP\n.B 0\nSuccess.\n"
        ".TP\n.B 1\nThe window cannot open (no display, no OpenGL 3.3), or \\-\\-tour\\-check "
        "or \\-\\-check\\-layout found a fault (a lesson card that does not fit, figure text "
        "that overlaps).\n"
        ".TP\n.B 2\nBad input: an option, a value, a file, or an output that cannot be written; "
        "the one\\-line message names the input and its valid range. Also a \\fIFILE\\fR the "
        "window cannot use, in a scripted run (\\-\\-screenshot, \\-\\-bench\\-frames, "
        "\\-\\-soak) after it finishes.\n"
        ".SH FILES\n.TP\n.I ~/.config/poslab/session.json\nThe session remembered between runs "
        "(\\-\\-fresh ignores it).\n"
        ".TP\n.I /usr/share/poslab/lessons.json\nThe built\\-in lessons, to copy and edit.\n"
        ".SH EXAMPLES\n.nf\n"
        "poslab render sinusoidal \\-\\-d\\-model 128 \\-\\-seq\\-len 512 \\-\\-out pe.pdf\n"
        "poslab export rope\\-angles \\-\\-config config.json \\-\\-out angles.npy\n"
        "poslab export rope\\-info \\-\\-config config.json \\-\\-out info.json\n"
        "poslab \\-\\-lesson 1 \\-\\-presentation\n.fi\n";
    // groff prints \[uXXXX] in a UTF-8 terminal; for an ASCII one (man in the C locale) each
    // character used gets a fallback, so nothing vanishes and groff has nothing to warn about.
    std::set<std::string> used;
    for (std::size_t at = page.find("\\[u"); at != std::string::npos;
         at = page.find("\\[u", at + 1))
        used.insert(page.substr(at, page.find(']', at) - at + 1));
    std::string fallbacks;
    for (const std::string& glyph : used) {
        static const std::pair<const char*, const char*> ascii[] = {
            {"\\[u2026]", "..."},    {"\\[u00B7]", "."},    {"\\[u00D7]", "x"},
            {"\\[u2014]", "\\-\\-"}, {"\\[u2013]", "\\-"},  {"\\[u2264]", "<="},
            {"\\[u2265]", ">="},     {"\\[u2192]", "\\->"}, {"\\[u2248]", "~"},
            {"\\[u00B2]", "^2"},     {"\\[u03B8]", "theta"}};
        std::string replacement = "?";
        for (const auto& [name, text] : ascii) {
            if (glyph == name) replacement = text;
        }
        fallbacks += ".fchar " + glyph + " " + replacement + "\n";
    }
    const std::size_t afterTitle = page.find('\n') + 1;
    page.insert(afterTitle, fallbacks);
    return page;
}

Result<std::string> completionScript(const commands::CommandRegistry& registry,
                                     const std::vector<commands::OptionSpec>& guiOptions,
                                     std::string_view shell) {
    if (shell == "bash") return bashScript(registry, guiOptions);
    if (shell == "zsh") return zshScript(registry, guiOptions);
    std::string shown(shell.substr(0, 40));
    for (char& c : shown) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    }
    return Error{"--completions must be bash or zsh (got '" + shown + "')"};
}

}  // namespace poslab::cli
