// Runs tests/vectors/*.json natively: one GoogleTest test per condition case and graph scenario.
#include <gtest/gtest.h>

#include <cctype>

#include "export/definition.h"
#include "graph/handoff_graph.h"
#include "vectors.h"

namespace handoff {
namespace {

using condition::Json;

std::vector<std::string> path_texts(const condition::Condition& c) {
  std::vector<std::string> out;
  for (const auto& p : c.paths()) out.push_back(p.text());
  return out;
}

void run_condition_case(const Json& c) {
  std::string source = testing::condition_source(c);
  condition::Interner strings;
  auto compiled = condition::Condition::compile(source, strings);
  if (c.contains("error")) {
    ASSERT_FALSE(compiled.ok()) << "expected a syntax error";
    EXPECT_EQ(compiled.error().index, c["error"]["index"].get<std::uint32_t>()) << compiled.error().message;
    std::string phrase = c["error"]["message"].get<std::string>();
    EXPECT_NE(compiled.error().message.find(phrase), std::string::npos)
        << "message: " << compiled.error().message << "\nexpected to contain: " << phrase;
    EXPECT_NE(compiled.error().message.find(" at column " + std::to_string(compiled.error().index + 1)),
              std::string::npos);
    return;
  }
  ASSERT_TRUE(compiled.ok()) << compiled.error().message;
  if (c.contains("paths")) {
    EXPECT_EQ(path_texts(compiled.value()), c["paths"].get<std::vector<std::string>>());
  }
  int i = 0;
  for (const auto& check : c["checks"]) {
    EXPECT_EQ(condition::evaluate(compiled.value(), check[0], strings), check[1].get<bool>())
        << "check " << i << ", state " << check[0].dump();
    ++i;
  }
}

std::optional<std::string_view> optional_string(const Json& op, const char* key) {
  if (!op.contains(key) || op[key].is_null()) return std::nullopt;
  return op[key].get_ref<const std::string&>();
}

Json explain_json(const graph::HandoffGraph& g, const std::string& node, const Json& state) {
  Json result = {{"node", node}, {"result", nullptr}, {"edges", Json::array()}};
  graph::NodeId id = g.find(node);
  if (id == graph::kNoNode) return result;
  condition::JsonStateWriter writer(g.strings());
  writer.write(state, g.route_paths(id));
  std::vector<graph::EdgeTrace> trace;
  std::int32_t winner = g.explain(id, writer.slots().data(), trace);
  const auto& out = g.out_edges(id);
  for (const auto& t : trace) {
    const graph::Edge& e = g.edges()[out[t.index]];
    result["edges"].push_back({{"index", t.index},
                               {"to", g.name(e.to)},
                               {"when", e.condition ? Json(e.condition->source()) : Json(nullptr)},
                               {"matched", t.matched},
                               {"evaluated", t.evaluated}});
  }
  if (winner >= 0) result["result"] = g.name(g.edges()[out[winner]].to);
  return result;
}

Json edges_json(const graph::HandoffGraph& g, const std::string& node) {
  Json out = Json::array();
  graph::NodeId id = g.find(node);
  if (id == graph::kNoNode) return out;
  for (std::uint32_t e : g.out_edges(id)) {
    const graph::Edge& edge = g.edges()[e];
    out.push_back({{"to", g.name(edge.to)}, {"when", edge.condition ? Json(edge.condition->source()) : Json(nullptr)}});
  }
  return out;
}

void check_error(const graph::EdgeError& error, const Json& expected) {
  std::string kind = expected["kind"].get<std::string>();
  using Kind = graph::EdgeError::Kind;
  if (kind == "syntax") {
    ASSERT_EQ(error.kind, Kind::Syntax) << error.message;
    EXPECT_EQ(error.syntax.index, expected["index"].get<std::uint32_t>()) << error.message;
  } else if (kind == "cycle") {
    ASSERT_EQ(error.kind, Kind::Cycle) << error.message;
    EXPECT_EQ(error.cycle, expected["cycle"].get<std::vector<std::string>>());
  } else {
    EXPECT_EQ(error.kind, Kind::Argument) << error.message;
  }
}

void run_graph_scenario(const Json& scenario) {
  auto policy = scenario.value("onCycle", "error") == "allow" ? graph::CyclePolicy::Allow : graph::CyclePolicy::Error;
  graph::HandoffGraph g(policy);
  int i = 0;
  for (const auto& op : scenario["ops"]) {
    SCOPED_TRACE("op " + std::to_string(i++) + ": " + op.dump());
    std::string name = op["op"].get<std::string>();
    if (name == "addEdge") {
      auto r = g.add_edge(op["from"].get<std::string>(), op["to"].get<std::string>(), optional_string(op, "when"),
                          op.value("description", ""));
      if (op.contains("error")) {
        ASSERT_FALSE(r.ok());
        check_error(r.error(), op["error"]);
      } else {
        ASSERT_TRUE(r.ok()) << r.error().message;
      }
    } else if (name == "addNode") {
      auto r = g.add_node(op["id"].get<std::string>(), op.value("description", ""));
      if (op.contains("error")) {
        ASSERT_FALSE(r.ok());
        check_error(r.error(), op["error"]);
      } else {
        ASSERT_TRUE(r.ok()) << r.error().message;
      }
    } else if (name == "route") {
      auto routed = g.route(op["node"].get<std::string>(), op["state"]);
      EXPECT_EQ(routed ? Json(*routed) : Json(nullptr), op["expect"]);
    } else if (name == "explain") {
      EXPECT_EQ(explain_json(g, op["node"].get<std::string>(), op["state"]), op["expect"]);
    } else if (name == "nodes") {
      EXPECT_EQ(Json(g.node_names()), op["expect"]);
    } else if (name == "edges") {
      EXPECT_EQ(edges_json(g, op["node"].get<std::string>()), op["expect"]);
    } else if (name == "hasNode") {
      EXPECT_EQ(g.has_node(op["id"].get<std::string>()), op["expect"].get<bool>());
    } else if (name == "size") {
      EXPECT_EQ(g.size(), op["expect"].get<std::size_t>());
    } else if (name == "isDag") {
      EXPECT_EQ(g.is_dag(), op["expect"].get<bool>());
    } else if (name == "roundTrip") {
      Json saved = definition::to_json(g);
      auto loaded = definition::graph_from_json(saved);
      ASSERT_TRUE(loaded.ok()) << definition::describe(loaded.error());
      EXPECT_EQ(definition::to_json(loaded.value()), saved);
      g = std::move(loaded.value());
    } else {
      FAIL() << "unknown op " << name;
    }
  }
}


// Registered before main runs the tests, so every vector is a test of its own in the report.
const bool registered = [] {
  Json conditions = testing::load_vectors("conditions.json");
  Json graphs = testing::load_vectors("graphs.json");
  if (conditions.is_discarded() || graphs.is_discarded()) {
    std::fprintf(stderr, "tests/vectors: a vector file is missing or not valid JSON\n");
    std::abort();
  }
  testing::register_cases("ConditionVectors", conditions["cases"], run_condition_case);
  testing::register_cases("GraphVectors", graphs["scenarios"], run_graph_scenario);
  return true;
}();

}  // namespace
}  // namespace handoff
