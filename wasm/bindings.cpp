// The WebAssembly surface of the core: a translation table plus the raw transfer ABI. C++ results
// and errors become plain JS values; nothing here decides anything (that is src/'s job), and every
// layout JS reads from memory is declared in src/core/contract.h.
//
// Two kinds of entry point:
//  * embind classes (HandoffGraph, Machine, Swarm, ...) for everything that is not per-route;
//  * raw C exports for the hot path and for compiling standalone conditions (wasm/condition_abi.h,
//    shared with the routing module). JavaScript writes the values at a node's paths into the
//    transfer area below (a tape, see src/condition/value.h) through typed-array views of
//    WebAssembly memory, then makes one numeric call: no strings cross, no objects are built.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "condition/standalone.h"
#include "core/contract.h"
#include "export/dag.h"
#include "export/definition.h"
#include "graph/handoff_graph.h"
#include "handoff/policy.h"
#include "handoff/swarm.h"
#include "machine/execution.h"
#include "machine/machine.h"
#include "condition_abi.h"
#include "raw_exports.h"

namespace {

using emscripten::val;
using handoff::condition::Interner;
using handoff::condition::Path;
using handoff::condition::StandaloneCondition;
using handoff::graph::EdgeError;
using handoff::graph::HandoffGraph;
using handoff::graph::NodeId;

using handoff::raw_exports::transfer_slots;

// JSON text to a value (discarded when it is not JSON), always through a string_view: the core
// parses string_views, and nlohmann instantiates its whole parser once per input type (about 8 KB
// of the module for a second one, issue 21).
handoff::condition::Json parse_json(std::string_view text) {
  return handoff::condition::Json::parse(text, nullptr, /*allow_exceptions=*/false);
}

// ---------------------------------------------------------------------------------------------
// Translations of core values to JS values.

val strings_array(const std::vector<std::string>& items) {
  val out = val::array();
  for (std::size_t i = 0; i < items.size(); ++i) out.set(i, val(items[i]));
  return out;
}

val edge_error(const EdgeError& error) {
  val out = val::object();
  switch (error.kind) {
    case EdgeError::Kind::Syntax:
      out.set("kind", val("syntax"));
      out.set("index", val(error.syntax.index));
      break;
    case EdgeError::Kind::Cycle:
      out.set("kind", val("cycle"));
      out.set("cycle", strings_array(error.cycle));
      break;
    case EdgeError::Kind::Argument:
      out.set("kind", val("argument"));
      break;
  }
  out.set("message", val(error.message));
  return out;
}

// [[isIndex, key, index], ...] per path: what js/marshal.js needs to walk a JS object.
val paths_array(const std::vector<Path>& paths) {
  val out = val::array();
  for (std::size_t i = 0; i < paths.size(); ++i) {
    val steps = val::array();
    for (std::size_t s = 0; s < paths[i].steps.size(); ++s) {
      const auto& step = paths[i].steps[s];
      val item = val::array();
      item.set(0, val(step.is_index));
      item.set(1, val(step.key));
      item.set(2, val(static_cast<double>(step.index)));
      steps.set(s, item);
    }
    out.set(i, steps);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// HandoffGraph

std::uintptr_t graph_address(const HandoffGraph& g) { return reinterpret_cast<std::uintptr_t>(&g); }

val add_node(HandoffGraph& g, const std::string& id, const std::string& description) {
  auto added = g.add_node(id, description);
  return added ? val::null() : edge_error(added.error());
}

val add_edge(HandoffGraph& g, const std::string& from, const std::string& to, bool conditional,
             const std::string& when, const std::string& description) {
  auto added = g.add_edge(from, to, conditional ? std::optional<std::string_view>(when) : std::nullopt, description);
  return added ? val::null() : edge_error(added.error());
}

int find_node(const HandoffGraph& g, const std::string& id) {
  NodeId node = g.find(id);
  return node == handoff::graph::kNoNode ? -1 : static_cast<int>(node);
}

// [{ to, when, description }] in insertion order.
val out_edges(const HandoffGraph& g, NodeId node) {
  val out = val::array();
  const auto& edges = g.out_edges(node);
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const auto& edge = g.edges()[edges[i]];
    val item = val::object();
    item.set("to", val(g.name(edge.to)));
    item.set("when", edge.condition ? val(edge.condition->source()) : val::null());
    item.set("description", val(edge.description));
    out.set(i, item);
  }
  return out;
}

val route_paths(const HandoffGraph& g, NodeId node) { return paths_array(g.route_paths(node)); }
val node_names(const HandoffGraph& g) { return strings_array(g.node_names()); }
bool allows_cycles(const HandoffGraph& g) { return g.cycle_policy() == handoff::graph::CyclePolicy::Allow; }
std::uint32_t graph_size(const HandoffGraph& g) { return static_cast<std::uint32_t>(g.size()); }

// Strings the graph's interner learnt since `from`, so JS can send them as ids.
val strings_since(const HandoffGraph& g, std::uint32_t from) {
  val out = val::array();
  const Interner& strings = g.strings();
  for (std::uint32_t id = from; id < strings.size(); ++id) out.set(id - from, val(std::string(strings.view(id))));
  return out;
}

// [evaluated, matched, evaluated, matched, ...] per outgoing edge, on the marshalled state.
val explain(const HandoffGraph& g, NodeId node, std::uint32_t cell_count) {
  std::vector<handoff::graph::EdgeTrace> trace;
  g.explain(node, transfer_slots(g.strings(), cell_count, g.route_paths(node).size()), trace);
  val out = val::array();
  for (std::size_t i = 0; i < trace.size(); ++i) {
    out.set(2 * i, val(trace[i].evaluated));
    out.set(2 * i + 1, val(trace[i].matched));
  }
  return out;
}

std::string graph_to_json(const HandoffGraph& g) {
  return handoff::definition::to_json(g).dump(-1, ' ', false, handoff::condition::Json::error_handler_t::replace);
}

// Parses a definition and loads it with `from_json`; on success `adopt` takes what loaded and the
// result is empty, otherwise the problems.
template <class Load, class Adopt>
std::optional<std::vector<handoff::definition::Problem>> load_problems(std::string_view text, Load from_json, Adopt adopt) {
  auto document = parse_json(text);
  if (document.is_discarded()) return std::vector<handoff::definition::Problem>{{"", "not valid JSON"}};
  auto loaded = from_json(document);
  if (!loaded) return loaded.error();
  adopt(std::move(loaded.value()));
  return std::nullopt;
}

// load_problems as a JS value: null, or [{ pointer, message }].
template <class Load, class Adopt>
val load_definition(const std::string& text, Load from_json, Adopt adopt) {
  auto problems = load_problems(text, from_json, adopt);
  if (!problems) return val::null();
  val out = val::array();
  for (std::size_t i = 0; i < problems->size(); ++i) {
    val p = val::object();
    p.set("pointer", val((*problems)[i].pointer));
    p.set("message", val((*problems)[i].message));
    out.set(i, p);
  }
  return out;
}

// Replaces `g` with the graph the definition describes; returns null, or the problems.
val graph_load_json(HandoffGraph& g, const std::string& text) {
  return load_definition(text, handoff::definition::graph_from_json, [&](HandoffGraph&& loaded) { g = std::move(loaded); });
}

// ---------------------------------------------------------------------------------------------
// Exports (DAG model, Mermaid, DOT) of graphs and machines. `trace` is JSON text or empty.

std::string dump(const handoff::condition::Json& json) {
  return json.dump(-1, ' ', false, handoff::condition::Json::error_handler_t::replace);
}

// { text } or { error }: the export of `dag` in `format`, after marking `trace`.
val render(handoff::dag::Dag dag, const std::string& trace, const std::string& format, const std::string& kind,
           const std::string& direction, const std::string& generated_at) {
  auto rendered = handoff::dag::render(std::move(dag), trace, format, {kind, direction}, generated_at);
  val out = val::object();
  out.set(rendered ? "text" : "error", val(rendered ? rendered.value() : rendered.error()));
  return out;
}

// { text } or { error } as JSON, for the raw exports.
handoff::condition::Json render_json(handoff::dag::Dag dag, std::string_view trace, std::string_view format, std::string_view kind,
                                     std::string_view direction) {
  auto rendered = handoff::dag::render(std::move(dag), std::string(trace), std::string(format),
                                       {std::string(kind), std::string(direction)}, "");
  return rendered ? handoff::condition::Json{{"text", rendered.value()}} : handoff::condition::Json{{"error", rendered.error()}};
}

val graph_export(const HandoffGraph& g, const std::string& trace, const std::string& format, const std::string& kind,
                 const std::string& direction, const std::string& generated_at) {
  return render(handoff::dag::dag_of(g), trace, format, kind, direction, generated_at);
}

// ---------------------------------------------------------------------------------------------
// Machine and Execution

using handoff::machine::Execution;
using handoff::machine::Machine;

val problem_value(const handoff::machine::Problem& p) {
  val out = val::object();
  out.set("code", val(p.code));
  out.set("message", val(p.message));
  out.set("pointer", val(p.pointer));
  return out;
}

// `on_max_steps` is "return", "throw" or "return-with-flag" (js/machine.js checked it).
Machine* make_machine(const std::string& name, bool has_start, const std::string& start, double max_steps,
                      const std::string& on_max_steps, bool feedback_on_revisit, val no_feedback_states, val reducers) {
  handoff::machine::MachineOptions options;
  auto count = reducers["length"].as<std::size_t>();
  for (std::size_t i = 0; i < count; ++i) {
    options.reducers.emplace_back(reducers[i][0].as<std::string>(), reducers[i][1].as<std::string>());
  }
  auto excluded = no_feedback_states["length"].as<std::size_t>();
  for (std::size_t i = 0; i < excluded; ++i) options.no_feedback_states.push_back(no_feedback_states[i].as<std::string>());
  options.name = name;
  if (has_start) options.start = start;
  options.max_steps = max_steps;
  options.on_max_steps = handoff::machine::on_max_steps_of(on_max_steps).value_or(handoff::machine::OnMaxSteps::Return);
  options.feedback_on_revisit = feedback_on_revisit;
  return new Machine(std::move(options));
}

std::uintptr_t machine_address(const Machine& m) { return reinterpret_cast<std::uintptr_t>(&m); }

val machine_add_state(Machine& m, const std::string& name, bool feedback_on_revisit, bool has_task, const std::string& task) {
  auto added = m.add_state(name, feedback_on_revisit, has_task ? std::optional<std::string_view>(task) : std::nullopt);
  return added ? val::null() : problem_value(added.error());
}

// { problem: { code, message, pointer } } or { syntax: { index, message } }
val edge_rejection(const handoff::machine::EdgeRejection& rejection) {
  val out = val::object();
  if (rejection.problem) out.set("problem", problem_value(*rejection.problem));
  if (rejection.syntax) {
    val syntax = val::object();
    syntax.set("index", val(rejection.syntax->index));
    syntax.set("message", val(rejection.syntax->message));
    out.set("syntax", syntax);
  }
  return out;
}

// null, or edge_rejection's object.
val machine_add_edge(Machine& m, const std::string& from, const std::string& to, bool conditional, const std::string& when,
                     const std::string& description) {
  auto added = m.add_edge(from, to, conditional ? std::optional<std::string_view>(when) : std::nullopt, description);
  return added ? val::null() : edge_rejection(added.error());
}

// An edge decided by a JavaScript function: null or { problem }.
val machine_add_predicate_edge(Machine& m, const std::string& from, const std::string& to, const std::string& description) {
  auto added = m.add_predicate_edge(from, to, description);
  return added ? val::null() : edge_rejection(added.error());
}

// A fan-out state: null, or { problem } (machine_add_state's codes and the fan-out ones).
val machine_add_fan_out(Machine& m, const std::string& name, val branches, bool has_concurrency, double concurrency) {
  std::vector<std::string> names;
  auto count = branches["length"].as<std::size_t>();
  for (std::size_t i = 0; i < count; ++i) names.push_back(branches[i].as<std::string>());
  auto added = m.add_fan_out(name, names, has_concurrency ? std::optional<double>(concurrency) : std::nullopt);
  return added ? val::null() : problem_value(added.error());
}

val machine_add_map(Machine& m, const std::string& name, const std::string& branch, const std::string& over,
                    bool has_concurrency, double concurrency) {
  auto added = m.add_map(name, branch, over, has_concurrency ? std::optional<double>(concurrency) : std::nullopt);
  return added ? val::null() : problem_value(added.error());
}

// A subgraph state running the machine of the definition text `child` (another machine's
// toJSON()); `input` and `output` are [[key, path], ...] when given. null, or { code, message, pointer }.
val machine_add_subgraph(Machine& m, const std::string& name, const std::string& child, bool has_input, val input, bool has_output,
                         val output) {
  auto document = parse_json(child);
  auto loaded = handoff::definition::machine_from_json(document);
  if (!loaded) {
    handoff::machine::Problem p{"bad-subgraph", "subgraph state '" + name + "': its machine does not load: " + handoff::definition::describe(loaded.error()),
                                "/states/" + std::to_string(m.states().size()) + "/subgraph"};
    return problem_value(p);
  }
  auto pairs = [](bool has, val list) -> std::optional<Machine::Mapping> {
    if (!has) return std::nullopt;
    Machine::Mapping out;
    auto count = list["length"].as<std::size_t>();
    for (std::size_t i = 0; i < count; ++i) out.emplace_back(list[i][0].as<std::string>(), list[i][1].as<std::string>());
    return out;
  };
  std::shared_ptr<const Machine> machine(std::move(loaded.value()));
  auto added = m.add_subgraph(name, machine, pairs(has_input, input), pairs(has_output, output));
  return added ? val::null() : problem_value(added.error());
}

// null for a state that is not a subgraph; { input, output }, each null (whole state) or
// [[key, path steps], ...].
val machine_subgraph(const Machine& m, std::uint32_t state) {
  const auto& subgraph = m.states()[state].subgraph;
  if (!subgraph) return val::null();
  auto mapping = [](const std::optional<std::vector<handoff::machine::StateMapping>>& entries) {
    if (!entries) return val::null();
    val out = val::array();
    std::vector<Path> paths;
    for (const auto& e : *entries) paths.push_back(e.path);
    val steps = paths_array(paths);
    for (std::size_t i = 0; i < entries->size(); ++i) {
      val pair = val::array();
      pair.set(0, val((*entries)[i].key));
      pair.set(1, steps[i]);
      out.set(i, pair);
    }
    return out;
  };
  val out = val::object();
  out.set("input", mapping(subgraph->input));
  out.set("output", mapping(subgraph->output));
  return out;
}

// null for a plain state; { branches, concurrency } or { map: { state, over }, concurrency, overPath }.
val machine_fan_out(const Machine& m, std::uint32_t state) {
  const auto& fan_out = m.states()[state].fan_out;
  if (!fan_out) return val::null();
  val out = val::object();
  if (fan_out->is_map()) {
    val map = val::object();
    map.set("state", val(fan_out->map_state));
    map.set("over", val(fan_out->over));
    out.set("map", map);
    out.set("overPath", paths_array({fan_out->over_path}));
  } else {
    out.set("branches", strings_array(fan_out->branches));
  }
  if (fan_out->concurrency > 0) out.set("concurrency", val(fan_out->concurrency));
  return out;
}

val machine_validate(const Machine& m) {
  val out = val::array();
  auto problems = m.validate();
  for (std::size_t i = 0; i < problems.size(); ++i) out.set(i, problem_value(problems[i]));
  return out;
}

val machine_state_names(const Machine& m) {
  std::vector<std::string> names;
  for (const auto& s : m.states()) names.push_back(s.name);
  return strings_array(names);
}

val machine_route_paths(const Machine& m, std::uint32_t state) {
  return paths_array(m.graph().route_paths(m.states()[state].node));
}

val machine_route_path_texts(const Machine& m, std::uint32_t state) {
  std::vector<std::string> texts;
  for (const auto& path : m.graph().route_paths(m.states()[state].node)) texts.push_back(path.text());
  return strings_array(texts);
}

// [{ to, when, description, predicate, transfer }] in declaration order.
val machine_out_edges(const Machine& m, std::uint32_t state) {
  val out = out_edges(m.graph(), m.states()[state].node);
  auto count = m.graph().out_edges(m.states()[state].node).size();
  for (std::size_t i = 0; i < count; ++i) {
    const auto& edge = m.out_edge(state, static_cast<std::uint32_t>(i));
    out[i].set("predicate", val(edge.predicate));
    out[i].set("transfer", val(edge.transfer));
    if (edge.transfer) out[i].set("when", val::null());  // to routing, a condition that never holds
  }
  return out;
}

// A handoff-enabled state (MAG's handoffs in a workflow): null or { code, message, pointer }.
val machine_set_handoffs(Machine& m, const std::string& state, double count) {
  if (!(count >= 0 && count <= handoff::machine::kMaxHandoffs && count == static_cast<double>(static_cast<std::uint32_t>(count)))) {
    return problem_value({"bad-handoffs", "the handoffs of state '" + state + "' must be an integer from 0 to 1000000", ""});
  }
  auto set = m.set_handoffs(state, static_cast<std::uint32_t>(count));
  return set ? val::null() : problem_value(set.error());
}

val machine_add_transfer_edge(Machine& m, const std::string& from, const std::string& to, const std::string& description) {
  auto added = m.add_transfer_edge(from, to, description);
  return added ? val::null() : edge_rejection(added.error());
}

// The transfers offered in the step under way, as JSON text (Execution::transfers).
std::string execution_transfers(const Execution& e) { return e.transfers().dump(-1, ' ', false, handoff::condition::Json::error_handler_t::replace); }

// null, or why the choice is refused.
val execution_choose_transfer(Execution& e, const std::string& choice) {
  auto chosen = e.choose_transfer(choice);
  return chosen ? val::null() : val(chosen.error());
}

std::uint32_t machine_edge_count(const Machine& m) { return static_cast<std::uint32_t>(m.edges().size()); }

val machine_template_variables(const Machine& m) { return strings_array(m.template_variables()); }

val machine_strings_since(const Machine& m, std::uint32_t from) { return strings_since(m.graph(), from); }

Execution* make_execution(Machine& m) { return new Execution(m); }

val machine_export(const Machine& m, const std::string& trace, const std::string& format, const std::string& kind,
                   const std::string& direction, const std::string& generated_at) {
  return render(handoff::dag::dag_of(m), trace, format, kind, direction, generated_at);
}

// { text } (the definition), or { error } when the machine has none (an edge is a function).
val machine_to_json(const Machine& m) {
  val out = val::object();
  if (auto problem = handoff::definition::portability_problem(m)) out.set("error", val(*problem));
  else out.set("text", val(dump(handoff::definition::to_json(m))));
  return out;
}

// Replaces `m` with the machine the definition describes; null, or [{ pointer, message }].
val machine_load_json(Machine& m, const std::string& text) {
  return load_definition(text, handoff::definition::machine_from_json,
                         [&](std::unique_ptr<Machine>&& loaded) { m = std::move(*loaded); });
}

val machine_reducers(const Machine& m) {
  val out = val::array();
  const auto& reducers = m.options().reducers;
  for (std::size_t i = 0; i < reducers.size(); ++i) {
    val pair = val::array();
    pair.set(0, val(reducers[i].first));
    pair.set(1, val(reducers[i].second));
    out.set(i, pair);
  }
  return out;
}

val machine_options(const Machine& m) {
  const auto& o = m.options();
  val out = val::object();
  out.set("name", val(o.name));
  out.set("start", o.start ? val(*o.start) : val::undefined());
  out.set("maxSteps", val(o.max_steps));
  out.set("onMaxSteps", val(handoff::machine::on_max_steps_name(o.on_max_steps)));
  out.set("feedbackOnRevisit", val(o.feedback_on_revisit));
  out.set("noFeedbackStates", strings_array(o.no_feedback_states));
  return out;
}

// Replaces `e` with the execution a snapshot's JSON text describes; null, or why not.
val execution_restore(Execution& e, Machine& m, const std::string& text) {
  auto document = parse_json(text);
  auto restored = Execution::restore(m, document);
  if (!restored) return val(restored.error());
  e = std::move(restored.value());
  return val::null();
}

std::uintptr_t execution_address(const Execution& e) { return reinterpret_cast<std::uintptr_t>(&e); }

std::string execution_snapshot(const Execution& e) {
  return e.snapshot().dump(-1, ' ', false, handoff::condition::Json::error_handler_t::replace);
}

// Fills the task templates from the JSON text of the run's input variables: null, or
// { missing: [[state, variable], ...] }, or { problem } (a value too deep or a task too long).
val execution_bind_variables(Execution& e, const std::string& text) {
  auto variables = parse_json(text);
  auto bound = e.bind_variables(variables.is_discarded() ? handoff::condition::Json::object() : variables);
  if (bound) return val::null();
  val out = val::object();
  const auto& missing = bound.error().missing;
  if (missing.empty()) {
    out.set("problem", val(bound.error().problem));
    return out;
  }
  val pairs = val::array();
  for (std::size_t i = 0; i < missing.size(); ++i) {
    val pair = val::array();
    pair.set(0, val(missing[i].first));
    pair.set(1, val(missing[i].second));
    pairs.set(i, pair);
  }
  out.set("missing", pairs);
  return out;
}

// A state's task, filled; null for a state without one.
val execution_task(const Execution& e, std::uint32_t state) {
  const auto& task = e.task(state);
  return task ? val(*task) : val::null();
}

int execution_max_steps_flag(const Execution& e) { return e.max_steps_flag(); }

// A restored execution's subgraph under way: { state, step, visit }, or null.
val execution_subgraph_under_way(const Execution& e) {
  if (!e.in_subgraph()) return val::null();
  val out = val::object();
  out.set("state", val(e.current_state()));
  out.set("step", val(e.steps_run()));
  out.set("visit", val(e.visit()));
  return out;
}

// A restored execution's fan-out under way: { state, step, visit, done: [bool per branch] }, or null.
val execution_fan_out_under_way(const Execution& e) {
  if (!e.fan_out() || e.awaiting_items()) return val::null();
  val out = val::object();
  out.set("state", val(e.current_state()));
  out.set("step", val(e.steps_run()));
  out.set("visit", val(e.visit()));
  val done = val::array();
  for (std::uint32_t i = 0; i < e.branches().size(); ++i) done.set(i, val(e.branch_completed(i)));
  out.set("done", done);
  return out;
}

// [[path, preview], ...]: what the conditions read on a step where no edge matched.
val execution_unmatched_reads(const Execution& e) {
  val out = val::array();
  const auto& reads = e.unmatched_reads();
  for (std::size_t i = 0; i < reads.size(); ++i) {
    val pair = val::array();
    pair.set(0, val(reads[i].first));
    pair.set(1, val(reads[i].second));
    out.set(i, pair);
  }
  return out;
}

}  // namespace

// The raw exports (hg_route, hg_exec_*, ...) are in wasm/raw_exports.cpp, compiled for speed.



// ---------------------------------------------------------------------------------------------
// Raw exports (no embind), the ABI of the routing module (wasm/router.cpp): strings go in as UTF-8
// that JS writes into the text area (hg_text_reserve) and passes as (offset, length) pairs; answers
// that are not numbers come back as JSON text in the reply buffer (hg_reply), whose length the call
// returns (0: null). The reply is the module's and is overwritten by the next call: JS decodes it
// at once (js/text-abi.js), so what user code receives is a copy.

namespace {

std::vector<char> text_area;
std::string reply;

// The text at (offset, length) in the text area; empty when that is not inside it.
std::string text(std::uint32_t offset, std::uint32_t length) {
  if (offset > text_area.size() || length > text_area.size() - offset) return {};
  return {text_area.data() + offset, length};
}

std::int32_t answer_text(std::string text) {
  reply = std::move(text);
  return static_cast<std::int32_t>(reply.size());
}

std::int32_t answer(const handoff::condition::Json& json) { return answer_text(dump(json)); }

using handoff::swarm::SessionCore;
using handoff::swarm::Swarm;

// What JS holds for a Swarm: empty until a definition loads.
struct SwarmHolder {
  std::unique_ptr<Swarm> swarm;
};

// Runs `fn(session core)` on the JSON session text; { error } or fn's JSON with { session }.
template <class Fn>
std::int32_t with_session(const SwarmHolder* holder, const std::string& session_text, Fn fn) {
  if (holder == nullptr || !holder->swarm) return answer({{"error", "no swarm loaded"}});
  auto parsed = parse_json(session_text);
  auto core = SessionCore::from_json(*holder->swarm, parsed);
  if (!core) return answer({{"error", core.error()}});
  handoff::condition::Json out = fn(core.value());
  out["session"] = core->to_json();
  return answer(out);
}

bool loaded(const SwarmHolder* holder) { return holder != nullptr && holder->swarm != nullptr; }

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE char* hg_text_reserve(std::uint32_t bytes) {
  if (text_area.size() < bytes) text_area.resize(std::max<std::size_t>(bytes, text_area.size() * 2));
  return text_area.data();
}

EMSCRIPTEN_KEEPALIVE const char* hg_reply() { return reply.data(); }

// Swarm: every call takes and returns JSON text (a session's routing core, a tool call), since
// none of it is per-route.

EMSCRIPTEN_KEEPALIVE SwarmHolder* hg_swarm_new() { return new SwarmHolder(); }

EMSCRIPTEN_KEEPALIVE void hg_swarm_delete(SwarmHolder* holder) { delete holder; }

// Loads a definition; 0 (loaded), or [{ pointer, message }].
EMSCRIPTEN_KEEPALIVE std::int32_t hg_swarm_load(SwarmHolder* holder, std::uint32_t definition, std::uint32_t length) {
  if (holder == nullptr) return answer_text(R"([{"pointer":"","message":"no swarm"}])");
  auto problems = load_problems(text(definition, length), Swarm::from_json,
                                [&](std::unique_ptr<Swarm>&& swarm) { holder->swarm = std::move(swarm); });
  if (!problems) return 0;
  auto out = handoff::condition::Json::array();
  for (const auto& p : *problems) out.push_back({{"pointer", p.pointer}, {"message", p.message}});
  return answer(out);
}

// The definition text (the core's normal form).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_swarm_to_json(const SwarmHolder* holder) {
  return loaded(holder) ? answer(holder->swarm->to_json()) : answer_text("null");
}

// The routing core of a new session (at the entry agent).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_swarm_start(const SwarmHolder* holder) {
  return loaded(holder) ? answer(SessionCore::start(*holder->swarm).to_json()) : answer({{"error", "no swarm loaded"}});
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_swarm_tools(const SwarmHolder* holder, std::uint32_t session, std::uint32_t session_length,
                                                 std::uint32_t format, std::uint32_t format_length) {
  auto format_text = text(format, format_length);
  return with_session(holder, text(session, session_length), [&](SessionCore& core) {
    auto record = handoff::swarm::offered_tools_record(*holder->swarm, core, format_text);
    return record ? std::move(record.value()) : handoff::condition::Json{{"error", record.error()}};
  });
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_swarm_apply_rules(const SwarmHolder* holder, std::uint32_t session, std::uint32_t session_length) {
  return with_session(holder, text(session, session_length), [&](SessionCore& core) {
    return handoff::swarm::host_record(*holder->swarm, handoff::swarm::apply_rules(*holder->swarm, core));
  });
}

// `approved`: a human approved this call (docs/handoffs.md#approvals); a call of an `approval: true`
// tool or edge without it is "approval_required" and changes nothing.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_swarm_apply_tool_call(const SwarmHolder* holder, std::uint32_t session, std::uint32_t session_length,
                                                           std::uint32_t name, std::uint32_t name_length, std::uint32_t arguments,
                                                           std::uint32_t arguments_length, std::int32_t approved) {
  auto name_text = text(name, name_length);
  auto arguments_text = text(arguments, arguments_length);
  return with_session(holder, text(session, session_length), [&](SessionCore& core) {
    return handoff::swarm::host_record(
        *holder->swarm, handoff::swarm::apply_tool_call_text(*holder->swarm, core, name_text, arguments_text, approved != 0));
  });
}

// { result } or { error }: the tool result of an outcome the host holds.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_swarm_tool_result(const SwarmHolder* holder, std::uint32_t outcome, std::uint32_t length) {
  if (!loaded(holder)) return answer({{"error", "no swarm loaded"}});
  auto parsed = parse_json(text(outcome, length));
  auto result = handoff::swarm::tool_result_text(*holder->swarm, parsed);
  return answer(result ? handoff::condition::Json{{"result", result.value()}} : handoff::condition::Json{{"error", result.error()}});
}

// { error } or the host record of the blocked outcome.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_swarm_refuse_handoff(const SwarmHolder* holder, double edge, std::uint32_t variable,
                                                          std::uint32_t variable_length, std::uint32_t message,
                                                          std::uint32_t message_length) {
  if (!loaded(holder)) return answer({{"error", "no swarm loaded"}});
  if (!(edge >= 0 && edge < static_cast<double>(holder->swarm->edges().size()))) return answer({{"error", "not an edge index"}});
  auto outcome = handoff::swarm::refused_handoff(*holder->swarm, static_cast<std::size_t>(edge), text(variable, variable_length),
                                                 text(message, message_length));
  if (!outcome) return answer({{"error", outcome.error()}});
  return answer(handoff::swarm::host_record(*holder->swarm, std::move(outcome.value())));
}

// A picture of the swarm (dag::render): `session` is the JSON text of { active, checkpoints } to
// mark, or empty; `format` "dag", "mermaid" or "dot"; `kind` Mermaid's "flowchart" or "state".
// { text } or { error }.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_swarm_export(const SwarmHolder* holder, std::uint32_t session, std::uint32_t session_length,
                                                  std::uint32_t format, std::uint32_t format_length, std::uint32_t kind,
                                                  std::uint32_t kind_length, std::uint32_t direction, std::uint32_t direction_length) {
  if (!loaded(holder)) return answer({{"error", "no swarm loaded"}});
  return answer(render_json(handoff::dag::dag_of(*holder->swarm), text(session, session_length), text(format, format_length),
                            text(kind, kind_length), text(direction, direction_length)));
}

}  // extern "C"

EMSCRIPTEN_BINDINGS(handoff_graph) {
  using emscripten::class_;

  class_<HandoffGraph>("HandoffGraph")
      .constructor(+[](bool allow_cycles) {
        return new HandoffGraph(allow_cycles ? handoff::graph::CyclePolicy::Allow : handoff::graph::CyclePolicy::Error);
      }, emscripten::allow_raw_pointers())
      .function("address", &graph_address)
      .function("addNode", &add_node)
      .function("addEdge", &add_edge)
      .function("find", &find_node)
      .function("outEdges", &out_edges)
      .function("routePaths", &route_paths)
      .function("nodeNames", &node_names)
      .function("allowsCycles", &allows_cycles)
      .function("size", &graph_size)
      .function("isDag", &HandoffGraph::is_dag)
      .function("stringsSince", &strings_since)
      .function("explain", &explain)
      .function("toJSON", &graph_to_json)
      .function("loadJSON", &graph_load_json)
      .function("export", &graph_export);

  class_<Machine>("Machine")
      .constructor(&make_machine, emscripten::allow_raw_pointers())
      .function("address", &machine_address)
      .function("addState", &machine_add_state)
      .function("addEdge", &machine_add_edge)
      .function("addPredicateEdge", &machine_add_predicate_edge)
      .function("addFanOut", &machine_add_fan_out)
      .function("addMap", &machine_add_map)
      .function("fanOut", &machine_fan_out)
      .function("addSubgraph", &machine_add_subgraph)
      .function("subgraph", &machine_subgraph)
      .function("setHandoffs", &machine_set_handoffs)
      .function("addTransferEdge", &machine_add_transfer_edge)
      .function("edgeCount", &machine_edge_count)
      .function("templateVariables", &machine_template_variables)
      .function("validate", &machine_validate)
      .function("stateNames", &machine_state_names)
      .function("routePaths", &machine_route_paths)
      .function("routePathTexts", &machine_route_path_texts)
      .function("outEdges", &machine_out_edges)
      .function("stringsSince", &machine_strings_since)
      .function("export", &machine_export)
      .function("toJSON", &machine_to_json)
      .function("reducers", &machine_reducers)
      .function("options", &machine_options)
      .function("loadJSON", &machine_load_json);

  class_<Execution>("Execution")
      .constructor(&make_execution, emscripten::allow_raw_pointers())
      .function("restore", &execution_restore)
      .function("address", &execution_address)
      .function("snapshot", &execution_snapshot)
      .function("unmatchedReads", &execution_unmatched_reads)
      .function("feedback", &Execution::feedback)
      .function("feedbackOf", &Execution::feedback_of)
      .function("bindVariables", &execution_bind_variables)
      .function("task", &execution_task)
      .function("maxStepsFlag", &execution_max_steps_flag)
      .function("fanOutUnderWay", &execution_fan_out_under_way)
      .function("subgraphUnderWay", &execution_subgraph_under_way)
      .function("transfers", &execution_transfers)
      .function("chooseTransfer", &execution_choose_transfer);

  // A state machine's revision feedback text, written when a handler first reads ctx.feedback.
  emscripten::function("revisionText", +[](const std::string& state, std::uint32_t visit, const std::string& prior) {
    return handoff::machine::revision_text(state, visit, prior);
  });
}
