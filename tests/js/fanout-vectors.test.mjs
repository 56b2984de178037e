// tests/vectors/fanout.json in Node, against the built package.
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import * as api from 'handoff-graph';
import { runFanOutScenario } from './fanout-runner.js';

await api.init();
const { scenarios } = JSON.parse(readFileSync(new URL('../vectors/fanout.json', import.meta.url), 'utf8'));
for (const scenario of scenarios) {
  test(`fan-out: ${scenario.name}`, () => runFanOutScenario(api, scenario));
}
