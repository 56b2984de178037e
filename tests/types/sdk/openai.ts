// The golden 'openai-responses' and 'openai-chat' tools against the `openai` package's types.
// Type-checked (never run) by tests/js/sdk-types.test.mjs: `tsc -p tests/types/sdk`.
import type OpenAI from 'openai';
import type { FunctionTool, Tool, ResponseCreateParamsNonStreaming } from 'openai/resources/responses/responses';
import type { ChatCompletionTool, ChatCompletionFunctionTool, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';

import { openaiResponses, openaiChat } from './goldens.js';
import { mutable } from './util.js';

// Responses API: client.responses.create({ tools })
export const responsesFunctionTools: FunctionTool[] = mutable(openaiResponses);
export const responsesTools: Tool[] = mutable(openaiResponses);
export const responsesNamespaced: OpenAI.Responses.FunctionTool[] = mutable(openaiResponses);
export const responsesParams: ResponseCreateParamsNonStreaming = { model: 'local-model', input: 'hi', tools: mutable(openaiResponses) };

// Chat Completions: client.chat.completions.create({ tools })
export const chatTools: ChatCompletionTool[] = mutable(openaiChat);
export const chatFunctionTools: ChatCompletionFunctionTool[] = mutable(openaiChat);
export const chatNamespaced: OpenAI.Chat.ChatCompletionTool[] = mutable(openaiChat);
export const chatParams: ChatCompletionCreateParamsNonStreaming = { model: 'local-model', messages: [{ role: 'user', content: 'hi' }], tools: mutable(openaiChat) };

// The two shapes are not interchangeable: the checks above would catch a swapped format.
// @ts-expect-error: a Chat Completions tool nests name and parameters under `function`
export const swappedChat: FunctionTool[] = mutable(openaiChat);
// @ts-expect-error: a Responses tool has no `function` member
export const swappedResponses: ChatCompletionFunctionTool[] = mutable(openaiResponses);
