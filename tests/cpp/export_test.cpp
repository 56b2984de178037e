// Exports natively: every golden file in tests/golden/ (the WebAssembly build is checked against
// the same files by tests/js/export.test.mjs), plus the properties the golden files rely on.
#include <gtest/gtest.h>

#include <set>

#include "export_golden.h"

namespace handoff::golden {
namespace {

// tests/golden, next to the shared vectors.
const std::filesystem::path kGoldenDir = std::filesystem::path(HANDOFF_VECTORS_DIR) / ".." / "golden";

// The first line where two texts differ, for a readable failure.
std::string first_difference(const std::string& expected, const std::string& actual) {
  std::istringstream a(expected), b(actual);
  std::string la, lb;
  for (int line = 1;; ++line) {
    bool more_a = static_cast<bool>(std::getline(a, la));
    bool more_b = static_cast<bool>(std::getline(b, lb));
    if (!more_a && !more_b) return "the texts differ only in a final newline";
    if (!more_a || !more_b || la != lb) {
      return "line " + std::to_string(line) + ":\n  golden: " + (more_a ? la : "<end>") + "\n  actual: " + (more_b ? lb : "<end>");
    }
  }
}

TEST(ExportGolden, EveryInputMatchesItsGoldenFilesByteForByte) {
  auto names = input_names(kGoldenDir);
  ASSERT_GE(names.size(), 8u) << "golden inputs in " << kGoldenDir;
  std::size_t compared = 0;
  for (const std::string& name : names) {
    auto input = Json::parse(read_file(kGoldenDir / (name + ".input.json")), nullptr, /*allow_exceptions=*/false);
    ASSERT_FALSE(input.is_discarded()) << name << ".input.json is not JSON";
    auto rendered = render(input);
    ASSERT_TRUE(rendered.ok()) << name << ": " << rendered.error();
    for (const std::string& suffix : suffixes()) ASSERT_TRUE(rendered->count(suffix)) << name << suffix;
    for (const auto& [suffix, actual] : rendered.value()) {
      auto path = kGoldenDir / (name + suffix);
      ASSERT_TRUE(std::filesystem::exists(path)) << path << " is missing: run bash scripts/update-golden.sh";
      std::string golden = read_file(path);
      EXPECT_TRUE(golden == actual) << name << suffix << " differs from the golden file; "
                                    << first_difference(golden, actual);
      ++compared;
    }
  }
  EXPECT_GE(compared, names.size() * suffixes().size());
}

// No orphans: every golden export file (NAME.dag.json, NAME.dot, …) belongs to an input, so a
// removed or renamed input cannot leave stale files behind. (Other files and folders are not ours.)
TEST(ExportGolden, NoOrphanedGoldenFiles) {
  std::set<std::string> names;
  for (const std::string& name : input_names(kGoldenDir)) names.insert(name);
  for (const auto& entry : std::filesystem::directory_iterator(kGoldenDir)) {
    if (!entry.is_regular_file()) continue;
    std::string file = entry.path().filename().string();
    std::vector<std::string> all = suffixes();
    all.push_back(kAgentEnsembleSuffix);
    for (const std::string& suffix : all) {
      if (file.size() > suffix.size() && file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0) {
        EXPECT_TRUE(names.count(file.substr(0, file.size() - suffix.size()))) << "orphaned golden file " << entry.path();
      }
    }
  }
}

// A definition read back and written again is the same document (the golden definitions are
// toJSON outputs, so they must be fixed points).
TEST(ExportGolden, DefinitionsRoundTrip) {
  for (const std::string& name : input_names(kGoldenDir)) {
    auto document = Json::parse(read_file(kGoldenDir / (name + ".definition.json")), nullptr, false);
    ASSERT_FALSE(document.is_discarded()) << name;
    auto again = render(Json{{"definition", document}});
    ASSERT_TRUE(again.ok()) << name << ": " << again.error();
    EXPECT_EQ(again->at(".definition.json"), pretty(document)) << name;
  }
}

// Exports are deterministic: the same model renders the same bytes, every time.
TEST(ExportGolden, RenderingIsDeterministic) {
  for (const std::string& name : input_names(kGoldenDir)) {
    auto input = Json::parse(read_file(kGoldenDir / (name + ".input.json")), nullptr, false);
    auto first = render(input);
    auto second = render(input);
    ASSERT_TRUE(first.ok() && second.ok()) << name;
    EXPECT_EQ(first.value(), second.value()) << name;
  }
}

// Edges decided by host functions: conditional in every picture (solid, not dashed), labelled by
// their description or "(predicate)", and AgentEnsemble's conditionDescription.
TEST(ExportPredicates, ShownByTheirDescription) {
  machine::MachineOptions options;
  options.start = "a";
  machine::Machine m(options);
  ASSERT_TRUE(m.add_state("a").ok());
  ASSERT_TRUE(m.add_predicate_edge("a", "a", "output says RETRY").ok());
  ASSERT_TRUE(m.add_predicate_edge("a", std::string(machine::kEnd)).ok());
  dag::Dag model = dag::dag_of(m);
  Json json = dag::to_json(model);
  EXPECT_EQ(json["edges"][0]["predicate"], true);
  EXPECT_EQ(json["edges"][0]["unconditional"], false);
  EXPECT_EQ(json["edges"][0]["when"], nullptr);
  EXPECT_EQ(json["edges"][0]["description"], "output says RETRY");
  std::string dot = dag::to_dot(model);
  EXPECT_NE(dot.find("n1 -> n1 [label=\"output says RETRY\"];"), std::string::npos) << dot;
  EXPECT_NE(dot.find("n1 -> n0 [label=\"(predicate)\"];"), std::string::npos) << dot;
  std::string flowchart = dag::to_mermaid(model, {"flowchart", "TD"});
  EXPECT_NE(flowchart.find("n1 -->|\"output says RETRY\"| n1"), std::string::npos) << flowchart;
  Json ae = dag::to_agentensemble_json(model, "t");
  EXPECT_EQ(ae["graphEdges"][0]["conditionDescription"], "output says RETRY");
  EXPECT_EQ(ae["graphEdges"][1]["conditionDescription"], nullptr);
  EXPECT_EQ(ae["graphEdges"][1]["unconditional"], false);
}

// Greying needs a finished run: marks of a run still under way (no reason) grey nothing.
TEST(ExportGreying, OnlyFinishedRunsGreyTheirUnfiredEdges) {
  auto machine = definition::machine_from_json(Json::parse(read_file(kGoldenDir / "research-pipeline.definition.json")));
  ASSERT_TRUE(machine.ok());
  Json steps = Json::array({{{"step", 1}, {"state", "research"}, {"edge", 0}}});
  for (const char* reason : {"", "end"}) {
    dag::Dag model = dag::dag_of(*machine.value());
    Json trace = {{"steps", steps}};
    if (*reason) trace["reason"] = reason;
    ASSERT_TRUE(dag::apply_trace(model, trace).ok());
    bool greyed = dag::to_dot(model).find("#b8b8b8") != std::string::npos;
    EXPECT_EQ(greyed, *reason != '\0') << reason;
    EXPECT_EQ(dag::to_mermaid(model, {"flowchart", "TD"}).find("#b8b8b8") != std::string::npos, *reason != '\0');
  }
}

TEST(ExportAgentEnsemble, OnlyStateMachinesHaveIt) {
  graph::HandoffGraph g;
  ASSERT_TRUE(g.add_edge("a", "b").ok());
  auto refused = dag::render(dag::dag_of(g), "", "agentensemble", {});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("state machine"), std::string::npos);
  auto unknown = dag::render(dag::dag_of(g), "", "svg", {});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error(), "unknown export format 'svg' (dag, agentensemble, mermaid or dot)");
  auto bad_trace = dag::render(dag::dag_of(g), "{", "dag", {});
  EXPECT_EQ(bad_trace.error(), "cannot mark this trace: the trace is not JSON");
}

// A swarm's model (issue 17): each edge by how it is taken, the entry agent as the start, and a
// session's active agent and handoffs (from its checkpoints) marked; the same drawing natively
// as in JavaScript (tests/js/seed-rows.test.mjs draws it with Graphviz).
TEST(ExportSwarm, EdgesByViaAndASessionMarked) {
  Json definition = Json::parse(R"({"format": "handoff-graph/swarm", "version": 1, "name": "support",
    "agents": [{"id": "triage", "entry": true, "handoffs": 1}, {"id": "billing"}, {"id": "human"}, {"id": "closer"}],
    "edges": [{"from": "triage", "to": "billing", "when": "category == 'billing'"}, {"from": "triage", "to": "human"},
              {"from": "billing", "to": "human", "when": "amount > 100", "offer": true},
              {"from": "triage", "to": "closer", "continuation": true}]})");
  auto swarm = swarm::Swarm::from_json(definition);
  ASSERT_TRUE(swarm.ok());
  dag::Dag model = dag::dag_of(*swarm.value());
  std::vector<std::string> vias;
  for (const auto& e : model.edges) vias.push_back(e.via + ":" + e.tool);
  EXPECT_EQ(vias, (std::vector<std::string>{"rule:", "llm:transfer_to_human", "hybrid:transfer_to_human", "continuation:"}));
  Json session = {{"active", "human"},
                  {"checkpoints", Json::array({{{"turn", 1}, {"tool", "lookup"}},
                                               {{"turn", 1}, {"outcome", {{"type", "handoff"}, {"edge", 0}}}},
                                               {{"turn", 1}, {"outcome", {{"type", "handoff_blocked"}, {"edge", 1}}}},
                                               {{"turn", 2}, {"outcome", {{"type", "handoff"}, {"edge", 2}}}}})}};
  auto marked = dag::render(dag::dag_of(*swarm.value()), session.dump(), "dag", {});
  ASSERT_TRUE(marked.ok()) << marked.error();
  Json out = Json::parse(marked.value());
  EXPECT_EQ(out["kind"], "swarm");
  EXPECT_EQ(out["edges"][0]["firedAtSteps"], Json::array({1}));
  EXPECT_EQ(out["edges"][1]["firedAtSteps"], Json::array());
  EXPECT_EQ(out["edges"][2]["firedAtSteps"], Json::array({2}));
  EXPECT_EQ(out["nodes"][2]["id"], "human");
  EXPECT_EQ(out["nodes"][2]["active"], true);
  auto mermaid = dag::render(dag::dag_of(*swarm.value()), session.dump(), "mermaid", {"flowchart", "TD"});
  ASSERT_TRUE(mermaid.ok());
  for (const char* arrow : {" -->|", " -.->|", " ==>|", " --o|", "class n2 active"}) EXPECT_NE(mermaid.value().find(arrow), std::string::npos) << arrow;
  auto dot = dag::render(dag::dag_of(*swarm.value()), "", "dot", {});
  ASSERT_TRUE(dot.ok());
  for (const char* style : {"style=dashed", "style=bold", "style=dotted"}) EXPECT_NE(dot.value().find(style), std::string::npos) << style;
  EXPECT_EQ(dot.value().find("filled"), std::string::npos) << "no session, no active agent";
  for (const char* bad : {R"({"active": "nobody"})", R"({"checkpoints": [{"outcome": {"type": "handoff", "edge": 7}}]})", "[]"}) {
    EXPECT_FALSE(dag::render(dag::dag_of(*swarm.value()), bad, "dag", {}).ok()) << bad;
  }
}

}  // namespace
}  // namespace handoff::golden
