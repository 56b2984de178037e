// The compiled forms that make routing fast must not change one answer: a node's switch (hash
// dispatch on one path) against trying every edge in order (explain), and `in` on a constant list
// answered by a key set against the same list written as an `or` of `==`, on random graphs and
// states built to hit every kind of key (strings known and unknown, -0, numbers vs strings, null
// vs missing, booleans, containers, duplicate keys, keys shared by several edges).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "condition/json_state.h"
#include "graph/handoff_graph.h"

namespace handoff::graph {
namespace {

using condition::Json;

const std::vector<std::string> kLiterals = {"'a'", "'b'", "'c'", "'d'", "'e'", "'f'", "'g'", "'h'", "'i'", "0", "-0",
                                            "1", "2.5", "true", "false", "null", "'1'", "''", "'é'"};

std::string pick(std::mt19937& rng, const std::vector<std::string>& xs) { return xs[rng() % xs.size()]; }

std::string random_list(std::mt19937& rng) {
  std::size_t n = rng() % 14;  // both sides of the set threshold
  std::string out = "[";
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) out += ", ";
    out += rng() % 12 == 0 ? "[" + pick(rng, kLiterals) + "]" : pick(rng, kLiterals);  // sometimes nested: no set
  }
  return out + "]";
}

// A test of one of few paths, mostly in the forms that guard (p == c, c == p, p in [...]).
std::string random_test(std::mt19937& rng, const std::vector<std::string>& paths) {
  std::string path = pick(rng, paths);
  switch (rng() % 9) {
    case 0:
    case 1:
    case 2: return path + " == " + pick(rng, kLiterals);
    case 3: return pick(rng, kLiterals) + " == " + path;
    case 4:
    case 5: return path + " in " + random_list(rng);
    case 6: return path + " != " + pick(rng, kLiterals);
    case 7: return path + " not in " + random_list(rng);
    default: return path + " > 0";
  }
}

std::string random_condition(std::mt19937& rng, const std::vector<std::string>& paths) {
  switch (rng() % 6) {
    case 0:
    case 1:
    case 2: return random_test(rng, paths);
    case 3: return random_test(rng, paths) + " and " + random_test(rng, paths);
    case 4: return random_test(rng, paths) + " or " + random_test(rng, paths);
    default: return "not (" + random_test(rng, paths) + ")";
  }
}

Json random_value(std::mt19937& rng) {
  switch (rng() % 12) {
    case 0: return nullptr;
    case 1: return rng() % 2 == 0;
    case 2: return static_cast<double>(rng() % 3);
    case 3: return -0.0;
    case 4: return 2.5;
    case 5: return "zzz";  // not interned
    case 6: return Json::array({"a"});
    case 7: return Json::object({{"a", 1}});
    default: return std::string(1, static_cast<char>('a' + rng() % 9));
  }
}

TEST(Dispatch, SwitchesAnswerAsTryingEveryEdgeInOrder) {
  std::mt19937 rng(20261123);
  const std::vector<std::string> paths = {"x", "x", "x", "y", "u.v"};
  int switched_routes = 0;
  for (int round = 0; round < 400; ++round) {
    HandoffGraph g(CyclePolicy::Allow);
    std::size_t edges = 1 + rng() % 40;
    for (std::size_t e = 0; e < edges; ++e) {
      std::string to = "t" + std::to_string(e);
      if (rng() % 15 == 0) {
        ASSERT_TRUE(g.add_edge("n", to).ok());
      } else {
        std::string when = random_condition(rng, paths);
        ASSERT_TRUE(g.add_edge("n", to, when).ok()) << when;
      }
    }
    NodeId node = g.find("n");
    condition::JsonStateWriter writer(g.strings());
    for (int s = 0; s < 60; ++s) {
      Json state = Json::object();
      if (rng() % 8 != 0) state["x"] = random_value(rng);
      if (rng() % 4 != 0) state["y"] = random_value(rng);
      if (rng() % 3 == 0) state["u"] = Json::object({{"v", random_value(rng)}});
      writer.write(state, g.route_paths(node));
      std::vector<EdgeTrace> trace;
      std::int32_t expected = g.explain(node, writer.slots().data(), trace);
      std::int32_t got = g.route(node, writer.slots().data());
      ASSERT_EQ(got, expected) << "round " << round << ", state " << state.dump();
      if (got >= 0) ++switched_routes;
    }
  }
  EXPECT_GT(switched_routes, 1000);
}

TEST(Dispatch, ManyEdgesShareOneSwitchAndKeysRepeat) {
  HandoffGraph g;
  ASSERT_TRUE(g.add_edge("n", "a", "x == 'k' and y == 1").ok());
  ASSERT_TRUE(g.add_edge("n", "b", "x in ['k', 'k', 'j'] and y == 2").ok());
  ASSERT_TRUE(g.add_edge("n", "c", "'k' == x").ok());
  ASSERT_TRUE(g.add_edge("n", "d", "x == 'j' or x == 0").ok());
  ASSERT_TRUE(g.add_edge("n", "e").ok());
  EXPECT_EQ(g.route("n", Json::parse(R"({"x": "k", "y": 1})")), "a");
  EXPECT_EQ(g.route("n", Json::parse(R"({"x": "k", "y": 2})")), "b");
  EXPECT_EQ(g.route("n", Json::parse(R"({"x": "k", "y": 3})")), "c");
  EXPECT_EQ(g.route("n", Json::parse(R"({"x": "j", "y": 3})")), "d");
  EXPECT_EQ(g.route("n", Json::parse(R"({"x": -0.0})")), "d");
  EXPECT_EQ(g.route("n", Json::parse(R"({"x": "0"})")), "e");
  EXPECT_EQ(g.route("n", Json::parse(R"({"x": ["k"]})")), "e");
  EXPECT_EQ(g.route("n", Json::parse(R"({})")), "e");
}

// `x in [l1, …, ln]` with a key set against `x == l1 or … or x == ln`, which never uses one.
TEST(Dispatch, KeySetsAnswerAsComparingEveryItem) {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::size_t n = rng() % 40;
    std::string list;
    std::string chain;
    for (std::size_t i = 0; i < n; ++i) {
      std::string item = pick(rng, kLiterals);
      list += (i ? ", " : "") + item;
      chain += (i ? " or " : "") + std::string("x == ") + item;
    }
    condition::Interner strings;
    auto with_set = condition::Condition::compile("x in [" + list + "]", strings);
    auto negated = condition::Condition::compile("x not in [" + list + "]", strings);
    auto reference = condition::Condition::compile(n == 0 ? "false" : chain, strings);
    ASSERT_TRUE(with_set && negated && reference);
    for (int s = 0; s < 40; ++s) {
      Json state = Json::object({{"x", random_value(rng)}});
      bool expected = condition::evaluate(reference.value(), state, strings);
      ASSERT_EQ(condition::evaluate(with_set.value(), state, strings), expected) << list << " " << state.dump();
      ASSERT_EQ(condition::evaluate(negated.value(), state, strings), !expected) << list << " " << state.dump();
    }
  }
}

}  // namespace
}  // namespace handoff::graph
