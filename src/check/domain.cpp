#include "check/domain.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
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


// Notes what a test against a constant constrains; returns its cost in items (for the work of
// telling candidates apart).
std::size_t note_constant(Constants& k, const Test& test) {
  if (test.op == Test::Op::Truthy) return 1;
  Json c = json_of(test.constant);
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
  return 1 + (c.is_array() ? c.size() : 0);
}

}  // namespace

void write_values(condition::JsonStateWriter& writer, const std::vector<Json>& values) {
  Json all = Json::array();
  std::vector<condition::Path> paths(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    all.push_back(values[i]);
    paths[i].steps.push_back({true, std::to_string(i), static_cast<std::int64_t>(i)});
  }
  writer.write(all, paths);
}

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
    if (test.other != condition::Condition::kNoSlot) {
      ++test_cost;
      domain.complete = false;
      domain.incomplete_because = "it compares two paths";
      continue;
    }
    test_cost += note_constant(k, test);
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
  condition::JsonStateWriter writer(strings);
  write_values(writer, candidates);
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


// ---- paths compared with one another ------------------------------------------------------------
//
// A test between two paths (`x == y`, `a < b`) is answered by the two values together, so the
// classes of one path's values are not enough: `x < y and x > 3` needs y tried around 3 too, and
// `x == y` needs two values of one class, equal and not. For a component of k paths joined by
// such tests, every path gets the constants of the whole component, and each class as many
// different values as it has, up to k (the samples). Numbers, and strings where no test looks
// inside them, are split at the constants into points and the open intervals between them, each
// interval a class of its own; the other classes are the values every test answers alike.
//
// Why that decides every state: take any state, and map its component's values class by class,
// sending the different values of one class one-to-one (and, in an interval, in increasing order)
// onto its samples. A test against a constant keeps its answer (same class); `==` between two
// paths keeps its answer (equal values are in one class and map to one sample, different ones to
// different samples; values unequal even to themselves, like NaN, only to samples unequal to
// everything too, where a path is compared with itself); and `<` keeps its answer (within an
// interval the map keeps the order, across classes the intervals are ordered and every other
// pair of kinds is unordered). A path held to integers (a machine's $step) gets integer samples:
// an interval with at least k integers gets k consecutive ones, which every path takes; one with
// fewer gets those integers, each path of the state keeps them, and the numbers between them.
namespace {

enum class Side : std::uint8_t { Below, Between, Above };

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Up to `count` different numbers in the interval from lo to hi, increasing: [-inf, hi) (Below),
// (lo, hi) (Between) or (lo, +inf] (Above). Round ones where there is room; where fewer than
// `count` are found so, the doubles next to the interval's end, which are all there are when
// there are fewer than `count`.
std::vector<double> numbers_between(double lo, double hi, std::size_t count, Side side) {
  std::vector<double> out;
  if (side == Side::Below) {  // hi - 1, hi - 2, …, nearest first: the witness reads best
    for (double v = hi; out.size() < count;) {
      double w = v - 1;
      if (!(w < v) || std::isinf(w)) break;
      out.push_back(w);
      v = w;
    }
    if (out.size() < count) {
      out.clear();
      for (double v = hi; out.size() < count;) {
        double w = std::nextafter(v, -kInfinity);
        if (w == v) break;
        out.push_back(w);
        v = w;
      }
    }
    return out;
  }
  for (double v = lo; out.size() < count;) {
    double next = NAN;
    for (double c : {std::floor(v) + 1, v / 2 + hi / 2}) {
      if (v < c && c < hi && std::isfinite(c)) {
        next = c;
        break;
      }
    }
    if (std::isnan(next)) break;
    out.push_back(next);
    v = next;
  }
  if (out.size() < count) {
    out.clear();
    for (double v = lo; out.size() < count;) {
      double w = std::nextafter(v, hi);
      if (w == v || (side == Side::Between && !(w < hi))) break;
      out.push_back(w);
      v = w;
    }
  }
  return out;
}

// Up to `count` different strings strictly between a and *b (above a when b is null), increasing:
// a followed by a letter (or a few), or else by a digit or capital, where there is room, or else
// a\0, a\0\0, …, which are all the strings between a and b when there are fewer than `count`.
std::vector<std::string> strings_between(const std::string& a, const std::string* b, std::size_t count) {
  std::vector<std::string> out;
  for (std::size_t i = 0; out.size() < count; ++i) {
    std::string s = a + std::string(i / 26, 'z') + static_cast<char>('a' + i % 26);
    if (b != nullptr && !(s < *b)) break;
    out.push_back(std::move(s));
  }
  if (out.size() < count) {
    out.clear();
    for (char c : std::string("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")) {
      std::string s = a + c;
      if (out.size() == count || (b != nullptr && !(s < *b))) break;
      out.push_back(std::move(s));
    }
  }
  if (out.size() < count) {
    out.clear();
    for (std::string s = a + '\0'; out.size() < count && (b == nullptr || s < *b); s += '\0') out.push_back(s);
  }
  return out;
}

std::string repeated(const std::string& s, std::size_t times) {
  std::string out;
  for (std::size_t i = 0; i < times; ++i) out += s;
  return out;
}

// A different value of the same kind that no constant test is likely to tell from `v` (the
// caller checks that none does): a string, list or object with `j` more fillers.
std::optional<Json> widened(const Json& v, const std::string& filler, std::size_t j) {
  if (v.is_string()) return Json(v.get<std::string>() + repeated(filler, j));
  if (v.is_array()) {
    Json out = v;
    out.push_back(repeated(filler, j + 1));
    return out;
  }
  if (v.is_object()) {
    const std::string key = repeated(filler, j + 1);
    if (v.contains(key)) return std::nullopt;
    Json out = v;
    out[key] = nullptr;
    return out;
  }
  return std::nullopt;
}

// `x op x`: what a test between a path and itself answers for `v`.
std::uint8_t self_answer(const Test& test, ValueRef v) {
  switch (test.op) {
    case Test::Op::Equals:
      return condition::equals(v, v);
    case Test::Op::Order:
      return static_cast<std::uint8_t>(condition::order(v, v) + 1);
    default:
      return condition::contains(v, v);
  }
}

}  // namespace

std::vector<Domain> component_domains(const std::vector<std::vector<Test>>& tests, const std::vector<Range>& ranges,
                                      const condition::Interner& strings) {
  constexpr std::uint32_t kNoSlot = condition::Condition::kNoSlot;
  const std::size_t n = tests.size();
  std::vector<Domain> out(n);
  // Where the argument does not reach: today's domains, incomplete, with the reason.
  auto undecided = [&](const std::string& why) {
    for (std::size_t i = 0; i < n; ++i) {
      out[i] = domain_of(tests[i], ranges[i], strings);
      out[i].complete = false;
      out[i].incomplete_because = why;
    }
    return out;
  };

  // The tests against constants (of every path), and those between two paths.
  std::vector<Test> pooled;
  std::vector<Test> self;
  bool order = false;
  bool self_equals = false;
  for (std::size_t i = 0; i < n; ++i) {
    for (const Test& test : tests[i]) {
      if (test.other == kNoSlot) {
        pooled.push_back(test);
      } else if (test.slot == test.other) {
        self.push_back(test);
        self_equals = self_equals || test.op == Test::Op::Equals;
      } else if (test.op == Test::Op::Order) {
        order = true;
      } else if (test.op != Test::Op::Equals) {
        return undecided("it looks for one path's value in another's");
      }
    }
  }
  // What the paths may hold: a path held to one value is a constant of the component.
  std::size_t count = 0;  // the paths that may hold any value: the samples a class needs at most
  bool any = false;
  bool prefer_high = false;
  std::vector<const Range*> integers;
  std::vector<Json> fixed;
  for (const Range& range : ranges) {
    if (range.kind == Range::Kind::Constant) {
      fixed.push_back(range.constant);
      continue;
    }
    if (range.kind == Range::Kind::Any) {
      any = true;
      ++count;
    }
    if (range.kind == Range::Kind::Integer) {
      integers.push_back(&range);
      prefer_high = prefer_high || range.prefer_high;
    }
  }
  condition::JsonStateWriter fixed_tape(strings);
  write_values(fixed_tape, fixed);
  for (std::size_t i = 0; i < fixed.size(); ++i) pooled.push_back({Test::Op::Equals, 0, fixed_tape.slots()[i], kNoSlot});

  Constants k;
  std::size_t test_cost = self.size();
  for (const Test& test : pooled) test_cost += note_constant(k, test);
  if (k.contained.size() > kMaxContained)
    return undecided("it looks for more than " + std::to_string(kMaxContained) + " constants in one path");
  const bool contents = !k.within.empty() || !k.contained_strings.empty();
  if (contents && order && any)
    return undecided("it compares the order of two paths and looks inside strings (`c in x`, `x in 'text'`)");

  // The candidates: ordered units (numbers; strings unless a test looks inside them), each a class
  // of its own, and values grouped into classes by their tests' answers (unit -1).
  struct Candidate {
    Json value;
    std::int64_t unit;
  };
  std::vector<Candidate> candidates;
  std::vector<double> integer_values;  // the samples of paths held to integers
  std::int64_t unit = 0;
  if (any) {
    candidates.push_back({nullptr, -1});
    candidates.push_back({true, -1});
    candidates.push_back({false, -1});
  }
  std::vector<double> splits = k.numbers;
  for (const Range* range : integers) splits.insert(splits.end(), {range->min, range->max});
  std::sort(splits.begin(), splits.end());
  splits.erase(std::unique(splits.begin(), splits.end()), splits.end());  // -0 == 0: one point
  // Without order between paths, classes need not be intervals: numbers and strings are grouped by
  // their tests' answers like every other value (unless a path holds integers only).
  const bool numbers_ordered = order || !integers.empty();
  auto add_number = [&](double v) {
    if (any) candidates.push_back({number(v), numbers_ordered ? unit : -1});
  };
  auto held = [&](double lo, double hi) {  // the integer paths that may hold the numbers between lo and hi
    return static_cast<std::size_t>(
        std::count_if(integers.begin(), integers.end(), [&](const Range* r) { return r->min <= lo && hi <= r->max; }));
  };
  if (any) {
    for (double v : numbers_between(-kInfinity, splits.front(), count, Side::Below)) add_number(v);
  }
  ++unit;
  for (std::size_t i = 0; i < splits.size(); ++i) {
    const double lo = splits[i];
    add_number(lo);
    if (std::floor(lo) == lo) integer_values.push_back(lo);
    ++unit;
    const bool above = i + 1 == splits.size();
    double hi = kInfinity;
    if (!above) hi = splits[i + 1];
    const double first = std::floor(lo) + 1;
    const double last = std::ceil(hi) - 1;
    const std::size_t holders = above || first > last ? 0 : held(lo, hi);
    if (holders > 0) {
      const std::size_t paths = count + holders;  // the paths that may hold a value between lo and hi
      std::vector<double> z;
      if (last - first + 1 >= static_cast<double>(paths)) {
        for (std::size_t j = 0; j < paths; ++j)
          z.push_back(prefer_high ? last - static_cast<double>(paths - 1 - j) : first + static_cast<double>(j));
      } else {
        for (double v = first; v <= last; ++v) z.push_back(v);
      }
      for (double v : z) {
        integer_values.push_back(v);
        add_number(v);
      }
      if (any && z.size() < paths) {  // the numbers around those integers, for the other paths
        std::vector<double> ends{lo};
        ends.insert(ends.end(), z.begin(), z.end());
        ends.push_back(hi);
        for (std::size_t g = 0; g + 1 < ends.size(); ++g) {
          for (double v : numbers_between(ends[g], ends[g + 1], count, Side::Between)) add_number(v);
        }
      }
    } else if (any) {
      for (double v : numbers_between(lo, hi, count, above ? Side::Above : Side::Between)) add_number(v);
    }
    ++unit;
  }
  if (any) candidates.push_back({std::numeric_limits<double>::quiet_NaN(), numbers_ordered ? unit++ : -1});

  if (any) {
    const std::string filler = fresh_character(k.text);
    std::vector<Json> others;
    if (!k.contained.empty()) add_containers(k, filler, others);
    if (contents) {
      Domain scratch;
      add_strings(k, filler, scratch, others);
      if (!scratch.complete) return undecided(scratch.incomplete_because);
    } else {
      std::vector<std::string> base = k.strings;
      std::sort(base.begin(), base.end());
      base.erase(std::unique(base.begin(), base.end()), base.end());
      for (std::size_t i = 0; i < base.size(); ++i) {
        candidates.push_back({base[i], order ? unit++ : -1});
        for (std::string& s : strings_between(base[i], i + 1 < base.size() ? &base[i + 1] : nullptr, count))
          candidates.push_back({std::move(s), order ? unit : -1});
        ++unit;
      }
    }
    if (k.contained.empty()) add_containers(k, filler, others);
    for (const Json& value : fixed) {
      if (value.is_object()) others.push_back(value);  // the others are candidates already
    }
    // More values of each class: the same with fillers added (kept only where no test tells them
    // apart), and, where a path is compared with itself, lists and objects unequal to themselves.
    const std::size_t base_count = others.size();
    for (std::size_t i = 0; i < base_count; ++i) {
      for (std::size_t j = 1; j < count; ++j) {
        if (std::optional<Json> v = widened(others[i], filler, j)) others.push_back(std::move(*v));
      }
      if (self_equals && (others[i].is_array() || others[i].is_object())) {
        Json v = others[i];
        if (v.is_array())
          v.push_back(std::numeric_limits<double>::quiet_NaN());
        else
          v[repeated(filler, count + 1)] = std::numeric_limits<double>::quiet_NaN();
        others.push_back(std::move(v));
      }
    }
    for (Json& v : others) candidates.push_back({std::move(v), -1});
  }
  if (candidates.size() > kMaxValues || integer_values.size() > kMaxValues)
    return undecided("its constants make more than " + std::to_string(kMaxValues) + " values to try");
  if (candidates.size() * std::max<std::size_t>(test_cost, 1) > kMaxSignatureWork)
    return undecided("its tests make too many values to tell apart");

  // Each candidate's class: its ordered unit, or the answers of every test.
  std::vector<bool> keep(candidates.size(), false);
  std::vector<Sample> samples(candidates.size());
  std::vector<std::uint32_t> class_sizes;
  if (any) {
    std::vector<Json> values;
    values.reserve(candidates.size());
    for (const Candidate& c : candidates) values.push_back(c.value);
    if (!fits_one_tape(values)) return undecided("its list constants are too large to try them all");
    condition::JsonStateWriter writer(strings);
    write_values(writer, values);
    struct Class {
      std::vector<std::size_t> members;  // different values, each equal to itself
      std::optional<std::size_t> unequal;  // one unequal to itself, where there is one
      bool finite = false;  // its tests leave finitely many values, all of them candidates
      bool ordered = false;
    };
    std::map<std::string, Class> classes;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      ValueRef v = writer.slots()[i];
      std::string key;
      bool finite = false;
      if (candidates[i].unit >= 0) {
        key = "u" + std::to_string(candidates[i].unit);
      } else {
        key = "s";
        for (const Test& test : pooled) {
          std::uint8_t a = answer(test, v);
          key += static_cast<char>(a);
          // Equal to a constant, or in a constant list or text: finitely many values, each tried.
          finite = finite || (a == 1 && test.op != Test::Op::Truthy && test.op != Test::Op::Contains) ||
                   (a == 0 && test.op == Test::Op::Truthy);
        }
      }
      for (const Test& test : self) key += static_cast<char>(self_answer(test, v));
      Class& c = classes[key];
      c.finite = c.finite || finite;
      c.ordered = candidates[i].unit >= 0;
      if (!condition::equals(v, v)) {
        if (!c.unequal) c.unequal = i;
      } else if ((c.ordered || c.members.size() < count) &&  // a class keeps at most `count`
                 std::none_of(c.members.begin(), c.members.end(),
                              [&](std::size_t m) { return condition::equals(writer.slots()[m], v); })) {
        c.members.push_back(i);
      }
    }
    for (const auto& [key, c] : classes) {
      if (c.unequal) keep[*c.unequal] = true;
      if (!c.ordered && c.members.size() < count && !c.finite && !c.members.empty()) {
        return undecided("it compares " + std::to_string(count) + " paths, and check found fewer than " +
                         std::to_string(count) + " different values in one class of their values");
      }
      std::vector<std::size_t> kept(c.members.begin(),
                                    c.members.begin() + static_cast<std::ptrdiff_t>(c.ordered ? c.members.size()
                                                                                              : std::min(count, c.members.size())));
      if (c.ordered) {  // in order, from the constant that bounds the numbers below all (unit 0) downwards
        const bool down = !kept.empty() && candidates[kept.front()].unit == 0;
        std::sort(kept.begin(), kept.end(), [&](std::size_t a, std::size_t b) {
          return condition::order(writer.slots()[a], writer.slots()[b]) == (down ? 1 : -1);
        });
      }
      for (std::size_t m = 0; m < kept.size(); ++m) {
        keep[kept[m]] = true;
        samples[kept[m]] = {static_cast<std::int32_t>(class_sizes.size()), static_cast<std::uint32_t>(m), c.ordered};
      }
      if (!kept.empty()) class_sizes.push_back(static_cast<std::uint32_t>(kept.size()));
    }
  }
  std::sort(integer_values.begin(), integer_values.end());
  integer_values.erase(std::unique(integer_values.begin(), integer_values.end()), integer_values.end());
  if (prefer_high) std::reverse(integer_values.begin(), integer_values.end());
  for (std::size_t i = 0; i < n; ++i) {
    const Range& range = ranges[i];
    if (range.kind == Range::Kind::Constant) {
      out[i].values.push_back(range.constant);
    } else if (range.kind == Range::Kind::Integer) {
      for (double v : integer_values) {
        if (v >= range.min && v <= range.max) out[i].values.push_back(number(v));
      }
    } else {
      for (std::size_t c = 0; c < candidates.size(); ++c) {
        if (!keep[c]) continue;
        out[i].values.push_back(candidates[c].value);
        out[i].samples.push_back(samples[c]);
      }
      out[i].class_sizes = class_sizes;
      // Renaming samples keeps a path held to integers within them only where none is.
      if (!integers.empty()) {
        out[i].samples.clear();
        out[i].class_sizes.clear();
      }
    }
  }
  return out;
}

}  // namespace handoff::check
