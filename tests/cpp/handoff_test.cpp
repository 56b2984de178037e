// The swarm policy natively: tests/vectors/handoffs.json (the same scenarios Node and Chromium run).
#include <gtest/gtest.h>

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
      session = SessionCore{};
      session.active = swarm.entry().id;
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
      Json outcome = args.is_string() ? apply_tool_call_text(swarm, session, op["name"].get<std::string>(), args.get<std::string>())
                                      : apply_tool_call(swarm, session, op["name"].get<std::string>(), args);
      EXPECT_EQ(outcome, op["expect"]);
      // The host merges what a handoff brings (here: replace, the default reducer).
      if (outcome["type"] == "handoff") {
        for (auto it = outcome["variables"].begin(); it != outcome["variables"].end(); ++it) session.variables[it.key()] = it.value();
      }
    } else if (name == "state") {
      Json core = session.to_json();
      core.erase("hops");
      Json expected = op["expect"];
      EXPECT_EQ(session.hops, expected["hops"].get<std::uint32_t>());
      expected.erase("hops");
      EXPECT_EQ(core["active"], expected["active"]);
      EXPECT_EQ(core["selections"], expected["selections"]);
      // Key order is the host's business; compare variables as a set of members.
      EXPECT_EQ(Json(nlohmann::json(core["variables"])), Json(nlohmann::json(expected["variables"])));
    } else {
      FAIL() << "unknown op " << name;
    }
  }
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
