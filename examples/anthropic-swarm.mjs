// The triage swarm of docs/handoffs.md, driven by the official `@anthropic-ai/sdk` client.
//
// Swarm.runTurn() calls `model({ agent, messages, tools })` once per model call and expects
// `{ text, toolCalls }` back. This file is that function for the Messages API: it converts the
// swarm's messages to Anthropic's (system text apart, tool calls as tool_use blocks, tool results
// as tool_result blocks in the next user turn), passes the transfer tools through untouched
// (swarm.tools(session, 'anthropic') is already the API's shape), and converts the answer back.
//
//   npm install @anthropic-ai/sdk
//   ANTHROPIC_API_KEY=… node examples/anthropic-swarm.mjs                 # chat on stdin
//   ANTHROPIC_API_KEY=… node examples/anthropic-swarm.mjs "I want a refund of 250 for invoice 7"
//   ANTHROPIC_MODEL=claude-haiku-4-5 node examples/anthropic-swarm.mjs
//
// Not run in CI (it calls the API). 'handoff-graph' resolves to this package itself (self-reference).
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';

import { init, Swarm } from 'handoff-graph';

export const definition = {
  name: 'support',
  maxHops: 6,
  agents: [
    {
      id: 'triage',
      name: 'Triage',
      instructions:
        'You are the first contact of a support desk. Find out what the customer needs. ' +
        'If they want a person, ask for their ticket number (like T-1042) first, then transfer them.',
      entry: true,
      handoffs: 2,
    },
    { id: 'billing', name: 'Billing', instructions: 'You answer questions about invoices and refunds. Be brief.' },
    {
      id: 'human',
      name: 'Human operator',
      // In production this agent's "model" would be a person's console; here the model plays Sam.
      instructions: 'Play Sam, a human support operator, in this demo. Be brief.',
    },
  ],
  edges: [
    { from: 'triage', to: 'billing', when: "category == 'billing'" },
    {
      from: 'triage',
      to: 'human',
      description: 'Transfer to a human operator when the customer asks for a person or the problem cannot be solved here.',
      requires: [{ name: 'ticketId', from: 'model', type: 'string', description: 'the ticket number, e.g. T-1042' }],
    },
    { from: 'billing', to: 'human', when: 'amount > 100', offer: true, description: 'Refunds over 100 need a person.' },
    { from: 'billing', to: 'triage', description: 'The question is not about billing.' },
    { from: 'human', to: 'triage', description: 'Hand the conversation back to the assistant.' },
  ],
};

// Tool calls carry `arguments` as the model sent them: an object from Anthropic, JSON text from
// OpenAI (a session may have started with another provider). Anthropic wants the object.
function argumentsObject(args) {
  if (typeof args !== 'string') return args ?? {};
  try {
    const parsed = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : { arguments: args };
  } catch {
    return { arguments: args };
  }
}

/**
 * Swarm messages → { system, messages } for client.messages.create().
 *
 * - Every system message (the agent's instructions, and a source agent's carried along by
 *   `includeSystem`) goes into the one `system` text.
 * - Consecutive messages of one role are merged into one turn: the tool results answering one
 *   assistant turn must all be in the user turn right after it, before any text.
 * - With `flattenTools`, tool calls and results become plain text. Use it when no tools are
 *   offered: the API refuses tool_use/tool_result blocks in a request that defines no tools, and
 *   an agent that received a `full` history of transfers may have none of its own.
 * - The API wants a user turn first; a history that starts otherwise (the `none` context policy
 *   gives an empty one) gets a short note as its first user turn.
 */
export function toAnthropic(messages, { flattenTools = false } = {}) {
  const system = [];
  const turns = [];
  const add = (role, blocks) => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'system') {
      system.push(m.content);
    } else if (m.role === 'user') {
      add('user', m.content ? [{ type: 'text', text: m.content }] : []);
    } else if (m.role === 'assistant') {
      const blocks = m.content ? [{ type: 'text', text: m.content }] : [];
      for (const c of m.toolCalls ?? []) {
        blocks.push(
          flattenTools
            ? { type: 'text', text: `[called ${c.name} ${JSON.stringify(argumentsObject(c.arguments))}]` }
            : { type: 'tool_use', id: c.id, name: c.name, input: argumentsObject(c.arguments) },
        );
      }
      add('assistant', blocks);
    } else if (m.role === 'tool') {
      add('user', [
        flattenTools
          ? { type: 'text', text: `[${m.name} answered: ${m.content}]` }
          : { type: 'tool_result', tool_use_id: m.toolCallId, content: m.content },
      ]);
    } else {
      throw new Error(`unexpected message role '${m.role}'`);
    }
  }
  if (turns[0]?.role !== 'user') turns.unshift({ role: 'user', content: [{ type: 'text', text: '(The conversation has been transferred to you.)' }] });
  return { system: system.join('\n\n'), messages: turns };
}

/** Message → { text, toolCalls }. */
export function fromAnthropic(message) {
  return {
    text: message.content
      .filter((block) => block.type === 'text')
      .map((block) => block.text)
      .join(''),
    toolCalls: message.content
      .filter((block) => block.type === 'tool_use')
      .map((block) => ({ id: block.id, name: block.name, arguments: block.input })),
  };
}

/** A runTurn `model` function on client.messages (use with toolFormat: 'anthropic'). */
export function anthropicModel(client, { model = 'claude-sonnet-4-6', max_tokens = 1024, ...params } = {}) {
  return async ({ messages, tools }) => {
    const { system, messages: turns } = toAnthropic(messages, { flattenTools: tools.length === 0 });
    const message = await client.messages.create({
      ...params,
      model,
      max_tokens,
      ...(system ? { system } : {}),
      messages: turns,
      // One transfer at a time: runTurn answers any later call of the same response with
      // "Not run: the conversation was transferred."
      ...(tools.length > 0 ? { tools, tool_choice: { type: 'auto', disable_parallel_tool_use: true } } : {}),
    });
    return fromAnthropic(message);
  };
}

// ---------------------------------------------------------------------------------------------
// A chat on the terminal

// Stands in for your own classifier: it sets session variables, and the rule edges route on
// them without a model call.
function classify(input) {
  if (!/invoice|refund|charge|bill/i.test(input)) return {};
  const amount = input.match(/\b\d+(?:\.\d+)?\b/);
  return amount === null ? { category: 'billing' } : { category: 'billing', amount: Number(amount[0]) };
}

async function main() {
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const client = new Anthropic(); // reads ANTHROPIC_API_KEY
  const model = anthropicModel(client, { model: process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-6' });

  await init();
  const swarm = new Swarm(definition);
  const session = swarm.createSession();

  const turn = async (input) => {
    const routed = swarm.updateState(session, classify(input));
    if (routed !== null) console.log(`  [${routed.from} → ${routed.to}: rule]`);
    for await (const event of swarm.runTurn(session, input, { model, toolFormat: 'anthropic' })) {
      if (event.type === 'chunk') console.log(`${swarm.agent(event.agent)?.name ?? event.agent}> ${event.text}`);
      else if (event.type === 'handoff') console.log(`  [${event.from} → ${event.to}: ${event.via}${event.reason ? `, ${event.reason}` : ''}]`);
      else if (event.type === 'handoff_blocked') console.log(`  [blocked: ${event.rejectionReason}]`);
      else if (event.type === 'tool_result' && event.outcome.type === 'rejected') console.log(`  [rejected: ${event.outcome.reason}]`);
    }
  };

  const scripted = process.argv.slice(2);
  if (scripted.length > 0) {
    for (const input of scripted) {
      console.log(`you> ${input}`);
      await turn(input);
    }
  } else {
    const terminal = createInterface({ input: process.stdin, output: process.stdout });
    for (let input; (input = (await terminal.question('you> ')).trim()) !== '' && input !== 'exit'; ) await turn(input);
    terminal.close();
  }
  console.log(`session: active ${session.active}, ${session.hops} hops, variables ${JSON.stringify(session.variables)}`);
  swarm.dispose();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
