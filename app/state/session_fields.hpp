// session_fields.hpp — reading and writing one state struct's fields as a JSON object, for
// session_format.cpp and for encodings registered as plug-ins (state/encoding_registry.hpp).
//
// Each state struct lists its fields once, in a visitFields(f, state) template, and that one list
// is read with Fields and written with JsonWriter:
//
//   template <class F, Is<AlibiViewState> V>
//   void visitFields(F& f, V& v) {
//       f.parameter(kAlibiHeadsParam, v.heads);       // a described parameter: key and range from
//       it f.boolean("symmetric", v.symmetric); f.name("colormap", v.colormap, kColormapNames);
//   }
//
// Reading never leaves a struct half-applied: applyChecked reads into a copy and keeps it only
// when every value was usable, every described parameter in range and the validator agrees.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/base/parameter.hpp"
#include "poslab/base/result.hpp"
#include "state/enum_names.hpp"

namespace poslab::state {

using nlohmann::json;
using Warnings = std::vector<std::string>;  // one line per value that could not be applied

// A descriptor's session key inside its object: the part after the last dot ("clock.bits":
// "bits", read inside the "clock" object).
inline std::string sessionKeyOf(std::string_view key) {
    const std::size_t dot = key.rfind('.');
    return std::string(dot == std::string_view::npos ? key : key.substr(dot + 1));
}

// A JSON integer as Int when Int holds it exactly; nullopt for other values and for integers
// beyond Int (a cast would wrap them around: 2^32 + 64 would become 64).
template <class Int>
std::optional<Int> integerValue(const json& v) {
    if (v.is_number_unsigned()) {
        const auto value = v.get<std::uint64_t>();
        if (std::in_range<Int>(value)) return Int(value);
    } else if (v.is_number_integer()) {
        const auto value = v.get<std::int64_t>();
        if (std::in_range<Int>(value)) return Int(value);
    }
    return std::nullopt;
}

// Reads the keys of one JSON object into fields, collecting one warning per unusable value.
class Fields {
  public:
    static constexpr bool kReading = true;
    Fields(const json& object, std::string path, Warnings& warnings)
        : object_(object), path_(std::move(path)), warnings_(warnings) {
        if (!object_.is_object()) warn("", "expected an object");
    }
    bool ok() const { return ok_; }

    void number(const char* key, double& out) {
        if (const json* v = find(key)) {
            if (v->is_number())
                out = v->get<double>();
            else
                warn(key, "expected a number");
        }
    }
    template <class Int>
    void integer(const char* key, Int& out) {
        if (const json* v = find(key)) {
            if (auto value = integerValue<Int>(*v))
                out = *value;
            else if (v->is_number_integer())
                warn(key, "out of range (got " + v->dump() + ")");
            else
                warn(key, "expected an integer");
        }
    }
    void boolean(const char* key, bool& out) {
        if (const json* v = find(key)) {
            if (v->is_boolean())
                out = v->get<bool>();
            else
                warn(key, "expected true or false");
        }
    }
    void text(const char* key, std::string& out) {
        if (const json* v = find(key)) {
            if (v->is_string())
                out = v->get<std::string>();
            else
                warn(key, "expected a string");
        }
    }
    void numberList(const char* key, std::vector<double>& out) {
        if (const json* v = find(key)) {
            std::vector<double> values;
            bool valid = v->is_array();
            for (std::size_t i = 0; valid && i < v->size(); ++i) {
                valid = (*v)[i].is_number() && std::isfinite((*v)[i].get<double>());
                if (valid) values.push_back((*v)[i].get<double>());
            }
            if (valid)
                out = std::move(values);
            else
                warn(key, "expected a list of finite numbers");
        }
    }
    void optionalNumber(const char* key, std::optional<double>& out) {
        if (const json* v = find(key)) {
            if (v->is_null())
                out.reset();
            else if (v->is_number())
                out = v->get<double>();
            else
                warn(key, "expected a number or null");
        }
    }
    // Enums by name, through the enum's name table (enum_names.hpp).
    template <class Enum, class Names>
    void name(const char* key, Enum& out, const Names& names) {
        if (const json* v = find(key)) {
            if (!v->is_string()) {
                warn(key, "expected a name");
                return;
            }
            // The parse errors quote the name as it is; one with a newline or an escape sequence
            // would break the one-line warning, so it is shown escaped instead.
            const std::string& text = v->get_ref<const std::string&>();
            if (std::any_of(text.begin(), text.end(),
                            [](unsigned char c) { return c < 0x20 || c == 0x7f; })) {
                warn(key, "unknown name " + v->dump());
                return;
            }
            auto parsed = names.parse(text);
            if (parsed)
                out = *parsed;
            else
                warn(key, parsed.error().message);
        }
    }
    void window(const char* key, CellWindow& out) {
        if (const json* v = find(key)) {
            const bool shaped = v->is_array() && v->size() == 4 &&
                                std::all_of(v->begin(), v->end(), [](const json& e) {
                                    return integerValue<long long>(e).has_value();
                                });
            if (shaped) {
                out = {(*v)[0].get<long long>(), (*v)[1].get<long long>(), (*v)[2].get<long long>(),
                       (*v)[3].get<long long>()};
            } else {
                warn(key, "expected [firstRow, rowCount, firstCol, colCount]");
            }
        }
    }
    // A field saved in another form (an integer or a flag): out = decode(what the file holds).
    template <class Value, class Encode, class Decode>
    void converted(const char* key, Value& out, Encode encode, Decode decode) {
        auto stored = encode(std::as_const(out));
        if constexpr (std::is_same_v<decltype(stored), bool>)
            boolean(key, stored);
        else
            integer(key, stored);
        out = decode(stored);
    }
    // A described parameter (poslab/base/parameter.hpp), under its key's last part ("clock.bits":
    // "bits" inside "clock"). A value outside the descriptor's range is the object's range error
    // (applyChecked reports the first), as validate() would report it.
    template <class Parameter, class Value>
    void parameter(const Parameter& p, Value& out) {
        const std::string key = sessionKeyOf(p.key);
        if constexpr (std::is_same_v<Value, double>)
            number(key.c_str(), out);
        else
            integer(key.c_str(), out);
        if (!rangeError_) {
            if (Status s = p.check(out); !s) rangeError_ = s.error();
        }
    }
    const std::optional<Error>& rangeError() const { return rangeError_; }
    // A nested object read by `read(Fields&)`; its warnings count as this object's.
    template <class Read>
    void child(const char* key, Read read) {
        if (const json* v = find(key)) {
            Fields nested(*v, path_ + "." + key, warnings_);
            if (nested.ok()) read(nested);
            ok_ = ok_ && nested.ok();
        }
    }
    void warn(const std::string& key, const std::string& message) {
        warnings_.push_back(path_ + (key.empty() ? "" : "." + key) + ": " + message);
        ok_ = false;
    }

  private:
    const json* find(const char* key) const {
        if (!object_.is_object()) return nullptr;
        auto it = object_.find(key);
        return it == object_.end() ? nullptr : &*it;
    }
    const json& object_;
    std::string path_;
    Warnings& warnings_;
    bool ok_ = true;
    std::optional<Error> rangeError_;  // the first described parameter out of its range
};

// Reads into a copy and keeps it only when every value was usable and `valid` accepts the whole.
template <class State, class Read, class Valid>
void applyChecked(const json& object, State& state, const std::string& path, Warnings& warnings,
                  Read read, Valid valid) {
    State copy = state;
    Fields fields(object, path, warnings);
    if (fields.ok()) read(fields, copy);
    if (!fields.ok()) {
        warnings.push_back(path + ": kept the previous settings");
        return;
    }
    if (fields.rangeError()) {
        warnings.push_back(path + ": " + fields.rangeError()->message +
                           " (kept the previous settings)");
        return;
    }
    if (Status s = valid(copy); !s) {
        warnings.push_back(path + ": " + s.error().message + " (kept the previous settings)");
        return;
    }
    state = std::move(copy);
}

// Writes the same field list Fields reads: each state struct's fields are listed once, in a
// visitFields(fields, state) template below, and read with Fields or written with JsonWriter.
class JsonWriter {
  public:
    static constexpr bool kReading = false;
    void number(const char* key, double value) { out_[key] = value; }
    template <class Int>
    void integer(const char* key, const Int& value) {
        out_[key] = value;
    }
    void boolean(const char* key, bool value) { out_[key] = value; }
    void text(const char* key, const std::string& value) { out_[key] = value; }
    void numberList(const char* key, const std::vector<double>& values) { out_[key] = values; }
    void optionalNumber(const char* key, const std::optional<double>& value) {
        out_[key] = value ? json(*value) : json(nullptr);
    }
    template <class Enum, class Names>
    void name(const char* key, const Enum& value, const Names& names) {
        out_[key] = names.name(value);
    }
    void window(const char* key, const CellWindow& w) {
        out_[key] = json::array({w.firstRow, w.rowCount, w.firstCol, w.colCount});
    }
    // A field saved in another form: encode(value) is what the file holds.
    template <class Value, class Encode, class Decode>
    void converted(const char* key, const Value& value, Encode encode, Decode) {
        out_[key] = encode(value);
    }
    template <class Parameter, class Value>
    void parameter(const Parameter& p, const Value& value) {
        const std::string key = sessionKeyOf(p.key);
        if constexpr (std::is_same_v<Value, double>)
            number(key.c_str(), value);
        else
            integer(key.c_str(), value);
    }
    template <class Write>
    void child(const char* key, Write write) {
        JsonWriter nested;
        write(nested);
        out_[key] = std::move(nested.out_);
    }
    json take() { return std::move(out_); }

  private:
    json out_ = json::object();
};

template <class T, class U>
concept Is = std::same_as<std::remove_const_t<T>, U>;

}  // namespace poslab::state
