// The routing module's JSON (issue 21): a small value with the part of nlohmann::ordered_json's
// interface that the graph definition (src/export/graph_definition.h, src/export/reader.h), the
// condition ABI (wasm/condition_abi.h) and wasm/router.cpp use. nlohmann's templates, its error
// texts and its number printing were about a third of the routing module (scripts/wasm-parts.mjs);
// this is a few KB. The full module and the native library keep nlohmann.
//
// It reads what nlohmann's parser reads, to the same values: RFC 8259 JSON in UTF-8 after an
// optional byte order mark, strings checked for UTF-8 and for paired \u surrogates, integers kept
// apart from other numbers (int64, then uint64, else a double; a double that overflows is not
// JSON), duplicate keys keeping the first place and the last value. Nesting has no limit, as in
// nlohmann: the parser keeps its own stack, and values below kKeptDepth are kept as their type
// only, since nothing reads a definition deeper than that (so no destructor recurses deeply).
// Numbers other than integers are read by wasm/router_libc.cpp's strtod (JS Number()) and printed
// by nlohmann's own double printer (to_chars), so they print as the full module prints them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>  // only nlohmann::detail::to_chars, for printing doubles as nlohmann does

#include "condition/unicode.h"
#include "core/decimal.h"
#include "core/string_index.h"

namespace handoff::router_json {

class Value {
 public:
  enum class Type : std::uint8_t { Null, Boolean, Integer, Unsigned, Float, String, Array, Object, Discarded };
  enum class error_handler_t { strict, replace, ignore };  // nlohmann's dump() argument, for the same call

  using Member = std::pair<std::string, Value>;

  // An object member as nlohmann's iterators present it: key() and the value.
  class const_iterator {
   public:
    explicit const_iterator(const Member* at) : at_(at) {}
    const std::string& key() const { return at_->first; }
    const Value& operator*() const { return at_->second; }
    const Value* operator->() const { return &at_->second; }
    const_iterator& operator++() {
      ++at_;
      return *this;
    }
    bool operator==(const const_iterator& other) const { return at_ == other.at_; }
    bool operator!=(const const_iterator& other) const { return at_ != other.at_; }

   private:
    const Member* at_;
  };

  Value() = default;
  Value(std::nullptr_t) {}
  Value(bool b) : type_(Type::Boolean), integer_(b ? 1 : 0) {}
  Value(int n) : type_(Type::Integer), integer_(n) {}
  Value(unsigned n) : type_(Type::Integer), integer_(n) {}
  Value(std::int64_t n) : type_(Type::Integer), integer_(n) {}
  Value(double d) : type_(Type::Float), number_(d) {}
  Value(const char* s) : type_(Type::String), string_(s) {}
  Value(std::string s) : type_(Type::String), string_(std::move(s)) {}
  Value(std::string_view s) : type_(Type::String), string_(s) {}
  Value(const std::vector<std::string>& items) : type_(Type::Array) {
    for (const std::string& item : items) items_.emplace_back(item);
  }

  static Value array() { return Value(Type::Array); }
  static Value object() { return Value(Type::Object); }

  bool is_null() const { return type_ == Type::Null; }
  bool is_boolean() const { return type_ == Type::Boolean; }
  bool is_number_integer() const { return type_ == Type::Integer || type_ == Type::Unsigned; }
  bool is_string() const { return type_ == Type::String; }
  bool is_array() const { return type_ == Type::Array; }
  bool is_object() const { return type_ == Type::Object; }
  bool is_discarded() const { return type_ == Type::Discarded; }

  // Only what the readers ask for, after asking for the type: bool, integers, the string.
  template <class T>
  T get() const {
    if (type_ == Type::Float) return static_cast<T>(number_);
    if (type_ == Type::Unsigned) return static_cast<T>(static_cast<std::uint64_t>(integer_));
    return static_cast<T>(integer_);
  }
  template <class T>
  const std::string& get_ref() const { return string_; }

  std::size_t size() const { return type_ == Type::Object ? members_.size() : items_.size(); }
  const Value& operator[](std::size_t index) const { return items_[index]; }
  void push_back(Value value) { items_.push_back(std::move(value)); }

  const_iterator begin() const { return const_iterator(members_.data()); }
  const_iterator end() const { return const_iterator(members_.data() + members_.size()); }
  const_iterator find(std::string_view key) const {
    for (const Member& m : members_) {
      if (m.first == key) return const_iterator(&m);
    }
    return end();
  }
  bool contains(std::string_view key) const { return find(key) != end(); }

  // The member `key`, added (null) if absent: nlohmann's operator[] on an object.
  Value& operator[](std::string_view key) {
    for (Member& m : members_) {
      if (m.first == key) return m.second;
    }
    members_.emplace_back(std::string(key), Value());
    return members_.back().second;
  }

  std::string dump(int = -1, char = ' ', bool = false, error_handler_t = error_handler_t::strict) const {
    std::string out;
    write(out);
    return out;
  }

  // nlohmann's parse(first, last, nullptr, false): the value, or a discarded one.
  template <class Iterator>
  static Value parse(Iterator first, Iterator last, std::nullptr_t, bool) {
    return parse_text(std::string_view(std::to_address(first), static_cast<std::size_t>(last - first)));
  }

 private:
  explicit Value(Type type) : type_(type) {}

  static Value parse_text(std::string_view text);
  void write(std::string& out) const;

  Type type_ = Type::Null;
  std::int64_t integer_ = 0;  // booleans and integers (a uint64 as its bits)
  double number_ = 0;
  std::string string_;
  std::vector<Value> items_;
  std::vector<Member> members_;

  friend class Parser;
};

// Recursive descent with its own stack: a container's parse state is pushed, not a C++ frame.
class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  Value run() {
    // nlohmann skips a UTF-8 byte order mark and refuses any other text starting with its first byte.
    if (!s_.empty() && static_cast<unsigned char>(s_[0]) == 0xEF) {
      if (s_.substr(0, 3) != "\xEF\xBB\xBF") return Value(Value::Type::Discarded);
      i_ = 3;
    }
    Value root;
    if (!value(root)) return Value(Value::Type::Discarded);
    skip_space();
    // nlohmann's lexer reads a NUL byte outside a string as the end of the input.
    if (i_ != s_.size() && s_[i_] != '\0') return Value(Value::Type::Discarded);
    return root;
  }

 private:
  // Containers below this depth are kept as their type only (nothing reads deeper; see the top).
  static constexpr std::size_t kKeptDepth = 8;

  // An object's members are found by a linear search up to this many, then through an index:
  // a search per key made an object of n members cost n²/2 comparisons (40,000 members: 9 s).
  static constexpr std::size_t kIndexFrom = 32;
  struct Open {
    Value* container;  // null below kKeptDepth
    bool object;
    StringIndex index = {};  // key → member, once the object has kIndexFrom members
  };

  static std::string_view member_key(const void* members, std::uint32_t i) {
    return (*static_cast<const std::vector<Value::Member>*>(members))[i].first;
  }

  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool eat(char c) {
    skip_space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }

  // One value into `root`, containers included, iteratively (a null slot: read, not kept).
  bool value(Value& root) {
    std::vector<Open> stack;
    Value* slot = &root;
    for (;;) {
      // A value at `slot`.
      skip_space();
      if (i_ >= s_.size()) return false;
      char c = s_[i_];
      if (c == '[' || c == '{') {
        ++i_;
        bool object = c == '{';
        Value* container = nullptr;
        if (slot != nullptr) {
          *slot = Value(object ? Value::Type::Object : Value::Type::Array);
          if (stack.size() + 1 < kKeptDepth) container = slot;
        }
        stack.push_back({container, object});
        if (eat(object ? '}' : ']')) {
          stack.pop_back();
        } else {
          slot = next_slot(stack.back());
          if (object && !key_ok_) return false;
          continue;
        }
      } else if (!scalar(slot)) {
        return false;
      }
      // After a value: close containers that end, or go on to the next element.
      for (;;) {
        if (stack.empty()) return true;
        Open& open = stack.back();
        if (eat(',')) {
          slot = next_slot(open);
          if (open.object && !key_ok_) return false;
          break;
        }
        if (!eat(open.object ? '}' : ']')) return false;
        stack.pop_back();
      }
    }
  }

  // Where the next element of `open` goes (reading its key first, for an object).
  Value* next_slot(Open& open) {
    key_ok_ = true;
    if (!open.object) {
      if (open.container == nullptr) return nullptr;
      open.container->items_.emplace_back();
      return &open.container->items_.back();
    }
    std::string key;
    skip_space();
    if (i_ >= s_.size() || s_[i_] != '"' || !string(key) || !eat(':')) {
      key_ok_ = false;
      return &dropped_;
    }
    if (open.container == nullptr) return nullptr;
    return &member(open, std::move(key));
  }

  // The member `key` of the object `open` reads: found (a repeated key keeps its first place and
  // gets the last value), else appended.
  static Value& member(Open& open, std::string key) {
    std::vector<Value::Member>& members = open.container->members_;
    if (members.size() < kIndexFrom) {
      for (Value::Member& m : members) {
        if (m.first == key) return m.second;
      }
    } else {
      // Every member so far when the index is built, then each new one (a repeated key is found).
      for (auto i = open.index.size(); i < members.size(); ++i) open.index.insert(members[i].first, i, &members, member_key);
      const auto next = static_cast<std::uint32_t>(members.size());
      if (std::uint32_t at = open.index.insert(key, next, &members, member_key); at != next) return members[at].second;
    }
    members.emplace_back(std::move(key), Value());
    return members.back().second;
  }

  bool literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }

  bool scalar(Value* out) {
    Value v;
    char c = s_[i_];
    if (c == '"') {
      v.type_ = Value::Type::String;
      if (!string(v.string_)) return false;
    } else if (c == 't' || c == 'f') {
      if (!literal(c == 't' ? "true" : "false")) return false;
      v = Value(c == 't');
    } else if (c == 'n') {
      if (!literal("null")) return false;
    } else if (!number(v)) {
      return false;
    }
    if (out != nullptr) *out = std::move(v);
    return true;
  }

  bool number(Value& v) {
    const std::size_t start = i_;
    auto digits = [&] {
      std::size_t from = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      return i_ - from;
    };
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    if (i_ < s_.size() && s_[i_] == '0') {
      ++i_;
    } else if (digits() == 0) {
      return false;
    }
    bool integer = true;
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      integer = false;
      if (digits() == 0) return false;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      integer = false;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (digits() == 0) return false;
    }
    std::string text(s_.substr(start, i_ - start));
    if (integer) {
      // As nlohmann: int64 if it fits, else uint64 if it fits, else a double.
      bool negative = text[0] == '-';
      std::uint64_t magnitude = 0;
      bool fits = true;
      for (std::size_t k = negative ? 1 : 0; k < text.size() && fits; ++k) {
        auto d = static_cast<std::uint64_t>(text[k] - '0');
        if (magnitude > (UINT64_MAX - d) / 10) fits = false;
        else magnitude = magnitude * 10 + d;
      }
      if (fits && !negative && magnitude > static_cast<std::uint64_t>(INT64_MAX)) {
        v.type_ = Value::Type::Unsigned;
        v.integer_ = static_cast<std::int64_t>(magnitude);
        return true;
      }
      if (fits && (!negative ? magnitude <= static_cast<std::uint64_t>(INT64_MAX) : magnitude <= static_cast<std::uint64_t>(INT64_MAX) + 1)) {
        v.type_ = Value::Type::Integer;
        v.integer_ = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
        return true;
      }
    }
    double d = std::strtod(text.c_str(), nullptr);
    if (d - d != 0) return false;  // an overflow to infinity: nlohmann refuses it
    v.type_ = Value::Type::Float;
    v.number_ = d;
    return true;
  }

  bool hex4(std::uint32_t& out) {
    if (s_.size() - i_ < 4) return false;
    out = 0;
    for (int k = 0; k < 4; ++k) {
      char c = s_[i_++];
      std::uint32_t d;
      if (c >= '0' && c <= '9') d = static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') d = static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') d = static_cast<std::uint32_t>(c - 'A' + 10);
      else return false;
      out = out * 16 + d;
    }
    return true;
  }

  // A string at s_[i_] == '"'.
  bool string(std::string& out) {
    ++i_;
    for (;;) {
      if (i_ >= s_.size()) return false;
      auto b = static_cast<unsigned char>(s_[i_]);
      if (b == '"') {
        ++i_;
        return true;
      }
      if (b < 0x20) return false;
      if (b >= 0x80) {
        std::size_t from = i_;
        if (condition::unicode::decode_utf8(s_, i_) == condition::unicode::kInvalid) return false;
        out.append(s_.substr(from, i_ - from));
        continue;
      }
      ++i_;
      if (b != '\\') {
        out += static_cast<char>(b);
        continue;
      }
      if (i_ >= s_.size()) return false;
      char e = s_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          std::uint32_t cp;
          if (!hex4(cp)) return false;
          if (cp >= 0xDC00 && cp <= 0xDFFF) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            std::uint32_t low;
            if (s_.substr(i_, 2) != "\\u") return false;
            i_ += 2;
            if (!hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          condition::unicode::append_utf8(out, cp);
          break;
        }
        default: return false;
      }
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
  bool key_ok_ = true;
  Value dropped_;
};

inline Value Value::parse_text(std::string_view text) { return Parser(text).run(); }

// A string as nlohmann writes it with ensure_ascii off: ", \ and control characters escaped.
inline void write_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (char c : s) {
    auto b = static_cast<unsigned char>(c);
    switch (b) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (b < 0x20) {
          out += "\\u00";
          out += kHex[b >> 4];
          out += kHex[b & 15];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

// A double as nlohmann prints it (its Grisu2 digits and layout: "1.0", "1e+100",
// "9.999999999999999e+22" for 1e23), with its own function, which needs none of its templates.
inline void write_float(std::string& out, double value) {
  if (value - value != 0) {  // NaN or an infinity
    out += "null";
    return;
  }
  char buffer[64];
  out.append(buffer, nlohmann::detail::to_chars(buffer, buffer + sizeof buffer, value));
}

inline void Value::write(std::string& out) const {
  switch (type_) {
    case Type::Null:
    case Type::Discarded: out += "null"; return;
    case Type::Boolean: out += integer_ != 0 ? "true" : "false"; return;
    case Type::Integer:
    case Type::Unsigned: {
      // One digit writer for both: a negative integer is its sign and its magnitude.
      const auto magnitude = static_cast<std::uint64_t>(integer_);
      const bool negative = type_ == Type::Integer && integer_ < 0;
      core::append_decimal(out, negative ? 0 - magnitude : magnitude, negative);
      return;
    }
    case Type::Float: write_float(out, number_); return;
    case Type::String: write_string(out, string_); return;
    case Type::Array:
      out += '[';
      for (std::size_t k = 0; k < items_.size(); ++k) {
        if (k > 0) out += ',';
        items_[k].write(out);
      }
      out += ']';
      return;
    case Type::Object:
      out += '{';
      for (std::size_t k = 0; k < members_.size(); ++k) {
        if (k > 0) out += ',';
        write_string(out, members_[k].first);
        out += ':';
        members_[k].second.write(out);
      }
      out += '}';
      return;
  }
}

}  // namespace handoff::router_json
