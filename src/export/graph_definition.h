// The graph definition format (docs/format.md) written and read over any JSON value type with
// nlohmann's interface: export/definition.cpp instantiates these with the core's json::Value, the
// routing module (wasm/router.cpp) with its own small value (wasm/router_json.h), so that both
// modules write the same document and report the same problems from one set of rules. The edge
// reader is shared with the state machine's loader (definition.cpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expected.h"
#include "export/reader.h"
#include "graph/handoff_graph.h"

namespace handoff::definition {

inline constexpr const char* kGraphFormat = "handoff-graph";
inline constexpr int kGraphVersion = 1;

// The fields of one edge of a definition, read and checked.
struct EdgeFields {
  std::string_view from;
  std::string_view to;
  std::optional<std::string_view> when;
  std::string_view description;
  bool transfer = false;  // machines only: a handoff-enabled state's transfer edge
};

// "triage → billing": how a problem with an edge's condition names the edge.
inline std::string edge_name(const EdgeFields& e) { return std::string(e.from) + " \u2192 " + std::string(e.to); }

// Reads `edges` ([{ from, to, when?, description? }], the same in graphs and machines) and hands
// each well-formed edge to `add`, which returns a problem (its pointer relative to the edge) or
// nothing.
template <class Json, class Add>
void read_edges(BasicReader<Json>& r, const Json& document, Add add, bool machine = false) {
  auto edges = document.find("edges");
  if (edges == document.end()) return;
  if (!edges->is_array()) {
    r.problem("/edges", "expected an array");
    return;
  }
  for (std::size_t i = 0; i < edges->size(); ++i) {
    const Json& edge = (*edges)[i];
    std::string pointer = "/edges/" + std::to_string(i);
    if (!edge.is_object()) {
      r.problem(pointer, "expected an object");
      continue;
    }
    if (machine) r.only(edge, pointer, {"from", "to", "when", "description", "transfer"});
    else r.only(edge, pointer, {"from", "to", "when", "description"});
    const std::string* from = r.string(edge, pointer, "from", true);
    const std::string* to = r.string(edge, pointer, "to", true);
    const std::string* when = r.string(edge, pointer, "when", false);
    const std::string* description = r.string(edge, pointer, "description", false);
    if (!from || !to) continue;
    EdgeFields fields{*from, *to, when ? std::optional<std::string_view>(*when) : std::nullopt,
                      description ? std::string_view(*description) : std::string_view()};
    if (machine && edge.contains("transfer")) {
      const Json& transfer = *edge.find("transfer");
      if (!transfer.is_boolean()) r.problem(pointer + "/transfer", "expected true or false");
      else if (transfer.template get<bool>() && when) r.problem(pointer + "/when", "a transfer edge is chosen by the model, not by a condition");
      else fields.transfer = transfer.template get<bool>();
    }
    if (std::optional<Problem> problem = add(fields)) r.problem(pointer + problem->pointer, problem->message);
  }
}

// The graph's definition: nodes sorted by id, edges in insertion order.
template <class Json>
Json graph_to_json(const graph::HandoffGraph& graph) {
  Json nodes = Json::array();
  for (const std::string& name : graph.node_names()) {
    Json node = Json::object();
    node["id"] = name;
    const std::string& description = graph.description(graph.find(name));
    if (!description.empty()) node["description"] = description;
    nodes.push_back(std::move(node));
  }
  Json edges = Json::array();
  for (const graph::Edge& edge : graph.edges()) {
    Json e = Json::object();
    e["from"] = graph.name(edge.from);
    e["to"] = graph.name(edge.to);
    if (edge.condition) e["when"] = edge.condition->source();
    if (!edge.description.empty()) e["description"] = edge.description;
    edges.push_back(std::move(e));
  }
  Json out = Json::object();
  out["format"] = kGraphFormat;
  out["version"] = kGraphVersion;
  out["onCycle"] = graph.cycle_policy() == graph::CyclePolicy::Error ? "error" : "allow";
  out["nodes"] = std::move(nodes);
  out["edges"] = std::move(edges);
  return out;
}

template <class Json>
Expected<graph::HandoffGraph, std::vector<Problem>> graph_from_json_of(const Json& document) {
  using graph::CyclePolicy;
  BasicReader<Json> r;
  if (!document.is_object()) {
    r.problem("", "expected an object");
    return unexpected(std::move(r.problems));
  }
  r.only(document, "", {"format", "version", "onCycle", "nodes", "edges"});
  r.format_and_version(document, kGraphFormat, kGraphVersion);
  CyclePolicy policy = CyclePolicy::Error;
  if (const std::string* on_cycle = r.string(document, "", "onCycle", false)) {
    if (*on_cycle == "allow") policy = CyclePolicy::Allow;
    else if (*on_cycle != "error") r.problem("/onCycle", "expected \"error\" or \"allow\"");
  }

  graph::HandoffGraph graph(policy);
  auto nodes = document.find("nodes");
  if (nodes != document.end() && !nodes->is_array()) r.problem("/nodes", "expected an array");
  if (nodes != document.end() && nodes->is_array()) {
    // An id seen before is in the graph already (add_node refuses only the empty id), so the
    // graph's own index answers, without a set of its own (a tree's code in the routing module).
    bool empty_seen = false;
    for (std::size_t i = 0; i < nodes->size(); ++i) {
      const Json& node = (*nodes)[i];
      std::string pointer = "/nodes/" + std::to_string(i);
      if (!node.is_object()) {
        r.problem(pointer, "expected an object");
        continue;
      }
      r.only(node, pointer, {"id", "description"});
      const std::string* id = r.string(node, pointer, "id", true);
      const std::string* description = r.string(node, pointer, "description", false);
      if (!id) continue;
      if (id->empty() ? std::exchange(empty_seen, true) : graph.has_node(*id)) {
        r.problem(pointer + "/id", "duplicate node id '" + *id + "'");
        continue;
      }
      auto added = graph.add_node(*id, description ? *description : "");
      if (!added) r.problem(pointer + "/id", added.error().message);
    }
  }

  read_edges(r, document, [&](const EdgeFields& e) -> std::optional<Problem> {
    auto added = graph.add_edge(e.from, e.to, e.when, e.description);
    if (added) return std::nullopt;
    if (added.error().kind == graph::EdgeError::Kind::Syntax) return Problem{"/when", edge_name(e) + ": " + added.error().message};
    return Problem{"", added.error().message};
  });

  if (!r.problems.empty()) return unexpected(std::move(r.problems));
  return graph;
}

}  // namespace handoff::definition
