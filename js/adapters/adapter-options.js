// @ts-check
// The option checks every provider adapter shares, internal to the package (no entry
// exports it): known provider settings, a `request` passthrough that may not override what
// the adapter sets itself, `stream`, and the visible variables shown to the model as a system
// message. The message conversions are in ./messages.js.
import { checkOptions } from '../options.js';

/** @import { Message, SwarmAgent, ToolFormat } from '../index.js' */
/** @import { AdapterOptions, VariablesOption } from './messages.js' */

/** Options every adapter takes besides the provider's settings. */
export const ADAPTER_OPTIONS = Object.freeze(['stream', 'variables', 'request']);

/**
 * Checks an adapter's options (or an agent's config from runTurn's `agentConfig`): provider
 * settings by their SDK names, `stream`, `variables`, and `request`, an object merged into every
 * request body as it is, for settings not listed. A key the adapter sets itself (`owned`) is
 * refused in `request` too, so nothing is overridden or dropped without a word.
 * @param {unknown} options
 * @param {readonly string[]} settings
 * @param {readonly string[]} owned
 * @param {string} what
 * @returns {AdapterOptions & Record<string, unknown>}
 */
export function checkAdapterOptions(options, settings, owned, what) {
  checkOptions(/** @type {object | undefined} */ (options), [...settings, ...ADAPTER_OPTIONS], what);
  const given = /** @type {Record<string, unknown>} checked: an object or undefined */ (options ?? {});
  const { stream, variables, request } = given;
  if (stream !== undefined && typeof stream !== 'boolean') throw new TypeError(`${what}: stream must be a boolean`);
  if (variables !== undefined && typeof variables !== 'boolean' && typeof variables !== 'function' && !(Array.isArray(variables) && variables.every((v) => typeof v === 'string'))) {
    throw new TypeError(`${what}: variables must be true, false, an array of variable names or a function (variables, agent) => text`);
  }
  if (request !== undefined) {
    if (typeof request !== 'object' || request === null || Array.isArray(request)) throw new TypeError(`${what}: request must be an object (merged into every request body)`);
    const taken = Object.keys(request).filter((k) => owned.includes(k));
    if (taken.length > 0) throw new TypeError(`${what}: request.${taken[0]} is set by the adapter from the swarm (${owned.join(', ')})`);
  }
  return given;
}

/**
 * The settings of one model call: the adapter's options, then the agent's config over them.
 * Returns { settings (provider keys only), request, stream, variables }.
 * @param {AdapterOptions & Record<string, unknown>} base the adapter's checked options
 * @param {unknown} config the agent's config (ModelRequest.config)
 * @param {readonly string[]} settings
 * @param {readonly string[]} owned
 * @param {string} what
 * @returns {{ settings: Record<string, unknown>, request: Record<string, unknown>, stream: boolean, variables: VariablesOption }}
 */
export function resolveSettings(base, config, settings, owned, what) {
  const agentConfig = checkAdapterOptions(config, settings, owned, `${what}: agentConfig`);
  const merged = { ...base, ...agentConfig, request: { ...base.request, ...agentConfig.request } };
  const provider = Object.fromEntries(Object.entries(merged).filter(([k, v]) => settings.includes(k) && v !== undefined));
  return { settings: provider, request: merged.request, stream: merged.stream ?? true, variables: merged.variables ?? false };
}

/**
 * The visible variables as a system message after the agent's instructions, or the messages as
 * they are. `option`: false (default, nothing is shown), true (all variables), an array of
 * variable names, or a function (variables, agent) => text (undefined: nothing).
 * @param {Message[]} messages
 * @param {Record<string, unknown>} variables
 * @param {SwarmAgent | undefined} agent
 * @param {VariablesOption | undefined} option
 * @returns {Message[]}
 */
export function withVariables(messages, variables, agent, option) {
  if (option === false || option === undefined) return messages;
  /** @type {string | null | undefined} */
  let text;
  if (typeof option === 'function') {
    text = option(variables, agent);
    if (text === undefined || text === null || text === '') return messages;
    text = String(text);
  } else {
    const shown = option === true ? variables : Object.fromEntries(option.filter((k) => Object.hasOwn(variables, k)).map((k) => [k, variables[k]]));
    if (Object.keys(shown).length === 0) return messages;
    text = `Known variables of this conversation (JSON): ${JSON.stringify(shown)}`;
  }
  const at = messages[0]?.role === 'system' ? 1 : 0;
  return [...messages.slice(0, at), { role: 'system', content: text }, ...messages.slice(at)];
}

/**
 * Throws unless runTurn gave the tools in the shape this adapter sends.
 * @param {{ toolFormat?: unknown }} request
 * @param {ToolFormat} format
 * @param {string} what
 * @returns {void}
 */
export function checkToolFormat(request, format, what) {
  if (request.toolFormat !== undefined && request.toolFormat !== format) {
    throw new TypeError(`${what} sends tools in the '${format}' shape, but runTurn was given toolFormat '${request.toolFormat}': leave toolFormat out (runTurn reads it from the model)`);
  }
}
