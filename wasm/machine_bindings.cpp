// The state machine's classes as JavaScript sees them, in the full module: Machine (building one,
// src/machine/machine.h) and Execution (a run between its steps, src/machine/execution.h), plus
// the exports of graphs and machines (src/export/dag.h), as embind tables over the core's calls.
// A step itself is raw (step_exports.cpp: once per step, on the transfer area); js/machine.js wraps
// these classes with the package's idioms. `state` arguments are indices from stateNames(); one
// out of range answers null or [].
#include <emscripten/bind.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dag_render.h"
#include "export/dag.h"
#include "export/definition.h"
#include "js_values.h"
#include "machine/execution.h"
#include "machine/machine.h"

namespace {

using emscripten::val;
using handoff::bindings::Json;
using handoff::bindings::paths_json;
using handoff::bindings::render;
using handoff::bindings::to_js;
using handoff::graph::HandoffGraph;
using handoff::machine::Execution;
using handoff::machine::Machine;

// An optional string argument: undefined is none.
std::optional<std::string> optional_string(const val& value) {
  if (value.isUndefined()) return std::nullopt;
  return value.as<std::string>();
}

std::optional<std::string_view> view_of(const std::optional<std::string>& text) {
  return text ? std::optional<std::string_view>(*text) : std::nullopt;
}

// An optional number argument (a fan-out's concurrency): undefined is none.
std::optional<double> optional_number(const val& value) {
  if (value.isUndefined()) return std::nullopt;
  return value.as<double>();
}

Json problem_json(const handoff::machine::Problem& p) {
  Json out = Json::object();
  out["code"] = p.code;
  out["message"] = p.message;
  out["pointer"] = p.pointer;
  return out;
}

// null, or { code, message, pointer }.
val problem_or_null(const handoff::Expected<void, handoff::machine::Problem>& done) {
  return done ? val::null() : to_js(problem_json(done.error()));
}

// null, or { problem: { code, message, pointer } } or { syntax: { index, message } }.
val rejection_or_null(const handoff::Expected<void, handoff::machine::EdgeRejection>& done) {
  if (done) return val::null();
  const auto& rejection = done.error();
  Json out = Json::object();
  if (rejection.problem) out["problem"] = problem_json(*rejection.problem);
  if (rejection.syntax) {
    Json syntax = Json::object();
    syntax["index"] = rejection.syntax->index;
    syntax["message"] = rejection.syntax->message;
    out["syntax"] = std::move(syntax);
  }
  return to_js(out);
}

// ----- Machine

// `on_max_steps` is "return", "throw" or "return-with-flag" (js/machine.js checked it);
// `no_feedback_states` an array of names, `reducers` one of [key, reducer name] pairs.
Machine* make_machine(const std::string& name, const val& start, double max_steps, const std::string& on_max_steps,
                      bool feedback_on_revisit, const val& no_feedback_states, const val& reducers) {
  handoff::machine::MachineOptions options;
  options.name = name;
  options.start = optional_string(start);
  options.max_steps = max_steps;
  options.on_max_steps = handoff::machine::on_max_steps_of(on_max_steps).value_or(handoff::machine::OnMaxSteps::Return);
  options.feedback_on_revisit = feedback_on_revisit;
  options.no_feedback_states = handoff::bindings::strings_of(no_feedback_states);
  options.reducers = handoff::bindings::pairs_of(reducers);
  return new Machine(std::move(options));
}

val add_state(Machine& m, const std::string& name, bool feedback_on_revisit, const val& task) {
  auto task_text = optional_string(task);
  return problem_or_null(m.add_state(name, feedback_on_revisit, view_of(task_text)));
}

val add_edge(Machine& m, const std::string& from, const std::string& to, const val& when,
             const std::string& description) {
  auto source = optional_string(when);
  return rejection_or_null(m.add_edge(from, to, view_of(source), description));
}

// An edge decided by a JavaScript function.
val add_predicate_edge(Machine& m, const std::string& from, const std::string& to, const std::string& description) {
  return rejection_or_null(m.add_predicate_edge(from, to, description));
}

val add_transfer_edge(Machine& m, const std::string& from, const std::string& to, const std::string& description) {
  return rejection_or_null(m.add_transfer_edge(from, to, description));
}

val add_fan_out(Machine& m, const std::string& name, const val& branches, const val& concurrency) {
  return problem_or_null(m.add_fan_out(name, handoff::bindings::strings_of(branches), optional_number(concurrency)));
}

val add_map(Machine& m, const std::string& name, const std::string& branch, const std::string& over,
            const val& concurrency) {
  return problem_or_null(m.add_map(name, branch, over, optional_number(concurrency)));
}

// A subgraph state running the machine of the definition text `child` (another machine's
// toJSON()); `input` and `output` are arrays of [key, path], or undefined for the whole state.
val add_subgraph(Machine& m, const std::string& name, const std::string& child, const val& input, const val& output) {
  auto loaded = handoff::definition::machine_from_json(handoff::bindings::parse(child));
  if (!loaded) {
    return to_js(problem_json(
        {"bad-subgraph",
         "subgraph state '" + name + "': its machine does not load: " + handoff::definition::describe(loaded.error()),
         "/states/" + std::to_string(m.states().size()) + "/subgraph"}));
  }
  auto mapping = [](const val& pairs) -> std::optional<Machine::Mapping> {
    if (pairs.isUndefined()) return std::nullopt;
    return handoff::bindings::pairs_of(pairs);
  };
  return problem_or_null(m.add_subgraph(name, std::move(loaded.value()), mapping(input), mapping(output)));
}

// A handoff-enabled state (MAG's handoffs in a workflow); the core judges `count`.
val set_handoffs(Machine& m, const std::string& state, double count) {
  return problem_or_null(m.set_handoffs(state, count));
}

// null for a state that is not a subgraph; { input, output }, each null (whole state) or
// [[key, path steps], ...].
val subgraph(const Machine& m, std::uint32_t state) {
  if (state >= m.states().size() || !m.states()[state].subgraph) return val::null();
  const auto& sub = m.states()[state].subgraph;
  auto mapping = [](const std::optional<std::vector<handoff::machine::StateMapping>>& entries) -> Json {
    if (!entries) return nullptr;
    Json out = Json::array();
    for (const auto& e : *entries) {
      Json entry = Json::array();
      entry.push_back(e.key);
      entry.push_back(paths_json({e.path})[0]);
      out.push_back(std::move(entry));
    }
    return out;
  };
  Json out = Json::object();
  out["input"] = mapping(sub->input);
  out["output"] = mapping(sub->output);
  return to_js(out);
}

// null for a plain state; { branches, concurrency? } or { map: { state, over }, overPath, concurrency? }.
val fan_out(const Machine& m, std::uint32_t state) {
  if (state >= m.states().size() || !m.states()[state].fan_out) return val::null();
  const auto& f = *m.states()[state].fan_out;
  Json out = Json::object();
  if (f.is_map()) {
    Json map = Json::object();
    map["state"] = f.map_state;
    map["over"] = f.over;
    out["map"] = std::move(map);
    out["overPath"] = paths_json({f.over_path});
  } else {
    out["branches"] = f.branches;
  }
  if (f.concurrency > 0) out["concurrency"] = f.concurrency;
  return to_js(out);
}

std::uint32_t edge_count(const Machine& m) { return static_cast<std::uint32_t>(m.edges().size()); }

val template_variables(const Machine& m) { return to_js(Json(m.template_variables())); }

// [{ code, message, pointer }, ...]
val validate(const Machine& m) {
  Json out = Json::array();
  for (const auto& p : m.validate()) out.push_back(problem_json(p));
  return to_js(out);
}

val state_names(const Machine& m) {
  Json out = Json::array();
  for (const auto& s : m.states()) out.push_back(s.name);
  return to_js(out);
}

val route_paths(const Machine& m, std::uint32_t state) {
  if (state >= m.states().size()) return to_js(Json::array());
  return to_js(paths_json(m.graph().route_paths(m.states()[state].node)));
}

val route_path_texts(const Machine& m, std::uint32_t state) {
  Json out = Json::array();
  if (state < m.states().size()) {
    for (const auto& path : m.graph().route_paths(m.states()[state].node)) out.push_back(path.text());
  }
  return to_js(out);
}

// [{ to, when, description, predicate, transfer }] in declaration order.
val out_edges(const Machine& m, std::uint32_t state) {
  if (state >= m.states().size()) return to_js(Json::array());
  Json out = handoff::bindings::out_edges_json(m.graph(), m.states()[state].node);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto& edge = m.out_edge(state, static_cast<std::uint32_t>(i));
    out[i]["predicate"] = edge.predicate;
    out[i]["transfer"] = edge.transfer;
    if (edge.transfer) out[i]["when"] = nullptr;  // to routing, a condition that never holds
  }
  return to_js(out);
}

val strings_since(const Machine& m, std::uint32_t from) {
  return to_js(handoff::bindings::strings_since_json(m.graph(), from));
}

val export_machine(const Machine& m, const std::string& trace, const std::string& format, const std::string& kind,
                   const std::string& direction, const std::string& generated_at) {
  return render(handoff::dag::dag_of(m), trace, format, kind, direction, generated_at);
}

// { text } (the definition), or { error } when the machine has none (an edge is a function).
val machine_to_json(const Machine& m) {
  Json out = Json::object();
  if (auto problem = handoff::definition::portability_problem(m))
    out["error"] = *problem;
  else
    out["text"] = handoff::bindings::text_of(handoff::definition::to_json(m));
  return to_js(out);
}

// Replaces the machine with the one the definition describes; null, or [{ pointer, message }].
val load_json(Machine& m, const std::string& definition) {
  return handoff::bindings::load_definition(definition, handoff::definition::machine_from_json,
                                            [&](std::unique_ptr<Machine>&& loaded) { m = std::move(*loaded); });
}

// [[key, reducer name], ...]
val reducers(const Machine& m) { return to_js(Json(m.options().reducers)); }

// { name, start?, maxSteps, onMaxSteps, feedbackOnRevisit, noFeedbackStates }
val options(const Machine& m) {
  const auto& o = m.options();
  Json out = Json::object();
  out["name"] = o.name;
  out["maxSteps"] = o.max_steps;
  out["onMaxSteps"] = handoff::machine::on_max_steps_name(o.on_max_steps);
  out["feedbackOnRevisit"] = o.feedback_on_revisit;
  out["noFeedbackStates"] = o.no_feedback_states;
  if (o.start) out["start"] = *o.start;
  return to_js(out);
}

// A state machine's revision feedback text, written when a handler first reads ctx.feedback.
std::string revision_text(const std::string& state, std::uint32_t visit, const std::string& prior) {
  return handoff::machine::revision_text(state, visit, prior);
}

// The export of a graph (the full module's HandoffGraph; the routing module has none).
val export_graph(const HandoffGraph& g, const std::string& trace, const std::string& format, const std::string& kind,
                 const std::string& direction, const std::string& generated_at) {
  return render(handoff::dag::dag_of(g), trace, format, kind, direction, generated_at);
}

// ----- Execution

Execution* make_execution(Machine& m) { return new Execution(m); }

// Replaces the execution with the one a snapshot's JSON text describes; null, or why not.
val restore(Execution& e, Machine& m, const std::string& snapshot) {
  auto restored = Execution::restore(m, handoff::bindings::parse(snapshot));
  if (!restored) return val(restored.error());
  e = std::move(restored.value());
  return val::null();
}

std::string snapshot(const Execution& e) { return handoff::bindings::text_of(e.snapshot()); }

// [[path, preview], ...]: what the conditions read on a step where no edge matched.
val unmatched_reads(const Execution& e) { return to_js(Json(e.unmatched_reads())); }

// Fills the task templates from the JSON text of the run's input variables: null, or
// { missing: [[state, variable], ...] }, or { problem } (a value too deep or a task too long).
val bind_variables(Execution& e, const std::string& variables) {
  Json parsed = handoff::bindings::parse(variables);
  auto bound = e.bind_variables(parsed.is_discarded() ? Json::object() : parsed);
  if (bound) return val::null();
  Json out = Json::object();
  if (bound.error().missing.empty())
    out["problem"] = bound.error().problem;
  else
    out["missing"] = bound.error().missing;
  return to_js(out);
}

// A state's task, filled; null for a state without one.
val task(const Execution& e, std::uint32_t state) {
  const auto& filled = e.task(state);
  return filled ? val(*filled) : val::null();
}

// A restored execution's fan-out under way: { state, step, visit, done: [bool per branch] }, or null.
val fan_out_under_way(const Execution& e) {
  if (!e.fan_out() || e.awaiting_items()) return val::null();
  Json done = Json::array();
  for (std::uint32_t i = 0; i < e.branches().size(); ++i) done.push_back(e.branch_completed(i));
  Json out = Json::object();
  out["state"] = e.current_state();
  out["step"] = e.steps_run();
  out["visit"] = e.visit();
  out["done"] = std::move(done);
  return to_js(out);
}

// A restored execution's subgraph under way: { state, step, visit }, or null.
val subgraph_under_way(const Execution& e) {
  if (!e.in_subgraph()) return val::null();
  Json out = Json::object();
  out["state"] = e.current_state();
  out["step"] = e.steps_run();
  out["visit"] = e.visit();
  return to_js(out);
}

// The transfers offered in the step under way, as JSON text (Execution::transfers).
std::string transfers(const Execution& e) { return handoff::bindings::text_of(e.transfers()); }

// null, or why the choice is refused.
val choose_transfer(Execution& e, const std::string& choice) {
  auto chosen = e.choose_transfer(choice);
  return chosen ? val::null() : val(chosen.error());
}

std::int32_t status(const Execution& e) { return static_cast<std::int32_t>(e.status()); }

}  // namespace

EMSCRIPTEN_BINDINGS(handoff_machine) {
  using namespace emscripten;
  class_<Machine>("Machine")
      .constructor(&make_machine, allow_raw_pointers())
      .function("address", &handoff::bindings::address_of<Machine>)
      .function("addState", &add_state)
      .function("addEdge", &add_edge)
      .function("addPredicateEdge", &add_predicate_edge)
      .function("addTransferEdge", &add_transfer_edge)
      .function("addFanOut", &add_fan_out)
      .function("addMap", &add_map)
      .function("addSubgraph", &add_subgraph)
      .function("setHandoffs", &set_handoffs)
      .function("subgraph", &subgraph)
      .function("fanOut", &fan_out)
      .function("edgeCount", &edge_count)
      .function("templateVariables", &template_variables)
      .function("validate", &validate)
      .function("stateNames", &state_names)
      .function("routePaths", &route_paths)
      .function("routePathTexts", &route_path_texts)
      .function("outEdges", &out_edges)
      .function("stringsSince", &strings_since)
      .function("export", &export_machine)
      .function("toJSON", &machine_to_json)
      .function("loadJSON", &load_json)
      .function("reducers", &reducers)
      .function("options", &options);

  class_<Execution>("Execution")
      .constructor(&make_execution, allow_raw_pointers())
      .function("address", &handoff::bindings::address_of<Execution>)
      .function("restore", &restore)
      .function("snapshot", &snapshot)
      .function("unmatchedReads", &unmatched_reads)
      .function("feedback", &Execution::feedback)
      .function("feedbackOf", &Execution::feedback_of)
      .function("bindVariables", &bind_variables)
      .function("task", &task)
      .function("maxStepsFlag", &Execution::max_steps_flag)
      .function("fanOutUnderWay", &fan_out_under_way)
      .function("subgraphUnderWay", &subgraph_under_way)
      .function("transfers", &transfers)
      .function("chooseTransfer", &choose_transfer)
      .function("status", &status)
      .function("branchDone", &Execution::complete_branch)
      .function("cancelStep", &Execution::cancel_step)
      .function("abort", &Execution::abort);

  function("revisionText", &revision_text);
  function("exportGraph", &export_graph);
}
