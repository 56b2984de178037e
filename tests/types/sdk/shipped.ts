// The typings the package ships for Swarm#tools() are accepted by each SDK as they are: no casts.
import type { Swarm, Session } from 'handoff-graph';
import type { FunctionTool } from 'openai/resources/responses/responses';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type Anthropic from '@anthropic-ai/sdk';
import { jsonSchema, type ToolSet } from 'ai';

declare const swarm: Swarm;
declare const session: Session;

export const responses: FunctionTool[] = swarm.tools(session, 'openai-responses');
export const chat: ChatCompletionTool[] = swarm.tools(session, 'openai-chat');
export const chatDefault: ChatCompletionTool[] = swarm.tools(session);
export const claude: Anthropic.Messages.Tool[] = swarm.tools(session, 'anthropic');
export const vercel: ToolSet = swarm.tools(session, 'ai-sdk', { jsonSchema });
// @ts-expect-error: without jsonSchema() the AI SDK does not take it
export const vercelRaw: ToolSet = swarm.tools(session, 'ai-sdk');
