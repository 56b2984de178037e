#include "js_values.h"

#include "core/json.h"

namespace handoff::bindings {

using emscripten::val;

val to_js(const Json& json) {
  static const val JSON = val::global("JSON");
  return JSON.call<val>("parse", text_of(json));
}

std::string text_of(const Json& json) { return core::dump_json(json); }

Json parse(std::string_view text) { return core::parse_json(text).value; }

std::vector<std::string> strings_of(const val& list) {
  std::vector<std::string> out;
  if (!list.isArray()) return out;
  const auto length = list["length"].as<unsigned>();
  for (unsigned i = 0; i < length; ++i) {
    val item = list[i];
    if (item.isString()) out.push_back(item.as<std::string>());
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> pairs_of(const val& list) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!list.isArray()) return out;
  const auto length = list["length"].as<unsigned>();
  for (unsigned i = 0; i < length; ++i) {
    val pair = list[i];
    if (pair.isArray() && pair["length"].as<unsigned>() == 2 && pair[0].isString() && pair[1].isString()) {
      out.emplace_back(pair[0].as<std::string>(), pair[1].as<std::string>());
    }
  }
  return out;
}

Json paths_json(const std::vector<condition::Path>& paths) {
  Json out = Json::array();
  for (const condition::Path& path : paths) {
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

Json edge_error_json(const graph::EdgeError& error) {
  Json out = Json::object();
  switch (error.kind) {
    case graph::EdgeError::Kind::Syntax:
      out["kind"] = "syntax";
      out["index"] = error.syntax.index;
      break;
    case graph::EdgeError::Kind::Cycle:
      out["kind"] = "cycle";
      out["cycle"] = error.cycle;
      break;
    case graph::EdgeError::Kind::Argument:
      out["kind"] = "argument";
      break;
  }
  out["message"] = error.message;
  return out;
}

Json out_edges_json(const graph::HandoffGraph& g, graph::NodeId node) {
  Json out = Json::array();
  if (node >= g.size()) return out;
  for (auto index : g.out_edges(node)) {
    const auto& edge = g.edges()[index];
    Json described = Json::object();
    described["to"] = g.name(edge.to);
    described["when"] = edge.condition ? Json(edge.condition->source()) : Json(nullptr);
    described["description"] = edge.description;
    out.push_back(std::move(described));
  }
  return out;
}

Json strings_since_json(const graph::HandoffGraph& g, std::uint32_t from) {
  Json out = Json::array();
  const condition::Interner& strings = g.strings();
  for (std::uint32_t id = from; id < strings.size(); ++id) out.push_back(std::string(strings.view(id)));
  return out;
}

Json problems_json(const std::vector<definition::Problem>& problems) {
  Json out = Json::array();
  for (const auto& p : problems) {
    Json problem = Json::object();
    problem["pointer"] = p.pointer;
    problem["message"] = p.message;
    out.push_back(std::move(problem));
  }
  return out;
}

}  // namespace handoff::bindings
