// A path into the state: `user.tier`, `messages[-1].role`, `meta['content-type']`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace handoff::condition {

struct PathStep {
  // An integer step indexes an array (negative counts from the end) and, on an object, reads the
  // key `key`, its canonical decimal text. A string step reads `key` from an object only.
  bool is_index = false;
  std::string key;
  std::int64_t index = 0;  // saturated: no array is that long
};

struct Path {
  std::vector<PathStep> steps;

  // Canonical text: `a.b`, `a['content-type']`, `a[7]`. Two paths read the same values exactly
  // when their texts are equal, so the text is also the path's identity.
  std::string text() const;
};

}  // namespace handoff::condition
