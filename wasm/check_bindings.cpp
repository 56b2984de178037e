// check() as JavaScript sees it, in the full module only (the routing module stays small): one
// function per kind of target, each returning the core's report (src/check/check.h) as a fresh
// JavaScript value. js/check.js picks the function and loads definitions given as data.
#include <emscripten/bind.h>

#include "check/check.h"
#include "graph/handoff_graph.h"
#include "js_values.h"
#include "machine/machine.h"

namespace {

using emscripten::val;

val check_graph(const handoff::graph::HandoffGraph& graph) {
  return handoff::bindings::to_js(handoff::check::check_graph(graph));
}

val check_machine(const handoff::machine::Machine& machine) {
  return handoff::bindings::to_js(handoff::check::check_machine(machine));
}

}  // namespace

EMSCRIPTEN_BINDINGS(handoff_check) {
  emscripten::function("checkGraph", &check_graph);
  emscripten::function("checkMachine", &check_machine);
}
