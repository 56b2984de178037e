// The README's triage example, which every consumer of the matrix routes (tests/consumers): copied
// into each fixture project beside its own code, so that the fixture imports only 'handoff-graph'
// and this file. `EXPECTED` is the answer each must give.
export const EXPECTED = { billing: 'billing', support: 'support', other: 'human' };

/** Routes the three tickets through the README's graph; `HandoffGraph` comes from the entry under test. */
export function triage(HandoffGraph) {
  const g = new HandoffGraph();
  g.addEdge('triage', 'billing', "category == 'billing'");
  g.addEdge('triage', 'support', { when: "category == 'support'", description: 'Support questions' });
  g.addEdge('triage', 'human');
  const routes = {
    billing: g.route('triage', { category: 'billing' }),
    support: g.route('triage', { category: 'support' }),
    other: g.route('triage', { category: 'other' }),
  };
  g.dispose();
  return routes;
}
