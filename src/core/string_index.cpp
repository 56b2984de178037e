// StringIndex (string_index.h): linear probing over (hash, number) entries, and its hash.
#include "core/string_index.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace handoff {
namespace {

// The hash key: fixed (any constant would do) until seed_string_hashes() replaces it.
struct HashKey {
  std::uint64_t k0 = 0x736f6d6570736575ull;
  std::uint64_t k1 = 0x646f72616e646f6dull;
  bool used = false;
};
HashKey hash_key;

std::uint64_t rotl(std::uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

struct SipState {
  std::uint64_t v0, v1, v2, v3;

  void round() {
    v0 += v1;
    v1 = rotl(v1, 13);
    v1 ^= v0;
    v0 = rotl(v0, 32);
    v2 += v3;
    v3 = rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = rotl(v1, 17);
    v1 ^= v2;
    v2 = rotl(v2, 32);
  }
  // One compression round per word (the "1" of SipHash-1-3).
  void absorb(std::uint64_t m) {
    v3 ^= m;
    round();
    v0 ^= m;
  }
};

}  // namespace

bool seed_string_hashes(std::uint64_t k0, std::uint64_t k1) {
  if (hash_key.used) return false;
  hash_key.k0 = k0;
  hash_key.k1 = k1;
  hash_key.used = true;  // keyed once: a second caller cannot replace a key tables may depend on
  return true;
}

std::uint64_t siphash13(std::string_view text, std::uint64_t k0, std::uint64_t k1) {
  SipState s{k0 ^ 0x736f6d6570736575ull, k1 ^ 0x646f72616e646f6dull, k0 ^ 0x6c7967656e657261ull,
             k1 ^ 0x7465646279746573ull};
  const char* p = text.data();
  std::size_t left = text.size();
  for (; left >= 8; left -= 8, p += 8) {
    std::uint64_t m;
    std::memcpy(&m, p, 8);  // little-endian, as SipHash reads its words (wasm and x86 alike)
    s.absorb(m);
  }
  std::uint64_t last = static_cast<std::uint64_t>(text.size()) << 56;
  for (std::size_t i = 0; i < left; ++i) last |= static_cast<std::uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  s.absorb(last);
  s.v2 ^= 0xFF;
  s.round();
  s.round();
  s.round();
  return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

std::uint32_t string_hash(std::string_view text) {
  hash_key.used = true;
  const std::uint64_t h = siphash13(text, hash_key.k0, hash_key.k1);
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

std::uint32_t StringIndex::probe(std::string_view text, std::uint32_t hash, const void* keys, KeyOf key_of) const {
  const auto mask = static_cast<std::uint32_t>(entries_.size()) - 1;
  for (std::uint32_t i = hash & mask;; i = (i + 1) & mask) {
    const Entry& e = entries_[i];
    if (e.index == kAbsent || (e.hash == hash && key_of(keys, e.index) == text)) return i;
  }
}

std::uint32_t StringIndex::find(std::string_view text, const void* keys, KeyOf key_of) const {
  if (size_ == 0) return kAbsent;
  return entries_[probe(text, string_hash(text), keys, key_of)].index;
}

std::uint32_t StringIndex::insert(std::string_view text, std::uint32_t index, const void* keys, KeyOf key_of) {
  if (2 * (static_cast<std::size_t>(size_) + 1) > entries_.size()) grow();
  const std::uint32_t hash = string_hash(text);
  Entry& e = entries_[probe(text, hash, keys, key_of)];
  if (e.index != kAbsent) return e.index;
  e = {hash, index};
  ++size_;
  return index;
}

// Doubles the table, placing the entries again by their stored hashes (no key is read).
void StringIndex::grow() {
  std::vector<Entry> old = std::move(entries_);
  entries_.assign(old.empty() ? 8 : old.size() * 2, Entry{0, kAbsent});
  const auto mask = static_cast<std::uint32_t>(entries_.size()) - 1;
  for (const Entry& e : old) {
    if (e.index == kAbsent) continue;
    std::uint32_t i = e.hash & mask;
    while (entries_[i].index != kAbsent) i = (i + 1) & mask;
    entries_[i] = e;
  }
}

std::string_view StringKeys::key_of(const void* keys, std::uint32_t index) {
  return (*static_cast<const std::vector<std::string>*>(keys))[index];
}

std::pair<std::uint32_t, bool> StringKeys::insert(std::string_view text) {
  const auto next = static_cast<std::uint32_t>(keys_.size());
  // The table's entry for a new key refers to keys_[next], read only when a later key's hash
  // matches: it is there by then.
  const std::uint32_t n = index_.insert(text, next, &keys_, key_of);
  if (n != next) return {n, false};
  keys_.emplace_back(text);
  return {n, true};
}

void order_keys(std::vector<std::uint32_t>& order, const std::vector<std::string>& keys) {
  order.resize(keys.size());
  std::iota(order.begin(), order.end(), 0U);
  std::sort(order.begin(), order.end(), [&keys](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
}

}  // namespace handoff
