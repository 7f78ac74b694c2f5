#include "commands/option_reader.hpp"

#include <climits>

namespace poslab::cli {

Status rangeError(const std::string& option, long long value, long long low, long long high) {
    if (value >= low && value <= high) return success();
    return Error{"--" + option + " must be " + std::to_string(low) + ".." + std::to_string(high) +
                 " (got " + std::to_string(value) + ")"};
}

Result<std::optional<int>> readIntIfGiven(const ArgMap& args, const std::string& name,
                                          long long low, long long high) {
    if (!args.has(name)) return std::optional<int>{};
    auto value = args.integer(name, 0);
    if (!value) return value.error();
    if (auto s = rangeError(name, *value, low, high); !s) return s.error();
    return std::optional<int>(int(*value));
}

Result<std::optional<int>> readIntIfGiven(const ArgMap& args, const ui::IntRange& range) {
    return readIntIfGiven(args, std::string(range.option), range.low, range.high);
}

Result<std::optional<double>> readNumberIfGiven(const ArgMap& args, const std::string& name) {
    if (!args.has(name)) return std::optional<double>{};
    auto value = args.number(name, 0);
    if (!value) return value.error();
    return std::optional<double>(*value);
}

Result<int> readWideInt(const ArgMap& args, const std::string& name, int fallback) {
    auto value = args.integer(name, fallback);
    if (!value) return value.error();
    if (*value < -(1LL << 30) || *value > (1LL << 30)) {
        return Error{"--" + name + " is out of range (got " + std::to_string(*value) + ")"};
    }
    return int(*value);
}

Result<std::uint64_t> readSeed(const ArgMap& args, const std::string& name, std::uint64_t fallback,
                               long long top) {
    auto value = args.integer(name, (long long)fallback);
    if (!value) return value.error();
    if (*value < 0 || *value > top) {
        return Error{"--" + name + " must be 0.." + std::to_string(top) + " (got " +
                     std::to_string(*value) + ")"};
    }
    return std::uint64_t(*value);
}

void OptionReader::integer(const std::string& name, int& field, int low, int high) {
    if (error_) return;
    auto value = args_.integer(name, field);
    if (!value) return fail(value.error());
    if (auto s = rangeError(name, *value, low, high); !s) return fail(s.error());
    field = int(*value);
}

void OptionReader::integer(const ui::IntRange& range, int& field) {
    integer(std::string(range.option), field, range.low, range.high);
}

void OptionReader::number(const std::string& name, double& field) {
    if (error_) return;
    auto value = args_.number(name, field);
    if (!value) return fail(value.error());
    field = *value;
}

void OptionReader::number(const std::string& name, double& field, double low, double high,
                          const std::string& rangeText) {
    if (error_) return;
    auto value = args_.number(name, field);
    if (!value) return fail(value.error());
    if (!(*value >= low && *value <= high))
        return fail(Error{"--" + name + " must be " + rangeText + " (got " +
                          args_.raw(name).value_or(std::to_string(*value)) + ")"});
    field = *value;
}

void OptionReader::number(const RealParameter& p, double& field) {
    number(std::string(p.option), field, p.low, p.high, p.rangeText());
}

void OptionReader::coreInt(const std::string& name, int& field, const std::string& coreKey,
                           long long low, long long high) {
    if (error_) return;
    auto value = args_.integer(name, field);
    if (!value) return fail(value.error());
    if (*value < -1 || *value > 1LL << 30) {
        return fail(Error{coreKey + " must be " + std::to_string(low) + ".." +
                          std::to_string(high) + " (got " + std::to_string(*value) + ")"});
    }
    field = int(*value);
}

void OptionReader::seed(std::uint64_t& field) {
    if (error_) return;
    auto value = readSeed(args_, "seed", field);
    if (!value) return fail(value.error());
    field = *value;
}

}  // namespace poslab::cli
