// Marshals a JSON state (nlohmann::ordered_json) onto a tape: the native twin of the JavaScript
// marshaller in js/marshal.js. Both resolve the same paths with the same rules and write the same
// cells, so a condition gives the same answer whichever runtime holds the state.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "condition/condition.h"
#include "condition/path.h"
#include "condition/value.h"

namespace handoff::condition {

using Json = nlohmann::ordered_json;

// The value at `path`, or nullptr when a step finds nothing (missing reads as null).
const Json* resolve(const Json& state, const Path& path);

class JsonStateWriter {
 public:
  explicit JsonStateWriter(const Interner& strings) : strings_(strings) {}

  // Clears the tape, then writes the value at each path; slots()[i] is the value at paths[i],
  // valid until the next write.
  void write(const Json& state, const std::vector<Path>& paths);

  const std::vector<ValueRef>& slots() const { return slots_; }

 private:
  void write_value(const Json& value, int depth);

  const Interner& strings_;
  TapeBuilder tape_;
  TapeView view_;
  std::vector<std::uint32_t> slot_cells_;
  std::vector<ValueRef> slots_;
  bool exhausted_ = false;
  std::uint32_t work_ = 0;
};

// Convenience for tests and tools: evaluate `condition` on a JSON state.
bool evaluate(const Condition& condition, const Json& state, const Interner& strings);

}  // namespace handoff::condition
