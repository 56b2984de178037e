// How the core's answers become JavaScript values in the embind tables (graph_bindings.cpp,
// machine_bindings.cpp, swarm_bindings.cpp), and how JavaScript lists become the core's: the
// translations the modules share, written once. Nothing here decides anything.
//
// A record crosses as a fresh JavaScript value (to_js: the JSON text, read by JSON.parse), never
// as a view of WebAssembly memory, so what user code holds cannot change under it; it costs one
// string and one parse, off the per-decision path (the route's calls are raw, route_exports.cpp).
// Strings from JavaScript arrive as UTF-8 through embind's std::string; js/ makes them well formed
// first (js/text.js wellFormed), since embind's encoder does not replace lone surrogates.
#pragma once

#include <emscripten/val.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "condition/json_state.h"
#include "condition/path.h"
#include "export/definition.h"
#include "graph/handoff_graph.h"

namespace handoff::bindings {

using Json = condition::Json;

// `json` as a new JavaScript value.
emscripten::val to_js(const Json& json);
// `json` as compact JSON text (ill-formed UTF-8 replaced, never refused).
std::string text_of(const Json& json);
// The JSON value of `text`; discarded when it is not JSON.
Json parse(std::string_view text);

// The strings of a JavaScript array (what is not a string is left out).
std::vector<std::string> strings_of(const emscripten::val& list);
// The [string, string] pairs of a JavaScript array (what is not such a pair is left out).
std::vector<std::pair<std::string, std::string>> pairs_of(const emscripten::val& list);

// [[isIndex, key, index], ...] per path: what js/paths.js needs to walk a JS object.
Json paths_json(const std::vector<condition::Path>& paths);
// { kind: 'syntax' | 'cycle' | 'argument', message, index? , cycle? }
Json edge_error_json(const graph::EdgeError& error);
// [{ to, when, description }] in insertion order.
Json out_edges_json(const graph::HandoffGraph& g, graph::NodeId node);
// The strings the graph's interner learnt since `from`, so JS can send them as ids.
Json strings_since_json(const graph::HandoffGraph& g, std::uint32_t from);
// [{ pointer, message }]
Json problems_json(const std::vector<definition::Problem>& problems);

// Parses a definition and loads it with `from_json`: on success `adopt` takes what loaded and the
// answer is null, otherwise the problems, [{ pointer, message }].
template <class Load, class Adopt>
emscripten::val load_definition(std::string_view text, Load from_json, Adopt adopt) {
  Json document = parse(text);
  if (document.is_discarded()) return to_js(problems_json({{"", "not valid JSON"}}));
  auto loaded = from_json(document);
  if (!loaded) return to_js(problems_json(loaded.error()));
  adopt(std::move(loaded.value()));
  return emscripten::val::null();
}

// The address of an object JavaScript holds, for the raw exports that take it (route_exports.cpp).
template <class T>
std::uintptr_t address_of(const T& object) {
  return reinterpret_cast<std::uintptr_t>(&object);
}

}  // namespace handoff::bindings
