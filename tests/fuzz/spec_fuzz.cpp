// Figure specs (`poslab render --spec`, cli/spec_format.hpp): any text is a one-line Error, or
// one Result per figure. Entries that read are then built exactly as the renderer would (every
// option value checked, the figure drawn into primitives), without writing a file.
//
// Building costs what the entry asks for: the documented ranges allow figures that take minutes
// (near-orthogonality with 8192 dimensions and 10^6 samples), which is the request's cost, not a
// reader bug. So entries holding a number in the costly middle range 512 < |x| <= 2^31 are read
// and checked but not built; small numbers, and huge or non-finite ones (which the option checks
// must refuse before doing any work), are built.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "commands/commands.hpp"
#include "commands/spec_format.hpp"

namespace {

bool isSingleLine(const std::string& text) {
    return text.find('\n') == std::string::npos && text.find('\r') == std::string::npos;
}

bool cheapToBuild(const poslab::commands::ArgMap& args) {
    for (const auto& [name, text] : args.values()) {
        if (name == "out") continue;
        std::size_t start = 0;
        while (start <= text.size()) {  // every comma-separated number, as lists are read
            const std::size_t comma = std::min(text.find(',', start), text.size());
            const std::string token = text.substr(start, comma - start);
            char* end = nullptr;
            const double value = std::strtod(token.c_str(), &end);
            if (!token.empty() && end == token.c_str() + token.size()) {
                const double size = std::fabs(value);
                if (size > 512 && size <= 2147483648.0) return false;
            }
            start = comma + 1;
        }
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const poslab::commands::CommandRegistry registry = poslab::commands::buildRegistry();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto entries = poslab::commands::readSpecText(text, "/specs/figures.json", registry);
    if (!entries) {
        if (!isSingleLine(entries.error().message)) __builtin_trap();
        return 0;
    }
    for (const auto& entry : *entries) {
        if (!entry) {
            if (!isSingleLine(entry.error().message)) __builtin_trap();
            continue;
        }
        // Relative outputs go next to the spec; nothing is written here.
        const std::string out = *entry->args.raw("out");
        if (out.empty() || out.front() != '/') __builtin_trap();
        if (!cheapToBuild(entry->args)) continue;
        auto built = poslab::commands::buildFigure(
            *entry->view, poslab::commands::renderOptionsFor(*entry->view), entry->args);
        if (!built) {
            if (!isSingleLine(built.error().message)) __builtin_trap();
        } else if (built->figure.width != float(built->settings.width) ||
                   built->figure.height != float(built->settings.height)) {
            __builtin_trap();
        }
    }
    return 0;
}
