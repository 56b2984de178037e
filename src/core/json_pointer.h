// JSON Pointer (RFC 6901) tokens: the definition readers and the machine's validation name the
// place of a problem with a pointer, and a member name goes into one escaped.
#pragma once

#include <string>
#include <string_view>

namespace handoff {

// A member name as a JSON Pointer token: '~' and '/' escaped ("~0", "~1").
inline std::string pointer_token(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

}  // namespace handoff
