// The packed Unicode tables (src/condition/unicode_tables.inc, written by
// scripts/gen_unicode_tables.py): every non-ASCII code point classified as Python's unicodedata
// (Unicode 14.0.0) classifies it. The generator checks its own packing; this checks the C++
// decoder over the whole code space by count and by sum of the code points in each class (a wrong
// boundary anywhere changes the sum), plus code points on either side of range ends.
#include <gtest/gtest.h>

#include <cstdint>

#include "condition/unicode.h"

namespace handoff::condition::unicode {
namespace {

struct Totals {
  std::uint64_t count = 0;
  std::uint64_t sum = 0;
};

template <class Test>
Totals totals(Test test) {
  Totals t;
  for (char32_t c = 0x80; c <= 0x10FFFF; ++c) {
    if (!test(c)) continue;
    ++t.count;
    t.sum += c;
  }
  return t;
}

TEST(UnicodeTables, NameStartMatchesUnicode14) {
  Totals t = totals(is_name_start);
  EXPECT_EQ(t.count, 131940u);
  EXPECT_EQ(t.sum, 13916832073u);
}

TEST(UnicodeTables, NameContinueMatchesUnicode14) {
  Totals t = totals(is_name_continue);
  EXPECT_EQ(t.count, 134994u);
  EXPECT_EQ(t.sum, 14257368775u);
}

TEST(UnicodeTables, WhiteSpace) {
  Totals t = totals(is_white_space);
  EXPECT_EQ(t.count, 19u);  // U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000
  for (char32_t c : {0x85, 0xA0, 0x1680, 0x2000, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000}) EXPECT_TRUE(is_white_space(c)) << static_cast<std::uint32_t>(c);
  for (char32_t c : {0x84, 0x86, 0x1FFF, 0x200B, 0x2030, 0x3001}) EXPECT_FALSE(is_white_space(c)) << static_cast<std::uint32_t>(c);
}

TEST(UnicodeTables, RangeEnds) {
  EXPECT_FALSE(is_name_start(0xA9));
  EXPECT_TRUE(is_name_start(0xAA));  // the first range
  EXPECT_TRUE(is_name_start(0xC0));
  EXPECT_TRUE(is_name_start(0xD6));
  EXPECT_FALSE(is_name_start(0xD7));  // ×
  EXPECT_TRUE(is_name_start(0x3134A));
  EXPECT_FALSE(is_name_start(0x3134B));
  EXPECT_FALSE(is_name_start(0x300));  // a combining mark continues a name, never starts one
  EXPECT_TRUE(is_name_continue(0x300));
  EXPECT_TRUE(is_name_continue(0xE01EF));  // the last range of all
  EXPECT_FALSE(is_name_continue(0xE01F0));
  EXPECT_FALSE(is_name_continue(0x10FFFF));
}

}  // namespace
}  // namespace handoff::condition::unicode
