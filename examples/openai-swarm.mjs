// The triage swarm of docs/handoffs.md, driven by the official `openai` client.
//
// Swarm.runTurn() calls `model({ agent, messages, tools })` once per model call and expects
// `{ text, toolCalls }` back. This file is that function for the Chat Completions API (the
// default) and for the Responses API: it converts the swarm's messages to the API's, passes the
// transfer tools through untouched (swarm.tools() already emits the API's shape), and converts
// the API's answer back.
//
//   npm install openai
//   OPENAI_API_KEY=… node examples/openai-swarm.mjs                      # chat on stdin
//   OPENAI_API_KEY=… node examples/openai-swarm.mjs "I want a refund of 250 for invoice 7"
//   OPENAI_API=responses OPENAI_MODEL=gpt-4.1 node examples/openai-swarm.mjs
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

// The swarm's tool calls carry `arguments` as the model sent them: JSON text from OpenAI, an
// object from Anthropic or a scripted model. OpenAI wants the text.
const argumentsText = (args) => (typeof args === 'string' ? args : JSON.stringify(args ?? {}));

// ---------------------------------------------------------------------------------------------
// Chat Completions (toolFormat 'openai-chat', the default)

/** Swarm messages → ChatCompletionMessageParam[]. */
export function toChatMessages(messages) {
  return messages.map((m) => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content };
      case 'user':
        return { role: 'user', content: m.content };
      case 'assistant':
        if (!m.toolCalls?.length) return { role: 'assistant', content: m.content };
        return {
          role: 'assistant',
          content: m.content || null,
          tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: argumentsText(c.arguments) } })),
        };
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
      default:
        throw new Error(`unexpected message role '${m.role}'`);
    }
  });
}

/** ChatCompletion → { text, toolCalls }. */
export function fromChatCompletion(completion) {
  const message = completion.choices[0]?.message;
  if (message === undefined) return { text: '' };
  return {
    text: message.content ?? message.refusal ?? '',
    toolCalls: (message.tool_calls ?? [])
      .filter((call) => call.type === 'function')
      .map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })),
  };
}

/** A runTurn `model` function on client.chat.completions. */
export function chatModel(client, { model = 'gpt-4.1-mini', ...params } = {}) {
  return async ({ messages, tools }) => {
    const completion = await client.chat.completions.create({
      ...params,
      model,
      messages: toChatMessages(messages),
      // An empty `tools` array is refused by the API: leave it out when nothing is offered.
      // One call at a time: a transfer ends the agent's part, and runTurn answers any later
      // call of the same response with "Not run: the conversation was transferred."
      ...(tools.length > 0 ? { tools, parallel_tool_calls: false } : {}),
    });
    return fromChatCompletion(completion);
  };
}

// ---------------------------------------------------------------------------------------------
// Responses API (toolFormat 'openai-responses')

/** Swarm messages → ResponseInputItem[] (stateless: the whole history every call). */
export function toResponsesInput(messages) {
  const input = [];
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'user') {
      input.push({ role: m.role, content: m.content });
    } else if (m.role === 'assistant') {
      if (m.content) input.push({ role: 'assistant', content: m.content });
      for (const c of m.toolCalls ?? []) {
        input.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: argumentsText(c.arguments) });
      }
    } else if (m.role === 'tool') {
      input.push({ type: 'function_call_output', call_id: m.toolCallId, output: m.content });
    } else {
      throw new Error(`unexpected message role '${m.role}'`);
    }
  }
  return input;
}

/** Response → { text, toolCalls }. */
export function fromResponse(response) {
  return {
    text: response.output_text,
    toolCalls: response.output
      .filter((item) => item.type === 'function_call')
      .map((item) => ({ id: item.call_id, name: item.name, arguments: item.arguments })),
  };
}

/** A runTurn `model` function on client.responses (use with toolFormat: 'openai-responses'). */
export function responsesModel(client, { model = 'gpt-4.1-mini', ...params } = {}) {
  return async ({ messages, tools }) => {
    const response = await client.responses.create({
      ...params,
      model,
      input: toResponsesInput(messages),
      store: false,
      ...(tools.length > 0 ? { tools, parallel_tool_calls: false } : {}),
    });
    return fromResponse(response);
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
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI(); // reads OPENAI_API_KEY
  const responses = process.env.OPENAI_API === 'responses';
  const options = { model: process.env.OPENAI_MODEL ?? 'gpt-4.1-mini' };
  const model = responses ? responsesModel(client, options) : chatModel(client, options);
  const toolFormat = responses ? 'openai-responses' : 'openai-chat';

  await init();
  const swarm = new Swarm(definition);
  const session = swarm.createSession();

  const turn = async (input) => {
    const routed = swarm.updateState(session, classify(input));
    if (routed !== null) console.log(`  [${routed.from} → ${routed.to}: rule]`);
    for await (const event of swarm.runTurn(session, input, { model, toolFormat })) {
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
