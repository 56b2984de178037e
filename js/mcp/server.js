// @ts-check
// A swarm served over MCP (docs/mcp.md): createMcpServer(swarm, { store, model? }) returns an SDK
// Server (`@modelcontextprotocol/sdk`) to connect to any transport.
//
// Without `model`, the host's model is the agents: one MCP session is one swarm session, and the
// tools listed are what the core offers the active agent now (its own tools, its MCP tools, the
// transfers allowed now), plus update_state; a transfer is applied as applyToolCall applies it.
// With `model`, the swarm is one tool that runs a whole turn.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

import { checkOptions } from '../options.js';
import { MemoryStore } from '../stores/memory.js';
import { describe } from '../text.js';
import { isRecord, messageOf } from '../values.js';
import { hostToolCall, refreshMcpTools, watchMcpTools } from './host-symbols.js';

/** @import { HandoffOutcome, ModelFunction, Session, SessionStore, Swarm } from '../index.js' */

/**
 * @typedef {object} McpServerOptions
 * @property {SessionStore} [store] Where the swarm sessions live (default: a MemoryStore).
 * @property {ModelFunction} [model] With a model, the swarm is one tool that runs a whole turn; without one, the host's model is the agents.
 * @property {string} [sessionId] The swarm session to continue (or start) under this id (default: the transport's session id, else a new one).
 * @property {number} [maxModelCalls] With `model`: runTurn's maxModelCalls.
 * @property {unknown} [toolState] Passed to the handlers of agents' own tools.
 * @property {string} [name] The server's name in the MCP handshake (default: the swarm's name).
 * @property {string} [version]
 */

/**
 * What createMcpServer asks of a Swarm beyond its public API (./host-symbols.js).
 * @typedef {{
 *   [hostToolCall](session: Session, call: { name: string, arguments: unknown }, options: { signal?: AbortSignal, toolState?: unknown, approved?: boolean }): Promise<{ outcome: HandoffOutcome, result: string }>,
 *   [refreshMcpTools](session: Session, signal?: AbortSignal): Promise<unknown>,
 *   [watchMcpTools](listener: (server: string, agents: string[]) => void): () => unknown,
 * }} McpHost
 */
/** @typedef {{ sessionId?: string, signal?: AbortSignal }} RequestExtra what a request handler reads of the SDK's `extra` */

/** The tool that records variables (and runs the rules), offered beside the active agent's tools. */
export const UPDATE_STATE = /** @type {const} */ ('update_state');
/** The resource that holds the session (JSON). */
export const SESSION_URI = /** @type {const} */ ('handoff-graph://session');
/** The prompt that holds the active agent's instructions. */
export const INSTRUCTIONS_PROMPT = /** @type {const} */ ('instructions');

const OPTIONS = ['store', 'model', 'sessionId', 'maxModelCalls', 'toolState', 'name', 'version'];

const UPDATE_STATE_TOOL = {
  name: UPDATE_STATE,
  description: 'Record facts about the conversation as session variables (merged into those it has). The rules of the swarm run on every change, and may hand the conversation to another agent: the tools then change.',
  inputSchema: {
    type: 'object',
    properties: { variables: { type: 'object', description: 'The variables to set, by name (JSON values)' } },
    required: ['variables'],
    additionalProperties: false,
  },
};

// A tool name the MCP spec and every model API accept, made from the swarm's name.
/** @param {string | undefined} name */
function toolNameOf(name) {
  const made = (name || 'swarm').replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return made.length > 0 ? made : 'swarm';
}

/** @type {(text: string) => { content: Array<{ type: 'text', text: string }>, isError: true }} */
const errorResult = (text) => ({ content: [{ type: 'text', text }], isError: true });
/** @type {(text: string, structured?: Record<string, unknown>) => { content: Array<{ type: 'text', text: string }>, structuredContent?: Record<string, unknown> }} */
const textResult = (text, structured) => ({ content: [{ type: 'text', text }], ...(structured === undefined ? {} : { structuredContent: structured }) });

// The arguments of a call, checked against the names allowed: an object, or a text saying what is wrong.
/**
 * @param {unknown} args
 * @param {string[]} allowed
 * @param {string} tool
 * @returns {Record<string, unknown> | string}
 */
function checkArguments(args, allowed, tool) {
  const given = args ?? {};
  if (!isRecord(given)) return `the arguments of ${tool} must be an object, got ${describe(given)}`;
  const unknown = Object.keys(given).find((key) => !allowed.includes(key));
  if (unknown !== undefined) return `${tool} has no argument '${unknown}'; its arguments: ${allowed.join(', ')}`;
  return given;
}

/**
 * An MCP server (the SDK's Server, not yet connected) for `swarm`: connect it to one transport
 * (stdio, or one Streamable HTTP session). `store` keeps the sessions (default: a MemoryStore);
 * `model` makes the swarm one tool that runs a whole turn; `sessionId` continues (or starts) that
 * swarm session, else the transport's session id, else a new one.
 * @param {Swarm} swarm
 * @param {McpServerOptions} [options]
 * @returns {Server}
 */
export function createMcpServer(swarm, options) {
  if (typeof swarm?.runTurn !== 'function' || typeof (/** @type {any} a caller's value, checked here */ (swarm))[hostToolCall] !== 'function') throw new TypeError(`createMcpServer(swarm, options): expected a Swarm, got ${describe(swarm)}`);
  const { store = new MemoryStore(), model, sessionId, maxModelCalls, toolState, name, version = '0.1.0' } = checkOptions(options, OPTIONS, 'createMcpServer options');
  if (typeof store?.get !== 'function' || typeof store?.save !== 'function' || typeof store?.appendCheckpoint !== 'function') {
    throw new TypeError(`createMcpServer options.store must be a session store (get, save, appendCheckpoint), such as a FileStore, got ${describe(store)}`);
  }
  if (model !== undefined && typeof model !== 'function') throw new TypeError(`createMcpServer options.model must be a model function ({ agent, messages, tools }) => { text, toolCalls }, got ${describe(model)}`);
  if (sessionId !== undefined && (typeof sessionId !== 'string' || sessionId.length === 0)) throw new TypeError(`createMcpServer options.sessionId must be a non-empty string, got ${describe(sessionId)}`);
  if (name !== undefined && typeof name !== 'string') throw new TypeError(`createMcpServer options.name must be a string, got ${describe(name)}`);
  const serverName = name ?? (swarm.name || 'handoff-graph');
  const host = /** @type {Swarm & McpHost} checked above */ (swarm);
  if (model !== undefined) return oneToolServer(host, { store, model, maxModelCalls, toolState, serverName, version });
  const definition = swarm.toJSON();
  for (const agent of definition.agents) {
    if ((agent.tools ?? []).some((t) => t.name === UPDATE_STATE)) throw new TypeError(`createMcpServer: agent '${agent.id}' has a tool named ${UPDATE_STATE}, the server's own tool`);
  }
  if ((/** @type {NonNullable<typeof definition.edges>} toJSON() lists them */ (definition.edges)).some((e) => e.toolName === UPDATE_STATE)) throw new TypeError(`createMcpServer: a transfer tool is named ${UPDATE_STATE}, the server's own tool`);
  return agentsServer(host, { store, sessionId, toolState, serverName, version });
}

// Without a model: the host's model is the agents.
/**
 * @param {Swarm & McpHost} swarm
 * @param {{ store: SessionStore, sessionId: string | undefined, toolState: unknown, serverName: string, version: string }} options
 */
function agentsServer(swarm, { store, sessionId, toolState, serverName, version }) {
  const server = new Server(
    { name: serverName, version },
    {
      capabilities: { tools: { listChanged: true }, prompts: {}, resources: {} },
      instructions: 'You are the agents of a handoff-graph swarm. The tools are the active agent\'s own tools and the transfers it may make now; the prompt "instructions" is the active agent\'s instructions. After a transfer the tools change: list them again.',
    },
  );
  /** @type {Session} set by open(), which every request handler calls first */
  let session = /** @type {any} */ (undefined);
  /** @type {Promise<unknown>} */
  let queue = Promise.resolve();
  // One request at a time: each reads and writes the session whole.
  /** @type {<T>(fn: () => Promise<T>) => Promise<T>} */
  const serial = (fn) => {
    const run = queue.then(fn);
    queue = run.catch(() => {});
    return run;
  };
  /** @type {(extra: RequestExtra | undefined) => Promise<Session>} */
  const open = async (extra) => {
    if (session !== undefined) return session;
    const id = sessionId ?? extra?.sessionId ?? globalThis.crypto.randomUUID();
    session = (await store.get(id)) ?? swarm.createSession({ id });
    if (session.version === 0) {
      for (let hop = swarm.applyRules(session); hop !== null; hop = swarm.applyRules(session));
      await save();
    }
    return session;
  };
  const save = async () => {
    for (const checkpoint of session.checkpoints) await store.appendCheckpoint(session.id, checkpoint);
    session.checkpoints = [];
    try {
      await store.save(session);
    } catch (error) {
      // Another writer saved this session first: carry on from what it saved.
      session = (await store.get(session.id)) ?? session;
      throw error;
    }
  };
  const toolNames = () => swarm.tools(session, 'openai-chat').map((t) => t.function.name);
  // Every tool name of the definition (its agents' own tools and its transfers, as the core named them).
  const definition = swarm.toJSON();
  const knownNames = new Set([
    ...definition.agents.flatMap((a) => (a.tools ?? []).map((t) => t.name)),
    ...(/** @type {NonNullable<typeof definition.edges>} */ (definition.edges)).flatMap((e) => (e.toolName === undefined ? [] : [e.toolName])),
    ...(definition.transferTools === 'single' ? ['transfer_to_agent'] : []),
  ]);
  /** @type {(extra: RequestExtra | undefined) => Promise<unknown[]>} */
  const listed = async (extra) => {
    await open(extra);
    await swarm[refreshMcpTools](session, extra?.signal);
    const tools = swarm.tools(session, 'openai-chat').map(({ function: f }) => ({ name: f.name, description: f.description, inputSchema: f.parameters }));
    return [...tools, UPDATE_STATE_TOOL];
  };

  server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => serial(async () => ({ tools: await listed(extra) })));

  // The active agent's MCP servers changed their tools: so did the host's.
  const unwatch = swarm[watchMcpTools]((_server, agents) => {
    if (session !== undefined && agents.includes(session.active)) void server.sendToolListChanged().catch(() => {});
  });
  const closed = server.onclose;
  server.onclose = () => {
    unwatch();
    closed?.();
  };

  server.setRequestHandler(CallToolRequestSchema, (request, extra) => serial(async () => {
    await open(extra);
    const { name, arguments: args } = request.params;
    const before = toolNames().join('\n');
    const kept = structuredClone(session);
    /** @type {Awaited<ReturnType<typeof call>>} */
    let answer;
    try {
      answer = await call(name, args, extra);
    } catch (error) {
      // A call that failed (a handler threw, a save conflicted) leaves the session as it was.
      if (session.version === kept.version) session = kept;
      if (error instanceof McpError) throw error;
      return errorResult(`Error: ${messageOf(error)}`);
    }
    if (toolNames().join('\n') !== before) await server.sendToolListChanged().catch(() => {});
    return answer;
  }));

  /**
   * @param {string} name
   * @param {Record<string, unknown> | undefined} args
   * @param {RequestExtra | undefined} extra
   */
  const call = async (name, args, extra) => {
    if (name === UPDATE_STATE) {
      const checked = checkArguments(args, ['variables'], UPDATE_STATE);
      if (typeof checked === 'string') return errorResult(`Error: ${checked}`);
      const { variables } = checked;
      if (!isRecord(variables)) return errorResult(`Error: ${UPDATE_STATE} needs { variables: { name: value, … } }, got ${describe(variables)}`);
      const from = session.active;
      swarm.updateState(session, variables);
      for (let hop = swarm.applyRules(session); hop !== null; hop = swarm.applyRules(session));
      await save();
      const moved = session.active === from ? '' : ` The rules handed the conversation to ${describeAgent(swarm, session.active)}: list the tools again.`;
      return textResult(`Updated ${Object.keys(variables).join(', ') || 'nothing'}.${moved}`, { active: session.active });
    }
    let { outcome, result } = await swarm[hostToolCall](session, { name, arguments: args ?? {} }, { signal: extra?.signal, toolState });
    if (outcome.type === 'approval_required') {
      // A person decides, through the MCP host: an elicitation, when the client can show one.
      const decision = await approve(outcome, extra);
      if (decision !== true) return errorResult(decision);
      ({ outcome, result } = await swarm[hostToolCall](session, { name, arguments: args ?? {} }, { signal: extra?.signal, toolState, approved: true }));
    }
    if (outcome.type === 'handoff') {
      for (let hop = swarm.applyRules(session); hop !== null; hop = swarm.applyRules(session));
    }
    await save();
    if (outcome.type === 'handoff') return textResult(`${result} You are now ${describeAgent(swarm, session.active)}: list the tools again, and get the prompt '${INSTRUCTIONS_PROMPT}'.`, { active: session.active });
    if (outcome.type === 'tool') return textResult(result);
    // A name no agent of the swarm has, nor the active agent's MCP servers: an unknown tool. A
    // known one that is refused now (a transfer not offered any more) is a result the model reads.
    if (outcome.type === 'rejected' && !knownNames.has(name) && !toolNames().includes(name)) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${outcome.reason}`);
    }
    return errorResult(result);
  };

  // Asks the person at the MCP host whether the call may run: true, or the text the model gets.
  /**
   * @param {Extract<HandoffOutcome, { type: 'approval_required' }>} outcome
   * @param {RequestExtra | undefined} extra
   * @returns {Promise<true | string>}
   */
  const approve = async (outcome, extra) => {
    const what = outcome.kind === 'handoff' ? `the transfer to ${describeAgent(swarm, outcome.to)}` : `the tool ${outcome.tool}`;
    if (server.getClientCapabilities()?.elicitation === undefined) {
      return `Not run: ${what} needs a person's approval, and this MCP client cannot ask for it (it has no elicitation capability).`;
    }
    const answer = await server.elicitInput(
      {
        message: `${describeAgent(swarm, session.active)} asks to run ${what} with ${JSON.stringify(outcome.arguments ?? {})}. Approve?`,
        requestedSchema: {
          type: 'object',
          properties: {
            approve: { type: 'boolean', title: 'Approve', description: `Run ${what}` },
            reason: { type: 'string', title: 'Reason', description: 'Why not (optional)' },
          },
          required: ['approve'],
        },
      },
      { signal: extra?.signal },
    );
    if (answer.action === 'accept' && answer.content?.approve === true) return true;
    const reason = typeof answer.content?.reason === 'string' && answer.content.reason !== '' ? `: ${answer.content.reason}` : '';
    return `Not run: a person did not approve ${what}${answer.action === 'accept' ? '' : ` (${answer.action})`}${reason}.`;
  };

  server.setRequestHandler(ListPromptsRequestSchema, (_request, extra) => serial(async () => {
    await open(extra);
    return { prompts: [{ name: INSTRUCTIONS_PROMPT, description: `The instructions of the active agent, now ${describeAgent(swarm, session.active)}` }] };
  }));

  server.setRequestHandler(GetPromptRequestSchema, (request, extra) => serial(async () => {
    await open(extra);
    if (request.params.name !== INSTRUCTIONS_PROMPT) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt '${request.params.name}': the prompt is '${INSTRUCTIONS_PROMPT}'`);
    const text = swarm.instructions(session) || `You are ${describeAgent(swarm, session.active)}.`;
    return { description: `The instructions of ${describeAgent(swarm, session.active)}`, messages: [{ role: 'user', content: { type: 'text', text } }] };
  }));

  server.setRequestHandler(ListResourcesRequestSchema, (_request, extra) => serial(async () => {
    await open(extra);
    return { resources: [{ uri: SESSION_URI, name: 'session', description: 'The swarm session: the active agent, hops, variables (JSON)', mimeType: 'application/json' }] };
  }));

  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => serial(async () => {
    await open(extra);
    if (request.params.uri !== SESSION_URI) throw new McpError(ErrorCode.InvalidParams, `Unknown resource '${request.params.uri}': the resource is ${SESSION_URI}`);
    return { contents: [{ uri: SESSION_URI, mimeType: 'application/json', text: JSON.stringify(session, null, 2) }] };
  }));

  return server;
}

/**
 * @param {Swarm} swarm
 * @param {string} id
 */
function describeAgent(swarm, id) {
  const agent = swarm.agent(id);
  return agent?.name ? `${agent.name} (${id})` : id;
}

// With a model: the swarm is one tool, { message, sessionId? } -> the answer, its agent, the session id.
/**
 * @param {Swarm & McpHost} swarm
 * @param {{ store: SessionStore, model: ModelFunction, maxModelCalls: number | undefined, toolState: unknown, serverName: string, version: string }} options
 */
function oneToolServer(swarm, { store, model, maxModelCalls, toolState, serverName, version }) {
  const server = new Server({ name: serverName, version }, { capabilities: { tools: {} } });
  const tool = toolNameOf(swarm.name);
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{
      name: tool,
      description: `Ask the ${swarm.name || 'swarm'} agents: one turn of the conversation, handoffs included. Give the sessionId of an earlier answer to continue that conversation.`,
      inputSchema: {
        type: 'object',
        properties: {
          message: { type: 'string', description: "The user's message" },
          sessionId: { type: 'string', description: 'The session to continue (from an earlier answer); absent: a new conversation' },
        },
        required: ['message'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: { answer: { type: 'string' }, agent: { type: 'string' }, sessionId: { type: 'string' }, reason: { type: 'string' } },
        required: ['answer', 'agent', 'sessionId', 'reason'],
      },
    }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (request.params.name !== tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${request.params.name}': the tool is '${tool}'`);
    const args = checkArguments(request.params.arguments, ['message', 'sessionId'], tool);
    if (typeof args === 'string') return errorResult(`Error: ${args}`);
    if (typeof args.message !== 'string') return errorResult(`Error: ${tool} needs { message: string }, got ${describe(args.message)}`);
    if (args.sessionId !== undefined && (typeof args.sessionId !== 'string' || args.sessionId.length === 0)) return errorResult(`Error: sessionId must be a non-empty string, got ${describe(args.sessionId)}`);
    try {
      const sessionId = /** @type {string | undefined} checked above */ (args.sessionId);
      const session = (sessionId === undefined ? undefined : await store.get(sessionId)) ?? swarm.createSession(sessionId === undefined ? {} : { id: sessionId });
      /** @type {any} the turn's done event */
      let done;
      const turn = { model, store, signal: extra?.signal, ...(maxModelCalls === undefined ? {} : { maxModelCalls }), ...(toolState === undefined ? {} : { toolState }) };
      for await (const event of swarm.runTurn(session, args.message, turn)) if (event.type === 'done') done = event;
      const structured = { answer: done.text, agent: done.agent, sessionId: session.id, reason: done.reason };
      return textResult(done.text, structured);
    } catch (error) {
      if (extra?.signal?.aborted) throw error;
      return errorResult(`Error: ${messageOf(error)}`);
    }
  });
  return server;
}
