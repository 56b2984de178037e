// The full module's raw C exports for a state machine's step (js/machine.js calls them once or
// twice per step, with numbers only): begin, complete on the state JS marshalled into the transfer
// area (route_exports.cpp), the answer of an edge decided by a JS function, and a fan-out's
// branches. What a step did is a record in memory (src/core/contract.h StepInfo), read by JS
// through a view, so the core decides and JS reads the decision.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <vector>

#include "core/contract.h"
#include "machine/execution.h"
#include "machine/machine.h"
#include "route_exports.h"

namespace {

using handoff::machine::Execution;
using handoff::machine::Machine;
using handoff::route_exports::transfer_slots;

// What the last hg_exec_* call did, read by JS through a view of memory (contract.h StepInfo).
handoff::contract::StepInfo exec_info;

// The fan-out step's branches as hg_exec_branches hands them out: a BranchesHeader, then records.
std::vector<std::int32_t> branch_words;

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const handoff::contract::StepInfo* hg_exec_info() { return &exec_info; }

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
  if (execution == nullptr || execution->status() != handoff::machine::Status::InStep || !execution->joined())
    return -1;
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

}  // extern "C"
