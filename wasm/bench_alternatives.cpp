// Marshalling strategies the package rejected, built only for `npm run bench` (never shipped),
// so that BENCHMARKS.md can show why the transfer buffer won:
//   routeVal:  an embind method that walks the JS state through emscripten::val, one boundary
//              crossing per property read;
//   routeJSON: JSON.stringify in JS, nlohmann parse in C++, then the native marshaller.
// Both end in the same HandoffGraph::route as the package.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "condition/json_state.h"
#include "graph/handoff_graph.h"

namespace {

using emscripten::val;
using handoff::condition::Kind;
using handoff::condition::TapeBuilder;
using handoff::graph::HandoffGraph;

void write_val(const HandoffGraph& g, TapeBuilder& tape, const val& v, int depth) {
  std::string type = v.typeOf().as<std::string>();
  if (type == "string") {
    auto text = v.as<std::string>();
    tape.add_string(text, g.strings().find(text));
  } else if (type == "number") {
    tape.add_number(v.as<double>());
  } else if (type == "boolean") {
    tape.add_bool(v.as<bool>());
  } else if (type == "object" && !v.isNull() && depth < 64) {
    bool array = val::global("Array").call<bool>("isArray", v);
    std::uint32_t start = tape.begin_container(array ? Kind::Array : Kind::Object);
    val keys = array ? val::undefined() : val::global("Object").call<val>("keys", v);
    auto count = (array ? v : keys)["length"].as<std::uint32_t>();
    for (std::uint32_t i = 0; i < count; ++i) {
      if (array) {
        write_val(g, tape, v[i], depth + 1);
      } else {
        auto key = keys[i].as<std::string>();
        tape.add_string(key, g.strings().find(key));
        write_val(g, tape, v[key], depth + 1);
      }
    }
    tape.end_container(start, count);
  } else {
    tape.add_null();
  }
}

int route_val(const HandoffGraph& g, std::uint32_t node, val state) {
  static val is_own = val::global("Object")["prototype"]["propertyIsEnumerable"];
  TapeBuilder tape;
  std::vector<std::uint32_t> slots;
  for (const auto& path : g.route_paths(node)) {
    val current = state;
    bool found = true;
    for (const auto& step : path.steps) {
      if (current.typeOf().as<std::string>() != "object" || current.isNull() ||
          !is_own.call<bool>("call", current, val(step.key))) {
        found = false;
        break;
      }
      current = current[step.key];
    }
    slots.push_back(tape.size());
    if (found) write_val(g, tape, current, 0);
    else tape.add_null();
  }
  auto view = tape.view(&g.strings());
  std::vector<handoff::condition::ValueRef> refs;
  for (std::uint32_t cell : slots) refs.emplace_back(&view, cell);
  return g.route(node, refs.data());
}

int route_json(const HandoffGraph& g, std::uint32_t node, const std::string& json) {
  auto state = handoff::condition::Json::parse(json, nullptr, false);
  handoff::condition::JsonStateWriter writer(g.strings());
  writer.write(state, g.route_paths(node));
  return g.route(node, writer.slots().data());
}

void add_edge(HandoffGraph& g, const std::string& from, const std::string& to, const std::string& when) {
  (void)g.add_edge(from, to, when.empty() ? std::nullopt : std::optional<std::string_view>(when));
}

int find(const HandoffGraph& g, const std::string& id) { return static_cast<int>(g.find(id)); }

}  // namespace

EMSCRIPTEN_BINDINGS(handoff_bench) {
  emscripten::class_<HandoffGraph>("HandoffGraph")
      .constructor<>()
      .function("addEdge", &add_edge)
      .function("find", &find)
      .function("routeVal", &route_val)
      .function("routeJSON", &route_json);
}
