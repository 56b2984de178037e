// The scanner: turns condition source (UTF-8) into tokens, one at a time, on demand.
//
// A plain loop over characters (clox's scanner.c is the model). It knows the lexical rules of
// conditions.md §1 and nothing about grammar; errors carry the byte offset of the offending
// character, which the parser turns into the UTF-16 index users see.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/expected.h"

namespace handoff::condition {

enum class TokenKind : std::uint8_t {
  End, Name, String, Number, True, False, Null, And, Or, Not, In,
  LParen, RParen, LBracket, RBracket, Dot, Comma,
  Eq, Ne, Lt, Le, Gt, Ge,
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::uint32_t start = 0;  // byte offsets into the source
  std::uint32_t end = 0;
  double number = 0;        // Number
  // Name: the name; String: the decoded value (UTF-8). A view into the source, or, for a string
  // with escapes, into the scanner's buffer: valid until the scanner's next string token.
  std::string_view text;
};

struct ScanError {
  std::uint32_t offset;  // bytes
  std::string problem;
};

class Scanner {
 public:
  explicit Scanner(std::string_view source) : source_(source) {}

  Expected<Token, ScanError> next();

 private:
  Expected<Token, ScanError> scan_number(std::uint32_t start);
  Expected<Token, ScanError> scan_string(std::uint32_t start);
  Token scan_name(std::uint32_t start);
  // The code unit of the four hex digits at pos_, or -1 if they are not four hex digits.
  std::int32_t scan_unicode_escape();

  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < source_.size() ? source_[pos_ + ahead] : '\0';
  }
  bool at_end() const { return pos_ >= source_.size(); }
  Token make(TokenKind kind, std::uint32_t start) const;

  std::string_view source_;
  std::size_t pos_ = 0;
  std::string decoded_;  // the value of the last string token that had escapes
};

}  // namespace handoff::condition
