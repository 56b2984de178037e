// @ts-check
// The options of runTurn, and of resolveApproval, which continues a turn: the host's model
// function and how to call it, the budget, the abort signal, the store, and the rest.
import { describe } from '../text.js';
import { TOOL_FORMATS } from '../tool-calls.js';

/**
 * @import { AgentToolEvent, HandoffOutcome, ModelFunction, ModelRequest, RunTurnOptions, SessionStore, SwarmEvent, ToolCall, ToolFormat, ToolSchema } from '../index.js'
 */

/**
 * A model's answer as the turn reads it (js/model-answer.js readModelAnswer): its text, its tool
 * calls normalized, whether a stream announced them (tool_use yielded), and what the provider added.
 * @typedef {{ text: string, toolCalls: ToolCall[], announced: boolean, finishReason?: string | null, usage?: unknown, raw?: unknown }} ModelAnswerRead
 */

/**
 * What ran for a tool call (js/swarm/tool-execution.js): its kind, its value (the model gets it
 * as text), and what an MCP server or a handler added.
 * @typedef {{ kind: 'handler' | 'mock' | 'missing' | 'agent' | 'mcp', value: unknown, variables?: unknown[], server?: string, isError?: boolean }} ToolRun
 */

/** @typedef {Extract<SwarmEvent, { type: 'chunk' | 'tool_use' }>} AnswerEvent What reading a model's answer yields. */

/** @typedef {import('./trace.js').TurnHooks} TurnTrace The turn's trace (js/swarm/trace.js traceTurn): its spans and its recording's lines. */

/** @typedef {TurnOptions & { trace: TurnTrace }} Turn A turn's options, with its trace. */

/**
 * runTurn's options checked, the defaults filled in; the turn's files add its trace.
 * @typedef {object} TurnOptions
 * @property {ModelFunction} model
 * @property {ToolFormat} toolFormat
 * @property {((schema: ToolSchema) => unknown) | undefined} jsonSchema
 * @property {number} maxModelCalls
 * @property {AbortSignal | undefined} signal
 * @property {SessionStore | undefined} store
 * @property {unknown} toolState
 * @property {Record<string, Record<string, unknown>> | undefined} agentConfig
 * @property {boolean} statusEvents
 */

export const RUN_TURN_OPTIONS = ['model', 'toolFormat', 'jsonSchema', 'maxModelCalls', 'signal', 'store', 'toolState', 'agentConfig', 'statusEvents'];
export const RESOLVE_OPTIONS = ['approve', 'reason', ...RUN_TURN_OPTIONS];

/**
 * The shape of the tools a model gets: `toolFormat` when given, else the model's own (an
 * adapter's model carries it), else 'openai-chat'; a TypeError at `where` for an unknown one.
 * runTurn and the server's handler (which checks it when it is made) resolve it here.
 * @param {unknown} toolFormat
 * @param {{ toolFormat?: ToolFormat }} model
 * @param {string} where
 * @returns {ToolFormat}
 */
export function resolveToolFormat(toolFormat, model, where) {
  const format = toolFormat ?? model.toolFormat ?? 'openai-chat';
  if (!TOOL_FORMATS.includes(/** @type {any} checked here */ (format))) throw new TypeError(`${where} options.toolFormat must be one of ${TOOL_FORMATS.join(', ')}, got ${describe(format)}`);
  return /** @type {ToolFormat} checked above */ (format);
}

// runTurn's options (and resolveApproval's, which continue a turn), checked; defaults filled in.
/**
 * @param {RunTurnOptions} options
 * @param {string} where
 * @returns {TurnOptions}
 */
export function checkTurnOptions({ model, toolFormat, jsonSchema, maxModelCalls = 10, signal, store, toolState, agentConfig, statusEvents = false }, where) {
  if (typeof model !== 'function') throw new TypeError(`${where} needs { model }: a function ({ agent, messages, tools }) => { text, toolCalls }`);
  const format = resolveToolFormat(toolFormat, model, where);
  if (jsonSchema !== undefined && typeof jsonSchema !== 'function') throw new TypeError(`${where} options.jsonSchema must be the jsonSchema function from 'ai'`);
  if (!Number.isSafeInteger(maxModelCalls) || maxModelCalls < 0) throw new TypeError(`${where} options.maxModelCalls must be an integer >= 0, got ${describe(maxModelCalls)}`);
  if (signal !== undefined && typeof signal?.throwIfAborted !== 'function') throw new TypeError(`${where} options.signal must be an AbortSignal, got ${describe(signal)}`);
  if (store !== undefined && (typeof store?.save !== 'function' || typeof store?.appendCheckpoint !== 'function')) {
    throw new TypeError(`${where} options.store must be a session store (save, appendCheckpoint), such as a MemoryStore`);
  }
  if (agentConfig !== undefined && (typeof agentConfig !== 'object' || agentConfig === null || Array.isArray(agentConfig))) {
    throw new TypeError(`${where} options.agentConfig must be an object of per-agent settings, got ${describe(agentConfig)}`);
  }
  if (typeof statusEvents !== 'boolean') throw new TypeError(`${where} options.statusEvents must be true or false, got ${describe(statusEvents)}`);
  return { model, toolFormat: format, jsonSchema, maxModelCalls, signal, store, toolState, agentConfig, statusEvents };
}
