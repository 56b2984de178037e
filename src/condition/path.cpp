#include "condition/path.h"

#include "condition/unicode.h"

namespace handoff::condition {
namespace {

// Quoted as a string literal of the language would be, with every control character (C0, DEL
// and C1) escaped so that the text is printable and unambiguous.
void append_quoted(std::string& out, const std::string& key) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out += "['";
  for (std::size_t i = 0; i < key.size();) {
    std::size_t at = i;
    char32_t c = unicode::decode_utf8(key, i);
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\'': out += "\\'"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case 0: out += "\\0"; break;
      default:
        if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
          out += "\\u00";
          out += kHex[(c >> 4) & 0xF];
          out += kHex[c & 0xF];
        } else {
          out.append(key, at, i - at);
        }
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
