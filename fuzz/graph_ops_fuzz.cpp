// Sequences of graph operations, with invariants checked after each:
//   * a rejected add_node/add_edge changes nothing (definition::to_json before == after);
//   * under onCycle 'error' an edge is refused as a cycle exactly when the reference search finds
//     a path back from `to` to `from`, the reported cycle is made of real edges, and the graph
//     stays acyclic; is_dag() always agrees with a reference depth-first search;
//   * route() agrees with explain() and with evaluating each edge's condition on its own;
//   * the definition round-trips through graph_from_json.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common.h"
#include "condition/condition.h"
#include "export/definition.h"
#include "graph/handoff_graph.h"

using handoff::graph::CyclePolicy;
using handoff::graph::EdgeError;
using handoff::graph::HandoffGraph;
using handoff::graph::NodeId;

namespace {

// One operation per line, fields separated by tabs (fuzz/seed.mjs writes them from the graph vectors):
//   N id [description]            add_node
//   E from to [when [description]] add_edge (no `when` field: unconditional)
//   R node [state-JSON]           route and explain, checked against a reference
//   D                             is_dag, checked against a reference
//   J                             the definition round-trips
// The first line is the cycle policy: "allow", anything else is "error".
std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (std::size_t at = 0;;) {
    std::size_t next = text.find(separator, at);
    parts.push_back(text.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
    if (next == std::string_view::npos) return parts;
    at = next + 1;
  }
}

// Whether `to` reaches `from` along existing edges (so from -> to would close a cycle).
bool reaches(const HandoffGraph& g, NodeId start, NodeId goal) {
  std::vector<bool> seen(g.size());
  std::vector<NodeId> stack{start};
  seen[start] = true;
  while (!stack.empty()) {
    NodeId n = stack.back();
    stack.pop_back();
    if (n == goal) return true;
    for (std::uint32_t e : g.out_edges(n)) {
      NodeId next = g.edges()[e].to;
      if (!seen[next]) {
        seen[next] = true;
        stack.push_back(next);
      }
    }
  }
  return false;
}

// Depth-first search with three colours: a grey node reached again closes a cycle. (is_dag()
// itself uses Kahn's algorithm.)
bool reference_is_dag(const HandoffGraph& g) {
  enum : std::uint8_t { kWhite, kGrey, kBlack };
  std::vector<std::uint8_t> colour(g.size(), kWhite);
  std::vector<std::pair<NodeId, std::size_t>> stack;  // node, next outgoing edge to follow
  for (NodeId root = 0; root < g.size(); ++root) {
    if (colour[root] != kWhite) continue;
    colour[root] = kGrey;
    stack.emplace_back(root, 0);
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      const auto& out = g.out_edges(node);
      if (next == out.size()) {
        colour[node] = kBlack;
        stack.pop_back();
        continue;
      }
      NodeId to = g.edges()[out[next++]].to;
      if (colour[to] == kGrey) return false;
      if (colour[to] == kWhite) {
        colour[to] = kGrey;
        stack.emplace_back(to, 0);
      }
    }
  }
  return true;
}

bool has_edge(const HandoffGraph& g, const std::string& from, const std::string& to) {
  NodeId f = g.find(from);
  if (f == handoff::graph::kNoNode) return false;
  for (std::uint32_t e : g.out_edges(f)) {
    if (g.name(g.edges()[e].to) == to) return true;
  }
  return false;
}

void check_route(const HandoffGraph& g, const std::string& node, const fuzz::Json& state) {
  std::optional<std::string> routed = g.route(node, state);
  NodeId id = g.find(node);
  if (id == handoff::graph::kNoNode) {
    FUZZ_CHECK(!routed, "an unknown node routes nowhere");
    return;
  }
  // Reference: each edge's condition compiled afresh and evaluated on its own.
  std::optional<std::string> expected;
  for (std::uint32_t e : g.out_edges(id)) {
    const auto& edge = g.edges()[e];
    bool matched = true;
    if (edge.condition) {
      handoff::condition::Interner strings;
      auto again = handoff::condition::Condition::compile(edge.condition->source(), strings);
      FUZZ_CHECK(again.ok(), edge.condition->source());
      matched = handoff::condition::evaluate(again.value(), state, strings);
    }
    if (matched) {
      expected = g.name(edge.to);
      break;
    }
  }
  FUZZ_CHECK(routed == expected, node);

  handoff::condition::JsonStateWriter writer(g.strings());
  writer.write(state, g.route_paths(id));
  std::vector<handoff::graph::EdgeTrace> trace;
  std::int32_t winner = g.explain(id, writer.slots().data(), trace);
  FUZZ_CHECK(winner == g.route(id, writer.slots().data()), "explain agrees with route");
  FUZZ_CHECK(trace.size() == g.out_edges(id).size(), "one trace entry per edge");
  for (std::size_t i = 0; i < trace.size(); ++i) {
    bool before = winner < 0 || static_cast<std::int32_t>(i) <= winner;
    FUZZ_CHECK(trace[i].evaluated == before, "evaluated up to the winner");
    FUZZ_CHECK(trace[i].matched == (static_cast<std::int32_t>(i) == winner), "only the winner matched");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string_view> lines = split({reinterpret_cast<const char*>(data), size}, '\n');
  const CyclePolicy policy = lines.front() == "allow" ? CyclePolicy::Allow : CyclePolicy::Error;
  HandoffGraph g(policy);

  for (std::size_t line = 1; line < lines.size() && line <= 256; ++line) {
    std::vector<std::string_view> fields = split(lines[line], '\t');
    auto field = [&](std::size_t i) { return i < fields.size() ? std::string(fields[i]) : std::string(); };
    const std::string op = field(0);
    if (op == "N") {
      std::string id = field(1);
      std::string description = field(2);
      fuzz::Json before = handoff::definition::to_json(g);
      auto added = g.add_node(id, description);
      if (!added) {
        FUZZ_CHECK(id.empty(), added.error().message);
        FUZZ_CHECK(handoff::definition::to_json(g) == before, "a rejected add_node changes nothing");
      } else {
        FUZZ_CHECK(g.name(added.value()) == id, id);
        if (!description.empty()) FUZZ_CHECK(g.description(added.value()) == description, id);
      }
    } else if (op == "E") {
      std::string from = field(1);
      std::string to = field(2);
      std::optional<std::string> when;
      if (fields.size() > 3) when = field(3);
      std::string description = field(4);
      fuzz::Json before = handoff::definition::to_json(g);
      std::size_t edges = g.edges().size();
      std::size_t nodes = g.size();
      NodeId f = g.find(from);
      NodeId t = g.find(to);
      bool closes_cycle = !from.empty() && !to.empty() &&
                          (from == to || (f != handoff::graph::kNoNode && t != handoff::graph::kNoNode && reaches(g, t, f)));
      bool parses = true;
      if (when) {
        handoff::condition::Interner strings;
        parses = handoff::condition::Condition::compile(*when, strings).ok();
      }
      auto added = g.add_edge(from, to, when ? std::optional<std::string_view>(*when) : std::nullopt, description);
      if (added) {
        FUZZ_CHECK(parses && !from.empty() && !to.empty(), from + " -> " + to);
        FUZZ_CHECK(policy == CyclePolicy::Allow || !closes_cycle, from + " -> " + to + " closes a cycle");
        FUZZ_CHECK(g.edges().size() == edges + 1, "one edge added");
        FUZZ_CHECK(g.has_node(from) && g.has_node(to), "endpoints exist");
        continue;
      }
      const EdgeError& error = added.error();
      FUZZ_CHECK(handoff::definition::to_json(g) == before, "a rejected add_edge changes nothing");
      FUZZ_CHECK(g.edges().size() == edges && g.size() == nodes, "a rejected add_edge adds nothing");
      switch (error.kind) {
        case EdgeError::Kind::Argument: FUZZ_CHECK(from.empty() || to.empty(), error.message); break;
        case EdgeError::Kind::Syntax: FUZZ_CHECK(!parses, error.message); break;
        case EdgeError::Kind::Cycle: {
          FUZZ_CHECK(policy == CyclePolicy::Error && parses && closes_cycle, error.message);
          const auto& cycle = error.cycle;
          FUZZ_CHECK(cycle.size() >= 2 && cycle.front() == from && cycle.back() == from && cycle[1] == to, error.message);
          for (std::size_t i = 1; i + 1 < cycle.size(); ++i) {
            FUZZ_CHECK(has_edge(g, cycle[i], cycle[i + 1]), cycle[i] + " -> " + cycle[i + 1]);
          }
          break;
        }
      }
    } else if (op == "R") {
      fuzz::Json state = fuzz::parse_json(field(2));
      if (state.is_discarded()) state = nullptr;
      check_route(g, field(1), state);
      const fuzz::Json& fixed = fuzz::fixed_states();
      check_route(g, field(1), fixed[line % fixed.size()]);
    } else if (op == "D") {
      bool dag = g.is_dag();
      FUZZ_CHECK(dag == reference_is_dag(g), "is_dag agrees with the reference");
      if (policy == CyclePolicy::Error) FUZZ_CHECK(dag, "onCycle 'error' keeps the graph acyclic");
    } else if (op == "J") {
      fuzz::Json definition = handoff::definition::to_json(g);
      auto loaded = handoff::definition::graph_from_json(definition);
      FUZZ_CHECK(loaded.ok(), handoff::definition::describe(loaded.error()));
      FUZZ_CHECK(handoff::definition::to_json(loaded.value()) == definition, "the definition round-trips");
    }
  }
  FUZZ_CHECK(g.is_dag() == reference_is_dag(g), "is_dag agrees with the reference");
  if (policy == CyclePolicy::Error) FUZZ_CHECK(g.is_dag(), "onCycle 'error' keeps the graph acyclic");
  return 0;
}
