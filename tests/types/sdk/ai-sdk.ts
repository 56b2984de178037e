// The golden 'ai-sdk' tools against the Vercel `ai` package's types.
// Type-checked (never run) by tests/js/sdk-types.test.mjs: `tsc -p tests/types/sdk`.
import { jsonSchema, tool, type JSONSchema7, type Tool, type ToolSet } from 'ai';

import { aiSdk } from './goldens.js';
import { mutable } from './util.js';

const golden = mutable(aiSdk);

// As generated, the set is NOT a ToolSet: the AI SDK's `inputSchema` is a FlexibleSchema (a
// Schema made by jsonSchema(), a Zod schema or a Standard Schema), never a plain JSON Schema.
// @ts-expect-error: { description, inputSchema: <plain JSON Schema> } is not a Tool
export const raw: ToolSet = golden;

// Each inputSchema IS a valid JSON Schema 7, which is what jsonSchema() takes.
export const schemas: Record<string, JSONSchema7> = {
  transfer_to_billing: golden.transfer_to_billing.inputSchema,
  transfer_to_human: golden.transfer_to_human.inputSchema,
  hand_to_spanish_desk: golden.hand_to_spanish_desk.inputSchema,
};

// Wrapped with jsonSchema(), it is: what a user writes today (no execute: the AI SDK hands the
// tool calls back, and swarm.applyToolCall() routes them).
export function wrap(tools: Record<string, { description: string; inputSchema: JSONSchema7 }>): ToolSet {
  const set: ToolSet = {};
  for (const [name, { description, inputSchema }] of Object.entries(tools)) {
    set[name] = tool({ description, inputSchema: jsonSchema<Record<string, unknown>>(inputSchema), strict: true });
  }
  return set;
}
export const wrapped: ToolSet = wrap(golden);
export const one: Tool = { description: golden.transfer_to_human.description, inputSchema: jsonSchema(golden.transfer_to_human.inputSchema) };
