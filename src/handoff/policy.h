// What a swarm does in a session: which transfer tools the active agent is offered, which rule
// edge fires on its own, and what a tool call does (docs/handoffs.md).
//
// The host keeps the session (plain JSON); these functions read and update only its routing
// core: the active agent, the counters and the variables.
#pragma once

#include <string>
#include <vector>

#include "handoff/swarm.h"

namespace handoff::swarm {

struct SessionCore {
  std::string active;
  std::map<std::string, std::uint32_t> selections;  // tool handoffs made, per agent
  std::uint32_t hops = 0;                           // handoffs of any kind
  Json variables = Json::object();

  static Expected<SessionCore, std::string> from_json(const Swarm& swarm, const Json& json);
  Json to_json() const;
};

// The edges offered as tools to the active agent now, in declaration order.
std::vector<const Edge*> offered_tools(const Swarm& swarm, const SessionCore& session);

// The tools the active agent's model gets, in an SDK's shape ("openai-responses", "openai-chat",
// "anthropic" or "ai-sdk"): the agent's own tools, then the transfer tools of `edges`.
Expected<Json, std::string> tool_definitions(const Swarm& swarm, const Agent* agent, const std::vector<const Edge*>& edges,
                                             const std::string& format);

// Takes the first rule edge of the active agent whose condition holds (and whose session-sourced
// variables are present), if the hop limit allows: the outcome, or null when none fires.
Json apply_rules(const Swarm& swarm, SessionCore& session);

// A tool call of the active agent's model: { type: "handoff" | "handoff_blocked" | "rejected" |
// "tool", … }. A handoff moves the session and counts it; the variables it brings (`variables`)
// are for the host to merge, through its reducers and state hooks. "tool" is a call of one of the
// agent's own tools, for the host to run.
Json apply_tool_call(const Swarm& swarm, SessionCore& session, const std::string& name, const Json& arguments);
// Arrays and objects nested deeper than this in a tool call's arguments text are rejected
// (docs/limits.md): `[[1]]` is two levels.
inline constexpr int kMaxArgumentDepth = 512;
// The same, with the arguments as the JSON text models send; text that is not JSON is rejected.
Json apply_tool_call_text(const Swarm& swarm, SessionCore& session, const std::string& name, const std::string& arguments);

}  // namespace handoff::swarm
