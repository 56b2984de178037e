// The HandoffGraph class as JavaScript sees it, in both WebAssembly modules: an embind table over
// src/graph/, as yoga's embind.cpp binds its Node. Each method translates one core call; the route
// itself is the raw hg_route (route_exports.cpp), since it runs once per decision. js/api.js wraps
// this class with the package's idioms (options, errors, disposal).
#include <emscripten/bind.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "export/definition.h"
#include "graph/handoff_graph.h"
#include "js_values.h"
#include "route_exports.h"

namespace {

using emscripten::val;
using handoff::bindings::Json;
using handoff::bindings::to_js;
using handoff::graph::HandoffGraph;
using handoff::graph::NodeId;

HandoffGraph* make_graph(bool allow_cycles) {
  return new HandoffGraph(allow_cycles ? handoff::graph::CyclePolicy::Allow : handoff::graph::CyclePolicy::Error);
}

// null, or { kind, message, index | cycle } (an EdgeError).
val add_node(HandoffGraph& g, const std::string& id, const std::string& description) {
  auto added = g.add_node(id, description);
  return added ? val::null() : to_js(handoff::bindings::edge_error_json(added.error()));
}

// `when` is the condition's source, or undefined for an edge that always matches.
val add_edge(HandoffGraph& g, const std::string& from, const std::string& to, const val& when,
             const std::string& description) {
  std::optional<std::string> source;
  if (!when.isUndefined()) source = when.as<std::string>();
  auto added = g.add_edge(from, to, source ? std::optional<std::string_view>(*source) : std::nullopt, description);
  return added ? val::null() : to_js(handoff::bindings::edge_error_json(added.error()));
}

// The node's index, or -1.
std::int32_t find(const HandoffGraph& g, const std::string& id) {
  NodeId node = g.find(id);
  return node == handoff::graph::kNoNode ? -1 : static_cast<std::int32_t>(node);
}

val out_edges(const HandoffGraph& g, NodeId node) { return to_js(handoff::bindings::out_edges_json(g, node)); }

val route_paths(const HandoffGraph& g, NodeId node) {
  return to_js(node < g.size() ? handoff::bindings::paths_json(g.route_paths(node)) : Json::array());
}

val node_names(const HandoffGraph& g) { return to_js(Json(g.node_names())); }

bool allows_cycles(const HandoffGraph& g) { return g.cycle_policy() == handoff::graph::CyclePolicy::Allow; }

std::uint32_t size(const HandoffGraph& g) { return static_cast<std::uint32_t>(g.size()); }

val strings_since(const HandoffGraph& g, std::uint32_t from) {
  return to_js(handoff::bindings::strings_since_json(g, from));
}

// [evaluated, matched, evaluated, matched, ...] per outgoing edge, on the state marshalled as for
// a route (slot `first` before the call), every other slot asked for, in order.
val explain(const HandoffGraph& g, NodeId node, std::uint32_t cell_count, std::uint32_t first) {
  Json out = Json::array();
  if (node < g.size()) {
    std::vector<handoff::graph::EdgeTrace> trace;
    handoff::route_exports::explain(g, node, cell_count, first, trace);
    for (const auto& t : trace) {
      out.push_back(t.evaluated);
      out.push_back(t.matched);
    }
  }
  return to_js(out);
}

// The definition text (the core's normal form).
std::string to_json(const HandoffGraph& g) { return handoff::bindings::text_of(handoff::definition::to_json(g)); }

// Replaces the graph with the one the definition describes; null, or [{ pointer, message }].
val load_json(HandoffGraph& g, const std::string& definition) {
  return handoff::bindings::load_definition(definition, handoff::definition::graph_from_json,
                                            [&](HandoffGraph&& loaded) { g = std::move(loaded); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(handoff_graph) {
  using namespace emscripten;
  class_<HandoffGraph>("HandoffGraph")
      .constructor(&make_graph, allow_raw_pointers())
      .function("address", &handoff::bindings::address_of<HandoffGraph>)
      .function("addNode", &add_node)
      .function("addEdge", &add_edge)
      .function("find", &find)
      .function("outEdges", &out_edges)
      .function("routePaths", &route_paths)
      .function("nodeNames", &node_names)
      .function("allowsCycles", &allows_cycles)
      .function("size", &size)
      .function("isDag", &HandoffGraph::is_dag)
      .function("stringsSince", &strings_since)
      .function("explain", &explain)
      .function("toJSON", &to_json)
      .function("loadJSON", &load_json);
}
