#include "handoff/policy.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "core/json.h"

namespace handoff::swarm {
namespace {

using definition::quoted;

bool holds(const Swarm& swarm, const Edge& edge, const Json& variables) {
  if (!edge.when) return true;
  return condition::evaluate(*edge.when, variables, swarm.strings());
}

bool present(const Json& variables, const std::string& name) {
  auto it = variables.find(name);
  return it != variables.end() && !it->is_null();
}

bool has_type(const Json& value, const std::string& type) {
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "integer") return value.is_number_integer() || (value.is_number_float() && std::floor(value.get<double>()) == value.get<double>());
  return value.is_number();
}

bool within_limits(const Swarm& swarm, const SessionCore& session) { return session.hops < swarm.max_hops(); }

bool selections_left(const Swarm& swarm, const SessionCore& session) {
  const Agent* agent = swarm.agent(session.active);
  if (agent != nullptr && agent->handoffs_disabled) return false;
  if (agent == nullptr || !agent->handoffs) return true;
  const std::uint32_t* used = session.selections.find(session.active);
  return (used == nullptr ? 0 : *used) < *agent->handoffs;
}

// OpenAI's strict mode, as strict_compatible documents it. Schemas nested deeper than this are
// not checked further and count as not strict (the walk is recursive).
constexpr int kMaxStrictDepth = 64;

bool strict_schema(const Json& schema, int depth);

// Whether the array `list` holds the string `text`.
bool lists_string(const Json& list, const std::string& text) {
  return std::any_of(list.begin(), list.end(), [&](const Json& item) { return item.is_string() && item.get_ref<const std::string&>() == text; });
}

bool all_strict(const Json& schemas, int depth) {
  if (schemas.is_array()) {
    for (const Json& s : schemas) {
      if (!strict_schema(s, depth)) return false;
    }
    return true;
  }
  if (schemas.is_object()) {
    for (const auto& [key, s] : schemas.items()) {
      if (!strict_schema(s, depth)) return false;
    }
    return true;
  }
  return false;
}

bool schema_has_type(const Json& schema, const char* type) {
  const Json& t = json::member(schema, "type");  // null when absent
  if (t.is_string()) return t == type;
  if (!t.is_array()) return false;
  for (const Json& one : t) {
    if (one == type) return true;
  }
  return false;
}

bool strict_schema(const Json& schema, int depth) {
  if (!schema.is_object() || depth > kMaxStrictDepth) return false;
  for (const char* unsupported : {"allOf", "oneOf", "not", "if", "then", "else", "patternProperties"}) {
    if (schema.contains(unsupported)) return false;
  }
  if (schema_has_type(schema, "object") || schema.contains("properties")) {
    // A reference, never a copy: copying recurses through the whole subtree, however deep.
    static const Json kNoProperties = Json::object();
    const Json& properties = schema.contains("properties") ? json::member(schema, "properties") : kNoProperties;
    if (!properties.is_object()) return false;
    const Json& additional = json::member(schema, "additionalProperties");  // null when absent
    if (!additional.is_boolean() || additional.get<bool>()) return false;
    if (!json::member(schema, "required").is_array()) return false;
    const Json& required = json::member(schema, "required");
    for (const auto& [name, property] : properties.items()) {
      if (!lists_string(required, name)) return false;
    }
    if (!all_strict(properties, depth + 1)) return false;
  }
  if (schema.contains("items") && !strict_schema(json::member(schema, "items"), depth + 1)) return false;
  for (const char* group : {"anyOf", "$defs", "definitions"}) {
    if (schema.contains(group) && !all_strict(json::member(schema, group), depth + 1)) return false;
  }
  return true;
}

std::string agent_label(const Swarm& swarm, const std::string& id) {
  const Agent* agent = swarm.agent(id);
  return agent != nullptr && !agent->name.empty() ? agent->name : id;
}

// A strict JSON Schema of an object: these properties, all required, nothing else.
Json object_schema(Json properties, Json required) {
  Json made = Json::object();
  made["type"] = "object";
  made["properties"] = std::move(properties);
  made["required"] = std::move(required);
  made["additionalProperties"] = false;
  return made;
}

Json schema_of(const Swarm& swarm, const Edge& edge) {
  Json properties = Json::object();
  properties["reason"]["type"] = Json::array({"string", "null"});
  properties["reason"]["description"] =
      "Why the conversation should go to " + agent_label(swarm, edge.to) + " (optional).";
  Json required = Json::array({"reason"});
  for (const Variable& v : edge.requires_) {
    if (!v.from_model) continue;
    Json property = Json::object();
    property["type"] = v.type;
    if (!v.description.empty()) property["description"] = v.description;
    properties[v.name] = std::move(property);
    required.push_back(v.name);
  }
  // Strict: every property listed as required (OpenAI's strict mode asks for it; `reason` is
  // optional by being nullable), and nothing else accepted.
  return object_schema(std::move(properties), std::move(required));
}

// The edge's description, else the target agent's (MAG's node description: what the agent is
// for helps the model choose), else a sentence naming the target.
std::string description_of(const Swarm& swarm, const Edge& edge) {
  if (!edge.description.empty()) return edge.description;
  const Agent* target = swarm.agent(edge.to);
  if (target != nullptr && !target->description.empty()) return target->description;
  return "Hand the conversation over to " + agent_label(swarm, edge.to) + ".";
}

// The single transfer tool's schema: `agent`, an enum of the targets offered (each once, in
// declaration order), `reason`, and every model-supplied variable of those edges, nullable (strict
// mode lists every property as required; a variable another target needs is sent as null).
Json single_schema(const Swarm& swarm, const std::vector<const Edge*>& edges) {
  Json targets = Json::array();
  Json properties = Json::object();
  for (const Edge* edge : edges) {
    if (!lists_string(targets, edge->to)) targets.push_back(edge->to);
  }
  properties["agent"]["type"] = "string";
  properties["agent"]["enum"] = std::move(targets);
  properties["agent"]["description"] = "The agent to hand the conversation over to.";
  properties["reason"]["type"] = Json::array({"string", "null"});
  properties["reason"]["description"] = "Why the conversation should go to that agent (optional).";
  Json required = Json::array({"agent", "reason"});
  for (const Edge* edge : edges) {
    for (const Variable& v : edge->requires_) {
      if (!v.from_model || properties.contains(v.name)) continue;
      Json property = Json::object();
      property["type"] = Json::array({v.type, "null"});
      property["description"] = (v.description.empty() ? "" : v.description + ". ") + "Needed to transfer to " + agent_label(swarm, edge->to) + "; null otherwise.";
      properties[v.name] = std::move(property);
      required.push_back(v.name);
    }
  }
  return object_schema(std::move(properties), std::move(required));
}

std::string single_description(const Swarm& swarm, const std::vector<const Edge*>& edges) {
  std::string out = "Hand the conversation over to another agent. The agents, and when to choose each:";
  std::vector<std::string> seen;
  for (const Edge* edge : edges) {
    if (std::find(seen.begin(), seen.end(), edge->to) != seen.end()) continue;
    seen.push_back(edge->to);
    out += " " + edge->to + ": " + description_of(swarm, *edge);
  }
  return out;
}

std::size_t index_of(const Swarm& swarm, const Edge& edge) { return static_cast<std::size_t>(&edge - swarm.edges().data()); }

Json handoff_outcome(const Swarm& swarm, SessionCore& session, const Edge& edge, const char* via, Json variables,
                     const Json& reason) {
  if (edge.continuation) via = "continuation";
  Json outcome = Json::object();
  outcome["type"] = "handoff";
  outcome["via"] = via;
  outcome["from"] = edge.from;
  outcome["to"] = edge.to;
  outcome["edge"] = index_of(swarm, edge);
  if (edge.offered && std::string(via) == "tool") {
    outcome["tool"] = edge.tool_name;
    ++session.selections[edge.from];
  }
  for (const Variable& v : edge.requires_) {
    if (!v.from_model) variables[v.name] = session.variables[v.name];
  }
  ++session.hops;
  session.active = edge.to;
  // SwarmForge's handoff event: what the edge requires and the values it went with.
  Json required = Json::array();
  for (const Variable& v : edge.requires_) required.push_back(v.name);
  outcome["requiredVariables"] = std::move(required);
  outcome["resolvedVariables"] = variables;
  outcome["variables"] = std::move(variables);
  outcome["reason"] = reason;
  return outcome;
}

Json blocked_outcome(const Swarm& swarm, const Edge& edge, Json missing, Json invalid, const std::string& why) {
  Json made = Json::object();
  made["type"] = "handoff_blocked";
  made["from"] = edge.from;
  made["to"] = edge.to;
  made["edge"] = index_of(swarm, edge);
  made["tool"] = edge.tool_name;
  made["missing"] = std::move(missing);
  made["invalid"] = std::move(invalid);
  made["rejectionReason"] = "Cannot transfer to " + agent_label(swarm, edge.to) + " yet: " + why;
  return made;
}

// `problem` after those in `problems`, "; " between.
void add_problem(std::string& problems, const std::string& problem) {
  if (!problems.empty()) problems += "; ";
  problems += problem;
}

// A fixed refusal: its string made here, not at each caller (issue 21).
[[gnu::noinline]] Unexpected<std::string> refusal(const char* why) { return unexpected(std::string(why)); }

Json rejected(std::string reason) { return Json{{"type", "rejected"}, {"reason", std::move(reason)}}; }

}  // namespace

SessionCore SessionCore::start(const Swarm& swarm) {
  SessionCore core;
  core.active = swarm.entry().id;
  return core;
}

Expected<SessionCore, std::string> SessionCore::from_json(const Swarm& swarm, const Json& json) {
  SessionCore core;
  if (!json.is_object()) return refusal("a session must be an object");
  if (!json::member(json, "active").is_string() ||
      swarm.agent(json::member(json, "active").get<std::string>()) == nullptr) {
    return refusal("the session's active agent is not an agent of this swarm");
  }
  core.active = json::member(json, "active").get<std::string>();
  if (json.contains("hops")) {
    if (!json::member(json, "hops").is_number_unsigned()) return refusal("'hops' must be a count");
    core.hops = json::member(json, "hops").get<std::uint32_t>();
  }
  if (json.contains("selections")) {
    const Json& s = json::member(json, "selections");
    if (!s.is_object()) return refusal("'selections' must be an object");
    for (auto it = s.begin(); it != s.end(); ++it) {
      if (!it->is_number_unsigned()) return refusal("'selections' must hold counts");
      core.selections[it.key()] = it->get<std::uint32_t>();
    }
  }
  if (json.contains("variables")) {
    if (!json::member(json, "variables").is_object()) return refusal("'variables' must be an object");
    core.variables = json::member(json, "variables");
  }
  return core;
}

Json SessionCore::to_json() const {
  Json selections_json = Json::object();
  for (const auto& [agent, count] : selections) selections_json[agent] = count;
  Json made = Json::object();
  made["active"] = active;
  made["hops"] = hops;
  made["selections"] = std::move(selections_json);
  made["variables"] = variables;
  return made;
}

namespace {

constexpr std::size_t kMaxToolNameLength = 64;

// `prefix`, then `name` with every character outside [a-zA-Z0-9_-] (a UTF-8 sequence counts as
// one) replaced by '_', cut to 64 characters.
std::string offered_name(const std::string& prefix, const std::string& name) {
  std::string out = prefix;
  for (char byte : name) {
    auto c = static_cast<unsigned char>(byte);
    if ((c & 0xC0) == 0x80) continue;  // a continuation byte: its lead byte was replaced already
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    out += ok ? static_cast<char>(c) : '_';
  }
  return out.substr(0, kMaxToolNameLength);
}

}  // namespace

Expected<std::vector<McpTool>, std::string> mcp_tools(const Swarm& swarm, const Agent& agent, const Json& listed) {
  std::vector<McpTool> out;
  if (agent.mcp_servers.empty() || !listed.is_object()) return out;
  // Every name the agent may be offered besides, with where it comes from.
  std::vector<std::pair<std::string, std::string>> taken;
  for (const AgentTool& tool : agent.tools) taken.emplace_back(tool.name, quoted("agent '", agent.id, "''s own tool '", tool.name, "'"));
  for (const Edge& edge : swarm.edges()) {
    if (edge.from == agent.id && edge.offered) {
      taken.emplace_back(edge.tool_name, quoted("the transfer tool '", edge.tool_name, "' (to ", edge.to, ")"));
    }
  }
  for (const McpServer& server : agent.mcp_servers) {
    auto found = listed.find(server.server);
    if (found == listed.end() || !found->is_array()) continue;
    for (const Json& tool : *found) {
      const Json& name = json::member(tool, "name");
      if (!name.is_string() || name.get_ref<const std::string&>().empty()) {
        return unexpected(quoted("MCP server '", server.server, "' listed a tool without a name"));
      }
      const std::string& own = name.get_ref<const std::string&>();
      McpTool made;
      made.name = offered_name(server.prefix, own);
      made.server = server.server;
      made.mcp_name = own;
      const Json& description = json::member(tool, "description");
      made.description = description.is_string() && !description.get_ref<const std::string&>().empty()
                             ? description.get<std::string>()
                             : quoted("Tool ", own, " of MCP server '", server.server, "'.");
      const Json& schema = json::member(tool, "inputSchema");
      made.schema = schema.is_object() && json::member(schema, "type") == "object"
                        ? schema
                        : Json{{"type", "object"}, {"properties", Json::object()}};
      made.approval = std::find(agent.mcp_approval.begin(), agent.mcp_approval.end(), made.name) != agent.mcp_approval.end();
      std::string source = quoted("tool '", own, "' of MCP server '", server.server, "'");
      for (const auto& [other, from] : taken) {
        if (other != made.name) continue;
        return unexpected(quoted("agent '", agent.id, "' is offered two tools named '", made.name, "': ") + source + " and " + from +
                          quoted("; give the server a prefix in mcpServers: { server: '", server.server, "', prefix: '", server.server, "_' }"));
      }
      taken.emplace_back(made.name, source);
      out.push_back(std::move(made));
    }
  }
  return out;
}

std::vector<const Edge*> offered_tools(const Swarm& swarm, const SessionCore& session) {
  std::vector<const Edge*> out;
  if (!within_limits(swarm, session) || !selections_left(swarm, session)) return out;
  for (const Edge& edge : swarm.edges()) {
    if (edge.from == session.active && edge.offered && holds(swarm, edge, session.variables)) out.push_back(&edge);
  }
  return out;
}

bool strict_compatible(const Json& schema) {
  return schema.is_object() && !schema.contains("anyOf") && json::member(schema, "type") == "object" &&
         strict_schema(schema, 0);
}

Expected<Json, std::string> tool_definitions(const Swarm& swarm, const Agent* agent, const std::vector<const Edge*>& edges,
                                             const std::string& format, const std::vector<McpTool>& mcp) {
  struct Tool {
    std::string name;
    std::string description;
    Json schema;
    bool strict;
  };
  std::vector<Tool> tools;
  if (agent != nullptr) {
    for (const AgentTool& tool : agent->tools) tools.push_back({tool.name, tool.description, tool.parameters, strict_compatible(tool.parameters)});
  }
  for (const McpTool& tool : mcp) tools.push_back({tool.name, tool.description, tool.schema, strict_compatible(tool.schema)});
  if (swarm.single_transfer_tool() && !edges.empty()) {
    tools.push_back({kSingleTransferTool, single_description(swarm, edges), single_schema(swarm, edges), true});
  } else {
    for (const Edge* edge : edges) tools.push_back({edge->tool_name, description_of(swarm, *edge), schema_of(swarm, *edge), true});
  }

  Json out = format == "ai-sdk" ? Json::object() : Json::array();
  for (Tool& tool : tools) {
    if (format == "openai-responses") {
      Json item = Json::object();
      item["type"] = "function";
      item["name"] = tool.name;
      item["description"] = tool.description;
      item["parameters"] = std::move(tool.schema);
      item["strict"] = tool.strict;
      out.push_back(std::move(item));
    } else if (format == "openai-chat") {
      Json item = Json::object();
      item["type"] = "function";
      item["function"]["name"] = tool.name;
      item["function"]["description"] = tool.description;
      item["function"]["parameters"] = std::move(tool.schema);
      item["function"]["strict"] = tool.strict;
      out.push_back(std::move(item));
    } else if (format == "anthropic") {
      Json item = Json::object();
      item["name"] = tool.name;
      item["description"] = tool.description;
      item["input_schema"] = std::move(tool.schema);
      out.push_back(std::move(item));
    } else if (format == "ai-sdk") {
      out[tool.name] =
          Json{{"description", tool.description}, {"inputSchema", std::move(tool.schema)}, {"strict", tool.strict}};
    } else {
      return unexpected(quoted("unknown tool format '", format, "' (openai-responses, openai-chat, anthropic, ai-sdk)"));
    }
  }
  return out;
}

Json apply_rules(const Swarm& swarm, SessionCore& session) {
  if (!within_limits(swarm, session)) return nullptr;
  // Continuation edges join the rules once the active agent has no selections left.
  const bool exhausted = !selections_left(swarm, session);
  for (const Edge& edge : swarm.edges()) {
    if (edge.from != session.active || edge.offered) continue;
    if (edge.continuation ? !exhausted : !edge.when) continue;
    if (!holds(swarm, edge, session.variables)) continue;
    bool ready = true;
    for (const Variable& v : edge.requires_) ready = ready && present(session.variables, v.name);
    if (ready) return handoff_outcome(swarm, session, edge, "rule", Json::object(), nullptr);
  }
  return nullptr;
}

Json apply_tool_call(const Swarm& swarm, SessionCore& session, const std::string& name, const Json& arguments, bool approved,
                     const Json& listed) {
  if (const Agent* agent = swarm.agent(session.active); agent != nullptr && !agent->mcp_servers.empty() && listed.is_object()) {
    auto mcp = mcp_tools(swarm, *agent, listed);
    if (!mcp) return rejected(mcp.error());
    for (const McpTool& tool : mcp.value()) {
      if (tool.name != name) continue;
      Json args = arguments.is_null() ? Json::object() : arguments;
      if (!args.is_object()) return rejected(quoted("the arguments of '", name, "' must be a JSON object"));
      Json made = Json::object();
      made["type"] = tool.approval && !approved ? "approval_required" : "tool";
      if (tool.approval && !approved) made["kind"] = "tool";
      made["agent"] = agent->id;
      made["tool"] = name;
      made["arguments"] = std::move(args);
      made["mcp"] = Json{{"server", tool.server}, {"tool", tool.mcp_name}};
      return made;
    }
  }
  if (const Agent* agent = swarm.agent(session.active)) {
    for (const AgentTool& tool : agent->tools) {
      if (tool.name != name) continue;
      Json args = arguments.is_null() ? Json::object() : arguments;
      if (!args.is_object()) return rejected(quoted("the arguments of '", name, "' must be a JSON object"));
      if (tool.approval && !approved) {
        Json made = Json::object();
        made["type"] = "approval_required";
        made["kind"] = "tool";
        made["agent"] = agent->id;
        made["tool"] = name;
        made["arguments"] = std::move(args);
        return made;
      }
      Json made = Json::object();
      made["type"] = "tool";
      made["agent"] = agent->id;
      made["tool"] = name;
      made["arguments"] = std::move(args);
      return made;
    }
  }
  const Edge* edge = nullptr;
  Json args = arguments.is_null() ? Json::object() : arguments;
  if (swarm.single_transfer_tool() && name == kSingleTransferTool) {
    // The target is an argument: the first edge to it offered now, else the first to it at all
    // (whose refusal then says why it is not offered).
    if (!args.is_object()) return rejected(quoted("the arguments of '", name, "' must be a JSON object"));
    auto target = args.find("agent");
    if (target == args.end() || !target->is_string()) return rejected(quoted("'", name, "' needs 'agent': the id of the agent to transfer to"));
    const std::string to = target->get<std::string>();
    for (const Edge& e : swarm.edges()) {
      if (e.from != session.active || !e.offered || e.to != to) continue;
      if (edge == nullptr || (!holds(swarm, *edge, session.variables) && holds(swarm, e, session.variables))) edge = &e;
    }
    if (edge == nullptr) {
      std::string allowed;
      for (const Edge* e : offered_tools(swarm, session)) allowed += (allowed.empty() ? "" : ", ") + e->to;
      return rejected("'" + name + "' cannot transfer to '" + to + "': agent '" + session.active + "' may transfer to " +
                      (allowed.empty() ? std::string("no agent now") : allowed));
    }
    // The schema sends every target's variables; the ones this edge does not take come as null.
    args.erase("agent");
    for (auto it = args.begin(); it != args.end();) {
      bool mine = it.key() == "reason";
      for (const Variable& v : edge->requires_) mine = mine || (v.from_model && v.name == it.key());
      it = !mine && it->is_null() ? args.erase(it) : std::next(it);
    }
  } else {
    for (const Edge& e : swarm.edges()) {
      if (e.from == session.active && e.offered && e.tool_name == name) edge = &e;
    }
  }
  if (edge == nullptr) return rejected(quoted("'", name, "' is not a tool of agent '", session.active, "'"));
  if (!within_limits(swarm, session)) {
    return rejected("'" + name + "' is not available: this session has used its " + std::to_string(swarm.max_hops()) + " handoffs");
  }
  if (!selections_left(swarm, session)) {
    const Agent* agent = swarm.agent(session.active);
    if (agent != nullptr && agent->handoffs_disabled) return rejected(quoted("'", name, "' is not available: agent '", session.active, "' has handoffs disabled"));
    return rejected(quoted("'", name, "' is not available: agent '", session.active, "' has used all its handoffs"));
  }
  if (!holds(swarm, *edge, session.variables)) {
    return rejected(quoted("'", name, "' is not available now: its condition `", edge->when->source(), "` does not hold"));
  }

  if (!args.is_object()) return rejected(quoted("the arguments of '", name, "' must be a JSON object"));
  for (auto it = args.begin(); it != args.end(); ++it) {
    bool known = it.key() == "reason";
    for (const Variable& v : edge->requires_) known = known || (v.from_model && v.name == it.key());
    if (!known) return rejected(quoted("'", name, "' has no argument '", it.key(), "'"));
  }
  Json reason = json::member(args, "reason");
  if (!reason.is_null() && !reason.is_string()) return rejected(quoted("the 'reason' of '", name, "' must be a string"));

  Json missing = Json::array();
  Json invalid = Json::array();
  Json variables = Json::object();
  std::string problems;
  for (const Variable& v : edge->requires_) {
    std::string what = v.description.empty() ? "" : " (" + v.description + ")";
    if (v.from_model) {
      if (!args.contains(v.name) || args[v.name].is_null()) {
        missing.push_back(v.name);
        add_problem(problems, "missing " + v.name + what);
      } else if (!has_type(args[v.name], v.type)) {
        Json item = Json::object();
        item["name"] = v.name;
        item["expected"] = v.type;
        invalid.push_back(std::move(item));
        add_problem(problems, v.name + what + " must be " + (v.type == "integer" ? "an " : "a ") + v.type);
      } else {
        variables[v.name] = args[v.name];
      }
    } else if (!present(session.variables, v.name)) {
      missing.push_back(v.name);
      add_problem(problems, "the conversation has not established " + v.name + what);
    }
  }
  if (!missing.empty() || !invalid.empty()) {
    return blocked_outcome(swarm, *edge, std::move(missing), std::move(invalid),
                           problems + ". Provide what is missing or correct, then call " + edge->tool_name + " again.");
  }
  if (edge->approval && !approved) {
    Json made = Json::object();
    made["type"] = "approval_required";
    made["kind"] = "handoff";
    made["agent"] = edge->from;
    made["tool"] = edge->tool_name;
    made["from"] = edge->from;
    made["to"] = edge->to;
    made["edge"] = index_of(swarm, *edge);
    made["arguments"] = std::move(args);
    return made;
  }
  return handoff_outcome(swarm, session, *edge, "tool", std::move(variables), reason);
}

Json apply_tool_call_text(const Swarm& swarm, SessionCore& session, const std::string& name, const std::string& arguments,
                          bool approved, const Json& listed) {
  // The text comes from a model. Parsing is iterative, but copying and printing JSON recurse once
  // per level, so arguments nested deeper than kMaxArgumentDepth are refused here, unread.
  auto [args, too_deep] = core::parse_json(arguments, kMaxArgumentDepth);
  if (args.is_discarded()) return rejected(quoted("the arguments of '", name, "' are not valid JSON"));
  if (too_deep) {
    return rejected("the arguments of '" + name + "' nest deeper than " + std::to_string(kMaxArgumentDepth) + " levels");
  }
  return apply_tool_call(swarm, session, name, args, approved, listed);
}

Expected<Json, std::string> offered_tools_record(const Swarm& swarm, const SessionCore& session, const std::string& format,
                                                 const Json& listed) {
  auto edges = offered_tools(swarm, session);
  const Agent* agent = swarm.agent(session.active);
  std::vector<McpTool> mcp;
  if (agent != nullptr) {
    auto listed_tools = mcp_tools(swarm, *agent, listed);
    if (!listed_tools) return unexpected(listed_tools.error());
    mcp = std::move(listed_tools.value());
  }
  Json mcp_offered = Json::array();
  for (const McpTool& tool : mcp) mcp_offered.push_back(Json{{"name", tool.name}, {"server", tool.server}, {"tool", tool.mcp_name}});
  Json offered = Json::array();
  for (const Edge* e : edges) {
    Json item = Json::object();
    item["name"] = e->tool_name;
    item["to"] = e->to;
    offered.push_back(std::move(item));
  }
  auto tools = tool_definitions(swarm, agent, edges, format, mcp);
  if (!tools) return unexpected(tools.error());
  Json made = Json::object();
  made["tools"] = std::move(tools.value());
  made["offered"] = std::move(offered);
  made["mcp"] = std::move(mcp_offered);
  return made;
}

Expected<Json, std::string> refused_handoff(const Swarm& swarm, std::size_t edge, const std::string& variable,
                                            const std::string& message) {
  if (edge >= swarm.edges().size() || !swarm.edges()[edge].offered) {
    return unexpected("edge " + std::to_string(edge) + " is not an edge offered as a tool");
  }
  const Edge& e = swarm.edges()[edge];
  Json invalid = Json::array({Json{{"name", variable}, {"expected", "a valid value"}}});
  return blocked_outcome(swarm, e, Json::array(), std::move(invalid), message + ". Correct it, then call " + e.tool_name + " again.");
}

Expected<std::string, std::string> tool_result_text(const Swarm& swarm, const Json& outcome) {
  auto text = [&](const char* key) -> const std::string* {
    auto it = outcome.find(key);
    return it != outcome.end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
  };
  const std::string* type = outcome.is_object() ? text("type") : nullptr;
  if (type != nullptr && *type == "handoff") {
    auto edge = outcome.find("edge");
    const std::string* via = text("via");
    if (via == nullptr || *via != "tool") return refusal("a handoff made by a rule or a continuation has no tool result");
    if (edge == outcome.end() || !edge->is_number_unsigned() || edge->get<std::uint64_t>() >= swarm.edges().size()) {
      return refusal("the handoff's 'edge' is not the index of an edge of this swarm");
    }
    return "Transferred to " + agent_label(swarm, swarm.edges()[edge->get<std::size_t>()].to) + ".";
  }
  if (type != nullptr && *type == "handoff_blocked" && text("rejectionReason") != nullptr) return *text("rejectionReason");
  if (type != nullptr && *type == "rejected" && text("reason") != nullptr) return "Error: " + *text("reason");
  // A host without a human to ask (an adapter answering a call itself) tells the model so.
  if (type != nullptr && *type == "approval_required" && text("tool") != nullptr) {
    return "Not run: '" + *text("tool") + "' needs a human's approval, and none can be asked here.";
  }
  return refusal("expected a handoff, handoff_blocked or rejected outcome of a tool call (or one awaiting approval)");
}

Json host_record(const Swarm& swarm, Json outcome) {
  Json record = Json::object();
  // Each member is read only as the type it must have: nlohmann would abort on another.
  auto text = [&](const char* key) {
    const Json& value = json::member(outcome, key);
    return value.is_string() ? value.get<std::string>() : std::string();
  };
  const std::string type = text("type");
  if (type == "handoff") {
    // Outcomes reach here from this file only, so the index names an edge; checked all the same.
    const Json& at = json::member(outcome, "edge");
    const std::size_t index = at.is_number_unsigned() ? at.get<std::size_t>() : swarm.edges().size();
    if (index < swarm.edges().size()) {
      const Edge& edge = swarm.edges()[index];
      const bool by_tool = text("via") == "tool";
      Json from_model = Json::object();
      for (const Variable& v : edge.requires_) {
        if (by_tool && v.from_model && json::member(outcome, "variables").contains(v.name))
          from_model[v.name] = json::member(json::member(outcome, "variables"), v.name);
      }
      if (by_tool) record["result"] = "Transferred to " + agent_label(swarm, edge.to) + ".";
      record["fromModel"] = std::move(from_model);
      record["carry"]["context"] = edge.context.empty() ? swarm.default_context() : edge.context;
      record["carry"]["includeSystem"] = edge.include_system.value_or(swarm.include_system());
    }
  } else if (type == "handoff_blocked") {
    record["result"] = json::member(outcome, "rejectionReason");
  } else if (type == "rejected") {
    record["result"] = "Error: " + text("reason");
  }
  record["outcome"] = std::move(outcome);
  return record;
}

}  // namespace handoff::swarm
