// @ts-check
// Tool calls as the SDKs hand them over, in one shape. A model's tool call reaches the Swarm as
// OpenAI Chat's `tool_calls[i]`, a Responses `function_call` item, an Anthropic `tool_use` block, an
// AI SDK tool call or the library's own `{ id, name, arguments }`; each becomes
// `{ id?, name, arguments }` here, so that routing never depends on which SDK produced the call.
// Only own properties are read: a prototype's `name` or `function` is not part of a call.
import { describe } from './text.js';

/** @import { ToolFormat } from './index.js' */

/**
 * The SDK shapes tools are offered in (docs/handoffs.md): the core writes each.
 * @type {readonly ToolFormat[]}
 */
export const TOOL_FORMATS = Object.freeze(['openai-responses', 'openai-chat', 'anthropic', 'ai-sdk']);

// Read first, then kept only when own: a Proxy's traps run (and their errors surface) as for any read.
/** @type {(object: object, key: string) => unknown} */
const own = (object, key) => {
  const value = /** @type {Record<string, unknown>} */ (object)[key];
  return Object.hasOwn(object, key) ? value : undefined;
};

const SHAPES =
  "{ id?, name, arguments }, an OpenAI Chat tool call { id, type: 'function', function: { name, arguments } }, " +
  "a Responses item { type: 'function_call', call_id, name, arguments }, an Anthropic block { type: 'tool_use', id, name, input } " +
  'or an AI SDK tool call { toolCallId, toolName, input }';

/**
 * `{ id?, name, arguments }` for a tool call in any shape the SDKs use (see SHAPES). `arguments` is
 * kept as given: JSON text or a value. A TypeError names the shapes when `call` is none of them.
 * @param {unknown} call
 * @returns {{ id?: string, name: string, arguments: unknown }}
 */
export function normalizeToolCall(call) {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) throw new TypeError(`a tool call is ${SHAPES}; got ${describe(call)}`);
  const type = own(call, 'type');
  /** @type {unknown} */
  let id;
  /** @type {unknown} */
  let name;
  /** @type {unknown} */
  let args;
  const fn = own(call, 'function');
  if (type === 'function' && typeof fn === 'object' && fn !== null) {
    [id, name, args] = [own(call, 'id'), own(fn, 'name'), own(fn, 'arguments')];
  } else if (type === 'function_call') {
    // A Responses item's `id` is the item's (fc_…); the model's call is answered by `call_id`.
    [id, name, args] = [own(call, 'call_id'), own(call, 'name'), own(call, 'arguments')];
  } else if (type === 'tool_use') {
    [id, name, args] = [own(call, 'id'), own(call, 'name'), own(call, 'input')];
  } else if (own(call, 'toolName') !== undefined) {
    [id, name, args] = [own(call, 'toolCallId'), own(call, 'toolName'), own(call, 'input') ?? own(call, 'args')];
  } else {
    [id, name, args] = [own(call, 'id'), own(call, 'name'), own(call, 'arguments') ?? own(call, 'input') ?? own(call, 'args')];
  }
  if (typeof name !== 'string') throw new TypeError(`a tool call is ${SHAPES}; got ${describe(call)} without a string name`);
  if (id !== undefined && typeof id !== 'string') throw new TypeError(`a tool call's id must be a string, got ${describe(id)}`);
  return { ...(id === undefined ? {} : { id: /** @type {string} checked above */ (id) }), name, arguments: args };
}
