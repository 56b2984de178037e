#include "machine/machine.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "condition/json_state.h"
#include "condition/unicode.h"
#include "core/json.h"
#include "core/json_pointer.h"
#include "core/string_index.h"

namespace handoff::machine {
namespace {

bool blank(std::string_view name) {
  for (std::size_t i = 0; i < name.size();) {
    char32_t c = condition::unicode::decode_utf8(name, i);
    if (!condition::unicode::is_white_space(c)) return false;
  }
  return true;
}

// `before` + 'name' + `after`, the shape of most messages here: one call per message, where a
// chain of concatenations put a call and a temporary string per piece at every message.
[[gnu::noinline]] std::string quoted(const char* before, std::string_view name, const char* after) {
  std::string out(before);
  out += '\'';
  out += name;
  out += '\'';
  out += after;
  return out;
}

std::string describe_edge(std::size_t index, const MachineEdge& edge) {
  return "edge " + std::to_string(index) + quoted(" (", edge.from, " -> ") + quoted("", edge.to, ")");
}

// The pointer "/list/index" or "/list/index/member". Literals, not string views: a view is built
// and passed through memory at each call, a pointer is one constant.
std::string at(const char* list, std::size_t index, const char* member = "") {
  std::string pointer = std::string("/") + list + "/" + std::to_string(index);
  if (*member != '\0') pointer.append("/").append(member);
  return pointer;
}

Problem frozen_problem() {
  return {"frozen", "the machine has started running, so its states and edges are fixed; build a new machine", ""};
}

}  // namespace

const char* on_max_steps_name(OnMaxSteps value) {
  switch (value) {
    case OnMaxSteps::Return: return "return";
    case OnMaxSteps::Throw: return "throw";
    case OnMaxSteps::ReturnWithFlag: return "return-with-flag";
  }
  return "return";
}

std::optional<OnMaxSteps> on_max_steps_of(std::string_view name) {
  for (OnMaxSteps value : {OnMaxSteps::Return, OnMaxSteps::Throw, OnMaxSteps::ReturnWithFlag}) {
    if (name == on_max_steps_name(value)) return value;
  }
  return std::nullopt;
}

bool is_reserved(const condition::Path& path) {
  const std::string& first = path.steps.front().key;
  return first == "$step" || first == "$state" || first == "$visits";
}

Machine::Machine(MachineOptions options) : options_(std::move(options)) {}

namespace {
constexpr std::uint32_t kNoState = 0xFFFFFFFFu;
}  // namespace

std::optional<std::uint32_t> Machine::state_index(std::string_view name) const {
  const graph::NodeId node = graph_.find(name);
  if (node >= state_of_node_.size() || state_of_node_[node] == kNoState) return std::nullopt;
  return state_of_node_[node];
}

Expected<void, Problem> Machine::add_state(std::string_view name, bool feedback_on_revisit,
                                           std::optional<std::string_view> task) {
  if (frozen_) return unexpected(frozen_problem());
  const std::string pointer = at("states", states_.size(), "name");
  if (blank(name)) return unexpected(Problem{"blank-name", "a state name must not be blank", pointer});
  if (name == kEnd) {
    return unexpected(Problem{"end-as-state", quoted("", kEnd, " is END and cannot be a state name"), pointer});
  }
  if (state_index(name)) {
    return unexpected(Problem{"duplicate-state", quoted("state ", name, " is declared twice"), pointer});
  }
  std::optional<TaskTemplate> parsed;
  if (task) {
    auto read = TaskTemplate::parse(*task);
    if (!read) {
      return unexpected(Problem{"bad-task", quoted("the task of state ", name, ": ") + read.error().message,
                                at("states", states_.size(), "task")});
    }
    parsed = std::move(read.value());
  }
  auto node = graph_.add_node(name);
  auto index = static_cast<std::uint32_t>(states_.size());
  states_.push_back({std::string(name), feedback_on_revisit, node.value(), std::move(parsed)});
  if (state_of_node_.size() <= node.value()) state_of_node_.resize(node.value() + 1, kNoState);
  state_of_node_[node.value()] = index;
  return {};
}

Expected<void, EdgeRejection> Machine::add_edge(std::string_view from, std::string_view to,
                                                std::optional<std::string_view> when, std::string_view description) {
  if (frozen_) return unexpected(EdgeRejection{frozen_problem(), std::nullopt});
  MachineEdge edge{std::string(from), std::string(to), when ? std::optional<std::string>(*when) : std::nullopt,
                   std::string(description)};
  const std::size_t index = edges_.size();
  // "edge N ('from' -> 'to')" then `what` is wrong with it.
  auto reject = [&](const char* code, const std::string& what, const char* member) {
    return unexpected(
        EdgeRejection{Problem{code, describe_edge(index, edge) + what, at("edges", index, member)}, std::nullopt});
  };
  if (blank(from)) return reject("blank-name", " has a blank 'from'", "from");
  if (blank(to)) return reject("blank-name", " has a blank 'to'", "to");
  if (from == kEnd) return reject("edge-from-end", " starts at END, which is terminal", "from");
  auto added = graph_.add_edge(from, to, when, description);
  if (!added) {
    if (added.error().kind == graph::EdgeError::Kind::Syntax) {
      return unexpected(EdgeRejection{std::nullopt, added.error().syntax});
    }
    return reject("invalid-edge", ": " + added.error().message, "");
  }
  edges_.push_back(std::move(edge));
  return {};
}

Expected<void, EdgeRejection> Machine::add_predicate_edge(std::string_view from, std::string_view to,
                                                          std::string_view description) {
  // To the graph it is an edge without a condition; routing stops at it (Execution) to ask.
  auto added = add_edge(from, to, std::nullopt, description);
  if (!added) return added;
  edges_.back().predicate = true;
  ++predicates_;
  return {};
}

namespace {

// A concurrency is absent (0: every branch at once) or an integer from 1 to kMaxConcurrency.
std::optional<std::uint32_t> concurrency_of(std::optional<double> value) {
  if (!value) return 0;
  double v = *value;
  if (!(v >= 1 && v <= kMaxConcurrency && std::floor(v) == v)) return std::nullopt;
  return static_cast<std::uint32_t>(v);
}

std::string number_text(double v) {
  if (!std::isfinite(v)) return "a non-finite number";
  if (std::floor(v) == v && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return core::dump_json(condition::Json(v));
}

}  // namespace

Expected<void, Problem> Machine::add_fan_out(std::string_view name, const std::vector<std::string>& branches,
                                             std::optional<double> concurrency) {
  if (frozen_) return unexpected(frozen_problem());
  const std::size_t index = states_.size();
  auto refuse = [&](const char* code, const std::string& message, std::string pointer) {
    return unexpected(Problem{code, quoted("fan-out state ", name, ": ") + message, std::move(pointer)});
  };
  if (branches.empty()) return refuse("no-branches", "it has no branches (list at least one state)", at("states", index, "branches"));
  StringKeys seen;
  for (std::size_t j = 0; j < branches.size(); ++j) {
    const std::string pointer = at("states", index, "branches") + "/" + std::to_string(j);
    if (blank(branches[j])) return refuse("blank-name", "branch " + std::to_string(j) + " is blank", pointer);
    if (branches[j] == kEnd) return refuse("end-as-branch", "END cannot be a branch", pointer);
    if (branches[j] == name) return refuse("fan-out-to-itself", "it lists itself as a branch", pointer);
    if (!seen.insert(branches[j]).second) {
      return refuse("duplicate-branch", quoted("branch ", branches[j], " is listed twice"), pointer);
    }
  }
  auto limit = concurrency_of(concurrency);
  if (!limit) {
    return refuse("bad-concurrency", "concurrency must be an integer from 1 to 1000000, got " + number_text(*concurrency),
                  at("states", index, "concurrency"));
  }
  if (auto added = add_state(name, true); !added) return added;
  states_.back().fan_out = FanOut{branches, "", "", {}, *limit};
  ++fan_outs_;
  return {};
}

Expected<void, Problem> Machine::add_map(std::string_view name, std::string_view branch, std::string_view over,
                                         std::optional<double> concurrency) {
  if (frozen_) return unexpected(frozen_problem());
  const std::size_t index = states_.size();
  auto refuse = [&](const char* code, const std::string& message, std::string pointer) {
    return unexpected(Problem{code, quoted("map state ", name, ": ") + message, std::move(pointer)});
  };
  const std::string state_pointer = at("states", index, "map") + "/state";
  if (blank(branch)) return refuse("blank-name", "the state to run per item is blank", state_pointer);
  if (branch == kEnd) return refuse("end-as-branch", "END cannot be a branch", state_pointer);
  if (branch == name) return refuse("fan-out-to-itself", "it maps itself over the list", state_pointer);
  // `over` is one path, written as the condition language writes paths, so that it reads the state
  // exactly as conditions do.
  const std::string over_pointer = at("states", index, "map") + "/over";
  auto parsed = state_path(over);
  if (!parsed) return refuse("bad-map-path", quoted("cannot map over ", over, ": ") + parsed.error(), over_pointer);
  condition::Path path = std::move(parsed.value());
  auto limit = concurrency_of(concurrency);
  if (!limit) {
    return refuse("bad-concurrency", "concurrency must be an integer from 1 to 1000000, got " + number_text(*concurrency),
                  at("states", index, "concurrency"));
  }
  if (auto added = add_state(name, true); !added) return added;
  states_.back().fan_out = FanOut{{}, std::string(branch), std::string(over), std::move(path), *limit};
  ++fan_outs_;
  return {};
}

Expected<condition::Path, std::string> state_path(std::string_view text) {
  condition::Interner scratch;
  auto compiled = condition::Condition::compile(text, scratch);
  if (!compiled) return unexpected(compiled.error().message);
  const auto& paths = compiled.value().paths();
  if (paths.size() != 1 || paths[0].text() != text) {
    return unexpected(paths.size() == 1
                          ? quoted("write the path as ", paths[0].text(), "")
                          : std::string("it must be one path into the state, such as 'docs' or 'plan.tasks'"));
  }
  if (is_reserved(paths[0])) return unexpected(std::string("$ names are the machine's, not the state's"));
  return paths[0];
}

Expected<void, Problem> Machine::add_subgraph(std::string_view name, std::unique_ptr<const Machine> child,
                                              const std::optional<Mapping>& input, const std::optional<Mapping>& output) {
  if (frozen_) return unexpected(frozen_problem());
  const std::size_t index = states_.size();
  auto refuse = [&](const char* code, const std::string& message, std::string pointer) {
    return unexpected(Problem{code, quoted("subgraph state ", name, ": ") + message, std::move(pointer)});
  };
  if (child->depth() + 1 > kMaxSubgraphDepth) {
    return refuse("subgraph-too-deep", "subgraphs may nest " + std::to_string(kMaxSubgraphDepth) + " machines deep, this would be " +
                                           std::to_string(child->depth() + 1), at("states", index, "subgraph"));
  }
  const std::size_t child_depth = child->depth();
  auto subgraph = std::make_unique<Subgraph>();
  subgraph->machine = std::move(child);
  for (auto [mapping, member, target] : {std::tuple{&input, "input", &subgraph->input}, std::tuple{&output, "output", &subgraph->output}}) {
    if (!*mapping) continue;
    target->emplace();
    for (const auto& [key, path_text] : **mapping) {
      const std::string pointer = at("states", index, member) + "/" + pointer_token(key);
      if (blank(key)) return refuse("bad-mapping", std::string("its ") + member + " has a blank key", pointer);
      auto path = state_path(path_text);
      if (!path) {
        std::string reads = quoted(" ", key, " reads ") + quoted("", path_text, ": ") + path.error();
        return refuse("bad-mapping", std::string("its ") + member + reads, pointer);
      }
      (*target)->push_back({key, path_text, std::move(path.value())});
    }
  }
  if (auto added = add_state(name, true); !added) return added;
  states_.back().subgraph = std::move(subgraph);
  depth_ = std::max(depth_, child_depth + 1);
  return {};
}

Expected<void, Problem> Machine::set_handoffs(std::string_view state, double count) {
  if (frozen_) return unexpected(frozen_problem());
  auto index = state_index(state);
  if (!index) return unexpected(Problem{"unknown-state", quoted("state ", state, " is not declared"), ""});
  if (!(count >= 0 && count <= kMaxHandoffs && count == static_cast<double>(static_cast<std::uint32_t>(count)))) {
    return unexpected(Problem{"bad-handoffs",
                              quoted("the handoffs of state ", state, " must be an integer from 0 to 1000000"),
                              at("states", *index, "handoffs")});
  }
  states_[*index].handoffs = static_cast<std::uint32_t>(count);
  return {};
}

Expected<void, EdgeRejection> Machine::add_transfer_edge(std::string_view from, std::string_view to,
                                                         std::string_view description) {
  auto added = add_edge(from, to, "false", description);
  if (!added) return added;
  edges_.back().when = std::nullopt;
  edges_.back().transfer = true;
  return {};
}

std::string transfer_tool_name(std::string_view to) {
  if (to == kEnd) return "transfer_to_end";  // END's own name is an implementation detail
  std::string out = "transfer_to_";
  for (char byte : to) {
    auto c = static_cast<unsigned char>(byte);
    if ((c & 0xC0) == 0x80) continue;
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    out += ok ? static_cast<char>(c) : '_';
  }
  return out.substr(0, 64);
}

const MachineEdge& Machine::out_edge(std::uint32_t state, std::uint32_t position) const {
  return edges_[graph_.out_edges(states_[state].node)[position]];
}

namespace {

// Each name once, in order of first appearance over the states' templates.
std::vector<std::string> collect_template_variables(const std::vector<State>& states) {
  StringKeys names;  // numbered in order of first appearance
  for (const State& s : states) {
    if (!s.task) continue;
    for (const std::string& name : s.task->variables()) names.insert(name);
  }
  return names.keys();
}

}  // namespace

void Machine::freeze() {
  if (frozen_) return;
  frozen_ = true;
  StringKeys excluded;
  for (const std::string& name : options_.no_feedback_states) excluded.insert(name);
  feedback_.clear();
  for (const State& s : states_) feedback_.push_back(options_.feedback_on_revisit && s.feedback_on_revisit && !excluded.count(s.name));
  template_variables_ = collect_template_variables(states_);
  reserved_.assign(graph_.size(), {});
  for (graph::NodeId node = 0; node < graph_.size(); ++node) {
    for (const condition::Path& path : graph_.route_paths(node)) reserved_[node].push_back(is_reserved(path));
  }
  // Validation found every branch declared (an execution needs a valid machine).
  branch_states_.assign(states_.size(), {});
  for (std::size_t i = 0; i < states_.size(); ++i) {
    if (!states_[i].fan_out) continue;
    const FanOut& f = *states_[i].fan_out;
    if (f.is_map()) branch_states_[i].push_back(state_index(f.map_state).value_or(0));
    for (const std::string& b : f.branches) branch_states_[i].push_back(state_index(b).value_or(0));
  }
}

bool Machine::feedback_applies(std::uint32_t state) const { return frozen_ && feedback_[state]; }

std::vector<std::string> Machine::template_variables() const {
  return frozen_ ? template_variables_ : collect_template_variables(states_);
}

std::vector<Problem> Machine::validate() const {
  std::vector<Problem> problems;
  if (blank(options_.name)) problems.push_back({"blank-name", "the machine's name must not be blank", "/name"});
  double max_steps = options_.max_steps;
  if (!(max_steps >= 1 && max_steps <= kMaxStepsLimit && std::floor(max_steps) == max_steps)) {
    problems.push_back(
        {"max-steps", "maxSteps must be an integer from 1 to 1000000, got " + number_text(max_steps), "/maxSteps"});
  }
  if (!options_.start || blank(*options_.start)) {
    problems.push_back({"no-start", "the machine has no start state: pass { start } to the constructor", "/start"});
  } else if (*options_.start == kEnd) {
    problems.push_back({"end-as-start", "the start state cannot be END: the machine would never run", "/start"});
  } else if (!state_index(*options_.start)) {
    std::string known;
    for (const State& s : states_) known += quoted(known.empty() ? "" : ", ", s.name, "");
    problems.push_back({"unknown-start",
                        quoted("start state ", *options_.start, " is not a declared state (declared: ") +
                            (known.empty() ? "none" : known) + ")",
                        "/start"});
  }
  Flags has_edge(states_.size());
  for (std::size_t i = 0; i < edges_.size(); ++i) {
    const MachineEdge& edge = edges_[i];
    auto from = state_index(edge.from);
    if (from) {
      has_edge[*from] = true;
    } else {
      problems.push_back({"unknown-from",
                          describe_edge(i, edge) + quoted(" starts at ", edge.from, ", which is not a declared state"),
                          at("edges", i, "from")});
    }
    if (edge.to != kEnd && !state_index(edge.to)) {
      problems.push_back(
          {"unknown-to",
           describe_edge(i, edge) + quoted(" leads to ", edge.to, ", which is neither END nor a declared state"),
           at("edges", i, "to")});
    }
  }
  // Handoff-enabled states: at least two transfer edges (MAG's output_nodes), distinct tool names,
  // and a regular edge to continue on once the selections are used up.
  std::vector<std::uint32_t> transfers(states_.size());
  Flags regular(states_.size());
  std::vector<StringKeys> tool_names(states_.size());
  for (std::size_t i = 0; i < edges_.size(); ++i) {
    auto from = state_index(edges_[i].from);
    if (!from) continue;
    if (!edges_[i].transfer) {
      regular[*from] = true;
      continue;
    }
    if (!states_[*from].handoffs) {
      problems.push_back({"transfer-without-handoffs",
                          describe_edge(i, edges_[i]) + quoted(" is a transfer edge, but state ", edges_[i].from,
                                                               " is not handoff-enabled (give it { handoffs })"),
                          at("edges", i)});
    }
    std::string name = transfer_tool_name(edges_[i].to);
    if (!tool_names[*from].insert(name).second) {
      problems.push_back({"duplicate-transfer",
                          describe_edge(i, edges_[i]) + quoted(": state ", edges_[i].from, " already offers ") + name,
                          at("edges", i)});
    }
    ++transfers[*from];
  }
  for (std::size_t i = 0; i < states_.size(); ++i) {
    if (!states_[i].handoffs || !has_edge[i]) continue;
    if (transfers[i] < 2) {
      problems.push_back({"too-few-transfers",
                          quoted("handoff-enabled state ", states_[i].name, " has ") + std::to_string(transfers[i]) +
                              " transfer edge(s); it needs at least two to choose from",
                          at("states", i)});
    }
    if (!regular[i]) {
      problems.push_back({"no-continuation",
                          quoted("handoff-enabled state ", states_[i].name,
                                 " has no regular edge to continue on once its handoffs are used up"),
                          at("states", i)});
    }
  }
  // Fan-out branches: declared, and not fan-outs themselves. A state that is only ever a branch
  // needs no edge of its own (the fan-out state routes after the join); one that an edge or the
  // start also reaches does.
  Flags reached(states_.size());
  if (options_.start) {
    if (auto s = state_index(*options_.start)) reached[*s] = true;
  }
  for (const MachineEdge& edge : edges_) {
    if (auto to = state_index(edge.to)) reached[*to] = true;
  }
  Flags branch_only(states_.size());
  for (std::size_t i = 0; i < states_.size(); ++i) {
    if (!states_[i].fan_out) continue;
    const FanOut& f = *states_[i].fan_out;
    const char* kind = f.is_map() ? "map state " : "fan-out state ";
    std::vector<std::pair<std::string, std::string>> listed;  // (name, pointer)
    if (f.is_map()) listed.emplace_back(f.map_state, at("states", i, "map") + "/state");
    for (std::size_t j = 0; j < f.branches.size(); ++j) listed.emplace_back(f.branches[j], at("states", i, "branches") + "/" + std::to_string(j));
    auto runs = [&](const std::string& branch, const char* which) {
      return quoted(kind, states_[i].name, " runs ") + quoted("", branch, which);
    };
    for (const auto& [branch, pointer] : listed) {
      auto b = state_index(branch);
      if (!b) {
        problems.push_back({"unknown-branch", runs(branch, ", which is not a declared state"), pointer});
      } else if (states_[*b].fan_out) {
        problems.push_back(
            {"nested-fan-out", runs(branch, ", which fans out itself; a branch must be a plain state"), pointer});
      } else if (states_[*b].handoffs) {
        // A branch's handler cannot choose where the run goes: the fan-out state routes.
        problems.push_back({"handoff-branch",
                            runs(branch, ", which is handoff-enabled; a branch cannot choose the next state"),
                            pointer});
      } else {
        branch_only[*b] = !reached[*b];
      }
    }
  }
  // A subgraph's own problems, at their pointers inside it.
  for (std::size_t i = 0; i < states_.size(); ++i) {
    if (!states_[i].subgraph) continue;
    for (const Problem& p : states_[i].subgraph->machine->validate()) {
      problems.push_back({"invalid-subgraph",
                          quoted("subgraph state ", states_[i].name, ": ") + p.code + ": " + p.message,
                          at("states", i, "subgraph") + p.pointer});
    }
  }
  for (std::size_t i = 0; i < states_.size(); ++i) {
    if (!has_edge[i] && !branch_only[i]) {
      problems.push_back(
          {"no-outgoing-edge",
           quoted("state ", states_[i].name, " has no outgoing edge (add an edge to END to finish there)"),
           at("states", i)});
    }
  }
  for (std::size_t i = 0; i < options_.no_feedback_states.size(); ++i) {
    const std::string& name = options_.no_feedback_states[i];
    if (!state_index(name)) {
      problems.push_back({"unknown-no-feedback-state",
                          quoted("noFeedbackStates names ", name, ", which is not a declared state"),
                          at("noFeedbackStates", i)});
    }
  }
  return problems;
}


}  // namespace handoff::machine
