// A random condition on a random JSON state. The input is `condition \0 state-as-JSON`; an input
// without a NUL, or whose state is not JSON, is evaluated on null. The state goes through
// JsonStateWriter (the native twin of the JS marshaller), then:
//   * evaluating twice, and on a fresh writer, gives the same answer;
//   * `not (c)` gives the opposite answer;
//   * routing a graph whose edge carries `c` agrees with evaluating `c`.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common.h"
#include "condition/condition.h"
#include "condition/json_state.h"
#include "graph/handoff_graph.h"

using handoff::condition::Condition;
using handoff::condition::Interner;
using handoff::condition::JsonStateWriter;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::size_t nul = input.find('\0');
  std::string_view source = input.substr(0, nul);
  fuzz::Json state;  // null
  if (nul != std::string_view::npos) {
    state = fuzz::parse_json(input.substr(nul + 1));
    if (state.is_discarded()) state = nullptr;
  }

  Interner strings;
  auto compiled = Condition::compile(source, strings);
  if (!compiled) return 0;
  const Condition& condition = compiled.value();

  JsonStateWriter writer(strings);
  writer.write(state, condition.paths());
  FUZZ_CHECK(writer.slots().size() == condition.paths().size(), "one slot per path");
  bool result = condition.evaluate(writer.slots().data());
  FUZZ_CHECK(condition.evaluate(writer.slots().data()) == result, "deterministic");
  writer.write(state, condition.paths());  // the writer is reused across evaluations
  FUZZ_CHECK(condition.evaluate(writer.slots().data()) == result, "writer reuse");
  FUZZ_CHECK(handoff::condition::evaluate(condition, state, strings) == result, "fresh writer");

  Interner negated_strings;
  auto negated = Condition::compile("not (" + std::string(source) + ")", negated_strings);
  if (negated) {
    FUZZ_CHECK(handoff::condition::evaluate(negated.value(), state, negated_strings) == !result, source);
  }

  // The same condition on a graph edge: the node's slot table is shared by its edges.
  handoff::graph::HandoffGraph graph;
  FUZZ_CHECK(graph.add_edge("a", "b", "x == 1 or y").ok(), "seed edge");
  FUZZ_CHECK(graph.add_edge("a", "c", source).ok(), "a condition that compiled compiles again");
  FUZZ_CHECK(graph.add_edge("a", "d").ok(), "default edge");
  auto routed = graph.route("a", state);
  FUZZ_CHECK(routed.has_value(), "the default edge always matches");
  if (*routed != "b") FUZZ_CHECK((*routed == "c") == result, source);
  return 0;
}
