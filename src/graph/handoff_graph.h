// HandoffGraph: named nodes joined by ordered, optionally conditional edges; `route` picks the
// first outgoing edge whose condition holds (api.md, "HandoffGraph").
//
// Routing runs on a marshalled state (condition/value.h). Each node keeps one slot table, the
// union of the paths its edges' conditions read, so a caller marshals those paths once and the
// node's edges are tried in insertion order against the same tape.
//
// A node is compiled as a whole, not edge by edge: consecutive edges whose conditions each test
// one path against constants (`intent == 'refund'`, `country in [...]`, or an `and` holding such a
// test; condition.h, Guard) form a switch, decided by one hash lookup of that path's value, which
// leaves only the edges whose test can hold to be evaluated, in order. The answer is the one
// trying every edge in order gives (explain() still does that), only faster.
//
// With the cycle policy `Error`, the graph stays acyclic: it maintains a topological order
// incrementally (Pearce & Kelly, "A dynamic topological sort algorithm for directed acyclic
// graphs", 2007), so an edge that agrees with the order costs O(1) and one that does not searches
// only the nodes between its endpoints in that order, never the whole graph.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "condition/condition.h"
#include "condition/json_state.h"
#include "core/expected.h"
#include "core/string_index.h"

namespace handoff::graph {

enum class CyclePolicy : std::uint8_t { Error, Allow };

using NodeId = std::uint32_t;
inline constexpr NodeId kNoNode = 0xFFFFFFFFu;

// Why add_node or add_edge refused. The graph is unchanged when it does.
struct EdgeError {
  enum class Kind : std::uint8_t { Syntax, Cycle, Argument };
  Kind kind = Kind::Argument;
  std::string message;
  condition::SyntaxError syntax;   // Kind::Syntax
  std::vector<std::string> cycle;  // Kind::Cycle: from, to, …, from
};

struct Edge {
  NodeId from;
  NodeId to;
  std::optional<condition::Condition> condition;  // none: always matches
  std::string description;
  // The routing plan (HandoffGraph::route), kept on the edges so that it costs no allocation:
  // the switch this edge belongs to, the slot its condition's guard tests, and whether the
  // condition is exactly that guard.
  std::uint32_t switch_index = 0xFFFFFFFFu;
  std::uint32_t guard_slot = 0xFFFFFFFFu;
  bool exact = false;
};

struct EdgeTrace {
  std::uint32_t index;  // among the node's outgoing edges
  bool evaluated;
  bool matched;
};

class HandoffGraph {
 public:
  explicit HandoffGraph(CyclePolicy policy = CyclePolicy::Error);

  CyclePolicy cycle_policy() const { return policy_; }

  // Adds the node if it is new; a non-empty description replaces the stored one.
  Expected<NodeId, EdgeError> add_node(std::string_view id, std::string_view description = {});
  // Parses `when` (a syntax error), then applies the cycle policy (a cycle error); only then
  // creates missing nodes and the edge. Parallel edges are allowed.
  Expected<void, EdgeError> add_edge(std::string_view from, std::string_view to,
                                     std::optional<std::string_view> when = std::nullopt,
                                     std::string_view description = {});

  NodeId find(std::string_view id) const;
  bool has_node(std::string_view id) const { return find(id) != kNoNode; }
  std::size_t size() const { return nodes_.size(); }
  const std::string& name(NodeId node) const { return nodes_[node].name; }
  const std::string& description(NodeId node) const { return nodes_[node].description; }
  std::vector<std::string> node_names() const;  // sorted by code point
  // The node's outgoing edges, in insertion order, as indices into edges().
  const std::vector<std::uint32_t>& out_edges(NodeId node) const { return nodes_[node].out; }
  const std::vector<Edge>& edges() const { return edges_; }  // every edge, in insertion order
  bool is_dag() const;

  // The paths a route from `node` reads; slot i of the marshalled state holds paths[i].
  const std::vector<condition::Path>& route_paths(NodeId node) const { return nodes_[node].paths; }
  // Per route path: how much of its strings' text a writer must send (Condition::text_levels).
  std::vector<std::uint8_t> text_levels(NodeId node) const;
  const condition::Interner& strings() const { return *strings_; }

  // The position among `node`'s outgoing edges of the first that matches, or -1. `slots[i]` is
  // the value at route_paths(node)[i]; with a `reader`, a slot may be unread until the route
  // needs it (Condition::evaluate), so a route reads only the paths its decision needs.
  std::int32_t route(NodeId node, const condition::ValueRef* slots, condition::SlotReader* reader = nullptr) const;
  // The slot every route from `node` reads first, or Condition::kNoSlot: a lazy reader may read
  // it before the route starts without changing what is read or in which order.
  std::uint32_t first_read(NodeId node) const;
  // What route did, edge by edge; returns the winning position or -1.
  std::int32_t explain(NodeId node, const condition::ValueRef* slots, std::vector<EdgeTrace>& trace) const;

  // Routing on a JSON state (native callers and tests): the target's name, or nullopt.
  std::optional<std::string> route(std::string_view node, const condition::Json& state) const;

 private:
  static constexpr std::uint32_t kNoSwitch = 0xFFFFFFFFu;
  static constexpr std::uint32_t kNoSlot = 0xFFFFFFFFu;
  // A run of consecutive edges (positions first…last among the node's out edges) whose guards
  // test one slot. Keys of the slot's value → the positions of the edges whose guard accepts it,
  // ascending: a position, or kMany | index into `many` when there are several.
  struct Switch {
    static constexpr std::uint32_t kMany = 0x80000000u;
    std::uint32_t slot;
    std::uint32_t first;
    std::uint32_t last;
    condition::KeyTable table;
    std::vector<std::vector<std::uint32_t>> many;
  };

  struct Node {
    std::string name;
    std::string description;
    std::vector<std::uint32_t> out;  // edge indices, insertion order
    std::vector<NodeId> in;          // source of each incoming edge
    std::int64_t order = 0;          // topological position (policy Error only)
    std::vector<condition::Path> paths;
    std::vector<std::string> path_texts;  // paths[i].text(), by slot
    StringIndex slot_of_path;             // over path_texts
    std::vector<Switch> switches;  // the routing plan's switches (route()); most nodes have none
  };

  // The keys of ids_ and of a node's slot_of_path, for StringIndex.
  static std::string_view node_name(const void* nodes, std::uint32_t node);
  static std::string_view path_text(const void* texts, std::uint32_t slot);

  void plan_edge(Node& node, Edge& edge, std::uint32_t position);
  static void add_to_switch(Switch& sw, const std::vector<condition::ScalarKey>& keys, std::uint32_t position);

  NodeId create_node(std::string_view id, bool as_source);
  bool order_allows(NodeId from, NodeId to);
  std::vector<std::string> shortest_cycle(NodeId from, NodeId to) const;
  void next_epoch() const;

  CyclePolicy policy_;
  std::vector<Node> nodes_;
  StringIndex ids_;  // over the nodes' names
  std::vector<Edge> edges_;
  std::unique_ptr<condition::Interner> strings_;  // conditions point at it: keep its address fixed
  std::int64_t lowest_order_ = 0;
  std::int64_t highest_order_ = 0;
  // Scratch for the order searches, reused so that adding an edge allocates nothing in steady state.
  mutable std::vector<std::uint32_t> seen_;
  mutable std::uint32_t epoch_ = 0;
  std::vector<NodeId> forward_;
  std::vector<NodeId> backward_;
  std::vector<NodeId> stack_;
};

}  // namespace handoff::graph
