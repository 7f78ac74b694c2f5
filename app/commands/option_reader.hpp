// option_reader.hpp — reading a command's options into values, with the one-line errors every
// command shares ("--heads must be 1..128 (got 0)"). Every export kind, render view and launch
// option reads its typed values (integers, numbers, seeds, text, lists, choices) through an
// OptionReader: one way to read an option, whatever its kind. (ArgMap::has/flag say whether one
// was given; ArgMap::raw is read here only.)
//
//   OptionReader read(args);
//   read.integer(kClockBitsRange, options.bits);     // a described parameter: its option, limits
//   read.integer("head-dim", p.headDim, 2, 8192);    // low..high, when given
//   read.wideInt("seq-len", p.seqLen);               // core's validate() checks the range
//   read.number("base", p.base);
//   read.seed("seed", p.seed);                       // 0..2^63-1
//   read.list("q", q, kMaxDModel);                   // "1,2.5,-3": finite numbers
//   read.text("sentence", p.sentence);               // as typed
//   read.path("config", configPath);                 // a file path, as typed, when given
//   read.choice("pairing", p.pairing, parsePairing); // a name, parsed
//   read.list("formats", formats, 3, parseFormat);   // "float32,float16": names, each parsed
//   if (!read.ok()) return read.error();
//
// A field keeps its value (the default) when its option is not given; after an error nothing
// more is read, so the message is the first bad option's.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "commands/args.hpp"
#include "poslab/base/result.hpp"
#include "state/ranges.hpp"

namespace poslab::commands {

// "--name must be low..high (got value)" unless low <= value <= high.
Status rangeError(const std::string& option, long long value, long long low, long long high);

class OptionReader {
  public:
    explicit OptionReader(const ArgMap& args) : args_(args) {}
    explicit OptionReader(ArgMap&&) = delete;  // it keeps a reference: no temporaries

    // ---- Integers
    void integer(const std::string& name, int& field, long long low, long long high);  // low..high
    void integer(const IntParameter& parameter, int& field);  // the descriptor's option, limits
    // Any integer the syntax holds; the caller checks it against what only it knows (a loaded
    // table's size, a range with its own wording).
    void integer(const std::string& name, long long& field);
    // Core's validate() checks the range (and says it); here only values beyond +-2^30, which
    // would wrap around in an int, are refused: "--name is out of range (got v)".
    void wideInt(const std::string& name, int& field);
    void wideInt(const std::string& name, long long& field);  // the same limits
    // The same, with core's message for values that could not be held: beyond -1..2^30,
    // "coreKey must be low..high (got v)".
    void coreInt(const std::string& name, int& field, const std::string& coreKey, long long low,
                 long long high);
    void seed(std::uint64_t& field) { seed("seed", field); }  // --seed, 0..2^63-1
    void seed(const std::string& name, std::uint64_t& field, long long top = LLONG_MAX);  // 0..top

    // ---- Reals
    void number(const std::string& name, double& field);         // any number
    void number(const RealParameter& parameter, double& field);  // the descriptor's option, limits
    // low..high, NaN refused: "--name must be rangeText (got text as typed)".
    void number(const std::string& name, double& field, double low, double high,
                const std::string& rangeText);

    // ---- Text, paths, lists and names
    void text(const std::string& name, std::string& field);                 // the value as typed
    void text(const std::string& name, std::optional<std::string>& field);  // nullopt: not given
    // A file path as typed (the loader opens it through io::InputFile and names what is wrong);
    // the field stays nullopt when the option is not given.
    void path(const std::string& name, std::optional<std::string>& field);
    // A path the command needs: when it is not given, the error is `whenMissing`
    // ("--config FILE is required (a Hugging Face config.json)").
    void path(const std::string& name, std::string& field, const std::string& whenMissing);
    // A comma list of at most maxCount finite numbers ("--name entries must be finite numbers
    // (got '...')"); the count is checked before any entry is read.
    void list(const std::string& name, std::vector<double>& field, std::size_t maxCount);
    // A comma list of at most maxCount integers, each low..high ("--name entries must be
    // low..high (got v)").
    void list(const std::string& name, std::vector<int>& field, std::size_t maxCount, long long low,
              long long high);
    // A comma list of at most maxCount words, as typed ("float32,float16").
    void list(const std::string& name, std::vector<std::string>& field, std::size_t maxCount);
    // A named choice, or any value in a syntax of its own ("4x4"): parse(text) gives a Result,
    // whose message gets the option's "--". `field` may be a std::optional (nullopt: not given).
    template <class T, class Parse>
    void choice(const std::string& name, T& field, Parse parse) {
        if (error_) return;
        auto text = args_.raw(name);
        if (!text) return;
        auto value = parse(*text);
        if (!value) return fail(Error{"--" + value.error().message});
        field = std::move(*value);
    }
    // A comma list of at most maxCount names, each parsed as choice() parses one; the first bad
    // entry's message gets the "--" ("--formats entries must be float32, ... (got 'x')").
    template <class T, class Parse>
    void list(const std::string& name, std::vector<T>& field, std::size_t maxCount, Parse parse) {
        if (error_ || !args_.has(name)) return;
        auto words = args_.words(name, maxCount);
        if (!words) return fail(words.error());
        std::vector<T> values;
        for (const std::string& word : *words) {
            auto value = parse(word);
            if (!value) return fail(Error{"--" + value.error().message});
            values.push_back(std::move(*value));
        }
        field = std::move(values);
    }

    bool given(const std::string& name) const { return args_.has(name); }
    bool ok() const { return !error_; }
    const Error& error() const { return *error_; }  // precondition: !ok()

  private:
    void fail(Error error) { error_ = std::move(error); }

    const ArgMap& args_;
    std::optional<Error> error_;
};

}  // namespace poslab::commands
