// Subgraph states natively: tests/vectors/subgraphs.json (the scenarios Node and Chromium run), with
// this harness as the host: it runs each subgraph's machine to its end, nested, from the input
// mapping, and merges the output mapping (the built-in reducers; handlers replayed from the
// script, a fan-out's branches one after another). Plus the executor's snapshot of a subgraph
// under way, and the definition's round trip and depth limit.
#include <gtest/gtest.h>

#include <map>

#include "export/definition.h"
#include "machine/execution.h"
#include "machine/machine.h"
#include "vectors.h"

namespace handoff::machine {
namespace {

using condition::Json;

struct Built {
  std::vector<std::string> problems;
  std::vector<std::string> pointers;
};

std::optional<Machine::Mapping> mapping_of(const Json& spec, const char* member) {
  if (!spec.contains(member)) return std::nullopt;
  Machine::Mapping out;
  for (auto it = spec[member].begin(); it != spec[member].end(); ++it) out.emplace_back(it.key(), it.value().get<std::string>());
  return out;
}

std::unique_ptr<Machine> build(const Json& spec, Built& built) {
  MachineOptions options;
  options.name = spec.value("name", "machine");
  if (spec.contains("start")) options.start = spec["start"].get<std::string>();
  if (spec.contains("maxSteps")) options.max_steps = spec["maxSteps"].get<double>();
  const Json reducers = spec.value("reducers", Json::object());
  for (auto it = reducers.begin(); it != reducers.end(); ++it) options.reducers.emplace_back(it.key(), it.value().get<std::string>());
  auto machine = std::make_unique<Machine>(options);
  auto note = [&](const Problem& p) {
    built.problems.push_back(p.code);
    built.pointers.push_back(p.pointer);
  };
  for (const Json& state : spec.value("states", Json::array())) {
    const std::string name = state["name"].get<std::string>();
    Expected<void, Problem> added = {};
    if (state.contains("subgraph")) {
      added = machine->add_subgraph(name, build(state["subgraph"], built), mapping_of(state, "input"), mapping_of(state, "output"));
    } else if (state.contains("branches")) {
      added = machine->add_fan_out(name, state["branches"].get<std::vector<std::string>>());
    } else {
      added = machine->add_state(name);
    }
    if (!added) note(added.error());
  }
  for (const Json& edge : spec.value("edges", Json::array())) {
    std::optional<std::string> when;
    if (edge.contains("when")) when = edge["when"].get<std::string>();
    auto added = machine->add_edge(edge["from"].get<std::string>(), edge["to"].get<std::string>(), when);
    if (!added && added.error().problem) note(*added.error().problem);
  }
  return machine;
}

void merge(Json& state, const Json& update, const std::vector<std::pair<std::string, std::string>>& reducers) {
  if (!update.is_object()) return;
  for (auto it = update.begin(); it != update.end(); ++it) {
    std::string reducer = "replace";
    for (const auto& [key, name] : reducers) if (key == it.key()) reducer = name;
    Json previous = state.contains(it.key()) ? state[it.key()] : Json();
    if (reducer == "append") {
      Json out = previous.is_array() ? previous : Json::array();
      out.push_back(it.value());
      state[it.key()] = out;
    } else if (reducer == "sum") {
      state[it.key()] = (previous.is_number() ? previous.get<double>() : 0.0) + it.value().get<double>();
    } else {
      state[it.key()] = it.value();
    }
  }
}

// The value at `path` in `state`, as conditions read it (null where there is none).
Json at(const Json& state, const condition::Path& path) {
  const Json* value = &state;
  for (const auto& step : path.steps) {
    if (value->is_array() && step.is_index) {
      auto n = static_cast<std::int64_t>(value->size());
      std::int64_t i = step.index < 0 ? step.index + n : step.index;
      if (i < 0 || i >= n) return nullptr;
      value = &(*value)[static_cast<std::size_t>(i)];
    } else if (value->is_object() && value->contains(step.key)) {
      value = &(*value)[step.key];
    } else {
      return nullptr;
    }
  }
  return *value;
}

Json mapped(const Json& state, const std::vector<StateMapping>& mapping) {
  Json out = Json::object();
  for (const auto& m : mapping) out[m.key] = at(state, m.path);
  return out;
}

struct Outcome {
  Status status;
  Json state;
  std::vector<Json> steps;  // record JSON, with what each subgraph step's machine did
  std::uint32_t steps_run = 0;
  std::string failed_in;    // the subgraph state whose machine failed, if one did
};

Json record_json(const Machine& m, const StepRecord& r) {
  Json next = r.next == kNextEnd ? Json(kEnd) : r.next == kNextNone ? Json(nullptr) : Json(m.states()[r.next].name);
  Json out = {{"step", r.step}, {"state", m.states()[r.state].name}, {"visit", r.visit}, {"next", next},
              {"edge", r.edge < 0 ? Json(nullptr) : Json(r.edge)}};
  if (m.states()[r.state].fan_out) {
    out["branches"] = Json::array();
    for (const Branch& b : r.branches) out["branches"].push_back({{"state", m.states()[b.state].name}, {"visit", b.visit}});
  }
  return out;
}

Outcome run(const Machine& const_machine, Json state, const Json& script, const std::string& prefix);

// A visit of a plain state (its scripted update) or of a subgraph state (its machine's output).
// nullopt when the subgraph's machine failed; `child` then says how.
std::optional<Json> visit(const Machine& m, std::uint32_t index, std::uint32_t visit, const Json& state, const Json& script,
                          const std::string& prefix, Outcome* child) {
  const State& s = m.states()[index];
  if (!s.subgraph) {
    const std::string key = prefix + s.name;
    return script.contains(key) && script[key].size() >= visit ? script[key][visit - 1] : Json();
  }
  const Subgraph& sub = *s.subgraph;
  *child = run(*sub.machine, sub.input ? mapped(state, *sub.input) : state, script, prefix + s.name + "/");
  if (child->status != Status::End && child->status != Status::MaxSteps && child->status != Status::Aborted) return std::nullopt;
  return sub.output ? mapped(child->state, *sub.output) : child->state;
}

Outcome run(const Machine& const_machine, Json state, const Json& script, const std::string& prefix) {
  Machine& machine = const_cast<Machine&>(const_machine);  // frozen by the execution, never changed
  Outcome outcome{Status::Ready, {}, {}, 0, ""};
  Execution execution(machine);
  condition::JsonStateWriter writer(machine.graph().strings());
  std::map<std::uint32_t, Json> subgraph_runs;  // step → what its machine did
  while (execution.status() == Status::Ready) {
    std::uint32_t index = execution.begin_step();
    const State& s = machine.states()[index];
    Json update = nullptr;
    Outcome child;
    if (s.fan_out) {
      std::vector<Json> updates;
      const auto branches = execution.branches();
      for (std::uint32_t i = 0; i < branches.size(); ++i) {
        auto got = visit(machine, branches[i].state, branches[i].visit, state, script, prefix, &child);
        if (!got) {
          outcome.failed_in = machine.states()[branches[i].state].name;
          break;
        }
        updates.push_back(*got);
        execution.complete_branch(i);
      }
      if (!outcome.failed_in.empty()) break;
      for (const Json& u : updates) merge(state, u, machine.options().reducers);
    } else {
      EXPECT_EQ(execution.in_subgraph(), s.subgraph != nullptr);
      auto got = visit(machine, index, execution.visit(), state, script, prefix, &child);
      if (!got) {
        outcome.failed_in = s.name;
        break;
      }
      if (s.subgraph) {
        subgraph_runs[execution.steps_run()] = {{"machine", s.subgraph->machine->options().name},
                                                {"reason", status_name(child.status)},
                                                {"stepsRun", child.steps_run}};
      }
      merge(state, *got, machine.options().reducers);
    }
    writer.write(state, machine.graph().route_paths(s.node));
    execution.complete_step(writer.slots().data());
  }
  outcome.status = outcome.failed_in.empty() ? execution.status() : Status::NoEdgeMatched;
  outcome.state = state;
  for (const StepRecord& r : execution.history()) {
    Json record = record_json(machine, r);
    if (subgraph_runs.count(r.step)) record["subgraph"] = subgraph_runs[r.step];
    outcome.steps.push_back(std::move(record));
  }
  outcome.steps_run = static_cast<std::uint32_t>(execution.history().size());
  return outcome;
}

bool same(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
  if (a.type() != b.type()) return false;
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) if (!same(a[i], b[i])) return false;
    return true;
  }
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) if (!b.contains(it.key()) || !same(it.value(), b[it.key()])) return false;
    return true;
  }
  return a == b;
}

void run_scenario(const Json& scenario) {
  Built built;
  auto machine = build(scenario["machine"], built);
  for (const Problem& p : machine->validate()) {
    built.problems.push_back(p.code);
    built.pointers.push_back(p.pointer);
  }
  const Json& expect = scenario["expect"];
  if (expect.contains("problems")) {
    EXPECT_EQ(Json(built.problems), expect["problems"]);
    EXPECT_EQ(Json(built.pointers), expect["pointers"]);
    return;
  }
  ASSERT_TRUE(built.problems.empty()) << Json(built.problems).dump();
  Outcome outcome = run(*machine, scenario["initialState"], scenario.value("script", Json::object()), "");
  EXPECT_EQ(Json(outcome.steps), expect["steps"]);
  EXPECT_EQ(outcome.steps_run, expect["stepsRun"].get<std::uint32_t>());
  if (expect.contains("error")) {
    EXPECT_EQ(outcome.failed_in, expect["failedIn"].get<std::string>());
  } else {
    EXPECT_EQ(status_name(outcome.status), expect["reason"].get<std::string>());
    EXPECT_TRUE(same(outcome.state, expect["state"])) << outcome.state.dump();
  }
}

const bool registered = [] {
  Json vectors = testing::load_vectors("subgraphs.json");
  if (vectors.is_discarded()) {
    std::fprintf(stderr, "tests/vectors/subgraphs.json is missing or not valid JSON\n");
    std::abort();
  }
  testing::register_cases("SubgraphVectors", vectors["scenarios"], run_scenario);
  return true;
}();

std::unique_ptr<Machine> leaf(const std::string& name) {
  auto m = std::make_unique<Machine>(MachineOptions{name, "a", 10, OnMaxSteps::Return, true, {}, {}});
  EXPECT_TRUE(m->add_state("a"));
  EXPECT_TRUE(m->add_edge("a", std::string(kEnd)));
  return m;
}

TEST(Subgraph, SnapshotUnderWayResumesTheSameStep) {
  Machine m({"parent", "sub", 10, OnMaxSteps::Return, true, {}, {}});
  ASSERT_TRUE(m.add_subgraph("sub", leaf("child"), std::nullopt, std::nullopt));
  ASSERT_TRUE(m.add_edge("sub", std::string(kEnd)));
  ASSERT_TRUE(m.validate().empty());
  Execution e(m);
  e.begin_step();
  EXPECT_TRUE(e.in_subgraph());
  Json snapshot = e.snapshot();
  EXPECT_EQ(snapshot["status"], "subgraph");
  EXPECT_EQ(snapshot["version"], 2);
  auto restored = Execution::restore(m, snapshot);
  ASSERT_TRUE(restored) << restored.error();
  EXPECT_TRUE(restored.value().in_subgraph());
  EXPECT_EQ(restored.value().steps_run(), 1u);
  snapshot["current"] = "sub";
  snapshot["step"] = 0;
  snapshot["visits"] = Json::object();
  EXPECT_FALSE(Execution::restore(m, snapshot)) << "a subgraph under way needs its step begun";
}

TEST(Subgraph, DefinitionRoundTripsAndNestingIsBounded) {
  std::unique_ptr<const Machine> deepest = leaf("level");
  for (std::size_t depth = 2; depth <= kMaxSubgraphDepth; ++depth) {
    auto m = std::make_unique<Machine>(MachineOptions{"level", "s", 10, OnMaxSteps::Return, true, {}, {}});
    ASSERT_TRUE(m->add_subgraph("s", std::move(deepest), Machine::Mapping{{"k", "a.b[0]"}}, std::nullopt));
    ASSERT_TRUE(m->add_edge("s", std::string(kEnd)));
    deepest = std::move(m);
  }
  EXPECT_EQ(deepest->depth(), kMaxSubgraphDepth);
  Json text = definition::to_json(*deepest);
  Machine over({"over", "s", 10, OnMaxSteps::Return, true, {}, {}});
  auto refused = over.add_subgraph("s", std::move(deepest), std::nullopt, std::nullopt);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, "subgraph-too-deep");
  auto loaded = definition::machine_from_json(text);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(definition::to_json(*loaded.value()), text);
  // One level more than allowed, written by hand, is a loading problem, not a crash.
  Json deeper = {{"format", "handoff-graph/state-machine"}, {"version", 1}, {"name", "top"}, {"start", "s"},
                 {"states", Json::array({{{"name", "s"}, {"subgraph", text}}})}, {"edges", Json::array({{{"from", "s"}, {"to", "__end__"}}})}};
  EXPECT_FALSE(definition::machine_from_json(deeper));
}

}  // namespace
}  // namespace handoff::machine
