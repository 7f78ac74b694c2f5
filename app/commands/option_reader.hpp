// option_reader.hpp — reading a command's options into values, with the one-line errors every
// command shares ("--heads must be 1..128 (got 0)"). Every export kind and render view reads its
// options through these, not through helpers of its own.
//   OptionReader             reads options into a view's fields in order, keeping the first error
//   readIntIfGiven            an integer checked against low..high, when the option is given
//   readNumberIfGiven         a number, when the option is given
//   readWideInt               an int, with only a coarse bound (core's validate() checks the range)
//   readSeed                  a seed, 0..2^63-1 (or a lower top)
#pragma once

#include <climits>
#include <cstdint>
#include <optional>
#include <string>

#include "commands/args.hpp"
#include "poslab/base/result.hpp"
#include "state/ranges.hpp"

namespace poslab::cli {

// "--name must be low..high (got value)" unless low <= value <= high.
Status rangeError(const std::string& option, long long value, long long low, long long high);

Result<std::optional<int>> readIntIfGiven(const ArgMap& args, const std::string& name,
                                          long long low, long long high);
// The same for a parameter of the range table: its option, low..high.
Result<std::optional<int>> readIntIfGiven(const ArgMap& args, const ui::IntRange& range);
Result<std::optional<double>> readNumberIfGiven(const ArgMap& args, const std::string& name);
// Values beyond +-2^30 are refused ("--name is out of range (got v)") so they never wrap around
// in an int; the precise range and its message belong to core's validate().
Result<int> readWideInt(const ArgMap& args, const std::string& name, int fallback);
Result<std::uint64_t> readSeed(const ArgMap& args, const std::string& name,
                               std::uint64_t fallback = 0, long long top = LLONG_MAX);

// Reads options into the fields of a view's settings, in order, keeping the first error: a view
// lists what it reads and checks once. A field keeps its value (the default) when its option is
// not given; after an error nothing more is read, so the message is the first bad option's.
//   OptionReader read(args);
//   read.integer("bits", options.bits, 1, 12);
//   read.number("base", options.sinusoidal.base);
//   if (!read.ok()) return read.error();
class OptionReader {
  public:
    explicit OptionReader(const ArgMap& args) : args_(args) {}
    explicit OptionReader(ArgMap&&) = delete;  // it keeps a reference: no temporaries

    void integer(const std::string& name, int& field, int low, int high);  // low..high
    void integer(const ui::IntRange& range, int& field);  // the table entry's option and limits
    void number(const std::string& name, double& field);
    void number(const RealParameter& parameter, double& field);  // the descriptor's option, limits
    // low..high, NaN refused: "--name must be rangeText (got text as typed)".
    void number(const std::string& name, double& field, double low, double high,
                const std::string& rangeText);
    // An int whose range core's validate() checks (its message, e.g. "d_model must be 1..8192"):
    // here only values that could not be held refused early, beyond -1..2^30, with that message.
    void coreInt(const std::string& name, int& field, const std::string& coreKey, long long low,
                 long long high);
    void seed(std::uint64_t& field);  // --seed, 0..2^63-1
    // A named choice: parse(text) gives a Result, whose message gets the option's "--".
    template <class T, class Parse>
    void choice(const std::string& name, T& field, Parse parse) {
        if (error_) return;
        auto text = args_.raw(name);
        if (!text) return;
        auto value = parse(*text);
        if (!value) return fail(Error{"--" + value.error().message});
        field = *value;
    }

    bool ok() const { return !error_; }
    const Error& error() const { return *error_; }  // precondition: !ok()

  private:
    void fail(Error error) { error_ = std::move(error); }

    const ArgMap& args_;
    std::optional<Error> error_;
};

}  // namespace poslab::cli
