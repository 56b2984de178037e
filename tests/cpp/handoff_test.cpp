// The swarm policy natively: tests/vectors/handoffs.json (the same scenarios Node and Chromium run).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>  // the oracle for comparing members as a set

#include <cctype>

#include "handoff/policy.h"
#include "handoff/swarm.h"
#include "vectors.h"

namespace handoff::swarm {
namespace {

void run_scenario(const Json& scenario) {
  Json definition = scenario["swarm"];
  if (!definition.contains("format")) definition["format"] = kSwarmFormat;
  if (!definition.contains("version")) definition["version"] = kSwarmVersion;
  auto loaded = Swarm::from_json(definition);
  if (scenario.contains("problems")) {
    ASSERT_FALSE(loaded.ok());
    Json pointers = Json::array();
    for (const auto& p : loaded.error()) pointers.push_back(p.pointer);
    EXPECT_EQ(pointers, scenario["problems"]);
    return;
  }
  ASSERT_TRUE(loaded.ok()) << definition::describe(loaded.error());
  const Swarm& swarm = *loaded.value();
  SessionCore session;
  int i = 0;
  for (const Json& op : scenario["ops"]) {
    SCOPED_TRACE("op " + std::to_string(i++) + ": " + op.dump().substr(0, 200));
    std::string name = op["op"].get<std::string>();
    if (name == "session") {
      session = SessionCore::start(swarm);
      session.variables = op.contains("variables") ? op["variables"] : Json::object();
    } else if (name == "offered") {
      Json offered = Json::array();
      for (const Edge* e : offered_tools(swarm, session)) offered.push_back({{"name", e->tool_name}, {"to", e->to}});
      EXPECT_EQ(offered, op["expect"]);
    } else if (name == "tools") {
      auto tools = tool_definitions(swarm, swarm.agent(session.active), offered_tools(swarm, session), op["format"].get<std::string>());
      ASSERT_TRUE(tools.ok());
      EXPECT_EQ(tools.value(), op["expect"]);
    } else if (name == "applyRules") {
      Json outcome = apply_rules(swarm, session);
      EXPECT_EQ(outcome, op["expect"]);
    } else if (name == "setVariables") {
      for (auto it = op["variables"].begin(); it != op["variables"].end(); ++it) session.variables[it.key()] = it.value();
    } else if (name == "call") {
      const Json& args = op.contains("arguments") ? op["arguments"] : Json::object();
      const SessionCore before = session;
      Json outcome = args.is_string() ? apply_tool_call_text(swarm, session, op["name"].get<std::string>(), args.get<std::string>())
                                      : apply_tool_call(swarm, session, op["name"].get<std::string>(), args);
      // The host merges what the model supplied (here: replace, the default reducer), through its
      // state hook: the scenario's `validate` refuses any value of the variables it names.
      Json record = host_record(swarm, outcome);
      if (record.contains("fromModel")) {
        for (const auto& [key, value] : record["fromModel"].items()) {
          if (!scenario.contains("validate") || !scenario["validate"].contains(key)) continue;
          session = before;
          auto refused = refused_handoff(swarm, outcome["edge"].get<std::size_t>(), key, scenario["validate"][key].get<std::string>());
          ASSERT_TRUE(refused.ok()) << refused.error();
          outcome = refused.value();
          break;
        }
      }
      EXPECT_EQ(outcome, op["expect"]);
      if (outcome["type"] == "handoff") {
        for (const auto& [key, value] : record["fromModel"].items()) session.variables[key] = value;
      }
    } else if (name == "state") {
      Json core = session.to_json();
      core.erase("hops");
      Json expected = op["expect"];
      EXPECT_EQ(session.hops, expected["hops"].get<std::uint32_t>());
      expected.erase("hops");
      EXPECT_EQ(core["active"], expected["active"]);
      EXPECT_EQ(core["selections"], expected["selections"]);
      // Key order is the host's business; compare variables as a set of members (nlohmann::json
      // keeps an object's members sorted).
      auto members = [](const Json& v) { return nlohmann::json::parse(v.dump()); };
      EXPECT_EQ(members(core["variables"]), members(expected["variables"]));
    } else {
      FAIL() << "unknown op " << name;
    }
  }
}

// MCP tools (docs/mcp.md): what the host's clients listed, as the agent is offered them: after its
// own tools and before its transfers, names prefixed and made safe, clashes naming both sources,
// approval by name, and a call's outcome naming the server and its own name for the tool.
TEST(HandoffMcpTools, OfferedNamedCalledAndClashing) {
  Json definition = {{"format", kSwarmFormat}, {"version", kSwarmVersion},
                     {"agents", Json::array({{{"id", "a"}, {"entry", true},
                                              {"tools", Json::array({{{"name", "note"}, {"description", "Take a note"}}})},
                                              {"mcpServers", Json::array({"files", {{"server", "gh"}, {"prefix", "gh_"}}})},
                                              {"mcpApproval", Json::array({"gh_issue"})}},
                                             {{"id", "b"}}})},
                     {"edges", Json::array({{{"from", "a"}, {"to", "b"}}})}};
  auto loaded = Swarm::from_json(definition);
  ASSERT_TRUE(loaded.ok()) << definition::describe(loaded.error());
  const Swarm& swarm = *loaded.value();
  EXPECT_EQ(swarm.to_json()["agents"][0]["mcpServers"], Json::array({"files", {{"server", "gh"}, {"prefix", "gh_"}}}));
  EXPECT_EQ(swarm.to_json()["agents"][0]["mcpApproval"], Json::array({"gh_issue"}));

  Json listed = {{"files", Json::array({{{"name", "read.file"}, {"inputSchema", {{"type", "object"}}}}})},
                 {"gh", Json::array({{{"name", "issue"}, {"description", "Open an issue"}}})},
                 {"other", Json::array({{{"name", "ignored"}}})}};
  SessionCore session = SessionCore::start(swarm);
  auto record = offered_tools_record(swarm, session, "anthropic", listed);
  ASSERT_TRUE(record.ok()) << record.error();
  std::vector<std::string> names;
  for (const Json& tool : record.value()["tools"]) names.push_back(tool["name"].get<std::string>());
  EXPECT_EQ(names, (std::vector<std::string>{"note", "read_file", "gh_issue", "transfer_to_b"}));
  EXPECT_EQ(record.value()["tools"][1]["description"], "Tool read.file of MCP server 'files'.");
  EXPECT_EQ(record.value()["mcp"][0], Json({{"name", "read_file"}, {"server", "files"}, {"tool", "read.file"}}));

  Json call = apply_tool_call(swarm, session, "read_file", {{"path", "/"}}, false, listed);
  EXPECT_EQ(call["type"], "tool");
  EXPECT_EQ(call["mcp"], Json({{"server", "files"}, {"tool", "read.file"}}));
  EXPECT_EQ(apply_tool_call(swarm, session, "gh_issue", Json::object(), false, listed)["type"], "approval_required");
  EXPECT_EQ(apply_tool_call(swarm, session, "gh_issue", Json::object(), true, listed)["type"], "tool");
  EXPECT_EQ(apply_tool_call(swarm, session, "read_file", Json::object(), false, Json())["type"], "rejected") << "not listed: not a tool";

  Json clashing = {{"files", Json::array({{{"name", "transfer_to_b"}}})}};
  auto clash = offered_tools_record(swarm, session, "openai-chat", clashing);
  ASSERT_FALSE(clash.ok());
  EXPECT_EQ(clash.error(), "agent 'a' is offered two tools named 'transfer_to_b': tool 'transfer_to_b' of MCP server 'files' and the transfer tool 'transfer_to_b' (to b); give the server a prefix in mcpServers: { server: 'files', prefix: 'files_' }");
  EXPECT_EQ(apply_tool_call(swarm, session, "x", Json::object(), false, clashing)["type"], "rejected");
}

TEST(HandoffMcpTools, DefinitionProblems) {
  Json definition = {{"format", kSwarmFormat}, {"version", kSwarmVersion},
                     {"agents", Json::array({{{"id", "a"}, {"mcpServers", Json::array({"", "x", "x", 3, {{"server", "y"}, {"prefix", "no spaces"}}})}},
                                             {{"id", "b"}, {"entry", true}, {"mcpApproval", Json::array({"t"})}}})}};
  auto loaded = Swarm::from_json(definition);
  ASSERT_FALSE(loaded.ok());
  Json pointers = Json::array();
  for (const auto& p : loaded.error()) pointers.push_back(p.pointer);
  EXPECT_EQ(pointers, Json::array({"/agents/0/mcpServers/0", "/agents/0/mcpServers/2", "/agents/0/mcpServers/3",
                                   "/agents/0/mcpServers/4/prefix", "/agents/1/mcpApproval"}));
}

// The host record: what runTurn gives the model for each transfer outcome, which edge's settings
// carry the history, and which variables the model supplied.
TEST(HandoffHostRecord, ToolResultsCarryAndModelVariables) {
  Json definition = {{"format", kSwarmFormat}, {"version", kSwarmVersion}, {"context", "last-user"},
                     {"agents", Json::array({{{"id", "a"}, {"entry", true}}, {{"id", "b"}, {"name", "Billing"}}})},
                     {"edges", Json::array({{{"from", "a"}, {"to", "b"}, {"when", "x == 1"}, {"context", "none"}},
                                            {{"from", "a"}, {"to", "b"}, {"when", "x == 2"}, {"includeSystem", true}},
                                            {{"from", "a"}, {"to", "b"}, {"toolName", "pay"},
                                             {"requires", Json::array({"acct", {{"name", "amount"}, {"from", "model"}, {"type", "number"}}})}}})}};
  auto loaded = Swarm::from_json(definition);
  ASSERT_TRUE(loaded.ok()) << definition::describe(loaded.error());
  const Swarm& swarm = *loaded.value();

  SessionCore session = SessionCore::start(swarm);
  session.variables = {{"x", 2}};
  Json rule = host_record(swarm, apply_rules(swarm, session));
  EXPECT_EQ(rule["outcome"]["edge"], 1);
  EXPECT_EQ(rule["carry"], Json({{"context", "last-user"}, {"includeSystem", true}}));
  EXPECT_FALSE(rule.contains("result")) << "a rule is no tool call";

  session = SessionCore::start(swarm);
  Json blocked = host_record(swarm, apply_tool_call(swarm, session, "pay", {{"amount", 5}}));
  EXPECT_EQ(blocked["outcome"]["edge"], 2);
  EXPECT_EQ(blocked["result"], blocked["outcome"]["rejectionReason"]);
  EXPECT_EQ(host_record(swarm, apply_tool_call(swarm, session, "nope", Json::object()))["result"],
            "Error: 'nope' is not a tool of agent 'a'");

  session.variables = {{"acct", "A-1"}};
  Json handoff = host_record(swarm, apply_tool_call(swarm, session, "pay", {{"amount", 5}}));
  EXPECT_EQ(handoff["result"], "Transferred to Billing.");
  EXPECT_EQ(handoff["fromModel"], Json({{"amount", 5}}));
  EXPECT_EQ(handoff["outcome"]["variables"], Json({{"amount", 5}, {"acct", "A-1"}}));
  EXPECT_EQ(handoff["carry"], Json({{"context", "last-user"}, {"includeSystem", false}}));

  auto refused = refused_handoff(swarm, 2, "amount", "too much");
  ASSERT_TRUE(refused.ok());
  EXPECT_EQ(refused.value()["rejectionReason"], "Cannot transfer to Billing yet: too much. Correct it, then call pay again.");
  EXPECT_FALSE(refused_handoff(swarm, 0, "x", "m").ok()) << "edge 0 is a rule, not a tool";
  EXPECT_FALSE(refused_handoff(swarm, 3, "x", "m").ok());
}

TEST(HandoffStrictMode, SchemasAreStrictOnlyWhenOpenAIWouldAcceptThemAsStrict) {
  auto strict = [](const char* text) { return strict_compatible(Json::parse(text)); };
  EXPECT_TRUE(strict(R"({"type":"object","properties":{},"required":[],"additionalProperties":false})"));
  EXPECT_FALSE(strict(R"({"type":"object","properties":{"q":{"type":"string"}}})"));
  EXPECT_FALSE(strict(R"({"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false})"));
  EXPECT_TRUE(strict(R"({"type":"object","properties":{"q":{"type":["string","null"]}},"required":["q"],"additionalProperties":false})"));
  // Nested objects, arrays of objects, anyOf branches and $defs are checked too.
  EXPECT_FALSE(strict(R"({"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"string"}},"required":[]
      ,"additionalProperties":false}},"required":["o"],"additionalProperties":false})"));
  EXPECT_FALSE(strict(R"({"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{}}}},
      "required":["l"],"additionalProperties":false})"));
  EXPECT_FALSE(strict(R"({"type":"object","properties":{"u":{"anyOf":[{"type":"string"},{"type":"object","properties":{}}]}},
      "required":["u"],"additionalProperties":false})"));
  EXPECT_FALSE(strict(R"({"type":"object","properties":{},"required":[],"additionalProperties":false,
      "$defs":{"d":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}})"));
  EXPECT_FALSE(strict(R"({"type":"object","properties":{"a":{"oneOf":[{"type":"string"}]}},"required":["a"],"additionalProperties":false})"));
  EXPECT_FALSE(strict(R"({"anyOf":[{"type":"object","properties":{},"required":[],"additionalProperties":false}]})"));
  // Deeper than the walk goes: not strict, and no stack overflow.
  // Built from text: nlohmann's parser keeps its own stack, while copying a 10,000-deep Json (as
  // an initializer list does) recurses and overflows the stack under AddressSanitizer.
  std::string text;
  for (int i = 0; i < 10000; ++i) text += R"({"type":"object","required":["p"],"additionalProperties":false,"properties":{"p":)";
  text += R"({"type":"object","properties":{},"required":[],"additionalProperties":false})";
  for (int i = 0; i < 10000; ++i) text += "}}";
  const Json deep = Json::parse(text);
  EXPECT_FALSE(strict_compatible(deep));
}

const bool registered = [] {
  Json handoffs = testing::load_vectors("handoffs.json");
  if (handoffs.is_discarded()) {
    std::fprintf(stderr, "tests/vectors/handoffs.json is missing or not valid JSON\n");
    std::abort();
  }
  testing::register_cases("HandoffVectors", handoffs["scenarios"], run_scenario);
  return true;
}();

}  // namespace
}  // namespace handoff::swarm
