// A minimal `expected`: a value or an error, for a core built without exceptions.
//
// std::expected is C++23 and neither g++ 12 nor Emscripten 3.1.6 ships it. The core never throws
// (it is compiled with -fno-exceptions so that nothing can abort the WebAssembly instance), so every
// fallible operation returns one of these and the binding layer turns errors into JS errors.
//
// A union and a flag rather than std::variant: libc++'s variant moves and destroys through tables
// of functions per instantiation, which the compiler cannot see through, and each Expected type
// is one such instantiation (issue 21: the routing module's size).
#pragma once

#include <new>
#include <optional>
#include <utility>

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
  Expected(T value) : ok_(true) { new (&value_) T(std::move(value)); }  // NOLINT: implicit by design
  template <class G>
  Expected(Unexpected<G> u) : ok_(false) {  // NOLINT: implicit by design
    new (&error_) E(std::move(u.error));
  }
  Expected(const Expected& other) : ok_(other.ok_) {
    if (ok_) new (&value_) T(other.value_);
    else new (&error_) E(other.error_);
  }
  Expected(Expected&& other) noexcept : ok_(other.ok_) {
    if (ok_) new (&value_) T(std::move(other.value_));
    else new (&error_) E(std::move(other.error_));
  }
  Expected& operator=(const Expected& other) {
    if (this != &other) {
      destroy();
      ok_ = other.ok_;
      if (ok_) new (&value_) T(other.value_);
      else new (&error_) E(other.error_);
    }
    return *this;
  }
  Expected& operator=(Expected&& other) noexcept {
    if (this != &other) {
      destroy();
      ok_ = other.ok_;
      if (ok_) new (&value_) T(std::move(other.value_));
      else new (&error_) E(std::move(other.error_));
    }
    return *this;
  }
  ~Expected() { destroy(); }

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }

  T& value() & { return value_; }
  const T& value() const& { return value_; }
  T&& value() && { return std::move(value_); }
  const E& error() const { return error_; }

  T* operator->() { return &value_; }
  const T* operator->() const { return &value_; }

 private:
  void destroy() {
    if (ok_) value_.~T();
    else error_.~E();
  }

  union {
    T value_;
    E error_;
  };
  bool ok_;
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
