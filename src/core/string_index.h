// StringIndex: finds which of the caller's keys (strings numbered 0, 1, 2…) equals a given text.
// One small open-addressing table for every string-keyed lookup of the core (the interner, a
// graph's node ids and slot paths, large JSON objects' members, object equality's key lookup), in
// place of std::unordered_map: its four instantiations and std::__next_prime were 4.4 KB of the
// routing module's code, and each insertion inlined at its caller much more (issue 21).
//
// The table holds only numbers and hashes; the keys stay where the caller keeps them, which it
// names at each call as a function and its context (`KeyOf`), as core/index_sort.h does for
// sorting. So the code is one non-template copy, the keys are not stored twice, and the owner may
// move (a vector of nodes growing) without the table pointing anywhere.
//
// Keys come from users (node ids, JSON members, state objects), so chosen keys must not make
// lookups collide: the hash is SipHash-1-3 (Aumasson & Bernstein; what Rust's HashMap uses
// against hash flooding) under a 128-bit key. Without a secret key, anyone can search offline for
// texts whose hashes share the bits that pick a bucket, and any function, however strong, then
// degrades to a linear search per lookup (n² for n keys). The key is fixed until the host calls
// seed_string_hashes() with random bits, which the WebAssembly modules' loaders do at
// instantiation (crypto.getRandomValues); the native build keeps the fixed key, so tests and
// fuzzers replay exactly.
#pragma once

#include <cstdint>
#include <string_view>
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

}  // namespace handoff
