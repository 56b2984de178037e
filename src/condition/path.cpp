#include "condition/path.h"

#include "condition/unicode.h"

namespace handoff::condition {
namespace {

void append_quoted(std::string& out, const std::string& key) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "['";
  for (char c : key) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\'': out += "\\'"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\0': out += "\\0"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
          out += "\\u00";
          out += kHex[(c >> 4) & 0xF];
          out += kHex[c & 0xF];
        } else {
          out += c;
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
