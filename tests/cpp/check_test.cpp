// check(): the issue's examples, near misses, and findings and cases compared with brute force on
// thousands of random graphs (every state from a pool of values, routed).
#include "check/check.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
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

// Rounds of a random brute-force test: all of them natively; a tenth (the same seeds, so the first
// graphs of the full run) under the sanitizers (scripts/test.sh's clang build, about 15x slower),
// which look for memory errors and undefined behaviour rather than for more graphs.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HANDOFF_CHECK_SANITIZED 1
#endif
#endif
constexpr int rounds(int n) {
#ifdef HANDOFF_CHECK_SANITIZED
  return n / 10;
#else
  return n;
#endif
}

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
  // No count passes maxSteps, even where no condition reads $step: b is never visited 10 times in
  // 5 steps, so every moment matches the edge (this was a no-match error, witness {"$visits":{"b":10}}).
  r = check_machine_json(R"({"format":"handoff-graph/state-machine","version":1,"start":"a","maxSteps":5,
    "states":[{"name":"a"},{"name":"b"}],
    "edges":[{"from":"a","to":"b","when":"$visits.b < 10"},{"from":"b","to":"__end__"}]})");
  EXPECT_EQ(codes(r), Codes{});
  EXPECT_TRUE(r["ok"].get<bool>());
  // Nor do the counts together: a and b visited 3 times each is not a moment of a 5-step run. The
  // counts are tried one by one, so check cannot prove that gap empty; it finds no moment to show
  // it and says so (undecided), never an error.
  r = check_machine_json(R"({"format":"handoff-graph/state-machine","version":1,"start":"a","maxSteps":5,
    "states":[{"name":"a"},{"name":"b"}],
    "edges":[{"from":"a","to":"b","when":"$visits.a < 3 or $visits.b < 3"},{"from":"b","to":"a"}]})");
  EXPECT_EQ(codes(r), (Codes{"no-exit@/states/0", "undecided@/states/0", "no-exit@/states/1"}));
}

std::vector<Json> pool_of(const std::string& text) {
  std::vector<Json> pool{Json()};  // first: the path is missing
  for (const Json& v : parse(text)) pool.push_back(v);
  return pool;
}

// One to five edges, one in eight without a condition, the others with `make()`'s.
template <class Make>
std::vector<std::pair<std::string, std::optional<std::string>>> random_edges(std::mt19937& rng, Make&& make) {
  const int count = 1 + static_cast<int>(rng() % 5);
  std::vector<std::pair<std::string, std::optional<std::string>>> edges;
  for (int i = 0; i < count; ++i) {
    if (rng() % 8 == 0)
      edges.push_back({"", std::nullopt});
    else
      edges.push_back({"", make()});
  }
  return edges;
}

struct Tally {
  int graphs = 0;
  int edges = 0;
  int undecided = 0;
  int cases = 0;
  int findings = 0;
  std::map<std::string, int> reasons;
};

// Routes every combination of pool values and compares with the report: every edge brute force
// sees taken has a case, and (`exact`) every case and gap check reports brute force sees too.
void compare_with_brute_force(const graph::HandoffGraph& g, int count, const std::vector<std::string>& paths,
                              const std::vector<Json>& pool, bool exact, Tally& tally) {
  Json report = check_graph(g);
  std::vector<bool> wins(count, false);
  bool gap = false;
  std::size_t total = 1;
  for (std::size_t i = 0; i < paths.size(); ++i) total *= pool.size();
  for (std::size_t k = 0; k < total; ++k) {
    Json state = Json::object();
    std::size_t rest = k;
    for (const std::string& path : paths) {
      std::size_t at = rest % pool.size();
      rest /= pool.size();
      if (at != 0) state[path] = pool[at];
    }
    auto to = g.route("n", state);
    if (!to)
      gap = true;
    else
      wins[std::stoi(to->substr(1))] = true;
  }
  std::vector<int> kind(count, 0);  // 1 case, 2 unsatisfiable or shadowed, 3 undecided
  for (const Json& c : report["cases"]) {
    kind[c["edge"].get<int>()] = 1;
    ++tally.cases;
    ASSERT_EQ(g.route("n", c["state"]), c["to"].get<std::string>()) << core::dump_json(report);
  }
  bool reported_gap = false;
  bool undecided_gap = false;
  for (const Json& f : report["findings"]) {
    const std::string code = f["code"].get<std::string>();
    ++tally.findings;
    if (code == "no-match") {
      reported_gap = true;
      ASSERT_EQ(g.route("n", f["witness"]), std::nullopt);
    } else if (code == "undecided") {
      ++tally.undecided;
      {
        std::string m = f["message"].get<std::string>();
        ++tally.reasons[m.substr(m.find("`: ") == std::string::npos ? m.rfind(": ") : m.find("`: "))];
      }
      if (f.contains("edge"))
        kind[f["edge"].get<int>()] = 3;
      else
        undecided_gap = true;
    } else {
      kind[f["edge"].get<int>()] = 2;
      ASSERT_FALSE(wins[f["edge"].get<int>()]) << code << " " << core::dump_json(report);
    }
  }
  for (int e = 0; e < count; ++e) {
    ASSERT_NE(kind[e], 0) << "edge " << e << ": " << core::dump_json(report);
    if (wins[e]) {
      ASSERT_NE(kind[e], 2) << core::dump_json(report);
    }
    if (exact && kind[e] != 3) {
      ASSERT_EQ(wins[e], kind[e] == 1) << "edge " << e << ": " << core::dump_json(report);
    }
  }
  if (gap) {
    ASSERT_TRUE(reported_gap || undecided_gap) << core::dump_json(report);
  }
  if (exact && !undecided_gap) {
    ASSERT_EQ(gap, reported_gap) << core::dump_json(report);
  }
  ++tally.graphs;
  tally.edges += count;
}

std::string reasons(const Json& report) {
  std::string out;
  for (const Json& f : report["findings"]) out += f["message"].get<std::string>() + "\n";
  return out;
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

// kPool as JSON, after a first entry that stands for a missing path.
std::vector<Json> kpool() {
  std::vector<Json> pool{Json()};
  for (const char* text : kPool) {
    std::string t = text;
    for (char& c : t) c = c == '\'' ? '"' : c;
    pool.push_back(parse(t));
  }
  return pool;
}

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
      if (f["code"] == "shadowed-edge" || f["code"] == "unsatisfiable-condition") {
        EXPECT_FALSE(wins[f["edge"].get<int>()]) << core::dump_json(r);
      }
    }
    for (int e = 0; e < count; ++e) {
      if (wins[e]) {
        EXPECT_TRUE(has_case[e]) << core::dump_json(r);
      }
    }
    if (gap) {
      EXPECT_TRUE(reported_gap) << core::dump_json(r);
    }
  }
  EXPECT_EQ(undecided, 0);
}

TEST(Check, AgreesWithBruteForceOnRandomGraphs) {
  std::mt19937 rng(20261129);
  const std::vector<Json> pool = kpool();
  Tally tally;
  for (int round = 0; round < rounds(3000); ++round) {
    std::vector<std::string> paths = {"a", "b"};
    if (round % 7 == 0) paths = {"a"};
    const auto edges = random_edges(rng, [&] { return condition(rng, paths); });
    auto g = graph_of(edges);
    compare_with_brute_force(g, static_cast<int>(edges.size()), paths, pool, false, tally);
    if (HasFatalFailure()) return;
  }
  std::printf("[ check ] %d random graphs, %d edges: %d undecided findings\n", tally.graphs, tally.edges, tally.undecided);
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

namespace handoff::check {
namespace {

// ---- comparisons between paths ------------------------------------------------------------------

// Each kind of test a path-to-path comparison may meet: constants of every kind, compared whole.
const char* const kComparedAtoms[] = {
    "P == 1",    "P != 2",     "P < 2",      "P >= 2",           "P > 2.5",         "P <= -1",
    "P == 'a'",  "P != 'ab'",  "P > 'a'",    "P <= 'b'",         "P < 'ab'",        "1 in P",
    "P",         "not P",      "P == null",  "P == true",        "P == [1, 2]",     "P in [1, 'a', 3]",
    "P == ''",   "P > 0",      "P >= 'x'",   "P in [[1, 2], 'x']", "P in ['b', 2]",
};
const char* const kPathOps[] = {"==", "!=", "<", "<=", ">", ">="};

std::string compared_condition(std::mt19937& rng, const std::vector<std::string>& paths, int depth = 0) {
  switch (depth < 2 ? rng() % 5 : 0) {
    case 1:
      return "(" + compared_condition(rng, paths, depth + 1) + " and " + compared_condition(rng, paths, depth + 1) +
             ")";
    case 2:
      return "(" + compared_condition(rng, paths, depth + 1) + " or " + compared_condition(rng, paths, depth + 1) + ")";
    case 3:
      return "not (" + compared_condition(rng, paths, depth + 1) + ")";
    default: {
      if (rng() % 2 == 0) {  // two different paths
        std::size_t p = rng() % paths.size();
        std::size_t q = (p + 1 + rng() % (paths.size() - 1)) % paths.size();
        return paths[p] + " " + kPathOps[rng() % std::size(kPathOps)] + " " + paths[q];
      }
      std::string a = kComparedAtoms[rng() % std::size(kComparedAtoms)];
      a.replace(a.find('P'), 1, paths[rng() % paths.size()]);
      return a;
    }
  }
}

// Two paths compared with each other by every operator, mixed with tests against constants of
// every kind that compare whole values: decided exactly, and in agreement with brute force over a
// pool that holds, between and around every constant, as many values as there are paths.
TEST(Check, ComparisonsBetweenTwoPathsAgreeWithBruteForce) {
  const std::vector<Json> pool = pool_of(R"([null, true, false,
    -5, -3, -1, -0.5, -0.2, 0, 0.2, 0.5, 1, 1.2, 1.5, 2, 2.2, 2.3, 2.5, 2.7, 3, 4,
    "", "0", "A", "a", "a0", "aa", "ab", "abc", "ac", "b", "ba", "c", "x", "xa", "y",
    [], [1], [2], [1, 2], [2, 1], ["x"], [[1, 2]], {}, {"a": 1}, {"b": 1}])");
  std::mt19937 rng(20261130);
  Tally tally;
  for (int round = 0; round < rounds(3000); ++round) {
    const std::vector<std::string> paths = {"a", "b"};
    const auto edges = random_edges(rng, [&] { return compared_condition(rng, paths); });
    auto g = graph_of(edges);
    compare_with_brute_force(g, static_cast<int>(edges.size()), paths, pool, true, tally);
    if (HasFatalFailure()) return;
  }
  std::printf("[ check ] %d random graphs comparing two paths, %d edges, %d cases, %d findings: %d undecided\n",
              tally.graphs, tally.edges, tally.cases, tally.findings, tally.undecided);
  EXPECT_EQ(tally.undecided, 0);
}

}  // namespace
}  // namespace handoff::check

namespace handoff::check {
namespace {

// Three paths: classes need three values each.
TEST(Check, ComparisonsBetweenThreePathsAgreeWithBruteForce) {
  const std::vector<Json> pool = pool_of(R"([null, true, -3, -2, -1, 0, 0.3, 0.5, 0.7, 1, 2, 3, 4,
    "", "0", "1", "2", "a", "b", "c", "d", [], [1], {}])");
  const char* const atoms[] = {"P == 1", "P < 1", "P > 0", "P == 'a'", "P < 'a'", "P > 'a'", "P", "P == [1]"};
  std::mt19937 rng(3);
  Tally tally;
  const std::vector<std::string> paths = {"a", "b", "c"};
  for (int round = 0; round < rounds(150); ++round) {
    const int count = 1 + static_cast<int>(rng() % 4);
    std::vector<std::pair<std::string, std::optional<std::string>>> edges;
    for (int i = 0; i < count; ++i) {
      std::string when;
      for (int t = 0, n = 1 + static_cast<int>(rng() % 3); t < n; ++t) {
        std::string a;
        if (rng() % 3 != 0) {
          std::size_t p = rng() % 3;
          a = paths[p] + " " + kPathOps[rng() % std::size(kPathOps)] + " " + paths[(p + 1 + rng() % 2) % 3];
        } else {
          a = atoms[rng() % std::size(atoms)];
          a.replace(a.find('P'), 1, paths[rng() % 3]);
        }
        when += (t == 0 ? "" : rng() % 3 ? " and " : " or ") + std::string(rng() % 4 ? "" : "not ") + a;
      }
      edges.push_back({"", when});
    }
    auto g = graph_of(edges);
    compare_with_brute_force(g, count, paths, pool, true, tally);
    if (HasFatalFailure()) return;
  }
  std::printf("[ check ] %d random graphs comparing three paths, %d edges, %d cases, %d findings: %d undecided\n",
              tally.graphs, tally.edges, tally.cases, tally.findings, tally.undecided);
  EXPECT_EQ(tally.undecided, 0);
}

// Every kind of test, path comparisons among them, `in` between paths and a path compared with
// itself included: what check claims is never contradicted, and where it does not decide it says so.
TEST(Check, ComparisonsWithEveryKindOfTestAreNeverWrong) {
  const std::vector<Json> pool = kpool();
  const char* const path_atoms[] = {"P == Q", "P != Q", "P < Q", "P >= Q", "P in Q", "P == P", "P <= P", "P > Q"};
  std::mt19937 rng(11);
  Tally tally;
  const std::vector<std::string> paths = {"a", "b"};
  for (int round = 0; round < rounds(2000); ++round) {
    const int count = 1 + static_cast<int>(rng() % 5);
    std::vector<std::pair<std::string, std::optional<std::string>>> edges;
    for (int i = 0; i < count; ++i) {
      std::string when = condition(rng, paths);
      std::string a = path_atoms[rng() % std::size(path_atoms)];
      const bool swap = rng() % 2 != 0;
      for (char& c : a) c = c == 'P' ? (swap ? 'b' : 'a') : c == 'Q' ? (swap ? 'a' : 'b') : c;
      edges.push_back({"", "(" + when + ")" + (rng() % 2 ? " and " : " or ") + a});
    }
    auto g = graph_of(edges);
    compare_with_brute_force(g, count, paths, pool, false, tally);
    if (HasFatalFailure()) return;
  }
  std::printf("[ check ] %d random graphs with every kind of test, %d edges, %d cases, %d findings: %d undecided\n",
              tally.graphs, tally.edges, tally.cases, tally.findings, tally.undecided);
  for (const auto& [why, n] : tally.reasons) std::printf("  %d %s\n", n, why.c_str());
}

}  // namespace
}  // namespace handoff::check

namespace handoff::check {
namespace {

TEST(Check, ComparisonsAdversarial) {
  {  // only NaN (or a list holding it) is unequal to itself: no JSON state shows it, so no claim
    auto g = graph_of({{"", "x == x"}, {"", "x != x"}});
    Json r = check_graph(g);
    EXPECT_EQ(codes(r), (Codes{"undecided@/edges/1"})) << reasons(r);
    Json nan = Json::object();
    nan["x"] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(g.route("n", nan), "t1");  // so "unsatisfiable" would have been wrong
    nan["x"] = Json::array({1, std::numeric_limits<double>::quiet_NaN()});
    EXPECT_EQ(g.route("n", nan), "t1");
  }
  {  // nothing is below itself; numbers and strings are at most themselves, other values unordered
    auto g = graph_of({{"", "x < x"}, {"", "x > x or x >= x and x == 'a'"}, {"", "x <= x"}, {"", "x >= x"}, {"", "x"}});
    Json r = check_graph(g);
    EXPECT_EQ(codes(r), (Codes{"unsatisfiable-condition@/edges/0", "shadowed-edge@/edges/3", "no-match@/nodes/0"}))
        << reasons(r);
    EXPECT_EQ(r["cases"][2]["state"], parse(R"({"x":true})"));
  }
  {  // three paths in a cycle of `<`
    auto g = graph_of({{"", "a < b and b < c and c < a"},
                       {"", "a < b and b < c and a >= c"},
                       {"", "a == b and b == c and a != c"},
                       {"", "a < b and b <= c and c <= a"},
                       {"", "a < b and b < c and c < 'b' and a > 'a'"}});
    Json r = check_graph(g);
    EXPECT_EQ(codes(r), (Codes{"unsatisfiable-condition@/edges/0", "unsatisfiable-condition@/edges/1",
                               "unsatisfiable-condition@/edges/2", "unsatisfiable-condition@/edges/3",
                               "no-match@/nodes/0"}))
        << reasons(r);
    ASSERT_EQ(r["cases"].size(), 1u);
    EXPECT_EQ(g.route("n", r["cases"][0]["state"]), "t4");
  }
  {  // equal constants, mixed kinds, lists compared whole
    auto g = graph_of({{"", "x == 1 and y == 1.0 and x != y"},
                       {"", "x < y and x == 'a' and y == 1"},
                       {"", "x == y and 1 in x and not (1 in y)"},
                       {"", "x == y and x == [1, 2]"},
                       {"", "x == y and x > 2 and y < 3 and x != 2.5"},
                       {"", "x == 1 and y == 1.0 and x == y"}});
    Json r = check_graph(g);
    EXPECT_EQ(codes(r), (Codes{"unsatisfiable-condition@/edges/0", "unsatisfiable-condition@/edges/1",
                               "unsatisfiable-condition@/edges/2", "no-match@/nodes/0"}))
        << reasons(r);
    ASSERT_EQ(r["cases"].size(), 3u);
    EXPECT_EQ(r["cases"][0]["state"], parse(R"({"x":[1,2],"y":[1,2]})"));
    for (const Json& c : r["cases"]) EXPECT_EQ(g.route("n", c["state"]), c["to"].get<std::string>());
  }
  {  // strings in code point order: 'é' (U+00E9) is above 'z', '\u{1F600}' above both
    auto g = graph_of({{"", "x > 'z' and x < y and y < '\u00e9'"}, {"", "x > '\u00e9' and y > x and y < '\U0001F600'"}});
    Json r = check_graph(g);
    EXPECT_EQ(codes(r), (Codes{"no-match@/nodes/0"})) << reasons(r);
    for (const Json& c : r["cases"]) EXPECT_EQ(g.route("n", c["state"]), c["to"].get<std::string>());
  }
  {  // nothing between two neighbouring strings or numbers: 'a' and 'a\0' have nothing between them
    auto g = graph_of({{"", "x > 'a' and x < y and y < 'a\\u0000\\u0000'"}, {"", "x > 1 and x < y and y < 2"}});
    Json r = check_graph(g);
    EXPECT_EQ(codes(r), (Codes{"unsatisfiable-condition@/edges/0", "no-match@/nodes/0"})) << reasons(r);
  }
}

// Long chains of comparisons: more combinations than a node may try, so undecided, quickly.
TEST(Check, LongComparisonChainsAreUndecided) {
  std::string chain;
  std::string equal;
  for (int i = 0; i < 40; ++i) {
    chain += (i ? " and " : "") + ("p" + std::to_string(i)) + " < p" + std::to_string(i + 1);
    equal += (i ? " and " : "") + ("p" + std::to_string(i)) + " == p" + std::to_string(i + 1);
  }
  auto g = graph_of({{"", chain}, {"", chain + " and p40 < p0"}, {"", equal}, {"", std::nullopt}});
  Json r = check_graph(g);
  for (const Json& f : r["findings"]) EXPECT_EQ(f["code"], "undecided") << core::dump_json(f);
  EXPECT_FALSE(r["findings"].empty());
  // Chains that fit are decided: the search tries each order of the paths' values once, not
  // every way of placing them among the samples.
  auto small = graph_of({{"", "a < b and b < c and c < d and d < a"}, {"", "a < b and b < c and c < d"}});
  Json s = check_graph(small);
  EXPECT_EQ(codes(s), (Codes{"unsatisfiable-condition@/edges/0", "no-match@/nodes/0"})) << reasons(s);
  std::string eight;
  for (int i = 0; i < 7; ++i) eight += (i ? " and " : "") + ("p" + std::to_string(i)) + " < p" + std::to_string(i + 1);
  auto longer = graph_of({{"", eight + " and p7 < p0"}, {"", eight}, {"", eight + " and p7 > p0"}});
  Json l = check_graph(longer);
  EXPECT_EQ(codes(l), (Codes{"unsatisfiable-condition@/edges/0", "shadowed-edge@/edges/2", "no-match@/nodes/0"}))
      << reasons(l);
  for (const Json& c : l["cases"]) EXPECT_EQ(longer.route("n", c["state"]), c["to"].get<std::string>());
}

}  // namespace
}  // namespace handoff::check

namespace handoff::check {
namespace {

// A machine's counts are integers, its $state one name: compared with each other and with the
// state's paths, each keeps what it may hold.
TEST(Check, ComparisonsWithTheMachinesNames) {
  auto machine = [](const std::string& edges) {
    return check_machine_json(R"({"format":"handoff-graph/state-machine","version":1,"start":"a","maxSteps":10,
      "states":[{"name":"a"},{"name":"b"}],"edges":[)" + edges + "]}");
  };
  // Between 1 and 2 there is no count: $step > 1 and $step < y < 2 holds for no moment.
  Json r = machine(R"({"from":"a","to":"b","when":"$step > 1 and $step < y and y < 2"},
                      {"from":"a","to":"b","when":"$visits.a < y and y < 1.5"},
                      {"from":"a","to":"__end__"},{"from":"b","to":"__end__"})");
  EXPECT_EQ(codes(r), (Codes{"unsatisfiable-condition@/edges/0"})) << reasons(r);
  ASSERT_EQ(r["cases"].size(), 3u);
  EXPECT_EQ(r["cases"][0]["state"], parse(R"({"$step":10,"y":1.25,"$visits":{"a":1}})"));
  // $state holds the state's name, which another path is tried with.
  r = machine(R"({"from":"a","to":"b","when":"$state == x"},{"from":"a","to":"__end__","when":"$state != x"},
                 {"from":"b","to":"__end__"})");
  EXPECT_EQ(codes(r), Codes{}) << reasons(r);
  EXPECT_EQ(r["cases"][0]["state"], parse(R"({"$state":"a","x":"a"})"));
  // $visits.b counts from 0 and $visits.a from 1 at a, and they are equal at 1; the visits never
  // outnumber the steps, so no moment shows edge 1, and check says so rather than that none can.
  r = machine(R"({"from":"a","to":"b","when":"$visits.b == $visits.a and $visits.a < 2"},
                 {"from":"a","to":"b","when":"$visits.a > $step"},
                 {"from":"a","to":"b","when":"$visits.b < $step and $visits.a >= 2"},
                 {"from":"a","to":"__end__"},{"from":"b","to":"__end__"})");
  EXPECT_EQ(codes(r), (Codes{"undecided@/edges/1"})) << reasons(r);
  EXPECT_EQ(r["cases"][0]["state"], parse(R"({"$visits":{"b":1,"a":1}})"));
  EXPECT_EQ(r["cases"].size(), 4u);
}

}  // namespace
}  // namespace handoff::check

namespace handoff::check {
namespace {

// A machine's counts compared with each other and with a path of the state, against brute force
// over the moments of a run: every count up to a bound, and numbers around the constants.
TEST(Check, ComparisonsWithCountsAgreeWithBruteForce) {
  const char* const terms[] = {"$step", "$visits.a", "$visits.b", "y"};
  const char* const constants[] = {"1", "2", "2.5", "4"};
  const char* const ops[] = {"==", "!=", "<", "<=", ">", ">="};
  std::vector<Json> ys = pool_of(R"([-1, 0, 0.5, 1, 1.5, 1.7, 2, 2.2, 2.5, 2.7, 3, 3.5, 4, 4.5, 5, 7, "a"])");
  std::mt19937 rng(5);
  Tally tally;
  int possible_undecided = 0;
  for (int round = 0; round < rounds(300); ++round) {
    const int count = 1 + static_cast<int>(rng() % 4);
    std::string edges;
    std::string states = R"({"name":"a"})";
    for (int i = 0; i < count; ++i) {
      std::string when;
      for (int t = 0, n = 1 + static_cast<int>(rng() % 3); t < n; ++t) {
        std::string lhs = terms[rng() % 4];
        std::string rhs = rng() % 2 ? std::string(terms[rng() % 4]) : constants[rng() % 4];
        if (lhs == rhs) rhs = constants[rng() % 4];
        when += (t == 0 ? "" : rng() % 3 ? " and " : " or ") + std::string(rng() % 4 ? "" : "not ") + lhs + " " +
                ops[rng() % 6] + " " + rhs;
      }
      const std::string to = "t" + std::to_string(i);
      edges += R"({"from":"a","to":")" + to + R"(","when":")" + when + R"("},{"from":")" + to + R"(","to":"__end__"},)";
      states += R"(,{"name":")" + to + R"("})";
    }
    const std::string text = R"({"format":"handoff-graph/state-machine","version":1,"start":"a","maxSteps":6,
      "states":[)" + states + R"(,{"name":"b"}],"edges":[)" + edges + R"({"from":"b","to":"__end__"}]})";
    auto m = definition::machine_from_json(parse(text));
    ASSERT_TRUE(m) << text;
    Json report = check_machine(*m.value());
    // Brute force: every step, count and y; a moment of a run has no more visits than steps.
    std::vector<bool> wins(count, false);
    std::vector<bool> possible_wins(count, false);
    bool possible_gap = false;
    for (int step = 1; step <= 6; ++step) {
      for (int va = 1; va <= 8; ++va) {
        for (int vb = 0; vb <= 8; ++vb) {
          for (std::size_t y = 0; y < ys.size(); ++y) {
            Json state = parse(R"({"$state":"a"})");
            state["$step"] = step;
            state["$visits"] = Json::object();
            state["$visits"]["a"] = va;
            state["$visits"]["b"] = vb;
            if (y > 0) state["y"] = ys[y];
            auto to = m.value()->graph().route("a", state);
            const bool possible = va + vb <= step;
            if (!to) {
              possible_gap = possible_gap || possible;
              continue;
            }
            const int e = std::stoi(to->substr(1));
            wins[e] = true;
            possible_wins[e] = possible_wins[e] || possible;
          }
        }
      }
    }
    std::vector<int> kind(count, 0);
    for (const Json& c : report["cases"]) {
      if (c["node"] == "a") kind[c["edge"].get<int>() / 2] = 1;
    }
    bool gap = false;
    for (const Json& f : report["findings"]) {
      if (f["node"] != "a") continue;
      const std::string code = f["code"].get<std::string>();
      if (code == "no-match") gap = true;
      if (code == "undecided") {
        ++tally.undecided;
        EXPECT_NE(f["message"].get<std::string>().find("no state was found"), std::string::npos) << core::dump_json(f);
        // Only where no moment shows it: a case would need more visits than steps.
        if (f.contains("edge") && possible_wins[f["edge"].get<int>() / 2]) ++possible_undecided;
        if (f.contains("edge")) kind[f["edge"].get<int>() / 2] = 3;
      } else if (f.contains("edge")) {
        kind[f["edge"].get<int>() / 2] = 2;
        ASSERT_FALSE(wins[f["edge"].get<int>() / 2]) << code << " " << text << core::dump_json(report);
      }
    }
    for (int e = 0; e < count; ++e) {
      ASSERT_NE(kind[e], 0) << text << core::dump_json(report);
      if (possible_wins[e]) {
        ASSERT_EQ(kind[e], 1) << "edge " << e << ": " << text << core::dump_json(report);
      }
      if (kind[e] == 1) {
        ASSERT_TRUE(wins[e]) << "edge " << e << ": " << text << core::dump_json(report);
      }
    }
    if (possible_gap) {
      ASSERT_TRUE(gap) << text << core::dump_json(report);
    }
    ++tally.graphs;
    tally.edges += count;
  }
  std::printf("[ check ] %d random machines comparing counts, %d edges: %d undecided (where no moment shows it)\n",
              tally.graphs, tally.edges, tally.undecided);
  EXPECT_EQ(possible_undecided, 0);
}

}  // namespace
}  // namespace handoff::check

namespace handoff::check {
namespace {

// Paths compared for equality only, with tests that look inside strings, lists and objects: the
// classes need not be intervals, so those tests are decided too. (Every case is routed, so with
// nothing undecided, agreeing with brute force one way is agreeing both ways; the pool only lacks
// some of the values check finds, like ["ab"].)
TEST(Check, EqualityBetweenPathsWithContentsAgreesWithBruteForce) {
  const char* const atoms[] = {"'a' in P", "'b' in P", "P in 'abc'", "P == 'ab'", "1 in P", "P == [1]",
                               "P",        "P > 'b'",  "P in ['x', 1]", "'ab' in P", "P == null", "P < 2"};
  const std::vector<Json> pool = pool_of(R"([null, true, false, 0, 1, 1.5, 2, 3, -1,
    "", "a", "b", "c", "ab", "bc", "abc", "x", "ax", "xa", "bx", "xb", "ba", "aab", "abx", "bb", "cc", "ca", "zz", "z",
    [], [1], [2], [1, 2], ["a"], ["x"], [1, "a"], {}, {"a": 1}, {"b": 1}, {"a": 1, "b": 2}, {"x": 1}, {"y": 1}])");
  std::mt19937 rng(17);
  Tally tally;
  const std::vector<std::string> paths = {"a", "b"};
  for (int round = 0; round < rounds(1500); ++round) {
    const auto edges = random_edges(rng, [&] {
      std::string when;
      for (int t = 0, n = 1 + static_cast<int>(rng() % 3); t < n; ++t) {
        std::string a;
        if (rng() % 3 == 0) {
          a = rng() % 2 ? "a == b" : "a != b";
        } else {
          a = atoms[rng() % std::size(atoms)];
          a.replace(a.find('P'), 1, paths[rng() % 2]);
        }
        when += (t == 0 ? "" : rng() % 2 ? " and " : " or ") + std::string(rng() % 4 ? "" : "not ") + a;
      }
      return when;
    });
    auto g = graph_of(edges);
    compare_with_brute_force(g, static_cast<int>(edges.size()), paths, pool, false, tally);
    if (HasFatalFailure()) return;
  }
  std::printf("[ check ] %d random graphs comparing two paths for equality, with contents, %d edges: %d undecided\n",
              tally.graphs, tally.edges, tally.undecided);
  for (const auto& [why, n] : tally.reasons) std::printf("  %d %s\n", n, why.c_str());
  EXPECT_EQ(tally.undecided, 0);
}

}  // namespace
}  // namespace handoff::check
