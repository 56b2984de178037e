// The triage swarm of docs/handoffs.md (examples/support-swarm.mjs), driven by the official
// `openai` client through the package's adapters: openaiChat (Chat Completions) or openaiResponses
// (Responses API). The adapter converts the swarm's messages and tools, streams the answer (a
// `chunk` event per delta) and passes the turn's AbortSignal to the SDK (docs/adapters.md).
//
//   npm install openai
//   OPENAI_API_KEY=… node examples/openai-swarm.mjs                      # chat on stdin
//   OPENAI_API_KEY=… node examples/openai-swarm.mjs "I want a refund of 250 for invoice 7"
//   OPENAI_API=responses OPENAI_MODEL=gpt-4.1 node examples/openai-swarm.mjs
//
// 'handoff-graph' resolves to this package itself (self-reference).
import OpenAI from 'openai';
import { openaiChat, openaiResponses } from 'handoff-graph/adapters/openai';

import { chat } from './support-swarm.mjs';

const client = new OpenAI(); // reads OPENAI_API_KEY (and OPENAI_BASE_URL)
const options = { model: process.env.OPENAI_MODEL ?? 'gpt-4.1-mini' };
await chat(process.env.OPENAI_API === 'responses' ? openaiResponses(client, options) : openaiChat(client, options));
