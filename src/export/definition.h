// The graph definition format: a versioned JSON document that round-trips a HandoffGraph exactly
// (docs/format.md). Stored definitions are read back with one problem reported per
// fault, each with the JSON pointer of the value at fault.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <memory>

#include "condition/json_state.h"
#include "core/expected.h"
#include "export/graph_definition.h"
#include "export/reader.h"
#include "graph/handoff_graph.h"
#include "machine/machine.h"

namespace handoff::definition {

inline constexpr const char* kMachineFormat = "handoff-graph/state-machine";
inline constexpr int kMachineVersion = 1;

condition::Json to_json(const graph::HandoffGraph& graph);
Expected<graph::HandoffGraph, std::vector<Problem>> graph_from_json(const condition::Json& document);

// A state machine's structure: states, edges, options and reducer names (handlers are the host's;
// they are bound by state name when the definition is loaded).
condition::Json to_json(const machine::Machine& machine);
Expected<std::unique_ptr<machine::Machine>, std::vector<Problem>> machine_from_json(const condition::Json& document);
// Why the machine has no definition (an edge decided by a host function), or nothing.
std::optional<std::string> portability_problem(const machine::Machine& machine);

// "/edges/3/when: expected '==' … at column 9", one line per problem.
std::string describe(const std::vector<Problem>& problems);

}  // namespace handoff::definition
