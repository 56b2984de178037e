// Graph behaviour beyond the JSON scenarios: the incremental topological order against a
// from-scratch reference on random graphs, large graphs, and definition-format problems.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "condition/json_state.h"
#include "export/definition.h"
#include "graph/handoff_graph.h"

namespace handoff::graph {
namespace {

// Reference: does `to` reach `from` (so from -> to would close a cycle)? Plain DFS.
bool reaches(const std::vector<std::vector<int>>& out, int start, int goal) {
  std::vector<bool> seen(out.size());
  std::vector<int> stack{start};
  while (!stack.empty()) {
    int n = stack.back();
    stack.pop_back();
    if (n == goal) return true;
    if (seen[n]) continue;
    seen[n] = true;
    for (int next : out[n]) stack.push_back(next);
  }
  return false;
}

TEST(HandoffGraph, IncrementalOrderAgreesWithAFromScratchCheck) {
  std::mt19937 rng(12345);
  for (int round = 0; round < 200; ++round) {
    const int n = 2 + static_cast<int>(rng() % 30);
    HandoffGraph g;
    std::vector<std::vector<int>> out(n);
    for (int k = 0; k < 4 * n; ++k) {
      int a = static_cast<int>(rng() % n);
      int b = static_cast<int>(rng() % n);
      bool cycle = a == b || reaches(out, b, a);
      auto r = g.add_edge("n" + std::to_string(a), "n" + std::to_string(b));
      ASSERT_EQ(r.ok(), !cycle) << "round " << round << " edge " << a << "->" << b;
      if (r.ok()) out[a].push_back(b);
      if (!r.ok()) {
        const auto& cycle_ids = r.error().cycle;
        ASSERT_GE(cycle_ids.size(), 2u);
        EXPECT_EQ(cycle_ids.front(), "n" + std::to_string(a));
        EXPECT_EQ(cycle_ids.back(), "n" + std::to_string(a));
      }
      ASSERT_TRUE(g.is_dag());
    }
  }
}

TEST(HandoffGraph, HundredThousandEdgesInErrorModeFinish) {
  // Forward chain, backward chain and a wide fan-in: each is O(1) per edge with the order rules.
  HandoffGraph g;
  for (int i = 0; i < 50000; ++i) ASSERT_TRUE(g.add_edge("f" + std::to_string(i), "f" + std::to_string(i + 1)).ok());
  for (int i = 50000; i > 0; --i) ASSERT_TRUE(g.add_edge("b" + std::to_string(i - 1), "b" + std::to_string(i)).ok());
  EXPECT_TRUE(g.is_dag());
  auto r = g.add_edge("f50000", "f0");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().cycle.size(), 50002u);
}

TEST(HandoffGraph, RejectedEdgeChangesNothing) {
  HandoffGraph g;
  ASSERT_TRUE(g.add_edge("a", "b").ok());
  condition::Json before = definition::to_json(g);
  EXPECT_FALSE(g.add_edge("b", "a").ok());
  EXPECT_FALSE(g.add_edge("b", "new", "x = 1").ok());
  EXPECT_FALSE(g.add_edge("", "a").ok());
  EXPECT_EQ(definition::to_json(g), before);
  EXPECT_FALSE(g.has_node("new"));
}

TEST(Definition, ReportsEveryProblemWithItsPointer) {
  auto document = condition::Json::parse(R"({
    "format": "handoff-graph", "version": 2, "onCycle": "sometimes", "extra": 1,
    "nodes": [{"id": "a"}, {"id": "a"}, {"id": 3}],
    "edges": [{"from": "a", "to": "b", "when": "x = 1"}, {"from": "a"}, {"from": "b", "to": "a", "wen": "x"}]
  })");
  auto loaded = definition::graph_from_json(document);
  ASSERT_FALSE(loaded.ok());
  std::set<std::string> pointers;
  for (const auto& p : loaded.error()) pointers.insert(p.pointer);
  EXPECT_EQ(pointers, (std::set<std::string>{"/extra", "/version", "/onCycle", "/nodes/1/id", "/nodes/2/id",
                                             "/edges/0/when", "/edges/1/to", "/edges/2/wen"}));
  EXPECT_NE(definition::describe(loaded.error()).find("/edges/0/when: a \u2192 b: expected '=='"), std::string::npos);
}

// A repeated id is reported as such; an empty one as empty, and as repeated when it comes again.
TEST(Definition, RepeatedAndEmptyNodeIds) {
  auto document = condition::Json::parse(R"({
    "format": "handoff-graph", "version": 1,
    "nodes": [{"id": "a"}, {"id": ""}, {"id": "b"}, {"id": "a"}, {"id": ""}, {"id": "b", "description": "x"}]
  })");
  auto loaded = definition::graph_from_json(document);
  ASSERT_FALSE(loaded.ok());
  std::vector<std::pair<std::string, std::string>> problems;
  for (const auto& p : loaded.error()) problems.emplace_back(p.pointer, p.message);
  EXPECT_EQ(problems, (std::vector<std::pair<std::string, std::string>>{
                          {"/nodes/1/id", "a node id must be a non-empty string"},
                          {"/nodes/3/id", "duplicate node id 'a'"},
                          {"/nodes/4/id", "duplicate node id ''"},
                          {"/nodes/5/id", "duplicate node id 'b'"},
                      }));
}

// The native twin of tests/js/route-reading.test.mjs's lazy reading: a route asks its SlotReader
// for a path only when the decision needs it, in evaluation order, once; first_read names the
// path every route reads first (what js/state-writer.js writes before the call).
class RecordingReader final : public condition::SlotReader {
 public:
  RecordingReader(const HandoffGraph& g, NodeId node, const condition::Json& state)
      : writer_(g.strings()), paths_(g.route_paths(node)) {
    writer_.begin(state, paths_);
  }
  condition::ValueRef read(std::uint32_t slot) override {
    read_.push_back(paths_[slot].text());
    return writer_.read(slot);
  }
  const condition::ValueRef* slots() const { return writer_.slots().data(); }
  const std::vector<std::string>& paths_read() const { return read_; }

 private:
  condition::JsonStateWriter writer_;
  const std::vector<condition::Path>& paths_;
  std::vector<std::string> read_;
};

std::vector<std::string> reads(const HandoffGraph& g, const std::string& node, const char* state_text, std::int32_t expected) {
  NodeId id = g.find(node);
  auto state = condition::Json::parse(state_text);
  RecordingReader reader(g, id, state);
  EXPECT_EQ(g.route(id, reader.slots(), &reader), expected) << state_text;
  return reader.paths_read();
}

TEST(HandoffGraph, LazyRoutesReadOnlyWhatTheDecisionNeedsInEvaluationOrder) {
  using Reads = std::vector<std::string>;
  HandoffGraph g;
  ASSERT_TRUE(g.add_edge("a", "escalate", "user.tier == 'gold' or (priority > 3 and 'urgent' in tags)").ok());
  ASSERT_TRUE(g.add_edge("a", "queue").ok());
  EXPECT_EQ(reads(g, "a", R"({"user": {"tier": "gold"}, "priority": 9, "tags": ["urgent"]})", 0), Reads{"user.tier"});
  EXPECT_EQ(reads(g, "a", R"({"user": {"tier": "x"}, "priority": 2, "tags": ["urgent"]})", 1), (Reads{"user.tier", "priority"}));
  EXPECT_EQ(reads(g, "a", R"({"priority": 5, "tags": ["urgent"]})", 0), (Reads{"user.tier", "priority", "tags"}));
  EXPECT_EQ(g.route_paths(g.find("a"))[g.first_read(g.find("a"))].text(), "user.tier");

  // Left to right, each path once however many tests name it; a literal that decides reads nothing.
  ASSERT_TRUE(g.add_edge("b", "one", "z == 1 and a == 1 and z != 2").ok());
  ASSERT_TRUE(g.add_edge("b", "two", "y in z or a").ok());
  EXPECT_EQ(reads(g, "b", R"({"a": 1, "z": 1})", 0), (Reads{"z", "a"}));
  EXPECT_EQ(reads(g, "b", R"({"a": 1, "z": [3], "y": 3})", 1), (Reads{"z", "y"}));
  ASSERT_TRUE(g.add_edge("c", "lit", "true or x").ok());
  EXPECT_EQ(reads(g, "c", R"({"x": 1})", 0), Reads{});
  EXPECT_EQ(g.first_read(g.find("c")), condition::Condition::kNoSlot);
  ASSERT_TRUE(g.add_edge("d", "always").ok());
  ASSERT_TRUE(g.add_edge("d", "never", "x").ok());
  EXPECT_EQ(reads(g, "d", R"({"x": 1})", 0), Reads{});

  // A switch reads its path first, then what the candidate edge needs, and nothing for a miss.
  for (int k = 0; k < 20; ++k) {
    ASSERT_TRUE(g.add_edge("s", "r" + std::to_string(k), "intent == 'i" + std::to_string(k) + "' and priority >= " + std::to_string(k % 4)).ok());
  }
  EXPECT_EQ(reads(g, "s", R"({"intent": "i19", "priority": 3})", 19), (Reads{"intent", "priority"}));
  EXPECT_EQ(reads(g, "s", R"({"intent": "none", "priority": 3})", -1), Reads{"intent"});
  EXPECT_EQ(g.route_paths(g.find("s"))[g.first_read(g.find("s"))].text(), "intent");
  // The JSON route reads lazily too, with the same answers.
  EXPECT_EQ(g.route("a", condition::Json::parse(R"({"priority": 5, "tags": ["urgent"]})")), "escalate");
}

}  // namespace
}  // namespace handoff::graph
