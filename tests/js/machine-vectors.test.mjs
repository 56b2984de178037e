// tests/vectors/machines.json in Node, against the built package.
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import * as api from 'handoff-graph';
import { runMachineScenario } from './machine-runner.js';

await api.init();
const { scenarios } = JSON.parse(readFileSync(new URL('../vectors/machines.json', import.meta.url), 'utf8'));
for (const scenario of scenarios) {
  test(`machine: ${scenario.name}`, () => runMachineScenario(api, scenario));
}
