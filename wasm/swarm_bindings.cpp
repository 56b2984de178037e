// The Swarm class as JavaScript sees it, in the full module: an embind table over src/handoff/.
// A session's routing core and a tool call cross as JSON text both ways, since none of it is per
// route; each answer is the core's record (a host record, offered tools), which js/swarm.js acts
// on without deciding anything again.
#include <emscripten/bind.h>

#include <cstddef>
#include <memory>
#include <string>

#include "check/check.h"
#include "dag_render.h"
#include "handoff/policy.h"
#include "handoff/swarm.h"
#include "js_values.h"

namespace {

using emscripten::val;
using handoff::bindings::Json;
using handoff::bindings::text_of;
using handoff::swarm::SessionCore;
using handoff::swarm::Swarm;

// What JS holds for a Swarm: empty until a definition loads.
struct SwarmHolder {
  std::unique_ptr<Swarm> swarm;
};

std::string error_text(const std::string& message) {
  Json out = Json::object();
  out["error"] = message;
  return text_of(out);
}

// Runs `fn(session core)` on the JSON session text: { error }, or fn's record with { session }.
template <class Fn>
std::string with_session(const SwarmHolder& holder, const std::string& session_text, Fn fn) {
  if (!holder.swarm) return error_text("no swarm loaded");
  auto core = SessionCore::from_json(*holder.swarm, handoff::bindings::parse(session_text));
  if (!core) return error_text(core.error());
  Json out = fn(core.value());
  out["session"] = core.value().to_json();
  return text_of(out);
}

// Loads a definition; null (loaded), or [{ pointer, message }].
val load(SwarmHolder& holder, const std::string& definition) {
  return handoff::bindings::load_definition(definition, Swarm::from_json,
                                            [&](std::unique_ptr<Swarm>&& swarm) { holder.swarm = std::move(swarm); });
}

// The definition text (the core's normal form).
std::string to_json(const SwarmHolder& holder) { return holder.swarm ? text_of(holder.swarm->to_json()) : "null"; }

// The routing core of a new session (at the entry agent).
std::string start(const SwarmHolder& holder) {
  return holder.swarm ? text_of(SessionCore::start(*holder.swarm).to_json()) : error_text("no swarm loaded");
}

// The MCP tools the host's clients listed, { <server>: [tools] } as JSON text; "" for none.
Json listed_of(const std::string& mcp) { return mcp.empty() ? Json() : handoff::bindings::parse(mcp); }

// The tools the session's active agent is offered, in `format` (a provider's tool shape); `mcp`:
// the MCP tools listed (listed_of).
std::string tools(const SwarmHolder& holder, const std::string& session, const std::string& format, const std::string& mcp) {
  return with_session(holder, session, [&](SessionCore& core) {
    auto record = handoff::swarm::offered_tools_record(*holder.swarm, core, format, listed_of(mcp));
    if (record) return std::move(record.value());
    Json error = Json::object();
    error["error"] = record.error();
    return error;
  });
}

std::string apply_rules(const SwarmHolder& holder, const std::string& session) {
  return with_session(holder, session, [&](SessionCore& core) {
    return handoff::swarm::host_record(*holder.swarm, handoff::swarm::apply_rules(*holder.swarm, core));
  });
}

// `approved`: a human approved this call (docs/handoffs.md#approvals); a call of an `approval: true`
// tool or edge without it is "approval_required" and changes nothing.
std::string apply_tool_call(const SwarmHolder& holder, const std::string& session, const std::string& name,
                            const std::string& arguments, bool approved, const std::string& mcp) {
  return with_session(holder, session, [&](SessionCore& core) {
    return handoff::swarm::host_record(
        *holder.swarm, handoff::swarm::apply_tool_call_text(*holder.swarm, core, name, arguments, approved, listed_of(mcp)));
  });
}

// { result } or { error }: the tool result of an outcome the host holds.
std::string tool_result(const SwarmHolder& holder, const std::string& outcome) {
  if (!holder.swarm) return error_text("no swarm loaded");
  auto result = handoff::swarm::tool_result_text(*holder.swarm, handoff::bindings::parse(outcome));
  if (!result) return error_text(result.error());
  Json out = Json::object();
  out["result"] = result.value();
  return text_of(out);
}

// { error }, or the host record of the handoff the host's validate hook refused.
std::string refuse_handoff(const SwarmHolder& holder, double edge, const std::string& variable,
                           const std::string& message) {
  if (!holder.swarm) return error_text("no swarm loaded");
  if (!(edge >= 0 && edge < static_cast<double>(holder.swarm->edges().size()))) return error_text("not an edge index");
  auto outcome = handoff::swarm::refused_handoff(*holder.swarm, static_cast<std::size_t>(edge), variable, message);
  if (!outcome) return error_text(outcome.error());
  return text_of(handoff::swarm::host_record(*holder.swarm, std::move(outcome.value())));
}

// A picture of the swarm (dag::render): `session` is the JSON text of { active, checkpoints } to
// mark, or empty; `format` "dag", "mermaid" or "dot"; `kind` Mermaid's "flowchart" or "state".
// { text } or { error }.
val export_swarm(const SwarmHolder& holder, const std::string& session, const std::string& format,
                 const std::string& kind, const std::string& direction) {
  if (!holder.swarm) {
    Json out = Json::object();
    out["error"] = "no swarm loaded";
    return handoff::bindings::to_js(out);
  }
  return handoff::bindings::render(handoff::dag::dag_of(*holder.swarm), session, format, kind, direction, "");
}

// The core's check() report (src/check/check.h).
val check(const SwarmHolder& holder) {
  return holder.swarm ? handoff::bindings::to_js(handoff::check::check_swarm(*holder.swarm)) : val::null();
}

}  // namespace

EMSCRIPTEN_BINDINGS(handoff_swarm) {
  using namespace emscripten;
  class_<SwarmHolder>("Swarm")
      .constructor<>()
      .function("load", &load)
      .function("toJSON", &to_json)
      .function("check", &check)
      .function("start", &start)
      .function("tools", &tools)
      .function("applyRules", &apply_rules)
      .function("applyToolCall", &apply_tool_call)
      .function("refuseHandoff", &refuse_handoff)
      .function("toolResult", &tool_result)
      .function("export", &export_swarm);
}
