// memo.hpp — the one cache idiom: a value kept while the key it was computed from stays equal.
//
// The key is everything the value is computed from, compared with == (parameter structs have a
// defaulted ==, so a field added later is part of every key; hand-written equalities used to
// miss fields). Standard C++ only: the GUI's figure caches and the panels' derived data use it.
//
//   Memo<RopeParams, HeatmapSample> angles_;
//   const HeatmapSample& sample = angles_.get(key, [&] { return ropeAngleSample(...); });
//   if (angles_.version() != uploaded) ...   // the value changed since: upload it again
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

namespace poslab {

template <class Key, class Value>
class Memo {
  public:
    // ---- Use
    // The value for `key`: make() computes it when the key differs from the last one (or none
    // was kept yet); otherwise the kept value. make() takes no arguments and returns a Value.
    template <class Make>
    const Value& get(const Key& key, Make&& make) {
        if (!holds(key)) store(key, std::forward<Make>(make)());
        return *value_;
    }
    bool holds(const Key& key) const { return key_ && *key_ == key; }  // the value is key's
    void store(const Key& key, Value value) {  // keeps value as key's (a result computed elsewhere)
        key_ = key;
        value_ = std::move(value);
        ++version_;
    }
    void clear() {  // forgets key and value: the next get() computes
        key_.reset();
        value_.reset();
    }

    // ---- What is kept
    bool empty() const { return !value_; }
    const Key* key() const { return key_ ? &*key_ : nullptr; }          // nullptr when empty
    const Value* value() const { return value_ ? &*value_ : nullptr; }  // nullptr when empty
    Value* value() { return value_ ? &*value_ : nullptr; }
    // Counts the values stored: a consumer that copied the value (a GPU texture) compares it
    // with the version it copied.
    std::uint64_t version() const { return version_; }

  private:
    std::optional<Key> key_;
    std::optional<Value> value_;
    std::uint64_t version_ = 0;
};

}  // namespace poslab
