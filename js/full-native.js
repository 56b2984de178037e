// The full module's Swarm, Machine and Execution classes over its raw exports (the ABI of
// js/native-calls.js, which also has the HandoffGraph class both modules share). Each presents
// the method names the embind class had, so js/swarm.js and js/machine.js call it unchanged;
// js/full-module.js puts them on the loaded module.
import { textCalls } from './native-calls.js';

/**
 * The Swarm class over wasm/bindings.cpp's hg_swarm_* exports: JSON text in, JSON text out.
 * @param {Record<string, any>} module
 */
export function swarmClass(module) {
  const { put, replyText, reply, orNull } = textCalls(module);
  return class Swarm {
    #at = module._hg_swarm_new();
    /** @param {string} text */
    load(text) { return orNull(module._hg_swarm_load(this.#at, ...put(text))); }
    toJSON() { return replyText(module._hg_swarm_to_json(this.#at)); }
    start() { return replyText(module._hg_swarm_start(this.#at)); }
    /** @param {string} session @param {string} format */
    tools(session, format) { return replyText(module._hg_swarm_tools(this.#at, ...put(session, format))); }
    /** @param {string} session */
    applyRules(session) { return replyText(module._hg_swarm_apply_rules(this.#at, ...put(session))); }
    /** @param {string} session @param {string} name @param {string} args @param {boolean} approved */
    applyToolCall(session, name, args, approved) {
      return replyText(module._hg_swarm_apply_tool_call(this.#at, ...put(session, name, args), approved ? 1 : 0));
    }
    /** @param {number} edge @param {string} variable @param {string} message */
    refuseHandoff(edge, variable, message) {
      return replyText(module._hg_swarm_refuse_handoff(this.#at, edge, ...put(variable, message)));
    }
    /** @param {string} outcome */
    toolResult(outcome) { return replyText(module._hg_swarm_tool_result(this.#at, ...put(outcome))); }
    /** @param {string} session @param {string} format @param {string} kind @param {string} direction */
    export(session, format, kind, direction) {
      return reply(module._hg_swarm_export(this.#at, ...put(session, format, kind, direction)));
    }
    delete() {
      if (this.#at !== 0) module._hg_swarm_delete(this.#at);
      this.#at = 0;
    }
  };
}

/** Strings JS sends as one JSON list; well-formed first, as TextEncoder makes every other string. */
const listText = (/** @type {unknown[]} */ list) =>
  JSON.stringify(list, (_, value) => (typeof value === 'string' ? value.toWellFormed() : value));

/**
 * The Machine class (building a state machine) and Execution class (a run, between the steps the
 * raw hg_exec_* exports make) over wasm/bindings.cpp's hg_machine_* and hg_execution_* exports,
 * and revisionText.
 * @param {Record<string, any>} module
 */
export function machineClasses(module) {
  const { put, replyText, reply, orNull } = textCalls(module);
  class Machine {
    #at;
    /**
     * @param {string} name @param {boolean} hasStart @param {string} start @param {number} maxSteps
     * @param {string} onMaxSteps @param {boolean} feedbackOnRevisit @param {string[]} noFeedbackStates
     * @param {[string, string][]} reducers
     */
    constructor(name, hasStart, start, maxSteps, onMaxSteps, feedbackOnRevisit, noFeedbackStates, reducers) {
      const [n, nl, s, sl, o, ol, f, fl, r, rl] = put(name, start, onMaxSteps, listText(noFeedbackStates), listText(reducers));
      this.#at = module._hg_machine_new(n, nl, hasStart ? 1 : 0, s, sl, maxSteps, o, ol, feedbackOnRevisit ? 1 : 0, f, fl, r, rl);
    }
    address() { return this.#at; }
    /** @param {string} name @param {boolean} feedbackOnRevisit @param {boolean} hasTask @param {string} task */
    addState(name, feedbackOnRevisit, hasTask, task) {
      const [n, nl, t, tl] = put(name, task);
      return orNull(module._hg_machine_add_state(this.#at, n, nl, feedbackOnRevisit ? 1 : 0, hasTask ? 1 : 0, t, tl));
    }
    /** @param {string} from @param {string} to @param {boolean} conditional @param {string} when @param {string} description */
    addEdge(from, to, conditional, when, description) {
      const [f, fl, t, tl, w, wl, d, dl] = put(from, to, when, description);
      return orNull(module._hg_machine_add_edge(this.#at, f, fl, t, tl, conditional ? 1 : 0, w, wl, d, dl));
    }
    /** @param {string} from @param {string} to @param {string} description */
    addPredicateEdge(from, to, description) { return orNull(module._hg_machine_add_predicate_edge(this.#at, ...put(from, to, description))); }
    /** @param {string} from @param {string} to @param {string} description */
    addTransferEdge(from, to, description) { return orNull(module._hg_machine_add_transfer_edge(this.#at, ...put(from, to, description))); }
    /** @param {string} name @param {string[]} branches @param {boolean} hasConcurrency @param {number} concurrency */
    addFanOut(name, branches, hasConcurrency, concurrency) {
      return orNull(module._hg_machine_add_fan_out(this.#at, ...put(name, listText(branches)), hasConcurrency ? 1 : 0, concurrency));
    }
    /** @param {string} name @param {string} branch @param {string} over @param {boolean} hasConcurrency @param {number} concurrency */
    addMap(name, branch, over, hasConcurrency, concurrency) {
      return orNull(module._hg_machine_add_map(this.#at, ...put(name, branch, over), hasConcurrency ? 1 : 0, concurrency));
    }
    /**
     * @param {string} name @param {string} child @param {boolean} hasInput @param {[string, string][] | undefined} input
     * @param {boolean} hasOutput @param {[string, string][] | undefined} output
     */
    addSubgraph(name, child, hasInput, input, hasOutput, output) {
      const [n, nl, c, cl, i, il, o, ol] = put(name, child, listText(input ?? []), listText(output ?? []));
      return orNull(module._hg_machine_add_subgraph(this.#at, n, nl, c, cl, hasInput ? 1 : 0, i, il, hasOutput ? 1 : 0, o, ol));
    }
    /** @param {string} state @param {number} count */
    setHandoffs(state, count) { return orNull(module._hg_machine_set_handoffs(this.#at, ...put(state), count)); }
    /** @param {number} state */
    subgraph(state) { return reply(module._hg_machine_subgraph(this.#at, state)); }
    /** @param {number} state */
    fanOut(state) { return reply(module._hg_machine_fan_out(this.#at, state)); }
    edgeCount() { return module._hg_machine_edge_count(this.#at) >>> 0; }
    templateVariables() { return reply(module._hg_machine_template_variables(this.#at)); }
    validate() { return reply(module._hg_machine_validate(this.#at)); }
    stateNames() { return reply(module._hg_machine_state_names(this.#at)); }
    /** @param {number} state */
    routePaths(state) { return reply(module._hg_machine_route_paths(this.#at, state)); }
    /** @param {number} state */
    routePathTexts(state) { return reply(module._hg_machine_route_path_texts(this.#at, state)); }
    /** @param {number} state */
    outEdges(state) { return reply(module._hg_machine_out_edges(this.#at, state)); }
    /** @param {number} from */
    stringsSince(from) { return reply(module._hg_machine_strings_since(this.#at, from)); }
    /** @param {string} trace @param {string} format @param {string} kind @param {string} direction @param {string} generatedAt */
    export(trace, format, kind, direction, generatedAt) {
      return reply(module._hg_machine_export(this.#at, ...put(trace, format, kind, direction, generatedAt)));
    }
    toJSON() { return reply(module._hg_machine_to_json(this.#at)); }
    /** @param {string} text */
    loadJSON(text) { return orNull(module._hg_machine_load_json(this.#at, ...put(text))); }
    reducers() { return reply(module._hg_machine_reducers(this.#at)); }
    options() { return reply(module._hg_machine_options(this.#at)); }
    delete() {
      if (this.#at !== 0) module._hg_machine_delete(this.#at);
      this.#at = 0;
    }
  }

  class Execution {
    #at;
    /** @param {Machine} machine */
    constructor(machine) {
      this.#at = module._hg_execution_new(machine.address());
    }
    address() { return this.#at; }
    /** @param {Machine} machine @param {string} snapshot */
    restore(machine, snapshot) { return orNull(module._hg_execution_restore(this.#at, machine.address(), ...put(snapshot))); }
    snapshot() { return replyText(module._hg_execution_snapshot(this.#at)); }
    unmatchedReads() { return reply(module._hg_execution_unmatched_reads(this.#at)); }
    feedback() { return replyText(module._hg_execution_feedback(this.#at)); }
    /** @param {number} state */
    feedbackOf(state) { return replyText(module._hg_execution_feedback_of(this.#at, state)); }
    /** @param {string} variables */
    bindVariables(variables) { return orNull(module._hg_execution_bind_variables(this.#at, ...put(variables))); }
    /** @param {number} state */
    task(state) { return reply(module._hg_execution_task(this.#at, state)); }
    maxStepsFlag() { return module._hg_execution_max_steps_flag(this.#at); }
    fanOutUnderWay() { return reply(module._hg_execution_fan_out_under_way(this.#at)); }
    subgraphUnderWay() { return reply(module._hg_execution_subgraph_under_way(this.#at)); }
    transfers() { return replyText(module._hg_execution_transfers(this.#at)); }
    /** @param {string} choice */
    chooseTransfer(choice) { return orNull(module._hg_execution_choose_transfer(this.#at, ...put(choice))); }
    delete() {
      if (this.#at !== 0) module._hg_execution_delete(this.#at);
      this.#at = 0;
    }
  }

  /** @param {string} state @param {number} visit @param {string} prior */
  function revisionText(state, visit, prior) {
    const [s, sl, p, pl] = put(state, prior);
    return replyText(module._hg_revision_text(s, sl, visit, p, pl));
  }
  return { Machine, Execution, revisionText };
}
