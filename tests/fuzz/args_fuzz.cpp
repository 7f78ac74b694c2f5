// Command-line parsing: arguments are the input split at newlines; every getter is exercised.
#include <cstdint>
#include <string>
#include <vector>

#include "commands/args.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> arguments(1);
    for (std::size_t i = 0; i < size; ++i) {
        if (data[i] == '\n')
            arguments.emplace_back();
        else
            arguments.back().push_back(char(data[i]));
    }
    const std::vector<poslab::commands::OptionSpec> options = {
        {"d-model", "D", ""}, {"base", "B", ""},     {"dims", "LIST", ""},
        {"q", "LIST", ""},    {"symmetric", "", ""}, {"out", "FILE", ""}};
    auto parsed = poslab::commands::parseArguments(arguments, options, "poslab fuzz");
    if (!parsed) {
        if (parsed.error().message.find('\n') != std::string::npos) __builtin_trap();
        return 0;
    }
    (void)parsed->integer("d-model", 1);
    (void)parsed->number("base", 1);
    (void)parsed->integers("dims", 8);
    (void)parsed->numbers("q", 8192);
    (void)parsed->raw("out");
    (void)poslab::commands::withOptionNames("d_model must be 1..8192 (got 0)", options);
    return 0;
}
