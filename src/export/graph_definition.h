// The parts of the graph definition format (docs/format.md) that the state machine's format shares:
// the format's name and version, and the reader of `edges`, used by export/definition.cpp for both
// graph and machine definitions, so that both report an edge's problems alike.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expected.h"
#include "export/reader.h"
#include "graph/handoff_graph.h"

namespace handoff::definition {

inline constexpr const char* kGraphFormat = "handoff-graph";
inline constexpr int kGraphVersion = 1;

// The fields of one edge of a definition, read and checked.
struct EdgeFields {
  std::string_view from;
  std::string_view to;
  std::optional<std::string_view> when;
  std::string_view description;
  bool transfer = false;  // machines only: a handoff-enabled state's transfer edge
};

// "triage → billing": how a problem with an edge's condition names the edge.
inline std::string edge_name(const EdgeFields& e) { return std::string(e.from) + " \u2192 " + std::string(e.to); }

// Reads `edges` ([{ from, to, when?, description? }], the same in graphs and machines) and hands
// each well-formed edge to `add`, which returns a problem (its pointer relative to the edge) or
// nothing.
template <class Add>
void read_edges(Reader& r, const condition::Json& document, Add add, bool machine = false) {
  using Json = condition::Json;
  auto edges = document.find("edges");
  if (edges == document.end()) return;
  if (!edges->is_array()) {
    r.problem("/edges", "expected an array");
    return;
  }
  for (std::size_t i = 0; i < edges->size(); ++i) {
    const Json& edge = (*edges)[i];
    std::string pointer = "/edges/" + std::to_string(i);
    if (!edge.is_object()) {
      r.problem(pointer, "expected an object");
      continue;
    }
    if (machine) r.only(edge, pointer, {"from", "to", "when", "description", "transfer"});
    else r.only(edge, pointer, {"from", "to", "when", "description"});
    const std::string* from = r.string(edge, pointer, "from", true);
    const std::string* to = r.string(edge, pointer, "to", true);
    const std::string* when = r.string(edge, pointer, "when", false);
    const std::string* description = r.string(edge, pointer, "description", false);
    if (!from || !to) continue;
    EdgeFields fields{*from, *to, when ? std::optional<std::string_view>(*when) : std::nullopt,
                      description ? std::string_view(*description) : std::string_view()};
    if (machine && edge.contains("transfer")) {
      const Json& transfer = *edge.find("transfer");
      if (!transfer.is_boolean()) r.problem(pointer + "/transfer", "expected true or false");
      else if (transfer.get<bool>() && when)
        r.problem(pointer + "/when", "a transfer edge is chosen by the model, not by a condition");
      else
        fields.transfer = transfer.get<bool>();
    }
    if (std::optional<Problem> problem = add(fields)) r.problem(pointer + problem->pointer, problem->message);
  }
}

}  // namespace handoff::definition
