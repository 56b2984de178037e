// runTurn models for the `openai` package (js/adapters/openai.js).
import type { AdapterModel, AdapterOptions } from './messages.js';

/** The part of an OpenAI client (new OpenAI()) these adapters call. */
export interface OpenAIChatClient {
  chat: { completions: { create(body: any, options?: any): PromiseLike<any> } };
}
export interface OpenAIResponsesClient {
  responses: { create(body: any, options?: any): PromiseLike<any> };
}

/** Chat Completions settings by their API names; others go in `request`. */
export interface OpenAIChatOptions extends AdapterOptions {
  model: string;
  temperature?: number | null;
  top_p?: number | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  presence_penalty?: number | null;
  frequency_penalty?: number | null;
  seed?: number | null;
  stop?: string | string[] | null;
  user?: string;
  reasoning_effort?: string | null;
  service_tier?: string | null;
  metadata?: Record<string, string> | null;
  store?: boolean | null;
  logit_bias?: Record<string, number> | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
  prompt_cache_key?: string;
  safety_identifier?: string;
  verbosity?: string | null;
  /** Default false: one transfer at a time. */
  parallel_tool_calls?: boolean;
  tool_choice?: unknown;
}

/** Responses settings by their API names; others go in `request`. */
export interface OpenAIResponsesOptions extends AdapterOptions {
  model: string;
  temperature?: number | null;
  top_p?: number | null;
  max_output_tokens?: number | null;
  reasoning?: Record<string, unknown> | null;
  service_tier?: string | null;
  metadata?: Record<string, string> | null;
  /** Default false: the adapter sends the whole history each call. */
  store?: boolean | null;
  user?: string;
  truncation?: 'auto' | 'disabled' | null;
  text?: Record<string, unknown>;
  prompt_cache_key?: string;
  safety_identifier?: string;
  parallel_tool_calls?: boolean;
  tool_choice?: unknown;
  include?: string[] | null;
  max_tool_calls?: number | null;
}

export const CHAT_SETTINGS: readonly string[];
export const RESPONSES_SETTINGS: readonly string[];

/** A runTurn model on client.chat.completions (tools in the 'openai-chat' shape). */
export function openaiChat(client: OpenAIChatClient, options: OpenAIChatOptions): AdapterModel<'openai-chat'>;
/** A runTurn model on client.responses (tools in the 'openai-responses' shape). */
export function openaiResponses(client: OpenAIResponsesClient, options: OpenAIResponsesOptions): AdapterModel<'openai-responses'>;
