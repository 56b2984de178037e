// @ts-check
// runTurn models for the `openai` package: Chat Completions (openaiChat) and Responses
// (openaiResponses). Each takes a client (`new OpenAI()`, any baseURL) and turns the swarm's request
// into one API call, streaming by default: text deltas become `chunk` events as they arrive, a tool
// call becomes a `tool_use` event as soon as its arguments are complete, and the SDK's stream events
// (or the whole response, with `stream: false`) are kept as `raw`. The turn's AbortSignal is passed
// to the SDK, which cancels the HTTP request.
//
// Nothing is imported from `openai` here: the client carries everything.
import { toChatMessages, toResponsesInput } from './messages.js';
import { checkAdapterOptions, checkToolFormat, resolveSettings, withVariables } from './adapter-options.js';

/** @import { ModelRequest, ModelResponse, ModelStreamPart } from '../index.js' */
/** @import { AdapterModel, AdapterOptions } from './messages.js' */

// The clients' methods take and give the SDK's shapes, which this package does not import: `any`
// is their honest type here. Method signatures, so that the SDK's narrower overloads fit.
/**
 * The part of an OpenAI client (new OpenAI()) these adapters call.
 * @typedef {{ chat: { completions: { create(body: any, options?: any): PromiseLike<any> } } }} OpenAIChatClient
 */
/** @typedef {{ responses: { create(body: any, options?: any): PromiseLike<any> } }} OpenAIResponsesClient */

/**
 * Chat Completions settings by their API names; others go in `request`.
 * @typedef {object} OpenAIChatSettings
 * @property {string} model
 * @property {number | null} [temperature]
 * @property {number | null} [top_p]
 * @property {number | null} [max_tokens]
 * @property {number | null} [max_completion_tokens]
 * @property {number | null} [presence_penalty]
 * @property {number | null} [frequency_penalty]
 * @property {number | null} [seed]
 * @property {string | string[] | null} [stop]
 * @property {string} [user]
 * @property {string | null} [reasoning_effort]
 * @property {string | null} [service_tier]
 * @property {Record<string, string> | null} [metadata]
 * @property {boolean | null} [store]
 * @property {Record<string, number> | null} [logit_bias]
 * @property {boolean | null} [logprobs]
 * @property {number | null} [top_logprobs]
 * @property {string} [prompt_cache_key]
 * @property {string} [safety_identifier]
 * @property {string | null} [verbosity]
 * @property {boolean} [parallel_tool_calls] Default false: one transfer at a time.
 * @property {unknown} [tool_choice]
 */
/**
 * Chat Completions settings by their API names; others go in `request`.
 * @typedef {AdapterOptions & OpenAIChatSettings} OpenAIChatOptions
 */

/**
 * Responses settings by their API names; others go in `request`.
 * @typedef {object} OpenAIResponsesSettings
 * @property {string} model
 * @property {number | null} [temperature]
 * @property {number | null} [top_p]
 * @property {number | null} [max_output_tokens]
 * @property {Record<string, unknown> | null} [reasoning]
 * @property {string | null} [service_tier]
 * @property {Record<string, string> | null} [metadata]
 * @property {boolean | null} [store] Default false: the adapter sends the whole history each call.
 * @property {string} [user]
 * @property {'auto' | 'disabled' | null} [truncation]
 * @property {Record<string, unknown>} [text]
 * @property {string} [prompt_cache_key]
 * @property {string} [safety_identifier]
 * @property {boolean} [parallel_tool_calls]
 * @property {unknown} [tool_choice]
 * @property {string[] | null} [include]
 * @property {number | null} [max_tool_calls]
 */
/**
 * Responses settings by their API names; others go in `request`.
 * @typedef {AdapterOptions & OpenAIResponsesSettings} OpenAIResponsesOptions
 */

/** Chat Completions settings passed through by name (anything else: `request`). */
export const CHAT_SETTINGS = Object.freeze([
  'model', 'temperature', 'top_p', 'max_tokens', 'max_completion_tokens', 'presence_penalty', 'frequency_penalty', 'seed', 'stop',
  'user', 'reasoning_effort', 'service_tier', 'metadata', 'store', 'logit_bias', 'logprobs', 'top_logprobs', 'prompt_cache_key',
  'safety_identifier', 'verbosity', 'parallel_tool_calls', 'tool_choice',
]);
const CHAT_OWNED = Object.freeze(['messages', 'tools', 'stream', 'stream_options']);

/** Responses settings passed through by name (anything else: `request`). */
export const RESPONSES_SETTINGS = Object.freeze([
  'model', 'temperature', 'top_p', 'max_output_tokens', 'reasoning', 'service_tier', 'metadata', 'store', 'user', 'truncation', 'text',
  'prompt_cache_key', 'safety_identifier', 'parallel_tool_calls', 'tool_choice', 'include', 'max_tool_calls',
]);
const RESPONSES_OWNED = Object.freeze(['input', 'tools', 'stream', 'previous_response_id', 'conversation']);

/**
 * @param {unknown} client
 * @param {string[]} path
 * @param {string} what
 */
function checkClient(client, path, what) {
  let at = client;
  for (const key of path) at = typeof at === 'object' && at !== null ? /** @type {Record<string, unknown>} */ (at)[key] : undefined;
  if (typeof at !== 'function') throw new TypeError(`${what} takes an OpenAI client (new OpenAI()), got one without ${path.join('.')}()`);
}

/**
 * @param {Record<string, unknown>} options
 * @param {string} what
 */
function checkModel(options, what) {
  if (typeof options?.model !== 'string' || options.model === '') throw new TypeError(`${what}: model is required, e.g. { model: 'gpt-4.1-mini' }`);
}

// One transfer at a time: a transfer ends the agent's part of the turn, and later calls of the
// same response would be answered "not run" (docs/handoffs.md). With no tools offered, the tool
// fields go (the API refuses an empty list, and tool settings without tools).
/**
 * @param {Record<string, unknown>} body
 * @param {unknown[]} tools
 * @returns {Record<string, unknown>}
 */
function withTools(body, tools) {
  if (tools.length > 0) return { ...body, tools, parallel_tool_calls: body.parallel_tool_calls ?? false };
  const { parallel_tool_calls: _parallel, tool_choice: _choice, ...rest } = body;
  return rest;
}

/**
 * @param {AsyncIterable<any>} stream the SDK's stream of chat.completion.chunk objects
 * @returns {AsyncGenerator<ModelStreamPart>}
 */
async function* chatStream(stream) {
  /** @type {unknown[]} */
  const chunks = [];
  /** @type {{ index: number, id: string | undefined, name: string, arguments: string } | null} */
  let pending = null;
  /** @type {string | undefined} */
  let finishReason;
  /** @type {unknown} */
  let usage;
  /** @returns {ModelStreamPart} */
  const complete = () => {
    const call = /** @type {NonNullable<typeof pending>} */ (pending);
    pending = null;
    return { type: 'tool-call', toolCallId: /** @type {string} */ (call.id), toolName: call.name, input: call.arguments };
  };
  for await (const chunk of stream) {
    chunks.push(chunk);
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (choice === undefined) continue;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'text-delta', delta: delta.content };
    if (typeof delta.refusal === 'string' && delta.refusal !== '') yield { type: 'text-delta', delta: delta.refusal };
    for (const part of delta.tool_calls ?? []) {
      // Calls stream one after the other by index: a new index means the previous call is whole.
      if (pending !== null && part.index !== pending.index) yield complete();
      pending ??= { index: part.index, id: undefined, name: '', arguments: '' };
      if (part.id) pending.id = part.id;
      if (part.function?.name) pending.name += part.function.name;
      if (part.function?.arguments) pending.arguments += part.function.arguments;
    }
    if (choice.finish_reason) {
      finishReason = choice.finish_reason;
      if (pending !== null) yield complete();
    }
  }
  if (pending !== null) yield complete();
  yield { type: 'finish', finishReason: finishReason ?? null, usage: usage ?? null, raw: chunks };
}

/**
 * A runTurn model on `client.chat.completions`. Options: `model` (required), Chat settings by
 * their API names (CHAT_SETTINGS), `stream` (default true), `variables`, `request`.
 * (A runTurn model on client.chat.completions: tools in the 'openai-chat' shape.)
 * @param {OpenAIChatClient} client
 * @param {OpenAIChatOptions} options
 * @returns {AdapterModel<'openai-chat'>}
 */
export function openaiChat(client, options) {
  const what = 'openaiChat options';
  checkClient(client, ['chat', 'completions', 'create'], 'openaiChat');
  const base = checkAdapterOptions(options, CHAT_SETTINGS, CHAT_OWNED, what);
  checkModel(base, what);
  /** @type {(request: ModelRequest<'openai-chat'>) => Promise<ModelResponse | AsyncIterable<ModelStreamPart>>} */
  const call = async (request) => {
    checkToolFormat(request, 'openai-chat', 'openaiChat');
    const { settings, request: extra, stream, variables } = resolveSettings(base, request.config, CHAT_SETTINGS, CHAT_OWNED, what);
    const body = withTools({ ...extra, ...settings, messages: toChatMessages(withVariables(request.messages, request.variables, request.agent, variables)) }, request.tools);
    if (stream) {
      const response = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, { signal: request.signal });
      return chatStream(response);
    }
    const completion = await client.chat.completions.create(body, { signal: request.signal });
    const message = completion.choices?.[0]?.message;
    return {
      text: message?.content ?? message?.refusal ?? '',
      // As the API returns them: applyToolCall reads Chat's { id, type, function } calls.
      toolCalls: (message?.tool_calls ?? []).filter((/** @type {{ type: string }} */ toolCall) => toolCall.type === 'function'),
      finishReason: completion.choices?.[0]?.finish_reason ?? null,
      usage: completion.usage ?? null,
      raw: completion,
    };
  };
  return Object.assign(call, { toolFormat: /** @type {const} */ ('openai-chat') });
}

/**
 * @param {AsyncIterable<any>} stream the SDK's stream of Responses events
 * @returns {AsyncGenerator<ModelStreamPart>}
 */
async function* responsesStream(stream) {
  /** @type {unknown[]} */
  const events = [];
  /** @type {any} the response of the last response.completed event */
  let done = null;
  for await (const event of stream) {
    events.push(event);
    if (event.type === 'response.output_text.delta' || event.type === 'response.refusal.delta') {
      if (event.delta) yield { type: 'text-delta', delta: event.delta };
    } else if (event.type === 'response.output_item.done' && event.item?.type === 'function_call') {
      yield { type: 'tool-call', toolCallId: event.item.call_id, toolName: event.item.name, input: event.item.arguments };
    } else if (event.type === 'response.completed' || event.type === 'response.incomplete') {
      done = event.response;
    } else if (event.type === 'response.failed' || event.type === 'error') {
      const error = event.response?.error ?? event;
      throw new Error(`OpenAI Responses stream failed: ${error.message ?? error.code ?? 'unknown error'}`);
    }
  }
  yield { type: 'finish', finishReason: done?.incomplete_details?.reason ?? done?.status ?? null, usage: done?.usage ?? null, raw: events };
}

/**
 * A runTurn model on `client.responses`, stateless (`store: false`, the whole history each call).
 * Options: `model` (required), Responses settings (RESPONSES_SETTINGS), `stream`, `variables`, `request`.
 * (A runTurn model on client.responses: tools in the 'openai-responses' shape.)
 * @param {OpenAIResponsesClient} client
 * @param {OpenAIResponsesOptions} options
 * @returns {AdapterModel<'openai-responses'>}
 */
export function openaiResponses(client, options) {
  const what = 'openaiResponses options';
  checkClient(client, ['responses', 'create'], 'openaiResponses');
  const base = checkAdapterOptions(options, RESPONSES_SETTINGS, RESPONSES_OWNED, what);
  checkModel(base, what);
  /** @type {(request: ModelRequest<'openai-responses'>) => Promise<ModelResponse | AsyncIterable<ModelStreamPart>>} */
  const call = async (request) => {
    checkToolFormat(request, 'openai-responses', 'openaiResponses');
    const { settings, request: extra, stream, variables } = resolveSettings(base, request.config, RESPONSES_SETTINGS, RESPONSES_OWNED, what);
    const input = toResponsesInput(withVariables(request.messages, request.variables, request.agent, variables));
    const body = withTools({ store: false, ...extra, ...settings, input }, request.tools);
    if (stream) return responsesStream(await client.responses.create({ ...body, stream: true }, { signal: request.signal }));
    const response = await client.responses.create(body, { signal: request.signal });
    /** @type {any[]} */
    const output = response.output ?? [];
    return {
      text: output.filter((item) => item.type === 'message').flatMap((item) => item.content ?? []).map((c) => (c.type === 'output_text' ? c.text : c.type === 'refusal' ? c.refusal : '')).join(''),
      // As the API returns them: applyToolCall reads Responses function_call items.
      toolCalls: output.filter((item) => item.type === 'function_call'),
      finishReason: response.incomplete_details?.reason ?? response.status ?? null,
      usage: response.usage ?? null,
      raw: response,
    };
  };
  return Object.assign(call, { toolFormat: /** @type {const} */ ('openai-responses') });
}
