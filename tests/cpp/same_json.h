// Whether two JSON values are the same as values and as kinds, for the tests and the json fuzz
// target that hold the core's reader to nlohmann's own parser: nlohmann's == takes 1, 1u and 1.0
// for the same.
#pragma once

#include <cstddef>

#include "core/json.h"

namespace handoff::testing {

inline bool same_json(const json::Value& a, const json::Value& b) {
  if (a.type() != b.type() || a.size() != b.size()) return false;
  if (a.is_object()) {
    for (auto x = a.begin(), y = b.begin(); x != a.end(); ++x, ++y) {
      if (x.key() != y.key() || !same_json(*x, *y)) return false;
    }
    return true;
  }
  if (a.is_array()) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!same_json(a[i], b[i])) return false;
    }
    return true;
  }
  return a == b;
}

}  // namespace handoff::testing
