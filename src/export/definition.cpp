#include "export/definition.h"

#include <cmath>
#include <initializer_list>
#include <iterator>
#include <string>
#include <string_view>

#include "core/contract.h"

namespace handoff::definition {

using condition::Json;
using graph::CyclePolicy;
using graph::HandoffGraph;

namespace {

// The names a reducer may have (core/contract.h): five, so a scan, where a std::set of them was
// its own kilobyte of code (issue 21).
bool is_reducer(std::string_view name) {
  for (std::string_view reducer : contract::kReducerNames) {
    if (name == reducer) return true;
  }
  return false;
}

// "expected "replace", "append", … or "custom"".
std::string expected_reducer() {
  std::string out = "expected ";
  const std::size_t n = std::size(contract::kReducerNames);
  for (std::size_t i = 0; i < n; ++i) {
    out += (i == 0 ? "" : i + 1 == n ? " or " : ", ") + ("\"" + std::string(contract::kReducerNames[i]) + "\"");
  }
  return out;
}

}  // namespace

// The graph's definition: nodes sorted by id, edges in insertion order.
Json to_json(const HandoffGraph& graph) {
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

Expected<HandoffGraph, std::vector<Problem>> graph_from_json(const Json& document) {
  Reader r;
  if (!document.is_object()) {
    r.problem("", "expected an object");
    return unexpected(std::move(r.problems));
  }
  r.only(document, "", {"format", "version", "onCycle", "nodes", "edges"});
  r.format_and_version(document, kGraphFormat, kGraphVersion);
  CyclePolicy policy = CyclePolicy::Error;
  if (const std::string* on_cycle = r.string(document, "", "onCycle", false)) {
    if (*on_cycle == "allow")
      policy = CyclePolicy::Allow;
    else if (*on_cycle != "error")
      r.problem("/onCycle", "expected \"error\" or \"allow\"");
  }

  HandoffGraph graph(policy);
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
    if (added.error().kind == graph::EdgeError::Kind::Syntax)
      return Problem{"/when", edge_name(e) + ": " + added.error().message};
    return Problem{"", added.error().message};
  });

  if (!r.problems.empty()) return unexpected(std::move(r.problems));
  return graph;
}

Json to_json(const machine::Machine& m) {
  const auto& options = m.options();
  Json states = Json::array();
  for (const auto& state : m.states()) {
    Json s = Json::object();
    s["name"] = state.name;
    if (!state.feedback_on_revisit) s["feedbackOnRevisit"] = false;
    if (state.task) s["task"] = state.task->source();
    if (state.fan_out) {
      const machine::FanOut& f = *state.fan_out;
      if (f.is_map())
        s["map"] = Json{{"state", f.map_state}, {"over", f.over}};
      else s["branches"] = f.branches;
      if (f.concurrency > 0) s["concurrency"] = f.concurrency;
    }
    if (state.subgraph) {
      s["subgraph"] = to_json(*state.subgraph->machine);
      for (auto [mapping, member] : {std::pair{&state.subgraph->input, "input"}, std::pair{&state.subgraph->output, "output"}}) {
        if (!*mapping) continue;
        Json m = Json::object();
        for (const auto& entry : **mapping) m[entry.key] = entry.path_text;
        s[member] = std::move(m);
      }
    }
    if (state.handoffs) s["handoffs"] = *state.handoffs;
    states.push_back(std::move(s));
  }
  Json edges = Json::array();
  for (const auto& edge : m.edges()) {
    Json e = Json::object();
    e["from"] = edge.from;
    e["to"] = edge.to;
    if (edge.when) e["when"] = *edge.when;
    if (!edge.description.empty()) e["description"] = edge.description;
    if (edge.transfer) e["transfer"] = true;
    // Not part of the format (portability_problem refuses such machines); written so that the
    // fingerprint of a snapshot covers which edges are functions.
    if (edge.predicate) e["predicate"] = true;
    edges.push_back(std::move(e));
  }
  Json reducers = Json::object();
  for (const auto& [key, reducer] : options.reducers) reducers[key] = reducer;
  Json out = Json::object();
  out["format"] = kMachineFormat;
  out["version"] = kMachineVersion;
  out["name"] = options.name;
  if (options.start) out["start"] = *options.start;
  double steps = options.max_steps;
  if (std::floor(steps) == steps && std::fabs(steps) < 1e15) out["maxSteps"] = static_cast<std::int64_t>(steps);
  else out["maxSteps"] = steps;
  out["onMaxSteps"] = machine::on_max_steps_name(options.on_max_steps);
  out["feedbackOnRevisit"] = options.feedback_on_revisit;
  if (!options.no_feedback_states.empty()) out["noFeedbackStates"] = options.no_feedback_states;
  out["states"] = std::move(states);
  out["edges"] = std::move(edges);
  out["reducers"] = std::move(reducers);
  return out;
}

namespace {
Expected<std::unique_ptr<machine::Machine>, std::vector<Problem>> machine_from_json_at(const Json& document, std::size_t depth);
}

Expected<std::unique_ptr<machine::Machine>, std::vector<Problem>> machine_from_json(const Json& document) {
  return machine_from_json_at(document, 1);
}

namespace {

Expected<std::unique_ptr<machine::Machine>, std::vector<Problem>> machine_from_json_at(const Json& document, std::size_t depth) {
  Reader r;
  if (!document.is_object()) {
    r.problem("", "expected an object");
    return unexpected(std::move(r.problems));
  }
  r.only(document, "", {"format", "version", "name", "start", "maxSteps", "onMaxSteps", "feedbackOnRevisit",
                        "noFeedbackStates", "states", "edges", "reducers"});
  r.format_and_version(document, kMachineFormat, kMachineVersion);
  machine::MachineOptions options;
  if (const std::string* name = r.string(document, "", "name", false)) options.name = *name;
  if (const std::string* start = r.string(document, "", "start", false)) options.start = *start;
  if (auto it = document.find("maxSteps"); it != document.end()) {
    if (it->is_number()) options.max_steps = it->get<double>();
    else r.problem("/maxSteps", "expected a number");
  }
  if (const std::string* on_max = r.string(document, "", "onMaxSteps", false)) {
    if (auto value = machine::on_max_steps_of(*on_max)) options.on_max_steps = *value;
    else r.problem("/onMaxSteps", "expected \"return\", \"throw\" or \"return-with-flag\"");
  }
  if (auto feedback = r.boolean(document, "", "feedbackOnRevisit")) options.feedback_on_revisit = *feedback;
  if (auto it = document.find("noFeedbackStates"); it != document.end()) {
    if (!it->is_array()) r.problem("/noFeedbackStates", "expected an array of state names");
    for (std::size_t i = 0; it->is_array() && i < it->size(); ++i) {
      if ((*it)[i].is_string()) options.no_feedback_states.push_back((*it)[i].get<std::string>());
      else r.problem("/noFeedbackStates/" + std::to_string(i), "expected a state name");
    }
  }
  if (auto it = document.find("reducers"); it != document.end()) {
    if (!it->is_object()) r.problem("/reducers", "expected an object");
    for (auto m = it->begin(); it->is_object() && m != it->end(); ++m) {
      std::string pointer = "/reducers/" + pointer_token(m.key());
      if (!m->is_string() || !is_reducer(m->get_ref<const std::string&>())) {
        r.problem(pointer, expected_reducer());
      } else {
        options.reducers.emplace_back(m.key(), m->get<std::string>());
      }
    }
  }

  auto machine = std::make_unique<machine::Machine>(options);
  auto states = document.find("states");
  if (states != document.end() && !states->is_array()) r.problem("/states", "expected an array");
  for (std::size_t i = 0; states != document.end() && states->is_array() && i < states->size(); ++i) {
    const Json& state = (*states)[i];
    std::string pointer = "/states/" + std::to_string(i);
    if (!state.is_object()) {
      r.problem(pointer, "expected an object");
      continue;
    }
    r.only(state, pointer, {"name", "feedbackOnRevisit", "task", "handoffs", "branches", "map", "concurrency", "subgraph", "input", "output"});
    std::optional<std::uint32_t> handoffs = r.count(state, pointer, "handoffs");
    const std::string* name = r.string(state, pointer, "name", true);
    const std::string* task = r.string(state, pointer, "task", false);
    bool feedback = r.boolean(state, pointer, "feedbackOnRevisit").value_or(true);
    if (!name) continue;
    // A fan-out state (`branches`) or a map state (`map`: { state, over }), with its `concurrency`.
    const bool has_branches = state.contains("branches");
    const bool has_map = state.contains("map");
    // The members only a state that runs its own handler may have.
    const bool has_handler_members = state.contains("task") || state.contains("feedbackOnRevisit") || state.contains("handoffs");
    std::optional<double> concurrency;
    if (auto it = state.find("concurrency"); it != state.end()) {
      if (!it->is_number()) r.member_problem(pointer, "concurrency", "expected a number");
      else if (!has_branches && !has_map) r.member_problem(pointer, "concurrency", "only a fan-out state (branches) or a map state (map) has a concurrency");
      else concurrency = it->get<double>();
    }
    // A subgraph state: { name, subgraph: <a machine definition>, input?, output? }.
    if (state.contains("subgraph")) {
      if (has_branches || has_map || has_handler_members || state.contains("concurrency")) {
        r.problem(pointer, "a subgraph state runs its machine: it has no 'branches', 'map', 'concurrency', 'task', 'feedbackOnRevisit' or 'handoffs'");
        continue;
      }
      if (depth + 1 > machine::kMaxSubgraphDepth) {
        r.member_problem(pointer, "subgraph", "subgraphs may nest " + std::to_string(machine::kMaxSubgraphDepth) + " machines deep");
        continue;
      }
      auto child = machine_from_json_at(json::member(state, "subgraph"), depth + 1);
      if (!child) {
        for (const Problem& p : child.error()) r.problem(pointer + "/subgraph" + p.pointer, p.message);
        continue;
      }
      std::optional<machine::Machine::Mapping> mappings[2];
      const char* members[2] = {"input", "output"};
      bool ok = true;
      for (int k = 0; k < 2; ++k) {
        auto it = state.find(members[k]);
        if (it == state.end()) continue;
        if (!it->is_object()) {
          r.member_problem(pointer, members[k], "expected an object: { key: \"path\" }");
          ok = false;
          continue;
        }
        mappings[k].emplace();
        for (auto m = it->begin(); m != it->end(); ++m) {
          if (m->is_string()) mappings[k]->emplace_back(m.key(), m->get<std::string>());
          else {
            r.problem(pointer + "/" + members[k] + "/" + pointer_token(m.key()), "expected a path (a string)");
            ok = false;
          }
        }
      }
      if (!ok) continue;
      auto added = machine->add_subgraph(*name, std::move(child.value()), mappings[0], mappings[1]);
      if (!added) r.problem(added.error().pointer.empty() ? pointer : added.error().pointer, added.error().message);
      continue;
    }
    if (state.contains("input") || state.contains("output")) {
      r.problem(pointer, "only a subgraph state has an 'input' or 'output'");
      continue;
    }
    if (has_branches && has_map) {
      r.problem(pointer, "a state has either 'branches' (a fan-out) or 'map', not both");
      continue;
    }
    if (has_branches || has_map) {
      if (has_handler_members) {
        r.problem(pointer, "a fan-out or map state runs no handler of its own: it has no 'task', 'feedbackOnRevisit' or 'handoffs'");
        continue;
      }
      Expected<void, machine::Problem> added = {};
      if (has_branches) {
        const Json& list = json::member(state, "branches");
        std::vector<std::string> branches;
        bool ok = list.is_array();
        for (std::size_t j = 0; ok && j < list.size(); ++j) {
          if (list[j].is_string()) branches.push_back(list[j].get<std::string>());
          else ok = false;
        }
        if (!ok) {
          r.member_problem(pointer, "branches", "expected an array of state names");
          continue;
        }
        added = machine->add_fan_out(*name, branches, concurrency);
      } else {
        const Json& map = json::member(state, "map");
        if (!map.is_object()) {
          r.member_problem(pointer, "map", "expected { \"state\", \"over\" }");
          continue;
        }
        r.only(map, pointer + "/map", {"state", "over"});
        const std::string* branch = r.string(map, pointer + "/map", "state", true);
        const std::string* over = r.string(map, pointer + "/map", "over", true);
        if (!branch || !over) continue;
        added = machine->add_map(*name, *branch, *over, concurrency);
      }
      if (!added) r.problem(added.error().pointer.empty() ? pointer : added.error().pointer, added.error().message);
      continue;
    }
    auto added = machine->add_state(*name, feedback, task ? std::optional<std::string_view>(*task) : std::nullopt);
    if (!added) r.problem(pointer + (added.error().code == "bad-task" ? "/task" : "/name"), added.error().message);
    else if (handoffs) (void)machine->set_handoffs(*name, *handoffs);
  }
  read_edges(r, document, [&](const EdgeFields& e) -> std::optional<Problem> {
    auto added = e.transfer ? machine->add_transfer_edge(e.from, e.to, e.description) : machine->add_edge(e.from, e.to, e.when, e.description);
    if (added) return std::nullopt;
    if (added.error().syntax) return Problem{"/when", edge_name(e) + ": " + added.error().syntax->message};
    return Problem{"", added.error().problem->message};
  }, /*machine=*/true);
  if (!r.problems.empty()) return unexpected(std::move(r.problems));
  return machine;
}

}  // namespace

std::optional<std::string> portability_problem(const machine::Machine& m) {
  const auto& edges = m.edges();
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (!edges[i].predicate) continue;
    return "edge " + std::to_string(i) + " ('" + edges[i].from + "' -> '" + edges[i].to + "'" +
           (edges[i].description.empty() ? "" : ", '" + edges[i].description + "'") +
           ") is decided by a function, which a definition cannot hold: write it as a condition string "
           "(docs/conditions.md) to store or send the machine";
  }
  return std::nullopt;
}

std::string describe(const std::vector<Problem>& problems) {
  std::string out;
  for (const Problem& p : problems) {
    if (!out.empty()) out += '\n';
    out += (p.pointer.empty() ? "/" : p.pointer) + ": " + p.message;
  }
  return out;
}

}  // namespace handoff::definition
