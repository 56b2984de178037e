// The full module's raw C exports: the per-route path (hg_route, hg_evaluate), a machine's step
// (hg_exec_*) and the transfer area JavaScript writes a route's values into (wasm/transfer.h). JS
// calls them with numbers only (js/runtime.js). They are apart from wasm/bindings.cpp, which is
// compiled for size (issue 21), because this file is compiled for speed: with -Oz here the
// escalation route ran 14% more instructions.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <vector>

#include "condition/standalone.h"
#include "core/contract.h"
#include "graph/handoff_graph.h"
#include "machine/execution.h"
#include "machine/machine.h"
#include "raw_exports.h"
#include "transfer.h"

namespace {

using handoff::condition::StandaloneCondition;
using handoff::graph::HandoffGraph;
using handoff::graph::NodeId;
using handoff::machine::Execution;
using handoff::machine::Machine;
using handoff::raw_exports::transfer_slots;

// The transfer area (wasm/transfer.h): cells, string bytes and slot starts, grown on request.
handoff::transfer::Area transfer_area;

// What the last hg_exec_* call did, read by JS through a view of memory (contract.h StepInfo).
handoff::contract::StepInfo exec_info;

// The fan-out step's branches as hg_exec_branches hands them out: a BranchesHeader, then records.
std::vector<std::int32_t> branch_words;

}  // namespace

const handoff::condition::ValueRef* handoff::raw_exports::transfer_slots(const condition::Interner& strings,
                                                                        std::uint32_t cell_count, std::size_t slot_count) {
  return transfer_area.slot_values(strings, cell_count, slot_count);
}

void handoff::raw_exports::explain(const graph::HandoffGraph& g, graph::NodeId node, std::uint32_t cell_count,
                                   std::uint32_t first, std::vector<graph::EdgeTrace>& trace) {
  const std::size_t count = g.route_paths(node).size();
  transfer::LazySlots slots(transfer_area, g.strings(), count, first, cell_count);
  slots.read_all(count);
  g.explain(node, slots.slots(), trace);
}

// ---------------------------------------------------------------------------------------------
// Raw exports: the per-route path.

extern "C" {

// Makes room for at least the given numbers of cells, bytes and slots (contents are kept) and
// returns the header describing where they are now. Growing may move them and grow memory.
EMSCRIPTEN_KEEPALIVE const handoff::contract::TransferHeader* hg_transfer_reserve(std::uint32_t cells, std::uint32_t bytes,
                                                                                    std::uint32_t slots) {
  return transfer_area.reserve(cells, bytes, slots);
}

// The position of the first matching edge among `node`'s outgoing edges, or -1 (also for a null
// graph). Only slot `first` (or none: -1) is written before the call, from cell 0; the core asks
// JS for each other slot when the route first needs it (transfer.h LazySlots).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_route(const HandoffGraph* graph, NodeId node, std::uint32_t cell_count, std::uint32_t first) {
  if (graph == nullptr) return -1;
  handoff::transfer::LazySlots slots(transfer_area, graph->strings(), graph->route_paths(node).size(), first, cell_count);
  return graph->route(node, slots.slots(), &slots);
}

// Whether the standalone condition holds, reading lazily as hg_route does.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_evaluate(const StandaloneCondition* condition, std::uint32_t cell_count, std::uint32_t first) {
  if (condition == nullptr || !condition->compiled()) return 0;
  const auto& c = condition->condition();
  handoff::transfer::LazySlots slots(transfer_area, condition->strings(), c.paths().size(), first, cell_count);
  return c.evaluate(slots.slots(), &slots);
}

EMSCRIPTEN_KEEPALIVE const handoff::contract::StepInfo* hg_exec_info() { return &exec_info; }

// The fingerprint of src/core/contract.h this module was built with; init() compares it with
// js/contract.js's, so a .wasm from another version fails loudly instead of misreading memory.
EMSCRIPTEN_KEEPALIVE std::uint32_t hg_contract_fingerprint() { return handoff::contract::kFingerprint; }

// Begins the next step of `execution`; exec_info then holds its step, state, visit and whether
// revision feedback applies. Returns the state's index (or -1 for a null execution).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_exec_begin(Execution* execution) {
  if (execution == nullptr || execution->status() != handoff::machine::Status::Ready) return -1;
  std::uint32_t state = execution->begin_step();
  exec_info = execution->step_info();
  return static_cast<std::int32_t>(state);
}

// Routes the step begun, on the state JS marshalled; exec_info then holds the step's record.
// Returns the new status.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_exec_complete(Execution* execution, std::uint32_t cell_count) {
  if (execution == nullptr || execution->status() != handoff::machine::Status::InStep || !execution->joined()) return -1;
  const Machine& m = execution->machine();
  const auto& state = m.states()[execution->current_state()];
  auto status = execution->complete_step(
      transfer_slots(m.graph().strings(), cell_count, m.graph().route_paths(state.node).size()));
  exec_info = execution->step_info();
  return static_cast<std::int32_t>(status);
}

// The answer of the host function of the edge awaited (status AwaitingPredicate); exec_info then
// holds the step's record (a yes) or the step under way (a no: JS marshals and completes again).
// Returns the new status.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_exec_verdict(Execution* execution, std::int32_t matched) {
  if (execution == nullptr || execution->status() != handoff::machine::Status::AwaitingPredicate) return -1;
  auto status = execution->answer_predicate(matched != 0);
  exec_info = execution->step_info();
  return static_cast<std::int32_t>(status);
}

// The branches of the fan-out step under way (contract.h BranchesHeader then BranchInfo records,
// int32 words), valid until the next call; null when the step does not fan out or a map's list is
// not marshalled yet.
EMSCRIPTEN_KEEPALIVE const std::int32_t* hg_exec_branches(const Execution* execution) {
  if (execution == nullptr || !execution->fan_out() || execution->awaiting_items()) return nullptr;
  const auto& branches = execution->branches();
  constexpr std::size_t header = sizeof(handoff::contract::BranchesHeader) / sizeof(std::int32_t);
  constexpr std::size_t record = sizeof(handoff::contract::BranchInfo) / sizeof(std::int32_t);
  branch_words.assign(header + record * branches.size(), 0);
  auto* head = reinterpret_cast<handoff::contract::BranchesHeader*>(branch_words.data());
  head->count = static_cast<std::int32_t>(branches.size());
  head->concurrency = static_cast<std::int32_t>(execution->concurrency());
  auto* records = reinterpret_cast<handoff::contract::BranchInfo*>(branch_words.data() + header);
  for (std::uint32_t i = 0; i < branches.size(); ++i) {
    records[i] = {static_cast<std::int32_t>(branches[i].state), static_cast<std::int32_t>(branches[i].visit),
                  execution->branch_revision(i) ? 1 : 0};
  }
  return branch_words.data();
}

// A map step's list, marshalled by JS at the map's path: the number of branches, or -1 when the
// value there is not a list (or the step is not a map awaiting its list).
EMSCRIPTEN_KEEPALIVE std::int32_t hg_exec_items(Execution* execution, std::uint32_t cell_count) {
  if (execution == nullptr || !execution->awaiting_items()) return -1;
  const Machine& m = execution->machine();
  const auto* list = transfer_slots(m.graph().strings(), cell_count, 1);
  auto count = execution->set_items(list[0]);
  return count ? static_cast<std::int32_t>(*count) : -1;
}

// Branch `branch` of the fan-out under way completed: 1, or 0 when there is no such branch pending.
EMSCRIPTEN_KEEPALIVE std::int32_t hg_exec_branch_done(Execution* execution, std::uint32_t branch) {
  return execution != nullptr && execution->complete_branch(branch) ? 1 : 0;
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

}  // extern "C"
