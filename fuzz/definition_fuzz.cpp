// The definition loaders on arbitrary bytes: graph_from_json, machine_from_json and
// Swarm::from_json must never crash, and whatever loads must round-trip (to_json, load again,
// to_json: the same document). The input is `definition [\0 extra]`, where `extra` (JSON, or
// null) is what a host passes along with a loaded definition: a trace to draw on its export, a
// machine state to route on and a snapshot to resume, a swarm session and a tool call's arguments (also passed
// as raw text to apply_tool_call_text). Whatever loads is also checked (check/): every case the
// report gives is routed and must take its edge, every no-match witness must match no edge.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "check/check.h"
#include "common.h"
#include "condition/json_state.h"
#include "export/dag.h"
#include "export/definition.h"
#include "handoff/policy.h"
#include "handoff/swarm.h"
#include "machine/execution.h"

namespace definition = handoff::definition;
using fuzz::Json;

namespace {

// A member of `extra`, or null: never operator[] on something that lacks it.
const Json& member(const Json& extra, const char* key) {
  static const Json kNull;
  if (!extra.is_object()) return kNull;
  auto it = extra.find(key);
  return it == extra.end() ? kNull : *it;
}

void draw(handoff::dag::Dag dag, const Json& extra) {
  (void)handoff::dag::apply_trace(dag, extra);
  (void)handoff::dag::apply_trace(dag, member(extra, "trace"));
  (void)handoff::dag::to_json(dag);
  (void)handoff::dag::to_mermaid(dag, {"flowchart", "LR"});
  (void)handoff::dag::to_mermaid(dag, {"state", "TD"});
  (void)handoff::dag::to_dot(dag);
}

void graph(const Json& document, const Json& extra) {
  auto loaded = definition::graph_from_json(document);
  if (!loaded) {
    FUZZ_CHECK(!loaded.error().empty(), "a failed load names a problem");
    (void)definition::describe(loaded.error());
    return;
  }
  Json saved = definition::to_json(loaded.value());
  auto again = definition::graph_from_json(saved);
  FUZZ_CHECK(again.ok(), definition::describe(again.error()));
  FUZZ_CHECK(definition::to_json(again.value()) == saved, "graph definition round-trips");
  draw(handoff::dag::dag_of(loaded.value()), extra);
  for (const std::string& node : loaded.value().node_names()) (void)loaded.value().route(node, member(extra, "state"));
  Json report = handoff::check::check_graph(loaded.value());
  for (const Json& c : report["cases"]) {
    auto to = loaded.value().route(c["node"].get<std::string>(), c["state"]);
    FUZZ_CHECK(to && *to == c["to"].get<std::string>(), "a case takes its edge");
  }
  for (const Json& f : report["findings"]) {
    if (f["code"] == "no-match") FUZZ_CHECK(!loaded.value().route(f["node"].get<std::string>(), f["witness"]), "a gap's witness matches nothing");
  }
}

void machine(const Json& document, const Json& extra) {
  auto loaded = definition::machine_from_json(document);
  if (!loaded) {
    FUZZ_CHECK(!loaded.error().empty(), "a failed load names a problem");
    return;
  }
  handoff::machine::Machine& m = *loaded.value();
  Json saved = definition::to_json(m);
  auto again = definition::machine_from_json(saved);
  FUZZ_CHECK(again.ok(), definition::describe(again.error()));
  FUZZ_CHECK(definition::to_json(*again.value()) == saved, "machine definition round-trips");
  draw(handoff::dag::dag_of(m), extra);
  (void)handoff::check::check_machine(m);
  if (!m.validate().empty()) return;

  // A few steps on the state in `extra`, then a snapshot that must resume where it was taken.
  (void)handoff::machine::Execution::restore(m, member(extra, "snapshot"));
  handoff::machine::Execution run(m);
  const Json& state = member(extra, "state");
  // As start() does: a machine whose tasks name variables the state lacks does not run.
  if (!run.bind_variables(state.is_object() ? state : Json::object())) return;
  handoff::condition::JsonStateWriter writer(m.graph().strings());
  for (int i = 0; i < 32 && !run.finished(); ++i) {
    std::uint32_t current = run.begin_step();
    (void)run.revision_applies();
    (void)run.feedback();
    writer.write(state, m.graph().route_paths(m.states()[current].node));
    run.complete_step(writer.slots().data());
  }
  Json snapshot = run.snapshot();
  auto resumed = handoff::machine::Execution::restore(m, snapshot);
  FUZZ_CHECK(resumed.ok(), resumed.ok() ? "" : resumed.error());
  FUZZ_CHECK(resumed.value().snapshot() == snapshot, "a snapshot resumes where it was taken");
  Json trace = {{"reason", handoff::machine::status_name(run.status())}, {"steps", snapshot["steps"]}};
  handoff::dag::Dag dag = handoff::dag::dag_of(m);
  auto applied = handoff::dag::apply_trace(dag, trace);
  FUZZ_CHECK(applied.ok(), applied.ok() ? "" : applied.error());
}

void swarm(const Json& document, const Json& extra, const std::string& arguments_text) {
  using namespace handoff::swarm;
  auto loaded = Swarm::from_json(document);
  if (!loaded) {
    FUZZ_CHECK(!loaded.error().empty(), "a failed load names a problem");
    return;
  }
  const Swarm& s = *loaded.value();
  Json saved = s.to_json();
  auto again = Swarm::from_json(saved);
  FUZZ_CHECK(again.ok(), definition::describe(again.error()));
  FUZZ_CHECK(again.value()->to_json() == saved, "swarm definition round-trips");
  (void)handoff::check::check_swarm(s);

  Json session_json = member(extra, "session");
  if (session_json.is_null()) session_json = {{"active", s.entry().id}};
  auto session = SessionCore::from_json(s, session_json);
  if (!session) return;
  SessionCore core = session.value();
  auto offered = offered_tools(s, core);
  for (const char* format : {"openai-responses", "openai-chat", "anthropic", "ai-sdk", "other"}) {
    (void)tool_definitions(s, s.agent(core.active), offered, format);
  }
  (void)apply_rules(s, core);
  std::string name = offered.empty() ? std::string("transfer_to_x") : offered.front()->tool_name;
  if (const Json& n = member(extra, "name"); n.is_string()) name = n.get<std::string>();
  SessionCore copy = core;
  // MCP tools as a host's clients listed them (`extra.mcp`: { server: [tools] }): any shape.
  const Json& listed = member(extra, "mcp");
  (void)offered_tools_record(s, core, "openai-chat", listed);
  SessionCore mcp_copy = core;
  (void)apply_tool_call(s, mcp_copy, name, member(extra, "arguments"), false, listed);
  (void)apply_tool_call(s, core, name, member(extra, "arguments"));
  (void)core.to_json();
  (void)apply_tool_call_text(s, copy, name, arguments_text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::size_t nul = input.find('\0');
  Json document = fuzz::parse_json(input.substr(0, nul));
  if (document.is_discarded()) return 0;
  Json extra;
  std::string extra_text;
  if (nul != std::string_view::npos) {
    extra_text = input.substr(nul + 1);
    extra = fuzz::parse_json(extra_text);
    if (extra.is_discarded()) extra = nullptr;
  }
  graph(document, extra);
  machine(document, extra);
  swarm(document, extra, extra_text);
  return 0;
}
