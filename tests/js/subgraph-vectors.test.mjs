// tests/vectors/subgraphs.json in Node, against the built package.
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import * as api from 'handoff-graph';
import { runSubgraphScenario } from './subgraph-runner.js';

await api.init();
const { scenarios } = JSON.parse(readFileSync(new URL('../vectors/subgraphs.json', import.meta.url), 'utf8'));
for (const scenario of scenarios) {
  test(`subgraph: ${scenario.name}`, () => runSubgraphScenario(api, scenario));
}
