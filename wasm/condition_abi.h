// The raw exports both WebAssembly modules share for compiling standalone conditions and for
// what a route's writer needs to know about a node (wasm/bindings.cpp and wasm/router.cpp each
// include this once): compileCondition() without embind or JSON on the way in. JS writes the
// source's UTF-8 bytes where hg_source_reserve says (a buffer of its own, so that a condition
// compiled by a getter while a route is reading the state leaves the transfer area alone),
// hg_condition_new compiles it, and the paths and strings JS needs for evaluating are described
// later, on first use, as one JSON text (js/marshal.js reads all of these).
#pragma once

#include <emscripten/emscripten.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "condition/standalone.h"
#include "core/json.h"
#include "graph/handoff_graph.h"

namespace handoff::condition_abi {

inline std::vector<char> source_buffer;
inline std::string condition_text;         // the last description or error message
inline std::uint32_t condition_result[3];  // [error index or 0, text pointer, text length]

inline std::uint32_t* text_result(std::uint32_t index) {
  condition_result[0] = index;
  condition_result[1] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(condition_text.data()));
  condition_result[2] = static_cast<std::uint32_t>(condition_text.size());
  return condition_result;
}

}  // namespace handoff::condition_abi

extern "C" {

EMSCRIPTEN_KEEPALIVE char* hg_source_reserve(std::uint32_t bytes) {
  auto& buffer = handoff::condition_abi::source_buffer;
  if (buffer.size() < bytes) buffer.resize(std::max<std::size_t>(bytes, buffer.size() * 2));
  return buffer.data();
}

// A new condition compiled from the `length` bytes at hg_source_reserve's buffer, or null: then
// hg_compile_error() holds [index, message pointer, message length].
EMSCRIPTEN_KEEPALIVE handoff::condition::StandaloneCondition* hg_condition_new(std::uint32_t length) {
  namespace abi = handoff::condition_abi;
  auto* c = new handoff::condition::StandaloneCondition();
  auto compiled = c->compile(std::string_view(abi::source_buffer.data(), std::min<std::size_t>(length, abi::source_buffer.size())));
  if (compiled) return c;
  abi::condition_text = compiled.error().message;
  abi::text_result(compiled.error().index);
  delete c;
  return nullptr;
}

EMSCRIPTEN_KEEPALIVE std::uint32_t* hg_compile_error() { return handoff::condition_abi::condition_result; }

EMSCRIPTEN_KEEPALIVE void hg_condition_delete(handoff::condition::StandaloneCondition* c) { delete c; }

// [0, pointer, length] of {"paths": [[[isIndex, key, index], ...], ...], "texts": [...],
// "strings": [...], "levels": [...]}: the steps and canonical text of each path, the interned
// strings in id order, and how much text each path's strings need (what js/marshal.js needs to
// write a state for this condition).
EMSCRIPTEN_KEEPALIVE std::uint32_t* hg_condition_describe(const handoff::condition::StandaloneCondition* c) {
  using Json = handoff::json::Value;
  Json paths = Json::array();
  Json texts = Json::array();
  for (const handoff::condition::Path& path : c->condition().paths()) {
    Json steps = Json::array();
    for (const auto& step : path.steps) {
      Json described = Json::array();
      described.push_back(step.is_index);
      described.push_back(step.key);
      described.push_back(static_cast<double>(step.index));
      steps.push_back(std::move(described));
    }
    paths.push_back(std::move(steps));
    texts.push_back(path.text());
  }
  Json strings = Json::array();
  for (std::uint32_t id = 0; id < c->strings().size(); ++id) strings.push_back(std::string(c->strings().view(id)));
  std::vector<std::uint8_t> levels(c->condition().paths().size(), handoff::condition::Condition::kTextNone);
  c->condition().text_levels(levels);
  Json levels_json = Json::array();
  for (std::uint8_t level : levels) levels_json.push_back(level);
  Json out = Json::object();
  out["paths"] = std::move(paths);
  out["texts"] = std::move(texts);
  out["strings"] = std::move(strings);
  out["levels"] = std::move(levels_json);
  handoff::condition_abi::condition_text = handoff::core::dump_json(out);
  return handoff::condition_abi::text_result(0);
}

// Per route path of `node`: how much of its strings' text JS must send (Condition::text_levels),
// valid until the next call.
EMSCRIPTEN_KEEPALIVE const std::uint8_t* hg_node_text_levels(const handoff::graph::HandoffGraph* graph,
                                                             handoff::graph::NodeId node) {
  static std::vector<std::uint8_t> levels;
  levels = graph->text_levels(node);
  return levels.data();
}

// The slot every route from `node` reads first whatever the state, or -1 (HandoffGraph::first_read):
// js/marshal.js reads it before calling hg_route.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_node_first_read(const handoff::graph::HandoffGraph* graph, handoff::graph::NodeId node) {
  return static_cast<std::int32_t>(graph->first_read(node));
}

// The same for a standalone condition (Condition::first_read), for hg_evaluate.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_condition_first_read(const handoff::condition::StandaloneCondition* c) {
  return c->compiled() ? static_cast<std::int32_t>(c->condition().first_read()) : -1;
}

}  // extern "C"
