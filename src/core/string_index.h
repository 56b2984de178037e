// StringIndex: finds which of the caller's keys (strings numbered 0, 1, 2…) equals a given text.
// One small open-addressing table for every string-keyed lookup of the core (the interner, a
// graph's node ids and slot paths, large JSON objects' members, object equality's key lookup), in
// place of std::unordered_map: its four instantiations and std::__next_prime were 4.4 KB of the
// routing module's code, and each insertion inlined at its caller much more (issue 21).
//
// The table holds only numbers and hashes; the keys stay where the caller keeps them, which it
// names at each call as a function and its context (`KeyOf`). So the code is one non-template
// copy, the keys are not stored twice, and the owner may move (a vector of nodes growing) without
// the table pointing anywhere.
//
// Keys come from users (node ids, JSON members, state objects), so chosen keys must not make
// lookups collide: the hash is SipHash-1-3 (Aumasson & Bernstein; what Rust's HashMap uses
// against hash flooding) under a 128-bit key. Without a secret key, anyone can search offline for
// texts whose hashes share the bits that pick a bucket, and any function, however strong, then
// degrades to a linear search per lookup (n² for n keys). The key is fixed until the host calls
// seed_string_hashes() with random bits, which js/runtime.js does before the first table of
// either WebAssembly module exists (crypto.getRandomValues); the native build keeps the fixed
// key, so tests and fuzzers replay exactly.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace handoff {

// Sets the key of every StringIndex's hash, once, and only before the first hash is computed (a
// table filled under one key cannot be searched under another): later calls are ignored, and it
// returns whether this one took effect.
bool seed_string_hashes(std::uint64_t k0, std::uint64_t k1);

// SipHash-1-3 of `text` under the key (k0, k1), as its reference implementation computes it.
std::uint64_t siphash13(std::string_view text, std::uint64_t k0, std::uint64_t k1);

// siphash13 of `text` under the current key, folded to 32 bits: what StringIndex hashes with.
std::uint32_t string_hash(std::string_view text);

class StringIndex {
 public:
  static constexpr std::uint32_t kAbsent = 0xFFFFFFFFu;
  // The text of the caller's key number `index`; `keys` is whatever the caller passed along.
  using KeyOf = std::string_view (*)(const void* keys, std::uint32_t index);

  // The number of the key equal to `text`, or kAbsent.
  std::uint32_t find(std::string_view text, const void* keys, KeyOf key_of) const;
  // Adds key number `index`, whose text is `text`, unless a key equal to it is there already:
  // returns that key's number, or `index` when it was added.
  std::uint32_t insert(std::string_view text, std::uint32_t index, const void* keys, KeyOf key_of);

  std::uint32_t size() const { return size_; }
  void clear() {
    entries_.clear();
    size_ = 0;
  }

 private:
  struct Entry {
    std::uint32_t hash;
    std::uint32_t index;  // kAbsent: empty
  };

  // Where `text` (of hash `hash`) is, or the empty entry where it would go.
  std::uint32_t probe(std::string_view text, std::uint32_t hash, const void* keys, KeyOf key_of) const;
  void grow();

  std::vector<Entry> entries_;  // a power of two in size, at most half full
  std::uint32_t size_ = 0;
};

// Distinct strings numbered 0, 1, 2… in the order they were added, found by text through a
// StringIndex that owns its keys: the core's set of strings (in place of std::set and
// std::unordered_set, whose instantiations were each a kilobyte or more of the full module's
// code, issue 21), and the keys of StringMap. The member names follow std::set's where they do the same.
class StringKeys {
 public:
  // The number of `text`, or StringIndex::kAbsent.
  std::uint32_t find(std::string_view text) const { return index_.find(text, &keys_, key_of); }
  std::size_t count(std::string_view text) const { return find(text) == StringIndex::kAbsent ? 0 : 1; }
  // Adds `text` unless it is there: its number, and whether it was added.
  std::pair<std::uint32_t, bool> insert(std::string_view text);

  std::uint32_t size() const { return static_cast<std::uint32_t>(keys_.size()); }
  const std::string& operator[](std::uint32_t number) const { return keys_[number]; }
  const std::vector<std::string>& keys() const { return keys_; }

 private:
  static std::string_view key_of(const void* keys, std::uint32_t index);

  std::vector<std::string> keys_;
  StringIndex index_;
};

// A map from strings to `Value`s, standing in for std::map<std::string, Value> with its member
// names: lookups through StringKeys, and iteration in the keys' byte order, as std::map's. The
// order is worked out when iteration begins after an insertion (an insertion keeps O(1); sorting
// once keeps n insertions O(n log n) whatever their order), so a const map iterated is not safe
// to share between threads.
template <class Value>
class StringMap {
 public:
  // What iteration yields: std::map's (key, value) pair, by reference.
  using Entry = std::pair<const std::string&, const Value&>;

  Value* find(std::string_view key) {
    const std::uint32_t n = keys_.find(key);
    return n == StringIndex::kAbsent ? nullptr : &values_[n];
  }
  const Value* find(std::string_view key) const {
    const std::uint32_t n = keys_.find(key);
    return n == StringIndex::kAbsent ? nullptr : &values_[n];
  }
  std::size_t count(std::string_view key) const { return keys_.count(key); }
  // The value of `key`, a Value{} added first when there is none (std::map's operator[]).
  Value& operator[](std::string_view key) {
    auto [n, added] = keys_.insert(key);
    if (added) values_.emplace_back();
    return values_[n];
  }
  // Adds `key` with `value` unless `key` is there: its value, and whether it was added.
  std::pair<Value*, bool> try_emplace(std::string_view key, Value value) {
    auto [n, added] = keys_.insert(key);
    if (added) values_.push_back(std::move(value));
    return {&values_[n], added};
  }
  std::pair<Value*, bool> emplace(std::string_view key, Value value) { return try_emplace(key, std::move(value)); }
  std::size_t size() const { return keys_.size(); }
  bool empty() const { return keys_.size() == 0; }

  class Iterator {
   public:
    Iterator(const StringMap* map, const std::uint32_t* at) : map_(map), at_(at) {}
    Entry operator*() const { return {map_->keys_[*at_], map_->values_[*at_]}; }
    Iterator& operator++() {
      ++at_;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return at_ != other.at_; }

   private:
    const StringMap* map_;
    const std::uint32_t* at_;
  };
  Iterator begin() const { return {this, ordered().data()}; }
  Iterator end() const { return {this, ordered().data() + order_.size()}; }

 private:
  const std::vector<std::uint32_t>& ordered() const {
    if (order_.size() != keys_.size()) order_by_key();  // keys are only ever added
    return order_;
  }
  void order_by_key() const;

  StringKeys keys_;
  std::vector<Value> values_;  // values_[n] is the value of key number n
  mutable std::vector<std::uint32_t> order_;  // the key numbers in key order, once iterated
};

// The numbers of keys[0, count) in the keys' byte order (std::string's operator<, as std::map orders;
// the keys are distinct, so there are no ties to order).
void order_keys(std::vector<std::uint32_t>& order, const std::vector<std::string>& keys);

template <class Value>
void StringMap<Value>::order_by_key() const {
  order_keys(order_, keys_.keys());
}

}  // namespace handoff
