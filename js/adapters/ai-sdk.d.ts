// The Vercel AI SDK adapter (js/adapters/ai-sdk.js).
import type { Session, Swarm, ToolSchema } from '../index.js';
import type { AdapterModel, AdapterOptions } from './messages.js';

/** generateText / streamText settings by name; others go in `request`. */
export interface AiSdkOptions extends AdapterOptions {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stopSequences?: string[];
  seed?: number;
  maxRetries?: number;
  headers?: Record<string, string | undefined>;
  providerOptions?: Record<string, Record<string, unknown>>;
  toolChoice?: unknown;
}

export const AI_SDK_SETTINGS: readonly string[];

/** Any AI SDK LanguageModel object, e.g. openai('gpt-4.1-mini') from @ai-sdk/openai. */
export interface LanguageModelLike {
  doGenerate(...args: any[]): PromiseLike<unknown>;
}

/** A runTurn model on an AI SDK LanguageModel (tools in the 'ai-sdk' shape). */
export function aiSdkModel(languageModel: LanguageModelLike, options?: AiSdkOptions): AdapterModel<'ai-sdk'>;

/**
 * The tools offered now as an AI SDK ToolSet, built with your `tool` and `jsonSchema` from 'ai';
 * transfers execute through swarm.applyToolCall and return the text runTurn would give.
 */
export function aiSdkTools<T>(
  swarm: Swarm,
  session: Session,
  options: {
    /** `tool` from 'ai': given { description, inputSchema, execute? }. */
    tool: (definition: any) => T;
    jsonSchema: (schema: ToolSchema) => any;
  },
): Record<string, T>;
