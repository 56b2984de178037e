// The raw C exports both WebAssembly modules share, for the calls made once per decision or per
// compiled condition, where an embind call would cost more than the work (docs/architecture.md
// lists them): a route (hg_route), a standalone condition's evaluation (hg_evaluate) and compile
// (hg_condition_*), and the transfer area JavaScript writes a state's values into
// (wasm/transfer.h), as tree-sitter's web binding marshals through a transfer buffer. JS calls
// them with numbers only (js/runtime.js, js/state-writer.js); everything else is in the embind tables.
#include "route_exports.h"

#include <emscripten/emscripten.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "condition/standalone.h"
#include "core/contract.h"
#include "graph/handoff_graph.h"
#include "js_values.h"
#include "transfer.h"

namespace {

using handoff::condition::StandaloneCondition;
using handoff::graph::HandoffGraph;
using handoff::graph::NodeId;

// The transfer area (wasm/transfer.h): cells, string bytes and slot starts, grown on request.
handoff::transfer::Area transfer_area;

// A condition's source, written by JS (a buffer of its own, so that a condition compiled by a
// getter while a route is reading the state leaves the transfer area alone).
std::vector<char> source_buffer;
// The last compile error's message or description, and [error index or 0, text pointer, length].
std::string condition_text;
std::uint32_t condition_result[3];

std::uint32_t* text_result(std::uint32_t index) {
  condition_result[0] = index;
  condition_result[1] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(condition_text.data()));
  condition_result[2] = static_cast<std::uint32_t>(condition_text.size());
  return condition_result;
}

bool valid_node(const HandoffGraph* g, NodeId node) { return g != nullptr && node < g->size(); }

}  // namespace

const handoff::condition::ValueRef* handoff::route_exports::transfer_slots(const condition::Interner& strings,
                                                                           std::uint32_t cell_count,
                                                                           std::size_t slot_count) {
  return transfer_area.slot_values(strings, cell_count, slot_count);
}

void handoff::route_exports::explain(const graph::HandoffGraph& g, graph::NodeId node, std::uint32_t cell_count,
                                     std::uint32_t first, std::vector<graph::EdgeTrace>& trace) {
  const std::size_t count = g.route_paths(node).size();
  transfer::LazySlots slots(transfer_area, g.strings(), count, first, cell_count);
  slots.read_all(count);
  g.explain(node, slots.slots(), trace);
}

extern "C" {

// The fingerprint of src/core/contract.h this module was built with; init() compares it with
// js/contract.js's, so a .wasm from another version fails loudly instead of misreading memory.
EMSCRIPTEN_KEEPALIVE std::uint32_t hg_contract_fingerprint() { return handoff::contract::kFingerprint; }

// Makes room for at least the given numbers of cells, bytes and slots (contents are kept) and
// returns the header describing where they are now. Growing may move them and grow memory.
EMSCRIPTEN_KEEPALIVE const handoff::contract::TransferHeader* hg_transfer_reserve(std::uint32_t cells,
                                                                                  std::uint32_t bytes,
                                                                                  std::uint32_t slots) {
  return transfer_area.reserve(cells, bytes, slots);
}

// The position of the first matching edge among `node`'s outgoing edges, or -1 (also for a null
// graph). Only slot `first` (or none: -1) is written before the call, from cell 0; the core asks
// JS for each other slot when the route first needs it (transfer.h LazySlots).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_route(const HandoffGraph* graph, NodeId node, std::uint32_t cell_count,
                                           std::uint32_t first) {
  if (!valid_node(graph, node)) return -1;
  handoff::transfer::LazySlots slots(transfer_area, graph->strings(), graph->route_paths(node).size(), first,
                                     cell_count);
  return graph->route(node, slots.slots(), &slots);
}

// Whether the standalone condition holds, reading lazily as hg_route does.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_evaluate(const StandaloneCondition* condition, std::uint32_t cell_count,
                                              std::uint32_t first) {
  if (condition == nullptr || !condition->compiled()) return 0;
  const auto& c = condition->condition();
  handoff::transfer::LazySlots slots(transfer_area, condition->strings(), c.paths().size(), first, cell_count);
  return c.evaluate(slots.slots(), &slots);
}

// The slot every route from `node` reads first whatever the state, or -1 (HandoffGraph::first_read):
// js/state-writer.js reads it before calling hg_route.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_node_first_read(const HandoffGraph* graph, NodeId node) {
  return valid_node(graph, node) ? static_cast<std::int32_t>(graph->first_read(node)) : -1;
}

// Per route path of `node`: how much of its strings' text JS must send (Condition::text_levels),
// valid until the next call.
EMSCRIPTEN_KEEPALIVE const std::uint8_t* hg_node_text_levels(const HandoffGraph* graph, NodeId node) {
  static std::vector<std::uint8_t> levels;
  levels = valid_node(graph, node) ? graph->text_levels(node) : std::vector<std::uint8_t>();
  return levels.data();
}

// compileCondition(): JS writes the source's UTF-8 bytes where hg_source_reserve says and
// hg_condition_new compiles them (raw, as a compile is timed against cel-js's parse()).
EMSCRIPTEN_KEEPALIVE char* hg_source_reserve(std::uint32_t bytes) {
  if (source_buffer.size() < bytes) source_buffer.resize(std::max<std::size_t>(bytes, source_buffer.size() * 2));
  return source_buffer.data();
}

// A new condition compiled from the `length` bytes at hg_source_reserve's buffer, or null: then
// hg_compile_error() holds [index, message pointer, message length].
EMSCRIPTEN_KEEPALIVE StandaloneCondition* hg_condition_new(std::uint32_t length) {
  auto* c = new StandaloneCondition();
  auto compiled =
      c->compile(std::string_view(source_buffer.data(), std::min<std::size_t>(length, source_buffer.size())));
  if (compiled) return c;
  condition_text = compiled.error().message;
  text_result(compiled.error().index);
  delete c;
  return nullptr;
}

EMSCRIPTEN_KEEPALIVE std::uint32_t* hg_compile_error() { return condition_result; }

EMSCRIPTEN_KEEPALIVE void hg_condition_delete(StandaloneCondition* c) { delete c; }

// [0, pointer, length] of {"paths": [[[isIndex, key, index], ...], ...], "texts": [...],
// "strings": [...], "levels": [...]}: the steps and canonical text of each path, the interned
// strings in id order, and how much text each path's strings need (what js/paths.js and
// js/state-writer.js need to write a state for this condition), read once per condition, on its
// first evaluation.
EMSCRIPTEN_KEEPALIVE std::uint32_t* hg_condition_describe(const StandaloneCondition* c) {
  using handoff::bindings::Json;
  const auto& paths = c->condition().paths();
  Json texts = Json::array();
  for (const handoff::condition::Path& path : paths) texts.push_back(path.text());
  Json strings = Json::array();
  for (std::uint32_t id = 0; id < c->strings().size(); ++id) strings.push_back(std::string(c->strings().view(id)));
  std::vector<std::uint8_t> levels(paths.size(), handoff::condition::Condition::kTextNone);
  c->condition().text_levels(levels);
  Json out = Json::object();
  out["paths"] = handoff::bindings::paths_json(paths);
  out["texts"] = std::move(texts);
  out["strings"] = std::move(strings);
  out["levels"] = levels;
  condition_text = handoff::bindings::text_of(out);
  return text_result(0);
}

// The same as hg_node_first_read for a standalone condition (Condition::first_read), for hg_evaluate.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_condition_first_read(const StandaloneCondition* c) {
  return c != nullptr && c->compiled() ? static_cast<std::int32_t>(c->condition().first_read()) : -1;
}

}  // extern "C"
