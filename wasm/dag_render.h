// The exports of graphs, machines and swarms as the full module's tables answer them (the routing
// module has none): { text } or { error }, for a DAG rendered in `format` after marking `trace`.
#pragma once

#include <emscripten/val.h>

#include <string>
#include <utility>

#include "export/dag.h"
#include "js_values.h"

namespace handoff::bindings {

inline emscripten::val render(dag::Dag dag, const std::string& trace, const std::string& format,
                              const std::string& kind, const std::string& direction, const std::string& generated_at) {
  auto rendered = dag::render(std::move(dag), trace, format, {kind, direction}, generated_at);
  Json out = Json::object();
  if (rendered)
    out["text"] = rendered.value();
  else
    out["error"] = rendered.error();
  return to_js(out);
}

}  // namespace handoff::bindings
