// @ts-check
// handoff-graph/adapters: createModel({ provider, model }), a runTurn model made from configuration
// and the environment (OPENAI_API_KEY / ANTHROPIC_API_KEY, OPENAI_BASE_URL / ANTHROPIC_BASE_URL),
// and the message conversions the provider adapters share. The SDK is imported on the first model
// call, so this module loads without any SDK installed; a missing key is an error at once.
import { checkOptions } from '../options.js';
import { anthropicMessages, ANTHROPIC_SETTINGS } from './anthropic.js';
import { ADAPTER_OPTIONS } from './adapter-options.js';
import { CHAT_SETTINGS, openaiChat, openaiResponses, RESPONSES_SETTINGS } from './openai.js';

export { argumentsObject, argumentsText, toAiSdkMessages, toAnthropicMessages, toChatMessages, toolResultMessage, toResponsesInput } from './messages.js';

/** @import { AgentTool, ModelAnswer, ModelFunction, ModelRequest } from '../index.js' */
/** @import { AnthropicClient, AnthropicOptions } from './anthropic.js' */
/** @import { OpenAIChatClient, OpenAIChatOptions, OpenAIResponsesClient, OpenAIResponsesOptions } from './openai.js' */
/** @typedef {import('./messages.js').AdapterOptions} AdapterOptions */
/** @typedef {import('./messages.js').VariablesOption} VariablesOption */
/**
 * @template {import('../index.js').ToolFormat} F
 * @typedef {import('./messages.js').AdapterModel<F>} AdapterModel
 */

/**
 * @template C
 * @typedef {object} Connection
 * @property {string} [apiKey] Default: the OPENAI_API_KEY / ANTHROPIC_API_KEY environment variable.
 * @property {string} [baseURL] Default: OPENAI_BASE_URL / ANTHROPIC_BASE_URL, else the provider's.
 * @property {C} [client] A ready client instead of apiKey and baseURL.
 */

/**
 * @typedef {({ provider: 'openai' } & Connection<OpenAIChatClient> & OpenAIChatOptions)
 *   | ({ provider: 'openai-responses' } & Connection<OpenAIResponsesClient> & OpenAIResponsesOptions)
 *   | ({ provider: 'anthropic' } & Connection<AnthropicClient> & AnthropicOptions)} CreateModelOptions
 */

/**
 * A zod 4 schema, as far as defineTool reads it.
 * @typedef {{ toJSONSchema(): Record<string, unknown>, '~standard': unknown }} ZodLikeSchema
 */

// Each adapter checks the client and options it is given (an adapter's method signature here, so
// that the three, each taking its own client, fit one table).
/**
 * @type {Record<string, { pkg: string, key: string, base: string, settings: readonly string[],
 *   adapter(client: unknown, options: unknown): ModelFunction, toolFormat: 'openai-chat' | 'openai-responses' | 'anthropic' }>}
 */
const PROVIDERS = {
  openai: { pkg: 'openai', key: 'OPENAI_API_KEY', base: 'OPENAI_BASE_URL', settings: CHAT_SETTINGS, adapter: openaiChat, toolFormat: 'openai-chat' },
  'openai-responses': { pkg: 'openai', key: 'OPENAI_API_KEY', base: 'OPENAI_BASE_URL', settings: RESPONSES_SETTINGS, adapter: openaiResponses, toolFormat: 'openai-responses' },
  anthropic: { pkg: '@anthropic-ai/sdk', key: 'ANTHROPIC_API_KEY', base: 'ANTHROPIC_BASE_URL', settings: ANTHROPIC_SETTINGS, adapter: anthropicMessages, toolFormat: 'anthropic' },
};
const OWN = ['provider', 'apiKey', 'baseURL', 'client'];

/** @type {() => Record<string, string | undefined>} */
const environment = () => globalThis.process?.env ?? {};

/**
 * @param {string} name
 * @param {string} provider
 * @returns {Promise<new (options: { apiKey?: string, baseURL?: string }) => any>} the SDK's client class
 */
async function importSDK(name, provider) {
  try {
    return (await import(name)).default;
  } catch (e) {
    const error = /** @type {any} what the import threw */ (e);
    if (error?.code === 'ERR_MODULE_NOT_FOUND' || /Cannot find (module|package)|Failed to resolve/i.test(String(error?.message))) {
      throw new Error(`createModel({ provider: '${provider}' }) needs the '${name}' package, an optional peer dependency of handoff-graph: npm install ${name}`, { cause: error });
    }
    throw error;
  }
}

/**
 * A runTurn model from configuration: `provider` ('openai' = Chat Completions, 'openai-responses',
 * 'anthropic'), `model`, and optionally `apiKey`, `baseURL` or a ready `client`; the other options
 * are the adapter's (provider settings by their API names, `stream`, `variables`, `request`).
 * Without `apiKey` or `client`, the key is read from OPENAI_API_KEY or ANTHROPIC_API_KEY (and the
 * base URL from OPENAI_BASE_URL or ANTHROPIC_BASE_URL); an Error names the variable when it is unset.
 * (A runTurn model from configuration and the environment; the SDK is imported on the first call.)
 * @overload
 * @param {CreateModelOptions & { provider: 'openai' }} options
 * @returns {AdapterModel<'openai-chat'>}
 */
/**
 * @overload
 * @param {CreateModelOptions & { provider: 'openai-responses' }} options
 * @returns {AdapterModel<'openai-responses'>}
 */
/**
 * @overload
 * @param {CreateModelOptions & { provider: 'anthropic' }} options
 * @returns {AdapterModel<'anthropic'>}
 */
/**
 * @param {CreateModelOptions} options
 * @returns {AdapterModel<'openai-chat' | 'openai-responses' | 'anthropic'>}
 */
export function createModel(options) {
  if (typeof options !== 'object' || options === null) throw new TypeError("createModel takes { provider, model }, e.g. { provider: 'openai', model: 'gpt-4.1-mini' }");
  const spec = Object.hasOwn(PROVIDERS, options.provider) ? PROVIDERS[options.provider] : undefined;
  if (spec === undefined) throw new TypeError(`createModel: provider must be ${Object.keys(PROVIDERS).map((p) => `'${p}'`).join(', ')}; got ${JSON.stringify(options.provider)}`);
  checkOptions(options, [...OWN, ...spec.settings, ...ADAPTER_OPTIONS], `createModel options (provider '${options.provider}')`);
  const { provider, apiKey, baseURL, client, ...adapterOptions } = options;
  if (client !== undefined && (apiKey !== undefined || baseURL !== undefined)) throw new TypeError('createModel: give either a client or apiKey/baseURL, not both');
  const env = environment();
  const key = apiKey ?? env[spec.key];
  if (client === undefined && (typeof key !== 'string' || key === '')) {
    throw new Error(`createModel({ provider: '${provider}' }): no API key. Set the ${spec.key} environment variable, or pass { apiKey } or { client }`);
  }
  // Checks the adapter options now (model required, unknown keys) with a client stand-in.
  let adapted = client === undefined ? undefined : spec.adapter(client, adapterOptions);
  if (adapted === undefined) spec.adapter(spec.pkg === 'openai' ? { chat: { completions: { create() {} } }, responses: { create() {} } } : { messages: { create() {} } }, adapterOptions);
  /** @type {Promise<ModelFunction> | undefined} */
  let ready;
  /** @type {(request: ModelRequest<any>) => Promise<ModelAnswer | void>} */
  const model = async (request) => {
    ready ??= (async () => {
      const SDK = await importSDK(spec.pkg, provider);
      const url = baseURL ?? (env[spec.base] || undefined);
      return spec.adapter(new SDK({ apiKey: key, ...(url === undefined ? {} : { baseURL: url }) }), adapterOptions);
    })();
    adapted ??= await ready;
    return adapted(request);
  };
  return Object.assign(model, { toolFormat: spec.toolFormat });
}

/**
 * An agent's own tool for a swarm definition (`agents[i].tools`), with `parameters` as JSON Schema
 * or a zod 4 schema (converted with its toJSONSchema()). The description is `description`, else the
 * schema's own (zod's `.describe()`); a tool with neither is a TypeError, since the model reads
 * it to decide when to call the tool.
 * (An agent's own tool for a definition, its parameters JSON Schema or a zod 4 schema.)
 * @param {{ name: string, description?: string, parameters?: Record<string, unknown> | ZodLikeSchema }} options
 * @returns {AgentTool}
 */
export function defineTool(options) {
  /** @type {{ name: unknown, description?: unknown, parameters?: any }} a caller's values, checked below; parameters: JSON Schema or zod */
  const { name, description, parameters } = checkOptions(options, ['name', 'description', 'parameters'], 'defineTool options');
  if (typeof name !== 'string' || name === '') throw new TypeError('defineTool: name must be a non-empty string');
  let schema = parameters;
  if (typeof parameters?.toJSONSchema === 'function' && parameters['~standard'] !== undefined) {
    schema = parameters.toJSONSchema();
  } else if (parameters !== undefined && (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))) {
    throw new TypeError(`defineTool '${name}': parameters must be a JSON Schema object or a zod 4 schema`);
  }
  const text = description ?? schema?.description;
  if (typeof text !== 'string' || text.trim() === '') {
    throw new TypeError(`defineTool '${name}': a tool needs a description (the model reads it to decide when to call it): pass { description } or describe the schema`);
  }
  if (schema === undefined) return { name, description: text };
  const { $schema: _dialect, description: _own, ...rest } = schema;
  return { name, description: text, parameters: rest };
}
