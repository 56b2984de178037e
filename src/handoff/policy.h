// What a swarm does in a session: which transfer tools the active agent is offered, which rule
// edge fires on its own, and what a tool call does (docs/handoffs.md).
//
// The host keeps the session (plain JSON); these functions read and update only its routing
// core: the active agent, the counters and the variables.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/string_index.h"
#include "handoff/swarm.h"

namespace handoff::swarm {

struct SessionCore {
  std::string active;
  StringMap<std::uint32_t> selections;  // tool handoffs made, per agent (in id order, as to_json writes them)
  std::uint32_t hops = 0;                           // handoffs of any kind
  Json variables = Json::object();

  // A new session's routing core: at the swarm's entry agent, no hops, no selections.
  static SessionCore start(const Swarm& swarm);
  static Expected<SessionCore, std::string> from_json(const Swarm& swarm, const Json& json);
  Json to_json() const;
};

// A tool of an MCP server the host's client listed, as the agent is offered it (docs/mcp.md).
struct McpTool {
  std::string name;      // as offered: the server's prefix, then the server's name for it made safe
  std::string server;    // the server's name (the key of the host's client)
  std::string mcp_name;  // the server's own name for it, for tools/call
  std::string description;
  Json schema;
  bool approval = false;  // named in the agent's mcpApproval
};

// The MCP tools `agent` is offered, from `listed`: { <server>: [{ name, description?, inputSchema? }] }
// as the host's clients listed them (a server absent from it is offered nothing: not listed yet, or
// gone). Each name is the server's prefix, then the tool's name with every character outside
// [a-zA-Z0-9_-] replaced by '_', cut to 64. A name that clashes with one of the agent's own
// tools, its transfer tools or another MCP tool is an error that names both sources.
Expected<std::vector<McpTool>, std::string> mcp_tools(const Swarm& swarm, const Agent& agent, const Json& listed);

// The edges offered as tools to the active agent now, in declaration order.
std::vector<const Edge*> offered_tools(const Swarm& swarm, const SessionCore& session);

// Whether a tool's parameters meet OpenAI's strict mode, so that the tool may be sent with
// `strict: true`: every object schema (through properties, items, anyOf, $defs, definitions)
// has `additionalProperties: false` and lists every property in `required`, and none uses
// allOf, oneOf, not, if/then/else or patternProperties. Transfer tools' schemas always do; an
// agent's own tool is sent as written, with `strict` saying whether it does.
bool strict_compatible(const Json& schema);

// The tools the active agent's model gets, in an SDK's shape ("openai-responses", "openai-chat",
// "anthropic" or "ai-sdk"): the agent's own tools, then the transfer tools of `edges`. The OpenAI
// shapes and the AI SDK's carry `strict` (strict_compatible); Anthropic's has no such field.
Expected<Json, std::string> tool_definitions(const Swarm& swarm, const Agent* agent, const std::vector<const Edge*>& edges,
                                             const std::string& format, const std::vector<McpTool>& mcp = {});

// What the host gets for the active agent now: { tools: tool_definitions(…) in `format`,
// offered: [{ name, to }] of the transfer tools among them, mcp: [{ name, server, tool }] of the
// MCP tools among them (`listed` as mcp_tools reads it; null: none listed) }.
Expected<Json, std::string> offered_tools_record(const Swarm& swarm, const SessionCore& session, const std::string& format,
                                                 const Json& listed = nullptr);

// Outcomes of handoffs (`type` "handoff" or "handoff_blocked") carry `edge`: the index, in the
// definition's `edges`, of the edge that fired or was blocked. The host reads that edge's
// settings through host_record, never by looking for an edge between the same agents.

// Takes the first rule edge of the active agent whose condition holds (and whose session-sourced
// variables are present), if the hop limit allows: the outcome, or null when none fires.
Json apply_rules(const Swarm& swarm, SessionCore& session);

// A tool call of the active agent's model: { type: "handoff" | "handoff_blocked" | "rejected" |
// "tool", … }. A handoff moves the session and counts it; the variables it brings (`variables`)
// are for the host to merge, through its reducers and state hooks. "tool" is a call of one of the
// agent's own tools, for the host to run, or of an MCP tool (`listed` as mcp_tools reads it), then
// with `mcp: { server, tool }` (the server's own name for the tool), for the host's client to run.
//
// A call of a tool or an edge marked `approval: true` that is not `approved` yet, and that would
// otherwise run (an own tool) or hand off (an edge whose checks all pass), is "approval_required":
// { kind: "tool" | "handoff", agent, tool, arguments, and for a handoff from, to, edge }. It
// changes nothing; the host asks a human, and calls again with `approved` once one agreed, when
// the core checks the call afresh against the session as it is then.
Json apply_tool_call(const Swarm& swarm, SessionCore& session, const std::string& name, const Json& arguments,
                     bool approved = false, const Json& listed = nullptr);
// Arrays and objects nested deeper than this in a tool call's arguments text are rejected
// (docs/limits.md): `[[1]]` is two levels.
inline constexpr int kMaxArgumentDepth = 512;
// The same, with the arguments as the JSON text models send; text that is not JSON is rejected.
Json apply_tool_call_text(const Swarm& swarm, SessionCore& session, const std::string& name, const std::string& arguments,
                          bool approved = false, const Json& listed = nullptr);

// A tool handoff the core allowed and the host then refused: its state hook rejected the value
// the model gave for `variable`, saying `message`. The handoff_blocked outcome, with the reason
// written for the model; an error when `edge` is not the index of an edge offered as a tool.
// The host keeps the session as it was before the call.
Expected<Json, std::string> refused_handoff(const Swarm& swarm, std::size_t edge, const std::string& variable,
                                            const std::string& message);

// What the host acts on after an outcome (of apply_rules, apply_tool_call or refused_handoff):
//   { outcome,
//     result:    the tool result the model gets for a transfer call ("Transferred to Billing.",
//                the rejectionReason, or "Error: <reason>"); absent for rules and own tools,
//     fromModel: for a tool handoff, the variables the model supplied, for the host's reducers
//                and state hooks (the others in outcome.variables are already the session's),
//     carry:     for a handoff, { context, includeSystem }: the fired edge's settings, the
//                swarm's defaults filled in }
Json host_record(const Swarm& swarm, Json outcome);

// The tool result host_record gives for `outcome`, for a host that holds only the outcome (an
// adapter answering a transfer call itself). The outcome may come from anywhere: every field is
// checked, and an outcome without a tool result (a rule handoff, an own tool) is an error. An
// approval_required outcome's result says the call was not run for want of a human to approve it.
Expected<std::string, std::string> tool_result_text(const Swarm& swarm, const Json& outcome);

}  // namespace handoff::swarm
