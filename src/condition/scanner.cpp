#include "condition/scanner.h"

#include <cmath>
#include <cstdlib>

#include "condition/unicode.h"

namespace handoff::condition {
namespace {

constexpr struct {
  std::string_view word;
  TokenKind kind;
} kKeywords[] = {
    {"and", TokenKind::And},   {"or", TokenKind::Or},       {"not", TokenKind::Not},
    {"in", TokenKind::In},     {"true", TokenKind::True},   {"false", TokenKind::False},
    {"null", TokenKind::Null}, {"True", TokenKind::True},   {"False", TokenKind::False},
    {"None", TokenKind::Null}, {"none", TokenKind::Null},
};

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

ScanError error_at(std::size_t offset, std::string problem) {
  return {static_cast<std::uint32_t>(offset), std::move(problem)};
}

// A scan error as the token's result: one out-of-line copy of building the message's string and
// the result (inlined at each of a dozen places, that was a large part of the scanner's code).
[[gnu::noinline]] Expected<Token, ScanError> token_error(std::size_t offset, const char* problem) {
  return unexpected(error_at(offset, problem));
}

// How a character that starts no token is shown in "unexpected character 'X'".
std::string describe(std::string_view source, std::size_t at) {
  std::size_t i = at;
  char32_t c = unicode::decode_utf8(source, i);
  if (c == unicode::kInvalid) return "invalid UTF-8";
  if (c < 0x20 || c == 0x7F) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out = "unexpected character U+00";
    out += kHex[c >> 4];
    out += kHex[c & 0xF];
    return out;
  }
  return "unexpected character '" + std::string(source.substr(at, i - at)) + "'";
}

}  // namespace

Token Scanner::make(TokenKind kind, std::uint32_t start) const {
  Token t;
  t.kind = kind;
  t.start = start;
  t.end = static_cast<std::uint32_t>(pos_);
  return t;
}

Expected<Token, ScanError> Scanner::next() {
  // Skip white space: ASCII inline, the rest through the Unicode table.
  while (!at_end()) {
    auto b = static_cast<unsigned char>(peek());
    if (b < 0x80) {
      if (!unicode::is_white_space(b)) break;
      ++pos_;
      continue;
    }
    std::size_t i = pos_;
    char32_t c = unicode::decode_utf8(source_, i);
    if (c == unicode::kInvalid || !unicode::is_white_space(c)) break;
    pos_ = i;
  }
  auto start = static_cast<std::uint32_t>(pos_);
  if (at_end()) return make(TokenKind::End, start);

  char c = peek();
  if (unicode::is_digit(c) || (c == '-' && unicode::is_digit(peek(1)))) return scan_number(start);
  if (c == '\'' || c == '"') return scan_string(start);

  ++pos_;
  switch (c) {
    case '(': return make(TokenKind::LParen, start);
    case ')': return make(TokenKind::RParen, start);
    case '[': return make(TokenKind::LBracket, start);
    case ']': return make(TokenKind::RBracket, start);
    case '.': return make(TokenKind::Dot, start);
    case ',': return make(TokenKind::Comma, start);
    case '=':
      if (peek() != '=') return token_error(start, "expected '==' (single '=' is not valid)");
      ++pos_;
      return make(TokenKind::Eq, start);
    case '!':
      if (peek() != '=') return token_error(start, "unexpected '!' (use 'not')");
      ++pos_;
      return make(TokenKind::Ne, start);
    case '<':
      if (peek() == '=') { ++pos_; return make(TokenKind::Le, start); }
      return make(TokenKind::Lt, start);
    case '>':
      if (peek() == '=') { ++pos_; return make(TokenKind::Ge, start); }
      return make(TokenKind::Gt, start);
    default: break;
  }
  pos_ = start;

  std::size_t i = pos_;
  char32_t cp = unicode::decode_utf8(source_, i);
  if (cp != unicode::kInvalid && unicode::is_name_start(cp)) return scan_name(start);
  return unexpected(error_at(start, describe(source_, start)));
}

Token Scanner::scan_name(std::uint32_t start) {
  while (!at_end()) {
    auto b = static_cast<unsigned char>(source_[pos_]);
    if (b < 0x80) {  // ASCII: no table lookup
      if (!unicode::is_ascii_letter(b) && !unicode::is_digit(b) && b != '_' && b != '$') break;
      ++pos_;
      continue;
    }
    std::size_t i = pos_;
    char32_t c = unicode::decode_utf8(source_, i);
    if (c == unicode::kInvalid || !unicode::is_name_continue(c)) break;
    pos_ = i;
  }
  std::string_view word = source_.substr(start, pos_ - start);
  if (word.size() <= 5) {  // the longest keyword; the first letter rules out most of them at once
    for (const auto& keyword : kKeywords) {
      if (keyword.word[0] == word[0] && keyword.word == word) return make(keyword.kind, start);
    }
  }
  Token t = make(TokenKind::Name, start);
  t.text = word;
  return t;
}

Expected<Token, ScanError> Scanner::scan_number(std::uint32_t start) {
  auto invalid = [&] { return token_error(start, "invalid number"); };
  auto digits = [&] {
    std::size_t from = pos_;
    while (unicode::is_digit(peek())) ++pos_;
    return pos_ > from;
  };
  if (peek() == '-') ++pos_;
  digits();
  if (peek() == '.') {
    ++pos_;
    if (!digits()) return invalid();
  }
  if (peek() == 'e' || peek() == 'E') {
    ++pos_;
    if (peek() == '+' || peek() == '-') ++pos_;
    if (!digits()) return invalid();
  }
  // `1and`, `12abc`, `1.2.3`: a number must not run straight into a name or another dot.
  if (!at_end()) {
    std::size_t i = pos_;
    char32_t next = unicode::decode_utf8(source_, i);
    if (next == '.' || (next != unicode::kInvalid && unicode::is_name_continue(next))) return invalid();
  }
  // strtod wants a terminated string: a stack copy for the usual short literal.
  std::string_view text = source_.substr(start, pos_ - start);
  double value;
  const bool negative = text[0] == '-';
  const std::size_t digit_count = text.size() - (negative ? 1 : 0);
  if (digit_count <= 15 && text.find_first_of(".eE") == std::string_view::npos) {
    // An integer of at most 15 digits is below 2^53, so exact in a double: the value strtod
    // gives, without its arbitrary-precision path (slow in WebAssembly: software long doubles).
    std::int64_t integer = 0;
    for (char digit : text.substr(negative ? 1 : 0)) integer = integer * 10 + (digit - '0');
    value = static_cast<double>(integer);
    if (negative) value = -value;
  } else if (text.size() < 64) {
    char buffer[64];
    text.copy(buffer, text.size());
    buffer[text.size()] = '\0';
    value = std::strtod(buffer, nullptr);
  } else {
    value = std::strtod(std::string(text).c_str(), nullptr);
  }
  if (std::isinf(value)) return token_error(start, "number out of range");
  Token t = make(TokenKind::Number, start);
  t.number = value;
  return t;
}

std::int32_t Scanner::scan_unicode_escape() {
  // pos_ is just past the 'u'.
  std::int32_t unit = 0;
  for (int k = 0; k < 4; ++k) {
    int h = hex_value(peek());
    if (h < 0) return -1;
    unit = unit * 16 + h;
    ++pos_;
  }
  return unit;
}

Expected<Token, ScanError> Scanner::scan_string(std::uint32_t start) {
  const char quote = peek();
  ++pos_;
  // Most strings have no escapes: their value is the source between the quotes, seen in place.
  // The first backslash switches to decoding into decoded_.
  const std::size_t first = pos_;
  while (pos_ < source_.size() && source_[pos_] != quote && source_[pos_] != '\\') {
    if (static_cast<unsigned char>(source_[pos_]) < 0x80) {
      ++pos_;
      continue;
    }
    std::size_t i = pos_;
    if (unicode::decode_utf8(source_, i) == unicode::kInvalid) return token_error(pos_, "invalid UTF-8");
    pos_ = i;
  }
  if (pos_ < source_.size() && source_[pos_] == quote) {
    const std::size_t close = pos_++;
    Token t = make(TokenKind::String, start);
    t.text = source_.substr(first, close - first);
    return t;
  }
  std::string& value = decoded_;
  value.assign(source_.substr(first, pos_ - first));
  while (true) {
    if (at_end()) return token_error(start, "unterminated string");
    char c = peek();
    if (c == quote) {
      ++pos_;
      break;
    }
    if (c != '\\') {
      // A run of plain ASCII goes in at once.
      std::size_t run = pos_;
      while (run < source_.size() && static_cast<unsigned char>(source_[run]) < 0x80 && source_[run] != quote &&
             source_[run] != '\\') {
        ++run;
      }
      if (run > pos_) {
        value.append(source_.substr(pos_, run - pos_));
        pos_ = run;
        continue;
      }
      std::size_t i = pos_;
      if (unicode::decode_utf8(source_, i) == unicode::kInvalid) {
        return token_error(pos_, "invalid UTF-8");
      }
      value.append(source_.substr(pos_, i - pos_));
      pos_ = i;
      continue;
    }
    auto backslash = static_cast<std::uint32_t>(pos_);
    ++pos_;
    char e = peek();
    ++pos_;
    switch (e) {
      case 'n': value += '\n'; break;
      case 't': value += '\t'; break;
      case 'r': value += '\r'; break;
      case '0': value += '\0'; break;
      case '\\': value += '\\'; break;
      case '\'': value += '\''; break;
      case '"': value += '"'; break;
      case 'u': {
        std::int32_t unit = scan_unicode_escape();
        if (unit < 0) return token_error(backslash, "invalid \\u escape");
        auto cp = static_cast<char32_t>(unit);
        if (cp >= 0xDC00 && cp <= 0xDFFF) return token_error(backslash, "lone surrogate");
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          // A high surrogate must be followed at once by a low one; the pair is one code point.
          if (peek() != '\\' || peek(1) != 'u') return token_error(backslash, "lone surrogate");
          auto second_backslash = static_cast<std::uint32_t>(pos_);
          pos_ += 2;
          std::int32_t low = scan_unicode_escape();
          if (low < 0) return token_error(second_backslash, "invalid \\u escape");
          if (low < 0xDC00 || low > 0xDFFF) return token_error(backslash, "lone surrogate");
          cp = 0x10000 + ((cp - 0xD800) << 10) + static_cast<char32_t>(low - 0xDC00);
        }
        unicode::append_utf8(value, cp);
        break;
      }
      default:
        return token_error(backslash, "invalid escape");
    }
  }
  Token t = make(TokenKind::String, start);
  t.text = value;
  return t;
}

}  // namespace handoff::condition
