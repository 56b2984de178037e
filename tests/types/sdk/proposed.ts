// PROPOSED typings for Swarm#tools() (today it returns `unknown`), checked here against the SDKs so
// that they can move into js/index.d.ts as they are: with them, `tools: swarm.tools(session,
// 'openai-chat')` type-checks in a client call without a cast. Also checks that the goldens are
// values of these types. Type-checked (never run) by tests/js/sdk-types.test.mjs.
import type { FunctionTool, Tool as ResponsesTool } from 'openai/resources/responses/responses';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type Anthropic from '@anthropic-ai/sdk';
import { jsonSchema, type JSONSchema7, type ToolSet } from 'ai';

import { openaiResponses, openaiChat, anthropic, aiSdk } from './goldens.js';
import { mutable } from './util.js';

// ---- the declarations proposed for js/index.d.ts ----------------------------------------
// Type aliases, not interfaces: the SDKs take parameters as { [key: string]: unknown }, which an
// object type alias satisfies and an interface (no implicit index signature) does not.
export type TransferArgumentSchema = {
  type: 'string' | 'number' | 'integer' | 'boolean' | ['string', 'null'];
  description?: string;
};
/** A transfer tool's parameters: strict (every property required, `reason` nullable). */
export type TransferSchema = {
  type: 'object';
  properties: { reason: TransferArgumentSchema } & Record<string, TransferArgumentSchema>;
  required: string[];
  additionalProperties: false;
};
export interface OpenAIResponsesTransferTool {
  type: 'function';
  name: string;
  description: string;
  parameters: TransferSchema;
  strict: true;
}
export interface OpenAIChatTransferTool {
  type: 'function';
  function: { name: string; description: string; parameters: TransferSchema; strict: true };
}
export interface AnthropicTransferTool {
  name: string;
  description: string;
  input_schema: TransferSchema;
}
export type AiSdkTransferTools = Record<string, { description: string; inputSchema: TransferSchema }>;
export interface ToolsByFormat {
  'openai-responses': OpenAIResponsesTransferTool[];
  'openai-chat': OpenAIChatTransferTool[];
  anthropic: AnthropicTransferTool[];
  'ai-sdk': AiSdkTransferTools;
}
// In class Swarm:
//   tools<F extends ToolFormat = 'openai-chat'>(session: Session, format?: F): ToolsByFormat[F];
//   tools<S>(session: Session, format: 'ai-sdk', options: { jsonSchema: (schema: TransferSchema) => S }):
//     Record<string, { description: string; inputSchema: S; strict: true }>;
declare function tools<F extends keyof ToolsByFormat = 'openai-chat'>(format?: F): ToolsByFormat[F];
declare function tools<S>(format: 'ai-sdk', options: { jsonSchema: (schema: TransferSchema) => S }): Record<string, { description: string; inputSchema: S; strict: true }>;

// ---- the goldens are values of these types -----------------------------------------------
export const g1: OpenAIResponsesTransferTool[] = mutable(openaiResponses);
export const g2: OpenAIChatTransferTool[] = mutable(openaiChat);
export const g3: AnthropicTransferTool[] = mutable(anthropic);
export const g4: AiSdkTransferTools = mutable(aiSdk);

// ---- and these types are the SDKs' ----------------------------------------------------------
export const responses: FunctionTool[] = tools('openai-responses');
export const responsesUnion: ResponsesTool[] = tools('openai-responses');
export const chat: ChatCompletionTool[] = tools('openai-chat');
export const chatDefault: ChatCompletionTool[] = tools();
export const claude: Anthropic.Messages.Tool[] = tools('anthropic');
export const schema: JSONSchema7 = tools('anthropic')[0].input_schema;
export const vercel: ToolSet = tools('ai-sdk', { jsonSchema });
// @ts-expect-error: without jsonSchema() the AI SDK does not take it (see ai-sdk.ts)
export const vercelRaw: ToolSet = tools('ai-sdk');
