// Types shared by the provider adapters (js/adapters/messages.js).
import type { Message, ModelFunction, SwarmAgent, ToolCall, ToolFormat } from '../index.js';

/** How the visible variables reach the model: not at all (default), all, by name, or your text. */
export type VariablesOption = boolean | string[] | ((variables: Record<string, unknown>, agent: SwarmAgent | undefined) => string | undefined | null);

/** What every adapter takes besides the provider's settings. */
export interface AdapterOptions {
  /** Stream the answer (default true): a chunk event per text delta. */
  stream?: boolean;
  /** Show the session's variables to the model as a system message after the instructions. */
  variables?: VariablesOption;
  /** Merged into every request body as it is, for settings not listed; keys the adapter sets are refused. */
  request?: Record<string, unknown>;
}

/** A runTurn model made by an adapter: it carries the tool format it sends. */
export type AdapterModel<F extends ToolFormat> = ModelFunction & { readonly toolFormat: F };

export function argumentsText(args: unknown): string;
export function argumentsObject(args: unknown): Record<string, unknown>;
export function toChatMessages(messages: Message[]): Array<Record<string, unknown>>;
export function toResponsesInput(messages: Message[]): Array<Record<string, unknown>>;
export function toAnthropicMessages(messages: Message[], options?: { flattenTools?: boolean }): { system: string; messages: Array<{ role: 'user' | 'assistant'; content: Array<Record<string, unknown>> }> };
export function toAiSdkMessages(messages: Message[]): { system: string; messages: Array<Record<string, unknown>> };
/** A tool result in a provider's own shape, answering `call` by its id. */
export function toolResultMessage(format: ToolFormat, call: ToolCall | Record<string, unknown>, content: string): Record<string, unknown>;
