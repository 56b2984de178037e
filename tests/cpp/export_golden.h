// The golden exports (tests/golden/): each NAME.input.json holds a definition (graph or state
// machine), optionally a trace or run to mark, and optional Mermaid directions; render() gives every
// export of it, keyed by the golden file's suffix (state machines also get NAME.agentensemble.json). The GoogleTest suite (export_test.cpp) compares
// these byte for byte with the files, and the export_golden tool (scripts/update-golden.sh) writes
// them. tests/js/export.test.mjs checks the WebAssembly build against the same files.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>  // indents the golden files

#include "condition/json_state.h"
#include "core/expected.h"
#include "export/dag.h"
#include "export/definition.h"

namespace handoff::golden {

using condition::Json;

// File suffixes of every input, and the one only state machines have (AgentEnsemble's DagModel).
inline const std::vector<std::string>& suffixes() {
  static const std::vector<std::string> kSuffixes{".definition.json", ".dag.json", ".flowchart.mmd", ".state.mmd",
                                                  ".dot"};
  return kSuffixes;
}
inline const std::string kAgentEnsembleSuffix = ".agentensemble.json";
// The "generatedAt" of the golden AgentEnsemble exports, unless an input sets
// { "agentensemble": { "generatedAt" } }: the one member that is the host's clock.
inline const std::string kGeneratedAt = "1970-01-01T00:00:00Z";

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The inputs' names (NAME of NAME.input.json), sorted.
inline std::vector<std::string> input_names(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  const std::string tail = ".input.json";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::string file = entry.path().filename().string();
    if (file.size() > tail.size() && file.compare(file.size() - tail.size(), tail.size(), tail) == 0) {
      names.push_back(file.substr(0, file.size() - tail.size()));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

// JSON as the golden files hold it: two-space indent, UTF-8 as is, a final newline (the same
// bytes as JavaScript's JSON.stringify(value, null, 2) + '\n').
inline std::string pretty(const Json& json) {
  // The core writes compact JSON only; nlohmann indents it.
  return nlohmann::ordered_json::parse(json.dump()).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

// Every export of one input: { suffix: text }, or what is wrong with the input.
inline Expected<std::map<std::string, std::string>, std::string> render(const Json& input) {
  if (!input.is_object() || !input.contains("definition")) return unexpected(std::string("no 'definition'"));
  const Json& definition = input["definition"];
  std::map<std::string, std::string> out;
  dag::Dag model;
  if (definition.value("format", "") == swarm::kSwarmFormat) {
    auto loaded = swarm::Swarm::from_json(definition);
    if (!loaded) return unexpected(definition::describe(loaded.error()));
    out[".definition.json"] = pretty(loaded.value()->to_json());
    model = dag::dag_of(*loaded.value());
    // A swarm's marks are a session's (js: swarm.toDag({ session })): its active agent and handoffs.
    if (input.contains("session")) {
      if (auto applied = dag::apply_session(model, input["session"]); !applied) return unexpected("session: " + applied.error());
    }
  } else if (definition.value("format", "") == definition::kGraphFormat) {
    auto graph = definition::graph_from_json(definition);
    if (!graph) return unexpected(definition::describe(graph.error()));
    out[".definition.json"] = pretty(definition::to_json(graph.value()));
    model = dag::dag_of(graph.value());
  } else {
    auto machine = definition::machine_from_json(definition);
    if (!machine) return unexpected(definition::describe(machine.error()));
    out[".definition.json"] = pretty(definition::to_json(*machine.value()));
    model = dag::dag_of(*machine.value());
  }
  if (input.contains("trace") && model.kind != "swarm") {
    if (auto applied = dag::apply_trace(model, input["trace"]); !applied) return unexpected("trace: " + applied.error());
  }
  // The JavaScript defaults (js/export.js): flowcharts top-down, state diagrams left to right.
  auto direction = [&](const char* kind, const char* fallback) {
    return input.contains(kind) ? input[kind].value("direction", fallback) : std::string(fallback);
  };
  out[".dag.json"] = pretty(dag::to_json(model));
  if (model.kind == "state-machine") {
    std::string generated_at = input.contains("agentensemble") ? input["agentensemble"].value("generatedAt", kGeneratedAt) : kGeneratedAt;
    out[kAgentEnsembleSuffix] = pretty(dag::to_agentensemble_json(model, generated_at));
  }
  out[".flowchart.mmd"] = dag::to_mermaid(model, {"flowchart", direction("flowchart", "TD")});
  out[".state.mmd"] = dag::to_mermaid(model, {"state", direction("state", "LR")});
  out[".dot"] = dag::to_dot(model);
  return out;
}

}  // namespace handoff::golden
