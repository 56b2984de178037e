// Integers as decimal text: the one digit writer of both modules' JSON writers
// (core/json_parse.cpp for the core's value, wasm/router_json.h for the routing module's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace handoff::core {

// Appends '-' when `negative`, then the digits of `magnitude`.
inline void append_decimal(std::string& out, std::uint64_t magnitude, bool negative) {
  if (negative) out += '-';
  char digits[20];  // 2^64 - 1 has 20
  char* at = digits + sizeof digits;
  do {
    *--at = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  out.append(at, static_cast<std::size_t>(digits + sizeof digits - at));
}

}  // namespace handoff::core
