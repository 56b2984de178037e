// Building and inspecting a HandoffGraph: nodes, edges, the routing plan, cycle checks, names.
// Apart from src/graph/handoff_graph.cpp, which holds what a route runs, so that a build can
// optimise the two differently: the routing module (CMakeLists.txt) compiles this file for size
// and that one for speed (issue 21: -Oz here took 5.6 KB gzipped off the module).
#include "graph/handoff_graph.h"

#include <algorithm>


namespace handoff::graph {

using condition::Condition;

HandoffGraph::HandoffGraph(CyclePolicy policy)
    : policy_(policy), strings_(std::make_unique<condition::Interner>()) {}

std::string_view HandoffGraph::node_name(const void* nodes, std::uint32_t node) {
  return (*static_cast<const std::vector<Node>*>(nodes))[node].name;
}
std::string_view HandoffGraph::path_text(const void* texts, std::uint32_t slot) {
  return (*static_cast<const std::vector<std::string>*>(texts))[slot];
}

NodeId HandoffGraph::find(std::string_view id) const {
  std::uint32_t node = ids_.find(id, &nodes_, node_name);
  return node == StringIndex::kAbsent ? kNoNode : node;
}

static EdgeError argument_error(std::string message) {
  EdgeError error;
  error.kind = EdgeError::Kind::Argument;
  error.message = std::move(message);
  return error;
}

Expected<NodeId, EdgeError> HandoffGraph::add_node(std::string_view id, std::string_view description) {
  if (id.empty()) return unexpected(argument_error("a node id must be a non-empty string"));
  NodeId node = find(id);
  if (node == kNoNode) node = create_node(id, false);
  if (!description.empty()) nodes_[node].description = description;
  return node;
}

// A node that appears first as an edge's source goes before every other node in the order, and
// one that appears first as a target after every other, so an edge that brings a new endpoint
// never needs reordering: building a chain forwards or backwards is O(1) per edge.
NodeId HandoffGraph::create_node(std::string_view id, bool as_source) {
  auto node = static_cast<NodeId>(nodes_.size());
  Node n;
  n.name = id;
  n.order = as_source ? --lowest_order_ : ++highest_order_;
  nodes_.push_back(std::move(n));
  ids_.insert(id, node, &nodes_, node_name);
  seen_.push_back(0);
  return node;
}

Expected<void, EdgeError> HandoffGraph::add_edge(std::string_view from, std::string_view to,
                                                 std::optional<std::string_view> when,
                                                 std::string_view description) {
  if (from.empty() || to.empty()) return unexpected(argument_error("a node id must be a non-empty string"));

  std::optional<Condition> condition;
  if (when) {
    // A rejected edge may leave its literals interned; the interner is a cache, not graph state.
    auto compiled = Condition::compile(*when, *strings_);
    if (!compiled) {
      EdgeError error;
      error.kind = EdgeError::Kind::Syntax;
      error.message = compiled.error().message;
      error.syntax = compiled.error();
      return unexpected(std::move(error));
    }
    condition.emplace(std::move(compiled.value()));
  }

  NodeId source = find(from);
  NodeId target = find(to);
  if (policy_ == CyclePolicy::Error) {
    std::vector<std::string> cycle;
    if (from == to) {
      cycle.assign(2, std::string(from));  // a self-loop: from, from
    } else if (source != kNoNode && target != kNoNode && !order_allows(source, target)) {
      cycle = shortest_cycle(source, target);
    }
    if (!cycle.empty()) {
      EdgeError error;
      error.kind = EdgeError::Kind::Cycle;
      error.message.append("adding edge '").append(from).append("' -> '").append(to).append("' would create a cycle");
      error.cycle = std::move(cycle);
      return unexpected(std::move(error));
    }
  }

  if (source == kNoNode) source = create_node(from, true);
  if (target == kNoNode) target = from == to ? source : create_node(to, false);

  Node& node = nodes_[source];
  if (condition) {
    std::vector<std::uint32_t> slots;
    for (const condition::Path& path : condition->paths()) {
      const auto next = static_cast<std::uint32_t>(node.paths.size());
      node.path_texts.push_back(path.text());
      std::uint32_t slot = node.slot_of_path.insert(node.path_texts.back(), next, &node.path_texts, path_text);
      if (slot == next) {
        node.paths.push_back(path);
      } else {
        node.path_texts.pop_back();
      }
      slots.push_back(slot);
    }
    condition->bind_slots(slots);
  }
  Edge edge{source, target, std::move(condition), std::string(description)};
  plan_edge(node, edge, static_cast<std::uint32_t>(node.out.size()));
  node.out.push_back(static_cast<std::uint32_t>(edges_.size()));
  nodes_[target].in.push_back(source);
  edges_.push_back(std::move(edge));
  return {};
}

std::vector<std::uint8_t> HandoffGraph::text_levels(NodeId node) const {
  std::vector<std::uint8_t> levels(nodes_[node].paths.size(), Condition::kTextNone);
  for (std::uint32_t e : nodes_[node].out) {
    if (edges_[e].condition) edges_[e].condition->text_levels(levels);
  }
  return levels;
}

void HandoffGraph::add_to_switch(Switch& sw, const std::vector<condition::ScalarKey>& keys, std::uint32_t position) {
  for (const condition::ScalarKey& key : keys) {
    bool inserted;
    std::uint32_t& value = sw.table.find_or_insert(key, position, inserted);
    if (inserted) continue;
    if ((value & Switch::kMany) == 0) {
      if (value == position) continue;  // a key listed twice by one edge
      sw.many.push_back({value, position});
      value = Switch::kMany | static_cast<std::uint32_t>(sw.many.size() - 1);
    } else if (std::vector<std::uint32_t>& list = sw.many[value & ~Switch::kMany]; list.back() != position) {
      list.push_back(position);
    }
  }
}

// Extends the node's routing plan by `edge`, its out edge at `position` (the last), in O(the
// edge's keys): an edge guarded by the same slot as the edge before joins that edge's switch, or
// makes one with it; any other edge is tried on its own.
void HandoffGraph::plan_edge(Node& node, Edge& edge, std::uint32_t position) {
  Condition::Guard guard;
  if (!edge.condition || !edge.condition->guard(guard)) return;
  edge.guard_slot = guard.slot;
  edge.exact = guard.exact;
  if (position == 0) return;
  Edge& previous = edges_[node.out[position - 1]];
  if (previous.guard_slot != guard.slot) return;
  if (previous.switch_index == kNoSwitch) {
    Condition::Guard first;
    previous.condition->guard(first);
    Switch sw;
    sw.slot = guard.slot;
    sw.first = position - 1;
    add_to_switch(sw, first.keys, position - 1);
    previous.switch_index = static_cast<std::uint32_t>(node.switches.size());
    node.switches.push_back(std::move(sw));
  }
  Switch& sw = node.switches[previous.switch_index];
  add_to_switch(sw, guard.keys, position);
  sw.last = position;
  edge.switch_index = previous.switch_index;
}

void HandoffGraph::next_epoch() const {
  if (++epoch_ == 0) {  // wrapped: forget every old mark
    std::fill(seen_.begin(), seen_.end(), 0);
    epoch_ = 1;
  }
}

// Pearce-Kelly: if `from` already precedes `to`, nothing to do. Otherwise search forward from `to`
// and backward from `from`, only among nodes whose positions lie between the two; reaching `from`
// means a cycle. Else move the backward set before the forward set, reusing their positions.
bool HandoffGraph::order_allows(NodeId from, NodeId to) {
  const std::int64_t lower = nodes_[to].order;
  const std::int64_t upper = nodes_[from].order;
  if (upper < lower) return true;

  next_epoch();
  forward_.clear();
  stack_.assign(1, to);
  seen_[to] = epoch_;
  while (!stack_.empty()) {
    NodeId n = stack_.back();
    stack_.pop_back();
    forward_.push_back(n);
    for (std::uint32_t e : nodes_[n].out) {
      NodeId next = edges_[e].to;
      if (next == from) return false;
      if (seen_[next] != epoch_ && nodes_[next].order < upper) {
        seen_[next] = epoch_;
        stack_.push_back(next);
      }
    }
  }

  backward_.clear();
  stack_.assign(1, from);
  seen_[from] = epoch_;
  while (!stack_.empty()) {
    NodeId n = stack_.back();
    stack_.pop_back();
    backward_.push_back(n);
    for (NodeId prev : nodes_[n].in) {
      if (seen_[prev] != epoch_ && nodes_[prev].order > lower) {
        seen_[prev] = epoch_;
        stack_.push_back(prev);
      }
    }
  }

  // Positions are distinct, so the sort's order is the only one.
  auto by_order = [this](NodeId a, NodeId b) { return nodes_[a].order < nodes_[b].order; };
  std::sort(forward_.begin(), forward_.end(), by_order);
  std::sort(backward_.begin(), backward_.end(), by_order);
  // The positions both sets hold, in order: a merge of the two sorted sets (no third sort).
  std::vector<std::int64_t> positions(forward_.size() + backward_.size());
  std::merge(backward_.begin(), backward_.end(), forward_.begin(), forward_.end(), positions.begin(), by_order);
  for (std::int64_t& position : positions) position = nodes_[static_cast<NodeId>(position)].order;
  std::size_t i = 0;
  for (NodeId n : backward_) nodes_[n].order = positions[i++];
  for (NodeId n : forward_) nodes_[n].order = positions[i++];
  return true;
}

// The cycle an edge from -> to would close, along a shortest path from `to` back to `from`
// (breadth-first, each node's edges in insertion order, so ties go to the older edge).
std::vector<std::string> HandoffGraph::shortest_cycle(NodeId from, NodeId to) const {
  std::vector<NodeId> parent(nodes_.size(), kNoNode);
  std::vector<NodeId> queue{to};  // breadth-first: read at `head`, appended at the back
  parent[to] = to;
  for (std::size_t head = 0; head < queue.size() && parent[from] == kNoNode;) {
    NodeId n = queue[head++];
    for (std::uint32_t e : nodes_[n].out) {
      NodeId next = edges_[e].to;
      if (parent[next] == kNoNode) {
        parent[next] = n;
        queue.push_back(next);
      }
    }
  }
  std::vector<std::string> cycle;
  for (NodeId n = from; n != to; n = parent[n]) cycle.push_back(nodes_[n].name);
  cycle.push_back(nodes_[to].name);
  cycle.push_back(nodes_[from].name);
  std::reverse(cycle.begin(), cycle.end());
  return cycle;
}

bool HandoffGraph::is_dag() const {
  // Kahn's algorithm: O(nodes + edges), whatever the policy.
  std::vector<std::uint32_t> incoming(nodes_.size());
  std::vector<NodeId> ready;
  for (NodeId n = 0; n < nodes_.size(); ++n) {
    incoming[n] = static_cast<std::uint32_t>(nodes_[n].in.size());
    if (incoming[n] == 0) ready.push_back(n);
  }
  std::size_t done = 0;
  while (!ready.empty()) {
    NodeId n = ready.back();
    ready.pop_back();
    ++done;
    for (std::uint32_t e : nodes_[n].out) {
      if (--incoming[edges_[e].to] == 0) ready.push_back(edges_[e].to);
    }
  }
  return done == nodes_.size();
}

std::vector<std::string> HandoffGraph::node_names() const {
  std::vector<std::string> names;
  names.reserve(nodes_.size());
  for (const Node& n : nodes_) names.push_back(n.name);
  std::sort(names.begin(), names.end());  // names are unique
  return names;
}

}  // namespace handoff::graph
