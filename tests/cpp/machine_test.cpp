// The state machine natively: tests/vectors/machines.json (the same scenarios Node runs), plus
// snapshot/restore. The host side of a run (handlers, reducers) is played by this harness: it
// replays each scenario's scripted updates and merges them with the built-in reducers.
#include <gtest/gtest.h>

#include <cctype>
#include <map>

#include "export/definition.h"
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
  if (spec.contains("start") && spec["start"].is_string()) options.start = spec["start"].get<std::string>();
  if (spec.contains("maxSteps")) options.max_steps = spec["maxSteps"].get<double>();
  options.on_max_steps = on_max_steps_of(spec.value("onMaxSteps", "return")).value();
  options.feedback_on_revisit = spec.value("feedbackOnRevisit", true);
  for (const Json& name : spec.value("noFeedbackStates", Json::array())) options.no_feedback_states.push_back(name.get<std::string>());
  Built built{std::make_unique<Machine>(options), {}, {}};
  auto note = [&](const Problem& p) {
    built.problems.push_back(p.code);
    built.pointers.push_back(p.pointer);
  };
  for (const Json& state : spec.value("states", Json::array())) {
    std::optional<std::string> task;
    if (state.contains("task")) task = state["task"].get<std::string>();
    auto added = built.machine->add_state(state["name"].get<std::string>(), state.value("feedbackOnRevisit", true), task);
    if (!added) note(added.error());
    if (added && state.contains("handoffs")) {
      auto set = built.machine->set_handoffs(state["name"].get<std::string>(), state["handoffs"].get<std::uint32_t>());
      if (!set) note(set.error());
    }
  }
  for (const Json& edge : spec.value("edges", Json::array())) {
    std::optional<std::string> when;
    if (edge.contains("when") && edge["when"].is_string()) when = edge["when"].get<std::string>();
    std::string description = edge.value("description", "");
    auto added = edge.contains("predicate")
                     ? built.machine->add_predicate_edge(edge["from"].get<std::string>(), edge["to"].get<std::string>(), description)
                 : edge.value("transfer", false)
                     ? built.machine->add_transfer_edge(edge["from"].get<std::string>(), edge["to"].get<std::string>(), description)
                     : built.machine->add_edge(edge["from"].get<std::string>(), edge["to"].get<std::string>(), when, description);
    if (!added) {
      EXPECT_TRUE(added.error().problem.has_value()) << "unexpected syntax error";
      if (added.error().problem) note(*added.error().problem);
    }
  }
  for (const Problem& p : built.machine->validate()) note(p);
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

// The host side of an edge decided by a function (the vectors' "predicate": the JavaScript runner
// turns the same spec into a function): its verdict on the update just returned, or nullopt for
// a function that throws.
std::optional<bool> predicate_verdict(const Json& spec, std::uint32_t call, const Json& last_output) {
  if (spec.contains("throws")) return std::nullopt;
  if (spec.contains("verdicts")) return call < spec["verdicts"].size() && spec["verdicts"][call].get<bool>();
  const Json& wanted = spec["lastOutputEquals"];
  if (!last_output.is_object()) return false;
  for (auto it = wanted.begin(); it != wanted.end(); ++it) {
    if (!last_output.contains(it.key()) || last_output[it.key()] != it.value()) return false;
  }
  return true;
}

void run_scenario(const Json& scenario) {
  Built built = build(scenario["machine"]);
  const Json& expect = scenario["expect"];
  if (expect.contains("problems")) {
    EXPECT_EQ(Json(built.problems), expect["problems"]);
    if (expect.contains("pointers")) {
      EXPECT_EQ(Json(built.pointers), expect["pointers"]);
    }
    return;
  }
  ASSERT_TRUE(built.problems.empty()) << Json(built.problems).dump();
  Machine& machine = *built.machine;
  const Json script = scenario.value("script", Json::object());  // a scenario of transfers alone has no script
  const Json& spec_edges = scenario["machine"].value("edges", Json::array());
  const Json reducers = scenario["machine"].value("reducers", Json::object());
  Json state = scenario["initialState"];
  std::map<std::string, Json> last_update;
  Json revisions = Json::object();
  Json feedback = Json::object();
  Json outputs = Json::object();
  Json predicate_calls = Json::array();
  std::map<std::uint32_t, std::uint32_t> calls_of_edge;
  bool predicate_threw = false;
  // A handoff-enabled state's handler: what it was offered on each visit, and the scenario's
  // choice for that visit ("choices": { state: [tool name, state name or null per visit] }).
  Json transfers = Json::object();
  const Json choices = scenario.value("choices", Json::object());

  Execution execution(machine);
  // The run's input variables are the initial state's top-level keys.
  if (auto bound = execution.bind_variables(state); !bound) {
    ASSERT_TRUE(expect.contains("missing")) << "unexpected missing variables";
    Json missing = Json::array();
    for (const auto& [name, variable] : bound.error().missing) missing.push_back({name, variable});
    EXPECT_EQ(missing, expect["missing"]);
    EXPECT_EQ(expect.value("error", ""), "missing-variables");
    return;
  }
  ASSERT_FALSE(expect.contains("missing")) << "the variables were all there";
  condition::JsonStateWriter writer(machine.graph().strings());
  while (execution.status() == Status::Ready) {
    std::uint32_t index = execution.begin_step();
    const State& s = machine.states()[index];
    std::uint32_t visit = execution.visit();
    Json revision = nullptr;
    Json text = nullptr;
    if (execution.revision_applies()) {
      Json previous = last_update.count(s.name) ? last_update[s.name] : Json();
      revision = {{"visit", visit}, {"previous", previous}};
      EXPECT_NE(execution.feedback().find("visit " + std::to_string(visit)), std::string::npos);
      text = execution.revision_text(previous.dump());
    }
    revisions[s.name].push_back(revision);
    feedback[s.name].push_back(text);
    Json update = nullptr;
    if (script.contains(s.name) && script[s.name].size() >= visit) update = script[s.name][visit - 1];
    last_update[s.name] = update;
    outputs[s.name].push_back(update);
    if (s.handoffs) {
      Json offered = Json::array();
      for (const Json& t : execution.transfers()) offered.push_back(t["name"]);
      transfers[s.name].push_back(offered);
      if (choices.contains(s.name) && choices[s.name].size() >= visit && choices[s.name][visit - 1].is_string()) {
        auto chosen = execution.choose_transfer(choices[s.name][visit - 1].get<std::string>());
        if (!chosen) transfers[s.name].back().push_back("refused: " + chosen.error());
      }
    }
    merge(state, update, reducers);
    writer.write(state, machine.graph().route_paths(s.node));
    Status status = execution.complete_step(writer.slots().data());
    while (status == Status::AwaitingPredicate) {
      auto position = static_cast<std::uint32_t>(execution.step_info().edge);
      std::uint32_t edge = machine.graph().out_edges(s.node)[position];
      predicate_calls.push_back({execution.steps_run(), edge});
      auto verdict = predicate_verdict(spec_edges[edge]["predicate"], calls_of_edge[edge]++, update);
      if (!verdict) {
        predicate_threw = true;
        break;
      }
      status = execution.answer_predicate(*verdict);
      if (status == Status::InStep) {
        writer.write(state, machine.graph().route_paths(s.node));
        status = execution.complete_step(writer.slots().data());
      }
    }
    if (predicate_threw) break;
  }

  Json steps = Json::array();
  for (const StepRecord& r : execution.history()) steps.push_back(record_json(machine, r));
  EXPECT_EQ(steps, expect["steps"]);
  bool throws_on_cap = machine.options().on_max_steps == OnMaxSteps::Throw;
  if (expect.contains("error")) {
    std::string error = expect["error"].get<std::string>();
    if (error == "max-steps") {
      EXPECT_EQ(execution.status(), Status::MaxSteps);
      EXPECT_TRUE(throws_on_cap);
    } else if (error == "predicate-threw") {
      EXPECT_TRUE(predicate_threw);
      EXPECT_EQ(execution.status(), Status::AwaitingPredicate);
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
  // A step a throwing predicate interrupted is not one of the steps run.
  EXPECT_EQ(predicate_threw ? execution.history().size() : execution.steps_run(), expect["stepsRun"].get<std::uint32_t>());
  if (expect.contains("maxStepsReached")) {
    EXPECT_EQ(execution.max_steps_flag(), expect["maxStepsReached"].get<bool>() ? 1 : 0);
  } else {
    EXPECT_EQ(execution.max_steps_flag(), -1) << "only 'return-with-flag' runs carry the flag";
  }
  if (expect.contains("state")) {
    EXPECT_TRUE(same(state, expect["state"])) << state.dump() << "\n" << expect["state"].dump();
  }
  if (expect.contains("revisions")) {
    for (auto it = expect["revisions"].begin(); it != expect["revisions"].end(); ++it) {
      EXPECT_TRUE(same(revisions[it.key()], it.value())) << it.key() << ": " << revisions[it.key()].dump();
    }
  }
  if (expect.contains("feedback")) {
    for (auto it = expect["feedback"].begin(); it != expect["feedback"].end(); ++it) {
      EXPECT_EQ(feedback[it.key()], it.value()) << it.key();
    }
  }
  if (expect.contains("outputs")) {
    EXPECT_TRUE(same(outputs, expect["outputs"])) << outputs.dump();
  }
  if (expect.contains("transfers")) {
    EXPECT_EQ(transfers, expect["transfers"]);
  }
  if (expect.contains("predicateCalls")) {
    EXPECT_EQ(predicate_calls, expect["predicateCalls"]);
  }
  if (expect.contains("tasks")) {
    for (auto it = expect["tasks"].begin(); it != expect["tasks"].end(); ++it) {
      auto index = machine.state_index(it.key());
      ASSERT_TRUE(index) << it.key();
      const auto& task = execution.task(*index);
      EXPECT_EQ(task ? Json(*task) : Json(nullptr), it.value()) << it.key();
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
  Machine m({"router", "analyze", 20, OnMaxSteps::Return, true, {}, {}});
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
  // (Version 2, which holds fan-outs and subgraphs under way, is read too: see fanout_test.cpp.)
  Json good = e.snapshot();
  for (auto [key, value] : std::vector<std::pair<std::string, Json>>{
           {"format", "x"}, {"version", 3}, {"machine", "other"}, {"current", "nowhere"},
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

namespace handoff::machine {
namespace {

// A research → write machine whose tasks name the input variables {topic} and {words}.
Machine templated() {
  MachineOptions options;
  options.name = "templated";
  options.start = "research";
  Machine m(options);
  EXPECT_TRUE(m.add_state("research", true, "Research {topic}").ok());
  EXPECT_TRUE(m.add_state("write", true, "Write {words} words on {topic} ({{draft}})").ok());
  EXPECT_TRUE(m.add_edge("research", "write").ok());
  EXPECT_TRUE(m.add_edge("write", std::string(kEnd)).ok());
  return m;
}

TEST(TaskTemplate, ParsesPlaceholdersAndEscapes) {
  auto t = TaskTemplate::parse("{a} and {{b}} and {a}{c}}}");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->variables(), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(t->render(Json{{"a", "x"}, {"c", 2.5}}), "x and {b} and x2.5}");
  EXPECT_EQ(TaskTemplate::parse("").value().render(Json::object()), "");
}

TEST(TaskTemplate, ErrorsSayWhatAndWhereInCharacters) {
  EXPECT_EQ(TaskTemplate::parse("é } x").error().message, "a lone '}' at character 3 (write '}}' for a literal brace)");
  EXPECT_EQ(TaskTemplate::parse("日本 {topic").error().message,
            "the placeholder opened at character 4 is never closed (write '{{' for a literal brace)");
  EXPECT_EQ(TaskTemplate::parse("{a{b}}").error().message,
            "the placeholder opened at character 1 is never closed (write '{{' for a literal brace)");
  EXPECT_EQ(TaskTemplate::parse("x {}").error().message, "an empty placeholder '{}' at character 3 (write '{{}}' for literal braces)");
  EXPECT_FALSE(TaskTemplate::parse("{a b}").ok());
  EXPECT_FALSE(TaskTemplate::parse("{\xE3\x80\x80}").ok());  // U+3000 is white space
}

TEST(Execution, TemplateVariablesTravelInTheSnapshot) {
  Machine m = templated();
  Execution e(m);
  EXPECT_FALSE(e.task(0).has_value()) << "not bound yet";
  auto missing = e.bind_variables(Json{{"topic", "otters"}});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().missing, (std::vector<std::pair<std::string, std::string>>{{"write", "words"}}));
  ASSERT_TRUE(e.bind_variables(Json{{"topic", "otters"}, {"words", 300}, {"unused", Json::array({1})}}).ok());
  EXPECT_EQ(*e.task(1), "Write 300 words on otters ({draft})");
  Json saved = e.snapshot();
  EXPECT_EQ(saved["variables"], (Json{{"topic", "otters"}, {"words", 300}})) << "only what the templates name";

  Machine again = templated();
  auto resumed = Execution::restore(again, saved);
  ASSERT_TRUE(resumed.ok()) << resumed.error();
  EXPECT_EQ(*resumed->task(0), "Research otters");
  saved.erase("variables");
  Machine third = templated();
  auto refused = Execution::restore(third, saved);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("'variables'"), std::string::npos) << refused.error();
}

TEST(Execution, TemplatesRefuseWhatTheyCannotPrintSafely) {
  Machine m = templated();
  Execution e(m);
  Json deep = 1;
  for (int i = 0; i < kMaxPrintedDepth + 1; ++i) deep = Json::array({deep});
  auto refused = e.bind_variables(Json{{"topic", deep}, {"words", 1}});
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.error().missing.empty());
  EXPECT_EQ(refused.error().problem, "the input variable 'topic' nests deeper than 512 levels, too deep to show in a task");
  Json shallow = 1;
  for (int i = 0; i < kMaxPrintedDepth; ++i) shallow = Json::array({shallow});
  EXPECT_TRUE(e.bind_variables(Json{{"topic", shallow}, {"words", 1}}).ok());

  MachineOptions options;
  options.start = "a";
  Machine big(options);
  ASSERT_TRUE(big.add_state("a", true, "{x}{x}{x}{x}").ok());
  ASSERT_TRUE(big.add_edge("a", std::string(kEnd)).ok());
  Execution b(big);
  EXPECT_TRUE(b.bind_variables(Json{{"x", std::string(kMaxTaskBytes / 4, 'x')}}).ok());
  EXPECT_EQ(b.task(0)->size(), kMaxTaskBytes);
  auto too_long = b.bind_variables(Json{{"x", std::string(kMaxTaskBytes / 4 + 1, 'x')}});
  ASSERT_FALSE(too_long.ok());
  EXPECT_EQ(too_long.error().problem, "the task of state 'a' would be longer than 16777216 bytes once filled");
  EXPECT_EQ(b.task(0)->size(), kMaxTaskBytes) << "a refused binding changes nothing";
}

TEST(Execution, RevisionTextShowsDeepOutputsAsGiven) {
  Machine m = tool_router();
  Execution e(m);
  e.begin_step();
  std::string deep(kMaxPrintedDepth + 1, '[');
  deep += std::string(kMaxPrintedDepth + 1, ']');
  EXPECT_NE(e.revision_text(deep).find(deep), std::string::npos);
}

TEST(Execution, SnapshotsOfMachinesWithoutTheNewFieldsKeepTheirFingerprint) {
  // A machine without tasks, noFeedbackStates or predicates writes the definition it wrote before
  // those existed, so snapshots taken by earlier versions still resume.
  Machine m = tool_router();
  Json definition = definition::to_json(m);
  EXPECT_FALSE(definition.contains("noFeedbackStates"));
  for (const Json& s : definition["states"]) EXPECT_FALSE(s.contains("task"));
  for (const Json& e : definition["edges"]) EXPECT_FALSE(e.contains("predicate"));
  EXPECT_FALSE(Execution(m).snapshot().contains("variables"));
}

TEST(Execution, PredicateProtocolAsksOneEdgeAtATime) {
  MachineOptions options;
  options.start = "a";
  Machine m(options);
  ASSERT_TRUE(m.add_state("a").ok());
  ASSERT_TRUE(m.add_predicate_edge("a", "a", "first").ok());
  ASSERT_TRUE(m.add_edge("a", "a", "x == 1").ok());
  ASSERT_TRUE(m.add_predicate_edge("a", std::string(kEnd)).ok());
  EXPECT_TRUE(m.has_predicates());
  EXPECT_TRUE(m.out_edge(0, 0).predicate);
  EXPECT_FALSE(m.out_edge(0, 1).predicate);
  Execution e(m);
  condition::JsonStateWriter writer(m.graph().strings());
  const auto& paths = m.graph().route_paths(m.states()[0].node);
  e.begin_step();
  EXPECT_EQ(e.answer_predicate(true), Status::InStep) << "nothing is awaited yet";
  writer.write(Json{{"x", 2}}, paths);
  ASSERT_EQ(e.complete_step(writer.slots().data()), Status::AwaitingPredicate);
  EXPECT_EQ(e.step_info().edge, 0);
  EXPECT_EQ(e.step_info().status, static_cast<std::int32_t>(Status::AwaitingPredicate));
  EXPECT_TRUE(e.history().empty()) << "no record before the step is decided";
  EXPECT_EQ(e.answer_predicate(false), Status::InStep);
  writer.write(Json{{"x", 2}}, paths);
  ASSERT_EQ(e.complete_step(writer.slots().data()), Status::AwaitingPredicate);
  EXPECT_EQ(e.step_info().edge, 2) << "edge 1's condition was false, so edge 2 is asked";
  EXPECT_EQ(e.answer_predicate(true), Status::End);
  EXPECT_EQ(e.history().back().edge, 2);
  EXPECT_EQ(e.step_info().edge, 2);

  // The next step starts from the first edge again.
  Machine m2(options);
  ASSERT_TRUE(m2.add_state("a").ok());
  ASSERT_TRUE(m2.add_predicate_edge("a", "a").ok());
  ASSERT_TRUE(m2.add_edge("a", std::string(kEnd), "$step == 2").ok());
  Execution e2(m2);
  condition::JsonStateWriter writer2(m2.graph().strings());
  for (int step = 1; step <= 2; ++step) {
    e2.begin_step();
    writer2.write(Json::object(), m2.graph().route_paths(m2.states()[0].node));
    ASSERT_EQ(e2.complete_step(writer2.slots().data()), Status::AwaitingPredicate);
    EXPECT_EQ(e2.step_info().edge, 0);
    if (step == 1) {
      EXPECT_EQ(e2.answer_predicate(true), Status::Ready);
    } else {
      EXPECT_EQ(e2.answer_predicate(false), Status::InStep);
      writer2.write(Json::object(), m2.graph().route_paths(m2.states()[0].node));
      EXPECT_EQ(e2.complete_step(writer2.slots().data()), Status::End);
    }
  }
}

TEST(Machine, PredicateEdgesHaveNoPortableDefinitionButAFingerprint) {
  MachineOptions options;
  options.start = "a";
  Machine with(options);
  ASSERT_TRUE(with.add_state("a").ok());
  ASSERT_TRUE(with.add_predicate_edge("a", std::string(kEnd), "done").ok());
  auto problem = definition::portability_problem(with);
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(*problem,
            "edge 0 ('a' -> '__end__', 'done') is decided by a function, which a definition cannot hold: write it as a "
            "condition string (docs/conditions.md) to store or send the machine");
  Machine without(options);
  ASSERT_TRUE(without.add_state("a").ok());
  ASSERT_TRUE(without.add_edge("a", std::string(kEnd), std::nullopt, "done").ok());
  EXPECT_FALSE(definition::portability_problem(without).has_value());
  // A snapshot of one does not resume on the other.
  Execution e(with);
  EXPECT_FALSE(Execution::restore(without, e.snapshot()).ok());
}

TEST(Execution, RevisionTextIsTheSeedsSentenceAfterThePriorOutput) {
  Machine m = tool_router();
  Execution e(m);
  e.begin_step();
  EXPECT_EQ(e.revision_text("{ \"b\" : [1, 2.50] }"),
            "Prior visit's output:\n{\"b\":[1,2.5]}\n\nGraph state 'analyze' visit #1. Prior visit's output is provided "
            "above; refine your response based on it.");
  EXPECT_EQ(e.revision_text("not json").substr(0, 31), "Prior visit's output:\nnot json\n");
}

TEST(Machine, ReturnWithFlagRoundTripsThroughItsName) {
  for (OnMaxSteps value : {OnMaxSteps::Return, OnMaxSteps::Throw, OnMaxSteps::ReturnWithFlag}) {
    EXPECT_EQ(on_max_steps_of(on_max_steps_name(value)), value);
  }
  EXPECT_FALSE(on_max_steps_of("RETURN_WITH_FLAG").has_value());
}

}  // namespace
}  // namespace handoff::machine
