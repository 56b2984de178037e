// UTF-8 decoding and the character classes of the condition language (conditions.md §1).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace handoff::condition::unicode {

// Sorted, disjoint ranges of code points, packed by scripts/gen_unicode_tables.py: per range, two
// LEB128 numbers (the gap from the end of the previous range, the length less one), with a
// checkpoint every kStride ranges that restarts the gaps from its first code point.
inline constexpr std::size_t kStride = 16;

struct Checkpoint {
  char32_t first;         // the first code point of range kStride × i
  std::uint16_t offset;   // where that range starts in the data
};

struct PackedRanges {
  const unsigned char* data;
  const Checkpoint* checkpoints;
  std::size_t checkpoint_count;
  std::size_t count;  // ranges
};

#include "condition/unicode_tables.inc"

inline char32_t read_leb128(const unsigned char*& p) {
  char32_t value = 0;
  for (int shift = 0;; shift += 7) {
    unsigned char byte = *p++;
    value |= static_cast<char32_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return value;
  }
}

// Binary search over the checkpoints, then at most kStride ranges decoded.
inline bool in_ranges(const PackedRanges& ranges, char32_t c) {
  const Checkpoint* begin = ranges.checkpoints;
  const Checkpoint* it = std::upper_bound(begin, begin + ranges.checkpoint_count, c,
                                          [](char32_t v, const Checkpoint& k) { return v < k.first; });
  if (it == begin) return false;
  --it;
  std::size_t index = static_cast<std::size_t>(it - begin) * kStride;
  const std::size_t end = std::min(index + kStride, ranges.count);
  const unsigned char* p = ranges.data + it->offset;
  char32_t next = it->first;  // one past the previous range
  for (; index < end; ++index) {
    char32_t first = next + read_leb128(p);
    if (c < first) return false;
    char32_t last = first + read_leb128(p);
    if (c <= last) return true;
    next = last + 1;
  }
  return false;
}

inline bool is_ascii_letter(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool is_digit(char32_t c) { return c >= '0' && c <= '9'; }

inline bool is_white_space(char32_t c) {
  if (c < 0x80) return c == ' ' || (c >= 0x09 && c <= 0x0D);
  return in_ranges(kWhiteSpaceRanges, c);
}
inline bool is_name_start(char32_t c) {
  if (c < 0x80) return is_ascii_letter(c) || c == '_' || c == '$';
  return in_ranges(kNameStartRanges, c);
}
inline bool is_name_continue(char32_t c) {
  if (c < 0x80) return is_ascii_letter(c) || is_digit(c) || c == '_' || c == '$';
  return in_ranges(kNameContinueRanges, c);
}

inline constexpr char32_t kInvalid = 0xFFFFFFFF;

// Decodes one code point at `s[i]`, advancing `i`. Returns kInvalid (and advances one byte) for
// malformed, overlong or surrogate encodings.
inline char32_t decode_utf8(std::string_view s, std::size_t& i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b0 = byte(i);
  if (b0 < 0x80) {
    ++i;
    return b0;
  }
  int length = (b0 & 0xE0) == 0xC0 ? 2 : (b0 & 0xF0) == 0xE0 ? 3 : (b0 & 0xF8) == 0xF0 ? 4 : 0;
  if (length == 0 || i + length > s.size()) {
    ++i;
    return kInvalid;
  }
  char32_t c = b0 & (0x7F >> length);
  for (int k = 1; k < length; ++k) {
    unsigned char b = byte(i + k);
    if ((b & 0xC0) != 0x80) {
      ++i;
      return kInvalid;
    }
    c = (c << 6) | (b & 0x3F);
  }
  static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < kMin[length] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
    ++i;
    return kInvalid;
  }
  i += length;
  return c;
}

inline void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// The UTF-16 offset of byte offset `byte` in valid UTF-8 `s`: JS reports positions in code units.
inline std::size_t utf16_offset(std::string_view s, std::size_t byte) {
  std::size_t units = 0;
  for (std::size_t i = 0; i < byte && i < s.size(); ++i) {
    auto b = static_cast<unsigned char>(s[i]);
    if ((b & 0xC0) != 0x80) units += (b >= 0xF0) ? 2 : 1;
  }
  return units;
}

// Whether `text` is a name by the rules of §1 (used to print paths canonically).
inline bool is_name(std::string_view text) {
  if (text.empty()) return false;
  std::size_t i = 0;
  char32_t first = decode_utf8(text, i);
  if (first == kInvalid || !is_name_start(first)) return false;
  while (i < text.size()) {
    char32_t c = decode_utf8(text, i);
    if (c == kInvalid || !is_name_continue(c)) return false;
  }
  return true;
}

}  // namespace handoff::condition::unicode
