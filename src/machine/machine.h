// A bounded state machine's definition: named states, declaration-ordered edges with conditions,
// END, a start state and a step cap (api.md "StateMachine"; the semantics of seed 004).
//
// Routing between states is a HandoffGraph (cycles allowed): a state's outgoing edges are the
// graph node's edges, so machines and graphs share one routing code path. Validation reports every
// problem at once, each with a stable code and a message that names the state or edge.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "condition/condition.h"
#include "core/expected.h"
#include "graph/handoff_graph.h"
#include "machine/task_template.h"

namespace handoff::machine {

// The name of the terminal pseudo-state; no state may use it.
inline constexpr std::string_view kEnd = "__end__";
inline constexpr double kDefaultMaxSteps = 50;
// The largest maxSteps accepted (docs/limits.md): a bound on any one run.
inline constexpr double kMaxStepsLimit = 1'000'000;
// The longest task a template may render to (docs/limits.md): placeholders repeat values, so a
// short template and a large variable could otherwise ask for any amount of memory.
inline constexpr std::size_t kMaxTaskBytes = std::size_t{1} << 24;
// Arrays and objects nested deeper than this in a value the core prints (a template variable, a
// prior output in the revision text): printing JSON recurses once per level.
inline constexpr int kMaxPrintedDepth = 512;

// Per-state or per-slot yes/no flags, a byte each: std::vector<bool>'s bit packing was 2 KB of
// code in the WebAssembly module (issue 21) for vectors of a few entries.
using Flags = std::vector<std::uint8_t>;

// What a run does when step maxSteps routes to a state other than END: resolve with reason
// 'max-steps', reject with MaxStepsError, or resolve and carry `maxStepsReached` (the seed's
// RETURN_LAST, THROW and RETURN_WITH_FLAG).
enum class OnMaxSteps : std::uint8_t { Return, Throw, ReturnWithFlag };

const char* on_max_steps_name(OnMaxSteps value);
std::optional<OnMaxSteps> on_max_steps_of(std::string_view name);

struct Problem {
  std::string code;  // stable: "unknown-start", "no-outgoing-edge", … (docs/state-machine.md)
  std::string message;
  // Where in the machine's definition (toJSON()) the problem is, as a JSON pointer: "/start",
  // "/edges/2/to", "/states/0"; "" for the machine as a whole.
  std::string pointer;
};

struct MachineOptions {
  std::string name = "machine";
  std::optional<std::string> start;
  double max_steps = kDefaultMaxSteps;
  OnMaxSteps on_max_steps = OnMaxSteps::Return;
  bool feedback_on_revisit = true;
  // States that never get revision feedback (the seed's noFeedbackStates); each must be declared.
  std::vector<std::string> no_feedback_states;
  // How the host merges each key of an update: "replace", "append", "merge", "sum" or "custom"
  // (a host function). The core does not merge states; it keeps this for the definition format.
  std::vector<std::pair<std::string, std::string>> reducers;
};

// Why add_edge refused an edge: a problem visible in the call itself, or a condition syntax error.
struct EdgeRejection {
  std::optional<Problem> problem;
  std::optional<condition::SyntaxError> syntax;
};

// The largest concurrency a fan-out may declare (docs/limits.md); fan-outs without one run every
// branch at once.
inline constexpr double kMaxConcurrency = 1'000'000;

// A state whose work is other states run concurrently (docs/state-machine.md "Fan-out"): a static
// fan-out runs each of `branches` once; a map runs `map_state` once per item of the list at
// `over` in the state. Either way the branches join at this state, which then routes by its own
// edges. A branch may not itself fan out.
struct FanOut {
  std::vector<std::string> branches;  // static: the branch states, in declaration order
  std::string map_state;              // dynamic: the state run per item ("" for a static fan-out)
  std::string over;                   // dynamic: the list's path, as written
  condition::Path over_path;
  std::uint32_t concurrency = 0;      // at most this many branches run at once; 0: all at once
  bool is_map() const { return !map_state.empty(); }
};

class Machine;

// How many machines deep subgraphs may nest (docs/limits.md): definitions, exports and snapshots
// recurse once per level.
inline constexpr std::size_t kMaxSubgraphDepth = 16;

// One member of a subgraph's input or output: `key` of the receiving state takes the value at
// `path` of the giving one.
struct StateMapping {
  std::string key;
  std::string path_text;
  condition::Path path;
};

// A state whose work is another machine (docs/state-machine.md "Subgraphs"): the host runs the
// child to its end, with its own maxSteps, from the input (the parent's state when no mapping
// is given) and merges the output (the child's final state when none) as the step's update.
struct Subgraph {
  std::unique_ptr<const Machine> machine;
  std::optional<std::vector<StateMapping>> input;   // child key <- parent path
  std::optional<std::vector<StateMapping>> output;  // parent key <- child path
};

struct State {
  std::string name;
  bool feedback_on_revisit;
  graph::NodeId node;
  std::optional<TaskTemplate> task = std::nullopt;  // the state's task text, with {name} placeholders
  // A handoff-enabled state (MAG's handoffs in a workflow): how many times per run the model may
  // choose the next state through the state's transfer edges; then its regular edges route.
  std::optional<std::uint32_t> handoffs = std::nullopt;
  std::optional<FanOut> fan_out = std::nullopt;
  std::unique_ptr<const Subgraph> subgraph = nullptr;
};

struct MachineEdge {
  std::string from;
  std::string to;
  std::optional<std::string> when;
  std::string description;
  // Decided by a host function (JavaScript's addEdge(from, to, fn)) when routing reaches it: the
  // core walks the edges and stops there to ask (Execution, status AwaitingPredicate).
  bool predicate = false;
  // Offered to a handoff-enabled state's model as the tool transfer_tool_name(to): taken only when
  // the handler selects it (Execution::choose_transfer), never by routing.
  bool transfer = false;
};

// The largest number of selections a handoff-enabled state may have.
inline constexpr std::uint32_t kMaxHandoffs = 1'000'000;
// A transfer edge's tool: transfer_to_end for END, else transfer_to_<to>, each character outside [a-zA-Z0-9_-] replaced by '_'
// (a UTF-8 sequence counts as one), cut to 64.
std::string transfer_tool_name(std::string_view to);

class Machine {
 public:
  explicit Machine(MachineOptions options);

  // Refuses at once what the call alone shows wrong: a blank name, END, a duplicate, a task
  // template that does not parse.
  Expected<void, Problem> add_state(std::string_view name, bool feedback_on_revisit = true,
                                    std::optional<std::string_view> task = std::nullopt);
  // A fan-out state (FanOut): refuses at once what the call shows wrong (a blank, END or duplicate
  // name, no branches, a blank or repeated branch, a branch that is the state itself, a
  // concurrency that is not an integer from 1 to kMaxConcurrency); unknown and nested branches are
  // reported by validate().
  Expected<void, Problem> add_fan_out(std::string_view name, const std::vector<std::string>& branches,
                                      std::optional<double> concurrency = std::nullopt);
  // A map state: runs `branch` once per item of the list at `over`, a path such as `docs` or
  // `plan.tasks` (written canonically; reserved names refused).
  Expected<void, Problem> add_map(std::string_view name, std::string_view branch, std::string_view over,
                                  std::optional<double> concurrency = std::nullopt);
  // A subgraph state running `child` (a copy of its definition). Refuses at once a blank, END or
  // duplicate name, a mapping with a blank key or a path that is not one canonical path, and
  // nesting deeper than kMaxSubgraphDepth; the child's own problems are reported by validate().
  using Mapping = std::vector<std::pair<std::string, std::string>>;
  Expected<void, Problem> add_subgraph(std::string_view name, std::unique_ptr<const Machine> child,
                                       const std::optional<Mapping>& input, const std::optional<Mapping>& output);
  // How many machines deep this one's subgraphs nest (1: none).
  std::size_t depth() const { return depth_; }
  // Parses `when` at once, and refuses a blank endpoint or an edge from END; unknown endpoints are
  // reported by validate(), since the states may be declared later.
  Expected<void, EdgeRejection> add_edge(std::string_view from, std::string_view to,
                                         std::optional<std::string_view> when = std::nullopt,
                                         std::string_view description = {});
  // An edge the host decides with a function of its own (MachineEdge::predicate).
  Expected<void, EdgeRejection> add_predicate_edge(std::string_view from, std::string_view to,
                                                   std::string_view description = {});
  // Makes `state` handoff-enabled with `count` selections per run (refused once frozen, for an
  // unknown state, or for a `count`, as the host gave it, that is not an integer from 0 to
  // kMaxHandoffs: bad-handoffs).
  Expected<void, Problem> set_handoffs(std::string_view state, double count);
  // A transfer edge (MachineEdge::transfer): to routing, an edge whose condition never holds.
  Expected<void, EdgeRejection> add_transfer_edge(std::string_view from, std::string_view to,
                                                  std::string_view description = {});

  // Every problem, in a fixed order: the name, maxSteps, start, edges (in order), fan-out branches
  // (in state order), states without edges, noFeedbackStates (in order).
  std::vector<Problem> validate() const;

  const MachineOptions& options() const { return options_; }
  const std::vector<State>& states() const { return states_; }
  const std::vector<MachineEdge>& edges() const { return edges_; }
  std::optional<std::uint32_t> state_index(std::string_view name) const;
  const graph::HandoffGraph& graph() const { return graph_; }
  // The edge at `position` among `state`'s outgoing edges.
  const MachineEdge& out_edge(std::uint32_t state, std::uint32_t position) const;
  bool has_predicates() const { return predicates_ > 0; }
  // Once frozen: the branch states of a fan-out state (its map state, for a map), by index.
  const std::vector<std::uint32_t>& branch_states(std::uint32_t state) const { return branch_states_[state]; }
  bool has_fan_outs() const { return fan_outs_ > 0; }
  // Whether a revisit of `state` gets revision feedback: the machine's option, the state's, and
  // noFeedbackStates.
  bool feedback_applies(std::uint32_t state) const;
  // Every variable the states' task templates name, each once, in state order.
  std::vector<std::string> template_variables() const;
  // Once frozen: whether the paths of `node`'s conditions at each slot are reserved names ($step,
  // $state, $visits).
  const Flags& reserved_slots(graph::NodeId node) const { return reserved_[node]; }

  // Once an execution has started, the definition is fixed: an execution refers to it. What runs
  // ask on every step is worked out now.
  void freeze();
  bool frozen() const { return frozen_; }

 private:
  MachineOptions options_;
  graph::HandoffGraph graph_{graph::CyclePolicy::Allow};
  std::vector<State> states_;
  // The state at each of graph_'s nodes, or kNoState (a node an edge named before or without a
  // state): names are found through the graph's own index, so a machine keeps no second one.
  std::vector<std::uint32_t> state_of_node_;
  std::vector<MachineEdge> edges_;  // edges_[i] is graph_.edges()[i]
  std::size_t predicates_ = 0;
  std::size_t fan_outs_ = 0;
  std::size_t depth_ = 1;
  std::vector<std::vector<std::uint32_t>> branch_states_;  // once frozen
  std::vector<Flags> reserved_;  // per graph node, once frozen: reserved_slots
  bool frozen_ = false;
  Flags feedback_;  // per state, once frozen: feedback_applies
  std::vector<std::string> template_variables_;  // once frozen
};

// Whether `path` names one of the values a running machine supplies itself.
bool is_reserved(const condition::Path& path);

// One path into a state, written as conditions write paths (canonically: `docs`, `plan.tasks`,
// `a['b-c']`), not a reserved name; the error says why not.
Expected<condition::Path, std::string> state_path(std::string_view text);

}  // namespace handoff::machine
