// check(): what a routing design does over every possible state, before it runs (docs/check.md).
//
// For each node of a graph, state of a machine or agent of a swarm, decide.h decides its decision
// list exactly; this file turns the verdicts into the report: findings (unsatisfiable conditions,
// shadowed edges, states that match no edge, unreachable states and agents, machine states with
// no way to END) and cases (for each edge routing can take, one state under which it does).
//
// The report: { ok, findings: [{ code, severity, message, pointer, node?, edge?, witness?,
// shadowedBy? }], cases: [{ node, edge, to, state, pointer }] }; ok is false when a finding has
// severity "error". Pointers are JSON Pointers into the target's definition (toJSON()).
#pragma once

#include "core/json.h"

namespace handoff::graph {
class HandoffGraph;
}
namespace handoff::machine {
class Machine;
}
namespace handoff::swarm {
class Swarm;
}

namespace handoff::check {

json::Value check_graph(const graph::HandoffGraph& graph);
json::Value check_machine(const machine::Machine& machine);
json::Value check_swarm(const swarm::Swarm& swarm);

}  // namespace handoff::check
