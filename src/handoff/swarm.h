// A swarm: agents joined by handoff edges of two kinds (docs/handoffs.md).
//
// An edge with a `when` condition is a rule: it is taken automatically when the condition holds on
// the session's variables, at zero tokens. An edge without one is offered to the active agent's
// model as a `transfer_to_<agent>` tool. An edge can be both (`offer: true` with `when`): the tool
// is offered only while the condition holds. Required variables block a handoff until they are
// present (from the session, or from the model's tool arguments). Limits bound how many
// selections an agent may make in a session and how many hops a session may take.
//
// This file is the definition; policy.h decides, given a session, what is offered and what a
// tool call does. Sessions, messages and model calls belong to the host (js/swarm.js).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "condition/condition.h"
#include "condition/json_state.h"
#include "core/expected.h"
#include "export/definition.h"

namespace handoff::swarm {

using condition::Json;

inline constexpr const char* kSwarmFormat = "handoff-graph/swarm";
inline constexpr int kSwarmVersion = 1;
inline constexpr std::uint32_t kDefaultMaxHops = 10;
// The one transfer tool of a swarm with `transferTools: "single"` (SwarmForge's): the target is
// its `agent` argument, an enum of the agents the active agent may transfer to now.
inline constexpr const char* kSingleTransferTool = "transfer_to_agent";

// A tool of an agent's own (not a transfer): the host runs its handler or mock.
struct AgentTool {
  std::string name;
  std::string description;
  Json parameters;  // a JSON Schema for an object
  bool approval = false;  // a call pauses the turn until a human approves or rejects it
};

// An MCP server whose tools an agent is offered (docs/mcp.md): the host's client by this name lists
// and runs them; `prefix` goes before each tool's name (to tell two servers' tools apart).
struct McpServer {
  std::string server;
  std::string prefix;
};

struct Agent {
  std::string id;
  std::string name;
  std::string description;
  std::string instructions;
  bool entry = false;
  std::optional<std::uint32_t> handoffs;  // selections this agent may make in a session
  // `handoffs: null` (MAG's): no transfer tools at all; its continuation edges fire at once.
  bool handoffs_disabled = false;
  // SwarmForge's visible variables: the session variables this agent's model requests carry
  // (absent: all of them).
  std::optional<std::vector<std::string>> visible_variables;
  std::vector<AgentTool> tools;
  // MCP servers whose tools the agent is offered (after its own tools, before its transfers), and
  // the names of those tools (as offered, prefix included) whose calls need a human's approval.
  std::vector<McpServer> mcp_servers;
  std::vector<std::string> mcp_approval;
};

struct Variable {
  std::string name;
  bool from_model = false;     // a tool argument the model must supply; else a session variable
  std::string type = "string";  // string, number, integer, boolean
  std::string description;
};

struct Edge {
  std::string from;
  std::string to;
  std::string description;
  std::optional<condition::Condition> when;
  bool offered = true;  // a tool (always when there is no `when`; with `offer: true` too)
  std::string tool_name;
  std::vector<Variable> requires_;
  std::string context;  // "" (the swarm's default), "full", "last-user", "none", or a custom name
  std::optional<bool> include_system;
  bool approval = false;  // an LLM edge only: a transfer call pauses the turn until a human decides
  // A rule edge taken only once its source agent has no selections left (its `handoffs` used up,
  // or null): where the workflow continues when the model may no longer choose (MAG's limit).
  bool continuation = false;
};

class Swarm {
 public:
  static Expected<std::unique_ptr<Swarm>, std::vector<definition::Problem>> from_json(const Json& document);
  Json to_json() const;

  const std::string& name() const { return name_; }
  std::uint32_t max_hops() const { return max_hops_; }
  const std::string& default_context() const { return context_; }
  // Whether every transfer is one tool, kSingleTransferTool, instead of one tool per edge.
  bool single_transfer_tool() const { return single_tool_; }
  bool include_system() const { return include_system_; }
  const std::vector<Agent>& agents() const { return agents_; }
  const std::vector<Edge>& edges() const { return edges_; }
  const Agent* agent(const std::string& id) const;
  const Agent& entry() const;
  const condition::Interner& strings() const { return *strings_; }

 private:
  void assign_tool_names();

  std::string name_;
  std::uint32_t max_hops_ = kDefaultMaxHops;
  std::string context_ = "full";
  bool include_system_ = false;
  bool single_tool_ = false;
  std::vector<Agent> agents_;
  std::vector<Edge> edges_;
  std::unique_ptr<condition::Interner> strings_ = std::make_unique<condition::Interner>();
};

}  // namespace handoff::swarm
