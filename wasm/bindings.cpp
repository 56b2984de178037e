// The WebAssembly surface of the core. This file only translates: C++ results and errors become
// plain JS values, and nothing here decides anything (that is src/'s job).
//
// Two kinds of entry point:
//  * embind classes (HandoffGraph, StandaloneCondition) for everything that is not per-route;
//  * raw C exports for the hot path. JavaScript writes the values at a node's paths into the
//    transfer area below (a tape, see src/condition/value.h) through typed-array views of
//    WebAssembly memory, then makes one numeric call: no strings cross, no objects are built.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cstdint>
#include <string>
#include <vector>

#include "condition/standalone.h"
#include "export/dag.h"
#include "export/definition.h"
#include "graph/handoff_graph.h"
#include "handoff/policy.h"
#include "handoff/swarm.h"
#include "machine/execution.h"
#include "machine/machine.h"

namespace {

using emscripten::val;
using handoff::condition::Cell;
using handoff::condition::Interner;
using handoff::condition::Path;
using handoff::condition::StandaloneCondition;
using handoff::condition::TapeView;
using handoff::graph::EdgeError;
using handoff::graph::HandoffGraph;
using handoff::graph::NodeId;

// ---------------------------------------------------------------------------------------------
// The transfer area: cells, string bytes and slot starts, grown on request and never shrunk.

struct Transfer {
  std::vector<Cell> cells;
  std::vector<char> bytes;
  std::vector<std::uint32_t> slots;
  // [cells pointer, bytes pointer, slots pointer, cell capacity, byte capacity, slot capacity]
  std::uint32_t header[6] = {};
};
Transfer transfer;

template <class T>
void grow(std::vector<T>& v, std::uint32_t wanted) {
  if (v.size() < wanted) v.resize(std::max<std::size_t>(wanted, v.size() * 2));
}

// The values JS wrote, as the slots of a route: slot i starts at the cell in transfer.slots[i].
struct TransferSlots {
  TapeView tape;
  std::vector<handoff::condition::ValueRef> refs;
};
TransferSlots transfer_slots_scratch;

const handoff::condition::ValueRef* transfer_slots(const Interner& strings, std::uint32_t cell_count,
                                                   std::size_t slot_count) {
  TransferSlots& s = transfer_slots_scratch;
  s.tape = {transfer.cells.data(), cell_count, transfer.bytes.data(), &strings};
  s.refs.clear();
  for (std::size_t i = 0; i < slot_count; ++i) s.refs.emplace_back(&s.tape, transfer.slots[i]);
  return s.refs.data();
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
std::string node_description(const HandoffGraph& g, NodeId node) { return g.description(node); }
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
// result is null, otherwise the problems, [{ pointer, message }].
template <class Load, class Adopt>
val load_definition(const std::string& text, Load from_json, Adopt adopt) {
  std::vector<handoff::definition::Problem> problems;
  auto document = handoff::condition::Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) {
    problems.push_back({"", "not valid JSON"});
  } else {
    auto loaded = from_json(document);
    if (loaded) {
      adopt(std::move(loaded.value()));
      return val::null();
    }
    problems = loaded.error();
  }
  val out = val::array();
  for (std::size_t i = 0; i < problems.size(); ++i) {
    val p = val::object();
    p.set("pointer", val(problems[i].pointer));
    p.set("message", val(problems[i].message));
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
           const std::string& direction) {
  val out = val::object();
  if (!trace.empty()) {
    auto parsed = handoff::condition::Json::parse(trace, nullptr, /*allow_exceptions=*/false);
    auto applied = parsed.is_discarded() ? handoff::Expected<void, std::string>(handoff::unexpected(std::string("the trace is not JSON")))
                                         : handoff::dag::apply_trace(dag, parsed);
    if (!applied) {
      out.set("error", val(applied.error()));
      return out;
    }
  }
  if (format == "dag") out.set("text", val(dump(handoff::dag::to_json(dag))));
  else if (format == "dot") out.set("text", val(handoff::dag::to_dot(dag)));
  else out.set("text", val(handoff::dag::to_mermaid(dag, {kind, direction})));
  return out;
}

val graph_export(const HandoffGraph& g, const std::string& trace, const std::string& format, const std::string& kind,
                 const std::string& direction) {
  return render(handoff::dag::dag_of(g), trace, format, kind, direction);
}

// ---------------------------------------------------------------------------------------------
// Swarm: every call takes and returns JSON text (a session's routing core, a tool call), since
// none of it is per-route.

using handoff::swarm::SessionCore;
using handoff::swarm::Swarm;

// { problems } or { swarm }: JS wraps the result in its Swarm class.
struct SwarmHolder {
  std::unique_ptr<Swarm> swarm;
};

// Loads a definition into `holder`; null, or [{ pointer, message }].
val swarm_load(SwarmHolder& holder, const std::string& text) {
  return load_definition(text, Swarm::from_json, [&](std::unique_ptr<Swarm>&& loaded) { holder.swarm = std::move(loaded); });
}

std::string swarm_to_json(const SwarmHolder& holder) { return dump(holder.swarm->to_json()); }

// Runs `fn(session core)` on the JSON session text; { error } or fn's JSON with { session }.
template <class Fn>
std::string with_session(const SwarmHolder& holder, const std::string& session_text, Fn fn) {
  auto parsed = handoff::condition::Json::parse(session_text, nullptr, /*allow_exceptions=*/false);
  auto core = SessionCore::from_json(*holder.swarm, parsed);
  if (!core) return dump({{"error", core.error()}});
  handoff::condition::Json out = fn(core.value());
  out["session"] = core->to_json();
  return dump(out);
}

std::string swarm_tools(const SwarmHolder& holder, const std::string& session, const std::string& format) {
  return with_session(holder, session, [&](SessionCore& core) {
    auto edges = handoff::swarm::offered_tools(*holder.swarm, core);
    handoff::condition::Json names = handoff::condition::Json::array();
    for (const auto* e : edges) names.push_back({{"name", e->tool_name}, {"to", e->to}});
    auto tools = handoff::swarm::tool_definitions(*holder.swarm, holder.swarm->agent(core.active), edges, format);
    if (!tools) return handoff::condition::Json{{"error", tools.error()}};
    return handoff::condition::Json{{"tools", tools.value()}, {"offered", names}};
  });
}

std::string swarm_apply_rules(const SwarmHolder& holder, const std::string& session) {
  return with_session(holder, session, [&](SessionCore& core) {
    return handoff::condition::Json{{"outcome", handoff::swarm::apply_rules(*holder.swarm, core)}};
  });
}

std::string swarm_apply_tool_call(const SwarmHolder& holder, const std::string& session, const std::string& name,
                                  const std::string& arguments) {
  return with_session(holder, session, [&](SessionCore& core) {
    return handoff::condition::Json{{"outcome", handoff::swarm::apply_tool_call_text(*holder.swarm, core, name, arguments)}};
  });
}

// ---------------------------------------------------------------------------------------------
// StandaloneCondition

std::uintptr_t condition_address(const StandaloneCondition& c) { return reinterpret_cast<std::uintptr_t>(&c); }

val condition_compile(StandaloneCondition& c, const std::string& source) {
  auto compiled = c.compile(source);
  if (compiled) return val::null();
  val out = val::object();
  out.set("index", val(compiled.error().index));
  out.set("message", val(compiled.error().message));
  return out;
}

val condition_paths(const StandaloneCondition& c) { return paths_array(c.condition().paths()); }

val condition_path_texts(const StandaloneCondition& c) {
  std::vector<std::string> texts;
  for (const Path& p : c.condition().paths()) texts.push_back(p.text());
  return strings_array(texts);
}

val condition_strings(const StandaloneCondition& c) {
  val out = val::array();
  for (std::uint32_t id = 0; id < c.strings().size(); ++id) out.set(id, val(std::string(c.strings().view(id))));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Machine and Execution

using handoff::machine::Execution;
using handoff::machine::Machine;

val problem_value(const handoff::machine::Problem& p) {
  val out = val::object();
  out.set("code", val(p.code));
  out.set("message", val(p.message));
  return out;
}

Machine* make_machine(const std::string& name, bool has_start, const std::string& start, double max_steps,
                      bool throw_on_max_steps, bool feedback_on_revisit, val reducers) {
  handoff::machine::MachineOptions options;
  auto count = reducers["length"].as<std::size_t>();
  for (std::size_t i = 0; i < count; ++i) {
    options.reducers.emplace_back(reducers[i][0].as<std::string>(), reducers[i][1].as<std::string>());
  }
  options.name = name;
  if (has_start) options.start = start;
  options.max_steps = max_steps;
  options.on_max_steps = throw_on_max_steps ? handoff::machine::OnMaxSteps::Throw : handoff::machine::OnMaxSteps::Return;
  options.feedback_on_revisit = feedback_on_revisit;
  return new Machine(std::move(options));
}

std::uintptr_t machine_address(const Machine& m) { return reinterpret_cast<std::uintptr_t>(&m); }

val machine_add_state(Machine& m, const std::string& name, bool feedback_on_revisit) {
  auto added = m.add_state(name, feedback_on_revisit);
  return added ? val::null() : problem_value(added.error());
}

// null, { problem: { code, message } } or { syntax: { index, message } }
val machine_add_edge(Machine& m, const std::string& from, const std::string& to, bool conditional, const std::string& when,
                     const std::string& description) {
  auto added = m.add_edge(from, to, conditional ? std::optional<std::string_view>(when) : std::nullopt, description);
  if (added) return val::null();
  val out = val::object();
  if (added.error().problem) out.set("problem", problem_value(*added.error().problem));
  if (added.error().syntax) {
    val syntax = val::object();
    syntax.set("index", val(added.error().syntax->index));
    syntax.set("message", val(added.error().syntax->message));
    out.set("syntax", syntax);
  }
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

val machine_out_edges(const Machine& m, std::uint32_t state) { return out_edges(m.graph(), m.states()[state].node); }

val machine_strings_since(const Machine& m, std::uint32_t from) { return strings_since(m.graph(), from); }

Execution* make_execution(Machine& m) { return new Execution(m); }

val machine_export(const Machine& m, const std::string& trace, const std::string& format, const std::string& kind,
                   const std::string& direction) {
  return render(handoff::dag::dag_of(m), trace, format, kind, direction);
}

std::string machine_to_json(const Machine& m) { return dump(handoff::definition::to_json(m)); }

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
  out.set("onMaxSteps", val(o.on_max_steps == handoff::machine::OnMaxSteps::Throw ? "throw" : "return"));
  out.set("feedbackOnRevisit", val(o.feedback_on_revisit));
  return out;
}

bool machine_state_feedback(const Machine& m, std::uint32_t state) { return m.states()[state].feedback_on_revisit; }

// Replaces `e` with the execution a snapshot's JSON text describes; null, or why not.
val execution_restore(Execution& e, Machine& m, const std::string& text) {
  auto document = handoff::condition::Json::parse(text, nullptr, /*allow_exceptions=*/false);
  auto restored = Execution::restore(m, document);
  if (!restored) return val(restored.error());
  e = std::move(restored.value());
  return val::null();
}

std::uintptr_t execution_address(const Execution& e) { return reinterpret_cast<std::uintptr_t>(&e); }

std::string execution_snapshot(const Execution& e) {
  return e.snapshot().dump(-1, ' ', false, handoff::condition::Json::error_handler_t::replace);
}

val execution_history(const Execution& e) {
  val out = val::array();
  const auto& history = e.history();
  for (std::size_t i = 0; i < history.size(); ++i) {
    const auto& r = history[i];
    val item = val::array();
    item.set(0, val(r.step));
    item.set(1, val(r.state));
    item.set(2, val(r.visit));
    item.set(3, val(r.next));
    item.set(4, val(r.edge));
    out.set(i, item);
  }
  return out;
}

// What the last hg_exec_* call did, read by JS through a view of memory:
// [status, step, state, visit, next, edge, revision applies]
std::int32_t exec_info[7];

void fill_info(const Execution& e) {
  exec_info[0] = static_cast<std::int32_t>(e.status());
  exec_info[1] = static_cast<std::int32_t>(e.steps_run());
  exec_info[2] = static_cast<std::int32_t>(e.current_state());
  exec_info[3] = static_cast<std::int32_t>(e.visit());
  exec_info[6] = e.revision_applies() ? 1 : 0;
  if (!e.history().empty() && e.history().back().step == e.steps_run()) {
    exec_info[2] = static_cast<std::int32_t>(e.history().back().state);
    exec_info[3] = static_cast<std::int32_t>(e.history().back().visit);
    exec_info[4] = e.history().back().next;
    exec_info[5] = e.history().back().edge;
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Raw exports: the per-route path.

extern "C" {

// Makes room for at least the given numbers of cells, bytes and slots (contents are kept) and
// returns the header describing where they are now. Growing may move them and grow memory.
EMSCRIPTEN_KEEPALIVE std::uint32_t* hg_transfer_reserve(std::uint32_t cells, std::uint32_t bytes, std::uint32_t slots) {
  grow(transfer.cells, cells);
  grow(transfer.bytes, bytes);
  grow(transfer.slots, slots);
  auto address = [](const void* p) { return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p)); };
  transfer.header[0] = address(transfer.cells.data());
  transfer.header[1] = address(transfer.bytes.data());
  transfer.header[2] = address(transfer.slots.data());
  transfer.header[3] = static_cast<std::uint32_t>(transfer.cells.size());
  transfer.header[4] = static_cast<std::uint32_t>(transfer.bytes.size());
  transfer.header[5] = static_cast<std::uint32_t>(transfer.slots.size());
  return transfer.header;
}

// The position of the first matching edge among `node`'s outgoing edges, or -1. A null graph
// answers -1, which lets the loader make the first (export-resolving) call harmlessly.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_route(const HandoffGraph* graph, NodeId node, std::uint32_t cell_count) {
  if (graph == nullptr) return -1;
  return graph->route(node, transfer_slots(graph->strings(), cell_count, graph->route_paths(node).size()));
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_evaluate(const StandaloneCondition* condition, std::uint32_t cell_count) {
  if (condition == nullptr || !condition->compiled()) return 0;
  const auto& c = condition->condition();
  return c.evaluate(transfer_slots(condition->strings(), cell_count, c.paths().size()));
}

// compileCondition without embind: JS writes the source's UTF-8 bytes where hg_source_reserve
// says (a buffer of its own, so that a condition compiled by a getter while a route is reading
// the state leaves the transfer area alone), hg_condition_new compiles it, and the paths and
// strings JS needs for evaluating are described later, on first use, as one JSON text.

static std::vector<char> source_buffer;
static std::string condition_text;         // the last description or error message
static std::uint32_t condition_result[3];  // [error index or 0, text pointer, text length]

EMSCRIPTEN_KEEPALIVE char* hg_source_reserve(std::uint32_t bytes) {
  if (source_buffer.size() < bytes) source_buffer.resize(std::max<std::size_t>(bytes, source_buffer.size() * 2));
  return source_buffer.data();
}

static std::uint32_t* text_result(std::uint32_t index) {
  condition_result[0] = index;
  condition_result[1] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(condition_text.data()));
  condition_result[2] = static_cast<std::uint32_t>(condition_text.size());
  return condition_result;
}

// A new condition compiled from the `length` bytes at hg_source_reserve's buffer, or null: then
// hg_compile_error() holds [index, message pointer, message length].
EMSCRIPTEN_KEEPALIVE StandaloneCondition* hg_condition_new(std::uint32_t length) {
  auto* c = new StandaloneCondition();
  auto compiled = c->compile(std::string_view(source_buffer.data(), std::min<std::size_t>(length, source_buffer.size())));
  if (compiled) return c;
  condition_text = compiled.error().message;
  text_result(compiled.error().index);
  delete c;
  return nullptr;
}

EMSCRIPTEN_KEEPALIVE std::uint32_t* hg_compile_error() { return condition_result; }

EMSCRIPTEN_KEEPALIVE void hg_condition_delete(StandaloneCondition* c) { delete c; }

// [0, pointer, length] of {"paths": [[[isIndex, key, index], ...], ...], "texts": [...],
// "strings": [...], "levels": [...]}: the steps and canonical text of each path, the interned
// strings in id order, and how much text each path's strings need (what js/marshal.js needs to
// write a state for this condition).
EMSCRIPTEN_KEEPALIVE std::uint32_t* hg_condition_describe(const StandaloneCondition* c) {
  using handoff::condition::Json;
  Json paths = Json::array();
  Json texts = Json::array();
  for (const Path& path : c->condition().paths()) {
    Json steps = Json::array();
    for (const auto& step : path.steps) steps.push_back(Json::array({step.is_index, step.key, static_cast<double>(step.index)}));
    paths.push_back(std::move(steps));
    texts.push_back(path.text());
  }
  Json strings = Json::array();
  for (std::uint32_t id = 0; id < c->strings().size(); ++id) strings.push_back(std::string(c->strings().view(id)));
  std::vector<std::uint8_t> levels(c->condition().paths().size(), handoff::condition::Condition::kTextNone);
  c->condition().text_levels(levels);
  condition_text = Json{{"paths", std::move(paths)}, {"texts", std::move(texts)}, {"strings", std::move(strings)},
                        {"levels", levels}}
                       .dump(-1, ' ', false, Json::error_handler_t::replace);
  return text_result(0);
}

// Per route path of `node`: how much of its strings' text JS must send (Condition::text_levels),
// valid until the next call.
EMSCRIPTEN_KEEPALIVE const std::uint8_t* hg_node_text_levels(const HandoffGraph* graph, NodeId node) {
  static std::vector<std::uint8_t> levels;
  levels = graph->text_levels(node);
  return levels.data();
}

EMSCRIPTEN_KEEPALIVE std::int32_t* hg_exec_info() { return exec_info; }

// Begins the next step of `execution`; exec_info then holds its step, state, visit and whether
// revision feedback applies. Returns the state's index (or -1 for a null execution).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_exec_begin(Execution* execution) {
  if (execution == nullptr || execution->status() != handoff::machine::Status::Ready) return -1;
  std::uint32_t state = execution->begin_step();
  exec_info[4] = handoff::machine::kNextNone;
  exec_info[5] = -1;
  fill_info(*execution);
  exec_info[2] = static_cast<std::int32_t>(state);
  exec_info[3] = static_cast<std::int32_t>(execution->visit());
  return static_cast<std::int32_t>(state);
}

// Routes the step begun, on the state JS marshalled; exec_info then holds the step's record.
// Returns the new status.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_exec_complete(Execution* execution, std::uint32_t cell_count) {
  if (execution == nullptr || execution->status() != handoff::machine::Status::InStep) return -1;
  const Machine& m = execution->machine();
  const auto& state = m.states()[execution->current_state()];
  auto status = execution->complete_step(
      transfer_slots(m.graph().strings(), cell_count, m.graph().route_paths(state.node).size()));
  fill_info(*execution);
  return static_cast<std::int32_t>(status);
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_exec_status(const Execution* execution) {
  return execution == nullptr ? -1 : static_cast<std::int32_t>(execution->status());
}

// Undoes hg_exec_begin when JS abandons a step before its handler ran.
EMSCRIPTEN_KEEPALIVE void hg_exec_cancel(Execution* execution) {
  if (execution != nullptr) execution->cancel_step();
}

// Stops between steps (status Aborted); does nothing once finished or in a step.
EMSCRIPTEN_KEEPALIVE void hg_exec_abort(Execution* execution) {
  if (execution != nullptr) execution->abort();
}

// Bytes of the heap in use, for leak tests.
EMSCRIPTEN_KEEPALIVE std::uint32_t hg_heap_used() { return static_cast<std::uint32_t>(mallinfo().uordblks); }

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
      .function("nodeDescription", &node_description)
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
      .function("stateFeedback", &machine_state_feedback)
      .function("loadJSON", &machine_load_json);

  class_<Execution>("Execution")
      .constructor(&make_execution, emscripten::allow_raw_pointers())
      .function("restore", &execution_restore)
      .function("address", &execution_address)
      .function("snapshot", &execution_snapshot)
      .function("history", &execution_history)
      .function("feedback", &Execution::feedback);

  class_<SwarmHolder>("Swarm")
      .constructor<>()
      .function("load", &swarm_load)
      .function("toJSON", &swarm_to_json)
      .function("tools", &swarm_tools)
      .function("applyRules", &swarm_apply_rules)
      .function("applyToolCall", &swarm_apply_tool_call);

  class_<StandaloneCondition>("StandaloneCondition")
      .constructor<>()
      .function("address", &condition_address)
      .function("compile", &condition_compile)
      .function("paths", &condition_paths)
      .function("pathTexts", &condition_path_texts)
      .function("strings", &condition_strings);
}
