// The WebAssembly surface of the core: a translation table plus the raw transfer ABI. C++ results
// and errors become plain JS values; nothing here decides anything (that is src/'s job), and every
// layout JS reads from memory is declared in src/core/contract.h.
//
// Raw C exports only, no embind (issue 21: its runtime was most of the module's JavaScript glue):
//  * here, what is not per-route (building and reading graphs, machines, executions and swarms),
//    in the routing module's ABI (wasm/router.cpp): strings in as UTF-8 with explicit lengths in
//    the text area, answers out as JSON text in the reply buffer; js/full-native.js presents them
//    as the classes js/ calls;
//  * the hot path (wasm/raw_exports.cpp, compiled for speed) and compiling standalone conditions
//    (wasm/condition_abi.h, shared with the routing module): JavaScript writes the values at a
//    node's paths into the transfer area (a tape, see src/condition/value.h) through typed-array
//    views of WebAssembly memory, then makes one numeric call: no strings cross, no objects are built.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "condition/standalone.h"
#include "condition_abi.h"
#include "core/contract.h"
#include "core/json.h"
#include "export/dag.h"
#include "export/definition.h"
#include "graph/handoff_graph.h"
#include "handoff/policy.h"
#include "handoff/swarm.h"
#include "machine/execution.h"
#include "machine/machine.h"
#include "raw_exports.h"

namespace {

using handoff::condition::Interner;
using handoff::condition::Path;
using handoff::condition::StandaloneCondition;
using handoff::graph::EdgeError;
using handoff::graph::HandoffGraph;
using handoff::graph::NodeId;


// JSON text to a value (discarded when it is not JSON): the core's reader (src/core/json.h),
// linear in the members of an object.
handoff::condition::Json parse_json(std::string_view text) {
  return handoff::core::parse_json(text).value;
}

std::string dump(const handoff::condition::Json& json) {
  return handoff::core::dump_json(json);
}

// ---------------------------------------------------------------------------------------------
// Translations of core values to JSON, which the exports answer with.

using Json = handoff::condition::Json;

Json edge_error_json(const EdgeError& error) {
  Json out = Json::object();
  switch (error.kind) {
    case EdgeError::Kind::Syntax:
      out["kind"] = "syntax";
      out["index"] = error.syntax.index;
      break;
    case EdgeError::Kind::Cycle:
      out["kind"] = "cycle";
      out["cycle"] = error.cycle;
      break;
    case EdgeError::Kind::Argument:
      out["kind"] = "argument";
      break;
  }
  out["message"] = error.message;
  return out;
}

// [[isIndex, key, index], ...] per path: what js/marshal.js needs to walk a JS object.
Json paths_json(const std::vector<Path>& paths) {
  Json out = Json::array();
  for (const Path& path : paths) {
    Json steps = Json::array();
    for (const auto& step : path.steps) steps.push_back(Json::array({step.is_index, step.key, step.index}));
    out.push_back(std::move(steps));
  }
  return out;
}

// [{ to, when, description }] in insertion order.
Json out_edges_json(const HandoffGraph& g, NodeId node) {
  Json out = Json::array();
  for (auto index : g.out_edges(node)) {
    const auto& edge = g.edges()[index];
    Json item = Json::object();
    item["to"] = g.name(edge.to);
    item["when"] = edge.condition ? Json(edge.condition->source()) : Json(nullptr);
    item["description"] = edge.description;
    out.push_back(std::move(item));
  }
  return out;
}

// Strings the graph's interner learnt since `from`, so JS can send them as ids.
Json strings_since_json(const HandoffGraph& g, std::uint32_t from) {
  Json out = Json::array();
  const Interner& strings = g.strings();
  for (std::uint32_t id = from; id < strings.size(); ++id) out.push_back(std::string(strings.view(id)));
  return out;
}

// ---------------------------------------------------------------------------------------------
// HandoffGraph

// [{ pointer, message }]
Json problems_json(const std::vector<handoff::definition::Problem>& problems) {
  Json out = Json::array();
  for (const auto& p : problems) out.push_back(Json{{"pointer", p.pointer}, {"message", p.message}});
  return out;
}

// ---------------------------------------------------------------------------------------------
// Exports (DAG model, Mermaid, DOT) of graphs and machines. `trace` is JSON text or empty.

// { text } or { error } as JSON, for the raw exports.
handoff::condition::Json render_json(handoff::dag::Dag dag, std::string_view trace, std::string_view format, std::string_view kind,
                                     std::string_view direction, std::string_view generated_at) {
  auto rendered = handoff::dag::render(std::move(dag), std::string(trace), std::string(format),
                                       {std::string(kind), std::string(direction)}, std::string(generated_at));
  return rendered ? Json{{"text", rendered.value()}} : Json{{"error", rendered.error()}};
}


// ---------------------------------------------------------------------------------------------
// Machine and Execution: translations to JSON.

using handoff::machine::Execution;
using handoff::machine::Machine;

Json problem_json(const handoff::machine::Problem& p) {
  Json made = Json::object();
  made["code"] = p.code;
  made["message"] = p.message;
  made["pointer"] = p.pointer;
  return made;
}

// { problem: { code, message, pointer } } or { syntax: { index, message } }
Json edge_rejection_json(const handoff::machine::EdgeRejection& rejection) {
  Json out = Json::object();
  if (rejection.problem) out["problem"] = problem_json(*rejection.problem);
  if (rejection.syntax)
    out["syntax"] = Json{{"index", rejection.syntax->index}, {"message", rejection.syntax->message}};
  return out;
}

// The strings of a JSON list JS sent (js/full-native.js); what is not a string is left out.
std::vector<std::string> string_list(std::string_view text) {
  std::vector<std::string> out;
  auto list = parse_json(text);
  if (!list.is_array()) return out;
  for (const auto& item : list) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

// The [key, value] string pairs of a JSON list JS sent; what is not such a pair is left out.
std::vector<std::pair<std::string, std::string>> pair_list(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  auto list = parse_json(text);
  if (!list.is_array()) return out;
  for (const auto& item : list) {
    if (item.is_array() && item.size() == 2 && item[0].is_string() && item[1].is_string()) {
      out.emplace_back(item[0].get<std::string>(), item[1].get<std::string>());
    }
  }
  return out;
}

// null for a state that is not a subgraph; { input, output }, each null (whole state) or
// [[key, path steps], ...].
Json subgraph_json(const Machine& m, std::uint32_t state) {
  const auto& subgraph = m.states()[state].subgraph;
  if (!subgraph) return nullptr;
  auto mapping = [](const std::optional<std::vector<handoff::machine::StateMapping>>& entries) -> Json {
    if (!entries) return nullptr;
    Json out = Json::array();
    for (const auto& e : *entries) out.push_back(Json::array({e.key, paths_json({e.path})[0]}));
    return out;
  };
  Json made = Json::object();
  made["input"] = mapping(subgraph->input);
  made["output"] = mapping(subgraph->output);
  return made;
}

// null for a plain state; { branches, concurrency } or { map: { state, over }, concurrency, overPath }.
Json fan_out_json(const Machine& m, std::uint32_t state) {
  const auto& fan_out = m.states()[state].fan_out;
  if (!fan_out) return nullptr;
  Json out = Json::object();
  if (fan_out->is_map()) {
    out["map"]["state"] = fan_out->map_state;
    out["map"]["over"] = fan_out->over;
    out["overPath"] = paths_json({fan_out->over_path});
  } else {
    out["branches"] = fan_out->branches;
  }
  if (fan_out->concurrency > 0) out["concurrency"] = fan_out->concurrency;
  return out;
}

// [{ to, when, description, predicate, transfer }] in declaration order.
Json machine_out_edges_json(const Machine& m, std::uint32_t state) {
  Json out = out_edges_json(m.graph(), m.states()[state].node);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto& edge = m.out_edge(state, static_cast<std::uint32_t>(i));
    out[i]["predicate"] = edge.predicate;
    out[i]["transfer"] = edge.transfer;
    if (edge.transfer) out[i]["when"] = nullptr;  // to routing, a condition that never holds
  }
  return out;
}

Json machine_options_json(const Machine& m) {
  const auto& o = m.options();
  Json out = Json::object();
  out["name"] = o.name;
  out["maxSteps"] = o.max_steps;
  out["onMaxSteps"] = handoff::machine::on_max_steps_name(o.on_max_steps);
  out["feedbackOnRevisit"] = o.feedback_on_revisit;
  out["noFeedbackStates"] = o.no_feedback_states;
  if (o.start) out["start"] = *o.start;
  return out;
}

// A restored execution's fan-out under way: { state, step, visit, done: [bool per branch] }, or null.
Json fan_out_under_way_json(const Execution& e) {
  if (!e.fan_out() || e.awaiting_items()) return nullptr;
  Json done = Json::array();
  for (std::uint32_t i = 0; i < e.branches().size(); ++i) done.push_back(e.branch_completed(i));
  Json made = Json::object();
  made["state"] = e.current_state();
  made["step"] = e.steps_run();
  made["visit"] = e.visit();
  made["done"] = std::move(done);
  return made;
}

}  // namespace

// The raw exports (hg_route, hg_exec_*, ...) are in wasm/raw_exports.cpp, compiled for speed.



// ---------------------------------------------------------------------------------------------
// The text ABI, the routing module's (wasm/router.cpp): strings go in as UTF-8
// that JS writes into the text area (hg_text_reserve) and passes as (offset, length) pairs; answers
// that are not numbers come back as JSON text in the reply buffer (hg_reply), whose length the call
// returns (0: null). The reply is the module's and is overwritten by the next call: JS decodes it
// at once (js/full-native.js), so what user code receives is a copy.

namespace {

std::vector<char> text_area;
std::string reply;

// The text at (offset, length) in the text area; empty when that is not inside it.
std::string text(std::uint32_t offset, std::uint32_t length) {
  if (offset > text_area.size() || length > text_area.size() - offset) return {};
  return {text_area.data() + offset, length};
}

// The reply's buffer is kept (assign, not move), so that its heap use only ever grows: a leak test
// compares the heap before and after many calls.
std::int32_t answer_text(const std::string& text) {
  reply.assign(text);
  return static_cast<std::int32_t>(reply.size());
}

std::int32_t answer(const handoff::condition::Json& json) { return answer_text(dump(json)); }

// { error: message }.
std::int32_t answer_error(std::string_view message) { return answer(Json{{"error", message}}); }

// [{ pointer, message }], answered: out of line, for every loader's load_definition.
[[gnu::noinline]] std::int32_t answer_problems(const std::vector<handoff::definition::Problem>& problems) { return answer(problems_json(problems)); }

// Parses a definition and loads it with `from_json`: on success `adopt` takes what loaded and the
// answer is 0, otherwise the problems, [{ pointer, message }].
template <class Load, class Adopt>
std::int32_t load_definition(std::string_view text, Load from_json, Adopt adopt) {
  auto document = parse_json(text);
  if (document.is_discarded()) return answer_text(R"([{"pointer":"","message":"not valid JSON"}])");
  auto loaded = from_json(document);
  if (!loaded) return answer_problems(loaded.error());
  adopt(std::move(loaded.value()));
  return 0;
}

using handoff::swarm::SessionCore;
using handoff::swarm::Swarm;

// What JS holds for a Swarm: empty until a definition loads.
struct SwarmHolder {
  std::unique_ptr<Swarm> swarm;
};

// The session core the JSON session text describes, or why not. Out of line, as is
// answer_in_session: with_session is instantiated per export, and inlined they were each export's code.
[[gnu::noinline]] handoff::Expected<SessionCore, std::string> session_core(const SwarmHolder* holder, const std::string& session_text) {
  if (holder == nullptr || !holder->swarm) return handoff::unexpected(std::string("no swarm loaded"));
  return SessionCore::from_json(*holder->swarm, parse_json(session_text));
}

// `out` with { session }, answered.
[[gnu::noinline]] std::int32_t answer_in_session(handoff::condition::Json out, const SessionCore& core) {
  out["session"] = core.to_json();
  return answer(out);
}

// Runs `fn(session core)` on the JSON session text; { error } or fn's JSON with { session }.
template <class Fn>
std::int32_t with_session(const SwarmHolder* holder, const std::string& session_text, Fn fn) {
  auto core = session_core(holder, session_text);
  if (!core) return answer_error(core.error());
  return answer_in_session(fn(core.value()), core.value());
}

bool loaded(const SwarmHolder* holder) { return holder != nullptr && holder->swarm != nullptr; }

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE char* hg_text_reserve(std::uint32_t bytes) {
  if (text_area.size() < bytes) text_area.resize(std::max<std::size_t>(bytes, text_area.size() * 2));
  return text_area.data();
}

EMSCRIPTEN_KEEPALIVE const char* hg_reply() { return reply.data(); }

// HandoffGraph: the setup and introspection calls (the route is hg_route, wasm/raw_exports.cpp).
// `node` arguments come from hg_graph_find; one past the graph answers as a node without edges.

EMSCRIPTEN_KEEPALIVE HandoffGraph* hg_graph_new(std::int32_t allow_cycles) {
  return new HandoffGraph(allow_cycles != 0 ? handoff::graph::CyclePolicy::Allow : handoff::graph::CyclePolicy::Error);
}

EMSCRIPTEN_KEEPALIVE void hg_graph_delete(HandoffGraph* g) { delete g; }

// 0, or { kind, message, ... } (an EdgeError).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_add_node(HandoffGraph* g, std::uint32_t id, std::uint32_t id_length, std::uint32_t description,
                                                    std::uint32_t description_length) {
  auto added = g->add_node(text(id, id_length), text(description, description_length));
  return added ? 0 : answer(edge_error_json(added.error()));
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_add_edge(HandoffGraph* g, std::uint32_t from, std::uint32_t from_length, std::uint32_t to,
                                                    std::uint32_t to_length, std::int32_t conditional, std::uint32_t when,
                                                    std::uint32_t when_length, std::uint32_t description,
                                                    std::uint32_t description_length) {
  auto when_text = text(when, when_length);
  auto added = g->add_edge(text(from, from_length), text(to, to_length),
                           conditional != 0 ? std::optional<std::string_view>(when_text) : std::nullopt,
                           text(description, description_length));
  return added ? 0 : answer(edge_error_json(added.error()));
}

// The node's index, or -1.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_find(const HandoffGraph* g, std::uint32_t id, std::uint32_t id_length) {
  NodeId node = g->find(text(id, id_length));
  return node == handoff::graph::kNoNode ? -1 : static_cast<std::int32_t>(node);
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_out_edges(const HandoffGraph* g, NodeId node) {
  return answer(node < g->size() ? out_edges_json(*g, node) : Json::array());
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_route_paths(const HandoffGraph* g, NodeId node) {
  return answer(node < g->size() ? paths_json(g->route_paths(node)) : Json::array());
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_node_names(const HandoffGraph* g) { return answer(Json(g->node_names())); }

EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_allows_cycles(const HandoffGraph* g) {
  return g->cycle_policy() == handoff::graph::CyclePolicy::Allow ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE std::uint32_t hg_graph_size(const HandoffGraph* g) { return static_cast<std::uint32_t>(g->size()); }

EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_is_dag(const HandoffGraph* g) { return g->is_dag() ? 1 : 0; }

EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_strings_since(const HandoffGraph* g, std::uint32_t from) {
  return answer(strings_since_json(*g, from));
}

// [evaluated, matched, evaluated, matched, ...] per outgoing edge, on the marshalled state, read as
// a route reads it except that every slot is asked for (raw_exports::explain).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_explain(const HandoffGraph* g, NodeId node, std::uint32_t cell_count,
                                                   std::uint32_t first) {
  Json out = Json::array();
  if (node < g->size()) {
    std::vector<handoff::graph::EdgeTrace> trace;
    handoff::raw_exports::explain(*g, node, cell_count, first, trace);
    for (const auto& t : trace) {
      out.push_back(t.evaluated);
      out.push_back(t.matched);
    }
  }
  return answer(out);
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_to_json(const HandoffGraph* g) { return answer(handoff::definition::to_json(*g)); }

// Replaces the graph with the one the definition describes; 0, or [{ pointer, message }].
EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_load_json(HandoffGraph* g, std::uint32_t definition, std::uint32_t length) {
  return load_definition(text(definition, length), handoff::definition::graph_from_json,
                         [&](HandoffGraph&& loaded) { *g = std::move(loaded); });
}

// { text } or { error }: the export of the graph in `format` after marking `trace` (JSON or empty).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_graph_export(const HandoffGraph* g, std::uint32_t trace, std::uint32_t trace_length,
                                                  std::uint32_t format, std::uint32_t format_length, std::uint32_t kind,
                                                  std::uint32_t kind_length, std::uint32_t direction, std::uint32_t direction_length,
                                                  std::uint32_t generated_at, std::uint32_t generated_at_length) {
  return answer(render_json(handoff::dag::dag_of(*g), text(trace, trace_length), text(format, format_length), text(kind, kind_length),
                            text(direction, direction_length), text(generated_at, generated_at_length)));
}

// Machine: building a state machine (its steps are hg_exec_*, wasm/raw_exports.cpp). `state`
// arguments are indices JS had from hg_machine_state_names; one out of range answers null or [].

// `on_max_steps` is "return", "throw" or "return-with-flag" (js/machine.js checked it);
// `no_feedback_states` a JSON list of names, `reducers` one of [key, reducer name] pairs.
EMSCRIPTEN_KEEPALIVE Machine* hg_machine_new(std::uint32_t name, std::uint32_t name_length, std::int32_t has_start, std::uint32_t start,
                                             std::uint32_t start_length, double max_steps, std::uint32_t on_max_steps,
                                             std::uint32_t on_max_steps_length, std::int32_t feedback_on_revisit,
                                             std::uint32_t no_feedback_states, std::uint32_t no_feedback_states_length,
                                             std::uint32_t reducers, std::uint32_t reducers_length) {
  handoff::machine::MachineOptions options;
  options.reducers = pair_list(text(reducers, reducers_length));
  options.no_feedback_states = string_list(text(no_feedback_states, no_feedback_states_length));
  options.name = text(name, name_length);
  if (has_start != 0) options.start = text(start, start_length);
  options.max_steps = max_steps;
  options.on_max_steps =
      handoff::machine::on_max_steps_of(text(on_max_steps, on_max_steps_length)).value_or(handoff::machine::OnMaxSteps::Return);
  options.feedback_on_revisit = feedback_on_revisit != 0;
  return new Machine(std::move(options));
}

EMSCRIPTEN_KEEPALIVE void hg_machine_delete(Machine* m) { delete m; }

// 0, or { code, message, pointer }.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_add_state(Machine* m, std::uint32_t name, std::uint32_t name_length,
                                                       std::int32_t feedback_on_revisit, std::int32_t has_task, std::uint32_t task,
                                                       std::uint32_t task_length) {
  auto task_text = text(task, task_length);
  auto added = m->add_state(text(name, name_length), feedback_on_revisit != 0,
                            has_task != 0 ? std::optional<std::string_view>(task_text) : std::nullopt);
  return added ? 0 : answer(problem_json(added.error()));
}

// 0, or edge_rejection_json's object.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_add_edge(Machine* m, std::uint32_t from, std::uint32_t from_length, std::uint32_t to,
                                                      std::uint32_t to_length, std::int32_t conditional, std::uint32_t when,
                                                      std::uint32_t when_length, std::uint32_t description,
                                                      std::uint32_t description_length) {
  auto when_text = text(when, when_length);
  auto added = m->add_edge(text(from, from_length), text(to, to_length),
                           conditional != 0 ? std::optional<std::string_view>(when_text) : std::nullopt,
                           text(description, description_length));
  return added ? 0 : answer(edge_rejection_json(added.error()));
}

// An edge decided by a JavaScript function: 0 or { problem }.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_add_predicate_edge(Machine* m, std::uint32_t from, std::uint32_t from_length, std::uint32_t to,
                                                                std::uint32_t to_length, std::uint32_t description,
                                                                std::uint32_t description_length) {
  auto added = m->add_predicate_edge(text(from, from_length), text(to, to_length), text(description, description_length));
  return added ? 0 : answer(edge_rejection_json(added.error()));
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_add_transfer_edge(Machine* m, std::uint32_t from, std::uint32_t from_length, std::uint32_t to,
                                                               std::uint32_t to_length, std::uint32_t description,
                                                               std::uint32_t description_length) {
  auto added = m->add_transfer_edge(text(from, from_length), text(to, to_length), text(description, description_length));
  return added ? 0 : answer(edge_rejection_json(added.error()));
}

// A fan-out state (`branches` a JSON list of names): 0, or { code, message, pointer }.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_add_fan_out(Machine* m, std::uint32_t name, std::uint32_t name_length, std::uint32_t branches,
                                                         std::uint32_t branches_length, std::int32_t has_concurrency, double concurrency) {
  auto added = m->add_fan_out(text(name, name_length), string_list(text(branches, branches_length)),
                              has_concurrency != 0 ? std::optional<double>(concurrency) : std::nullopt);
  return added ? 0 : answer(problem_json(added.error()));
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_add_map(Machine* m, std::uint32_t name, std::uint32_t name_length, std::uint32_t branch,
                                                     std::uint32_t branch_length, std::uint32_t over, std::uint32_t over_length,
                                                     std::int32_t has_concurrency, double concurrency) {
  auto added = m->add_map(text(name, name_length), text(branch, branch_length), text(over, over_length),
                          has_concurrency != 0 ? std::optional<double>(concurrency) : std::nullopt);
  return added ? 0 : answer(problem_json(added.error()));
}

// A subgraph state running the machine of the definition text `child` (another machine's
// toJSON()); `input` and `output` are JSON lists of [key, path] when given. 0, or { code, message, pointer }.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_add_subgraph(Machine* m, std::uint32_t name, std::uint32_t name_length, std::uint32_t child,
                                                          std::uint32_t child_length, std::int32_t has_input, std::uint32_t input,
                                                          std::uint32_t input_length, std::int32_t has_output, std::uint32_t output,
                                                          std::uint32_t output_length) {
  auto state_name = text(name, name_length);
  auto loaded = handoff::definition::machine_from_json(parse_json(text(child, child_length)));
  if (!loaded) {
    return answer(problem_json({"bad-subgraph",
                                "subgraph state '" + state_name + "': its machine does not load: " + handoff::definition::describe(loaded.error()),
                                "/states/" + std::to_string(m->states().size()) + "/subgraph"}));
  }
  auto mapping = [](std::int32_t has, std::string_view list) -> std::optional<Machine::Mapping> {
    if (has == 0) return std::nullopt;
    return pair_list(list);
  };
  auto added = m->add_subgraph(state_name, std::move(loaded.value()), mapping(has_input, text(input, input_length)),
                               mapping(has_output, text(output, output_length)));
  return added ? 0 : answer(problem_json(added.error()));
}

// A handoff-enabled state (MAG's handoffs in a workflow): 0 or { code, message, pointer }.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_set_handoffs(Machine* m, std::uint32_t state, std::uint32_t state_length, double count) {
  auto name = text(state, state_length);
  if (!(count >= 0 && count <= handoff::machine::kMaxHandoffs && count == static_cast<double>(static_cast<std::uint32_t>(count)))) {
    return answer(problem_json({"bad-handoffs", "the handoffs of state '" + name + "' must be an integer from 0 to 1000000", ""}));
  }
  auto set = m->set_handoffs(name, static_cast<std::uint32_t>(count));
  return set ? 0 : answer(problem_json(set.error()));
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_subgraph(const Machine* m, std::uint32_t state) {
  return answer(state < m->states().size() ? subgraph_json(*m, state) : Json(nullptr));
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_fan_out(const Machine* m, std::uint32_t state) {
  return answer(state < m->states().size() ? fan_out_json(*m, state) : Json(nullptr));
}

EMSCRIPTEN_KEEPALIVE std::uint32_t hg_machine_edge_count(const Machine* m) { return static_cast<std::uint32_t>(m->edges().size()); }

EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_template_variables(const Machine* m) { return answer(Json(m->template_variables())); }

// [{ code, message, pointer }, ...]
EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_validate(const Machine* m) {
  Json out = Json::array();
  for (const auto& p : m->validate()) out.push_back(problem_json(p));
  return answer(out);
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_state_names(const Machine* m) {
  Json out = Json::array();
  for (const auto& s : m->states()) out.push_back(s.name);
  return answer(out);
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_route_paths(const Machine* m, std::uint32_t state) {
  if (state >= m->states().size()) return answer(Json::array());
  return answer(paths_json(m->graph().route_paths(m->states()[state].node)));
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_route_path_texts(const Machine* m, std::uint32_t state) {
  Json out = Json::array();
  if (state < m->states().size()) {
    for (const auto& path : m->graph().route_paths(m->states()[state].node)) out.push_back(path.text());
  }
  return answer(out);
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_out_edges(const Machine* m, std::uint32_t state) {
  return answer(state < m->states().size() ? machine_out_edges_json(*m, state) : Json::array());
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_strings_since(const Machine* m, std::uint32_t from) {
  return answer(strings_since_json(m->graph(), from));
}

// { text } or { error }: the export of the machine in `format` after marking `trace` (JSON or empty).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_export(const Machine* m, std::uint32_t trace, std::uint32_t trace_length, std::uint32_t format,
                                                    std::uint32_t format_length, std::uint32_t kind, std::uint32_t kind_length,
                                                    std::uint32_t direction, std::uint32_t direction_length, std::uint32_t generated_at,
                                                    std::uint32_t generated_at_length) {
  return answer(render_json(handoff::dag::dag_of(*m), text(trace, trace_length), text(format, format_length), text(kind, kind_length),
                            text(direction, direction_length), text(generated_at, generated_at_length)));
}

// { text } (the definition), or { error } when the machine has none (an edge is a function).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_to_json(const Machine* m) {
  if (auto problem = handoff::definition::portability_problem(*m)) return answer_error(*problem);
  return answer(Json{{"text", dump(handoff::definition::to_json(*m))}});
}

// Replaces the machine with the one the definition describes; 0, or [{ pointer, message }].
EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_load_json(Machine* m, std::uint32_t definition, std::uint32_t length) {
  return load_definition(text(definition, length), handoff::definition::machine_from_json,
                         [&](std::unique_ptr<Machine>&& loaded) { *m = std::move(*loaded); });
}

// [[key, reducer name], ...]
EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_reducers(const Machine* m) { return answer(Json(m->options().reducers)); }

// { name, start?, maxSteps, onMaxSteps, feedbackOnRevisit, noFeedbackStates }
EMSCRIPTEN_KEEPALIVE std::int32_t hg_machine_options(const Machine* m) { return answer(machine_options_json(*m)); }

// A state machine's revision feedback text, written when a handler first reads ctx.feedback.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_revision_text(std::uint32_t state, std::uint32_t state_length, std::uint32_t visit, std::uint32_t prior,
                                                   std::uint32_t prior_length) {
  return answer_text(handoff::machine::revision_text(text(state, state_length), visit, text(prior, prior_length)));
}

// Execution: a run of a machine, between the steps hg_exec_* make.

EMSCRIPTEN_KEEPALIVE Execution* hg_execution_new(Machine* m) { return new Execution(*m); }

EMSCRIPTEN_KEEPALIVE void hg_execution_delete(Execution* e) { delete e; }

// Replaces the execution with the one a snapshot's JSON text describes; 0, or why not (a JSON string).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_execution_restore(Execution* e, Machine* m, std::uint32_t snapshot, std::uint32_t length) {
  auto restored = Execution::restore(*m, parse_json(text(snapshot, length)));
  if (!restored) return answer(Json(restored.error()));
  *e = std::move(restored.value());
  return 0;
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_execution_snapshot(const Execution* e) { return answer(e->snapshot()); }

// [[path, preview], ...]: what the conditions read on a step where no edge matched.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_execution_unmatched_reads(const Execution* e) { return answer(Json(e->unmatched_reads())); }

EMSCRIPTEN_KEEPALIVE std::int32_t hg_execution_feedback(const Execution* e) { return answer_text(e->feedback()); }

EMSCRIPTEN_KEEPALIVE std::int32_t hg_execution_feedback_of(const Execution* e, std::uint32_t state) {
  return answer_text(e->feedback_of(state));
}

// Fills the task templates from the JSON text of the run's input variables: 0, or
// { missing: [[state, variable], ...] }, or { problem } (a value too deep or a task too long).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_execution_bind_variables(Execution* e, std::uint32_t variables, std::uint32_t length) {
  auto parsed = parse_json(text(variables, length));
  auto bound = e->bind_variables(parsed.is_discarded() ? Json::object() : parsed);
  if (bound) return 0;
  const auto& missing = bound.error().missing;
  if (missing.empty()) return answer(Json{{"problem", bound.error().problem}});
  return answer(Json{{"missing", missing}});
}

// A state's task, filled; null for a state without one.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_execution_task(const Execution* e, std::uint32_t state) {
  const auto& task = e->task(state);
  return answer(task ? Json(*task) : Json(nullptr));
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_execution_max_steps_flag(const Execution* e) { return e->max_steps_flag(); }

EMSCRIPTEN_KEEPALIVE std::int32_t hg_execution_fan_out_under_way(const Execution* e) { return answer(fan_out_under_way_json(*e)); }

// A restored execution's subgraph under way: { state, step, visit }, or null.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_execution_subgraph_under_way(const Execution* e) {
  if (!e->in_subgraph()) return answer(Json(nullptr));
  return answer(Json{{"state", e->current_state()}, {"step", e->steps_run()}, {"visit", e->visit()}});
}

// The transfers offered in the step under way, as JSON text (Execution::transfers).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_execution_transfers(const Execution* e) { return answer(e->transfers()); }

// 0, or why the choice is refused (a JSON string).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_execution_choose_transfer(Execution* e, std::uint32_t choice, std::uint32_t length) {
  auto chosen = e->choose_transfer(text(choice, length));
  return chosen ? 0 : answer(Json(chosen.error()));
}

// Swarm: every call takes and returns JSON text (a session's routing core, a tool call), since
// none of it is per-route.

EMSCRIPTEN_KEEPALIVE SwarmHolder* hg_swarm_new() { return new SwarmHolder(); }

EMSCRIPTEN_KEEPALIVE void hg_swarm_delete(SwarmHolder* holder) { delete holder; }

// Loads a definition; 0 (loaded), or [{ pointer, message }].
EMSCRIPTEN_KEEPALIVE std::int32_t hg_swarm_load(SwarmHolder* holder, std::uint32_t definition, std::uint32_t length) {
  if (holder == nullptr) return answer_text(R"([{"pointer":"","message":"no swarm"}])");
  return load_definition(text(definition, length), Swarm::from_json,
                         [&](std::unique_ptr<Swarm>&& swarm) { holder->swarm = std::move(swarm); });
}

// The definition text (the core's normal form).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_swarm_to_json(const SwarmHolder* holder) {
  return loaded(holder) ? answer(holder->swarm->to_json()) : answer_text("null");
}

// The routing core of a new session (at the entry agent).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_swarm_start(const SwarmHolder* holder) {
  return loaded(holder) ? answer(SessionCore::start(*holder->swarm).to_json()) : answer_error("no swarm loaded");
}

EMSCRIPTEN_KEEPALIVE std::int32_t hg_swarm_tools(const SwarmHolder* holder, std::uint32_t session, std::uint32_t session_length,
                                                 std::uint32_t format, std::uint32_t format_length) {
  auto format_text = text(format, format_length);
  return with_session(holder, text(session, session_length), [&](SessionCore& core) {
    auto record = handoff::swarm::offered_tools_record(*holder->swarm, core, format_text);
    return record ? std::move(record.value()) : Json{{"error", record.error()}};
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
  if (!loaded(holder)) return answer_error("no swarm loaded");
  auto parsed = parse_json(text(outcome, length));
  auto result = handoff::swarm::tool_result_text(*holder->swarm, parsed);
  return result ? answer(Json{{"result", result.value()}}) : answer_error(result.error());
}

// { error } or the host record of the blocked outcome.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_swarm_refuse_handoff(const SwarmHolder* holder, double edge, std::uint32_t variable,
                                                          std::uint32_t variable_length, std::uint32_t message,
                                                          std::uint32_t message_length) {
  if (!loaded(holder)) return answer_error("no swarm loaded");
  if (!(edge >= 0 && edge < static_cast<double>(holder->swarm->edges().size()))) return answer_error("not an edge index");
  auto outcome = handoff::swarm::refused_handoff(*holder->swarm, static_cast<std::size_t>(edge), text(variable, variable_length),
                                                 text(message, message_length));
  if (!outcome) return answer_error(outcome.error());
  return answer(handoff::swarm::host_record(*holder->swarm, std::move(outcome.value())));
}

// A picture of the swarm (dag::render): `session` is the JSON text of { active, checkpoints } to
// mark, or empty; `format` "dag", "mermaid" or "dot"; `kind` Mermaid's "flowchart" or "state".
// { text } or { error }.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_swarm_export(const SwarmHolder* holder, std::uint32_t session, std::uint32_t session_length,
                                                  std::uint32_t format, std::uint32_t format_length, std::uint32_t kind,
                                                  std::uint32_t kind_length, std::uint32_t direction, std::uint32_t direction_length) {
  if (!loaded(holder)) return answer_error("no swarm loaded");
  return answer(render_json(handoff::dag::dag_of(*holder->swarm), text(session, session_length), text(format, format_length),
                            text(kind, kind_length), text(direction, direction_length), ""));
}

}  // extern "C"

