// @ts-check
// @openai/agents: toOpenAIAgents(swarm, session) gives one SDK Agent per swarm agent, whose
// handoffs follow the swarm. Each transfer edge is an SDK Handoff named as the swarm names its
// tool, offered (isEnabled) only while the swarm offers it to the active agent, with the schema the
// swarm gives it now. A handoff call goes through swarm.applyToolCall: the core decides, with its
// limits and required variables. When it hands off, the rules that then hold are followed too and
// the SDK moves to the agent where the session ends up; the handoff's history is what the edge's
// context policy carries (the swarm computes it, custom policies included). When it is blocked or
// rejected, the SDK stays with the agent, and the model gets the swarm's reason as the call's
// result instead of a transfer message, so it can ask the user and try again.
//
// The SDK runs handoffs itself, so the conversation lives in the SDK's run; the session keeps the
// routing (active agent, hops, selections, variables, checkpoints) and, at each handoff, the
// histories the policy produced.
import { Agent, Handoff } from '@openai/agents';

import { checkOptions } from '../options.js';

/** @import { AgentInputItem, Model, ModelSettings, Tool } from '@openai/agents' */
/** @import { HandoffOutcome, Message, Session, Swarm, ToolCall } from '../index.js' */

/**
 * @typedef {object} OpenAIAgentsOptions
 * @property {string | Model} [model] A model name or an SDK Model, for every agent (default: the SDK's).
 * @property {ModelSettings} [modelSettings]
 * @property {Record<string, Tool<any>[]>} [tools] The agents' own SDK tools, by swarm agent id.
 * @property {Record<string, Record<string, unknown>>} [agentOptions] Other Agent options, by swarm agent id.
 */

/**
 * @typedef {object} SwarmAgents
 * @property {Agent<any, any>} agent The Agent the session's rules lead to now: start the run with it.
 * @property {Record<string, Agent<any, any>>} agents The Agents by swarm agent id.
 * @property {() => Agent<any, any>} current The Agent of the session's active agent.
 */

const OPTIONS = ['model', 'modelSettings', 'tools', 'agentOptions'];

// SDK items are the SDK's unions (AgentInputItem, RunItem), read here by their fields as given:
// `any` is the honest type of what this module reads from them.
/** @type {(content: any) => string} */
const textOf = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((c) => c?.text ?? c?.refusal ?? '').join('') : '');

/**
 * @param {any} output a function_call_result item's output
 * @returns {string}
 */
function outputText(output) {
  if (typeof output === 'string') return output;
  if (output?.type === 'text') return output.text;
  return Array.isArray(output) ? output.map((o) => o?.text ?? '').join('') : JSON.stringify(output ?? null);
}

/**
 * SDK conversation items (AgentInputItems or RunItems) → swarm messages.
 * @param {ReadonlyArray<unknown>} items
 * @returns {Message[]}
 */
export function fromAgentItems(items) {
  /** @type {Message[]} */
  const messages = [];
  for (const entry of items) {
    /** @type {any} */
    const item = /** @type {any} */ (entry)?.rawItem ?? entry;
    if (typeof item !== 'object' || item === null) continue;
    if (item.role === 'user') messages.push({ role: 'user', content: textOf(item.content) });
    else if (item.role === 'system' || item.role === 'developer') messages.push({ role: 'system', content: textOf(item.content) });
    else if (item.role === 'assistant') messages.push({ role: 'assistant', content: textOf(item.content) });
    else if (item.type === 'function_call') {
      const last = messages.at(-1);
      const call = { id: item.callId, name: item.name, arguments: item.arguments };
      if (last?.role === 'assistant') {
        last.toolCalls ??= [];
        /** @type {ToolCall[]} */ (last.toolCalls).push(call);
      } else messages.push({ role: 'assistant', content: '', toolCalls: [call] });
    } else if (item.type === 'function_call_result') {
      messages.push({ role: 'tool', toolCallId: item.callId, name: item.name, content: outputText(item.output) });
    }
  }
  return messages;
}

/**
 * Swarm messages → SDK input items.
 * @param {Message[]} messages
 * @returns {AgentInputItem[]}
 */
export function toAgentItems(messages) {
  /** @type {import('@openai/agents').AgentInputItem[]} */
  const items = [];
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'user') items.push({ role: m.role, content: m.content });
    else if (m.role === 'assistant') {
      if (m.content) items.push({ role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: m.content }] });
      for (const c of /** @type {ToolCall[] | undefined} */ (m.toolCalls) ?? []) {
        items.push({ type: 'function_call', callId: /** @type {string} */ (c.id), name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}), status: 'completed' });
      }
    } else if (m.role === 'tool') {
      items.push({ type: 'function_call_result', callId: /** @type {string} */ (m.toolCallId), name: /** @type {string} */ (m.name), status: 'completed', output: { type: 'text', text: m.content } });
    }
  }
  return items;
}

/** @type {(swarm: Swarm, session: Session) => void} */
const followRules = (swarm, session) => {
  for (let outcome = swarm.applyRules(session); outcome !== null; outcome = swarm.applyRules(session));
};

/**
 * @openai/agents Agents for the swarm's agents, bound to `session`. Options: `model` (a model name
 * or an SDK Model, for every agent), `modelSettings`, `tools` (the agents' own SDK tools, by agent
 * id), `agentOptions` (other Agent options, by agent id). Returns `{ agent, agents, current() }`:
 * `agent` is where the session's rules lead now (start the run with it), `agents` the Agents by
 * swarm id, `current()` the Agent of the session's active agent.
 * (One Agent per swarm agent, bound to `session`; handoffs offered, decided and carried by the swarm.)
 * @param {Swarm} swarm
 * @param {Session} session
 * @param {OpenAIAgentsOptions} [options]
 * @returns {SwarmAgents}
 */
export function toOpenAIAgents(swarm, session, options) {
  const { model, modelSettings, tools = {}, agentOptions = {} } = checkOptions(options, OPTIONS, 'toOpenAIAgents options');
  const definition = swarm.toJSON();
  for (const [kind, byId] of [['tools', tools], ['agentOptions', agentOptions]]) {
    for (const id of Object.keys(byId)) if (swarm.agent(id) === undefined) throw new TypeError(`toOpenAIAgents options.${kind}.${id}: no agent '${id}' in the swarm`);
  }
  const names = new Set();
  /** @type {Record<string, Agent<any, any>>} */
  const agents = {};
  for (const a of definition.agents) {
    // SDK agents are named for people and transfer messages; ids stand in when names repeat.
    const name = a.name && !names.has(a.name) ? a.name : a.id;
    names.add(name);
    agents[a.id] = new Agent({
      name,
      // Called before each of this agent's model calls: the swarm's instructions now.
      instructions: () => (session.active === a.id ? swarm.instructions(session) : a.instructions ?? ''),
      ...(a.description ? { handoffDescription: a.description } : {}),
      ...(model === undefined ? {} : { model }),
      ...(modelSettings === undefined ? {} : { modelSettings }),
      tools: Object.hasOwn(tools, a.id) ? tools[a.id] : [],
      ...(Object.hasOwn(agentOptions, a.id) ? agentOptions[a.id] : {}),
    });
  }
  /** @type {(from: string, toolName: string) => { name: string, description?: string, parameters?: any } | undefined} */
  const offeredNow = (from, toolName) => (session.active === from ? swarm.tools(session, 'openai-responses').find((t) => t.name === toolName) : undefined);
  /** @type {Map<string, Handoff<any, any>[]>} */
  const handoffsOf = new Map(definition.agents.map((a) => [a.id, []]));
  for (const edge of /** @type {NonNullable<typeof definition.edges>} toJSON() lists them all */ (definition.edges)) {
    if (edge.toolName === undefined) continue; // a rule: never a tool
    const toolName = edge.toolName;
    /** @type {{ before: Session, call: { name: string, arguments: string }, outcome: HandoffOutcome, result: string } | null} */
    let pending = null; // what the last invocation of this handoff decided, for its input filter
    /** @type {(runContext: unknown, args: string) => Agent<any, any>} */
    const invoke = (_runContext, args) => {
      const before = structuredClone(session);
      const call = { name: toolName, arguments: args === '' ? '{}' : args };
      const outcome = swarm.applyToolCall(session, call);
      if (outcome.type === 'handoff') followRules(swarm, session);
      pending = { before, call, outcome, result: swarm.toolResult(outcome.type === 'tool' ? { type: 'rejected', reason: 'not a transfer' } : outcome) };
      return agents[session.active];
    };
    const h = new Handoff(agents[edge.to], invoke);
    h.toolName = toolName;
    h.strictJsonSchema = true;
    // Description and schema as the swarm gives them now (isEnabled hides the tool otherwise).
    Object.defineProperty(h, 'toolDescription', { get: () => offeredNow(edge.from, toolName)?.description ?? edge.description ?? '', configurable: true });
    Object.defineProperty(h, 'inputJsonSchema', {
      get: () => offeredNow(edge.from, toolName)?.parameters ?? { type: 'object', properties: {}, required: [], additionalProperties: false },
      configurable: true,
    });
    h.isEnabled = async () => offeredNow(edge.from, toolName) !== undefined;
    h.inputFilter = (data) => {
      const decided = pending;
      pending = null;
      if (decided === null) return data;
      const conversation = fromAgentItems([...(typeof data.inputHistory === 'string' ? [{ role: 'user', content: data.inputHistory }] : data.inputHistory), ...data.preHandoffItems, ...data.newItems]);
      // The call's answer is the swarm's text ("Transferred to …", or why not), as runTurn gives it.
      const answer = conversation.findLast((m) => m.role === 'tool');
      if (answer !== undefined) answer.content = decided.result;
      for (const item of data.newItems) {
        if (item?.type === 'handoff_output_item' && item.rawItem?.type === 'function_call_result') item.rawItem.output = { type: 'text', text: decided.result };
      }
      if (decided.outcome.type !== 'handoff') {
        // Blocked or rejected: the same agent goes on, with the reason as the call's result.
        session.histories[session.active] = conversation;
        return { ...data, inputHistory: toAgentItems(conversation), preHandoffItems: [], newItems: [] };
      }
      // The history the edge's context policy carries, computed by the swarm itself on a copy of
      // the session as it was before the call, holding the SDK's conversation as the source's.
      const scratch = structuredClone(decided.before);
      scratch.histories[edge.from] = conversation;
      swarm.applyToolCall(scratch, decided.call);
      followRules(swarm, scratch);
      session.histories[edge.from] = conversation;
      session.histories[scratch.active] = scratch.histories[scratch.active];
      return { ...data, inputHistory: toAgentItems(scratch.histories[scratch.active]), preHandoffItems: [], newItems: [] };
    };
    /** @type {Handoff<any, any>[]} every agent has a list */ (handoffsOf.get(edge.from)).push(h);
  }
  for (const [id, list] of handoffsOf) agents[id].handoffs = list;
  followRules(swarm, session);
  return { agent: agents[session.active], agents, current: () => agents[session.active] };
}
