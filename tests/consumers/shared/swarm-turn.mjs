// The README's swarm example (a handoff the model asks for, refused until a variable is known,
// then an answer), run by the consumers of the matrix that run whole programs on other runtimes
// (Bun, Deno, workerd, edge-runtime: tests/consumers). `SWARM_EXPECTED` is what each must report.
export const SWARM_EXPECTED = {
  offered: [{ name: 'transfer_to_human', to: 'human' }],
  blocked: 'Cannot transfer to Human operator yet: the conversation has not established ticketId. Provide what is missing or correct, then call transfer_to_human again.',
  done: 'triage: Which ticket is this about?',
};

/** One turn with a scripted model; `Swarm` comes from the entry under test. */
export async function swarmTurn(Swarm) {
  const swarm = new Swarm({
    agents: [
      { id: 'triage', entry: true, instructions: 'Route the customer.' },
      { id: 'billing', instructions: 'Handle invoices.' },
      { id: 'human', name: 'Human operator' },
    ],
    edges: [
      { from: 'triage', to: 'billing', when: "category == 'billing'" },
      { from: 'triage', to: 'human', description: 'The customer needs a person', requires: ['ticketId'] },
    ],
  });
  const session = swarm.createSession();
  const offered = swarm.offered(session);
  const answers = [
    { toolCalls: [{ id: 'c1', name: 'transfer_to_human', arguments: {} }] },
    { text: 'Which ticket is this about?' },
  ];
  const model = async () => answers.shift();
  let blocked = null;
  let done = null;
  for await (const event of swarm.runTurn(session, 'I want to talk to someone', { model })) {
    if (event.type === 'handoff_blocked') blocked = event.rejectionReason;
    if (event.type === 'done') done = `${event.agent}: ${event.text}`;
  }
  return { offered, blocked, done };
}
