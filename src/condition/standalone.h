// A condition that owns its string table, for conditions used on their own (compileCondition)
// rather than on a graph's edges.
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "condition/condition.h"

namespace handoff::condition {

class StandaloneCondition {
 public:
  Expected<void, SyntaxError> compile(std::string_view source) {
    if (strings_->size() > 0) strings_ = std::make_unique<Interner>();  // a new table for a recompile
    auto compiled = Condition::compile(source, *strings_);
    if (!compiled) return unexpected(compiled.error());
    condition_.emplace(std::move(compiled.value()));
    return {};
  }

  bool compiled() const { return condition_.has_value(); }
  const Condition& condition() const { return *condition_; }
  const Interner& strings() const { return *strings_; }

 private:
  std::unique_ptr<Interner> strings_ = std::make_unique<Interner>();  // conditions point at it
  std::optional<Condition> condition_;
};

}  // namespace handoff::condition
