// The shared vectors on handoff-graph/router in Node: the routing module must give the full
// module's answers (tests/vectors/conditions.json and graphs.json, the files GoogleTest runs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import * as router from 'handoff-graph/router';
import { runConditionCase, runGraphScenario } from './vector-runner.js';

const load = (name) => JSON.parse(readFileSync(new URL(`../vectors/${name}`, import.meta.url), 'utf8'));

const started = performance.now();
await router.init();
const initMs = performance.now() - started;

test('handoff-graph/router loads the routing module, not the full one', (t) => {
  t.diagnostic(`router init() in Node: ${initMs.toFixed(1)} ms`);
  const g = new router.HandoffGraph().addEdge('a', 'b');
  assert.throws(() => g.toMermaid(), /handoff-graph\/router has no exports.*import them from 'handoff-graph'/);
  g.dispose();
});

test('the full entry refuses to start after the router, and says what to do', async () => {
  const full = await import('handoff-graph');
  await assert.rejects(full.init(), /handoff-graph\/router was initialized first/);
});

for (const c of load('conditions.json').cases) {
  test(`router condition: ${c.name}`, () => runConditionCase(router, c));
}
for (const scenario of load('graphs.json').scenarios) {
  test(`router graph: ${scenario.name}`, () => runGraphScenario(router, scenario));
}
