#include "handoff/policy.h"

#include <cmath>

namespace handoff::swarm {
namespace {

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
  if (agent == nullptr || !agent->handoffs) return true;
  auto used = session.selections.find(session.active);
  return (used == session.selections.end() ? 0 : used->second) < *agent->handoffs;
}

std::string agent_label(const Swarm& swarm, const std::string& id) {
  const Agent* agent = swarm.agent(id);
  return agent != nullptr && !agent->name.empty() ? agent->name : id;
}

Json schema_of(const Swarm& swarm, const Edge& edge) {
  Json properties = Json::object();
  properties["reason"] = {{"type", {"string", "null"}},
                          {"description", "Why the conversation should go to " + agent_label(swarm, edge.to) + " (optional)."}};
  Json required = Json::array({"reason"});
  for (const Variable& v : edge.requires_) {
    if (!v.from_model) continue;
    Json property = {{"type", v.type}};
    if (!v.description.empty()) property["description"] = v.description;
    properties[v.name] = std::move(property);
    required.push_back(v.name);
  }
  // Strict: every property listed as required (OpenAI's strict mode asks for it; `reason` is
  // optional by being nullable), and nothing else accepted.
  return {{"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)},
          {"additionalProperties", false}};
}

std::string description_of(const Swarm& swarm, const Edge& edge) {
  return edge.description.empty() ? "Hand the conversation over to " + agent_label(swarm, edge.to) + "." : edge.description;
}

Json handoff_outcome(const Swarm& swarm, SessionCore& session, const Edge& edge, const char* via, Json variables,
                     const Json& reason) {
  Json outcome = {{"type", "handoff"}, {"via", via}, {"from", edge.from}, {"to", edge.to}};
  if (edge.offered && std::string(via) == "tool") {
    outcome["tool"] = edge.tool_name;
    ++session.selections[edge.from];
  }
  for (const Variable& v : edge.requires_) {
    if (!v.from_model) variables[v.name] = session.variables[v.name];
  }
  ++session.hops;
  session.active = edge.to;
  outcome["variables"] = std::move(variables);
  outcome["reason"] = reason;
  (void)swarm;
  return outcome;
}

Json rejected(std::string reason) { return {{"type", "rejected"}, {"reason", std::move(reason)}}; }

}  // namespace

Expected<SessionCore, std::string> SessionCore::from_json(const Swarm& swarm, const Json& json) {
  SessionCore core;
  if (!json.is_object()) return unexpected(std::string("a session must be an object"));
  if (!json.contains("active") || !json["active"].is_string() || swarm.agent(json["active"].get<std::string>()) == nullptr) {
    return unexpected(std::string("the session's active agent is not an agent of this swarm"));
  }
  core.active = json["active"].get<std::string>();
  if (json.contains("hops")) {
    if (!json["hops"].is_number_unsigned()) return unexpected(std::string("'hops' must be a count"));
    core.hops = json["hops"].get<std::uint32_t>();
  }
  if (json.contains("selections")) {
    const Json& s = json["selections"];
    if (!s.is_object()) return unexpected(std::string("'selections' must be an object"));
    for (auto it = s.begin(); it != s.end(); ++it) {
      if (!it->is_number_unsigned()) return unexpected(std::string("'selections' must hold counts"));
      core.selections[it.key()] = it->get<std::uint32_t>();
    }
  }
  if (json.contains("variables")) {
    if (!json["variables"].is_object()) return unexpected(std::string("'variables' must be an object"));
    core.variables = json["variables"];
  }
  return core;
}

Json SessionCore::to_json() const {
  Json selections_json = Json::object();
  for (const auto& [agent, count] : selections) selections_json[agent] = count;
  return {{"active", active}, {"hops", hops}, {"selections", std::move(selections_json)}, {"variables", variables}};
}

std::vector<const Edge*> offered_tools(const Swarm& swarm, const SessionCore& session) {
  std::vector<const Edge*> out;
  if (!within_limits(swarm, session) || !selections_left(swarm, session)) return out;
  for (const Edge& edge : swarm.edges()) {
    if (edge.from == session.active && edge.offered && holds(swarm, edge, session.variables)) out.push_back(&edge);
  }
  return out;
}

Expected<Json, std::string> tool_definitions(const Swarm& swarm, const Agent* agent, const std::vector<const Edge*>& edges,
                                             const std::string& format) {
  struct Tool {
    std::string name;
    std::string description;
    Json schema;
  };
  std::vector<Tool> tools;
  if (agent != nullptr) {
    for (const AgentTool& tool : agent->tools) tools.push_back({tool.name, tool.description, tool.parameters});
  }
  for (const Edge* edge : edges) tools.push_back({edge->tool_name, description_of(swarm, *edge), schema_of(swarm, *edge)});

  Json out = format == "ai-sdk" ? Json::object() : Json::array();
  for (Tool& tool : tools) {
    if (format == "openai-responses") {
      out.push_back({{"type", "function"}, {"name", tool.name}, {"description", tool.description},
                     {"parameters", std::move(tool.schema)}, {"strict", true}});
    } else if (format == "openai-chat") {
      out.push_back({{"type", "function"},
                     {"function", {{"name", tool.name}, {"description", tool.description},
                                   {"parameters", std::move(tool.schema)}, {"strict", true}}}});
    } else if (format == "anthropic") {
      out.push_back({{"name", tool.name}, {"description", tool.description}, {"input_schema", std::move(tool.schema)}});
    } else if (format == "ai-sdk") {
      out[tool.name] = {{"description", tool.description}, {"inputSchema", std::move(tool.schema)}};
    } else {
      return unexpected("unknown tool format '" + format + "' (openai-responses, openai-chat, anthropic, ai-sdk)");
    }
  }
  return out;
}

Json apply_rules(const Swarm& swarm, SessionCore& session) {
  if (!within_limits(swarm, session)) return nullptr;
  for (const Edge& edge : swarm.edges()) {
    if (edge.from != session.active || !edge.when || edge.offered) continue;
    if (!holds(swarm, edge, session.variables)) continue;
    bool ready = true;
    for (const Variable& v : edge.requires_) ready = ready && present(session.variables, v.name);
    if (ready) return handoff_outcome(swarm, session, edge, "rule", Json::object(), nullptr);
  }
  return nullptr;
}

Json apply_tool_call(const Swarm& swarm, SessionCore& session, const std::string& name, const Json& arguments) {
  if (const Agent* agent = swarm.agent(session.active)) {
    for (const AgentTool& tool : agent->tools) {
      if (tool.name != name) continue;
      Json args = arguments.is_null() ? Json::object() : arguments;
      if (!args.is_object()) return rejected("the arguments of '" + name + "' must be a JSON object");
      return {{"type", "tool"}, {"agent", agent->id}, {"tool", name}, {"arguments", std::move(args)}};
    }
  }
  const Edge* edge = nullptr;
  for (const Edge& e : swarm.edges()) {
    if (e.from == session.active && e.offered && e.tool_name == name) edge = &e;
  }
  if (edge == nullptr) return rejected("'" + name + "' is not a tool of agent '" + session.active + "'");
  if (!within_limits(swarm, session)) {
    return rejected("'" + name + "' is not available: this session has used its " + std::to_string(swarm.max_hops()) + " handoffs");
  }
  if (!selections_left(swarm, session)) {
    return rejected("'" + name + "' is not available: agent '" + session.active + "' has used all its handoffs");
  }
  if (!holds(swarm, *edge, session.variables)) {
    return rejected("'" + name + "' is not available now: its condition `" + edge->when->source() + "` does not hold");
  }

  Json args = arguments.is_null() ? Json::object() : arguments;
  if (!args.is_object()) return rejected("the arguments of '" + name + "' must be a JSON object");
  for (auto it = args.begin(); it != args.end(); ++it) {
    bool known = it.key() == "reason";
    for (const Variable& v : edge->requires_) known = known || (v.from_model && v.name == it.key());
    if (!known) return rejected("'" + name + "' has no argument '" + it.key() + "'");
  }
  Json reason = args.contains("reason") ? args["reason"] : Json(nullptr);
  if (!reason.is_null() && !reason.is_string()) return rejected("the 'reason' of '" + name + "' must be a string");

  Json missing = Json::array();
  Json invalid = Json::array();
  Json variables = Json::object();
  std::string problems;
  for (const Variable& v : edge->requires_) {
    std::string what = v.description.empty() ? "" : " (" + v.description + ")";
    if (v.from_model) {
      if (!args.contains(v.name) || args[v.name].is_null()) {
        missing.push_back(v.name);
        problems += (problems.empty() ? "" : "; ") + std::string("missing ") + v.name + what;
      } else if (!has_type(args[v.name], v.type)) {
        invalid.push_back({{"name", v.name}, {"expected", v.type}});
        problems += (problems.empty() ? "" : "; ") + v.name + what + " must be " + (v.type == "integer" ? "an " : "a ") + v.type;
      } else {
        variables[v.name] = args[v.name];
      }
    } else if (!present(session.variables, v.name)) {
      missing.push_back(v.name);
      problems += (problems.empty() ? "" : "; ") + std::string("the conversation has not established ") + v.name + what;
    }
  }
  if (!missing.empty() || !invalid.empty()) {
    return {{"type", "handoff_blocked"},
            {"from", edge->from},
            {"to", edge->to},
            {"tool", edge->tool_name},
            {"missing", std::move(missing)},
            {"invalid", std::move(invalid)},
            {"rejectionReason", "Cannot transfer to " + agent_label(swarm, edge->to) + " yet: " + problems +
                                    ". Provide what is missing or correct, then call " + edge->tool_name + " again."}};
  }
  return handoff_outcome(swarm, session, *edge, "tool", std::move(variables), reason);
}

Json apply_tool_call_text(const Swarm& swarm, SessionCore& session, const std::string& name, const std::string& arguments) {
  // The text comes from a model. Parsing is iterative, but copying and printing JSON recurse once
  // per level, so arguments nested deeper than kMaxArgumentDepth are refused here, unread.
  bool too_deep = false;
  auto depth = [&too_deep](int level, Json::parse_event_t event, Json&) {
    bool opens = event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start;
    too_deep = too_deep || (opens && level >= kMaxArgumentDepth);
    return true;
  };
  Json args = Json::parse(arguments, depth, /*allow_exceptions=*/false);
  if (args.is_discarded()) return rejected("the arguments of '" + name + "' are not valid JSON");
  if (too_deep) {
    return rejected("the arguments of '" + name + "' nest deeper than " + std::to_string(kMaxArgumentDepth) + " levels");
  }
  return apply_tool_call(swarm, session, name, args);
}

}  // namespace handoff::swarm
