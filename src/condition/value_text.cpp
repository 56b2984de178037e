#include "condition/value_text.h"

#include <cmath>
#include <cstdlib>
#include <string_view>

#include "condition/json_state.h"
#include "core/json.h"

namespace handoff::condition {

namespace {

// Writes JSON text into `out` until it holds more than `budget` bytes; what follows is dropped.
class PreviewWriter {
 public:
  explicit PreviewWriter(std::size_t budget) : budget_(budget) {}

  void value(ValueRef v) {
    if (full()) return;
    switch (v.kind()) {
      case Kind::Null: out_ += "null"; return;
      case Kind::False: out_ += "false"; return;
      case Kind::True: out_ += "true"; return;
      case Kind::Number: out_ += number_text(v.number()); return;
      case Kind::String: string(v.text()); return;
      case Kind::Array:
      case Kind::Object: container(v); return;
    }
  }

  std::string take() { return std::move(out_); }

 private:
  bool full() const { return out_.size() > budget_; }

  void string(std::string_view text) {
    // nlohmann escapes as JSON.stringify does: ", \, control characters; the rest stays UTF-8.
    out_ += core::dump_json(Json(std::string(text)));
  }

  void container(ValueRef v) {
    bool array = v.kind() == Kind::Array;
    if (v.truncated()) {
      out_ += array ? "[… " : "{… ";
      out_ += std::to_string(v.count()) + (array ? " elements]" : " members}");
      return;
    }
    out_ += array ? '[' : '{';
    ValueRef child = v.first_child();
    for (std::uint32_t i = 0; i < v.count() && !full(); ++i) {
      if (i > 0) out_ += ',';
      if (!array) {
        string(child.text());
        out_ += ':';
        child = child.next_sibling();
      }
      value(child);
      child = child.next_sibling();
    }
    out_ += array ? ']' : '}';
  }

  std::size_t budget_;
  std::string out_;
};

}  // namespace

std::string number_text(double number) {
  if (std::isnan(number) || std::isinf(number)) return "null";
  if (number == 0) return "0";  // -0 too, as String(-0) is "0"
  // nlohmann writes the shortest digits that read back as the same double ("1.5e-07", "100.0");
  // take its digits and exponent and lay them out as ECMAScript does.
  std::string text = core::dump_json(Json(number));
  std::string sign;
  if (text[0] == '-') {
    sign = "-";
    text.erase(0, 1);
  }
  long exponent = 0;
  if (auto e = text.find_first_of("eE"); e != std::string::npos) {
    exponent = std::strtol(text.c_str() + e + 1, nullptr, 10);
    text.resize(e);
  }
  std::string digits = text;
  long point = static_cast<long>(text.size());
  if (auto dot = text.find('.'); dot != std::string::npos) {
    digits = text.substr(0, dot) + text.substr(dot + 1);
    point = static_cast<long>(dot);
  }
  auto lead = digits.find_first_not_of('0');
  point -= static_cast<long>(lead);
  digits.erase(0, lead);
  digits.erase(digits.find_last_not_of('0') + 1);
  // The value is 0.digits × 10^n, with k significant digits (ECMA-262 Number::toString).
  const long n = point + exponent;
  const long k = static_cast<long>(digits.size());
  std::string out;
  if (k <= n && n <= 21) {
    out = digits + std::string(static_cast<std::size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out = digits.substr(0, static_cast<std::size_t>(n)) + "." + digits.substr(static_cast<std::size_t>(n));
  } else if (-6 < n && n <= 0) {
    out = "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
  } else {
    out = digits.substr(0, 1);
    if (k > 1) out += "." + digits.substr(1);
    out += n - 1 < 0 ? "e-" : "e+";
    out += std::to_string(std::labs(n - 1));
  }
  return sign + out;
}

std::string preview_text(ValueRef value, std::size_t max_chars) {
  // A code point takes at most 4 bytes: a budget of 4 × max_chars bytes always suffices to cut.
  PreviewWriter writer(4 * max_chars + 4);
  writer.value(value);
  std::string text = writer.take();
  std::size_t chars = 0;
  std::size_t cut = std::string::npos;  // byte offset after max_chars - 3 code points
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;  // a continuation byte
    if (chars == max_chars - 3) cut = i;
    if (++chars > max_chars) return text.substr(0, cut) + "...";
  }
  return text;
}

}  // namespace handoff::condition
