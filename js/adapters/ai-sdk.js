// @ts-check
// The Vercel AI SDK (`ai`): aiSdkModel(languageModel) is a runTurn model on any AI SDK
// LanguageModel (`openai('gpt-4.1-mini')` of @ai-sdk/openai, `anthropic(…)`, …), through
// `streamText` (default) or `generateText`; aiSdkTools(swarm, session, { tool, jsonSchema }) gives
// the tools offered now as an AI SDK ToolSet whose transfer tools execute through applyToolCall,
// for apps that call generateText / streamText themselves.
//
// The tools are given without `execute` to the model call, so the AI SDK returns the calls instead
// of running them: the swarm decides what a call does, and runTurn feeds the results back.
import { generateText, jsonSchema, streamText, tool as makeTool } from 'ai';

import { checkOptions } from '../options.js';
import { toAiSdkMessages } from './messages.js';
import { checkAdapterOptions, checkToolFormat, resolveSettings, withVariables } from './adapter-options.js';

/** @import { HandoffOutcome, ModelRequest, ModelResponse, ModelStreamPart, Session, Swarm, ToolCallInput, ToolSchema } from '../index.js' */
/** @import { AdapterModel, AdapterOptions } from './messages.js' */

/**
 * generateText / streamText settings by name; others go in `request`.
 * @typedef {object} AiSdkSettings
 * @property {number} [maxOutputTokens]
 * @property {number} [temperature]
 * @property {number} [topP]
 * @property {number} [topK]
 * @property {number} [presencePenalty]
 * @property {number} [frequencyPenalty]
 * @property {string[]} [stopSequences]
 * @property {number} [seed]
 * @property {number} [maxRetries]
 * @property {Record<string, string | undefined>} [headers]
 * @property {Record<string, Record<string, unknown>>} [providerOptions]
 * @property {unknown} [toolChoice]
 */
/**
 * generateText / streamText settings by name; others go in `request`.
 * @typedef {AdapterOptions & AiSdkSettings} AiSdkOptions
 */

// A method signature with `any` arguments: any AI SDK LanguageModel version fits.
/**
 * Any AI SDK LanguageModel object, e.g. openai('gpt-4.1-mini') from @ai-sdk/openai.
 * @typedef {{ doGenerate(...args: any[]): PromiseLike<unknown> }} LanguageModelLike
 */

/** generateText / streamText settings passed through by name (anything else: `request`). */
export const AI_SDK_SETTINGS = Object.freeze([
  'maxOutputTokens', 'temperature', 'topP', 'topK', 'presencePenalty', 'frequencyPenalty', 'stopSequences', 'seed', 'maxRetries',
  'headers', 'providerOptions', 'toolChoice',
]);
const AI_SDK_OWNED = Object.freeze(['model', 'system', 'prompt', 'messages', 'tools', 'abortSignal', 'stopWhen', 'onError', 'onChunk', 'onFinish', 'onStepFinish']);

// A schema from swarm.tools(…, 'ai-sdk') is plain JSON Schema, unless runTurn was given `jsonSchema`.
/** @type {(schema: any) => any} */
const wrap = (schema) => (typeof schema === 'object' && schema !== null && typeof schema.type === 'string' ? jsonSchema(schema) : schema);

/** @param {Record<string, { description?: string, inputSchema: unknown }>} tools */
function toolSet(tools) {
  return Object.fromEntries(Object.entries(tools).map(([name, t]) => [name, makeTool({ description: t.description, inputSchema: wrap(t.inputSchema) })]));
}

/** @param {AbortSignal | undefined} signal */
function aborted(signal) {
  return signal?.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * @param {ReturnType<typeof streamText>} result
 * @param {AbortSignal | undefined} signal
 * @returns {AsyncGenerator<ModelStreamPart>}
 */
async function* parts(result, signal) {
  /** @type {string | null} */
  let finishReason = null;
  /** @type {unknown} */
  let usage = null;
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      if (part.text) yield { type: 'text-delta', delta: part.text };
    } else if (part.type === 'tool-call') {
      // Also a call the AI SDK found invalid (an unknown name): the swarm answers it.
      yield { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
    } else if (part.type === 'error') {
      throw part.error;
    } else if (part.type === 'abort') {
      throw aborted(signal);
    } else if (part.type === 'finish') {
      finishReason = part.finishReason ?? null;
      usage = part.totalUsage ?? null;
    }
  }
  yield { type: 'finish', finishReason, usage, raw: await result.response };
}

/**
 * A runTurn model on an AI SDK LanguageModel. Options: generateText / streamText settings by name
 * (AI_SDK_SETTINGS), `stream` (default true), `variables`, `request`.
 * (A runTurn model on an AI SDK LanguageModel: tools in the 'ai-sdk' shape.)
 * @param {LanguageModelLike} languageModel
 * @param {AiSdkOptions} [options]
 * @returns {AdapterModel<'ai-sdk'>}
 */
export function aiSdkModel(languageModel, options) {
  const what = 'aiSdkModel options';
  if (typeof languageModel !== 'object' || languageModel === null || typeof /** @type {Record<string, unknown>} */ (languageModel).doGenerate !== 'function') {
    throw new TypeError("aiSdkModel takes an AI SDK LanguageModel, e.g. openai('gpt-4.1-mini') from @ai-sdk/openai");
  }
  const base = checkAdapterOptions(options, AI_SDK_SETTINGS, AI_SDK_OWNED, what);
  /** @type {(request: ModelRequest<'ai-sdk'>) => Promise<ModelResponse | AsyncIterable<ModelStreamPart>>} */
  const call = async (request) => {
    checkToolFormat(request, 'ai-sdk', 'aiSdkModel');
    const { settings, request: extra, stream, variables } = resolveSettings(base, request.config, AI_SDK_SETTINGS, AI_SDK_OWNED, what);
    const { system, messages } = toAiSdkMessages(withVariables(request.messages, request.variables, request.agent, variables));
    const tools = toolSet(/** @type {Record<string, { description?: string, inputSchema: unknown }>} */ (request.tools));
    // The settings are the caller's, checked by name only: the AI SDK checks their values.
    /** @type {any} */
    const settingsCall = {
      ...extra,
      ...settings,
      model: languageModel,
      ...(system ? { system } : {}),
      messages,
      ...(Object.keys(tools).length > 0 ? { tools } : {}),
      abortSignal: request.signal,
    };
    if (stream) {
      // Errors come out of the stream as 'error' parts, thrown above; nothing to log here.
      return parts(streamText({ ...settingsCall, onError: () => {} }), request.signal);
    }
    const result = await generateText(settingsCall);
    return { text: result.text, toolCalls: result.toolCalls, finishReason: result.finishReason ?? null, usage: result.usage ?? null, raw: result.response };
  };
  return Object.assign(call, { toolFormat: /** @type {const} */ ('ai-sdk') });
}

/**
 * The tools `session`'s active agent is offered now, as an AI SDK ToolSet made with the `tool` and
 * `jsonSchema` functions of your `ai`. A transfer tool's `execute` is swarm.applyToolCall: a
 * handoff moves the session, and the model gets the same text runTurn would give it (a blocked
 * transfer's rejectionReason, for one). The agent's own tools come without `execute`: their calls
 * are returned to you. The set is what is offered now; make it again after a handoff.
 * @template T
 * @param {Swarm} swarm
 * @param {Session} session
 * @param {{ tool: (definition: any) => T, jsonSchema: (schema: ToolSchema) => any }} options `tool`
 *   from 'ai' (given { description, inputSchema, execute? }) and `jsonSchema` from 'ai'
 * @returns {Record<string, T>}
 */
export function aiSdkTools(swarm, session, options) {
  const { tool, jsonSchema: wrapSchema } = checkOptions(options, ['tool', 'jsonSchema'], 'aiSdkTools options');
  if (typeof tool !== 'function' || typeof wrapSchema !== 'function') throw new TypeError("aiSdkTools needs { tool, jsonSchema }, the functions of the same name from 'ai'");
  const transfers = new Set(swarm.offered(session).map((o) => o.name));
  return Object.fromEntries(
    Object.entries(swarm.tools(session, 'ai-sdk')).map(([name, t]) => {
      /** @type {Record<string, unknown>} */
      const definition = { description: t.description, inputSchema: wrapSchema(t.inputSchema) };
      if (transfers.has(name)) {
        // A transfer tool's outcome is never { type: 'tool' } (an agent's own tool).
        definition.execute = async (/** @type {unknown} */ input, /** @type {{ toolCallId?: string }} */ { toolCallId } = {}) =>
          swarm.toolResult(/** @type {Exclude<HandoffOutcome, { type: 'tool' }>} */ (swarm.applyToolCall(session, /** @type {ToolCallInput} */ ({ toolCallId, toolName: name, input }))));
      }
      return [name, tool(definition)];
    }),
  );
}
