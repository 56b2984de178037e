// What the embind tables share with the raw per-decision exports (route_exports.cpp): the
// transfer area js/state-writer.js writes a state's values into, read as the slots of a route by
// explain() and by a state machine's step, as the raw route reads them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "condition/value.h"
#include "graph/handoff_graph.h"

namespace handoff::route_exports {

// The values JS wrote into the transfer area (js/state-writer.js), as the slots of a route.
const condition::ValueRef* transfer_slots(const condition::Interner& strings, std::uint32_t cell_count,
                                          std::size_t slot_count);

// explain() of `node` on the state js/state-writer.js writes as for a route (slot `first` before the
// call), every other slot asked for, in order.
void explain(const graph::HandoffGraph& g, graph::NodeId node, std::uint32_t cell_count, std::uint32_t first,
             std::vector<graph::EdgeTrace>& trace);

}  // namespace handoff::route_exports
