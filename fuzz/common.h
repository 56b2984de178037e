// Helpers shared by the fuzz targets. A failed invariant aborts with a message, which libFuzzer
// reports as a crash and saves the input.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "condition/json_state.h"

namespace fuzz {

using handoff::condition::Json;

[[noreturn]] inline void fail(const char* what, std::string_view detail = {}) {
  std::fprintf(stderr, "invariant failed: %s %.*s\n", what, static_cast<int>(detail.size()), detail.data());
  std::abort();
}

#define FUZZ_CHECK(cond, detail) \
  do {                           \
    if (!(cond)) ::fuzz::fail(#cond, detail); \
  } while (0)

// The core's reader (nlohmann's parse() would abort on invalid JSON): a discarded value for it.
inline Json parse_json(std::string_view text) { return handoff::core::parse_json(text).value; }

// States that reach every kind of value at the names the seed conditions use.
inline const Json& fixed_states() {
  static const Json states = parse_json(R"([
    {},
    null,
    [1, 2, 3],
    {"x": 1, "y": "a", "z": [1, "a", null, true, {"k": 2}], "a": {"b": {"c": [0, -1, 2.5]}},
     "category": "billing", "tags": ["urgent", "vip"], "priority": 4, "user": {"tier": "gold"},
     "messages": [{"role": "user", "content": "hi"}], "s": "", "t": true, "f": false, "n": null,
     "meta": {"content-type": "json", "7": "seven", "": "empty"}, "e": [], "o": {}},
    {"x": "1", "y": 1e308, "z": "a", "a": [[[[[[]]]]]], "x.y": 3, "__proto__": {"x": 1},
     "constructor": "c", "toString": 0, "tags": "urgent", "priority": -0.0}
  ])");
  return states;
}

}  // namespace fuzz
