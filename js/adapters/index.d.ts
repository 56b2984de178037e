// handoff-graph/adapters: createModel, defineTool and the shared message conversions.
import type { AgentTool } from '../index.js';
import type { AdapterModel, AdapterOptions } from './messages.js';
import type { AnthropicClient, AnthropicOptions } from './anthropic.js';
import type { OpenAIChatClient, OpenAIChatOptions, OpenAIResponsesClient, OpenAIResponsesOptions } from './openai.js';

export { argumentsObject, argumentsText, toAiSdkMessages, toAnthropicMessages, toChatMessages, toolResultMessage, toResponsesInput } from './messages.js';
export type { AdapterModel, AdapterOptions, VariablesOption } from './messages.js';

interface Connection<C> {
  /** Default: the OPENAI_API_KEY / ANTHROPIC_API_KEY environment variable. */
  apiKey?: string;
  /** Default: OPENAI_BASE_URL / ANTHROPIC_BASE_URL, else the provider's. */
  baseURL?: string;
  /** A ready client instead of apiKey and baseURL. */
  client?: C;
}

export type CreateModelOptions =
  | ({ provider: 'openai' } & Connection<OpenAIChatClient> & OpenAIChatOptions)
  | ({ provider: 'openai-responses' } & Connection<OpenAIResponsesClient> & OpenAIResponsesOptions)
  | ({ provider: 'anthropic' } & Connection<AnthropicClient> & AnthropicOptions);

/** A runTurn model from configuration and the environment; the SDK is imported on the first call. */
export function createModel(options: CreateModelOptions & { provider: 'openai' }): AdapterModel<'openai-chat'>;
export function createModel(options: CreateModelOptions & { provider: 'openai-responses' }): AdapterModel<'openai-responses'>;
export function createModel(options: CreateModelOptions & { provider: 'anthropic' }): AdapterModel<'anthropic'>;

/** A zod 4 schema, as far as defineTool reads it. */
export interface ZodLikeSchema {
  toJSONSchema(): Record<string, unknown>;
  '~standard': unknown;
}

/** An agent's own tool for a definition, its parameters JSON Schema or a zod 4 schema. */
export function defineTool(options: { name: string; description?: string; parameters?: Record<string, unknown> | ZodLikeSchema }): AgentTool;
