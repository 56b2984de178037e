#include "condition/path.h"

#include <algorithm>
#include <iterator>

#include "condition/unicode.h"

namespace handoff::condition {
namespace {

// Quoted as a string literal of the language would be, with every control character (C0, DEL
// and C1) escaped so that the text is printable and unambiguous.
void append_quoted(std::string& out, const std::string& key) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  // The characters with a one-letter escape, and their letters.
  static constexpr char kEscaped[] = {'\\', '\'', '\n', '\r', '\t', '\0'};
  static constexpr char kLetters[] = {'\\', '\'', 'n', 'r', 't', '0'};
  out += "['";
  for (std::size_t i = 0; i < key.size();) {
    std::size_t at = i;
    char32_t c = unicode::decode_utf8(key, i);
    const char* escaped = std::find(std::begin(kEscaped), std::end(kEscaped), c);
    if (escaped != std::end(kEscaped)) {
      out += '\\';
      out += kLetters[escaped - kEscaped];
    } else if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
      out += "\\u00";
      out += kHex[(c >> 4) & 0xF];
      out += kHex[c & 0xF];
    } else {
      out.append(key, at, i - at);
    }
  }
  out += "']";
}

}  // namespace

std::string Path::text() const {
  std::string out;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const PathStep& step = steps[i];
    if (step.is_index) {
      out += '[';
      out += step.key;
      out += ']';
    } else if (i == 0) {
      out += step.key;
    } else if (unicode::is_name(step.key)) {
      out += '.';
      out += step.key;
    } else {
      append_quoted(out, step.key);
    }
  }
  return out;
}

}  // namespace handoff::condition
