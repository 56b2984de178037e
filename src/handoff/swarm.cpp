#include "handoff/swarm.h"

#include <algorithm>

#include "core/string_index.h"

namespace handoff::swarm {
namespace {

constexpr std::size_t kMaxToolName = 64;

bool valid_tool_name(const std::string& name) {
  if (name.empty() || name.size() > kMaxToolName) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

// transfer_to_<id> with every character outside [a-zA-Z0-9_-] (a UTF-8 sequence counts as one)
// replaced by '_', cut to 64.
std::string generated_tool_name(const std::string& to) {
  std::string out = "transfer_to_";
  for (char byte : to) {
    auto c = static_cast<unsigned char>(byte);
    if ((c & 0xC0) == 0x80) continue;  // a continuation byte: its lead byte was replaced already
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    out += ok ? static_cast<char>(c) : '_';
  }
  return out.substr(0, kMaxToolName);
}

// One string key for the pair (agent id, tool name): the id's length first, so that no two pairs
// make the same key, whatever characters they hold.
std::string tool_key(const std::string& agent, const std::string& tool) {
  return std::to_string(agent.size()) + ':' + agent + tool;
}

using definition::quoted;
using definition::Reader;

// An agent's `mcpServers` (each a server name, or { server, prefix }) and `mcpApproval` (names of
// those servers' tools, as offered, whose calls need a human's approval).
void read_mcp(Reader& r, const Json& a, const std::string& pointer, Agent& agent) {
  if (a.contains("mcpServers")) {
    const Json& servers = json::member(a, "mcpServers");
    if (!servers.is_array()) r.member_problem(pointer, "mcpServers", "expected an array of MCP server names (or { server, prefix })");
    StringKeys seen;
    for (std::size_t k = 0; servers.is_array() && k < servers.size(); ++k) {
      const Json& s = servers[k];
      std::string at = pointer + "/mcpServers/" + std::to_string(k);
      McpServer server;
      if (s.is_string()) {
        server.server = s.get<std::string>();
      } else if (s.is_object()) {
        r.only(s, at, {"server", "prefix"});
        if (const std::string* n = r.string(s, at, "server", true)) server.server = *n;
        if (const std::string* p = r.string(s, at, "prefix", false)) {
          if (p->size() >= kMaxToolName || !valid_tool_name(*p))
            r.member_problem(at, "prefix", "a prefix must match ^[a-zA-Z0-9_-]{1,63}$: it begins tool names");
          server.prefix = *p;
        }
      } else {
        r.problem(at, "expected an MCP server name or { server, prefix }");
        continue;
      }
      if (server.server.empty()) r.problem(at, "an MCP server needs a name: the key of its client in the Swarm's `mcp` option");
      else if (!seen.insert(server.server).second) r.problem(at, quoted("MCP server '", server.server, "' is listed twice"));
      agent.mcp_servers.push_back(std::move(server));
    }
  }
  if (a.contains("mcpApproval")) {
    const Json& names = json::member(a, "mcpApproval");
    if (!names.is_array()) r.member_problem(pointer, "mcpApproval", "expected an array of MCP tool names");
    if (agent.mcp_servers.empty()) r.member_problem(pointer, "mcpApproval", "the agent names no mcpServers whose tools could need approval");
    for (std::size_t k = 0; names.is_array() && k < names.size(); ++k) {
      std::string at = pointer + "/mcpApproval/" + std::to_string(k);
      if (!names[k].is_string() || !valid_tool_name(names[k].get_ref<const std::string&>())) {
        r.problem(at, "expected a tool name (^[a-zA-Z0-9_-]{1,64}$, as offered: prefix included)");
      } else if (std::find(agent.mcp_approval.begin(), agent.mcp_approval.end(), names[k].get<std::string>()) != agent.mcp_approval.end()) {
        r.problem(at, quoted("'", names[k].get<std::string>(), "' is listed twice"));
      } else {
        agent.mcp_approval.push_back(names[k].get<std::string>());
      }
    }
  }
}

}  // namespace

const Agent* Swarm::agent(const std::string& id) const {
  for (const Agent& a : agents_) {
    if (a.id == id) return &a;
  }
  return nullptr;
}

const Agent& Swarm::entry() const {
  for (const Agent& a : agents_) {
    if (a.entry) return a;
  }
  return agents_.front();  // a swarm of one agent needs no mark
}

Expected<std::unique_ptr<Swarm>, std::vector<definition::Problem>> Swarm::from_json(const Json& document) {
  Reader r;
  auto swarm = std::make_unique<Swarm>();
  if (!document.is_object()) {
    r.problem("", "expected an object");
    return unexpected(std::move(r.problems));
  }
  r.only(document, "", {"format", "version", "name", "maxHops", "context", "includeSystem", "transferTools", "agents", "edges"});
  r.format_and_version(document, kSwarmFormat, kSwarmVersion);
  if (const std::string* name = r.string(document, "", "name", false)) swarm->name_ = *name;
  if (auto hops = r.count(document, "", "maxHops")) swarm->max_hops_ = *hops;
  if (const std::string* context = r.string(document, "", "context", false)) swarm->context_ = *context;
  if (auto system = r.boolean(document, "", "includeSystem")) swarm->include_system_ = *system;
  if (const std::string* mode = r.string(document, "", "transferTools", false)) {
    if (*mode == "single") swarm->single_tool_ = true;
    else if (*mode != "per-target") r.problem("/transferTools", "expected \"per-target\" (one tool per edge, the default) or \"single\" (one transfer_to_agent tool)");
  }

  const Json& agents = json::member(document, "agents");  // null when absent
  if (!agents.is_array() || agents.empty()) r.problem("/agents", "expected a non-empty array of agents");
  StringKeys ids;
  std::size_t entries = 0;
  for (std::size_t i = 0; agents.is_array() && i < agents.size(); ++i) {
    const Json& a = agents[i];
    std::string pointer = "/agents/" + std::to_string(i);
    if (!a.is_object()) {
      r.problem(pointer, "expected an object");
      continue;
    }
    r.only(a, pointer, {"id", "name", "description", "instructions", "entry", "handoffs", "outputNodes", "visibleVariables", "tools", "mcpServers", "mcpApproval"});
    const std::string* id = r.string(a, pointer, "id", true);
    if (!id) continue;
    if (id->empty()) r.member_problem(pointer, "id", "an agent id must not be empty");
    if (!ids.insert(*id).second) r.member_problem(pointer, "id", quoted("agent '", *id, "' is declared twice"));
    Agent& agent = swarm->agents_.emplace_back();  // filled in place
    agent.id = *id;
    if (const std::string* v = r.string(a, pointer, "name", false)) agent.name = *v;
    if (const std::string* v = r.string(a, pointer, "description", false)) agent.description = *v;
    if (const std::string* v = r.string(a, pointer, "instructions", false)) agent.instructions = *v;
    agent.entry = r.boolean(a, pointer, "entry").value_or(false);
    // null is MAG's "handoffs disabled"; a count is the agent's selection limit.
    if (a.contains("handoffs") && json::member(a, "handoffs").is_null())
      agent.handoffs_disabled = true;
    else agent.handoffs = r.count(a, pointer, "handoffs");
    if (a.contains("visibleVariables")) {
      const Json& names = json::member(a, "visibleVariables");
      std::vector<std::string> visible;
      if (!names.is_array()) r.member_problem(pointer, "visibleVariables", "expected an array of variable names");
      for (std::size_t k = 0; names.is_array() && k < names.size(); ++k) {
        const std::string* name = names[k].is_string() ? &names[k].get_ref<const std::string&>() : nullptr;
        if (name == nullptr || name->empty()) {
          r.problem(pointer + "/visibleVariables/" + std::to_string(k), "expected a variable name");
        } else if (std::find(visible.begin(), visible.end(), *name) != visible.end()) {
          r.problem(pointer + "/visibleVariables/" + std::to_string(k), quoted("'", *name, "' is listed twice"));
        } else {
          visible.push_back(*name);
        }
      }
      agent.visible_variables = std::move(visible);
    }
    if (agent.entry && ++entries > 1) r.member_problem(pointer, "entry", "only one agent can be the entry agent");
    if (a.contains("tools")) {
      const Json& tools = json::member(a, "tools");
      if (!tools.is_array()) r.member_problem(pointer, "tools", "expected an array");
      StringKeys names;
      for (std::size_t k = 0; tools.is_array() && k < tools.size(); ++k) {
        const Json& t = tools[k];
        std::string at = pointer + "/tools/" + std::to_string(k);
        if (!t.is_object()) {
          r.problem(at, "expected an object");
          continue;
        }
        r.only(t, at, {"name", "description", "parameters", "approval"});
        AgentTool& tool = agent.tools.emplace_back();
        if (const std::string* n = r.string(t, at, "name", true)) {
          if (!valid_tool_name(*n)) r.member_problem(at, "name", "a tool name must match ^[a-zA-Z0-9_-]{1,64}$");
          else if (!names.insert(*n).second) r.member_problem(at, "name", quoted("tool '", *n, "' is declared twice"));
          tool.name = *n;
        }
        const std::string* d = r.string(t, at, "description", true);
        if (d && d->empty()) r.member_problem(at, "description", "a tool needs a description: the model reads it to decide");
        if (d) tool.description = *d;
        tool.parameters = Json{{"type", "object"},
                               {"properties", Json::object()},
                               {"required", Json::array()},
                               {"additionalProperties", false}};
        if (t.contains("parameters")) {
          const Json& p = json::member(t, "parameters");
          if (!p.is_object() || json::member(p, "type") != "object")
            r.member_problem(at, "parameters", "expected a JSON Schema of type \"object\"");
          else tool.parameters = p;
        }
        tool.approval = r.boolean(t, at, "approval").value_or(false);
      }
    }
    read_mcp(r, a, pointer, agent);
  }

  const Json& edges = document.contains("edges") ? json::member(document, "edges") : Json::array();
  if (!edges.is_array()) r.problem("/edges", "expected an array");
  for (std::size_t i = 0; edges.is_array() && i < edges.size(); ++i) {
    const Json& e = edges[i];
    std::string pointer = "/edges/" + std::to_string(i);
    if (!e.is_object()) {
      r.problem(pointer, "expected an object");
      continue;
    }
    r.only(e, pointer, {"from", "to", "description", "when", "offer", "toolName", "requires", "context", "includeSystem", "approval", "continuation"});
    Edge& edge = swarm->edges_.emplace_back();  // filled in place
    const std::string* from = r.string(e, pointer, "from", true);
    const std::string* to = r.string(e, pointer, "to", true);
    if (from && !ids.count(*from)) r.member_problem(pointer, "from", quoted("'", *from, "' is not an agent of this swarm"));
    if (to && !ids.count(*to)) r.member_problem(pointer, "to", quoted("'", *to, "' is not an agent of this swarm"));
    if (from && to && *from == *to) r.problem(pointer, "an agent cannot hand off to itself");
    if (from) edge.from = *from;
    if (to) edge.to = *to;
    if (const std::string* v = r.string(e, pointer, "description", false)) edge.description = *v;
    if (const std::string* when = r.string(e, pointer, "when", false)) {
      auto compiled = condition::Condition::compile(*when, *swarm->strings_);
      if (compiled) edge.when.emplace(std::move(compiled.value()));
      else r.member_problem(pointer, "when", compiled.error().message);
    }
    auto offer = r.boolean(e, pointer, "offer");
    edge.continuation = r.boolean(e, pointer, "continuation").value_or(false);
    edge.offered = !edge.continuation && (json::member(e, "when").is_null() || offer.value_or(false));
    if (edge.continuation && offer.value_or(false)) r.member_problem(pointer, "offer", "a continuation edge is taken without the model, once its agent's handoffs are used up; it is not offered as a tool");
    if (edge.continuation && from) {
      const Agent* source = nullptr;
      for (const Agent& a : swarm->agents_) source = a.id == *from ? &a : source;
      if (source != nullptr && !source->handoffs && !source->handoffs_disabled) {
        r.member_problem(pointer, "continuation", quoted("agent '", *from, "' has no handoffs limit, so its selections never run out and this edge would never be taken; give it \"handoffs\": <count> or null"));
      }
    }
    if (offer && !*offer && !edge.when) r.member_problem(pointer, "offer", "an edge without `when` is always a tool; `offer: false` would make it unreachable");
    if (const std::string* name = r.string(e, pointer, "toolName", false)) {
      if (!valid_tool_name(*name)) r.member_problem(pointer, "toolName", "a tool name must match ^[a-zA-Z0-9_-]{1,64}$");
      if (!edge.offered) r.member_problem(pointer, "toolName", "a rule edge is not offered as a tool; add `offer: true`");
      else if (swarm->single_tool_) r.member_problem(pointer, "toolName", "with transferTools \"single\" every transfer is the one tool transfer_to_agent");
      edge.tool_name = *name;
    }
    if (const std::string* context = r.string(e, pointer, "context", false)) edge.context = *context;
    edge.include_system = r.boolean(e, pointer, "includeSystem");
    edge.approval = r.boolean(e, pointer, "approval").value_or(false);
    if (edge.approval && !edge.offered) r.member_problem(pointer, "approval", "a rule edge is taken without a model's call, so there is nothing to approve; approval applies to edges offered as tools");
    if (e.contains("requires")) {
      const Json& requires_ = json::member(e, "requires");
      if (!requires_.is_array()) r.member_problem(pointer, "requires", "expected an array");
      StringKeys names;
      for (std::size_t k = 0; requires_.is_array() && k < requires_.size(); ++k) {
        const Json& v = requires_[k];
        std::string at = pointer + "/requires/" + std::to_string(k);
        Variable variable;
        if (v.is_string()) {
          variable.name = v.get<std::string>();
        } else if (v.is_object()) {
          r.only(v, at, {"name", "from", "type", "description"});
          if (const std::string* n = r.string(v, at, "name", true)) variable.name = *n;
          if (const std::string* source = r.string(v, at, "from", false)) {
            if (*source == "model") variable.from_model = true;
            else if (*source != "state") r.member_problem(at, "from", "expected \"model\" or \"state\"");
          }
          if (const std::string* type = r.string(v, at, "type", false)) {
            if (*type == "string" || *type == "number" || *type == "integer" || *type == "boolean") variable.type = *type;
            else r.member_problem(at, "type", "expected \"string\", \"number\", \"integer\" or \"boolean\"");
          }
          if (const std::string* d = r.string(v, at, "description", false)) variable.description = *d;
        } else {
          r.problem(at, "expected a variable name or { name, from, type, description }");
          continue;
        }
        if (variable.name.empty()) r.problem(at, "a variable needs a name");
        else if (variable.name == "reason") r.problem(at, "'reason' is the transfer tools' own argument");
        else if (!names.insert(variable.name).second) r.problem(at, quoted("variable '", variable.name, "' is required twice"));
        if (variable.from_model && !edge.offered) r.member_problem(at, "from", "a rule edge has no model to supply this variable");
        edge.requires_.push_back(std::move(variable));
      }
    }
  }
  // outputNodes (MAG's output_nodes): one LLM edge per listed agent, after the declared edges, in
  // agent order. They are the set the model selects from, so the agent declares no other LLM edge.
  for (std::size_t i = 0; agents.is_array() && i < agents.size(); ++i) {
    const Json& a = agents[i];
    if (!a.is_object() || !a.contains("outputNodes") || !json::member(a, "id").is_string()) continue;
    std::string pointer = "/agents/" + std::to_string(i) + "/outputNodes";
    const std::string& id = json::member(a, "id").get_ref<const std::string&>();
    const Json& nodes = json::member(a, "outputNodes");
    if (!nodes.is_array() || nodes.size() < 2) {
      r.problem(pointer, "expected an array of at least two agent ids: the targets the model selects from");
      continue;
    }
    for (std::size_t k = 0; k < swarm->edges_.size(); ++k) {
      if (swarm->edges_[k].from == id && swarm->edges_[k].offered) {
        r.problem("/edges/" + std::to_string(k), quoted("agent '", id, "' lists outputNodes, which are its transfer edges; declare this target there"));
      }
    }
    StringKeys seen;
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      std::string at = pointer + "/" + std::to_string(k);
      if (!nodes[k].is_string()) {
        r.problem(at, "expected an agent id");
        continue;
      }
      const std::string& to = nodes[k].get_ref<const std::string&>();
      if (!ids.count(to)) r.problem(at, quoted("'", to, "' is not an agent of this swarm"));
      else if (to == id) r.problem(at, "an agent cannot hand off to itself");
      else if (!seen.insert(to).second) r.problem(at, quoted("'", to, "' is listed twice"));
      else {
        Edge& edge = swarm->edges_.emplace_back();
        edge.from = id;
        edge.to = to;
      }
    }
  }
  if (entries == 0 && swarm->agents_.size() > 1) {
    r.problem("/agents", "mark the agent sessions start with: exactly one agent needs \"entry\": true");
  }
  {  // every problem at once: tool names are checked even when other parts have problems
    swarm->assign_tool_names();
    StringMap<std::size_t> used;  // by tool_key(agent, tool name): the edge, or SIZE_MAX for the agent's own tool
    for (const Agent& agent : swarm->agents_) {
      for (const AgentTool& tool : agent.tools) used.try_emplace(tool_key(agent.id, tool.name), SIZE_MAX);
    }
    for (std::size_t i = 0; i < swarm->edges_.size(); ++i) {
      const Edge& e = swarm->edges_[i];
      if (!e.offered) continue;
      if (swarm->single_tool_) {  // one tool for every edge: only an agent tool of that name collides
        const std::size_t* clash = used.find(tool_key(e.from, e.tool_name));
        if (clash != nullptr && *clash == SIZE_MAX) {
          r.problem("/edges/" + std::to_string(i), quoted("agent '", e.from, "' has a tool named ", e.tool_name, ", the swarm's single transfer tool"));
        }
        continue;
      }
      auto [edge, inserted] = used.try_emplace(tool_key(e.from, e.tool_name), i);
      if (!inserted && *edge == SIZE_MAX) {
        r.problem("/edges/" + std::to_string(i) + "/toolName", quoted("tool '", e.tool_name, "' is already a tool of agent '", e.from, "'"));
        continue;
      }
      if (!inserted) {
        r.problem("/edges/" + std::to_string(i) + "/toolName",
                  "tool '" + e.tool_name + "' is already the name of edge " + std::to_string(*edge));
      }
    }
  }
  if (!r.problems.empty()) return unexpected(std::move(r.problems));
  return swarm;
}

// Per agent, in declaration order: explicit names are kept; generated ones avoid every name taken
// so far by appending _2, _3, … (cutting the base so that the whole stays within 64 characters).
void Swarm::assign_tool_names() {
  StringKeys taken;  // tool_key(agent, tool name)
  for (const Agent& a : agents_) {
    for (const AgentTool& tool : a.tools) taken.insert(tool_key(a.id, tool.name));
  }
  for (const Edge& e : edges_) {
    if (e.offered && !e.tool_name.empty()) taken.insert(tool_key(e.from, e.tool_name));
  }
  for (Edge& e : edges_) {
    if (e.offered && single_tool_) e.tool_name = kSingleTransferTool;
    if (!e.offered || !e.tool_name.empty()) continue;
    std::string base = generated_tool_name(e.to);
    std::string name = base;
    for (int n = 2; taken.count(tool_key(e.from, name)); ++n) {
      std::string suffix = "_" + std::to_string(n);
      name = base.substr(0, kMaxToolName - suffix.size()) + suffix;
    }
    taken.insert(tool_key(e.from, name));
    e.tool_name = name;
  }
}

Json Swarm::to_json() const {
  Json agents = Json::array();
  for (const Agent& a : agents_) {
    Json agent = Json::object();
    agent["id"] = a.id;
    if (!a.name.empty()) agent["name"] = a.name;
    if (!a.description.empty()) agent["description"] = a.description;
    if (!a.instructions.empty()) agent["instructions"] = a.instructions;
    if (a.entry) agent["entry"] = true;
    if (a.handoffs) agent["handoffs"] = *a.handoffs;
    if (a.handoffs_disabled) agent["handoffs"] = nullptr;
    if (a.visible_variables) agent["visibleVariables"] = *a.visible_variables;
    if (!a.tools.empty()) {
      Json tools = Json::array();
      for (const AgentTool& t : a.tools) {
        Json tool = Json::object();
        tool["name"] = t.name;
        tool["description"] = t.description;
        tool["parameters"] = t.parameters;
        if (t.approval) tool["approval"] = true;
        tools.push_back(std::move(tool));
      }
      agent["tools"] = std::move(tools);
    }
    if (!a.mcp_servers.empty()) {
      Json servers = Json::array();
      for (const McpServer& m : a.mcp_servers) {
        if (m.prefix.empty()) servers.push_back(m.server);
        else servers.push_back(Json{{"server", m.server}, {"prefix", m.prefix}});
      }
      agent["mcpServers"] = std::move(servers);
    }
    if (!a.mcp_approval.empty()) agent["mcpApproval"] = a.mcp_approval;
    agents.push_back(std::move(agent));
  }
  Json edges = Json::array();
  for (const Edge& e : edges_) {
    Json edge = Json::object();
    edge["from"] = e.from;
    edge["to"] = e.to;
    if (!e.description.empty()) edge["description"] = e.description;
    if (e.when) edge["when"] = e.when->source();
    if (e.when && e.offered) edge["offer"] = true;
    if (e.offered && !single_tool_) edge["toolName"] = e.tool_name;
    if (e.continuation) edge["continuation"] = true;
    if (!e.requires_.empty()) {
      Json requires_ = Json::array();
      for (const Variable& v : e.requires_) {
        Json variable = Json::object();
        variable["name"] = v.name;
        variable["from"] = v.from_model ? "model" : "state";
        variable["type"] = v.type;
        if (!v.description.empty()) variable["description"] = v.description;
        requires_.push_back(std::move(variable));
      }
      edge["requires"] = std::move(requires_);
    }
    if (!e.context.empty()) edge["context"] = e.context;
    if (e.include_system) edge["includeSystem"] = *e.include_system;
    if (e.approval) edge["approval"] = true;
    edges.push_back(std::move(edge));
  }
  Json out = Json::object();
  out["format"] = kSwarmFormat;
  out["version"] = kSwarmVersion;
  if (!name_.empty()) out["name"] = name_;
  out["maxHops"] = max_hops_;
  out["context"] = context_;
  out["includeSystem"] = include_system_;
  if (single_tool_) out["transferTools"] = "single";
  out["agents"] = std::move(agents);
  out["edges"] = std::move(edges);
  return out;
}

}  // namespace handoff::swarm
