// Errors are values: every call that can refuse its input returns Result<T>.
// The three kinds are the specification's; callers (the protocol, the vector
// lint, the CLI) compare kinds, and show the message to people.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace tlbf {

enum class ErrorKind {
  BadParams,  // a constructor was asked for a filter TLBF v1 does not allow
  Mismatch,   // union of filters whose m or k differ
  Format,     // from_bytes was given bytes that are not one TLBF v1 filter
};

// "BadParams", "Mismatch", "Format": the spellings used on the wire and in vectors.
std::string_view to_string(ErrorKind kind) noexcept;

struct Error {
  ErrorKind kind;
  std::string message;  // names the offending field and its value

  // "Format: m = 0 in header; must be 1 ..= 2^40"
  std::string describe() const;
  friend bool operator==(const Error&, const Error&) = default;
};

// Either a T or an Error. Deliberately small: the spec's Result, not a monad.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  // Precondition: ok(). Accessing the wrong side throws std::bad_variant_access.
  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }

  // Precondition: !ok().
  const Error& error() const& { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

// Result of an operation that returns nothing on success.
struct Unit {
  friend bool operator==(Unit, Unit) = default;
};
using Status = Result<Unit>;
inline Status success() { return Unit{}; }

}  // namespace tlbf
