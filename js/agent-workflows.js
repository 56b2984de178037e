// @ts-check
// Agents that are workflows, and agents offered as tools (issue 18; docs/handoffs.md#agents-that-are-workflows-and-agents-as-tools).
//
// A workflow agent's turn is a StateMachine run instead of model calls: the Swarm option
// `workflows` binds agent ids to machines, with the mapping of the user's input and the session's
// variables into the machine's state and of its final state back into an answer (and variables).
// The Swarm option `agentTools` binds tools declared in the definition to agents: a call runs a
// nested conversation of that agent, whose answer is the call's result. This module checks both
// options against the definition (unknown ids and names, agent-tool cycles) and runs a workflow;
// the Swarm (js/swarm.js) decides when either happens.
import { isStateMachine } from './machine-brand.js';
import { checkOptions, notInDefinition, rootProblem } from './options.js';
import { describe } from './text.js';
import { isRecord } from './values.js';

/** @import { AgentWorkflow, DefinitionProblem, Run, StateMachine, SwarmAgent, SwarmDefinition, SwarmEvent } from './index.js' */

/**
 * A workflow as checkWorkflows keeps it: the default mappings filled in.
 * @typedef {{
 *   machine: StateMachine<any>,
 *   input: NonNullable<AgentWorkflow['input']>,
 *   output: NonNullable<AgentWorkflow['output']>,
 *   variables: AgentWorkflow['variables'],
 * }} CheckedWorkflow
 */

const WORKFLOW_OPTIONS = ['machine', 'input', 'output', 'variables'];

// The default input mapping: the variables the agent sees, and the user's input as `input`.
/** @type {CheckedWorkflow['input']} */
const defaultInput = ({ input, variables }) => ({ ...variables, input });

// The default answer: the final state's `answer`.
/** @type {CheckedWorkflow['output']} */
const defaultOutput = (state) => state.answer;

/**
 * `options.workflows`, checked for types: a Map from agent id to { machine, input, output, variables? }.
 * A bare StateMachine is the same as { machine }.
 * @param {unknown} given
 * @returns {Map<string, CheckedWorkflow>}
 */
export function checkWorkflows(given) {
  /** @type {Map<string, CheckedWorkflow>} */
  const out = new Map();
  if (given === undefined) return out;
  if (!isRecord(given)) throw new TypeError(`options.workflows must be an object of workflows by agent id, got ${describe(given)}`);
  for (const [agent, value] of Object.entries(given)) {
    /** @type {Record<string, any>} a caller's values (a StateMachine, or options), checked below */
    const spec = isStateMachine(value) ? { machine: value } : checkOptions(/** @type {object} */ (value), WORKFLOW_OPTIONS, `options.workflows.${agent}`);
    if (!isStateMachine(spec.machine)) {
      throw new TypeError(`options.workflows.${agent} must be a StateMachine or { machine, input?, output?, variables? }, got ${describe(value)}`);
    }
    for (const hook of ['input', 'output', 'variables']) {
      if (spec[hook] !== undefined && typeof spec[hook] !== 'function') throw new TypeError(`options.workflows.${agent}.${hook} must be a function, got ${describe(spec[hook])}`);
    }
    out.set(agent, { machine: spec.machine, input: spec.input ?? defaultInput, output: spec.output ?? defaultOutput, variables: spec.variables });
  }
  return out;
}

/**
 * `options.agentTools`, checked for types: a Map from tool name to agent id.
 * @param {unknown} given
 * @returns {Map<string, string>}
 */
export function checkAgentTools(given) {
  /** @type {Map<string, string>} */
  const out = new Map();
  if (given === undefined) return out;
  if (!isRecord(given)) throw new TypeError(`options.agentTools must be an object of agent ids by tool name, got ${describe(given)}`);
  for (const [tool, agent] of Object.entries(given)) {
    if (typeof agent !== 'string') throw new TypeError(`options.agentTools.${tool} must be an agent id (a string), got ${describe(agent)}`);
    out.set(tool, agent);
  }
  return out;
}

/**
 * The problems of both options against the loaded definition: unknown agents and tools, a tool
 * bound twice (to an agent and to a handler or mock), and cycles of agent tools (an agent that
 * would, through agent tools, end up asking itself), which are refused so that nesting is bounded
 * by the number of agents.
 * @param {SwarmDefinition} definition
 * @param {Map<string, CheckedWorkflow>} workflows
 * @param {Map<string, string>} agentTools
 * @param {{ handlers: Map<string, unknown>, mocks: Map<string, unknown> }} tools
 * @returns {DefinitionProblem[]}
 */
export function workflowProblems(definition, workflows, agentTools, { handlers, mocks }) {
  /** @type {DefinitionProblem[]} */
  const problems = [];
  const agents = new Map(definition.agents.map((a) => [a.id, a]));
  for (const agent of workflows.keys()) {
    if (!agents.has(agent)) problems.push(notInDefinition(`options.workflows.${agent}`, 'agent', agent));
  }
  const toolNames = new Set(definition.agents.flatMap((a) => (a.tools ?? []).map((t) => t.name)));
  for (const [tool, agent] of agentTools) {
    if (!toolNames.has(tool)) problems.push(notInDefinition(`options.agentTools.${tool}`, 'tool', tool));
    if (!agents.has(agent)) problems.push(notInDefinition(`options.agentTools.${tool}`, 'agent', agent));
    if (handlers.has(tool) || mocks.has(tool)) problems.push(rootProblem(`options.agentTools.${tool}: the tool also has a ${handlers.has(tool) ? 'handler' : 'mock'}; a tool runs one way`));
  }
  if (problems.length > 0) return problems;
  // Who asks whom: agent -> the agents its agent tools run.
  const asks = new Map(
    definition.agents.map((a) => [a.id, (a.tools ?? []).filter((t) => agentTools.has(t.name)).map((t) => ({ tool: t.name, agent: /** @type {string} */ (agentTools.get(t.name)) }))]),
  );
  const cycle = findCycle(definition.agents.map((a) => a.id), asks);
  if (cycle !== null) {
    problems.push(rootProblem(`options.agentTools: the agent tools form a cycle (${cycle.join(' -> ')}): an agent may not end up asking itself`));
  }
  return problems;
}

// The first cycle of the `asks` graph in declaration order, as a path of "agent (tool)" steps, or null.
/**
 * @param {string[]} ids
 * @param {Map<string, Array<{ tool: string, agent: string }>>} asks
 * @returns {string[] | null}
 */
function findCycle(ids, asks) {
  const done = new Set();
  /** @type {Array<{ agent: string, tool: string }>} */
  const path = [];
  const onPath = new Set();
  /** @type {(id: string) => string[] | null} */
  const visit = (id) => {
    if (onPath.has(id)) return [...path.slice(path.findIndex((p) => p.agent === id)).map((p) => `${p.agent} (${p.tool})`), id];
    if (done.has(id)) return null;
    onPath.add(id);
    for (const { tool, agent } of asks.get(id) ?? []) {
      path.push({ agent: id, tool });
      const found = visit(agent);
      if (found !== null) return found;
      path.pop();
    }
    onPath.delete(id);
    done.add(id);
    return null;
  };
  for (const id of ids) {
    const found = visit(id);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Runs agent `agent`'s workflow on `input` and the agent's visible `variables`: yields
 * `workflow_step` (one per machine step) and `workflow_done`, returns { text, variables, recording } (the
 * variables the workflow sets, or undefined; the trace log's `workflow` line). An aborted `signal` throws its reason; a machine
 * that fails, or an output that is not a string, throws.
 * @param {CheckedWorkflow} workflow
 * @param {{ agent: string, agentDefinition: SwarmAgent, input: string, variables: Record<string, unknown>, signal?: AbortSignal }} run
 * @returns {AsyncGenerator<Extract<SwarmEvent, { type: 'workflow_step' | 'workflow_done' }>, { text: string, variables: Record<string, unknown> | undefined, recording: { type: string, [field: string]: unknown } }>}
 */
export async function* runWorkflow(workflow, { agent, agentDefinition, input, variables, signal }) {
  const { machine, output } = workflow;
  const state = await workflow.input({ input, variables, agent: agentDefinition });
  if (!isRecord(state)) throw new TypeError(`workflow of agent '${agent}': input must return an object (the machine's initial state), got ${describe(state)}`);
  /** @type {Run<any> | undefined} */
  let last;
  for await (const event of machine.stream(state, { signal })) {
    if (event.type === 'step:end') yield { type: 'workflow_step', agent, machine: machine.name ?? null, step: structuredClone(event.step) };
    else if (event.type === 'end') last = event.run;
  }
  signal?.throwIfAborted();
  // The stream's last event is its `end`: a run that did not end threw above.
  const run = /** @type {Run<any>} */ (last);
  yield { type: 'workflow_done', agent, machine: machine.name ?? null, reason: run.reason, stepsRun: run.stepsRun };
  const text = await output(run.state);
  if (typeof text !== 'string') {
    throw new TypeError(`workflow of agent '${agent}': the answer must be a string (the final state's 'answer', or what options.workflows.${agent}.output returns), got ${describe(text)}`);
  }
  const updates = workflow.variables === undefined ? undefined : await workflow.variables(run.state);
  if (updates !== undefined && updates !== null && !isRecord(updates)) {
    throw new TypeError(`workflow of agent '${agent}': variables must return an object of variables, got ${describe(updates)}`);
  }
  // The trace log's line of the run (docs/replay.md): what a replay needs to run it again without
  // its handlers: the state it started from and every visit's update.
  const recording = { type: 'workflow', agent, state, outputs: run.outputs, text, ...(updates === undefined || updates === null ? {} : { variables: updates }) };
  return { text, variables: updates ?? undefined, recording };
}
