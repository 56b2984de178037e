// StringIndex (src/core/string_index.h): lookups by text over keys the caller keeps, its hash
// (SipHash-1-3, checked against CPython's, which is the reference implementation's), and keys an
// attacker chose to collide; StringKeys and StringMap, which stand in for std::set and std::map,
// against those.
#include "core/string_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace handoff {
namespace {

std::string_view key_of(const void* keys, std::uint32_t i) {
  return (*static_cast<const std::vector<std::string>*>(keys))[i];
}

// Adds keys[i] for every i; returns what insert answered for each.
std::vector<std::uint32_t> insert_all(StringIndex& index, const std::vector<std::string>& keys) {
  std::vector<std::uint32_t> answers;
  for (std::uint32_t i = 0; i < keys.size(); ++i) answers.push_back(index.insert(keys[i], i, &keys, key_of));
  return answers;
}

TEST(StringIndex, EmptyFindsNothing) {
  StringIndex index;
  std::vector<std::string> keys;
  EXPECT_EQ(index.find("", &keys, key_of), StringIndex::kAbsent);
  EXPECT_EQ(index.find("a", &keys, key_of), StringIndex::kAbsent);
  EXPECT_EQ(index.size(), 0u);
}

TEST(StringIndex, FindsEveryKeyAcrossGrowth) {
  std::vector<std::string> keys;
  for (int i = 0; i < 5000; ++i) keys.push_back("key-" + std::to_string(i));
  keys.emplace_back("");                    // the empty text is a key like any other
  keys.emplace_back(std::string("a\0b", 3));  // as are texts with NUL bytes
  StringIndex index;
  std::vector<std::uint32_t> answers = insert_all(index, keys);
  for (std::uint32_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(answers[i], i);
    EXPECT_EQ(index.find(keys[i], &keys, key_of), i) << keys[i];
  }
  EXPECT_EQ(index.size(), keys.size());
  EXPECT_EQ(index.find("key-5000", &keys, key_of), StringIndex::kAbsent);
  EXPECT_EQ(index.find(std::string("a\0c", 3), &keys, key_of), StringIndex::kAbsent);
  EXPECT_EQ(index.find("a", &keys, key_of), StringIndex::kAbsent);
}

TEST(StringIndex, ARepeatedKeyAnswersTheFirstNumber) {
  std::vector<std::string> keys = {"billing", "support", "billing", "support", "human"};
  StringIndex index;
  std::vector<std::uint32_t> answers = insert_all(index, keys);
  EXPECT_EQ(answers, (std::vector<std::uint32_t>{0, 1, 0, 1, 4}));
  EXPECT_EQ(index.size(), 3u);
  EXPECT_EQ(index.find("billing", &keys, key_of), 0u);
}

TEST(StringIndex, ClearForgetsEverything) {
  std::vector<std::string> keys = {"a", "b"};
  StringIndex index;
  insert_all(index, keys);
  index.clear();
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.find("a", &keys, key_of), StringIndex::kAbsent);
  EXPECT_EQ(index.insert("b", 1, &keys, key_of), 1u);
}

// The keys stay the caller's: an index survives its owner moving them (a vector reallocating).
TEST(StringIndex, KeysMayMove) {
  std::vector<std::string> keys;
  StringIndex index;
  for (std::uint32_t i = 0; i < 100; ++i) {
    keys.push_back(std::to_string(i));  // short: each reallocation moves the characters too
    index.insert(keys.back(), i, &keys, key_of);
  }
  for (std::uint32_t i = 0; i < 100; ++i) EXPECT_EQ(index.find(std::to_string(i), &keys, key_of), i);
}

// CPython 3.11 hashes bytes with SipHash-1-3; under PYTHONHASHSEED=0 its key is all zeros:
//   PYTHONHASHSEED=0 python3 -c "print(hash(b'abc'), hash(b'hello world, longer than eight'))"
TEST(StringIndex, HashIsSipHash13) {
  EXPECT_EQ(static_cast<std::int64_t>(siphash13("abc", 0, 0)), -4594863902769663758);
  EXPECT_EQ(static_cast<std::int64_t>(siphash13("hello world, longer than eight", 0, 0)), 8680484323704067959);
  EXPECT_NE(siphash13("abc", 1, 0), siphash13("abc", 0, 0));
  EXPECT_NE(siphash13("abc", 0, 1), siphash13("abc", 0, 0));
}

TEST(StringIndex, TheKeyIsSetOnceBeforeAnyHashOnly) {
  string_hash("anything");
  EXPECT_FALSE(seed_string_hashes(1, 2));  // a table may hold hashes under the key in use
}

// An attacker who knows the hash key can choose keys whose hashes share the bits that pick a
// bucket (here 1,024 of them, by trying texts until one does). Under that key the index stays
// correct; under any other key (the random one the modules get) the same texts spread out.
TEST(StringIndex, ChosenCollisionsSpreadUnderAnotherKey) {
  constexpr std::uint64_t kKnown0 = 0x0123456789abcdefull;
  constexpr std::uint64_t kKnown1 = 0xfedcba9876543210ull;
  constexpr std::uint32_t kBuckets = 1024;
  std::vector<std::string> chosen;
  for (std::uint64_t n = 0; chosen.size() < 64; ++n) {
    std::string text = "user-" + std::to_string(n);
    if ((siphash13(text, kKnown0, kKnown1) & (kBuckets - 1)) == 0) chosen.push_back(text);
  }
  std::vector<std::uint32_t> load(kBuckets, 0);
  for (const std::string& text : chosen) ++load[siphash13(text, 0x1111, 0x2222) & (kBuckets - 1)];
  EXPECT_LE(*std::max_element(load.begin(), load.end()), 4u);

  StringIndex index;
  insert_all(index, chosen);
  for (std::uint32_t i = 0; i < chosen.size(); ++i) EXPECT_EQ(index.find(chosen[i], &chosen, key_of), i);
  EXPECT_EQ(index.find("user-x", &chosen, key_of), StringIndex::kAbsent);
}

TEST(StringKeys, NumbersKeysInOrderOfFirstInsertion) {
  StringKeys keys;
  EXPECT_EQ(keys.insert("b"), std::make_pair(0u, true));
  EXPECT_EQ(keys.insert("a"), std::make_pair(1u, true));
  EXPECT_EQ(keys.insert("b"), std::make_pair(0u, false));
  EXPECT_EQ(keys.insert(""), std::make_pair(2u, true));
  EXPECT_EQ(keys.size(), 3u);
  EXPECT_EQ(keys.keys(), (std::vector<std::string>{"b", "a", ""}));
  EXPECT_EQ(keys.find("a"), 1u);
  EXPECT_EQ(keys.count("c"), 0u);
  EXPECT_EQ(keys.count(""), 1u);
}

// The same operations on StringMap and std::map, in a random order over keys that share
// prefixes, hold bytes above 0x7F and NUL: the same values, and iteration in the same order.
TEST(StringMap, BehavesAsStdMap) {
  std::mt19937 random(21);
  std::vector<std::string> texts = {"", "a", "ab", "b", "\xC3\xA9", "\xFF", std::string("a\0", 2), "A", "z", "aa"};
  for (int i = 0; i < 300; ++i) texts.push_back("k" + std::to_string(random() % 1000));
  StringMap<std::uint32_t> map;
  std::map<std::string, std::uint32_t> expected;
  for (int round = 0; round < 2000; ++round) {
    const std::string& key = texts[random() % texts.size()];
    switch (random() % 4) {
      case 0: ++map[key], ++expected[key]; break;
      case 1: {
        auto [value, added] = map.try_emplace(key, round);
        auto [it, inserted] = expected.try_emplace(key, round);
        EXPECT_EQ(added, inserted);
        EXPECT_EQ(*value, it->second);
        break;
      }
      case 2: {
        const std::uint32_t* value = map.find(key);
        auto it = expected.find(key);
        ASSERT_EQ(value == nullptr, it == expected.end());
        if (value != nullptr) {
          EXPECT_EQ(*value, it->second);
        }
        break;
      }
      default: {  // iterating in between insertions: the order follows each new key
        std::vector<std::pair<std::string, std::uint32_t>> got;
        for (const auto& [k, v] : map) got.emplace_back(k, v);
        const std::vector<std::pair<std::string, std::uint32_t>> want(expected.begin(), expected.end());
        EXPECT_EQ(got, want);
      }
    }
    EXPECT_EQ(map.size(), expected.size());
  }
  const StringMap<std::uint32_t> copy = map;
  std::vector<std::string> order;
  for (const auto& entry : copy) order.push_back(entry.first);
  std::vector<std::string> expected_order;
  for (const auto& entry : expected) expected_order.push_back(entry.first);
  EXPECT_EQ(order, expected_order);
}

TEST(StringMap, ManyKeysInDescendingOrder) {
  StringMap<std::uint32_t> map;
  constexpr std::uint32_t kCount = 100000;
  for (std::uint32_t i = kCount; i-- > 0;) map["key-" + std::to_string(1000000 + i)] = i;
  std::uint32_t next = 0;
  for (const auto& [key, value] : map) EXPECT_EQ(value, next++) << key;
  EXPECT_EQ(next, kCount);
}

}  // namespace
}  // namespace handoff
