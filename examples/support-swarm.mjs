// The support swarm that examples/openai-swarm.mjs and examples/anthropic-swarm.mjs drive, each
// with its provider's official SDK: the triage swarm of docs/handoffs.md, a stand-in classifier
// whose variables the rule edges route on without a model call, and the chat on the terminal
// (the inputs given as arguments, or stdin). tests/js/examples.test.mjs runs both examples with
// the real SDKs against a local server that speaks their wire formats.
import { createInterface } from 'node:readline/promises';

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

// Stands in for your own classifier: it sets session variables, and the rule edges route on
// them without a model call.
export function classify(input) {
  if (!/invoice|refund|charge|bill/i.test(input)) return {};
  const amount = input.match(/\b\d+(?:\.\d+)?\b/);
  return amount === null ? { category: 'billing' } : { category: 'billing', amount: Number(amount[0]) };
}

/** Chats with the swarm through `model` (an adapter's model function): a turn per input. */
export async function chat(model) {
  await init();
  const swarm = new Swarm(definition);
  const session = swarm.createSession();

  const turn = async (input) => {
    const routed = swarm.updateState(session, classify(input));
    if (routed !== null) console.log(`  [${routed.from} → ${routed.to}: rule]`);
    let speaking = null; // the agent whose streamed text is being printed
    for await (const event of swarm.runTurn(session, input, { model })) {
      if (event.type === 'chunk') {
        if (speaking !== event.agent) process.stdout.write(`${speaking === null ? '' : '\n'}${swarm.agent(event.agent)?.name ?? event.agent}> `);
        speaking = event.agent;
        process.stdout.write(event.text);
        continue;
      }
      if (speaking !== null && event.type !== 'response') process.stdout.write('\n');
      if (event.type !== 'response') speaking = null;
      if (event.type === 'handoff') console.log(`  [${event.from} → ${event.to}: ${event.via}${event.reason ? `, ${event.reason}` : ''}]`);
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
