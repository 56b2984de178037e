// Any bytes as a condition. Compiling must not crash; a syntax error must point inside the source
// and say where; a compiled condition must report sorted, distinct paths and evaluate (on a few
// fixed states) without crashing, the same way twice, and the same way as its negation negated.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common.h"
#include "condition/condition.h"
#include "condition/json_state.h"
#include "condition/unicode.h"

using handoff::condition::Condition;
using handoff::condition::Interner;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view source(reinterpret_cast<const char*>(data), size);
  Interner strings;
  auto compiled = Condition::compile(source, strings);
  if (!compiled) {
    const auto& error = compiled.error();
    std::size_t utf16_length = handoff::condition::unicode::utf16_offset(source, source.size());
    FUZZ_CHECK(error.index <= utf16_length, error.message);
    std::string suffix = " at column " + std::to_string(error.index + 1);
    FUZZ_CHECK(error.message.size() > suffix.size() &&
                   error.message.compare(error.message.size() - suffix.size(), suffix.size(), suffix) == 0,
               error.message);
    return 0;
  }
  const Condition& condition = compiled.value();
  FUZZ_CHECK(condition.source() == source, "source kept");
  const auto& paths = condition.paths();
  for (std::size_t i = 1; i < paths.size(); ++i) {
    FUZZ_CHECK(paths[i - 1].text() < paths[i].text(), paths[i].text());
  }
  for (const auto& path : paths) FUZZ_CHECK(!path.steps.empty(), "a path has a step");

  // `not (source)` is the negation whenever it still fits the nesting limit.
  Interner negated_strings;
  auto negated = Condition::compile("not (" + std::string(source) + ")", negated_strings);

  handoff::condition::JsonStateWriter writer(strings);
  for (const fuzz::Json& state : fuzz::fixed_states()) {
    writer.write(state, paths);
    bool first = condition.evaluate(writer.slots().data());
    bool second = condition.evaluate(writer.slots().data());
    FUZZ_CHECK(first == second, "deterministic");
    FUZZ_CHECK(first == handoff::condition::evaluate(condition, state, strings), "writer reuse");
    if (negated) {
      FUZZ_CHECK(handoff::condition::evaluate(negated.value(), state, negated_strings) == !first, source);
    }
  }
  return 0;
}
