// What a route runs (HandoffGraph::route and explain); building the graph is in
// handoff_graph_build.cpp, so that each can be compiled for what it needs (CMakeLists.txt).
#include "graph/handoff_graph.h"

namespace handoff::graph {

using condition::Condition;

// The first edge in order whose condition holds, by the plan: an edge outside a switch is
// evaluated; a switch looks its slot's value up and evaluates only the edges whose guard accepts
// it, in order (the others' conditions are false), skipping even that for edges that are exactly
// their guard, then goes on after its last edge.
std::int32_t HandoffGraph::route(NodeId node, const condition::ValueRef* slots, condition::SlotReader* reader) const {
  const Node& n = nodes_[node];
  const auto count = static_cast<std::uint32_t>(n.out.size());
  for (std::uint32_t i = 0; i < count; ++i) {
    const Edge& edge = edges_[n.out[i]];
    if (edge.switch_index == kNoSwitch) {
      if (!edge.condition || edge.condition->evaluate(slots, reader)) return static_cast<std::int32_t>(i);
      continue;
    }
    const Switch& sw = n.switches[edge.switch_index];
    i = sw.last;
    condition::ScalarKey key;
    condition::ValueRef value = slots[sw.slot];
    if (value.unread()) value = reader->read(sw.slot);
    if (!condition::scalar_key(value, *strings_, key)) continue;
    std::uint32_t found = sw.table.find(key);
    if (found == condition::KeyTable::kAbsent) continue;
    if ((found & Switch::kMany) == 0) {
      const Edge& candidate = edges_[n.out[found]];
      if (candidate.exact || candidate.condition->evaluate(slots, reader)) return static_cast<std::int32_t>(found);
      continue;
    }
    for (std::uint32_t position : sw.many[found & ~Switch::kMany]) {
      const Edge& candidate = edges_[n.out[position]];
      if (candidate.exact || candidate.condition->evaluate(slots, reader)) return static_cast<std::int32_t>(position);
    }
  }
  return -1;
}

std::uint32_t HandoffGraph::first_read(NodeId node) const {
  const Node& n = nodes_[node];
  if (n.out.empty()) return Condition::kNoSlot;
  const Edge& edge = edges_[n.out[0]];
  if (edge.switch_index != kNoSwitch) return n.switches[edge.switch_index].slot;
  return edge.condition ? edge.condition->first_read() : Condition::kNoSlot;
}

std::int32_t HandoffGraph::explain(NodeId node, const condition::ValueRef* slots,
                                   std::vector<EdgeTrace>& trace) const {
  trace.clear();
  std::int32_t winner = -1;
  const std::vector<std::uint32_t>& out = nodes_[node].out;
  for (std::uint32_t i = 0; i < out.size(); ++i) {
    if (winner >= 0) {
      trace.push_back({i, false, false});
      continue;
    }
    const Edge& edge = edges_[out[i]];
    bool matched = !edge.condition || edge.condition->evaluate(slots);
    trace.push_back({i, true, matched});
    if (matched) winner = static_cast<std::int32_t>(i);
  }
  return winner;
}

std::optional<std::string> HandoffGraph::route(std::string_view node, const condition::Json& state) const {
  NodeId id = find(node);
  if (id == kNoNode) return std::nullopt;
  condition::JsonStateWriter writer(*strings_);
  writer.begin(state, nodes_[id].paths);
  std::int32_t index = route(id, writer.slots().data(), &writer);
  if (index < 0) return std::nullopt;
  return nodes_[edges_[nodes_[id].out[index]].to].name;
}

}  // namespace handoff::graph
