// Scalar keys: the identity of a scalar under `==`, as a hashable value, and an open-addressing
// table keyed by them.
//
// A constant list (`country in ['aa', 'ac', …]`) and a graph node whose edges each test one path
// against constants (`category == 'billing'`, `category == 'support'`) can then be decided with one
// hash lookup instead of one comparison per item or per edge. Two scalars are `==` exactly when
// their keys are equal: numbers by value (-0 is 0; NaN has no key, as it equals nothing), strings
// by their interned id (a state string the interner does not know cannot equal any constant, since
// every string literal is interned), and null, false and true by kind. Arrays and objects have no
// key: no container equals a scalar.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "condition/value.h"

namespace handoff::condition {

struct ScalarKey {
  std::uint32_t kind = 0;  // Kind::Null, False, True, Number or String
  std::uint64_t bits = 0;  // the double's bits for a number, the interned id for a string

  bool operator==(const ScalarKey& other) const { return kind == other.kind && bits == other.bits; }
};

// The key of `v` under `==`, or false when it has none (a container, NaN, or a string `strings`
// does not know). `strings` is the interner the tape's string ids refer to.
inline bool scalar_key(ValueRef v, const Interner& strings, ScalarKey& out) {
  switch (v.kind()) {
    case Kind::Null:
    case Kind::False:
    case Kind::True:
      out = {static_cast<std::uint32_t>(v.kind()), 0};
      return true;
    case Kind::Number: {
      double d = v.number();
      if (std::isnan(d)) return false;
      if (d == 0) d = 0;  // -0 == 0
      std::uint64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      out = {static_cast<std::uint32_t>(Kind::Number), bits};
      return true;
    }
    case Kind::String: {
      std::uint32_t id = v.string_id();
      if (id == kUninterned || id == kUnsent) return false;
      if (id == kNoId) id = strings.find(v.text());
      if (id == kNoId) return false;
      out = {static_cast<std::uint32_t>(Kind::String), id};
      return true;
    }
    case Kind::Array:
    case Kind::Object:
      return false;
  }
  return false;
}

// ScalarKey → uint32 value. Open addressing with linear probing, at most half full; values are
// never removed. Copyable and movable like the vector it is.
class KeyTable {
 public:
  static constexpr std::uint32_t kAbsent = 0xFFFFFFFFu;

  std::uint32_t size() const { return size_; }

  std::uint32_t find(const ScalarKey& key) const {
    if (size_ == 0) return kAbsent;
    std::uint32_t mask = static_cast<std::uint32_t>(entries_.size()) - 1;
    for (std::uint32_t i = hash(key) & mask;; i = (i + 1) & mask) {
      const Entry& e = entries_[i];
      if (e.kind == kEmpty) return kAbsent;
      if (e.kind == key.kind && e.bits == key.bits) return e.value;
    }
  }

  // The value stored under `key`, inserting `value` first if the key is new.
  std::uint32_t& find_or_insert(const ScalarKey& key, std::uint32_t value, bool& inserted) {
    if (2 * (static_cast<std::size_t>(size_) + 1) > entries_.size()) rehash(entries_.empty() ? 8 : entries_.size() * 2);
    std::uint32_t mask = static_cast<std::uint32_t>(entries_.size()) - 1;
    for (std::uint32_t i = hash(key) & mask;; i = (i + 1) & mask) {
      Entry& e = entries_[i];
      if (e.kind == kEmpty) {
        e = {key.bits, key.kind, value};
        ++size_;
        inserted = true;
        return e.value;
      }
      if (e.kind == key.kind && e.bits == key.bits) {
        inserted = false;
        return e.value;
      }
    }
  }

 private:
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
  struct Entry {
    std::uint64_t bits;
    std::uint32_t kind;
    std::uint32_t value;
  };

  static std::uint32_t hash(const ScalarKey& key) {
    std::uint64_t h = (key.bits ^ (static_cast<std::uint64_t>(key.kind) << 59)) * 0x9E3779B97F4A7C15ull;
    return static_cast<std::uint32_t>(h >> 32);
  }

  void rehash(std::size_t capacity) {
    std::vector<Entry> old = std::move(entries_);
    entries_.assign(capacity, Entry{0, kEmpty, 0});
    size_ = 0;
    for (const Entry& e : old) {
      if (e.kind == kEmpty) continue;
      bool inserted;
      find_or_insert({e.kind, e.bits}, e.value, inserted);
    }
  }

  std::vector<Entry> entries_;
  std::uint32_t size_ = 0;
};

}  // namespace handoff::condition
