// The seed's triage example: rules on edges decide who handles a ticket, with no LLM call.
import { init, HandoffGraph } from 'handoff-graph';

await init();
const graph = new HandoffGraph()
  .addEdge('triage', 'billing', "category == 'billing'")
  .addEdge('triage', 'support', { when: "category == 'support'", description: 'Support questions' })
  .addEdge('triage', 'escalations', "user.tier == 'gold' or (priority > 3 and 'urgent' in tags)")
  .addEdge('triage', 'human');

const tickets = [
  { category: 'billing' },
  { category: 'support' },
  { category: 'other', user: { tier: 'gold' } },
  { category: 'other', priority: 5, tags: ['urgent'] },
  { category: 'other', priority: 5, tags: [] },
];
for (const ticket of tickets) {
  console.log(`${JSON.stringify(ticket).padEnd(55)} -> ${graph.route('triage', ticket)}`);
}
graph.dispose();
