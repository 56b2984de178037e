// tests/vectors/handoffs.json in Node, against the built package.
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import * as api from 'handoff-graph';
import { runHandoffScenario } from './handoff-runner.js';

await api.init();
const { scenarios } = JSON.parse(readFileSync(new URL('../vectors/handoffs.json', import.meta.url), 'utf8'));
for (const scenario of scenarios) {
  test(`handoff: ${scenario.name}`, () => runHandoffScenario(api, scenario));
}
