// Type-checked (never run) by `tsc -p tests/types`: the adapters' typings with the real SDKs'
// clients and models, streaming model functions, and misuse that must not compile.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, tool } from 'ai';
import { z } from 'zod';

import { Swarm, type ModelFunction, type ModelStreamPart, type SwarmEvent, type ToolCallInput } from 'handoff-graph';
import { createModel, defineTool, toolResultMessage, toChatMessages, type AdapterModel } from 'handoff-graph/adapters';
import { anthropicMessages } from 'handoff-graph/adapters/anthropic';
import { aiSdkModel, aiSdkTools } from 'handoff-graph/adapters/ai-sdk';
import { openaiChat, openaiResponses } from 'handoff-graph/adapters/openai';

export async function adapters(swarm: Swarm): Promise<void> {
  const session = swarm.createSession();
  const chat: AdapterModel<'openai-chat'> = openaiChat(new OpenAI(), { model: 'gpt-4.1-mini', temperature: 0, request: { seed: 1 }, variables: ['accountId'] });
  const responses = openaiResponses(new OpenAI(), { model: 'gpt-4.1-mini', stream: false, max_output_tokens: 100 });
  const claude = anthropicMessages(new Anthropic(), { model: 'claude-sonnet-5-5', max_tokens: 512 });
  const vercel = aiSdkModel(createOpenAI({ apiKey: 'k' }).chat('gpt-4.1-mini'), { maxOutputTokens: 100 });
  const configured = createModel({ provider: 'anthropic', model: 'claude-sonnet-5-5', temperature: 0 });
  const fromEnv: AdapterModel<'openai-responses'> = createModel({ provider: 'openai-responses', model: 'gpt-4.1-mini' });
  // @ts-expect-error: the model is required
  openaiChat(new OpenAI(), { temperature: 0 });
  // @ts-expect-error: an unknown option
  anthropicMessages(new Anthropic(), { model: 'm', temprature: 1 });
  // @ts-expect-error: not a provider
  createModel({ provider: 'gemini', model: 'x' });
  for (const model of [chat, responses, claude, vercel, configured, fromEnv]) {
    for await (const event of swarm.runTurn(session, 'hi', { model, agentConfig: { billing: { temperature: 0.5 } } })) {
      const e: SwarmEvent = event;
      if (e.type === 'response') void e.raw;
    }
  }
  // A streaming model function of your own.
  const streaming: ModelFunction = async function* (request): AsyncGenerator<ModelStreamPart> {
    void request.variables;
    void request.config;
    yield { type: 'text-delta', delta: 'Hel' };
    yield { type: 'tool-call', toolCallId: 'c1', toolName: 'transfer_to_billing', input: '{}' };
    yield { type: 'finish', finishReason: 'stop', raw: {} };
  };
  for await (const event of swarm.runTurn(session, 'hi', { model: streaming })) void event;
  // Tool calls as each SDK gives them.
  const calls: ToolCallInput[] = [
    { id: 'c', type: 'function', function: { name: 'transfer_to_billing', arguments: '{}' } },
    { type: 'function_call', call_id: 'c', name: 'transfer_to_billing', arguments: '{}' },
    { type: 'tool_use', id: 'c', name: 'transfer_to_billing', input: {} },
    { toolCallId: 'c', toolName: 'transfer_to_billing', input: {} },
  ];
  for (const call of calls) {
    const outcome = swarm.applyToolCall(session, call);
    if (outcome.type !== 'tool') {
      const text: string = swarm.toolResult(outcome);
      void toolResultMessage('openai-chat', call, text);
    }
  }
  void toChatMessages(swarm.messages(session));
  const tools = aiSdkTools(swarm, session, { tool, jsonSchema });
  await generateText({ model: createOpenAI({ apiKey: 'k' }).chat('gpt-4.1-mini'), prompt: 'hi', tools });
  const lookup = defineTool({ name: 'lookup', parameters: z.object({ q: z.string() }).describe('Look up an invoice') });
  new Swarm({ agents: [{ id: 'billing', tools: [lookup] }] });
}
