// Fan-out and map states natively: tests/vectors/fanout.json (the scenarios Node and Chromium run),
// with this harness as the host (handlers replayed from the script, one branch after another, the
// built-in reducers), plus the executor's join and snapshot bookkeeping.
#include <gtest/gtest.h>

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
  std::vector<std::string> pointers;
};

Built build(const Json& spec) {
  MachineOptions options;
  options.name = spec.value("name", "machine");
  if (spec.contains("start")) options.start = spec["start"].get<std::string>();
  if (spec.contains("maxSteps")) options.max_steps = spec["maxSteps"].get<double>();
  Built built{std::make_unique<Machine>(options), {}, {}};
  auto note = [&](const Problem& p) {
    built.problems.push_back(p.code);
    built.pointers.push_back(p.pointer);
  };
  for (const Json& state : spec.value("states", Json::array())) {
    std::optional<double> concurrency;
    if (state.contains("concurrency")) concurrency = state["concurrency"].get<double>();
    const std::string name = state["name"].get<std::string>();
    Expected<void, Problem> added = {};
    if (state.contains("branches")) added = built.machine->add_fan_out(name, state["branches"].get<std::vector<std::string>>(), concurrency);
    else if (state.contains("map")) added = built.machine->add_map(name, state["map"]["state"].get<std::string>(), state["map"]["over"].get<std::string>(), concurrency);
    else added = built.machine->add_state(name);
    if (!added) note(added.error());
    if (state.contains("handoffs")) EXPECT_TRUE(built.machine->set_handoffs(name, state["handoffs"].get<std::uint32_t>()));
  }
  for (const Json& edge : spec.value("edges", Json::array())) {
    std::optional<std::string> when;
    if (edge.contains("when")) when = edge["when"].get<std::string>();
    auto added = edge.value("transfer", false) ? built.machine->add_transfer_edge(edge["from"].get<std::string>(), edge["to"].get<std::string>())
                                               : built.machine->add_edge(edge["from"].get<std::string>(), edge["to"].get<std::string>(), when);
    if (!added && added.error().problem) note(*added.error().problem);
  }
  for (const Problem& p : built.machine->validate()) note(p);
  return built;
}

// The built-in reducers the vectors use (js/reducers.js is the JavaScript side).
void merge(Json& state, const Json& update, const Json& reducers) {
  if (!update.is_object()) return;
  for (auto it = update.begin(); it != update.end(); ++it) {
    std::string reducer = reducers.value(it.key(), "replace");
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

// The value at a dotted path of plain keys (the vectors' lists sit at such paths).
Json at_path(const Json& state, const std::string& path) {
  const Json* value = &state;
  std::size_t from = 0;
  while (from <= path.size()) {
    std::size_t dot = path.find('.', from);
    std::string key = path.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
    if (!value->is_object() || !value->contains(key)) return nullptr;
    value = &(*value)[key];
    if (dot == std::string::npos) break;
    from = dot + 1;
  }
  return *value;
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

void run_scenario(const Json& scenario) {
  Built built = build(scenario["machine"]);
  const Json& expect = scenario["expect"];
  if (expect.contains("problems")) {
    EXPECT_EQ(Json(built.problems), expect["problems"]);
    EXPECT_EQ(Json(built.pointers), expect["pointers"]);
    return;
  }
  ASSERT_TRUE(built.problems.empty()) << Json(built.problems).dump();
  Machine& machine = *built.machine;
  const Json script = scenario.value("script", Json::object());
  const Json throws = scenario.value("throws", Json::object());
  const Json reducers = scenario["machine"].value("reducers", Json::object());
  Json state = scenario["initialState"];
  std::map<std::string, Json> last_update;
  Json outputs = Json::object();
  Json items = Json::object();
  Json indexes = Json::object();
  Json revisions = Json::object();
  std::string error;
  Json failed_branch;
  auto update_of = [&](const std::string& name, std::uint32_t visit) {
    return script.contains(name) && script[name].size() >= visit ? script[name][visit - 1] : Json();
  };

  Execution execution(machine);
  condition::JsonStateWriter writer(machine.graph().strings());
  while (execution.status() == Status::Ready && error.empty()) {
    std::uint32_t index = execution.begin_step();
    const State& s = machine.states()[index];
    Json update = nullptr;
    if (s.fan_out) {
      if (s.fan_out->is_map()) {
        writer.write(state, {s.fan_out->over_path});
        if (!execution.set_items(writer.slots()[0])) {
          error = "not-a-list";
          break;
        }
      }
      const auto branches = execution.branches();
      std::vector<Json> updates;
      for (std::uint32_t i = 0; i < branches.size(); ++i) {
        EXPECT_FALSE(execution.joined()) << "joined before every branch completed";
        const std::string& name = machine.states()[branches[i].state].name;
        const std::uint32_t visit = branches[i].visit;
        indexes[name].push_back(i);
        if (s.fan_out->is_map()) items[name].push_back(at_path(state, s.fan_out->over)[i]);
        revisions[name].push_back(execution.branch_revision(i) ? Json{{"visit", visit}, {"previous", last_update[name]}} : Json());
        if (throws.contains(name) && throws[name]["visit"] == visit) {
          error = "branch-threw";
          failed_branch = {{"state", name}, {"visit", visit}, {"index", i}};
          break;
        }
        updates.push_back(update_of(name, visit));
        EXPECT_TRUE(execution.complete_branch(i));
        EXPECT_FALSE(execution.complete_branch(i)) << "a branch completed twice";
      }
      if (!error.empty()) break;
      EXPECT_TRUE(execution.joined());
      for (std::uint32_t i = 0; i < branches.size(); ++i) {
        const std::string& name = machine.states()[branches[i].state].name;
        merge(state, updates[i], reducers);
        last_update[name] = updates[i];
        outputs[name].push_back(updates[i]);
      }
    } else {
      update = update_of(s.name, execution.visit());
      merge(state, update, reducers);
    }
    last_update[s.name] = update;
    outputs[s.name].push_back(update);
    writer.write(state, machine.graph().route_paths(s.node));
    execution.complete_step(writer.slots().data());
  }

  Json steps = Json::array();
  for (const StepRecord& r : execution.history()) steps.push_back(record_json(machine, r));
  EXPECT_EQ(steps, expect["steps"]);
  EXPECT_EQ(execution.history().size(), expect["stepsRun"].get<std::size_t>());
  if (expect.contains("error")) {
    const std::string wanted = expect["error"].get<std::string>();
    if (wanted == "no-edge-matched") {
      EXPECT_EQ(execution.status(), Status::NoEdgeMatched);
    } else {
      EXPECT_EQ(error, wanted);
    }
    if (expect.contains("branch")) {
      EXPECT_EQ(failed_branch, expect["branch"]);
    }
  } else {
    EXPECT_EQ(status_name(execution.status()), expect["reason"].get<std::string>());
  }
  if (expect.contains("state")) {
    EXPECT_TRUE(same(state, expect["state"])) << state.dump();
  }
  if (expect.contains("outputs")) {
    EXPECT_TRUE(same(outputs, expect["outputs"])) << outputs.dump();
  }
  for (const char* key : {"items", "indexes", "revisions"}) {
    if (!expect.contains(key)) continue;
    const Json& seen = std::string(key) == "items" ? items : std::string(key) == "indexes" ? indexes : revisions;
    for (auto it = expect[key].begin(); it != expect[key].end(); ++it) {
      EXPECT_TRUE(same(seen.contains(it.key()) ? seen[it.key()] : Json::array(), it.value())) << key << " of " << it.key();
    }
  }
}

const bool registered = [] {
  Json vectors = testing::load_vectors("fanout.json");
  if (vectors.is_discarded()) {
    std::fprintf(stderr, "tests/vectors/fanout.json is missing or not valid JSON\n");
    std::abort();
  }
  testing::register_cases("FanOutVectors", vectors["scenarios"], run_scenario);
  return true;
}();

Machine two_branches() {
  Machine m({"pair", "fan", 10, OnMaxSteps::Return, true, {}, {}});
  EXPECT_TRUE(m.add_fan_out("fan", {"a", "b"}));
  EXPECT_TRUE(m.add_state("a"));
  EXPECT_TRUE(m.add_state("b"));
  EXPECT_TRUE(m.add_edge("fan", std::string(kEnd)));
  EXPECT_TRUE(m.validate().empty());
  return m;
}

TEST(FanOut, RoutingWaitsForTheJoin) {
  Machine m = two_branches();
  Execution e(m);
  e.begin_step();
  ASSERT_EQ(e.branches().size(), 2u);
  condition::JsonStateWriter writer(m.graph().strings());
  writer.write(Json::object(), m.graph().route_paths(m.states()[0].node));
  EXPECT_EQ(e.complete_step(writer.slots().data()), Status::InStep) << "routed before the branches completed";
  EXPECT_TRUE(e.history().empty());
  EXPECT_TRUE(e.complete_branch(1));
  EXPECT_FALSE(e.complete_branch(7));
  EXPECT_TRUE(e.complete_branch(0));
  EXPECT_EQ(e.complete_step(writer.slots().data()), Status::End);
  EXPECT_EQ(e.visits(1), 1u);
}

TEST(FanOut, CancelledStepUndoesTheBranchVisits) {
  Machine m = two_branches();
  Execution e(m);
  e.begin_step();
  e.cancel_step();
  EXPECT_EQ(e.steps_run(), 0u);
  EXPECT_EQ(e.visits(0) + e.visits(1) + e.visits(2), 0u);
}

TEST(FanOut, SnapshotMidFanOutResumesWithTheBranchesLeft) {
  Machine m = two_branches();
  Execution e(m);
  e.begin_step();
  EXPECT_TRUE(e.complete_branch(0));
  Json snapshot = e.snapshot();
  EXPECT_EQ(snapshot["version"], 2);
  EXPECT_EQ(snapshot["status"], "fan-out");
  EXPECT_EQ(snapshot["branches"], Json::parse(R"([{"state":"a","visit":1,"done":true},{"state":"b","visit":1,"done":false}])"));
  auto restored = Execution::restore(m, snapshot);
  ASSERT_TRUE(restored) << restored.error();
  Execution& r = restored.value();
  EXPECT_TRUE(r.fan_out());
  EXPECT_TRUE(r.branch_completed(0));
  EXPECT_FALSE(r.branch_completed(1));
  EXPECT_FALSE(r.joined());
  EXPECT_FALSE(r.complete_branch(0)) << "branch a had completed before the snapshot";
  EXPECT_TRUE(r.complete_branch(1));
  condition::JsonStateWriter writer(m.graph().strings());
  writer.write(Json::object(), m.graph().route_paths(m.states()[0].node));
  EXPECT_EQ(r.complete_step(writer.slots().data()), Status::End);
  Json done = r.snapshot();
  EXPECT_EQ(done["version"], 2);
  EXPECT_EQ(done["steps"][0]["branches"], Json::parse(R"([{"state":"a","visit":1},{"state":"b","visit":1}])"));
  EXPECT_TRUE(Execution::restore(m, done));
}

TEST(FanOut, SnapshotsWithoutFanOutsStayVersion1AndVersion1StillLoads) {
  Machine m({"plain", "a", 10, OnMaxSteps::Return, true, {}, {}});
  ASSERT_TRUE(m.add_state("a"));
  ASSERT_TRUE(m.add_edge("a", std::string(kEnd)));
  Execution e(m);
  Json snapshot = e.snapshot();
  EXPECT_EQ(snapshot["version"], 1);
  EXPECT_TRUE(Execution::restore(m, snapshot));
  snapshot["version"] = 3;
  EXPECT_FALSE(Execution::restore(m, snapshot));
}

TEST(FanOut, RestoreRefusesBranchesThatDoNotFit) {
  Machine m = two_branches();
  Execution e(m);
  e.begin_step();
  Json snapshot = e.snapshot();
  Json swapped = snapshot;
  std::swap(swapped["branches"][0], swapped["branches"][1]);
  EXPECT_FALSE(Execution::restore(m, swapped));
  Json unvisited = snapshot;
  unvisited["branches"][0]["visit"] = 2;
  EXPECT_FALSE(Execution::restore(m, unvisited));
  Json no_done = snapshot;
  no_done["branches"][0].erase("done");
  EXPECT_FALSE(Execution::restore(m, no_done));
}

}  // namespace
}  // namespace handoff::machine
