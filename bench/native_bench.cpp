// Native benchmarks (Google Benchmark): parse, evaluate and route in C++, and graph growth, so
// that the WebAssembly and JS-boundary overheads show as ratios to native (BENCHMARKS.md).
#include <benchmark/benchmark.h>

#include <string>

#include "condition/condition.h"
#include "condition/json_state.h"
#include "graph/handoff_graph.h"

namespace {

using handoff::condition::Condition;
using handoff::condition::Interner;
using handoff::condition::Json;
using handoff::condition::JsonStateWriter;
using handoff::graph::CyclePolicy;
using handoff::graph::HandoffGraph;

constexpr const char* kEscalation = "user.tier == 'gold' or (priority > 3 and 'urgent' in tags)";

void BM_Parse(benchmark::State& state) {
  for (auto _ : state) {
    Interner strings;
    auto c = Condition::compile(kEscalation, strings);
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_Parse);

// Evaluation alone, on a state already marshalled (what happens inside WebAssembly per route).
void BM_EvaluateEscalation(benchmark::State& state) {
  Interner strings;
  auto c = Condition::compile(kEscalation, strings);
  JsonStateWriter writer(strings);
  writer.write(Json{{"user", {{"tier", "silver"}}}, {"priority", 5}, {"tags", {"later", "urgent"}}}, c->paths());
  for (auto _ : state) benchmark::DoNotOptimize(c->evaluate(writer.slots().data()));
}
BENCHMARK(BM_EvaluateEscalation);

HandoffGraph triage() {
  HandoffGraph g;
  (void)g.add_edge("triage", "billing", "category == 'billing'");
  (void)g.add_edge("triage", "support", "category == 'support'");
  (void)g.add_edge("triage", "human");
  return g;
}

void BM_RouteTriageMarshalled(benchmark::State& state) {
  HandoffGraph g = triage();
  auto node = g.find("triage");
  JsonStateWriter writer(g.strings());
  writer.write(Json{{"category", "support"}}, g.route_paths(node));
  for (auto _ : state) benchmark::DoNotOptimize(g.route(node, writer.slots().data()));
}
BENCHMARK(BM_RouteTriageMarshalled);

// Routing from a JSON state, marshalling included (the native analogue of route() from JS).
void BM_RouteTriageFromJson(benchmark::State& state) {
  HandoffGraph g = triage();
  Json ticket = {{"category", "support"}, {"id", 17}, {"user", {{"tier", "gold"}}}};
  for (auto _ : state) benchmark::DoNotOptimize(g.route("triage", ticket));
}
BENCHMARK(BM_RouteTriageFromJson);

// Adding N edges: a forward chain, the same chain backwards, and random edges between existing
// nodes (which need reordering). Linear growth means time per edge stays flat as N grows.
void BM_AddEdges(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  const auto policy = state.range(1) == 0 ? CyclePolicy::Error : CyclePolicy::Allow;
  std::vector<std::string> names;
  for (int i = 0; i <= n; ++i) names.push_back("n" + std::to_string(i));
  for (auto _ : state) {
    HandoffGraph g(policy);
    for (int i = 0; i < n; ++i) (void)g.add_edge(names[i], names[i + 1], "x == 1");
    benchmark::DoNotOptimize(g.size());
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetLabel(policy == CyclePolicy::Error ? "onCycle=error" : "onCycle=allow");
}
BENCHMARK(BM_AddEdges)->ArgsProduct({{1000, 10000, 100000}, {0, 1}})->Unit(benchmark::kMillisecond);

void BM_AddEdgesReversed(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  std::vector<std::string> names;
  for (int i = 0; i <= n; ++i) names.push_back("n" + std::to_string(i));
  for (auto _ : state) {
    HandoffGraph g;
    for (int i = n; i > 0; --i) (void)g.add_edge(names[i - 1], names[i]);
    benchmark::DoNotOptimize(g.size());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_AddEdgesReversed)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

// Nodes created first, then edges between existing nodes in shuffled order: the order-repair path.
void BM_AddEdgesBetweenExistingNodes(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  std::vector<std::string> names;
  for (int i = 0; i <= n; ++i) names.push_back("n" + std::to_string(i));
  std::vector<std::pair<int, int>> edges;
  std::uint64_t seed = 42;
  for (int i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    int a = static_cast<int>((seed >> 33) % n);
    int b = a + 1 + static_cast<int>((seed >> 13) % 8);  // forward in name order: never a cycle
    edges.emplace_back(a, std::min(b, n));
  }
  for (auto _ : state) {
    HandoffGraph g;
    for (int i = n; i >= 0; --i) (void)g.add_node(names[i]);  // created in reverse order
    for (auto [a, b] : edges) (void)g.add_edge(names[a], names[b]);
    benchmark::DoNotOptimize(g.size());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_AddEdgesBetweenExistingNodes)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
