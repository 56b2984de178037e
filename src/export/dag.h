// The DAG model of a graph, a state machine or a swarm, and its drawings (docs/format.md).
//
// One model serves every export: `dag_of` takes the structure, `apply_trace` marks what a run
// or a routing trace fired, and the renderers turn the model into JSON, Mermaid or DOT. Output is
// deterministic: nodes sorted by id, edges in declaration order, no timestamps, so exports diff
// cleanly and the native and WebAssembly builds agree byte for byte.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "condition/json_state.h"
#include "core/expected.h"
#include "graph/handoff_graph.h"
#include "handoff/swarm.h"
#include "machine/machine.h"

namespace handoff::dag {

using condition::Json;

struct Dag;

struct Node {
  std::string id;
  std::string type;  // "node" (a graph's), "state" or "end" (a machine's)
  std::string description;
  bool start = false;
  std::optional<std::uint32_t> visits;  // with a run
  std::optional<std::string> task = std::nullopt;  // a machine state's task text
  std::int32_t declared = -1;           // a machine state's position in declaration order
  bool active = false;                  // a swarm's agent a session is at
  // A fan-out state's branches (a map state's: its one state, with `map_over` its list's path).
  // Drawn as bold links to each branch, after every edge (so edges keep their link numbers).
  std::vector<std::string> branches = {};
  std::optional<std::string> map_over = std::nullopt;
  // A subgraph state's machine: drawn as a Mermaid `subgraph` / DOT `cluster` after everything else.
  std::unique_ptr<const Dag> subgraph = nullptr;
};

struct Edge {
  std::string from;
  std::string to;
  std::optional<std::string> when;
  std::string description;
  std::uint32_t position = 0;          // among `from`'s outgoing edges
  std::vector<std::uint32_t> fired_at;  // step numbers (1-based) at which the edge fired
  bool predicate = false;              // decided by a host function (a machine's)
  // A swarm's: how the edge is taken ("rule", "llm", "hybrid" or "continuation"), and its
  // transfer tool's name when it is offered as one.
  std::string via = {};
  std::string tool = {};
};

struct Run {
  std::string reason;
  std::uint32_t steps_run = 0;
  std::optional<std::string> last_state;
};

struct Dag {
  std::string kind;  // "graph", "state-machine" or "swarm"
  std::string name;
  std::vector<Node> nodes;  // sorted by id
  std::vector<Edge> edges;  // declaration order
  std::optional<Run> run;
};

Dag dag_of(const graph::HandoffGraph& graph);
Dag dag_of(const machine::Machine& machine);
// A swarm: its agents (type "agent", the entry agent as the start) and edges in declaration order.
Dag dag_of(const swarm::Swarm& swarm);

// Marks a session on a swarm's model: `session` is { active, checkpoints? }; the active agent is
// highlighted, and each handoff its checkpoints record ({ outcome: { type: "handoff", edge } })
// fires that edge, numbered in order. Returns what does not fit (an unknown agent or edge).
Expected<void, std::string> apply_session(Dag& dag, const Json& session);

// Marks fired edges. `trace` is a machine run ({ reason?, steps: [{ step, state, edge }] }), or a
// graph routing trace: an array of { node, edge } hops or of explain() results. Returns what does
// not fit the model (an unknown node, an edge index out of range), naming where.
Expected<void, std::string> apply_trace(Dag& dag, const Json& trace);

Json to_json(const Dag& dag);

struct MermaidOptions {
  std::string kind = "flowchart";  // or "state"
  std::string direction = "TD";    // TD, TB, BT, LR, RL
};
std::string to_mermaid(const Dag& dag, const MermaidOptions& options);
std::string to_dot(const Dag& dag);

// A state machine's model in AgentEnsemble's DagModel, schema 1.3 (its graph mode: "tasks" of
// nodeType "graph-state" and one "graph-end", "graphEdges" with conditionDescription,
// unconditional and fired), so that AgentEnsemble's viewer draws it. `generated_at` is the
// ISO-8601 instant of its "generatedAt" (the host's clock: the core has none).
Json to_agentensemble_json(const Dag& dag, std::string_view generated_at);

// One export of `dag`: `format` is "dag" (the model's JSON text), "agentensemble" (machines
// only: to_agentensemble_json), "mermaid" or "dot"; `trace` is the JSON text of a run or routing
// trace to mark first (empty: none). The error says why the trace does not fit, or names an
// unknown format.
Expected<std::string, std::string> render(Dag dag, std::string_view trace, std::string_view format,
                                          const MermaidOptions& mermaid, std::string_view generated_at = {});

}  // namespace handoff::dag
