#include "check/check.h"

#include <algorithm>
#include <deque>
#include <map>

#include "check/decide.h"
#include "condition/json_state.h"
#include "graph/handoff_graph.h"
#include "handoff/policy.h"
#include "handoff/swarm.h"
#include "machine/machine.h"

namespace handoff::check {
namespace {

using Kind = RuleVerdict::Kind;

std::string pointer(const char* list, std::size_t index) {
  return std::string("/") + list + "/" + std::to_string(index);
}

std::string quoted(const std::string& name) { return "'" + name + "'"; }

bool pointer_less(const std::string& a, const std::string& b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    std::size_t ei = std::min(a.find('/', i + 1), a.size());
    std::size_t ej = std::min(b.find('/', j + 1), b.size());
    std::string_view x(a.data() + i, ei - i);
    std::string_view y(b.data() + j, ej - j);
    if (x != y) {
      auto digits = [](std::string_view t) {
        return t.size() > 1 && t.find_first_not_of("0123456789", 1) == std::string_view::npos;
      };
      if (digits(x) && digits(y) && x.size() != y.size()) return x.size() < y.size();
      return x < y;
    }
    i = ei;
    j = ej;
  }
  return a.size() - i < b.size() - j;
}

class Report {
 public:
  Json& finding(const char* code, const char* severity, std::string message, const std::string& at) {
    Json f = Json::object();
    f["code"] = code;
    f["severity"] = severity;
    f["message"] = std::move(message);
    f["pointer"] = at;
    findings_.push_back(std::move(f));
    if (std::string_view(severity) == "error") ok_ = false;
    return findings_.back();
  }

  Json& add_case(const std::string& node, std::size_t edge, const std::string& to, Json state, const std::string& at) {
    Json c = Json::object();
    c["node"] = node;
    c["edge"] = edge;
    c["to"] = to;
    c["state"] = std::move(state);
    c["pointer"] = at;
    cases_.push_back(std::move(c));
    return cases_.back();
  }

  // A nested machine's report, its pointers already under this one's.
  void merge(const Json& other) {
    for (const Json& f : other["findings"]) {
      if (f["severity"] == "error") ok_ = false;
      findings_.push_back(f);
    }
    for (const Json& c : other["cases"]) cases_.push_back(c);
  }

  // Findings and cases in pointer order (numbers compared as numbers), so that a report reads in
  // the definition's order and does not depend on the order of the analysis.
  Json done() {
    auto before = [](const Json& a, const Json& b) {
      return pointer_less(a["pointer"].get<std::string>(), b["pointer"].get<std::string>());
    };
    std::stable_sort(findings_.begin(), findings_.end(), before);
    std::stable_sort(cases_.begin(), cases_.end(), before);
    Json out = Json::object();
    out["ok"] = ok_;
    out["findings"] = std::move(findings_);
    out["cases"] = std::move(cases_);
    return out;
  }

 private:
  bool ok_ = true;
  Json findings_ = Json::array();
  Json cases_ = Json::array();
};

// The paths a node's conditions read, one variable each, and each condition's slots mapped onto
// them (a graph's node shares one slot table already; a swarm's conditions each have their own).
class Variables {
 public:
  std::uint32_t of(const condition::Path& path) {
    std::string text = path.text();
    auto [it, added] = index_.emplace(text, static_cast<std::uint32_t>(list_.size()));
    if (added) list_.push_back({path, {}, false});
    return it->second;
  }
  std::uint32_t host() {
    list_.push_back({{}, {}, true});
    return static_cast<std::uint32_t>(list_.size() - 1);
  }
  std::vector<Variable>& list() { return list_; }

 private:
  std::map<std::string, std::uint32_t> index_;
  std::vector<Variable> list_;
};

std::string edge_text(std::size_t index, const std::string& from, const std::string& to, const std::string* when) {
  std::string out = "edge " + std::to_string(index) + " (" + from + " -> " + to;
  if (when != nullptr) out += " when `" + *when + "`";
  return out + ")";
}

std::string edge_list(const std::vector<std::size_t>& edges) {
  std::string out = edges.size() == 1 ? "edge " : "edges ";
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (i > 0) out += i + 1 == edges.size() ? " and " : ", ";
    out += std::to_string(edges[i]);
  }
  return out;
}

// The findings every kind of target reports for one edge's verdict; true when routing may take it.
bool report_edge(Report& report, const RuleVerdict& verdict, std::size_t edge, const std::string& text,
                 const std::string& node, const std::vector<std::size_t>& edge_of_rule) {
  const std::string at = pointer("edges", edge);
  switch (verdict.kind) {
    case Kind::Case:
    case Kind::Never:
    case Kind::Host:
      return true;
    case Kind::Unsatisfiable: {
      Json& f = report.finding("unsatisfiable-condition", "warning", text + ": no state makes its condition true", at);
      f["node"] = node;
      f["edge"] = edge;
      return false;
    }
    case Kind::Shadowed: {
      std::vector<std::size_t> by;
      for (std::uint32_t rule : verdict.shadowers) by.push_back(edge_of_rule[rule]);
      std::string why =
          verdict.alone ? "every state that satisfies it also satisfies the earlier " + edge_list(by) + ", tried first"
                        : "every state that satisfies it is taken first by one of the earlier " + edge_list(by);
      Json& f = report.finding("shadowed-edge", "warning", text + " is never taken: " + why, at);
      f["node"] = node;
      f["edge"] = edge;
      f["shadowedBy"] = by;
      return false;
    }
    case Kind::Undecided: {
      Json& f = report.finding("undecided", "info",
                               "check did not decide whether " + text + " can be taken: " + verdict.why, at);
      f["node"] = node;
      f["edge"] = edge;
      return true;
    }
  }
  return true;
}

// A graph node's rules: its outgoing edges, each condition reading the node's slot table.
void graph_rules(const graph::HandoffGraph& graph, graph::NodeId node, std::vector<Rule>& rules, Variables& vars) {
  const auto& paths = graph.route_paths(node);
  std::vector<std::uint32_t> slots;
  slots.reserve(paths.size());
  for (const auto& path : paths) slots.push_back(vars.of(path));
  for (std::uint32_t e : graph.out_edges(node)) {
    const graph::Edge& edge = graph.edges()[e];
    Rule rule;
    if (edge.condition) rule.condition = &*edge.condition;
    rule.vars = slots;
    rules.push_back(std::move(rule));
  }
}

std::int32_t route_json(const graph::HandoffGraph& graph, graph::NodeId node, const Json& state) {
  condition::JsonStateWriter writer(graph.strings());
  writer.write(state, graph.route_paths(node));
  return graph.route(node, writer.slots().data());
}

}  // namespace

Json check_graph(const graph::HandoffGraph& graph) {
  Report report;
  Budget budget;
  const std::vector<std::string> names = graph.node_names();  // the definition's order
  for (std::size_t n = 0; n < names.size(); ++n) {
    graph::NodeId node = graph.find(names[n]);
    const auto& out = graph.out_edges(node);
    if (out.empty()) continue;
    std::vector<Rule> rules;
    Variables vars;
    graph_rules(graph, node, rules, vars);
    NodeVerdict verdict = decide(
        rules, vars.list(), graph.strings(),
        [&](const Json& state, std::int32_t rule) { return route_json(graph, node, state) == rule; }, budget);
    std::vector<std::size_t> edge_of_rule(out.begin(), out.end());
    for (std::size_t r = 0; r < rules.size(); ++r) {
      const graph::Edge& edge = graph.edges()[out[r]];
      const std::string* when = edge.condition ? &edge.condition->source() : nullptr;
      report_edge(report, verdict.rules[r], out[r], edge_text(out[r], names[n], graph.name(edge.to), when), names[n],
                  edge_of_rule);
      if (verdict.rules[r].kind == Kind::Case) {
        report.add_case(names[n], out[r], graph.name(edge.to), verdict.rules[r].witness, pointer("edges", out[r]));
      }
    }
    if (verdict.gap == NodeVerdict::Gap::Witness) {
      Json& f = report.finding("no-match", "warning",
                               "some states match no edge from node " + quoted(names[n]) +
                                   " (route() gives null), for example " + core::dump_json(verdict.gap_witness),
                               pointer("nodes", n));
      f["node"] = names[n];
      f["witness"] = verdict.gap_witness;
    } else if (verdict.gap == NodeVerdict::Gap::Undecided) {
      Json& f = report.finding("undecided", "info",
                               "check did not decide whether every state matches an edge from node " +
                                   quoted(names[n]) + ": " + verdict.gap_why,
                               pointer("nodes", n));
      f["node"] = names[n];
    }
  }
  return report.done();
}

namespace {

// What a running machine supplies at a reserved path, read from state `state` (conditions.md).
Range reserved_range(const machine::Machine& machine, std::uint32_t state, const condition::Path& path) {
  Range range;
  const auto& steps = path.steps;
  const std::string& head = steps[0].key;
  if (head == "$step" && steps.size() == 1) {
    range.kind = Range::Kind::Integer;
    range.min = 1;
    range.max = machine.options().max_steps;
    range.prefer_high = true;  // a witness's visits must fit in its steps
  } else if (head == "$state" && steps.size() == 1) {
    range.kind = Range::Kind::Constant;
    range.constant = machine.states()[state].name;
  } else if (head == "$visits" && steps.size() == 2) {
    auto named = machine.state_index(steps[1].key);
    range.kind = named ? Range::Kind::Integer : Range::Kind::Constant;
    range.min = named && *named == state ? 1 : 0;  // the visit just run counts
    // Without fan-outs each step visits one state, so no count passes maxSteps; a fan-out's
    // branches visit more, with no bound check can state.
    range.max = machine.has_fan_outs() ? 1e15 : machine.options().max_steps;
    range.constant = 0;
  } else if (steps.size() > 1 && (head != "$visits" || steps.size() > 2)) {
    range.kind = Range::Kind::Constant;  // no member of a number or a string
    range.constant = nullptr;
  }
  if (head == "$visits" && steps.size() == 1) {
    // Every declared state's count. No test a condition can write tells two such objects apart
    // (there are no object literals), so one stands for all: the state just run visited once.
    range.kind = Range::Kind::Constant;
    range.constant = Json::object();
    for (std::uint32_t s = 0; s < machine.states().size(); ++s)
      range.constant[machine.states()[s].name] = s == state ? 1 : 0;
  }
  return range;
}

// Whether a witness could be a moment of a run: `$visits` holds counts (every declared state's,
// when a condition reads it whole), and without fan-outs, where each step visits one state, the
// visits it shows add up to at most $step, or to at most maxSteps where it shows no $step.
bool possible_moment(const machine::Machine& machine, const Json& state, bool whole_visits) {
  auto visits = state.find("$visits");
  if (visits == state.end()) return !whole_visits;
  if (!visits->is_object()) return false;
  double total = 0;
  for (const Json& count : *visits) {
    if (!count.is_number() || count.get<double>() < 0) return false;
    total += count.get<double>();
  }
  if (whole_visits) {
    for (const machine::State& s : machine.states()) {
      if (!visits->contains(s.name)) return false;
    }
  }
  auto step = state.find("$step");
  if (machine.has_fan_outs()) return true;
  return total <= (step == state.end() ? static_cast<double>(machine.options().max_steps) : step->get<double>());
}

// A machine and its subgraphs' machines share one budget.
Json check_machine_within(const machine::Machine& machine, Budget& budget) {
  Report report;
  const auto problems = machine.validate();
  if (!problems.empty()) {
    for (const auto& p : problems) report.finding(p.code.c_str(), "error", p.message, p.pointer);
    return report.done();
  }
  const graph::HandoffGraph& graph = machine.graph();
  const auto& states = machine.states();
  const auto& edges = machine.edges();
  std::vector<bool> fires(edges.size(), false);  // routing (or a model) may take the edge
  std::vector<NodeVerdict> verdicts(states.size());
  for (std::uint32_t s = 0; s < states.size(); ++s) {
    const machine::State& state = states[s];
    const auto& out = graph.out_edges(state.node);
    std::vector<Rule> rules;
    Variables vars;
    graph_rules(graph, state.node, rules, vars);
    bool host = false;
    for (std::size_t r = 0; r < rules.size(); ++r) {
      const machine::MachineEdge& edge = edges[out[r]];
      rules[r].never = edge.transfer;
      if (edge.predicate) {
        rules[r].host = vars.host();
        host = true;
      }
    }
    bool whole_visits = false;  // a condition reads `$visits` itself
    for (Variable& v : vars.list()) {
      if (v.host || !machine::is_reserved(v.path)) continue;
      v.range = reserved_range(machine, s, v.path);
      whole_visits = whole_visits || (v.path.steps.size() == 1 && v.path.steps[0].key == "$visits");
    }
    verdicts[s] = decide(
        rules, vars.list(), graph.strings(),
        [&](const Json& moment, std::int32_t rule) {
          return possible_moment(machine, moment, whole_visits) && route_json(graph, state.node, moment) == rule;
        },
        budget);
    if (host && verdicts[s].gap == NodeVerdict::Gap::Undecided) verdicts[s].gap_why = "a host function decides an edge";
    std::vector<std::size_t> edge_of_rule(out.begin(), out.end());
    for (std::size_t r = 0; r < rules.size(); ++r) {
      const machine::MachineEdge& edge = edges[out[r]];
      const std::string* when = edge.when ? &*edge.when : nullptr;
      bool may = report_edge(report, verdicts[s].rules[r], out[r], edge_text(out[r], edge.from, edge.to, when),
                             state.name, edge_of_rule);
      fires[out[r]] = may && (!edge.transfer || state.handoffs.value_or(0) > 0);
      if (verdicts[s].rules[r].kind == Kind::Case) {
        report.add_case(state.name, out[r], edge.to, verdicts[s].rules[r].witness, pointer("edges", out[r]));
      }
    }
  }

  // Which states runs enter (and so route from), and which run only as a fan-out's branches.
  std::vector<bool> entered(states.size(), false);
  std::vector<bool> branch(states.size(), false);
  std::deque<std::uint32_t> queue;
  auto enter = [&](std::uint32_t s) {
    if (!entered[s]) {
      entered[s] = true;
      queue.push_back(s);
    }
  };
  enter(*machine.state_index(*machine.options().start));
  while (!queue.empty()) {
    std::uint32_t s = queue.front();
    queue.pop_front();
    if (const auto& fan_out = states[s].fan_out) {
      for (const std::string& b : fan_out->branches) branch[*machine.state_index(b)] = true;
      if (fan_out->is_map()) branch[*machine.state_index(fan_out->map_state)] = true;
    }
    for (std::uint32_t e : graph.out_edges(states[s].node)) {
      if (!fires[e]) continue;
      if (auto to = machine.state_index(edges[e].to)) enter(*to);
    }
  }
  // Which states can still reach END, walking the edges backwards from it.
  std::vector<bool> exits(states.size(), false);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t e = 0; e < edges.size(); ++e) {
      if (!fires[e]) continue;
      auto from = machine.state_index(edges[e].from);
      auto to = machine.state_index(edges[e].to);
      if (exits[*from] || !(edges[e].to == machine::kEnd || (to && exits[*to]))) continue;
      exits[*from] = true;
      changed = true;
    }
  }
  for (std::uint32_t s = 0; s < states.size(); ++s) {
    const std::string& name = states[s].name;
    if (!entered[s] && !branch[s]) {
      Json& f = report.finding("unreachable", "warning",
                               "state " + quoted(name) +
                                   " is never run: no path of edges that can be taken leads to it from " +
                                   quoted(*machine.options().start),
                               pointer("states", s));
      f["node"] = name;
      continue;
    }
    if (!entered[s]) continue;  // run only as a branch: it does not route
    if (!exits[s]) {
      Json& f = report.finding("no-exit", "error",
                               "no run that enters state " + quoted(name) +
                                   " can reach END: every such run ends at maxSteps (or when no edge matches)",
                               pointer("states", s));
      f["node"] = name;
    }
    const NodeVerdict& v = verdicts[s];
    if (v.gap == NodeVerdict::Gap::Witness) {
      Json& f =
          report.finding("no-match", "error",
                         "some states match no edge from state " + quoted(name) +
                             " (the run throws NoEdgeMatchedError), for example " + core::dump_json(v.gap_witness),
                         pointer("states", s));
      f["node"] = name;
      f["witness"] = v.gap_witness;
    } else if (v.gap == NodeVerdict::Gap::Undecided) {
      Json& f = report.finding(
          "undecided", "info",
          "check did not decide whether every state matches an edge from state " + quoted(name) + ": " + v.gap_why,
          pointer("states", s));
      f["node"] = name;
    }
  }
  // Subgraphs: each child machine is checked as a machine of its own.
  for (std::uint32_t s = 0; s < states.size(); ++s) {
    if (!states[s].subgraph) continue;
    Json child = check_machine_within(*states[s].subgraph->machine, budget);
    const std::string prefix = pointer("states", s) + "/subgraph";
    for (Json& f : child["findings"]) f["pointer"] = prefix + f["pointer"].get<std::string>();
    for (Json& c : child["cases"]) c["pointer"] = prefix + c["pointer"].get<std::string>();
    report.merge(child);
  }
  return report.done();
}

}  // namespace

Json check_machine(const machine::Machine& machine) {
  Budget budget;
  return check_machine_within(machine, budget);
}

Json check_swarm(const swarm::Swarm& swarm) {
  Report report;
  Budget budget;
  const auto& agents = swarm.agents();
  const auto& edges = swarm.edges();
  std::vector<bool> fires(edges.size(), false);
  for (const swarm::Agent& agent : agents) {
    // The agent's rule list, and which of its edges are rules or continuations.
    std::vector<std::size_t> listed;
    for (std::size_t e = 0; e < edges.size(); ++e) {
      if (edges[e].from == agent.id && !edges[e].offered && (edges[e].when || edges[e].continuation))
        listed.push_back(e);
    }
    const bool limited = agent.handoffs_disabled || agent.handoffs.has_value();
    const bool selects = !agent.handoffs_disabled && agent.handoffs.value_or(1) > 0;
    // Tools: offered while their condition holds and the agent may select.
    for (std::size_t e = 0; e < edges.size(); ++e) {
      const swarm::Edge& edge = edges[e];
      if (edge.from != agent.id || !edge.offered) continue;
      bool may = selects;
      if (edge.when && may) {
        Variables vars;
        Rule rule;
        rule.condition = &*edge.when;
        for (const auto& path : edge.when->paths()) rule.vars.push_back(vars.of(path));
        NodeVerdict v = decide(
            {rule}, vars.list(), swarm.strings(),
            [&](const Json& state, std::int32_t r) {
              return r == 0 ? condition::evaluate(*edge.when, state, swarm.strings())
                            : !condition::evaluate(*edge.when, state, swarm.strings());
            },
            budget);
        may = report_edge(report, v.rules[0], e, edge_text(e, edge.from, edge.to, &edge.when->source()), agent.id, {e});
      }
      fires[e] = may;
    }
    if (listed.empty()) continue;
    // Rules are tried before every turn; continuations join them once the agent's selections are
    // used up. Each situation the agent can be in is decided on its own.
    // Each situation the agent can be in, decided on its own: before its selections run out
    // (rules only) and after (continuations join the rules).
    std::vector<std::vector<std::pair<bool, RuleVerdict>>> seen(listed.size());
    for (bool exhausted : {false, true}) {
      if (exhausted ? !limited : (agent.handoffs_disabled || agent.handoffs == std::uint32_t{0})) continue;
      Variables vars;
      std::vector<Rule> rules;
      for (std::size_t e : listed) {
        const swarm::Edge& edge = edges[e];
        Rule rule;
        rule.never = edge.continuation && !exhausted;
        if (edge.when) {
          rule.condition = &*edge.when;
          for (const auto& path : edge.when->paths()) rule.vars.push_back(vars.of(path));
        }
        for (const swarm::Variable& required : edge.requires_) {
          if (required.from_model) continue;
          condition::Path path;
          path.steps.push_back({false, required.name, 0});
          rule.required.push_back(vars.of(path));
        }
        rules.push_back(std::move(rule));
      }
      NodeVerdict v = decide(
          rules, vars.list(), swarm.strings(),
          [&](const Json& state, std::int32_t r) {
            swarm::SessionCore session = swarm::SessionCore::start(swarm);
            session.active = agent.id;
            if (exhausted && agent.handoffs) session.selections[agent.id] = *agent.handoffs;
            session.variables = state;
            Json outcome = swarm::apply_rules(swarm, session);
            if (r < 0) return outcome.is_null();
            return outcome.is_object() && outcome["edge"] == listed[static_cast<std::size_t>(r)];
          },
          budget);
      for (std::size_t r = 0; r < listed.size(); ++r) {
        if (!rules[r].never) seen[r].emplace_back(exhausted, std::move(v.rules[r]));
      }
    }
    const std::vector<std::size_t> edge_of_rule(listed.begin(), listed.end());
    for (std::size_t r = 0; r < listed.size(); ++r) {
      if (seen[r].empty()) continue;  // a continuation of an agent whose selections never run out
      const std::size_t e = listed[r];
      const swarm::Edge& edge = edges[e];
      auto find = [&](Kind kind) {
        return std::find_if(seen[r].begin(), seen[r].end(), [&](const auto& s) { return s.second.kind == kind; });
      };
      RuleVerdict merged;
      bool exhausted = false;
      if (auto c = find(Kind::Case); c != seen[r].end()) {
        merged = c->second;
        exhausted = c->first;
      } else if (auto u = find(Kind::Unsatisfiable); u != seen[r].end()) {
        merged = u->second;
      } else if (auto d = find(Kind::Undecided); d != seen[r].end()) {
        merged = d->second;
      } else {
        merged.kind = Kind::Shadowed;
        merged.alone = std::all_of(seen[r].begin(), seen[r].end(), [](const auto& s) { return s.second.alone; });
        for (const auto& s : seen[r]) {
          for (std::uint32_t by : s.second.shadowers) {
            if (std::find(merged.shadowers.begin(), merged.shadowers.end(), by) == merged.shadowers.end())
              merged.shadowers.push_back(by);
          }
        }
        std::sort(merged.shadowers.begin(), merged.shadowers.end());
      }
      const std::string* when = edge.when ? &edge.when->source() : nullptr;
      fires[e] = report_edge(report, merged, e, edge_text(e, edge.from, edge.to, when), agent.id, edge_of_rule);
      if (merged.kind == Kind::Case) {
        Json& c = report.add_case(agent.id, e, edge.to, merged.witness, pointer("edges", e));
        if (exhausted) c["exhausted"] = true;  // taken once the agent has no selections left
      }
    }
  }
  // Agents no path of edges that can fire reaches from the entry.
  std::vector<bool> reached(agents.size(), false);
  std::deque<std::size_t> queue;
  for (std::size_t a = 0; a < agents.size(); ++a) {
    if (agents[a].entry) {
      reached[a] = true;
      queue.push_back(a);
    }
  }
  while (!queue.empty()) {
    const std::string& id = agents[queue.front()].id;
    queue.pop_front();
    for (std::size_t e = 0; e < edges.size(); ++e) {
      if (!fires[e] || edges[e].from != id) continue;
      for (std::size_t b = 0; b < agents.size(); ++b) {
        if (!reached[b] && agents[b].id == edges[e].to) {
          reached[b] = true;
          queue.push_back(b);
        }
      }
    }
  }
  for (std::size_t a = 0; a < agents.size(); ++a) {
    if (reached[a]) continue;
    Json& f = report.finding("unreachable", "warning",
                             "agent " + quoted(agents[a].id) +
                                 " is never active: no path of handoffs that can happen leads to it from " +
                                 quoted(swarm.entry().id),
                             pointer("agents", a));
    f["node"] = agents[a].id;
  }
  return report.done();
}

}  // namespace handoff::check
