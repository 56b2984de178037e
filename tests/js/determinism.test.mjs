// One semantics everywhere: the same seeded random conditions and states get the same answers
// natively (tests/cpp/evaluate_cases.cpp), in Node and in Chromium.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import * as api from 'handoff-graph';
import { launchBrowser, runPage, using } from '../browser/harness.mjs';
import { start } from '../browser/server.mjs';
import { answers, randomCases } from './random-cases.js';

await api.init();

const SEED = 20261122;
const COUNT = 3000;

test(`${COUNT} random conditions and states: native, Node and Chromium agree`, { timeout: 120_000 }, async (t) => {
  const cases = randomCases(SEED, COUNT);
  const node = answers(api, cases);
  const dir = mkdtempSync(join(tmpdir(), 'handoff-graph-determinism-'));
  let native;
  try {
    const file = join(dir, 'cases.json');
    writeFileSync(file, JSON.stringify(cases));
    native = JSON.parse(execFileSync(new URL('../../build/native/evaluate_cases', import.meta.url).pathname, [file], { encoding: 'utf8', maxBuffer: 1 << 26 }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  let chromium;
  await using(async (use) => {
    const server = use(await start());
    const browser = use(await launchBrowser());
    const run = await runPage(browser.context, `${server.url}tests/browser/page.html?mode=random&seed=${SEED}&count=${COUNT}`);
    assert.equal(run.outcome.ok, true, run.outcome.error);
    chromium = run.outcome.value;
  });
  const differ = (a, b) => cases.flatMap((c, i) => (a[i] === b[i] ? [] : [`${JSON.stringify(c)}: ${a[i]} vs ${b[i]}`]));
  assert.deepEqual(differ(node, native).slice(0, 5), [], 'Node vs native');
  assert.deepEqual(differ(node, chromium).slice(0, 5), [], 'Node vs Chromium');
  const counts = { true: node.filter((x) => x === true).length, false: node.filter((x) => x === false).length, errors: node.filter((x) => typeof x === 'string').length };
  t.diagnostic(`answers: ${counts.true} true, ${counts.false} false, ${counts.errors} syntax errors`);
  assert.ok(counts.true > 100 && counts.false > 100, 'the random cases exercise both outcomes');
});

test('random failed operations leave no trace', () => {
  const cases = randomCases(SEED + 1, 400);
  const g = new api.HandoffGraph();
  let rejected = 0;
  cases.forEach(({ condition }, i) => {
    const before = JSON.stringify(g.toJSON());
    const from = `n${i % 17}`;
    const to = `n${(i * 7 + 3) % 17}`;
    try {
      g.addEdge(from, to, condition);
    } catch (error) {
      assert.ok(error instanceof api.ConditionSyntaxError || error instanceof api.CycleError, String(error));
      assert.equal(JSON.stringify(g.toJSON()), before, 'a rejected edge changed the graph');
      rejected++;
    }
  });
  assert.ok(rejected > 10 && g.isDag());
});
