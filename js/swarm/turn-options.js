// The options of runTurn, and of resolveApproval, which continues a turn: the host's model
// function and how to call it, the budget, the abort signal, the store, and the rest.
import { describe } from '../text.js';
import { TOOL_FORMATS } from '../tool-calls.js';

export const RUN_TURN_OPTIONS = ['model', 'toolFormat', 'jsonSchema', 'maxModelCalls', 'signal', 'store', 'toolState', 'agentConfig', 'statusEvents'];
export const RESOLVE_OPTIONS = ['approve', 'reason', ...RUN_TURN_OPTIONS];

// runTurn's options (and resolveApproval's, which continue a turn), checked; defaults filled in.
export function checkTurnOptions({ model, toolFormat, jsonSchema, maxModelCalls = 10, signal, store, toolState, agentConfig, statusEvents = false }, where) {
  if (typeof model !== 'function') throw new TypeError(`${where} needs { model }: a function ({ agent, messages, tools }) => { text, toolCalls }`);
  const format = toolFormat ?? model.toolFormat ?? 'openai-chat';
  if (!TOOL_FORMATS.includes(format)) throw new TypeError(`${where} options.toolFormat must be one of ${TOOL_FORMATS.join(', ')}, got ${describe(format)}`);
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
