// The shared vectors, in Node, against the built package (the same files GoogleTest runs).
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import * as api from 'handoff-graph';
import { runConditionCase, runGraphScenario } from './vector-runner.js';

const load = (name) => JSON.parse(readFileSync(new URL(`../vectors/${name}`, import.meta.url), 'utf8'));

await api.init();

for (const c of load('conditions.json').cases) {
  test(`condition: ${c.name}`, () => runConditionCase(api, c));
}
for (const scenario of load('graphs.json').scenarios) {
  test(`graph: ${scenario.name}`, () => runGraphScenario(api, scenario));
}
