// @ts-check
// A runTurn model for `@anthropic-ai/sdk`: Messages API (anthropicMessages). It takes a client
// (`new Anthropic()`, any baseURL) and turns the swarm's request into one `messages.create` call,
// streaming by default: `text_delta`s become `chunk` events as they arrive, a `tool_use` block
// becomes a `tool_use` event when the block stops (its input whole), and the SDK's stream events
// (or the whole message, with `stream: false`) are kept as `raw`. The AbortSignal goes to the SDK.
//
// Nothing is imported from `@anthropic-ai/sdk` here: the client carries everything.
import { toAnthropicMessages } from './messages.js';
import { checkAdapterOptions, checkToolFormat, resolveSettings, withVariables } from './adapter-options.js';

/** @import { ModelRequest, ModelResponse, ModelStreamPart } from '../index.js' */
/** @import { AdapterModel, AdapterOptions } from './messages.js' */

// The client's method takes and gives the SDK's shapes, which this package does not import: `any`
// is their honest type here. A method signature, so that the SDK's narrower overloads fit.
/**
 * The part of an Anthropic client (new Anthropic()) this adapter calls.
 * @typedef {{ messages: { create(body: any, options?: any): PromiseLike<any> } }} AnthropicClient
 */

/**
 * Messages API settings by their API names; others go in `request`.
 * @typedef {object} AnthropicSettings
 * @property {string} model
 * @property {number} [max_tokens] Default 1024.
 * @property {number} [temperature]
 * @property {number} [top_p]
 * @property {number} [top_k]
 * @property {string[]} [stop_sequences]
 * @property {Record<string, unknown>} [metadata]
 * @property {Record<string, unknown>} [thinking]
 * @property {string} [service_tier]
 * @property {Record<string, unknown>} [tool_choice] Default { type: 'auto', disable_parallel_tool_use: true }: one transfer at a time.
 */
/**
 * Messages API settings by their API names; others go in `request`.
 * @typedef {AdapterOptions & AnthropicSettings} AnthropicOptions
 */

/** Messages API settings passed through by name (anything else: `request`). */
export const ANTHROPIC_SETTINGS = Object.freeze([
  'model', 'max_tokens', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'metadata', 'thinking', 'service_tier', 'tool_choice',
]);
const ANTHROPIC_OWNED = Object.freeze(['messages', 'system', 'tools', 'stream']);
const DEFAULT_MAX_TOKENS = 1024;

/**
 * @param {AsyncIterable<any>} stream the SDK's stream of Messages events
 * @returns {AsyncGenerator<ModelStreamPart>}
 */
async function* messageStream(stream) {
  /** @type {unknown[]} */
  const events = [];
  /** @type {Map<number, { id: string, name: string, json: string }>} */
  const blocks = new Map();
  /** @type {string | null} */
  let stopReason = null;
  /** @type {Record<string, unknown> | null} */
  let usage = null;
  for await (const event of stream) {
    events.push(event);
    if (event.type === 'message_start') {
      usage = event.message?.usage ?? null;
    } else if (event.type === 'content_block_start') {
      const block = event.content_block;
      if (block?.type === 'tool_use') blocks.set(event.index, { id: block.id, name: block.name, json: '' });
      else if (block?.type === 'text' && block.text) yield { type: 'text-delta', delta: block.text };
    } else if (event.type === 'content_block_delta') {
      if (event.delta?.type === 'text_delta' && event.delta.text) yield { type: 'text-delta', delta: event.delta.text };
      else if (event.delta?.type === 'input_json_delta') {
        const block = blocks.get(event.index);
        if (block) block.json += event.delta.partial_json ?? '';
      }
    } else if (event.type === 'content_block_stop') {
      const block = blocks.get(event.index);
      if (block) {
        blocks.delete(event.index);
        // A tool_use without input deltas has the input {} (as the API documents).
        yield { type: 'tool-call', toolCallId: block.id, toolName: block.name, input: block.json === '' ? {} : block.json };
      }
    } else if (event.type === 'message_delta') {
      stopReason = event.delta?.stop_reason ?? stopReason;
      if (event.usage) usage = { .../** @type {Record<string, unknown>} null spreads as {} */ (usage), ...event.usage };
    }
  }
  yield { type: 'finish', finishReason: stopReason, usage, raw: events };
}

/**
 * A runTurn model on `client.messages`. Options: `model` (required), Messages settings by their API
 * names (ANTHROPIC_SETTINGS; `max_tokens` defaults to 1024), `stream` (default true), `variables`,
 * `request`.
 * (A runTurn model on client.messages: tools in the 'anthropic' shape.)
 * @param {AnthropicClient} client
 * @param {AnthropicOptions} options
 * @returns {AdapterModel<'anthropic'>}
 */
export function anthropicMessages(client, options) {
  const what = 'anthropicMessages options';
  if (typeof /** @type {any} a caller's value, checked here */ (client)?.messages?.create !== 'function') throw new TypeError('anthropicMessages takes an Anthropic client (new Anthropic()), got one without messages.create()');
  const base = checkAdapterOptions(options, ANTHROPIC_SETTINGS, ANTHROPIC_OWNED, what);
  if (typeof base.model !== 'string' || base.model === '') throw new TypeError(`${what}: model is required, e.g. { model: 'claude-sonnet-5-5' }`);
  /** @type {(request: ModelRequest<'anthropic'>) => Promise<ModelResponse | AsyncIterable<ModelStreamPart>>} */
  const call = async (request) => {
    checkToolFormat(request, 'anthropic', 'anthropicMessages');
    const { settings, request: extra, stream, variables } = resolveSettings(base, request.config, ANTHROPIC_SETTINGS, ANTHROPIC_OWNED, what);
    const offered = request.tools.length > 0;
    const { system, messages } = toAnthropicMessages(withVariables(request.messages, request.variables, request.agent, variables), { flattenTools: !offered });
    const { tool_choice: toolChoice, ...rest } = settings;
    const body = {
      max_tokens: DEFAULT_MAX_TOKENS,
      ...extra,
      ...rest,
      ...(system ? { system } : {}),
      messages,
      // One transfer at a time (see openai.js); tool settings only with tools.
      ...(offered ? { tools: request.tools, tool_choice: toolChoice ?? { type: 'auto', disable_parallel_tool_use: true } } : {}),
    };
    if (stream) return messageStream(await client.messages.create({ ...body, stream: true }, { signal: request.signal }));
    const message = await client.messages.create(body, { signal: request.signal });
    /** @type {any[]} */
    const content = message.content ?? [];
    return {
      text: content.filter((block) => block.type === 'text').map((block) => block.text).join(''),
      // As the API returns them: applyToolCall reads tool_use blocks.
      toolCalls: content.filter((block) => block.type === 'tool_use'),
      finishReason: message.stop_reason ?? null,
      usage: message.usage ?? null,
      raw: message,
    };
  };
  return Object.assign(call, { toolFormat: /** @type {const} */ ('anthropic') });
}
