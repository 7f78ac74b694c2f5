#include "commands/option_reader.hpp"

#include <climits>
#include <cmath>

#include "poslab/base/format.hpp"

namespace poslab::commands {

Status rangeError(const std::string& option, long long value, long long low, long long high) {
    if (value >= low && value <= high) return success();
    return Error{"--" + option + " must be " + std::to_string(low) + ".." + std::to_string(high) +
                 " (got " + std::to_string(value) + ")"};
}

void OptionReader::integer(const std::string& name, int& field, long long low, long long high) {
    if (error_ || !args_.has(name)) return;
    auto value = args_.integer(name, field);
    if (!value) return fail(value.error());
    if (auto s = rangeError(name, *value, low, high); !s) return fail(s.error());
    field = int(*value);
}

void OptionReader::integer(const std::string& name, long long& field) {
    if (error_) return;
    auto value = args_.integer(name, field);
    if (!value) return fail(value.error());
    field = *value;
}

void OptionReader::integer(const IntParameter& p, int& field) {
    integer(std::string(p.option), field, p.low, p.high);
}

void OptionReader::wideInt(const std::string& name, int& field) {
    long long value = field;
    wideInt(name, value);
    field = int(value);  // within +-2^30: exact
}

void OptionReader::wideInt(const std::string& name, long long& field) {
    if (error_) return;
    auto value = args_.integer(name, field);
    if (!value) return fail(value.error());
    if (*value < -(1LL << 30) || *value > (1LL << 30)) {
        return fail(Error{"--" + name + " is out of range (got " + std::to_string(*value) + ")"});
    }
    field = *value;
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

void OptionReader::seed(const std::string& name, std::uint64_t& field, long long top) {
    if (error_ || !args_.has(name)) return;
    auto value = args_.integer(name, 0);
    if (!value) return fail(value.error());
    if (*value < 0 || *value > top) {
        return fail(Error{"--" + name + " must be 0.." + std::to_string(top) + " (got " +
                          std::to_string(*value) + ")"});
    }
    field = std::uint64_t(*value);
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

void OptionReader::list(const std::string& name, std::vector<double>& field, std::size_t maxCount) {
    if (error_ || !args_.has(name)) return;
    auto values = args_.numbers(name, maxCount);
    if (!values) return fail(values.error());
    for (double v : *values) {
        if (!std::isfinite(v)) {
            return fail(Error{"--" + name + " entries must be finite numbers (got " +
                              quoteForMessage(*args_.raw(name)) + ")"});
        }
    }
    field = std::move(values).value();
}

void OptionReader::list(const std::string& name, std::vector<int>& field, std::size_t maxCount,
                        long long low, long long high) {
    if (error_ || !args_.has(name)) return;
    auto values = args_.integers(name, maxCount);
    if (!values) return fail(values.error());
    std::vector<int> read;
    for (long long v : *values) {
        if (v < low || v > high) {
            return fail(Error{"--" + name + " entries must be " + std::to_string(low) + ".." +
                              std::to_string(high) + " (got " + std::to_string(v) + ")"});
        }
        read.push_back(int(v));
    }
    field = std::move(read);
}

void OptionReader::text(const std::string& name, std::string& field) {
    if (error_) return;
    if (auto value = args_.raw(name)) field = std::move(*value);
}

void OptionReader::text(const std::string& name, std::optional<std::string>& field) {
    if (error_) return;
    if (auto value = args_.raw(name)) field = std::move(*value);
}

void OptionReader::path(const std::string& name, std::optional<std::string>& field) {
    text(name, field);
}

void OptionReader::path(const std::string& name, std::string& field,
                        const std::string& whenMissing) {
    if (error_) return;
    if (!args_.has(name)) return fail(Error{whenMissing});
    text(name, field);
}

void OptionReader::list(const std::string& name, std::vector<std::string>& field,
                        std::size_t maxCount) {
    if (error_ || !args_.has(name)) return;
    auto words = args_.words(name, maxCount);
    if (!words) return fail(words.error());
    field = std::move(words).value();
}

}  // namespace poslab::commands
