// check(): the issue's examples, near misses, and findings and cases compared with brute force on
// thousands of random graphs (every state from a pool of values, routed).
#include "check/check.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/json.h"
#include "export/definition.h"
#include "graph/handoff_graph.h"
#include "handoff/swarm.h"
#include "machine/machine.h"

namespace handoff::check {
namespace {

using Json = json::Value;

Json parse(const std::string& text) { return core::parse_json(text).value; }

graph::HandoffGraph graph_of(const std::vector<std::pair<std::string, std::optional<std::string>>>& edges) {
  graph::HandoffGraph g(graph::CyclePolicy::Allow);
  int i = 0;
  for (const auto& [to, when] : edges) {
    auto added = g.add_edge("n", to.empty() ? "t" + std::to_string(i) : to, when);
    EXPECT_TRUE(added) << (when ? *when : "");
    ++i;
  }
  return g;
}

std::vector<std::string> codes(const Json& report) {
  std::vector<std::string> out;
  for (const Json& f : report["findings"])
    out.push_back(f["code"].get<std::string>() + "@" + f["pointer"].get<std::string>());
  return out;
}

using Codes = std::vector<std::string>;

TEST(Check, UnsatisfiableConditions) {
  auto g = graph_of({{"", "x == 1 and x == 2"}, {"", "n > 5 and n < 3"}, {"", "x == 1 or x == 2"}, {"", std::nullopt}});
  Json r = check_graph(g);
  EXPECT_EQ(codes(r), (Codes{"unsatisfiable-condition@/edges/0", "unsatisfiable-condition@/edges/1"}));
  EXPECT_TRUE(r["ok"].get<bool>());
  ASSERT_EQ(r["cases"].size(), 2u);
  EXPECT_EQ(r["cases"][0]["edge"], 2);
  EXPECT_EQ(r["cases"][1]["edge"], 3);
}

TEST(Check, ShadowedEdgesNameTheEarlierOnes) {
  {
    auto g = graph_of({{"", std::nullopt}, {"", "x == 1"}});
    Json r = check_graph(g);
    EXPECT_EQ(codes(r), (Codes{"shadowed-edge@/edges/1"}));
    EXPECT_EQ(r["findings"][0]["shadowedBy"], parse("[0]"));
  }
  {
    auto g = graph_of({{"", "priority > 3"}, {"", "priority > 5"}});
    Json r = check_graph(g);
    EXPECT_EQ(codes(r), (Codes{"shadowed-edge@/edges/1", "no-match@/nodes/0"}));
  }
  {
    auto g = graph_of({{"", "x == 1 or y"}, {"", "x == 1"}, {"", std::nullopt}});
    EXPECT_EQ(codes(check_graph(g)), (Codes{"shadowed-edge@/edges/1"}));
  }
  {  // near misses: the later edge takes states the earlier does not
    auto g = graph_of(
        {{"", "priority > 5"}, {"", "priority > 3"}, {"", "x == 1 and y"}, {"", "x == 1"}, {"", std::nullopt}});
    Json r = check_graph(g);
    EXPECT_EQ(codes(r), Codes{});
    EXPECT_EQ(r["cases"].size(), 5u);
  }
}

TEST(Check, NoMatchHasAWitnessRouteAgrees) {
  auto g = graph_of({{"", "user.tier == 'gold'"}, {"", "priority > 3 and 'urgent' in tags"}});
  Json r = check_graph(g);
  ASSERT_EQ(codes(r), (Codes{"no-match@/nodes/0"}));
  const Json& witness = r["findings"][0]["witness"];
  EXPECT_EQ(g.route("n", witness), std::nullopt);
  for (const Json& c : r["cases"])
    EXPECT_EQ(g.route("n", c["state"]), c["to"].get<std::string>()) << core::dump_json(c);
}

TEST(Check, PartitionsOfOnePathHaveNoGap) {
  auto g = graph_of({{"", "x < 5"}, {"", "x >= 5"}, {"", "x == null"}, {"", "not (x < 5) and not (x >= 5)"}});
  Json r = check_graph(g);
  // Strings, booleans, lists and objects (and NaN) fall through the first three; the fourth takes them.
  EXPECT_EQ(codes(r), Codes{});
}

TEST(Check, StringsAndMembership) {
  auto g = graph_of({{"", "'ell' in word"},
                     {"", "word in 'hello'"},
                     {"", "word == 'he'"},
                     {"", "'a' in tags and 'b' in tags"},
                     {"", "tags == ['a', 'b']"},
                     {"", std::nullopt}});
  Json r = check_graph(g);
  // 'he' is a substring of 'hello': taken by edge 1 first.
  EXPECT_EQ(codes(r), (Codes{"shadowed-edge@/edges/2", "shadowed-edge@/edges/4"}));
}

Json check_machine_json(const std::string& json) {
  auto m = definition::machine_from_json(parse(json));
  EXPECT_TRUE(m) << json;
  return check_machine(*m.value());
}

TEST(Check, MachineFindings) {
  Json r = check_machine_json(R"({"format":"handoff-graph/state-machine","version":1,"start":"a",
    "states":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"}],
    "edges":[{"from":"a","to":"b","when":"x == 1"},{"from":"a","to":"c","when":"x == 2"},
             {"from":"b","to":"b"},{"from":"c","to":"__end__"},{"from":"d","to":"__end__"}]})");
  EXPECT_EQ(codes(r), (Codes{"no-match@/states/0", "no-exit@/states/1", "unreachable@/states/3"}));
  EXPECT_FALSE(r["ok"].get<bool>());
}

TEST(Check, ReservedNamesAreTheRunsValues) {
  // $visits.a counts the visit just run, and $step is at least the visits it adds up to.
  Json r = check_machine_json(R"({"format":"handoff-graph/state-machine","version":1,"start":"a","maxSteps":10,
    "states":[{"name":"a"}],
    "edges":[{"from":"a","to":"a","when":"$visits.a < 3"},{"from":"a","to":"__end__","when":"$visits.a >= 3"}]})");
  EXPECT_EQ(codes(r), Codes{});
  r = check_machine_json(R"({"format":"handoff-graph/state-machine","version":1,"start":"a","maxSteps":10,
    "states":[{"name":"a"}],
    "edges":[{"from":"a","to":"a","when":"$step < 20 and $state == 'a'"},{"from":"a","to":"__end__","when":"$visits.b == 0"}]})");
  // $step never reaches 20 with maxSteps 10, so the loop never ends: END's edge is shadowed.
  EXPECT_EQ(codes(r), (Codes{"shadowed-edge@/edges/1", "no-exit@/states/0"}));
  r = check_machine_json(R"({"format":"handoff-graph/state-machine","version":1,"start":"a","maxSteps":10,
    "states":[{"name":"a"}],
    "edges":[{"from":"a","to":"a","when":"$visits.a < 3"},{"from":"a","to":"__end__","when":"$step >= 4"}]})");
  ASSERT_EQ(codes(r), (Codes{"no-match@/states/0"}));
  EXPECT_EQ(r["findings"][0]["witness"], parse(R"({"$step":3,"$visits":{"a":3}})"));
  // `$visits` itself is an object of every state's count: never a string, never without 'a'.
  r = check_machine_json(R"({"format":"handoff-graph/state-machine","version":1,"start":"a","maxSteps":10,
    "states":[{"name":"a"}],
    "edges":[{"from":"a","to":"__end__","when":"$visits == 'x' or 'zz' in $visits"},{"from":"a","to":"a"}]})");
  EXPECT_EQ(codes(r), (Codes{"unsatisfiable-condition@/edges/0", "no-exit@/states/0"}));
  r = check_machine_json(R"({"format":"handoff-graph/state-machine","version":1,"start":"a","maxSteps":10,
    "states":[{"name":"a"}],
    "edges":[{"from":"a","to":"__end__","when":"'a' in $visits and $visits.a >= 2"},{"from":"a","to":"a"}]})");
  EXPECT_EQ(codes(r), Codes{});
  EXPECT_EQ(r["cases"][0]["state"], parse(R"({"$visits":{"a":2}})"));
}

// ---- brute force ------------------------------------------------------------------------------

const char* const kAtoms[] = {
    "P == 1",
    "P != 2",
    "P < 2",
    "P >= 2",
    "P > 2.5",
    "P <= -1",
    "P == 'a'",
    "P != 'ab'",
    "P > 'a'",
    "P <= 'b'",
    "'a' in P",
    "'b' in P",
    "1 in P",
    "P in [1, 'a', 3]",
    "P in ['b', 2]",
    "P in 'abc'",
    "P",
    "not P",
    "P == null",
    "P == true",
    "P == [1, 2]",
    "P in [[1, 2], 'x']",
    "'ab' in P",
    "P == ''",
};

std::string atom(std::mt19937& rng, const std::vector<std::string>& paths) {
  std::string a = kAtoms[rng() % std::size(kAtoms)];
  a.replace(a.find('P'), 1, paths[rng() % paths.size()]);
  return a;
}

std::string condition(std::mt19937& rng, const std::vector<std::string>& paths, int depth = 0) {
  switch (depth < 2 ? rng() % 5 : 0) {
    case 1:
      return "(" + condition(rng, paths, depth + 1) + " and " + condition(rng, paths, depth + 1) + ")";
    case 2:
      return "(" + condition(rng, paths, depth + 1) + " or " + condition(rng, paths, depth + 1) + ")";
    case 3:
      return "not (" + condition(rng, paths, depth + 1) + ")";
    default:
      return atom(rng, paths);
  }
}

// Tests that stay within what check decides exactly: numbers compared with numbers on one path,
// strings and lists tested for equality and members on the other, truth on either.
const char* const kNumberAtoms[] = {"P == 1",  "P != 2", "P < 2", "P >= 2",    "P > 2.5",
                                    "P <= -1", "P",      "not P", "P == null", "P in [1, 3]"};
const char* const kMemberAtoms[] = {"'a' in P",   "'b' in P",        "P == 'a'", "P != 'ab'", "P in ['b', 'ab']",
                                    "P in 'abc'", "P == ['a', 'b']", "P",        "P == ''"};

std::string decided_condition(std::mt19937& rng, int depth = 0) {
  switch (depth < 2 ? rng() % 5 : 0) {
    case 1:
      return "(" + decided_condition(rng, depth + 1) + " and " + decided_condition(rng, depth + 1) + ")";
    case 2:
      return "(" + decided_condition(rng, depth + 1) + " or " + decided_condition(rng, depth + 1) + ")";
    case 3:
      return "not (" + decided_condition(rng, depth + 1) + ")";
    default: {
      bool numbers = rng() % 2 == 0;
      std::string a =
          numbers ? kNumberAtoms[rng() % std::size(kNumberAtoms)] : kMemberAtoms[rng() % std::size(kMemberAtoms)];
      a.replace(a.find('P'), 1, numbers ? "a" : "b");
      return a;
    }
  }
}

const char* const kPool[] = {"null",      "true",  "false",  "0",   "1",       "2",        "2.5",
                             "3",         "-1",    "-5",     "'a'", "'b'",     "'ab'",     "'ba'",
                             "'abc'",     "''",    "'c'",    "[]",  "[1]",     "[1,2]",    "['a']",
                             "['a','b']", "[2,1]", "['ab']", "{}",  "{'a':1}", "{'ab':1}", "{'x':1}"};

// Within the exact fragment, nothing is left undecided, on a thousand random graphs.
TEST(Check, DecidesEverythingWithinTheExactFragment) {
  std::mt19937 rng(31);
  for (int round = 0; round < 1000; ++round) {
    std::vector<std::pair<std::string, std::optional<std::string>>> edges;
    const int count = 1 + static_cast<int>(rng() % 6);
    for (int i = 0; i < count; ++i) edges.push_back({"", decided_condition(rng)});
    auto g = graph_of(edges);
    Json r = check_graph(g);
    for (const Json& f : r["findings"]) ASSERT_NE(f["code"], "undecided") << core::dump_json(r);
  }
}

// Order and contents on one string path, against every string of up to four letters of a, b, c, d.
TEST(Check, OrderAndContentsOfOneStringAgreeWithBruteForce) {
  const char* const atoms[] = {"x < 'b'",   "x >= 'ab'",   "x > 'ba'",  "x <= 'c'", "'a' in x",  "'bc' in x",
                               "'ca' in x", "x in 'abcd'", "x == 'ab'", "x",        "x > 'abc'", "x < 'bb'"};
  std::vector<Json> pool{Json()};
  std::vector<std::string> strings{""};
  for (std::size_t from = 0; from < strings.size() && strings.size() < 341; ++from) {
    if (strings[from].size() == 4) continue;
    for (char c : std::string("abcd")) strings.push_back(strings[from] + c);
  }
  for (const std::string& s : strings) pool.push_back(s);
  std::mt19937 rng(7);
  int undecided = 0;
  for (int round = 0; round < 400; ++round) {
    std::vector<std::pair<std::string, std::optional<std::string>>> edges;
    const int count = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < count; ++i) {
      std::string when = atoms[rng() % std::size(atoms)];
      if (rng() % 2)
        when += std::string(rng() % 2 ? " and " : " or ") + (rng() % 3 ? "" : "not ") + atoms[rng() % std::size(atoms)];
      edges.push_back({"", when});
    }
    auto g = graph_of(edges);
    Json r = check_graph(g);
    std::vector<bool> wins(count, false);
    bool gap = false;
    for (std::size_t k = 0; k < pool.size(); ++k) {
      Json state = Json::object();
      if (k > 0) state["x"] = pool[k];
      auto to = g.route("n", state);
      if (!to)
        gap = true;
      else
        wins[std::stoi(to->substr(1))] = true;
    }
    std::vector<bool> has_case(count, false);
    for (const Json& c : r["cases"]) has_case[c["edge"].get<int>()] = true;
    bool reported_gap = false;
    for (const Json& f : r["findings"]) {
      if (f["code"] == "undecided") ++undecided;
      if (f["code"] == "no-match") reported_gap = true;
      if (f["code"] == "shadowed-edge" || f["code"] == "unsatisfiable-condition")
        EXPECT_FALSE(wins[f["edge"].get<int>()]) << core::dump_json(r);
    }
    for (int e = 0; e < count; ++e) {
      if (wins[e]) EXPECT_TRUE(has_case[e]) << core::dump_json(r);
    }
    if (gap) EXPECT_TRUE(reported_gap) << core::dump_json(r);
  }
  EXPECT_EQ(undecided, 0);
}

TEST(Check, AgreesWithBruteForceOnRandomGraphs) {
  std::mt19937 rng(20261129);
  std::vector<Json> pool;
  pool.push_back(Json());  // missing
  for (const char* text : kPool) {
    std::string t = text;
    for (char& c : t) c = c == '\'' ? '"' : c;
    pool.push_back(parse(t));
  }
  int graphs = 0;
  int undecided = 0;
  int graphs_undecided = 0;
  int edges_total = 0;
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::string> paths = {"a", "b"};
    if (round % 7 == 0) paths = {"a"};
    const int count = 1 + static_cast<int>(rng() % 5);
    std::vector<std::pair<std::string, std::optional<std::string>>> edges;
    for (int i = 0; i < count; ++i) {
      if (rng() % 8 == 0)
        edges.push_back({"", std::nullopt});
      else
        edges.push_back({"", condition(rng, paths)});
    }
    auto g = graph_of(edges);
    Json report = check_graph(g);
    ++graphs;
    edges_total += count;
    // Brute force: every combination of pool values for the paths.
    std::vector<bool> wins(count, false);
    std::vector<bool> holds(count, false);
    bool gap = false;
    const std::size_t n = pool.size();
    const std::size_t total = paths.size() == 1 ? n : n * n;
    for (std::size_t k = 0; k < total; ++k) {
      Json state = Json::object();
      const Json& va = pool[k % n];
      if (!va.is_null() || k % n != 0) state["a"] = va;
      if (paths.size() == 2) {
        const Json& vb = pool[k / n];
        if (k / n != 0) state["b"] = vb;
      }
      auto to = g.route("n", state);
      if (!to)
        gap = true;
      else
        wins[std::stoi(to->substr(1))] = true;
    }
    std::vector<int> kind(count, 0);  // 1 case, 2 unsat/shadowed, 3 undecided
    for (const Json& c : report["cases"]) {
      int e = c["edge"].get<int>();
      kind[e] = 1;
      EXPECT_EQ(g.route("n", c["state"]), c["to"].get<std::string>()) << core::dump_json(report);
    }
    bool reported_gap = false;
    bool any_undecided = false;
    for (const Json& f : report["findings"]) {
      const std::string code = f["code"].get<std::string>();
      if (code == "no-match") {
        reported_gap = true;
        EXPECT_EQ(g.route("n", f["witness"]), std::nullopt);
      } else if (code == "undecided") {
        ++undecided;
        any_undecided = true;
        if (f.contains("edge"))
          kind[f["edge"].get<int>()] = 3;
        else
          reported_gap = true;  // counted as not wrong
      } else {
        int e = f["edge"].get<int>();
        kind[e] = 2;
        // Never wrong: brute force must not find a state that takes it (or, unsatisfiable, makes it true).
        EXPECT_FALSE(wins[e]) << code << " " << core::dump_json(report);
      }
    }
    for (int e = 0; e < count; ++e) {
      EXPECT_NE(kind[e], 0) << "edge " << e << " has neither case nor finding: " << core::dump_json(report);
      if (wins[e]) EXPECT_NE(kind[e], 2);
    }
    graphs_undecided += any_undecided;
    if (gap) EXPECT_TRUE(reported_gap) << "brute force found a state matching nothing: " << core::dump_json(report);
  }
  std::printf("[ check ] %d random graphs, %d edges: %d undecided findings, in %d graphs\n", graphs, edges_total,
              undecided, graphs_undecided);
}

}  // namespace
}  // namespace handoff::check

namespace handoff::check {
namespace {

Json check_swarm_json(const std::string& text) {
  auto s = swarm::Swarm::from_json(parse(text));
  EXPECT_TRUE(s) << text;
  return check_swarm(*s.value());
}

TEST(Check, SwarmRulesToolsAndReach) {
  Json r = check_swarm_json(R"({"format":"handoff-graph/swarm","version":1,"name":"s",
    "agents":[{"id":"triage","entry":true},{"id":"billing"},{"id":"support"},{"id":"orphan"},{"id":"vip"}],
    "edges":[{"from":"triage","to":"billing","when":"category == 'billing'"},
             {"from":"triage","to":"support","when":"category == 'billing' and amount > 3"},
             {"from":"triage","to":"support"},
             {"from":"triage","to":"vip","when":"tier == 'gold' and tier == 'silver'","offer":true},
             {"from":"orphan","to":"billing"}]})");
  EXPECT_EQ(codes(r), (Codes{"unreachable@/agents/3", "unreachable@/agents/4", "shadowed-edge@/edges/1",
                             "unsatisfiable-condition@/edges/3"}));
  ASSERT_EQ(r["cases"].size(), 1u);
  EXPECT_EQ(r["cases"][0]["state"], parse(R"({"category":"billing"})"));
}

TEST(Check, SwarmRequiredVariablesAndContinuations) {
  // A rule whose required variable is missing does not fire, so the next rule can.
  Json r = check_swarm_json(R"({"format":"handoff-graph/swarm","version":1,"name":"s",
    "agents":[{"id":"a","entry":true,"handoffs":1},{"id":"b"},{"id":"c"}],
    "edges":[{"from":"a","to":"b","when":"x == 1","requires":["orderId"]},
             {"from":"a","to":"c","when":"x == 1"},
             {"from":"a","to":"b","continuation":true},
             {"from":"a","to":"c","continuation":true}]})");
  EXPECT_EQ(codes(r), (Codes{"shadowed-edge@/edges/3"}));
  ASSERT_EQ(r["cases"].size(), 3u);
  EXPECT_EQ(r["cases"][1]["state"], parse(R"({"x":1})"));
  EXPECT_TRUE(r["cases"][2]["exhausted"].get<bool>());
}

}  // namespace
}  // namespace handoff::check

namespace handoff::check {
namespace {

// tests/vectors/check.json, as Node and Chromium run it (tests/js/check-runner.js).
TEST(Check, SharedVectors) {
  std::ifstream in(std::string(HANDOFF_VECTORS_DIR) + "/check.json");
  std::stringstream text;
  text << in.rdbuf();
  Json vectors = parse(text.str());
  ASSERT_GE(vectors["scenarios"].size(), 10u);
  for (const Json& s : vectors["scenarios"]) {
    const Json& definition = s["definition"];
    const std::string format = definition["format"].get<std::string>();
    Json report;
    if (format == "handoff-graph") {
      report = check_graph(definition::graph_from_json(definition).value());
    } else if (format == "handoff-graph/state-machine") {
      report = check_machine(*definition::machine_from_json(definition).value());
    } else {
      report = check_swarm(*swarm::Swarm::from_json(definition).value());
    }
    Json witnesses = Json::object();
    Json cases = Json::object();
    for (const Json& f : report["findings"]) {
      if (f.contains("witness")) witnesses[f["pointer"].get<std::string>()] = f["witness"];
    }
    for (const Json& c : report["cases"]) cases[c["pointer"].get<std::string>()] = c["state"];
    const std::string name = s["name"].get<std::string>();
    EXPECT_EQ(report["ok"], s["ok"]) << name;
    EXPECT_EQ(Json(codes(report)), s["findings"]) << name;
    EXPECT_EQ(witnesses, s["witnesses"]) << name;
    EXPECT_EQ(cases, s["cases"]) << name;
  }
}

}  // namespace
}  // namespace handoff::check

namespace handoff::check {
namespace {

// Hostile definitions end, quickly enough for a test, and claim nothing they did not decide.
TEST(Check, BoundedOnHostileDefinitions) {
  {  // a long allow-list: 20,001 classes for one path, more than a node may try
    std::string list = "x in [";
    for (int i = 0; i < 10000; ++i) list += (i ? ", " : "") + std::to_string(i);
    list += "]";
    auto g = graph_of({{"", list}, {"", "x == 5"}, {"", std::nullopt}});
    Json r = check_graph(g);
    EXPECT_EQ(codes(r), (Codes{"shadowed-edge@/edges/1"})) << core::dump_json(r["findings"]);
  }
  {  // many nodes, each with many long conditions over many paths: the work budget runs out
    graph::HandoffGraph g(graph::CyclePolicy::Allow);
    std::string when;
    for (int p = 0; p < 12; ++p)
      when += (p ? " or " : "") + std::string("(p") + std::to_string(p) + " > 1 and p" + std::to_string(p) + " < 3)";
    for (int n = 0; n < 200; ++n) {
      for (int e = 0; e < 20; ++e)
        ASSERT_TRUE(g.add_edge("n" + std::to_string(n), "t", when + " and q" + std::to_string(e)));
    }
    Json r = check_graph(g);
    int undecided = 0;
    for (const Json& f : r["findings"]) undecided += f["code"] == "undecided";
    EXPECT_GT(undecided, 0);
    for (const Json& f : r["findings"])
      EXPECT_TRUE(f["code"] == "undecided" || f["code"] == "no-match") << core::dump_json(f);
  }
}

}  // namespace
}  // namespace handoff::check
