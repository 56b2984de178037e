// A runTurn model for `@anthropic-ai/sdk` (js/adapters/anthropic.js).
import type { AdapterModel, AdapterOptions } from './messages.js';

/** The part of an Anthropic client (new Anthropic()) this adapter calls. */
export interface AnthropicClient {
  messages: { create(body: any, options?: any): PromiseLike<any> };
}

/** Messages API settings by their API names; others go in `request`. */
export interface AnthropicOptions extends AdapterOptions {
  model: string;
  /** Default 1024. */
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  metadata?: Record<string, unknown>;
  thinking?: Record<string, unknown>;
  service_tier?: string;
  /** Default { type: 'auto', disable_parallel_tool_use: true }: one transfer at a time. */
  tool_choice?: Record<string, unknown>;
}

export const ANTHROPIC_SETTINGS: readonly string[];

/** A runTurn model on client.messages (tools in the 'anthropic' shape). */
export function anthropicMessages(client: AnthropicClient, options: AnthropicOptions): AdapterModel<'anthropic'>;
