// Marshals a JSON state (core/json.h) onto a tape: the native twin of the JavaScript
// marshaller in js/state-writer.js. Both resolve the same paths with the same rules and write the same
// cells, so a condition gives the same answer whichever runtime holds the state.
#pragma once

#include <cstdint>
#include <vector>

#include "condition/condition.h"
#include "condition/path.h"
#include "condition/value.h"
#include "core/json.h"

namespace handoff::condition {

using Json = json::Value;

// The value at `path`, or nullptr when a step finds nothing (missing reads as null).
const Json* resolve(const Json& state, const Path& path);

class JsonStateWriter final : public SlotReader {
 public:
  explicit JsonStateWriter(const Interner& strings) : strings_(strings) {}

  // Clears the tape, then writes the value at each path; slots()[i] is the value at paths[i],
  // valid until the next write.
  void write(const Json& state, const std::vector<Path>& paths);

  // Clears the tape and leaves every slot unread: read(i) (the SlotReader a lazy route or
  // evaluation is given) writes the value at paths[i] when it is first needed, as js/state-writer.js
  // does, so that the budgets below count the paths in the order they are read. `state` and
  // `paths` must outlive the reads.
  void begin(const Json& state, const std::vector<Path>& paths);
  ValueRef read(std::uint32_t slot) override;

  const std::vector<ValueRef>& slots() const { return slots_; }

 private:
  void write_value(const Json& value, int depth);
  // Writes the value at `path` as the next path's value; returns its first cell.
  std::uint32_t write_path(const Json& state, const Path& path);

  const Interner& strings_;
  TapeBuilder tape_;
  TapeView view_;
  std::vector<ValueRef> slots_;
  const Json* state_ = nullptr;
  const std::vector<Path>* paths_ = nullptr;
  std::uint32_t path_start_ = 0;  // the first cell of the path being written
  bool exhausted_ = false;
  std::uint32_t work_ = 0;
};

// Convenience for tests and tools: evaluate `condition` on a JSON state.
bool evaluate(const Condition& condition, const Json& state, const Interner& strings);

}  // namespace handoff::condition
