// result.hpp — errors as values.
//
// Every fallible core function returns Result<T> (or Status). The message is one line that names
// the input and its valid range, ready to print on stderr or show in the GUI as it is.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace poslab {

struct Error {
    std::string message;  // one line, no trailing newline: "d_model must be 1..8192 (got 0)"
};

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : storage_(std::move(value)) {}      // success
    Result(Error error) : storage_(std::move(error)) {}  // failure

    bool ok() const { return storage_.index() == 0; }      // true when a value is held
    explicit operator bool() const { return ok(); }        // same as ok()
    const T& value() const& { return std::get<0>(storage_); }  // precondition: ok()
    T& value() & { return std::get<0>(storage_); }             // precondition: ok()
    T&& value() && { return std::get<0>(std::move(storage_)); }
    const T& operator*() const& { return value(); }
    T& operator*() & { return value(); }
    T&& operator*() && { return std::move(*this).value(); }
    // Non-const too: std::move(result->table) must move the member, not copy it through a
    // const pointer (a loaded table at the memory cap was copied so, doubling the peak).
    const T* operator->() const { return &value(); }
    T* operator->() { return &value(); }
    const Error& error() const { return std::get<1>(storage_); }  // precondition: !ok()

private:
    std::variant<T, Error> storage_;
};

struct Success {};
using Status = Result<Success>;  // a Result that carries no value

inline Status success() { return Success{}; }  // the "everything is fine" Status

}  // namespace poslab
