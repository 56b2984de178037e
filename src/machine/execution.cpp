#include "machine/execution.h"

#include "condition/value_text.h"
#include "core/json.h"
#include "export/definition.h"

namespace handoff::machine {

using condition::Json;
using condition::ValueRef;

namespace {

constexpr const char* kSnapshotFormat = "handoff-graph/execution";
// Version 2 snapshots hold fan-outs (step records with branches, or a fan-out under way) or a
// subgraph under way, which a version-1 reader would misread; the others are still version 1.
constexpr int kSnapshotVersion = 1;
constexpr int kFanOutSnapshotVersion = 2;

// Identifies a machine's definition (FNV-1a over its definition JSON), so that a snapshot is
// only resumed on the machine it was taken from, not on one whose states or edges changed.
std::string fingerprint(const Machine& machine) {
  std::string text = core::dump_json(definition::to_json(machine));
  std::uint64_t hash = 1469598103934665603ULL;
  for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ULL;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (int shift = 60; shift >= 0; shift -= 4) out += kHex[(hash >> shift) & 0xF];
  return out;
}

// Why a snapshot cannot be resumed. A fixed reason's string is made out of line, where each of
// restore()'s many refusals made it inline (issue 21).
Unexpected<std::string> cannot_resume(std::string why) { return unexpected("cannot resume: " + std::move(why)); }
[[gnu::noinline]] Unexpected<std::string> cannot_resume(const char* why) { return cannot_resume(std::string(why)); }

}  // namespace

const char* status_name(Status status) {
  switch (status) {
    case Status::Ready: return "ready";
    case Status::InStep: return "in-step";
    case Status::End: return "end";
    case Status::MaxSteps: return "max-steps";
    case Status::NoEdgeMatched: return "no-edge-matched";
    case Status::Aborted: return "aborted";
    case Status::AwaitingPredicate: return "awaiting-predicate";
  }
  return "ready";
}

Execution::Execution(Machine& machine)
    : machine_(&machine),
      current_(*machine.state_index(*machine.options().start)),
      visits_(machine.states().size()),
      selections_(machine.states().size()),
      tasks_(machine.states().size()) {
  machine.freeze();
  // Tasks without placeholders read the same in every run; the others wait for bind_variables.
  const auto& states = machine.states();
  for (std::size_t i = 0; i < states.size(); ++i) {
    if (states[i].task && states[i].task->variables().empty()) tasks_[i] = states[i].task->render(variables_);
  }
}

std::uint32_t Execution::begin_step() {
  status_ = Status::InStep;
  ++step_;
  ++visits_[current_];
  route_from_ = 0;
  chosen_.reset();
  branches_.clear();
  branch_done_.clear();
  branches_pending_ = 0;
  items_pending_ = false;
  if (const auto& fan_out = machine_->states()[current_].fan_out) {
    if (fan_out->is_map()) {
      items_pending_ = true;
    } else {
      for (std::uint32_t b : machine_->branch_states(current_)) branches_.push_back({b, ++visits_[b]});
      branch_done_.assign(branches_.size(), false);
      branches_pending_ = static_cast<std::uint32_t>(branches_.size());
    }
  }
  return current_;
}

std::optional<std::uint32_t> Execution::set_items(ValueRef list) {
  if (!items_pending_ || list.kind() != condition::Kind::Array) return std::nullopt;
  std::uint32_t b = machine_->branch_states(current_).front();
  std::uint32_t count = list.count();
  branches_.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) branches_.push_back({b, ++visits_[b]});
  branch_done_.assign(count, false);
  branches_pending_ = count;
  items_pending_ = false;
  return count;
}

bool Execution::complete_branch(std::uint32_t branch) {
  if (status_ != Status::InStep || branch >= branches_.size() || branch_done_[branch]) return false;
  branch_done_[branch] = true;
  --branches_pending_;
  return true;
}

bool Execution::branch_revision(std::uint32_t branch) const {
  const auto& fan_out = machine_->states()[current_].fan_out;
  if (!fan_out || fan_out->is_map() || branch >= branches_.size()) return false;
  return branches_[branch].visit > 1 && machine_->feedback_applies(branches_[branch].state);
}

std::uint32_t Execution::concurrency() const {
  const auto& fan_out = machine_->states()[current_].fan_out;
  return fan_out ? fan_out->concurrency : 0;
}

Json Execution::transfers() const {
  Json out = Json::array();
  if (status_ != Status::InStep) return out;
  const State& state = machine_->states()[current_];
  if (!state.handoffs || selections_[current_] >= *state.handoffs) return out;
  for (auto position : machine_->graph().out_edges(state.node)) {
    const MachineEdge& edge = machine_->edges()[position];
    if (!edge.transfer) continue;
    std::string description = !edge.description.empty() ? edge.description
                              : edge.to == kEnd          ? std::string("Finish the run.")
                                                         : "Go on to state '" + edge.to + "'.";
    Json item = Json::object();
    item["name"] = transfer_tool_name(edge.to);
    item["to"] = edge.to;
    item["description"] = std::move(description);
    out.push_back(std::move(item));
  }
  return out;
}

Expected<void, std::string> Execution::choose_transfer(std::string_view choice) {
  if (status_ != Status::InStep) return unexpected(std::string("a transfer is chosen during a step, by its handler"));
  const State& state = machine_->states()[current_];
  if (!state.handoffs) return unexpected("state '" + state.name + "' is not handoff-enabled");
  if (selections_[current_] >= *state.handoffs) {
    return unexpected("state '" + state.name + "' has used its " + std::to_string(*state.handoffs) +
                      " handoffs in this run: its regular edges route now");
  }
  const auto& positions = machine_->graph().out_edges(state.node);
  std::string offered;
  for (std::uint32_t p = 0; p < positions.size(); ++p) {
    const MachineEdge& edge = machine_->edges()[positions[p]];
    if (!edge.transfer) continue;
    std::string name = transfer_tool_name(edge.to);
    if (choice == name || choice == edge.to) {
      chosen_ = p;
      return {};
    }
    offered += (offered.empty() ? "" : ", ") + name;
  }
  return unexpected("state '" + state.name + "' offers no transfer '" + std::string(choice) + "' (it offers " + offered + ")");
}

bool Execution::revision_applies() const {
  return visits_[current_] > 1 && machine_->feedback_applies(current_);
}

std::string revision_text(std::string_view state_name, std::uint32_t visit, std::string_view prior_output_json) {
  // Shown canonical (the same text natively and in JavaScript), unless it is not JSON or nests
  // too deep to print safely: then as the host gave it.
  auto [prior, too_deep] = core::parse_json(prior_output_json, kMaxPrintedDepth);
  std::string shown = prior.is_discarded() || too_deep ? std::string(prior_output_json)
                      : prior.is_null()    ? std::string("(none: that visit returned no update)")
                                           : core::dump_json(prior);
  return "Prior visit's output:\n" + shown + "\n\nGraph state '" + std::string(state_name) + "' visit #" +
         std::to_string(visit) + ". Prior visit's output is provided above; refine your response based on it.";
}

std::string Execution::revision_text(std::string_view prior_output_json) const {
  return machine::revision_text(machine_->states()[current_].name, visits_[current_], prior_output_json);
}

int Execution::max_steps_flag() const {
  if (machine_->options().on_max_steps != OnMaxSteps::ReturnWithFlag) return -1;
  return status_ == Status::MaxSteps ? 1 : 0;
}

Expected<void, Execution::BindError> Execution::bind_variables(const Json& variables) {
  BindError error;
  Json used = Json::object();
  for (const State& s : machine_->states()) {
    if (!s.task) continue;
    for (const std::string& name : s.task->variables()) {
      auto it = variables.is_object() ? variables.find(name) : variables.end();
      if (!variables.is_object() || it == variables.end()) error.missing.emplace_back(s.name, name);
      else used[name] = *it;
    }
  }
  if (!error.missing.empty()) return unexpected(std::move(error));
  StringMap<std::string> texts;
  for (auto it = used.begin(); it != used.end(); ++it) {
    if (nests_deeper(it.value(), kMaxPrintedDepth)) {
      error.problem = "the input variable '" + it.key() + "' nests deeper than " + std::to_string(kMaxPrintedDepth) +
                      " levels, too deep to show in a task";
      return unexpected(std::move(error));
    }
    texts.emplace(it.key(), variable_text(it.value()));
  }
  const auto& states = machine_->states();
  std::vector<std::optional<std::string>> tasks(states.size());
  for (std::size_t i = 0; i < states.size(); ++i) {
    if (!states[i].task) continue;
    tasks[i] = states[i].task->render(texts, kMaxTaskBytes);
    if (!tasks[i]) {
      error.problem = "the task of state '" + states[i].name + "' would be longer than " + std::to_string(kMaxTaskBytes) +
                      " bytes once filled";
      return unexpected(std::move(error));
    }
  }
  variables_ = std::move(used);
  tasks_ = std::move(tasks);
  return {};
}

std::string Execution::feedback() const { return feedback_of(current_); }

std::string Execution::feedback_of(std::uint32_t state) const {
  const std::string& name = machine_->states()[state].name;
  return "This is visit " + std::to_string(visits_[state]) + " of state '" + name +
         "'. Its previous visit's update is in revision.previous: refine it rather than starting over.";
}

contract::StepInfo Execution::step_info() const {
  contract::StepInfo info{static_cast<std::int32_t>(status_),
                          static_cast<std::int32_t>(step_),
                          static_cast<std::int32_t>(current_),
                          static_cast<std::int32_t>(visits_[current_]),
                          kNextNone,
                          static_cast<std::int32_t>(contract::kNoEdge),
                          status_ == Status::InStep && revision_applies() ? 1 : 0};
  if (status_ == Status::AwaitingPredicate) info.edge = static_cast<std::int32_t>(route_from_);
  if (status_ != Status::InStep && !history_.empty() && history_.back().step == step_) {
    const StepRecord& last = history_.back();
    info.state = static_cast<std::int32_t>(last.state);
    info.visit = static_cast<std::int32_t>(last.visit);
    info.next = last.next;
    info.edge = last.edge;
  }
  return info;
}

// The reserved names read like the object {$step, $state, $visits: {state: count}}.
void Execution::write_reserved(const condition::Path& path) {
  const auto& steps = path.steps;
  const std::string& root = steps[0].key;
  const auto& strings = machine_->graph().strings();
  const auto& states = machine_->states();
  if (root == "$step" && steps.size() == 1) {
    reserved_.add_number(step_);
  } else if (root == "$state" && steps.size() == 1) {
    const std::string& name = states[current_].name;
    reserved_.add_string(name, strings.find(name));
  } else if (root == "$visits" && steps.size() == 1) {
    std::uint32_t object = reserved_.begin_container(condition::Kind::Object);
    for (std::uint32_t i = 0; i < states.size(); ++i) {
      reserved_.add_string(states[i].name, strings.find(states[i].name));
      reserved_.add_number(visits_[i]);
    }
    reserved_.end_container(object, static_cast<std::uint32_t>(states.size()));
  } else if (root == "$visits" && steps.size() == 2) {
    // An object's member: an integer step reads the key of its decimal text, like any object.
    auto state = machine_->state_index(steps[1].key);
    reserved_.add_number(state ? visits_[*state] : 0);
  } else {
    reserved_.add_null();  // no member of a number or a string
  }
}

Status Execution::complete_step(const ValueRef* state_slots) {
  if (status_ != Status::InStep || !joined()) return status_;
  if (chosen_) {  // the model chose: the transfer edge fires, whatever the regular edges say
    std::uint32_t position = *chosen_;
    chosen_.reset();
    ++selections_[current_];
    return finish_step(static_cast<std::int32_t>(position));
  }
  const State& state = machine_->states()[current_];
  const auto& graph = machine_->graph();
  const auto& paths = graph.route_paths(state.node);
  const auto& reserved = machine_->reserved_slots(state.node);

  // Reserved values first (their tape must not move while refs point into it), then the slots.
  reserved_.clear();
  reserved_cells_.clear();
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (reserved[i]) {
      reserved_cells_.push_back(reserved_.size());
      write_reserved(paths[i]);
    }
  }
  reserved_view_ = reserved_.view(&graph.strings());
  slots_.clear();
  for (std::size_t i = 0, r = 0; i < paths.size(); ++i) {
    slots_.push_back(reserved[i] ? ValueRef(&reserved_view_, reserved_cells_[r++]) : state_slots[i]);
  }

  if (!machine_->has_predicates()) {
    std::int32_t edge = graph.route(state.node, slots_.data());
    return edge < 0 ? no_edge_matched(paths) : finish_step(edge);
  }
  // Declaration order, as graph.route walks; an edge decided by a host function stops the walk.
  const auto& out = graph.out_edges(state.node);
  for (std::uint32_t position = route_from_; position < out.size(); ++position) {
    if (machine_->edges()[out[position]].predicate) {
      route_from_ = position;
      status_ = Status::AwaitingPredicate;
      return status_;
    }
    const graph::Edge& edge = graph.edges()[out[position]];
    if (!edge.condition || edge.condition->evaluate(slots_.data())) return finish_step(static_cast<std::int32_t>(position));
  }
  return no_edge_matched(paths);
}

Status Execution::answer_predicate(bool matched) {
  if (status_ != Status::AwaitingPredicate) return status_;
  if (matched) return finish_step(static_cast<std::int32_t>(route_from_));
  ++route_from_;
  status_ = Status::InStep;
  return status_;
}

Status Execution::no_edge_matched(const std::vector<condition::Path>& paths) {
  unmatched_reads_.clear();
  for (std::size_t i = 0; i < paths.size(); ++i) unmatched_reads_.emplace_back(paths[i].text(), condition::preview_text(slots_[i], 60));
  history_.push_back({step_, current_, visits_[current_], kNextNone, -1, std::move(branches_)});
  branches_.clear();
  status_ = Status::NoEdgeMatched;
  return status_;
}

Status Execution::finish_step(std::int32_t edge) {
  const auto& graph = machine_->graph();
  const State& state = machine_->states()[current_];
  StepRecord record{step_, current_, visits_[current_], kNextNone, edge, std::move(branches_)};
  branches_.clear();
  const std::string& target = graph.name(graph.edges()[graph.out_edges(state.node)[edge]].to);
  if (target == kEnd) {
    record.next = kNextEnd;
    status_ = Status::End;
  } else {
    current_ = *machine_->state_index(target);
    record.next = static_cast<std::int32_t>(current_);
    status_ = step_ >= static_cast<std::uint32_t>(machine_->options().max_steps) ? Status::MaxSteps : Status::Ready;
  }
  history_.push_back(record);
  return status_;
}

void Execution::cancel_step() {
  if (status_ != Status::InStep) return;
  for (const Branch& b : branches_) --visits_[b.state];
  branches_.clear();
  branch_done_.clear();
  branches_pending_ = 0;
  items_pending_ = false;
  chosen_.reset();
  --visits_[current_];
  --step_;
  status_ = Status::Ready;
}

void Execution::abort() {
  if (status_ == Status::Ready) status_ = Status::Aborted;
}

Json Execution::snapshot() const {
  const auto& states = machine_->states();
  Json visits = Json::object();
  for (std::uint32_t i = 0; i < states.size(); ++i) {
    if (visits_[i] > 0) visits[states[i].name] = visits_[i];
  }
  bool fan_outs = false;
  auto branch_list = [&](const std::vector<Branch>& branches, const Flags* done) {
    Json list = Json::array();
    for (std::size_t i = 0; i < branches.size(); ++i) {
      Json b = Json::object();
      b["state"] = states[branches[i].state].name;
      b["visit"] = branches[i].visit;
      if (done) b["done"] = static_cast<bool>((*done)[i]);
      list.push_back(std::move(b));
    }
    return list;
  };
  Json steps = Json::array();
  for (const StepRecord& r : history_) {
    Json next = r.next == kNextEnd ? Json(kEnd) : r.next == kNextNone ? Json(nullptr) : Json(states[r.next].name);
    Json step = Json::object();
    step["step"] = r.step;
    step["state"] = states[r.state].name;
    step["visit"] = r.visit;
    step["next"] = std::move(next);
    step["edge"] = r.edge < 0 ? Json(nullptr) : Json(r.edge);
    if (states[r.state].fan_out) {
      step["branches"] = branch_list(r.branches, nullptr);
      fan_outs = true;
    }
    steps.push_back(std::move(step));
  }
  // A fan-out under way (its list known): the step begun, and which branches completed.
  const bool in_fan_out = fan_out() && !items_pending_ && route_from_ == 0;
  // A subgraph under way: the step begun (the host adds the child's own snapshot).
  const bool in_subgraph = status_ == Status::InStep && states[current_].subgraph && route_from_ == 0;
  Json out = Json::object();
  out["format"] = kSnapshotFormat;
  out["version"] = fan_outs || in_fan_out || in_subgraph ? kFanOutSnapshotVersion : kSnapshotVersion;
  out["machine"] = machine_->options().name;
  out["definition"] = fingerprint(*machine_);
  out["status"] = in_fan_out ? "fan-out" : in_subgraph ? "subgraph" : status_name(status_);
  out["current"] = states[current_].name;
  out["step"] = step_;
  out["visits"] = std::move(visits);
  out["steps"] = std::move(steps);
  if (in_fan_out) out["branches"] = branch_list(branches_, &branch_done_);
  Json selections = Json::object();
  for (std::uint32_t i = 0; i < states.size(); ++i) {
    if (selections_[i] > 0) selections[states[i].name] = selections_[i];
  }
  if (!selections.empty()) out["selections"] = std::move(selections);
  // The values the task templates were filled with: the initial state's, which later updates
  // may have replaced, so the state alone could not restore them.
  if (!machine_->template_variables().empty()) out["variables"] = variables_;
  return out;
}

Expected<Execution, std::string> Execution::restore(Machine& machine, const Json& snapshot) {
  if (!snapshot.is_object() || json::member(snapshot, "format") != kSnapshotFormat) {
    return cannot_resume("not a snapshot (expected format \"" + std::string(kSnapshotFormat) + "\")");
  }
  const Json& version = json::member(snapshot, "version");  // null when absent; 2.0 is 2, as JSON has one number
  if (!version.is_number() || (version.get<double>() != kSnapshotVersion && version.get<double>() != kFanOutSnapshotVersion)) {
    return cannot_resume("unsupported snapshot version (this library reads versions 1 and 2)");
  }
  if (json::member(snapshot, "machine") != machine.options().name) {
    return cannot_resume("the snapshot is of another machine");
  }
  if (json::member(snapshot, "definition") != fingerprint(machine)) {
    return cannot_resume("the machine's definition changed since the snapshot was taken (states, edges or options differ)");
  }
  auto state_of = [&](const Json& name) -> std::optional<std::uint32_t> {
    return name.is_string() ? machine.state_index(name.get_ref<const std::string&>()) : std::nullopt;
  };
  auto count = [](const Json& v) { return v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0); };

  Execution execution(machine);
  const Json& status_json = json::member(snapshot, "status");  // null when absent
  const std::string_view status = status_json.is_string() ? std::string_view(status_json.get_ref<const std::string&>()) : "";
  if (status == "ready") execution.status_ = Status::Ready;
  else if (status == "end") execution.status_ = Status::End;
  else if (status == "max-steps") execution.status_ = Status::MaxSteps;
  else if (status == "no-edge-matched") execution.status_ = Status::NoEdgeMatched;
  else if (status == "aborted") execution.status_ = Status::Aborted;
  else if (status == "fan-out" || status == "subgraph") execution.status_ = Status::InStep;
  else if (!status_json.is_string()) return cannot_resume("a snapshot is taken between steps; its status must be a string");
  else return cannot_resume("a snapshot is taken between steps; status " + core::dump_json(status_json) + " is not one");

  auto current = state_of(json::member(snapshot, "current"));
  if (!current) return cannot_resume("'current' is not a state of this machine");
  execution.current_ = *current;
  const Json& step = json::member(snapshot, "step");  // null when absent
  if (!count(step) || step.get<double>() > machine.options().max_steps) return cannot_resume("'step' must be a step count within maxSteps");
  execution.step_ = step.get<std::uint32_t>();
  const bool in_fan_out = status == "fan-out";
  if (in_fan_out && (!machine.states()[*current].fan_out || execution.step_ == 0)) {
    return cannot_resume("a fan-out under way must be at a fan-out state, after its step began");
  }
  const bool in_subgraph = status == "subgraph";
  if (in_subgraph && (!machine.states()[*current].subgraph || execution.step_ == 0)) {
    return cannot_resume("a subgraph under way must be at a subgraph state, after its step began");
  }

  const Json& visits = json::member(snapshot, "visits");
  if (!visits.is_object()) return cannot_resume("'visits' must be an object");
  for (auto it = visits.begin(); it != visits.end(); ++it) {
    auto state = machine.state_index(it.key());
    if (!state || !count(it.value())) return cannot_resume("'visits' names an unknown state or a bad count");
    execution.visits_[*state] = it.value().get<std::uint32_t>();
  }

  // Each branch names a branch state of `fan_out` (the map's state, for a map) with a visit it had.
  auto read_branches = [&](const Json& list, std::uint32_t fan_out, bool with_done,
                           std::vector<Branch>& out, Flags& done) -> bool {
    if (!list.is_array()) return false;
    const auto& allowed = machine.branch_states(fan_out);
    const bool is_map = machine.states()[fan_out].fan_out->is_map();
    if (!is_map && list.size() != allowed.size()) return false;
    for (std::size_t j = 0; j < list.size(); ++j) {
      const Json& b = list[j];
      if (!b.is_object()) return false;
      auto state = state_of(json::member(b, "state"));
      if (!state || *state != allowed[is_map ? 0 : j] || !count(json::member(b, "visit"))) return false;
      auto visit = json::member(b, "visit").get<std::uint64_t>();
      if (visit < 1 || visit > execution.visits_[*state]) return false;
      if (with_done && !json::member(b, "done").is_boolean()) return false;
      out.push_back({*state, static_cast<std::uint32_t>(visit)});
      done.push_back(with_done && json::member(b, "done").get<bool>());
    }
    return true;
  };
  if (in_fan_out) {
    Flags done;
    if (!read_branches(json::member(snapshot, "branches"), *current, true, execution.branches_, done)) {
      return cannot_resume("'branches' must list the fan-out's branches, each with its state, visit and done");
    }
    execution.branch_done_ = std::move(done);
    execution.branches_pending_ = 0;
    for (bool d : execution.branch_done_) execution.branches_pending_ += d ? 0 : 1;
  }
  if (snapshot.contains("selections")) {
    const Json& selections = json::member(snapshot, "selections");
    if (!selections.is_object()) return cannot_resume("'selections' must be an object");
    for (auto it = selections.begin(); it != selections.end(); ++it) {
      auto state = machine.state_index(it.key());
      if (!state || !count(it.value()) || !machine.states()[*state].handoffs ||
          it.value().get<std::uint64_t>() > *machine.states()[*state].handoffs) {
        return cannot_resume("'selections' names a state that is not handoff-enabled or a count above its handoffs");
      }
      execution.selections_[*state] = it.value().get<std::uint32_t>();
    }
  }

  const Json& steps = json::member(snapshot, "steps");
  const std::size_t steps_done = execution.step_ - (in_fan_out || in_subgraph ? 1 : 0);
  if (!steps.is_array() || steps.size() != steps_done) return cannot_resume("'steps' must list every step run");
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Json& s = steps[i];
    if (!s.is_object()) return cannot_resume("a step must be an object");
    auto state = state_of(json::member(s, "state"));
    if (!state || !count(json::member(s, "step")) || !count(json::member(s, "visit"))) {
      return cannot_resume("a step lacks its state, step or visit");
    }
    // Step i is step i + 1, and no visit can outnumber the steps run so far (branches aside: a
    // fan-out step visits its branch states too).
    const std::uint64_t most = machine.has_fan_outs() ? execution.visits_[*state] : i + 1;
    if (json::member(s, "step").get<std::uint64_t>() != i + 1 || json::member(s, "visit").get<std::uint64_t>() < 1 ||
        json::member(s, "visit").get<std::uint64_t>() > most) {
      return cannot_resume("steps[" + std::to_string(i) + "] is not step " + std::to_string(i + 1) + " with a visit from 1 to " +
                  std::to_string(i + 1));
    }
    const Json& next = json::member(s, "next");
    std::int32_t next_index = kNextNone;
    if (next.is_string() && next.get_ref<const std::string&>() == kEnd) next_index = kNextEnd;
    else if (auto n = state_of(next)) next_index = static_cast<std::int32_t>(*n);
    else if (!next.is_null()) return cannot_resume("a step's 'next' is not a state of this machine");
    const Json& edge = json::member(s, "edge");
    if (!edge.is_null() && !count(edge)) return cannot_resume("a step's 'edge' must be an index or null");
    std::vector<Branch> branches;
    if (machine.states()[*state].fan_out) {
      Flags unused;
      if (!read_branches(json::member(s, "branches"), *state, false, branches, unused)) {
        return cannot_resume("steps[" + std::to_string(i) + "] is a fan-out step; its 'branches' must list its branches");
      }
    }
    execution.history_.push_back({json::member(s, "step").get<std::uint32_t>(), *state,
                                  json::member(s, "visit").get<std::uint32_t>(), next_index,
                                  edge.is_null() ? -1 : edge.get<std::int32_t>(), std::move(branches)});
  }
  if (!machine.template_variables().empty()) {
    const Json& variables = json::member(snapshot, "variables");
    if (!variables.is_object()) return cannot_resume("'variables' must hold the values the task templates were filled with");
    if (auto bound = execution.bind_variables(variables); !bound) {
      if (bound.error().missing.empty()) return cannot_resume(bound.error().problem);
      return cannot_resume("'variables' lacks '" + bound.error().missing.front().second + "', which the task of state '" +
                  bound.error().missing.front().first + "' needs");
    }
  }
  return execution;
}

}  // namespace handoff::machine
