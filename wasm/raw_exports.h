// What wasm/bindings.cpp shares with wasm/raw_exports.cpp: the transfer area's slot views, which
// explain() and the state machine's steps read the marshalled state through as the raw route does. The raw exports live in their
// own file so that it can be compiled for speed while the bindings are compiled for size (issue 21).
#pragma once

#include <cstddef>
#include <cstdint>

#include <vector>

#include "condition/value.h"
#include "graph/handoff_graph.h"

namespace handoff::raw_exports {

// The values JS wrote into the transfer area (js/marshal.js), as the slots of a route.
const condition::ValueRef* transfer_slots(const condition::Interner& strings, std::uint32_t cell_count,
                                          std::size_t slot_count);

// explain() of `node` on the state js/marshal.js writes as for a route (slot `first` before the
// call), every other slot asked for, in order (hg_graph_explain).
void explain(const graph::HandoffGraph& g, graph::NodeId node, std::uint32_t cell_count, std::uint32_t first,
             std::vector<graph::EdgeTrace>& trace);

}  // namespace handoff::raw_exports
