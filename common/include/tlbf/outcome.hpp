// Above the oracle, every call that can fail returns Outcome<T>: its value,
// or a Failure that says in words what went wrong. The oracle's Result<T>
// carries the specification's three error kinds, which callers compare;
// a Failure carries only the words, which callers pass up or show, adding
// where they were ("reading kit.json: ...").
//
// No std::exit and no out-parameter for errors outside main(); exceptions only
// where a library throws them (nlohmann::json, std::filesystem), caught at the
// edge of the function that calls it and turned into a Failure.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace tlbf {

struct Failure {
  std::string why;  // a sentence for people: names the input and what is wrong with it
};

inline Failure failure(std::string why) { return Failure{std::move(why)}; }

template <typename T>
class [[nodiscard]] Outcome {
 public:
  Outcome(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Outcome(Failure f) : state_(std::in_place_index<1>, std::move(f)) {}    // NOLINT: implicit by design

  bool ok() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  // Precondition: ok(). The wrong side throws std::bad_variant_access.
  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // Precondition: !ok().
  const std::string& why() const { return std::get<1>(state_).why; }
  const Failure& failure() const { return std::get<1>(state_); }

  // The failure, with `context` in front ("kit.json: " + why).
  Failure failure_in(const std::string& context) const { return Failure{context + why()}; }

 private:
  std::variant<T, Failure> state_;
};

// What a call that returns nothing but can fail returns: Outcome<Done>.
// (Not named Status: that is the oracle's Result<Unit>.)
struct Done {
  friend bool operator==(Done, Done) = default;
};
inline Outcome<Done> done() { return Done{}; }

}  // namespace tlbf
