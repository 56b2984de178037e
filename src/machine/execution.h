// One run of a Machine, driven step by step: the executor owns all the bookkeeping (step
// counter, visit counts, routing, termination, history), while the state itself belongs to the
// host (JavaScript objects, or JSON natively), which runs each state's handler and merges its
// update between begin_step() and complete_step().
//
// Edges decided by host functions (MachineEdge::predicate): the core still walks the edges, in
// declaration order, and stops at the first such edge that routing reaches, with the status
// AwaitingPredicate; the host calls that edge's function and answers with answer_predicate().
// A yes fires the edge; a no makes the core continue from the next edge on the host's next
// complete_step() (the host marshals the state again, since the function may have run anything).
// So an edge after the winner is never asked, exactly as with conditions.
//
// Fan-out states (FanOut): begin_step() of one counts the step and the fan-out state's visit, and
// one visit of each branch state, in declaration order (for a map, once the host has marshalled
// the list: set_items); the host runs the branches, reports each one that completed
// (complete_branch), and merges their updates in branch order; complete_step() routes only once
// every branch has completed (the join). A snapshot may be taken while branches are under way: it
// says which have completed, and a restored execution resumes the same step, with the rest.
//
// A snapshot is plain JSON; restore() continues exactly where it was taken.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <string>
#include <utility>
#include <vector>

#include "condition/json_state.h"
#include "condition/value.h"
#include "core/contract.h"
#include "core/expected.h"
#include "machine/machine.h"

namespace handoff::machine {

using Status = contract::ExecStatus;

inline constexpr auto kNextEnd = static_cast<std::int32_t>(contract::kNextEnd);    // StepRecord::next when the step routed to END
inline constexpr auto kNextNone = static_cast<std::int32_t>(contract::kNextNone);  // when no edge matched

// One branch of a fan-out step: a visit of a branch state. A map's branches are its state's
// visits in list order (item i is branches[i]).
struct Branch {
  std::uint32_t state;
  std::uint32_t visit;
};

struct StepRecord {
  std::uint32_t step;   // 1-based
  std::uint32_t state;  // index into Machine::states()
  std::uint32_t visit;  // 1-based visit of that state
  std::int32_t next;    // a state index, kNextEnd or kNextNone
  std::int32_t edge;    // position among the state's outgoing edges, or -1
  std::vector<Branch> branches = {};  // a fan-out step's branches, in merge order; empty otherwise
};

class Execution {
 public:
  // The machine must be valid (validate() empty); it is frozen from now on.
  explicit Execution(Machine& machine);

  Status status() const { return status_; }
  bool finished() const {
    return status_ != Status::Ready && status_ != Status::InStep && status_ != Status::AwaitingPredicate;
  }
  std::uint32_t steps_run() const { return step_; }
  const std::vector<StepRecord>& history() const { return history_; }
  const Machine& machine() const { return *machine_; }

  // Starts the next step: the state to run, its step number and visit. Only when status() is Ready.
  std::uint32_t begin_step();
  std::uint32_t current_state() const { return current_; }
  std::uint32_t visit() const { return visits_[current_]; }
  std::uint32_t visits(std::uint32_t state) const { return visits_[state]; }
  // Whether this visit gets revision feedback, and the sentence for it.
  bool revision_applies() const;
  std::string feedback() const;
  // The sentence for a visit of `state` (a branch's).
  std::string feedback_of(std::uint32_t state) const;

  // The step under way fans out: its branches (known once set_items answered, for a map).
  bool fan_out() const { return status_ == Status::InStep && machine_->states()[current_].fan_out.has_value(); }
  bool awaiting_items() const { return items_pending_; }
  const std::vector<Branch>& branches() const { return branches_; }
  bool branch_completed(std::uint32_t branch) const { return branch_done_[branch]; }
  // Whether branch `branch`'s visit gets revision feedback: a static fan-out's branch revisited
  // (a map's items are different work each time: never).
  bool branch_revision(std::uint32_t branch) const;
  // At most this many branches at once; 0: all.
  std::uint32_t concurrency() const;
  // A map step's list (the value at its `over` path): one branch per item. nullopt, and nothing
  // counted, when the value is not a list.
  std::optional<std::uint32_t> set_items(condition::ValueRef list);
  // The host's word that branch `branch` completed (its update is the host's to keep). False for
  // a branch that does not exist or had completed already.
  bool complete_branch(std::uint32_t branch);
  // The step under way runs a subgraph (the host runs the child machine).
  bool in_subgraph() const { return status_ == Status::InStep && machine_->states()[current_].subgraph != nullptr; }
  // Whether routing may run: no branch under way (always, on a step that does not fan out).
  bool joined() const { return !items_pending_ && branches_pending_ == 0; }
  // The revision feedback a handler can hand straight to a model (the seed's auto-feedback): the
  // prior visit's output, then "Graph state '<name>' visit #N. Prior visit's output is provided
  // above; refine your response based on it." `prior_output_json` is the JSON text of the update
  // the state's previous visit returned (null: none); it is shown as canonical compact JSON.
  std::string revision_text(std::string_view prior_output_json) const;

  // With onMaxSteps 'return-with-flag': 1 if the run stopped at maxSteps, 0 otherwise; -1 for
  // machines with another onMaxSteps, whose runs carry no flag.
  int max_steps_flag() const;

  // Why bind_variables refused: every missing variable, as (state name, variable) pairs in state
  // order; or else a value the core will not print (`problem`: nested deeper than
  // kMaxPrintedDepth, or a task that would exceed kMaxTaskBytes).
  struct BindError {
    std::vector<std::pair<std::string, std::string>> missing;
    std::string problem;
  };
  // Fills the states' task templates from the run's input variables (a JSON object: the initial
  // state's top-level keys the templates name). Nothing is bound when it refuses.
  Expected<void, BindError> bind_variables(const condition::Json& variables);
  // A state's task with its placeholders filled; nullopt for a state without a task, or one
  // whose variables are not bound yet.
  const std::optional<std::string>& task(std::uint32_t state) const { return tasks_[state]; }
  // What the host publishes about the step: while one is under way, the step begun; after
  // complete_step, its record (next state and fired edge).
  contract::StepInfo step_info() const;
  // After a step on which no edge matched: each path the state's conditions read, with a JSON
  // preview of the value routing saw there (reserved names included), cut to 60 characters.
  const std::vector<std::pair<std::string, std::string>>& unmatched_reads() const { return unmatched_reads_; }

  // A handoff-enabled state's transfers offered in the step under way: [{ name, to, description }]
  // in declaration order while it has selections left in this run, else [] (as for any state).
  condition::Json transfers() const;
  // The handler's model chose `choice` (a tool name or a target state) among transfers(): the
  // step routes there, counting one selection, instead of walking the regular edges. The error
  // says why not (nothing is chosen then).
  Expected<void, std::string> choose_transfer(std::string_view choice);
  // Selections made in this run by `state`.
  std::uint32_t selections(std::uint32_t state) const { return selections_[state]; }

  // Routes the step begun: `state_slots[i]` is the host's value at
  // machine().graph().route_paths(node)[i] on the merged state; reserved names are supplied here.
  // Continues from the edge after the last one a host function declined. Refused (the status stays
  // InStep) before the join.
  Status complete_step(const condition::ValueRef* state_slots);
  // The host's verdict on the edge awaited (status AwaitingPredicate): true fires it and the step
  // ends as any step does; false leaves the step in InStep, to be continued by complete_step.
  Status answer_predicate(bool matched);
  // Undoes begin_step() when the host abandons a step before running its handler.
  void cancel_step();
  // Stops between steps.
  void abort();

  condition::Json snapshot() const;
  // Rebuilds an execution of `machine` from a snapshot; the error says what does not fit.
  static Expected<Execution, std::string> restore(Machine& machine, const condition::Json& snapshot);

 private:
  void write_reserved(const condition::Path& path);
  Status finish_step(std::int32_t edge);
  Status no_edge_matched(const std::vector<condition::Path>& paths);

  Machine* machine_;
  Status status_ = Status::Ready;
  std::uint32_t current_;
  std::uint32_t step_ = 0;
  std::vector<std::uint32_t> visits_;
  std::vector<StepRecord> history_;
  condition::TapeBuilder reserved_;
  condition::TapeView reserved_view_;
  std::vector<std::uint32_t> reserved_cells_;
  std::vector<condition::ValueRef> slots_;
  std::vector<std::pair<std::string, std::string>> unmatched_reads_;
  std::uint32_t route_from_ = 0;  // the first edge position still to try in the step under way
  std::vector<Branch> branches_;  // the fan-out step under way's branches
  Flags branch_done_;
  std::uint32_t branches_pending_ = 0;
  bool items_pending_ = false;    // a map step begun, its list not yet marshalled
  std::vector<std::uint32_t> selections_;  // per state: transfers chosen in this run
  std::optional<std::uint32_t> chosen_;    // the transfer edge (position) chosen in the step under way
  condition::Json variables_ = condition::Json::object();
  std::vector<std::optional<std::string>> tasks_;
};

const char* status_name(Status status);

// The revision feedback of visit `visit` of state `state_name` (Execution::revision_text): a free
// function, so that a host can write the text when it is first read, without the execution.
std::string revision_text(std::string_view state_name, std::uint32_t visit, std::string_view prior_output_json);

}  // namespace handoff::machine
