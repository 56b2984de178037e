// A minimal `expected`: a value or an error, for a core built without exceptions.
//
// std::expected is C++23 and neither g++ 12 nor Emscripten 3.1.6 ships it. The core never throws
// (it is compiled with -fno-exceptions so that nothing can abort the WebAssembly instance), so every
// fallible operation returns one of these and the binding layer turns errors into JS errors.
#pragma once

#include <optional>
#include <utility>
#include <variant>

namespace handoff {

template <class E>
struct Unexpected {
  E error;
};

template <class E>
Unexpected<std::decay_t<E>> unexpected(E&& error) {
  return {std::forward<E>(error)};
}

template <class T, class E>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  template <class G>
  Expected(Unexpected<G> u) : state_(std::in_place_index<1>, E(std::move(u.error))) {}  // NOLINT

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return *std::get_if<0>(&state_); }
  const T& value() const& { return *std::get_if<0>(&state_); }
  T&& value() && { return std::move(*std::get_if<0>(&state_)); }
  const E& error() const { return *std::get_if<1>(&state_); }

  T* operator->() { return std::get_if<0>(&state_); }
  const T* operator->() const { return std::get_if<0>(&state_); }

 private:
  std::variant<T, E> state_;
};

template <class E>
class [[nodiscard]] Expected<void, E> {
 public:
  Expected() = default;
  template <class G>
  Expected(Unexpected<G> u) : error_(E(std::move(u.error))) {}  // NOLINT

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const E& error() const { return *error_; }

 private:
  std::optional<E> error_;
};

}  // namespace handoff
