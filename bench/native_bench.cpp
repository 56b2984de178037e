// Native benchmarks (Google Benchmark): parse, evaluate and route in C++, and graph growth, so
// that the WebAssembly and JS-boundary overheads show as ratios to native (BENCHMARKS.md).
#include <benchmark/benchmark.h>

#include <memory>
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

// The four cases of bench/route.mjs (bench/cases.mjs), routed natively: from a JSON state
// (marshalling included: the native analogue of route() from JS) and on an already marshalled
// state (evaluation alone). One 10-key state serves every case: triage → 'support' (2nd edge),
// escalation → 'escalate' through its second branch, membership → 'by' (the 26th of the 50),
// router → 'r49' (the last of 50 edges). The 1 MB variant adds 5,000 chat messages.
const char* const kLetters = "abcdefghijklmnopqrstuvwxyz";

std::string country(int i) { return std::string{kLetters[i / 26], kLetters[i % 26]}; }

HandoffGraph case_graph(const std::string& name) {
  HandoffGraph g;
  if (name == "triage") {
    (void)g.add_edge("start", "billing", "category == 'billing'");
    (void)g.add_edge("start", "support", "category == 'support'");
    (void)g.add_edge("start", "human");
  } else if (name == "escalation") {
    (void)g.add_edge("start", "escalate", kEscalation);
    (void)g.add_edge("start", "queue");
  } else if (name == "membership") {
    std::string list;
    for (int i = 0; i < 100; i += 2) list += (list.empty() ? "'" : ", '") + country(i) + "'";
    (void)g.add_edge("start", "domestic", "country in [" + list + "]");
    (void)g.add_edge("start", "international");
  } else if (name == "router50") {
    for (int k = 0; k < 50; ++k) {
      (void)g.add_edge("start", "r" + std::to_string(k),
                       "intent == 'i" + std::to_string(k) + "' and priority >= " + std::to_string(k % 4));
    }
  }
  return g;
}

Json case_state(bool large) {
  Json s = {{"id", 17}, {"category", "support"}, {"intent", "i49"}, {"priority", 5},
            {"tags", {"later", "urgent"}}, {"user", {{"tier", "silver"}, {"name", "user 17"}}},
            {"country", "by"}, {"locale", "en"}, {"createdAt", "2026-11-22T10:00:00Z"},
            {"subject", "Question about my invoice"}};
  if (large) {
    std::string filler;
    for (int i = 0; i < 6; ++i) filler += "lorem ipsum dolor sit amet ";
    Json messages = Json::array();
    for (int i = 0; i < 5000; ++i) {
      messages.push_back({{"role", i % 2 ? "assistant" : "user"},
                          {"content", "message " + std::to_string(i) + ": " + filler},
                          {"at", 1700000000 + i}});
    }
    s["messages"] = std::move(messages);
  }
  return s;
}

const char* expected_target(const std::string& name) {
  if (name == "triage") return "support";
  if (name == "escalation") return "escalate";
  if (name == "membership") return "domestic";
  return "r49";
}

void BM_RouteFromJson(benchmark::State& state, const char* name, bool large) {
  HandoffGraph g = case_graph(name);
  Json s = case_state(large);
  if (g.route("start", s) != expected_target(name)) {
    state.SkipWithError("unexpected route");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(g.route("start", s));
}
BENCHMARK_CAPTURE(BM_RouteFromJson, triage/10key, "triage", false);
BENCHMARK_CAPTURE(BM_RouteFromJson, triage/1MB, "triage", true);
BENCHMARK_CAPTURE(BM_RouteFromJson, escalation/10key, "escalation", false);
BENCHMARK_CAPTURE(BM_RouteFromJson, escalation/1MB, "escalation", true);
BENCHMARK_CAPTURE(BM_RouteFromJson, membership/10key, "membership", false);
BENCHMARK_CAPTURE(BM_RouteFromJson, membership/1MB, "membership", true);
BENCHMARK_CAPTURE(BM_RouteFromJson, router50/10key, "router50", false);
BENCHMARK_CAPTURE(BM_RouteFromJson, router50/1MB, "router50", true);

void BM_RouteMarshalled(benchmark::State& state, const char* name) {
  HandoffGraph g = case_graph(name);
  auto node = g.find("start");
  JsonStateWriter writer(g.strings());
  writer.write(case_state(false), g.route_paths(node));
  const auto index = g.route(node, writer.slots().data());
  if (index < 0 || g.edges()[g.out_edges(node)[index]].to != g.find(expected_target(name))) {
    state.SkipWithError("unexpected route");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(g.route(node, writer.slots().data()));
}
BENCHMARK_CAPTURE(BM_RouteMarshalled, triage, "triage");
BENCHMARK_CAPTURE(BM_RouteMarshalled, escalation, "escalation");
BENCHMARK_CAPTURE(BM_RouteMarshalled, membership, "membership");
BENCHMARK_CAPTURE(BM_RouteMarshalled, router50, "router50");

// Adding N edges: a forward chain, the same chain backwards, and random edges between existing
// nodes (which need reordering). Linear growth means time per edge stays flat as N grows.
void BM_AddEdges(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  const auto policy = state.range(1) == 0 ? CyclePolicy::Error : CyclePolicy::Allow;
  std::vector<std::string> names;
  for (int i = 0; i <= n; ++i) names.push_back("n" + std::to_string(i));
  for (auto _ : state) {
    auto g = std::make_unique<HandoffGraph>(policy);
    for (int i = 0; i < n; ++i) (void)g->add_edge(names[i], names[i + 1], "x == 1");
    benchmark::DoNotOptimize(g->size());
    // Destroying the graph is not part of building it (bench/route.mjs times Node the same way).
    state.PauseTiming();
    g.reset();
    state.ResumeTiming();
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
