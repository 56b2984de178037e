// The triage swarm of docs/handoffs.md (examples/support-swarm.mjs), driven by the official
// `@anthropic-ai/sdk` client through the package's adapter, anthropicMessages: it converts the
// swarm's messages and tools for the Messages API, streams the answer (a `chunk` event per delta)
// and passes the turn's AbortSignal to the SDK (docs/adapters.md).
//
//   npm install @anthropic-ai/sdk
//   ANTHROPIC_API_KEY=… node examples/anthropic-swarm.mjs                 # chat on stdin
//   ANTHROPIC_API_KEY=… node examples/anthropic-swarm.mjs "I want a refund of 250 for invoice 7"
//   ANTHROPIC_MODEL=claude-haiku-4-5 node examples/anthropic-swarm.mjs
//
// 'handoff-graph' resolves to this package itself (self-reference).
import Anthropic from '@anthropic-ai/sdk';
import { anthropicMessages } from 'handoff-graph/adapters/anthropic';

import { chat } from './support-swarm.mjs';

const client = new Anthropic(); // reads ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL)
await chat(anthropicMessages(client, { model: process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-5-5' }));
