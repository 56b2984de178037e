#include "export/dag.h"

#include <algorithm>
#include <initializer_list>

#include "condition/unicode.h"
#include "core/json.h"
#include "core/string_index.h"
#include "machine/execution.h"

namespace handoff::dag {
namespace {

constexpr const char* kFired = "#e4572e";
// Edges that did not fire in a finished run: drawn, but receding.
constexpr const char* kUnfired = "#b8b8b8";
// The agent a swarm's session is at.
constexpr const char* kActiveFill = "#fde2d8";

// Appends `parts` to `out` in one call: the renderers' `out += a + b + c` built and freed a string
// per `+`, and those temporaries were most of their code in the WebAssembly module (issue 21).
void put(std::string& out, std::initializer_list<std::string_view> parts) {
  for (std::string_view part : parts) out.append(part);
}

// Whether the marks are of a finished machine run, whose unfired edges are greyed.
bool finished_run(const Dag& dag) { return dag.run && !dag.run->reason.empty(); }

// Nodes in id order (ids are unique, so the order is the only one).
void sort_by_id(std::vector<Node>& nodes) {
  std::sort(nodes.begin(), nodes.end(), [](const Node& a, const Node& b) { return a.id < b.id; });
}

}  // namespace

Dag dag_of(const graph::HandoffGraph& graph) {
  Dag dag;
  dag.kind = "graph";
  for (const std::string& name : graph.node_names()) {
    dag.nodes.push_back({name, "node", graph.description(graph.find(name)), false, std::nullopt});
  }
  std::vector<std::uint32_t> seen(graph.size());
  for (const graph::Edge& edge : graph.edges()) {
    dag.edges.push_back({graph.name(edge.from), graph.name(edge.to),
                         edge.condition ? std::optional<std::string>(edge.condition->source()) : std::nullopt,
                         edge.description, seen[edge.from]++, {}});
  }
  return dag;
}

Dag dag_of(const machine::Machine& machine) {
  Dag dag;
  dag.kind = "state-machine";
  dag.name = machine.options().name;
  const auto& start = machine.options().start;
  bool has_end = false;
  std::int32_t declared = 0;
  for (const auto& state : machine.states()) {
    Node node{state.name, "state", "", start && *start == state.name, std::nullopt};
    if (state.task) node.task = state.task->source();
    if (state.fan_out) {
      if (state.fan_out->is_map()) {
        node.branches = {state.fan_out->map_state};
        node.map_over = state.fan_out->over;
      } else {
        node.branches = state.fan_out->branches;
      }
    }
    if (state.subgraph) node.subgraph = std::make_unique<const Dag>(dag_of(*state.subgraph->machine));
    node.declared = declared++;
    dag.nodes.push_back(std::move(node));
  }
  StringMap<std::uint32_t> seen;
  for (const auto& edge : machine.edges()) {
    has_end = has_end || edge.to == machine::kEnd;
    dag.edges.push_back({edge.from, edge.to, edge.when, edge.description, seen[edge.from]++, {}, edge.predicate});
  }
  if (has_end) dag.nodes.push_back({std::string(machine::kEnd), "end", "", false, std::nullopt});
  sort_by_id(dag.nodes);
  return dag;
}

Dag dag_of(const swarm::Swarm& swarm) {
  Dag dag;
  dag.kind = "swarm";
  dag.name = swarm.name();
  const std::string& entry = swarm.entry().id;
  for (const swarm::Agent& agent : swarm.agents()) {
    Node node{agent.id, "agent", agent.description, agent.id == entry, std::nullopt};
    dag.nodes.push_back(std::move(node));
  }
  sort_by_id(dag.nodes);
  StringMap<std::uint32_t> seen;
  for (const swarm::Edge& e : swarm.edges()) {
    Edge edge{e.from, e.to, e.when ? std::optional<std::string>(e.when->source()) : std::nullopt, e.description, seen[e.from]++, {}};
    edge.via = e.continuation ? "continuation" : !e.offered ? "rule" : e.when ? "hybrid" : "llm";
    if (e.offered) edge.tool = e.tool_name;
    dag.edges.push_back(std::move(edge));
  }
  return dag;
}

Expected<void, std::string> apply_session(Dag& dag, const Json& session) {
  if (!session.is_object()) return unexpected(std::string("a session is an object ({ active, checkpoints })"));
  if (session.contains("active")) {
    const Json& active = json::member(session, "active");
    bool found = false;
    for (Node& n : dag.nodes) {
      if (active.is_string() && n.id == active.get_ref<const std::string&>()) n.active = found = true;
    }
    if (!found) return unexpected(std::string("the session's active agent is not an agent of this swarm"));
  }
  if (!session.contains("checkpoints")) return {};
  const Json& checkpoints = json::member(session, "checkpoints");
  if (!checkpoints.is_array()) return unexpected(std::string("'checkpoints' must be an array"));
  std::uint32_t handoffs = 0;
  for (std::size_t i = 0; i < checkpoints.size(); ++i) {
    const Json& c = checkpoints[i];
    const Json& outcome = json::member(c, "outcome");
    if (!outcome.is_object()) continue;  // a tool run, an approval, …
    if (json::member(outcome, "type") != "handoff") continue;
    const Json& edge = json::member(outcome, "edge");
    if (!edge.is_number_unsigned() || edge.get<std::uint64_t>() >= dag.edges.size()) {
      return unexpected("checkpoints[" + std::to_string(i) + "]: the handoff's 'edge' is not an edge of this swarm");
    }
    dag.edges[edge.get<std::size_t>()].fired_at.push_back(++handoffs);
  }
  return {};
}

Expected<void, std::string> apply_trace(Dag& dag, const Json& trace) {
  auto fire = [&](const std::string& from, const Json& position, std::uint32_t step) -> Expected<void, std::string> {
    if (!position.is_number_unsigned() && !(position.is_number_integer() && position.get<std::int64_t>() >= 0)) {
      return unexpected("step " + std::to_string(step) + ": 'edge' must be an edge index");
    }
    auto index = position.get<std::uint32_t>();
    for (Edge& edge : dag.edges) {
      if (edge.from == from && edge.position == index) {
        edge.fired_at.push_back(step);
        return {};
      }
    }
    return unexpected("step " + std::to_string(step) + ": '" + from + "' has no edge " + std::to_string(index));
  };
  auto node = [&](const std::string& id) -> Node* {
    for (Node& n : dag.nodes) {
      if (n.id == id) return &n;
    }
    return nullptr;
  };

  if (trace.is_object() && trace.contains("steps")) {  // a machine run
    const Json& steps = json::member(trace, "steps");
    if (!steps.is_array()) return unexpected("'steps' must be an array");
    Run run;
    for (Node& n : dag.nodes) {
      if (n.type == "state") n.visits = 0;
    }
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const Json& s = steps[i];
      if (!s.is_object() || !s.contains("state") || !json::member(s, "state").is_string()) {
        return unexpected("steps[" + std::to_string(i) + "] has no state name");
      }
      const std::string& state = json::member(s, "state").get_ref<const std::string&>();
      Node* n = node(state);
      if (n == nullptr || n->type == "end") return unexpected("steps[" + std::to_string(i) + "]: no state '" + state + "'");
      n->visits = *n->visits + 1;
      // A fan-out step's branches are visits of their states too.
      if (s.contains("branches") && json::member(s, "branches").is_array()) {
        for (const Json& b : json::member(s, "branches")) {
          Node* branch = b.is_object() && b.contains("state") && json::member(b, "state").is_string()
                             ? node(json::member(b, "state").get<std::string>())
                             : nullptr;
          if (branch == nullptr || branch->type == "end") return unexpected("steps[" + std::to_string(i) + "]: a branch names no state");
          branch->visits = *branch->visits + 1;
        }
      }
      auto step = s.contains("step") && json::member(s, "step").is_number_unsigned()
                      ? json::member(s, "step").get<std::uint32_t>()
                      : static_cast<std::uint32_t>(i + 1);
      if (s.contains("edge") && !json::member(s, "edge").is_null()) {
        if (auto fired = fire(state, json::member(s, "edge"), step); !fired) return fired;
      }
      run.last_state = state;
      run.steps_run = static_cast<std::uint32_t>(i + 1);
    }
    run.reason = trace.contains("reason") && json::member(trace, "reason").is_string()
                     ? json::member(trace, "reason").get<std::string>()
                     : "";
    dag.run = std::move(run);
    return {};
  }
  if (trace.is_array()) {  // routing hops: { node, edge } or explain() results
    for (std::size_t i = 0; i < trace.size(); ++i) {
      const Json& hop = trace[i];
      auto step = static_cast<std::uint32_t>(i + 1);
      if (!hop.is_object() || !hop.contains("node") || !json::member(hop, "node").is_string()) {
        return unexpected("trace[" + std::to_string(i) + "] has no node");
      }
      const std::string& from = json::member(hop, "node").get_ref<const std::string&>();
      if (hop.contains("edges") && json::member(hop, "edges").is_array()) {
        for (const Json& e : json::member(hop, "edges")) {
          if (e.is_object() && json::member(e, "matched").is_boolean() && json::member(e, "matched").get<bool>() &&
              e.contains("index")) {
            if (auto fired = fire(from, json::member(e, "index"), step); !fired) return fired;
          }
        }
      } else if (hop.contains("edge") && !json::member(hop, "edge").is_null()) {
        if (auto fired = fire(from, json::member(hop, "edge"), step); !fired) return fired;
      }
    }
    return {};
  }
  return unexpected("a trace is a run ({ steps }) or an array of routing hops");
}

Json to_json(const Dag& dag) {
  Json nodes = Json::array();
  for (const Node& n : dag.nodes) {
    Json node = Json::object();
    node["id"] = n.id;
    node["type"] = n.type;
    if (n.start) node["start"] = true;
    if (!n.description.empty()) node["description"] = n.description;
    if (n.visits) node["visits"] = *n.visits;
    if (n.map_over)
      node["map"] = Json{{"state", n.branches.front()}, {"over", *n.map_over}};
    else if (!n.branches.empty()) node["branches"] = n.branches;
    if (n.subgraph) node["subgraph"] = to_json(*n.subgraph);
    if (n.active) node["active"] = true;
    nodes.push_back(std::move(node));
  }
  Json edges = Json::array();
  for (const Edge& e : dag.edges) {
    Json edge = Json::object();
    edge["from"] = e.from;
    edge["to"] = e.to;
    edge["position"] = e.position;
    edge["when"] = e.when ? Json(*e.when) : Json(nullptr);
    edge["unconditional"] = !e.when.has_value() && !e.predicate;
    if (e.predicate) edge["predicate"] = true;
    if (!e.via.empty()) edge["via"] = e.via;
    if (!e.tool.empty()) edge["tool"] = e.tool;
    if (!e.description.empty()) edge["description"] = e.description;
    edge["fired"] = !e.fired_at.empty();
    edge["firedCount"] = e.fired_at.size();
    edge["firedAtSteps"] = e.fired_at;
    edges.push_back(std::move(edge));
  }
  Json out = Json::object();
  out["format"] = "handoff-graph/dag";
  out["version"] = 1;
  out["kind"] = dag.kind;
  if (!dag.name.empty()) out["name"] = dag.name;
  out["nodes"] = std::move(nodes);
  out["edges"] = std::move(edges);
  if (dag.run) {
    Json run = Json::object();
    run["reason"] = dag.run->reason;
    run["stepsRun"] = dag.run->steps_run;
    run["lastState"] = dag.run->last_state ? Json(*dag.run->last_state) : Json(nullptr);
    out["run"] = std::move(run);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Mermaid. Ids are generated (n0, n1, … in node order), so no user string is ever parsed as
// syntax; every label is quoted, and characters that Mermaid's grammar or its HTML rendering
// treat specially are written as entity codes (#35; for '#', #quot; for '"', …).

namespace {

std::string mermaid_text(const std::string& text) {
  // A label of spaces only would be drawn as the node's generated id.
  if (!text.empty() && text.find_first_not_of(' ') == std::string::npos) {
    std::string spaces;
    for (std::size_t i = 0; i < text.size(); ++i) spaces += "#32;";
    return spaces;
  }
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t at = i;
    char32_t c = condition::unicode::decode_utf8(text, i);
    switch (c) {
      case '"': out += "#quot;"; break;
      case '\n': out += "<br>"; break;
      case '#': case '<': case '>': case '&': case '|': case '[': case ']': case '{': case '}': case '(':
      case ')': case ';': case ':': case '`': case '\\': case '%':
      case '$': case '*': case '_': case '~':  // KaTeX ($$) and markdown emphasis in state diagrams
        put(out, {"#", std::to_string(static_cast<std::uint32_t>(c)), ";"});
        break;
      default:
        if (c == condition::unicode::kInvalid || c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x2028 ||
            c == 0x2029) {
          out += ' ';
        } else {
          out.append(text, at, i - at);
        }
    }
  }
  return out;
}

std::string node_label(const Node& n) { return n.type == "end" ? "END" : n.id; }

// The ids a renderer gives the nodes, by node id. Looking one up never adds it, so that the
// references it returns stay valid while a line is put together from several; an id that names no
// node (an edge to an undeclared state) has the empty one.
class GeneratedIds {
 public:
  // Each node is set once (node ids are unique): StringMap's emplace, which the module has anyway,
  // rather than an operator[] of its own.
  void set(std::string_view node, std::string id) { ids_.emplace(node, std::move(id)); }
  const std::string& operator[](std::string_view node) const {
    const std::string* id = ids_.find(node);
    return id == nullptr ? none_ : *id;
  }
  std::size_t count(std::string_view node) const { return ids_.count(node); }

 private:
  StringMap<std::string> ids_;
  std::string none_;  // a member, not a static: no guard nor exit-time destructor
};

GeneratedIds generated_ids(const Dag& dag) {
  GeneratedIds ids;
  for (std::size_t i = 0; i < dag.nodes.size(); ++i) ids.set(dag.nodes[i].id, "n" + std::to_string(i));
  return ids;
}

// A subgraph state's machine as every renderer nests it: its own ids, each prefixed by the
// state's id and '_', drawn one indent deeper.
struct Nested {
  const Dag& dag;
  GeneratedIds ids;
  std::string owner;   // the subgraph state's id in the drawing
  std::string prefix;  // owner + "_"
  std::string indent;
};

Nested nested(const Node& n, const GeneratedIds& ids, const std::string& prefix, const std::string& indent) {
  std::string owner = prefix + ids[n.id];
  std::string inner_prefix = owner + "_";
  return {*n.subgraph, generated_ids(*n.subgraph), std::move(owner), std::move(inner_prefix), indent + "  "};
}

// A condition shows as itself; an edge decided by a host function by its description; a swarm's
// edge by how it is taken: its condition, its transfer tool, or both.
std::string edge_label(const Edge& e) {
  if (e.predicate) return e.description.empty() ? std::string("(predicate)") : e.description;
  if (e.via == "llm") return e.tool;
  if (e.via == "hybrid") return e.tool + " when " + *e.when;
  if (e.via == "continuation") return e.when ? "continuation when " + *e.when : std::string("continuation");
  return e.when ? *e.when : e.description;
}

// Mermaid's arrow for a swarm's edge: rules solid, LLM edges dotted, hybrids thick, continuations
// ending in a circle.
const char* swarm_arrow(const Edge& e) {
  if (e.via == "llm") return " -.->";
  if (e.via == "hybrid") return " ==>";
  if (e.via == "continuation") return " --o";
  return " -->";
}

bool conditional(const Edge& e) { return e.when.has_value() || e.predicate; }

// The label of a fan-out's link to a branch: "parallel", or for a map "each in <path>".
std::string branch_label(const Node& n) { return n.map_over ? "each in " + *n.map_over : std::string("parallel"); }

// A flowchart's node lines: ids prefixed with `prefix` (a subgraph's, by its state's id), each line
// after `indent`.
void flowchart_nodes(const Dag& dag, const GeneratedIds& ids, const std::string& prefix, const std::string& indent, std::string& out) {
  for (const Node& n : dag.nodes) {
    put(out, {indent, prefix, ids[n.id]});
    if (n.type == "end") out += "([\"END\"])\n";
    else if (n.type == "agent" && !n.description.empty()) put(out, {"[\"", mermaid_text(n.id), "<br>", mermaid_text(n.description), "\"]\n"});
    else put(out, {"[\"", mermaid_text(n.id), "\"]\n"});
  }
}

// A flowchart's links: its edges, bold links to fan-out branches, then each subgraph state's
// machine as a `subgraph` block (after the links, so that these keep their numbers) with a dotted
// link from the state: its states' ids prefixed by the state's, its own subgraphs nested.
void flowchart_links(const Dag& dag, const GeneratedIds& ids, const std::string& prefix, const std::string& indent, std::string& out) {
  for (const Edge& e : dag.edges) {
    std::string label = edge_label(e);
    put(out, {indent, prefix, ids[e.from], dag.kind == "swarm" ? swarm_arrow(e) : conditional(e) ? " -->" : " -.->"});
    if (!label.empty()) put(out, {"|\"", mermaid_text(label), "\"|"});
    put(out, {" ", prefix, ids[e.to], "\n"});
  }
  for (const Node& n : dag.nodes) {
    for (const std::string& b : n.branches) {
      if (ids.count(b)) put(out, {indent, prefix, ids[n.id], " ==>|\"", mermaid_text(branch_label(n)), "\"| ", prefix, ids[b], "\n"});  // undeclared: not drawn
    }
  }
  for (const Node& n : dag.nodes) {
    if (!n.subgraph) continue;
    const Nested child = nested(n, ids, prefix, indent);
    put(out, {indent, "subgraph ", child.prefix, "sub[\"", mermaid_text(child.dag.name), "\"]\n"});
    flowchart_nodes(child.dag, child.ids, child.prefix, child.indent, out);
    flowchart_links(child.dag, child.ids, child.prefix, child.indent, out);
    put(out, {indent, "end\n", indent, child.owner, " -.- ", child.prefix, "sub\n"});
  }
}

// A state's name in a state diagram, at the top level and in composite states alike.
std::string state_name(const std::string& id) {
  std::string label = mermaid_text(id);
  if (id.find('\n') != std::string::npos) {
    // A multi-line state name is read as Markdown, where a backslash escapes what follows.
    for (std::size_t at = 0; (at = label.find("#92;", at)) != std::string::npos; at += 8) label.replace(at, 4, "#92;#92;");
  }
  return label;
}

// A state diagram's start links, transitions and bold links to fan-out branches, then each
// subgraph state's machine as a composite state: its states' ids prefixed by the state's, its own
// subgraphs nested.
void state_links(const Dag& dag, const GeneratedIds& ids, const std::string& prefix, const std::string& indent, std::string& out) {
  for (const Node& n : dag.nodes) {
    if (n.start) put(out, {indent, "[*] --> ", prefix, ids[n.id], "\n"});
  }
  for (const Edge& e : dag.edges) {
    put(out, {indent, prefix, ids[e.from], " --> "});
    if (dag.kind == "state-machine" && e.to == machine::kEnd) out += "[*]";
    else put(out, {prefix, ids[e.to]});
    std::string label = edge_label(e);
    if (!e.fired_at.empty()) put(label, {label.empty() ? "" : " ", "(fired ×", std::to_string(e.fired_at.size()), ")"});
    if (!label.empty()) put(out, {" : ", mermaid_text(label)});
    out += "\n";
  }
  for (const Node& n : dag.nodes) {
    for (const std::string& b : n.branches) {
      if (ids.count(b)) put(out, {indent, prefix, ids[n.id], " --> ", prefix, ids[b], " : ", mermaid_text(branch_label(n)), "\n"});  // undeclared: not drawn
    }
  }
  for (const Node& n : dag.nodes) {
    if (!n.subgraph) continue;
    const Nested child = nested(n, ids, prefix, indent);
    put(out, {indent, "state ", child.owner, " {\n"});
    for (const Node& state : child.dag.nodes) {
      if (state.type != "end") put(out, {child.indent, "state \"", state_name(state.id), "\" as ", child.prefix, child.ids[state.id], "\n"});
    }
    state_links(child.dag, child.ids, child.prefix, child.indent, out);
    put(out, {indent, "}\n"});
  }
}

// The class that highlights the agent a swarm's session is at, in either kind of diagram.
void active_class(const Dag& dag, const GeneratedIds& ids, std::string& out) {
  bool any_active = false;
  for (const Node& n : dag.nodes) {
    if (n.active) put(out, {"  class ", ids[n.id], " active\n"});
    any_active = any_active || n.active;
  }
  if (any_active) put(out, {"  classDef active fill:", kActiveFill, ",stroke:", kFired, ",stroke-width:3px\n"});
}

}  // namespace

std::string to_mermaid(const Dag& dag, const MermaidOptions& options) {
  auto ids = generated_ids(dag);
  std::string out;
  if (options.kind == "state") {
    out += "stateDiagram-v2\n";
    put(out, {"  direction ", options.direction == "TD" ? std::string_view("TB") : std::string_view(options.direction), "\n"});
    for (const Node& n : dag.nodes) {
      if (n.type == "end") continue;
      put(out, {"  state \"", state_name(n.id), "\" as ", ids[n.id], "\n"});
    }
    state_links(dag, ids, "", "  ", out);
    for (const Node& n : dag.nodes) {
      if (n.type != "end" && n.visits && *n.visits > 0) put(out, {"  class ", ids[n.id], " visited\n"});
    }
    if (dag.run) put(out, {"  classDef visited stroke:", kFired, ",stroke-width:3px\n"});
    active_class(dag, ids, out);
    return out;
  }

  put(out, {"flowchart ", options.direction, "\n"});
  flowchart_nodes(dag, ids, "", "  ", out);
  bool any_start = false;
  for (const Node& n : dag.nodes) {
    if (n.start) {
      put(out, {"  start((\" \")) --> ", ids[n.id], "\n"});
      any_start = true;
    }
  }
  flowchart_links(dag, ids, "", "  ", out);
  // Edges are the links after the start's, in order.
  const std::size_t first_link = any_start ? 1 : 0;
  for (std::size_t i = 0; i < dag.edges.size(); ++i) {
    if (!dag.edges[i].fired_at.empty()) put(out, {"  linkStyle ", std::to_string(first_link + i), " stroke:", kFired, ",stroke-width:3px\n"});
  }
  active_class(dag, ids, out);
  if (finished_run(dag)) {
    for (std::size_t i = 0; i < dag.edges.size(); ++i) {
      if (dag.edges[i].fired_at.empty()) put(out, {"  linkStyle ", std::to_string(first_link + i), " stroke:", kUnfired, ",color:", kUnfired, "\n"});
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// DOT (Graphviz). Every id and label is a quoted string with '"' and '\' escaped, so that no
// label is read as an escape sequence or as syntax.

namespace {

std::string dot_string(const std::string& text) {
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size();) {
    std::size_t at = i;
    char32_t c = condition::unicode::decode_utf8(text, i);
    if (c == '"') out += "\\\"";
    else if (c == '&') out += "&amp;";  // Graphviz decodes HTML entities in labels
    else if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == condition::unicode::kInvalid || c < 0x20 || c == 0x7F) out += ' ';
    else out.append(text, at, i - at);
  }
  out += '"';
  return out;
}

// Whether Graphviz draws the label: a label of nothing but white space makes Graphviz 2.43 abort
// beside an xlabel, so it is left out.
bool visible(const std::string& label) {
  return std::any_of(label.begin(), label.end(), [](char c) { return c != ' ' && c != '\n' && c != '\t' && c != '\r'; });
}

// DOT's style of a swarm's edge: rules solid (the default), LLM edges dashed, hybrids bold,
// continuations dotted.
const char* swarm_style(const Edge& e) {
  if (e.via == "llm") return "style=dashed";
  if (e.via == "hybrid") return "style=bold";
  if (e.via == "continuation") return "style=dotted";
  return nullptr;
}

// DOT's node statements: ids prefixed with `prefix` (a cluster's, by its subgraph state's id), each
// after `indent`.
void dot_nodes(const Dag& dag, const GeneratedIds& ids, const std::string& prefix, const std::string& indent, std::string& out) {
  for (const Node& n : dag.nodes) {
    put(out, {indent, prefix, ids[n.id], " [label=", dot_string(node_label(n))});
    if (n.type == "end") out += ", shape=doublecircle, style=solid";
    if (!n.description.empty()) put(out, {", tooltip=", dot_string(n.description)});
    if (n.visits && *n.visits > 0) put(out, {", color=\"", kFired, "\", penwidth=2"});
    if (n.active) put(out, {", style=\"rounded,filled\", fillcolor=\"", kActiveFill, "\", color=\"", kFired, "\", penwidth=2"});
    out += "];\n";
  }
}

// DOT's edge statements, bold edges to fan-out branches, then each subgraph state's machine as a
// `cluster`: its states' ids prefixed by the state's, its own subgraphs nested, and a dotted edge
// from the state to the machine's start.
void dot_links(const Dag& dag, const GeneratedIds& ids, const std::string& prefix, const std::string& indent, std::string& out) {
  const bool in_cluster = !prefix.empty();  // the top level's ids have no prefix
  for (const Edge& e : dag.edges) {
    put(out, {indent, prefix, ids[e.from], " -> ", prefix, ids[e.to], " ["});
    std::string_view separator;  // none before the first attribute
    auto attribute = [&](std::initializer_list<std::string_view> parts) {
      out += separator;
      put(out, parts);
      separator = ", ";
    };
    std::string label = edge_label(e);
    if (visible(label)) attribute({"label=", dot_string(label)});
    // A conditional edge is solid, which a cluster's edge says and the top level's leaves to DOT.
    const char* style = dag.kind == "swarm" ? swarm_style(e) : !conditional(e) ? "style=dashed" : in_cluster ? "style=solid" : nullptr;
    if (style != nullptr) attribute({style});
    if (!e.fired_at.empty()) {
      attribute({"color=\"", kFired, "\", penwidth=2.5, xlabel=\"×", std::to_string(e.fired_at.size()), "\""});
    } else if (finished_run(dag)) {
      attribute({"color=\"", kUnfired, "\", fontcolor=\"", kUnfired, "\""});
    }
    out += "];\n";
  }
  for (const Node& n : dag.nodes) {
    for (const std::string& b : n.branches) {
      if (!ids.count(b)) continue;  // an undeclared branch (validate() reports it) is not drawn
      put(out, {indent, prefix, ids[n.id], " -> ", prefix, ids[b], " [label=", dot_string(branch_label(n)), ", style=bold, arrowhead=onormal];\n"});
    }
  }
  for (const Node& n : dag.nodes) {
    if (!n.subgraph) continue;
    const Nested child = nested(n, ids, prefix, indent);
    put(out, {indent, "subgraph \"cluster_", child.prefix, "\" {\n", child.indent, "label=", dot_string(child.dag.name), "; style=rounded;\n"});
    dot_nodes(child.dag, child.ids, child.prefix, child.indent, out);
    dot_links(child.dag, child.ids, child.prefix, child.indent, out);
    put(out, {indent, "}\n"});
    for (const Node& state : child.dag.nodes) {
      if (state.start) put(out, {indent, child.owner, " -> ", child.prefix, child.ids[state.id], " [style=dotted, arrowhead=none];\n"});
    }
  }
}

}  // namespace

std::string to_dot(const Dag& dag) {
  auto ids = generated_ids(dag);
  std::string out;
  put(out, {"digraph ", dot_string(dag.name.empty() ? dag.kind : dag.name),
            " {\n  graph [rankdir=TB, charset=\"UTF-8\"];\n  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n"
            "  edge [fontname=\"Helvetica\", fontsize=10];\n"});
  dot_nodes(dag, ids, "", "  ", out);
  for (const Node& n : dag.nodes) {
    if (n.start) put(out, {"  start [shape=point, width=0.15];\n  start -> ", ids[n.id], ";\n"});
  }
  dot_links(dag, ids, "", "  ", out);
  out += "}\n";
  return out;
}

// ---------------------------------------------------------------------------------------------
// AgentEnsemble's DagModel 1.3, graph mode (agentensemble-devtools' DagExporter for a Graph):
// states get ids "0", "1", … in declaration order and the END cap the next one; members are in
// the order of DagModel's, DagTaskNode's and DagGraphEdge's fields, nulls included, as Jackson
// writes them.

Json to_agentensemble_json(const Dag& dag, std::string_view generated_at) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t i = 0; i < dag.nodes.size(); ++i) {
    if (dag.nodes[i].type == "state") order.push_back(i);
  }
  // In declaration order (unique per state).
  std::sort(order.begin(), order.end(),
            [&dag](std::uint32_t a, std::uint32_t b) { return dag.nodes[a].declared < dag.nodes[b].declared; });
  std::vector<const Node*> states;
  states.reserve(order.size());
  for (std::uint32_t i : order) states.push_back(&dag.nodes[i]);
  GeneratedIds ids;
  for (std::size_t i = 0; i < states.size(); ++i) ids.set(states[i]->id, std::to_string(i));
  const std::string end_id = std::to_string(states.size());
  ids.set(machine::kEnd, end_id);

  auto task_node = [](const std::string& id, std::string description, std::string expected, std::string role,
                      const char* node_type) {
    Json made = Json::object();
    made["id"] = id;
    made["description"] = std::move(description);
    made["expectedOutput"] = std::move(expected);
    made["agentRole"] = std::move(role);
    made["dependsOn"] = Json::array();
    made["parallelGroup"] = 0;
    made["onCriticalPath"] = false;
    made["nodeType"] = node_type;
    made["mapReduceLevel"] = nullptr;
    made["loopMaxIterations"] = nullptr;
    made["loopBody"] = nullptr;
    return made;
  };
  Json tasks = Json::array();
  std::string start_id;
  for (const Node* n : states) {
    // AgentEnsemble writes "<state>: <task description>"; a state without a task is its name.
    std::string description = n->task ? n->id + ": " + *n->task : n->id;
    // Handlers are code, as AgentEnsemble's deterministic handlers are.
    tasks.push_back(task_node(ids[n->id], std::move(description), "", "(deterministic)", "graph-state"));
    if (n->start) start_id = ids[n->id];
  }
  tasks.push_back(task_node(end_id, "END", "(terminal)", "(terminal)", "graph-end"));

  Json edges = Json::array();
  for (const Edge& e : dag.edges) {
    // A condition is its own description; an edge's description, when it has one, is the label
    // the author wrote for it.
    std::optional<std::string> label;
    if (!e.description.empty()) label = e.description;
    else if (e.when) label = *e.when;
    Json item = Json::object();
    item["fromStateId"] = ids[e.from];
    item["toStateId"] = ids[e.to];
    item["conditionDescription"] = label ? Json(*label) : Json(nullptr);
    item["unconditional"] = !conditional(e);
    item["fired"] = !e.fired_at.empty();
    edges.push_back(std::move(item));
  }

  Json termination = nullptr;
  Json steps = nullptr;
  if (dag.run) {
    const std::string& reason = dag.run->reason;
    termination = reason == "end" ? Json("terminal") : reason == "max-steps" ? Json("maxSteps") : reason.empty() ? Json() : Json(reason);
    steps = dag.run->steps_run;
  }
  Json made = Json::object();
  made["schemaVersion"] = "1.3";
  made["type"] = "dag";
  made["workflow"] = "GRAPH";
  made["generatedAt"] = generated_at;
  made["agents"] = Json::array();
  made["tasks"] = std::move(tasks);
  made["parallelGroups"] = Json::array();
  made["criticalPath"] = Json::array();
  made["mapReduceMode"] = nullptr;
  made["mode"] = "graph";
  made["graphEdges"] = std::move(edges);
  made["graphStartStateId"] = start_id.empty() ? Json(nullptr) : Json(start_id);
  made["graphTerminationReason"] = std::move(termination);
  made["graphStepsRun"] = std::move(steps);
  return made;
}

Expected<std::string, std::string> render(Dag dag, std::string_view trace, std::string_view format,
                                          const MermaidOptions& mermaid, std::string_view generated_at) {
  if (format != "dag" && format != "agentensemble" && format != "mermaid" && format != "dot") {
    return unexpected("unknown export format '" + std::string(format) + "' (dag, agentensemble, mermaid or dot)");
  }
  if (format == "agentensemble" && dag.kind != "state-machine") {
    return unexpected(std::string("the AgentEnsemble DagModel is a state machine's export (its graph mode); a graph has none"));
  }
  if (!trace.empty()) {
    auto parsed = core::parse_json(trace).value;
    if (parsed.is_discarded()) return unexpected(std::string("cannot mark this trace: the trace is not JSON"));
    auto applied = dag.kind == "swarm" ? apply_session(dag, parsed) : apply_trace(dag, parsed);
    if (!applied) return unexpected("cannot mark this trace: " + applied.error());
  }
  if (format == "dag") return core::dump_json(to_json(dag));
  if (format == "agentensemble") return core::dump_json(to_agentensemble_json(dag, generated_at));
  if (format == "dot") return to_dot(dag);
  return to_mermaid(dag, mermaid);
}

}  // namespace handoff::dag
