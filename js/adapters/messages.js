// @ts-check
// The one message-conversion core the provider adapters share. runTurn hands a model the swarm's
// provider-neutral messages (system / user / assistant with toolCalls / tool, docs/handoffs.md);
// each provider wants its own: OpenAI Chat messages, Responses input items, Anthropic's system
// text plus alternating turns of blocks, AI SDK ModelMessages. Tool calls and their results keep
// their call ids in every shape. The option checks every adapter shares are in ./adapter-options.js.
//
// Nothing here imports an SDK: the adapters take the SDK's client (or model) from the caller.

/** @import { Message, ModelFunction, SwarmAgent, ToolCall, ToolFormat } from '../index.js' */

/**
 * How the visible variables reach the model: not at all (default), all, by name, or your text.
 * @typedef {boolean | string[] | ((variables: Record<string, unknown>, agent: SwarmAgent | undefined) => string | undefined | null)} VariablesOption
 */

/**
 * What every adapter takes besides the provider's settings.
 * @typedef {object} AdapterOptions
 * @property {boolean} [stream] Stream the answer (default true): a chunk event per text delta.
 * @property {VariablesOption} [variables] Show the session's variables to the model as a system message after the instructions.
 * @property {Record<string, unknown>} [request] Merged into every request body as it is, for settings not listed; keys the adapter sets are refused.
 */

/**
 * A runTurn model made by an adapter: it carries the tool format it sends.
 * @template {ToolFormat} F
 * @typedef {ModelFunction & { readonly toolFormat: F }} AdapterModel
 */

/**
 * Tool-call arguments as JSON text (OpenAI's wire shape); objects are serialized.
 * @param {unknown} args
 * @returns {string}
 */
export function argumentsText(args) {
  if (typeof args === 'string') return args;
  return JSON.stringify(args ?? {});
}

/**
 * Tool-call arguments as an object (Anthropic's and the AI SDK's shape); text that is not a JSON object is wrapped.
 * @param {unknown} args
 * @returns {Record<string, unknown>}
 */
export function argumentsObject(args) {
  if (typeof args !== 'string') {
    return typeof args === 'object' && args !== null && !Array.isArray(args) ? /** @type {Record<string, unknown>} */ (args) : { arguments: args ?? null };
  }
  try {
    const parsed = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : { arguments: args };
  } catch {
    return { arguments: args };
  }
}

/**
 * @param {{ role?: unknown } | undefined} m
 * @returns {never}
 */
function unexpected(m) {
  throw new TypeError(`unexpected message role ${JSON.stringify(m?.role)}: messages are system, user, assistant or tool`);
}

/**
 * Swarm messages → OpenAI Chat Completions `messages`.
 * @param {Message[]} messages
 * @returns {Array<Record<string, unknown>>}
 */
export function toChatMessages(messages) {
  return messages.map((m) => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'assistant':
        if (!(/** @type {ToolCall[] | undefined} */ (m.toolCalls)?.length)) return { role: 'assistant', content: m.content };
        return {
          role: 'assistant',
          content: m.content || null,
          tool_calls: /** @type {ToolCall[]} */ (m.toolCalls).map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: argumentsText(c.arguments) } })),
        };
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
      default:
        return unexpected(m);
    }
  });
}

/**
 * Swarm messages → OpenAI Responses `input` items (stateless: the whole history every call).
 * @param {Message[]} messages
 * @returns {Array<Record<string, unknown>>}
 */
export function toResponsesInput(messages) {
  /** @type {Array<Record<string, unknown>>} */
  const input = [];
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'user') {
      input.push({ role: m.role, content: m.content });
    } else if (m.role === 'assistant') {
      if (m.content) input.push({ role: 'assistant', content: m.content });
      for (const c of /** @type {ToolCall[] | undefined} */ (m.toolCalls) ?? []) input.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: argumentsText(c.arguments) });
    } else if (m.role === 'tool') {
      input.push({ type: 'function_call_output', call_id: m.toolCallId, output: m.content });
    } else {
      unexpected(m);
    }
  }
  return input;
}

/**
 * Swarm messages → `{ system, messages }` for Anthropic's Messages API.
 *
 * - Every system message (the agent's instructions, a source agent's carried by `includeSystem`,
 *   the visible variables) goes into the one `system` text.
 * - Consecutive messages of one role are merged into one turn: the tool results answering one
 *   assistant turn must all be in the user turn right after it.
 * - With `flattenTools`, tool calls and results become text: the API refuses tool_use/tool_result
 *   blocks in a request that defines no tools, which is the case of an agent offered none.
 * - The API wants a user turn first; a history that starts otherwise (the `none` context policy
 *   gives an empty one) gets a short note as its first user turn.
 * @param {Message[]} messages
 * @param {{ flattenTools?: boolean }} [options]
 * @returns {{ system: string, messages: Array<{ role: 'user' | 'assistant', content: Array<Record<string, unknown>> }> }}
 */
export function toAnthropicMessages(messages, { flattenTools = false } = {}) {
  /** @type {string[]} */
  const system = [];
  /** @type {Array<{ role: 'user' | 'assistant', content: Array<Record<string, unknown>> }>} */
  const turns = [];
  /** @type {(role: 'user' | 'assistant', blocks: Array<Record<string, unknown>>) => void} */
  const add = (role, blocks) => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'system') {
      system.push(m.content);
    } else if (m.role === 'user') {
      add('user', m.content ? [{ type: 'text', text: m.content }] : []);
    } else if (m.role === 'assistant') {
      /** @type {Array<Record<string, unknown>>} */
      const blocks = m.content ? [{ type: 'text', text: m.content }] : [];
      for (const c of /** @type {ToolCall[] | undefined} */ (m.toolCalls) ?? []) {
        blocks.push(
          flattenTools
            ? { type: 'text', text: `[called ${c.name} ${JSON.stringify(argumentsObject(c.arguments))}]` }
            : { type: 'tool_use', id: c.id, name: c.name, input: argumentsObject(c.arguments) },
        );
      }
      add('assistant', blocks);
    } else if (m.role === 'tool') {
      add('user', [flattenTools ? { type: 'text', text: `[${m.name} answered: ${m.content}]` } : { type: 'tool_result', tool_use_id: m.toolCallId, content: m.content }]);
    } else {
      unexpected(m);
    }
  }
  if (turns[0]?.role !== 'user') turns.unshift({ role: 'user', content: [{ type: 'text', text: '(The conversation has been transferred to you.)' }] });
  return { system: system.join('\n\n'), messages: turns };
}

/**
 * Swarm messages → `{ system, messages }` of AI SDK ModelMessages (for generateText / streamText).
 * @param {Message[]} messages
 * @returns {{ system: string, messages: Array<Record<string, unknown>> }}
 */
export function toAiSdkMessages(messages) {
  /** @type {string[]} */
  const system = [];
  /** @type {Array<{ role: string, content: unknown }>} */
  const out = [];
  for (const m of messages) {
    if (m.role === 'system') {
      system.push(m.content);
    } else if (m.role === 'user') {
      out.push({ role: 'user', content: m.content });
    } else if (m.role === 'assistant') {
      /** @type {Array<Record<string, unknown>>} */
      const parts = m.content ? [{ type: 'text', text: m.content }] : [];
      for (const c of /** @type {ToolCall[] | undefined} */ (m.toolCalls) ?? []) parts.push({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: argumentsObject(c.arguments) });
      out.push({ role: 'assistant', content: parts });
    } else if (m.role === 'tool') {
      const result = { type: 'tool-result', toolCallId: m.toolCallId, toolName: m.name, output: { type: 'text', value: m.content } };
      const last = out.at(-1);
      if (last?.role === 'tool') /** @type {unknown[]} */ (last.content).push(result);
      else out.push({ role: 'tool', content: [result] });
    } else {
      unexpected(m);
    }
  }
  return { system: system.join('\n\n'), messages: out };
}

/**
 * A tool's result in a provider's own shape, answering `call` (as normalized by applyToolCall or
 * as the SDK gave it: only its id and name are read), for apps that call applyToolCall themselves.
 * 'anthropic' gives a `tool_result` block, to put in the next user turn.
 * (A tool result in a provider's own shape, answering `call` by its id.)
 * @param {ToolFormat} format
 * @param {ToolCall | Record<string, unknown>} call
 * @param {string} content
 * @returns {Record<string, unknown>}
 */
export function toolResultMessage(format, call, content) {
  /** @type {Record<string, any>} an SDK's call, any of the shapes applyToolCall reads */
  const given = call;
  const id = given.id ?? given.call_id ?? given.toolCallId;
  const name = given.name ?? given.function?.name ?? given.toolName;
  switch (format) {
    case 'openai-chat':
      return { role: 'tool', tool_call_id: id, content };
    case 'openai-responses':
      return { type: 'function_call_output', call_id: id, output: content };
    case 'anthropic':
      return { type: 'tool_result', tool_use_id: id, content };
    case 'ai-sdk':
      return { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: name, output: { type: 'text', value: content } }] };
    default:
      throw new TypeError(`format must be 'openai-chat', 'openai-responses', 'anthropic' or 'ai-sdk', got ${JSON.stringify(format)}`);
  }
}
