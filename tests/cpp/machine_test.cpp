// The state machine natively: tests/vectors/machines.json (the same scenarios Node runs), plus
// snapshot/restore. The host side of a run (handlers, reducers) is played by this harness: it
// replays each scenario's scripted updates and merges them with the built-in reducers.
#include <gtest/gtest.h>

#include <cctype>
#include <map>

#include "machine/execution.h"
#include "machine/machine.h"
#include "vectors.h"

namespace handoff::machine {
namespace {

using condition::Json;

struct Built {
  std::unique_ptr<Machine> machine;
  std::vector<std::string> problems;
};

Built build(const Json& spec) {
  MachineOptions options;
  options.name = spec.value("name", "");
  if (spec.contains("start") && spec["start"].is_string()) options.start = spec["start"].get<std::string>();
  if (spec.contains("maxSteps")) options.max_steps = spec["maxSteps"].get<double>();
  options.on_max_steps = spec.value("onMaxSteps", "return") == "throw" ? OnMaxSteps::Throw : OnMaxSteps::Return;
  options.feedback_on_revisit = spec.value("feedbackOnRevisit", true);
  Built built{std::make_unique<Machine>(options), {}};
  for (const Json& state : spec.value("states", Json::array())) {
    auto added = built.machine->add_state(state["name"].get<std::string>(), state.value("feedbackOnRevisit", true));
    if (!added) built.problems.push_back(added.error().code);
  }
  for (const Json& edge : spec.value("edges", Json::array())) {
    std::optional<std::string> when;
    if (edge.contains("when") && edge["when"].is_string()) when = edge["when"].get<std::string>();
    auto added = built.machine->add_edge(edge["from"].get<std::string>(), edge["to"].get<std::string>(), when);
    if (!added) {
      EXPECT_TRUE(added.error().problem.has_value()) << "unexpected syntax error";
      if (added.error().problem) built.problems.push_back(added.error().problem->code);
    }
  }
  for (const Problem& p : built.machine->validate()) built.problems.push_back(p.code);
  return built;
}

// The built-in reducers (js/machine.js implements the same for JavaScript states).
void merge(Json& state, const Json& update, const Json& reducers) {
  if (!update.is_object()) return;
  for (auto it = update.begin(); it != update.end(); ++it) {
    const std::string& key = it.key();
    std::string reducer = reducers.is_object() ? reducers.value(key, "replace") : "replace";
    Json previous = state.contains(key) ? state[key] : Json();
    if (reducer == "append") {
      Json out = previous.is_array() ? previous : Json::array();
      if (it.value().is_array()) {
        for (const Json& v : it.value()) out.push_back(v);
      } else {
        out.push_back(it.value());
      }
      state[key] = out;
    } else if (reducer == "merge") {
      Json out = previous.is_object() ? previous : Json::object();
      for (auto m = it.value().begin(); m != it.value().end(); ++m) out[m.key()] = m.value();
      state[key] = out;
    } else if (reducer == "sum") {
      state[key] = (previous.is_number() ? previous.get<double>() : 0.0) + it.value().get<double>();
    } else {
      state[key] = it.value();
    }
  }
}

Json record_json(const Machine& m, const StepRecord& r) {
  Json next = r.next == kNextEnd ? Json(kEnd) : r.next == kNextNone ? Json(nullptr) : Json(m.states()[r.next].name);
  return {{"step", r.step}, {"state", m.states()[r.state].name}, {"visit", r.visit}, {"next", next},
          {"edge", r.edge < 0 ? Json(nullptr) : Json(r.edge)}};
}

// Numbers compare by value: the harness's sums are doubles, the vectors' integers.
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
  Built built = build(scenario["machine"]);
  const Json& expect = scenario["expect"];
  if (expect.contains("problems")) {
    EXPECT_EQ(Json(built.problems), expect["problems"]);
    return;
  }
  ASSERT_TRUE(built.problems.empty()) << Json(built.problems).dump();
  Machine& machine = *built.machine;
  const Json& script = scenario["script"];
  const Json reducers = scenario["machine"].value("reducers", Json::object());
  Json state = scenario["initialState"];
  std::map<std::string, Json> last_update;
  Json revisions = Json::object();

  Execution execution(machine);
  condition::JsonStateWriter writer(machine.graph().strings());
  while (execution.status() == Status::Ready) {
    std::uint32_t index = execution.begin_step();
    const State& s = machine.states()[index];
    std::uint32_t visit = execution.visit();
    Json revision = nullptr;
    if (execution.revision_applies()) {
      revision = {{"visit", visit}, {"previous", last_update.count(s.name) ? last_update[s.name] : Json()}};
      EXPECT_NE(execution.feedback().find("visit " + std::to_string(visit)), std::string::npos);
    }
    revisions[s.name].push_back(revision);
    Json update = nullptr;
    if (script.contains(s.name) && script[s.name].size() >= visit) update = script[s.name][visit - 1];
    last_update[s.name] = update;
    merge(state, update, reducers);
    writer.write(state, machine.graph().route_paths(s.node));
    execution.complete_step(writer.slots().data());
  }

  Json steps = Json::array();
  for (const StepRecord& r : execution.history()) steps.push_back(record_json(machine, r));
  EXPECT_EQ(steps, expect["steps"]);
  EXPECT_EQ(execution.steps_run(), expect["stepsRun"].get<std::uint32_t>());
  bool throws_on_cap = machine.options().on_max_steps == OnMaxSteps::Throw;
  if (expect.contains("error")) {
    std::string error = expect["error"].get<std::string>();
    if (error == "max-steps") {
      EXPECT_EQ(execution.status(), Status::MaxSteps);
      EXPECT_TRUE(throws_on_cap);
    } else {
      EXPECT_EQ(execution.status(), Status::NoEdgeMatched);
      if (expect.contains("failedState")) {
        EXPECT_EQ(machine.states()[execution.current_state()].name, expect["failedState"].get<std::string>());
      }
    }
  } else {
    EXPECT_EQ(status_name(execution.status()), expect["reason"].get<std::string>());
    if (execution.status() == Status::MaxSteps) {
      EXPECT_FALSE(throws_on_cap);
    }
  }
  if (expect.contains("state")) {
    EXPECT_TRUE(same(state, expect["state"])) << state.dump() << "\n" << expect["state"].dump();
  }
  if (expect.contains("revisions")) {
    for (auto it = expect["revisions"].begin(); it != expect["revisions"].end(); ++it) {
      EXPECT_TRUE(same(revisions[it.key()], it.value())) << it.key() << ": " << revisions[it.key()].dump();
    }
  }
}

const bool registered = [] {
  Json machines = testing::load_vectors("machines.json");
  if (machines.is_discarded()) {
    std::fprintf(stderr, "tests/vectors/machines.json is missing or not valid JSON\n");
    std::abort();
  }
  testing::register_cases("MachineVectors", machines["scenarios"], run_scenario);
  return true;
}();

Machine tool_router() {
  Machine m({"router", "analyze", 20, OnMaxSteps::Return, true, {}});
  (void)m.add_state("analyze");
  (void)m.add_state("tool");
  (void)m.add_edge("analyze", "tool", "$visits.analyze < 3");
  (void)m.add_edge("analyze", std::string(kEnd));
  (void)m.add_edge("tool", "analyze");
  return m;
}

TEST(Execution, SnapshotAtEveryStepResumesExactly) {
  Machine straight = tool_router();
  Execution reference(straight);
  condition::JsonStateWriter writer(straight.graph().strings());
  auto step = [&](Execution& e, Machine& m) {
    std::uint32_t s = e.begin_step();
    writer.write(Json::object(), m.graph().route_paths(m.states()[s].node));
    e.complete_step(writer.slots().data());
  };
  while (reference.status() == Status::Ready) step(reference, straight);
  ASSERT_EQ(reference.status(), Status::End);

  for (std::uint32_t cut = 0; cut <= reference.steps_run(); ++cut) {
    Machine m = tool_router();
    Execution first(m);
    for (std::uint32_t i = 0; i < cut; ++i) step(first, m);
    Json saved = Json::parse(first.snapshot().dump());
    Machine m2 = tool_router();
    auto resumed = Execution::restore(m2, saved);
    ASSERT_TRUE(resumed.ok()) << resumed.error();
    while (resumed->status() == Status::Ready) step(resumed.value(), m2);
    EXPECT_EQ(resumed->snapshot(), reference.snapshot()) << "cut at " << cut;
  }
}

TEST(Execution, RestoreRejectsSnapshotsThatDoNotFit) {
  Machine m = tool_router();
  Execution e(m);
  Json good = e.snapshot();
  for (auto [key, value] : std::vector<std::pair<std::string, Json>>{
           {"format", "x"}, {"version", 2}, {"machine", "other"}, {"current", "nowhere"},
           {"step", 21}, {"visits", Json{{"ghost", 1}}}, {"status", "in-step"}, {"steps", Json::array({1})}}) {
    Json bad = good;
    bad[key] = value;
    Machine fresh = tool_router();
    auto restored = Execution::restore(fresh, bad);
    EXPECT_FALSE(restored.ok()) << key;
  }
}

TEST(Machine, DefinitionIsFixedOnceRunning) {
  Machine m = tool_router();
  Execution e(m);
  EXPECT_EQ(m.add_state("late").error().code, "frozen");
  EXPECT_FALSE(m.add_edge("tool", "analyze").ok());
}

TEST(Execution, StepInfoDescribesTheStepBegunThenItsRecord) {
  Machine m = tool_router();
  Execution e(m);
  condition::JsonStateWriter writer(m.graph().strings());
  std::uint32_t s = e.begin_step();
  contract::StepInfo begun = e.step_info();
  EXPECT_EQ(begun.status, static_cast<std::int32_t>(Status::InStep));
  EXPECT_EQ(begun.step, 1);
  EXPECT_EQ(begun.state, static_cast<std::int32_t>(s));
  EXPECT_EQ(begun.visit, 1);
  EXPECT_EQ(begun.next, kNextNone);
  EXPECT_EQ(begun.edge, contract::kNoEdge);
  EXPECT_EQ(begun.revision, 0);
  writer.write(Json::object(), m.graph().route_paths(m.states()[s].node));
  e.complete_step(writer.slots().data());
  contract::StepInfo done = e.step_info();
  EXPECT_EQ(done.state, static_cast<std::int32_t>(s));  // the step's state, not the next one
  EXPECT_EQ(done.next, e.history().back().next);
  EXPECT_EQ(done.edge, e.history().back().edge);
}

TEST(Execution, NoEdgeMatchedKeepsWhatRoutingRead) {
  MachineOptions options;
  options.start = "a";
  Machine m(options);
  ASSERT_TRUE(m.add_state("a").ok());
  ASSERT_TRUE(m.add_edge("a", "a", "$visits.a > 5 and note == 'x' and n > 1e21").ok());
  Execution e(m);
  condition::JsonStateWriter writer(m.graph().strings());
  e.begin_step();
  writer.write(Json{{"note", std::string(70, 'y')}, {"n", 0.000001}}, m.graph().route_paths(m.states()[0].node));
  ASSERT_EQ(e.complete_step(writer.slots().data()), Status::NoEdgeMatched);
  std::vector<std::pair<std::string, std::string>> expected{
      {"$visits.a", "1"}, {"n", "0.000001"}, {"note", "\"" + std::string(56, 'y') + "..."}};
  EXPECT_EQ(e.unmatched_reads(), expected);
}

TEST(Machine, ProblemsCarryJsonPointers) {
  MachineOptions options;
  options.start = "nowhere";
  options.max_steps = 0;
  Machine m(options);
  ASSERT_TRUE(m.add_state("a").ok());
  ASSERT_TRUE(m.add_edge("b", "c").ok());
  std::vector<std::string> pointers;
  for (const Problem& p : m.validate()) pointers.push_back(p.pointer);
  EXPECT_EQ(pointers, (std::vector<std::string>{"/maxSteps", "/start", "/edges/0/from", "/edges/0/to", "/states/0"}));
  EXPECT_EQ(m.add_state("a").error().pointer, "/states/1/name");
  EXPECT_EQ(m.add_edge(kEnd, "a").error().problem->pointer, "/edges/1/from");
}

}  // namespace
}  // namespace handoff::machine
