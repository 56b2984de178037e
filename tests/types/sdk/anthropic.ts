// The golden 'anthropic' tools against the `@anthropic-ai/sdk` package's types.
// Type-checked (never run) by tests/js/sdk-types.test.mjs: `tsc -p tests/types/sdk`.
import Anthropic from '@anthropic-ai/sdk';
import type { Tool, ToolUnion, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';

import { anthropic } from './goldens.js';
import { mutable } from './util.js';

export const tools: Tool[] = mutable(anthropic);
export const namespaced: Anthropic.Messages.Tool[] = mutable(anthropic);
export const unions: ToolUnion[] = mutable(anthropic);
export const params: MessageCreateParamsNonStreaming = {
  model: 'local-model',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'hi' }],
  tools: mutable(anthropic),
};
// @ts-expect-error: input_schema.type must be 'object'
export const wrongSchema: Tool = { ...mutable(anthropic)[0], input_schema: { type: 'array' } };
