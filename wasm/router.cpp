// The routing module (handoff-graph/router): the same core as wasm/bindings.cpp, limited to what
// routing needs (graphs, conditions, definitions), with raw C exports only. No embind: its runtime
// was most of the full module's JavaScript glue and a good part of its code (a per-function
// breakdown of the module measured both), and js/router-native.js reads these exports with a few hundred lines instead.
//
// The ABI: strings go in as UTF-8 that JS writes into the text area (hg_text_reserve) and passes as
// (offset, length) pairs; structured answers come back as JSON text in the reply buffer (hg_reply,
// its length returned by the call). Nothing here decides anything: every answer is a translation of
// what src/ returned, and the per-route path (hg_route, hg_evaluate, the transfer area) is the
// full module's, so js/marshal.js writes states the same way for both.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "condition/standalone.h"
#include "core/contract.h"
#include "export/graph_definition.h"
#include "graph/handoff_graph.h"
#include "router_json.h"
#define HANDOFF_ABI_JSON handoff::router_json::Value
#include "condition_abi.h"  // compiling standalone conditions, a node's text levels
#include "transfer.h"

namespace {

// Answers are written, and definitions read, with the module's small JSON (router_json.h), not nlohmann.
using Json = handoff::router_json::Value;
using handoff::condition::Path;
using handoff::condition::StandaloneCondition;
using handoff::graph::EdgeError;
using handoff::graph::HandoffGraph;
using handoff::graph::NodeId;

handoff::transfer::Area transfer;
std::vector<char> text_area;
std::string reply;

std::string_view text(std::uint32_t offset, std::uint32_t length) {
  if (offset > text_area.size() || length > text_area.size() - offset) return {};
  return {text_area.data() + offset, length};
}

// Stores `json` as the reply; returns its length in bytes.
std::int32_t answer(const Json& json) {
  reply = json.dump();
  return static_cast<std::int32_t>(reply.size());
}

Json strings_json(const std::vector<std::string>& items) { return Json(items); }

Json edge_error(const EdgeError& error) {
  Json out = Json::object();
  switch (error.kind) {
    case EdgeError::Kind::Syntax:
      out["kind"] = "syntax";
      out["index"] = error.syntax.index;
      break;
    case EdgeError::Kind::Cycle:
      out["kind"] = "cycle";
      out["cycle"] = strings_json(error.cycle);
      break;
    case EdgeError::Kind::Argument:
      out["kind"] = "argument";
      break;
  }
  out["message"] = error.message;
  return out;
}

// [[isIndex, key, index], ...] per path, as wasm/bindings.cpp gives js/marshal.js.
Json paths_json(const std::vector<Path>& paths) {
  Json out = Json::array();
  for (const Path& path : paths) {
    Json steps = Json::array();
    for (const auto& step : path.steps) {
      Json described = Json::array();
      described.push_back(step.is_index);
      described.push_back(step.key);
      described.push_back(static_cast<std::int64_t>(step.index));
      steps.push_back(std::move(described));
    }
    out.push_back(std::move(steps));
  }
  return out;
}

bool valid_node(const HandoffGraph* g, std::uint32_t node) { return g != nullptr && node < g->size(); }

}  // namespace

extern "C" {

// ----- memory the JS side writes into

EMSCRIPTEN_KEEPALIVE const handoff::contract::TransferHeader* hg_transfer_reserve(std::uint32_t cells, std::uint32_t bytes,
                                                                                    std::uint32_t slots) {
  return transfer.reserve(cells, bytes, slots);
}

// Makes the text area hold at least `bytes` and returns where it is (growing may move it).
EMSCRIPTEN_KEEPALIVE char* hg_text_reserve(std::uint32_t bytes) {
  if (text_area.size() < bytes) text_area.resize(std::max<std::size_t>(bytes, text_area.size() * 2));
  return text_area.data();
}

EMSCRIPTEN_KEEPALIVE const char* hg_reply() { return reply.data(); }

EMSCRIPTEN_KEEPALIVE std::uint32_t hg_contract_fingerprint() { return handoff::contract::kFingerprint; }

// ----- the per-route path (the same as the full module's)

// The position of the first matching edge among `node`'s outgoing edges, or -1 (also for a null
// graph). Only slot `first` (or none: -1) is written before the call, from cell 0; the core asks
// JS for each other slot when the route first needs it (transfer.h LazySlots).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_route(const HandoffGraph* graph, NodeId node, std::uint32_t cell_count, std::uint32_t first) {
  if (!valid_node(graph, node)) return -1;
  handoff::transfer::LazySlots slots(transfer, graph->strings(), graph->route_paths(node).size(), first, cell_count);
  return graph->route(node, slots.slots(), &slots);
}

// Whether the standalone condition holds, reading lazily as hg_route does.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_evaluate(const StandaloneCondition* condition, std::uint32_t cell_count, std::uint32_t first) {
  if (condition == nullptr || !condition->compiled()) return 0;
  const auto& c = condition->condition();
  handoff::transfer::LazySlots slots(transfer, condition->strings(), c.paths().size(), first, cell_count);
  return c.evaluate(slots.slots(), &slots);
}

// ----- HandoffGraph

EMSCRIPTEN_KEEPALIVE HandoffGraph* hg_graph_new(bool allow_cycles) {
  return new HandoffGraph(allow_cycles ? handoff::graph::CyclePolicy::Allow : handoff::graph::CyclePolicy::Error);
}

EMSCRIPTEN_KEEPALIVE void hg_graph_delete(HandoffGraph* g) { delete g; }

// 0, or the length of the error's JSON ({ kind, message, index | cycle }) in the reply.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_add_node(HandoffGraph* g, std::uint32_t id, std::uint32_t id_length,
                                                    std::uint32_t description, std::uint32_t description_length) {
  auto added = g->add_node(text(id, id_length), text(description, description_length));
  return added ? 0 : answer(edge_error(added.error()));
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_add_edge(HandoffGraph* g, std::uint32_t from, std::uint32_t from_length,
                                                    std::uint32_t to, std::uint32_t to_length, bool conditional,
                                                    std::uint32_t when, std::uint32_t when_length,
                                                    std::uint32_t description, std::uint32_t description_length) {
  auto added = g->add_edge(text(from, from_length), text(to, to_length),
                           conditional ? std::optional<std::string_view>(text(when, when_length)) : std::nullopt,
                           text(description, description_length));
  return added ? 0 : answer(edge_error(added.error()));
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_find(const HandoffGraph* g, std::uint32_t id, std::uint32_t id_length) {
  NodeId node = g->find(text(id, id_length));
  return node == handoff::graph::kNoNode ? -1 : static_cast<std::int32_t>(node);
}

// [{ to, when, description }] in insertion order.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_out_edges(const HandoffGraph* g, std::uint32_t node) {
  Json out = Json::array();
  if (valid_node(g, node)) {
    for (std::uint32_t index : g->out_edges(node)) {
      const auto& edge = g->edges()[index];
      Json described = Json::object();
      described["to"] = g->name(edge.to);
      described["when"] = edge.condition ? Json(edge.condition->source()) : Json(nullptr);
      described["description"] = edge.description;
      out.push_back(std::move(described));
    }
  }
  return answer(out);
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_route_paths(const HandoffGraph* g, std::uint32_t node) {
  return answer(valid_node(g, node) ? paths_json(g->route_paths(node)) : Json::array());
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_node_names(const HandoffGraph* g) { return answer(strings_json(g->node_names())); }

EMSCRIPTEN_KEEPALIVE bool hg_graph_allows_cycles(const HandoffGraph* g) {
  return g->cycle_policy() == handoff::graph::CyclePolicy::Allow;
}

EMSCRIPTEN_KEEPALIVE std::uint32_t hg_graph_size(const HandoffGraph* g) { return static_cast<std::uint32_t>(g->size()); }

EMSCRIPTEN_KEEPALIVE bool hg_graph_is_dag(const HandoffGraph* g) { return g->is_dag(); }

// The strings the graph's interner learnt since `from`, as a JSON array.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_strings_since(const HandoffGraph* g, std::uint32_t from) {
  Json out = Json::array();
  const auto& strings = g->strings();
  for (std::uint32_t id = from; id < strings.size(); ++id) out.push_back(std::string(strings.view(id)));
  return answer(out);
}

// [evaluated, matched, ...] per outgoing edge, on the marshalled state: written as for hg_route
// (slot `first` before the call), then every other slot asked for, in order.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_explain(const HandoffGraph* g, std::uint32_t node, std::uint32_t cell_count,
                                                   std::uint32_t first) {
  Json out = Json::array();
  if (valid_node(g, node)) {
    std::vector<handoff::graph::EdgeTrace> trace;
    const std::size_t count = g->route_paths(node).size();
    handoff::transfer::LazySlots slots(transfer, g->strings(), count, first, cell_count);
    slots.read_all(count);
    g->explain(node, slots.slots(), trace);
    for (const auto& edge : trace) {
      out.push_back(edge.evaluated);
      out.push_back(edge.matched);
    }
  }
  return answer(out);
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_to_json(const HandoffGraph* g) { return answer(handoff::definition::graph_to_json<Json>(*g)); }

// Replaces `g` with the graph the definition text describes: 0, or the length of the problems'
// JSON ([{ pointer, message }]) in the reply.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_load_json(HandoffGraph* g, std::uint32_t offset, std::uint32_t length) {
  std::string_view source = text(offset, length);
  auto document = Json::parse(source.begin(), source.end(), nullptr, /*allow_exceptions=*/false);
  std::vector<handoff::definition::Problem> problems;
  if (document.is_discarded()) {
    problems.push_back({"", "not valid JSON"});
  } else {
    auto loaded = handoff::definition::graph_from_json_of(document);
    if (loaded) {
      *g = std::move(loaded.value());
      return 0;
    }
    problems = loaded.error();
  }
  Json out = Json::array();
  for (const auto& p : problems) {
    Json problem = Json::object();
    problem["pointer"] = p.pointer;
    problem["message"] = p.message;
    out.push_back(std::move(problem));
  }
  return answer(out);
}

}  // extern "C"
