#include "check/domain.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "condition/json_state.h"
#include "condition/limits.h"

namespace handoff::check {
namespace {

using condition::Kind;
using condition::ValueRef;
using Test = condition::Condition::SlotTest;

// Bounds past which a domain is incomplete (docs/check.md, "Where it stops"): the `c in x`
// constants of one path whose every combination is tried, and the length, in code points, of a
// `x in 'text'` constant whose every substring is tried.
constexpr std::size_t kMaxContained = 8;
constexpr std::size_t kMaxWithinLength = 32;
// Values tried per path at most (a list literal of 65,536 numbers makes twice that many classes),
// and the work of telling candidates apart (candidates times the tests' constants, in items), past
// which every candidate is kept: more combinations to try, the same answers.
constexpr std::size_t kMaxValues = std::size_t{1} << 17;
constexpr std::size_t kMaxSignatureWork = std::size_t{1} << 24;

// The constants a path is tested against, sorted by what they constrain.
struct Constants {
  std::vector<double> numbers{0};        // compared whole, and 0 for truthiness
  std::vector<std::string> strings{""};  // compared whole (==, order, an element of a list), and ''
  std::vector<std::string> within;       // `x in 'text'`
  std::vector<Json> contained;           // `c in x`
  std::vector<std::string> contained_strings;
  std::vector<Json> lists;  // arrays x may equal
  bool string_order = false;
  std::string text;  // every string anywhere in the constants, for a character none of them has

  void whole(const Json& c) {
    if (c.is_number()) numbers.push_back(c.get<double>());
    if (c.is_string()) strings.push_back(c.get<std::string>());
    if (c.is_array()) lists.push_back(c);
  }
  void note_text(const Json& c) {
    if (c.is_string()) text += c.get_ref<const std::string&>();
    if (c.is_array()) {
      for (const Json& item : c) note_text(item);
    }
  }
};

// A number as JSON writes it best: an integer where it is one (3, not 3.0).
Json number(double d) {
  if (std::floor(d) == d && std::fabs(d) < 9007199254740992.0 && !(d == 0 && std::signbit(d))) {
    return static_cast<std::int64_t>(d);
  }
  return d;
}

// A one-character string that occurs in none of the constants: a filler that adds no match.
std::string fresh_character(const std::string& text) {
  for (const char* c : {"_", "~", "#", "x", "q", "z"}) {
    if (text.find(c) == std::string::npos) return c;
  }
  for (std::uint32_t cp = 0x100;; ++cp) {  // UTF-8 of cp; the constants hold fewer characters than this tries
    std::string s;
    s += static_cast<char>(0xC0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3F));
    if (text.find(s) == std::string::npos) return s;
  }
}

// Code point boundaries of a UTF-8 string.
std::vector<std::size_t> boundaries(const std::string& s) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) out.push_back(i);
  }
  out.push_back(s.size());
  return out;
}

void add_numbers(std::vector<double> base, std::vector<Json>& out) {
  std::sort(base.begin(), base.end());
  base.erase(std::unique(base.begin(), base.end()), base.end());  // -0 == 0: one class
  auto between = [&](double a, double b) {
    for (double c : {std::floor(a) + 1, a / 2 + b / 2, std::nextafter(a, b)}) {
      if (a < c && c < b) {
        out.push_back(number(c));
        return;
      }
    }
  };
  out.push_back(number(base.front() - 1 < base.front() ? base.front() - 1 : std::nextafter(base.front(), -INFINITY)));
  for (std::size_t i = 0; i < base.size(); ++i) {
    out.push_back(number(base[i]));
    if (i + 1 < base.size()) between(base[i], base[i + 1]);
  }
  out.push_back(number(base.back() + 1 > base.back() ? base.back() + 1 : std::nextafter(base.back(), INFINITY)));
  out.emplace_back(std::numeric_limits<double>::quiet_NaN());  // a JavaScript state may hold it
}

// Integers in [min, max]: each constant's neighbours cover every class the constants make.
void add_integers(const std::vector<double>& numbers, const Range& range, std::vector<Json>& out) {
  const double min = range.min;
  const double max = range.max;
  std::vector<double> candidates{min, max};
  for (double c : numbers) {
    double f = std::floor(c);
    candidates.insert(candidates.end(), {f - 1, f, f + 1, std::ceil(c)});
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  if (range.prefer_high) std::reverse(candidates.begin(), candidates.end());
  for (double c : candidates) {
    if (c >= min && c <= max) out.push_back(number(c));
  }
}

std::u32string decode(const std::string& s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) {
    auto b = static_cast<unsigned char>(s[i]);
    int n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    char32_t cp = n == 1 ? b : b & (0x7F >> n);
    for (int j = 1; j < n && i + j < s.size(); ++j) cp = (cp << 6) | (static_cast<unsigned char>(s[i + j]) & 0x3F);
    out += cp;
    i += n;
  }
  return out;
}

std::string encode(const std::u32string& s) {
  std::string out;
  for (char32_t cp : s) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  return out;
}

// Strings tested for their order and their contents (`x > 'm' and 'ab' in x`). Between two
// neighbouring constants a < b (or above the last), every string begins with one of finitely many
// prefixes Q such that every extension of Q lies between them too (a cylinder), or is one of
// finitely many prefixes of b. A cylinder's strings hold Q's constants, and any set of the
// `c in x` constants besides: Q, the filler, those constants joined by the filler, and the filler
// again holds exactly those (the filler occurs in no constant, so no constant spans it). For each
// position, the characters that make a cylinder form a range; one character of the range that no
// constant has stands for all such, and each that a constant has is tried itself.
void add_ordered_contents(const Constants& k, const std::vector<std::string>& sorted, const std::string& filler,
                          std::vector<Json>& out) {
  std::set<char32_t> used;
  for (char32_t c : decode(k.text)) used.insert(c);
  std::vector<std::u32string> prefixes;
  auto range = [&](const std::u32string& head, char32_t lo, char32_t hi) {  // head + c, c in [lo, hi]
    bool fresh = false;
    for (char32_t c = lo; c <= hi && c <= 0x10FFFF && !fresh; ++c) {
      if (c >= 0xD800 && c <= 0xDFFF) continue;
      if (used.count(c) == 0) {
        prefixes.push_back(head + c);
        fresh = true;
      }
    }
    for (auto it = used.lower_bound(lo); it != used.end() && *it <= hi; ++it) prefixes.push_back(head + *it);
  };
  std::vector<std::string> isolated;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const std::u32string a = decode(sorted[i]);
    if (i + 1 == sorted.size()) {  // above the last constant
      for (std::size_t j = 0; j < a.size(); ++j) range(a.substr(0, j), a[j] + 1, 0x10FFFF);
      range(a, 0, 0x10FFFF);
      continue;
    }
    const std::u32string b = decode(sorted[i + 1]);
    std::size_t c = 0;  // the length of the common prefix
    while (c < a.size() && c < b.size() && a[c] == b[c]) ++c;
    if (c < a.size()) {
      if (a[c] + 1 <= b[c] - 1) range(a.substr(0, c), a[c] + 1, b[c] - 1);
      for (std::size_t j = c + 1; j < a.size(); ++j) range(a.substr(0, j), a[j] + 1, 0x10FFFF);
      range(a, 0, 0x10FFFF);
    }
    // Below b: at the first difference, only the range above a (done above) unless a is b's prefix.
    for (std::size_t j = c < a.size() ? c + 1 : c; j < b.size(); ++j) {
      if (b[j] > 0) range(b.substr(0, j), 0, b[j] - 1);
      if (j > c) isolated.push_back(encode(b.substr(0, j)));
    }
  }
  std::size_t n = std::min(k.contained_strings.size(), kMaxContained);
  for (const std::u32string& q : prefixes) {
    const std::string head = encode(q) + filler;
    for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
      std::string s = head;
      for (std::size_t i = 0; i < n; ++i) {
        if (mask & (1u << i)) s += k.contained_strings[i] + filler;
      }
      out.emplace_back(s);
      if (out.size() > kMaxValues) return;  // domain_of reports the cut
    }
  }
  for (std::string& s : isolated) out.emplace_back(std::move(s));
}

void add_strings(Constants& k, const std::string& filler, Domain& domain, std::vector<Json>& out) {
  std::vector<std::string> base = k.strings;
  std::sort(base.begin(), base.end());  // byte order of UTF-8 is code point order
  base.erase(std::unique(base.begin(), base.end()), base.end());
  for (std::size_t i = 0; i < base.size(); ++i) {
    out.emplace_back(base[i]);
    if (!k.string_order) continue;
    // A string strictly between this constant and the next, if there is one.
    for (const std::string& c : {base[i] + "a", base[i] + std::string(1, '\0')}) {
      if (i + 1 == base.size() || c < base[i + 1]) {
        out.emplace_back(c);
        break;
      }
    }
  }
  if (k.string_order && (!k.within.empty() || !k.contained_strings.empty())) add_ordered_contents(k, base, filler, out);
  for (const std::string& text : k.within) {
    std::vector<std::size_t> at = boundaries(text);
    if (at.size() - 1 > kMaxWithinLength) {
      domain.complete = false;
      domain.incomplete_because =
          "a string it looks in is longer than " + std::to_string(kMaxWithinLength) + " characters";
      continue;
    }
    for (std::size_t i = 0; i < at.size(); ++i) {
      for (std::size_t j = i + 1; j < at.size(); ++j) out.emplace_back(text.substr(at[i], at[j] - at[i]));
    }
  }
  // For each set of the `c in x` strings, one string holding those (and what they hold), joined by
  // a character none has; with no set, the filler alone: a string equal to no constant.
  std::size_t n = std::min(k.contained_strings.size(), kMaxContained);
  for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) {
      if (mask & (1u << i)) s += k.contained_strings[i] + filler;
    }
    out.emplace_back(s + filler);
  }
}

void add_containers(const Constants& k, const std::string& filler, std::vector<Json>& out) {
  out.emplace_back(Json::array());
  for (const Json& list : k.lists) out.push_back(list);
  std::size_t n = std::min(k.contained.size(), kMaxContained);
  // For each set of the `c in x` constants, a list of just those, and one with a filler too (a
  // list equal to none of the list constants, when the first is one).
  for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
    Json array = Json::array();
    for (std::size_t i = 0; i < n; ++i) {
      if (mask & (1u << i)) array.push_back(k.contained[i]);
    }
    if (mask != 0) out.push_back(array);
    array.push_back(filler);
    out.push_back(std::move(array));
  }
  out.emplace_back(Json::object());
  n = std::min(k.contained_strings.size(), kMaxContained);
  for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
    Json object = Json::object();
    for (std::size_t i = 0; i < n; ++i) {
      if (mask & (1u << i)) object[k.contained_strings[i]] = nullptr;
    }
    object[filler] = nullptr;
    out.push_back(std::move(object));
  }
}

std::uint8_t answer(const Test& test, ValueRef v) {
  switch (test.op) {
    case Test::Op::Truthy:
      return condition::truthy(v);
    case Test::Op::Equals:
      return condition::equals(v, test.constant);
    case Test::Op::Order:
      return static_cast<std::uint8_t>(condition::order(v, test.constant) + 1);
    case Test::Op::InConstant:
      return condition::contains(test.constant, v);
    case Test::Op::Contains:
      return condition::contains(v, test.constant);
  }
  return 0;
}

// The cells a value takes on a tape (a member's key is one more).
std::size_t cells(const Json& value) {
  std::size_t n = 1;
  if (value.is_array()) {
    for (const Json& item : value) n += cells(item);
  } else if (value.is_object()) {
    for (const Json& item : value) n += 1 + cells(item);
  }
  return n;
}

}  // namespace

bool fits_one_tape(const std::vector<Json>& values) {
  std::size_t total = 0;
  for (const Json& value : values) {
    std::size_t n = cells(value);
    if (n > condition::kMaxStateCells) return false;
    total += n;
  }
  return total < condition::kMaxMarshalWork / 2;
}

Json json_of(ValueRef value) {
  switch (value.kind()) {
    case Kind::Null:
      return nullptr;
    case Kind::False:
      return false;
    case Kind::True:
      return true;
    case Kind::Number:
      return value.number();
    case Kind::String:
      return std::string(value.text());
    case Kind::Array: {
      Json out = Json::array();
      ValueRef item = value.first_child();
      for (std::uint32_t i = 0; i < value.count(); ++i, item = item.next_sibling()) out.push_back(json_of(item));
      return out;
    }
    case Kind::Object: {
      Json out = Json::object();
      ValueRef key = value.first_child();
      for (std::uint32_t i = 0; i < value.count(); ++i, key = key.next_sibling().next_sibling()) {
        out[std::string(key.text())] = json_of(key.next_sibling());
      }
      return out;
    }
  }
  return nullptr;
}

Domain domain_of(const std::vector<Test>& tests, const Range& range, const condition::Interner& strings) {
  Domain domain;
  if (range.kind == Range::Kind::Constant) {
    domain.values.push_back(range.constant);
    return domain;
  }
  Constants k;
  std::size_t test_cost = 0;
  for (const Test& test : tests) {
    ++test_cost;
    if (test.other != condition::Condition::kNoSlot) {
      domain.complete = false;
      domain.incomplete_because = "it compares two paths";
      continue;
    }
    if (test.op == Test::Op::Truthy) continue;
    Json c = json_of(test.constant);
    test_cost += c.is_array() ? c.size() : 0;
    k.note_text(c);
    switch (test.op) {
      case Test::Op::Truthy:
        break;
      case Test::Op::Equals:
        k.whole(c);
        break;
      case Test::Op::Order:
        k.whole(c);
        k.string_order = k.string_order || c.is_string();
        break;
      case Test::Op::InConstant:
        if (c.is_string()) k.within.push_back(c.get<std::string>());
        if (c.is_array()) {
          for (const Json& item : c) k.whole(item);
        }
        break;
      case Test::Op::Contains:
        if (std::find(k.contained.begin(), k.contained.end(), c) != k.contained.end()) break;
        k.contained.push_back(c);
        if (c.is_string()) k.contained_strings.push_back(c.get<std::string>());
        break;
    }
  }
  if (k.contained.size() > kMaxContained) {
    domain.complete = false;
    domain.incomplete_because = "it looks for more than " + std::to_string(kMaxContained) + " constants in one path";
  }

  std::vector<Json> candidates;
  if (range.kind == Range::Kind::Integer) {
    add_integers(k.numbers, range, candidates);
  } else {
    std::string filler = fresh_character(k.text);
    candidates.emplace_back(nullptr);
    candidates.emplace_back(true);
    candidates.emplace_back(false);
    add_numbers(k.numbers, candidates);
    // Lists first where the conditions look for members: `'a' in tags` reads best as a list.
    if (!k.contained.empty()) add_containers(k, filler, candidates);
    add_strings(k, filler, domain, candidates);
    if (k.contained.empty()) add_containers(k, filler, candidates);
  }

  if (candidates.size() > kMaxValues) {
    candidates.resize(kMaxValues);
    domain.complete = false;
    domain.incomplete_because = "its constants make more than " + std::to_string(kMaxValues) + " values to try";
  }
  if (!fits_one_tape(candidates)) {
    domain.complete = false;
    domain.incomplete_because = "its list constants are too large to try them all";
  }
  // An incomplete domain keeps every candidate: a test it cannot see may tell them apart.
  if (!domain.complete || candidates.size() * test_cost > kMaxSignatureWork) {
    domain.values = std::move(candidates);
    return domain;
  }
  // One value per class: the first of those every test answers alike.
  Json all = Json::array();
  std::vector<condition::Path> paths(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    all.push_back(candidates[i]);
    paths[i].steps.push_back({true, std::to_string(i), static_cast<std::int64_t>(i)});
  }
  condition::JsonStateWriter writer(strings);
  writer.write(all, paths);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    std::string signature;  // each test's answer, a byte each
    for (const Test& test : tests) {
      signature += static_cast<char>(test.other == condition::Condition::kNoSlot ? answer(test, writer.slots()[i]) : 0);
    }
    if (seen.insert(std::move(signature)).second) domain.values.push_back(std::move(candidates[i]));
  }
  return domain;
}

}  // namespace handoff::check
