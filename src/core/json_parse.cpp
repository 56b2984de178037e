// See json_parse.h. A reader of its own rather than nlohmann's lexer and SAX parser: those build a
// parse error's message (with its token, position and codepoint texts) that a reader that only
// says "not JSON" discards, and their code and message texts were about 12 KB of the WebAssembly
// module (issue 21). It accepts what nlohmann's parser accepts, to the same values (the
// differential tests in tests/cpp/json_parse_test.cpp):
//  * RFC 8259 JSON in UTF-8 after an optional byte order mark; any other text starting with the
//    mark's first byte is refused; a NUL byte outside a string ends the input;
//  * strings checked for UTF-8 and for paired \u surrogates;
//  * a number without fraction or exponent is a uint64 (no sign) or an int64 (a '-') if it fits,
//    else a double, as is every other number; a double that overflows is not JSON;
//  * a repeated key keeps its first place and gets the last value; an object's key is looked up
//    through an index once it has many members (nlohmann's ordered_json searched the members
//    before it per key: n²/2 comparisons for n members);
//  * nesting has no limit: containers open on the reader's own stack, not the C++ one.
#include "core/json_parse.h"

#include "core/decimal.h"
#include "core/string_index.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>  // only nlohmann::detail::to_chars, to print doubles as nlohmann does

#include "condition/unicode.h"

namespace handoff::core {
namespace {

using Json = json::Value;

using Members = Json::object_t;

// Up to this many members a linear search is faster than building an index.
constexpr std::size_t kIndexFrom = 32;

class Reader {
 public:
  Reader(std::string_view text, int max_depth) : s_(text), max_depth_(max_depth) {}

  bool too_deep() const { return too_deep_; }

  // The text as one value into `root`; false when it is not JSON.
  bool run(Json& root) {
    if (!s_.empty() && static_cast<unsigned char>(s_[0]) == 0xEF) {
      if (s_.substr(0, 3) != "\xEF\xBB\xBF") return false;
      i_ = 3;
    }
    if (!value(root)) return false;
    skip_space();
    return i_ == s_.size() || s_[i_] == '\0';
  }

 private:
  struct Open {
    Json* value;
    bool object;
    bool indexed = false;  // once the object has kIndexFrom members
    StringIndex index = {};  // key → member
  };

  static std::string_view member_key(const void* members, std::uint32_t i) {
    return (*static_cast<const Members*>(members))[i].first;
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

  // One value at `root`, containers included, iteratively.
  bool value(Json& root) {
    Json* slot = &root;
    for (;;) {
      skip_space();
      if (i_ >= s_.size()) return false;
      const char c = s_[i_];
      if (c == '[' || c == '{') {
        ++i_;
        const bool object = c == '{';
        if (max_depth_ > 0 && open_.size() >= static_cast<std::size_t>(max_depth_)) too_deep_ = true;
        *slot = object ? Json::object() : Json::array();
        open_.push_back({slot, object});
        if (eat(object ? '}' : ']')) {
          open_.pop_back();
        } else {
          slot = next_slot(open_.back());
          if (slot == nullptr) return false;
          continue;
        }
      } else if (!scalar(*slot)) {
        return false;
      }
      // After a value: close the containers that end here, or go on to the next element.
      for (;;) {
        if (open_.empty()) return true;
        if (eat(',')) {
          slot = next_slot(open_.back());
          if (slot == nullptr) return false;
          break;
        }
        if (!eat(open_.back().object ? '}' : ']')) return false;
        open_.pop_back();
      }
    }
  }

  // Where the next element of `open` goes (its key read first, for an object); null when the key
  // is not JSON.
  Json* next_slot(Open& open) {
    if (!open.object) {
      auto& items = open.value->get_ref<Json::array_t&>();
      items.emplace_back();
      return &items.back();
    }
    std::string key;
    skip_space();
    if (i_ >= s_.size() || s_[i_] != '"' || !string(key) || !eat(':')) return nullptr;
    return &member(open, std::move(key));
  }

  // The member `key` of the object `open` reads: found (a repeated key keeps its first place and
  // gets the last value), else appended.
  static Json& member(Open& open, std::string&& key) {
    Members& members = open.value->get_ref<Json::object_t&>();
    if (!open.indexed && members.size() < kIndexFrom) {
      for (auto& m : members) {
        if (m.first == key) return m.second;
      }
    } else {
      if (!open.indexed) {
        open.indexed = true;
        for (std::size_t i = 0; i < members.size(); ++i) open.index.insert(members[i].first, static_cast<std::uint32_t>(i), &members, member_key);
      }
      const auto next = static_cast<std::uint32_t>(members.size());
      const std::uint32_t at = open.index.insert(key, next, &members, member_key);
      if (at != next) return members[at].second;
    }
    members.emplace_back(std::move(key), nullptr);
    return members.back().second;
  }

  bool literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }

  bool scalar(Json& out) {
    const char c = s_[i_];
    if (c == '"') {
      std::string text;
      if (!string(text)) return false;
      out = std::move(text);
    } else if (c == 't' || c == 'f') {
      if (!literal(c == 't' ? "true" : "false")) return false;
      out = c == 't';
    } else if (c == 'n') {
      if (!literal("null")) return false;
      out = nullptr;
    } else {
      return number(out);
    }
    return true;
  }

  std::size_t digits() {
    const std::size_t from = i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    return i_ - from;
  }

  bool number(Json& out) {
    const std::size_t start = i_;
    const bool negative = s_[i_] == '-';
    if (negative) ++i_;
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
    if (integer) {
      std::uint64_t magnitude = 0;
      bool fits = true;
      for (std::size_t k = start + (negative ? 1 : 0); k < i_ && fits; ++k) {
        auto d = static_cast<std::uint64_t>(s_[k] - '0');
        if (magnitude > (UINT64_MAX - d) / 10) fits = false;
        else magnitude = magnitude * 10 + d;
      }
      if (fits && !negative) {
        out = magnitude;  // nlohmann's number_unsigned
        return true;
      }
      if (fits && magnitude <= static_cast<std::uint64_t>(INT64_MAX) + 1) {
        out = static_cast<std::int64_t>(0 - magnitude);  // number_integer
        return true;
      }
    }
    const std::string text(s_.substr(start, i_ - start));
    const double d = std::strtod(text.c_str(), nullptr);
    if (d - d != 0) return false;  // an overflow to infinity: nlohmann refuses it
    out = d;
    return true;
  }

  bool hex4(std::uint32_t& out) {
    if (s_.size() - i_ < 4) return false;
    out = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s_[i_++];
      std::uint32_t d = 0;
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
      const auto b = static_cast<unsigned char>(s_[i_]);
      if (b == '"') {
        ++i_;
        return true;
      }
      if (b < 0x20) return false;
      if (b >= 0x80) {
        const std::size_t from = i_;
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
      switch (s_[i_++]) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!hex4(cp) || (cp >= 0xDC00 && cp <= 0xDFFF)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            std::uint32_t low = 0;
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
  int max_depth_;
  bool too_deep_ = false;
  std::vector<Open> open_;
};

}  // namespace

ParsedJson parse_json(std::string_view text, int max_depth) {
  ParsedJson parsed;
  Reader reader(text, max_depth);
  if (!reader.run(parsed.value)) {
    parsed.value = Json(Json::value_t::discarded);
    return parsed;
  }
  parsed.too_deep = reader.too_deep();
  return parsed;
}

}  // namespace handoff::core

// ---------------------------------------------------------------------------------------------
// Writing (see json_parse.h).

namespace handoff::core {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// How many continuation bytes a sequence led by `lead` has, and the range its first one must be
// in (Unicode's table of well-formed UTF-8, which nlohmann's decoder implements); 0 for a byte
// that leads no sequence.
int continuations(unsigned char lead, unsigned char& low, unsigned char& high) {
  low = 0x80;
  high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) return 1;
  if (lead >= 0xE0 && lead <= 0xEF) {
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
    return 2;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
    return 3;
  }
  return 0;
}

// A string as nlohmann writes it with ensure_ascii off and error_handler_t::replace: a sequence
// that stops being well-formed at some byte is one U+FFFD and that byte is read again as the
// start of what follows; a byte that leads nothing is one U+FFFD.
void append_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      ++i;
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
            out += static_cast<char>(b);
          }
      }
      continue;
    }
    unsigned char low = 0;
    unsigned char high = 0;
    const int needed = continuations(b, low, high);
    if (needed == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    std::size_t k = 1;
    for (; k <= static_cast<std::size_t>(needed) && i + k < s.size(); ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if (c < low || c > high) break;
      low = 0x80;
      high = 0xBF;
    }
    if (k > static_cast<std::size_t>(needed)) {
      out.append(s.substr(i, k));
    } else {
      out += kReplacement;  // ill-formed at byte i + k, or cut short by the string's end
    }
    i += k;
  }
  out += '"';
}

}  // namespace

void append_json(std::string& out, const json::Value& value) {
  using Type = json::Value::value_t;
  switch (value.type()) {
    case Type::null: out += "null"; return;
    case Type::discarded: out += "<discarded>"; return;
    case Type::boolean: out += value.get<bool>() ? "true" : "false"; return;
    case Type::number_integer:
    case Type::number_unsigned: {
      // One digit writer for both: a negative integer is its sign and its magnitude.
      const auto magnitude = value.get<std::uint64_t>();
      const bool negative = value.type() == Type::number_integer && value.get<std::int64_t>() < 0;
      append_decimal(out, negative ? 0 - magnitude : magnitude, negative);
      return;
    }
    case Type::number_float: {
      const double d = value.get<double>();
      if (d - d != 0) {  // NaN or an infinity
        out += "null";
        return;
      }
      char buffer[64];
      out.append(buffer, nlohmann::detail::to_chars(buffer, buffer + sizeof buffer, d));
      return;
    }
    case Type::string: append_string(out, value.get_ref<const std::string&>()); return;
    case Type::array: {
      out += '[';
      const char* separator = "";
      for (const json::Value& item : value.get_ref<const json::Value::array_t&>()) {
        out += separator;
        separator = ",";
        append_json(out, item);
      }
      out += ']';
      return;
    }
    case Type::object: {
      out += '{';
      const char* separator = "";
      for (const auto& [key, member] : value.get_ref<const json::Value::object_t&>()) {
        out += separator;
        separator = ",";
        append_string(out, key);
        out += ':';
        append_json(out, member);
      }
      out += '}';
      return;
    }
  }
}

std::string dump_json(const json::Value& value) {
  std::string out;
  append_json(out, value);
  return out;
}

}  // namespace handoff::core
