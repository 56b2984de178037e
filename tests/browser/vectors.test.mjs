// The shared vectors (tests/vectors/*.json) in Chromium, against the package loaded the way a
// browser user loads it: /js/browser.js, the .wasm fetched beside it via import.meta.url.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { launchBrowser, problems, responsesFor, runPage, using } from './harness.mjs';
import { start } from './server.mjs';

const load = (file) => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8'));
const conditions = load('../vectors/conditions.json').cases;
const scenarios = load('../vectors/graphs.json').scenarios;
const machines = load('../vectors/machines.json').scenarios;
const handoffs = load('../vectors/handoffs.json').scenarios;

test('vectors in Chromium', { timeout: 30_000 }, async (t) => {
  await using(async (use) => {
    const server = use(await start());
    const browser = use(await launchBrowser());
    t.diagnostic(`chromium ${browser.version}`);
    const page = (query) => `${server.url}tests/browser/page.html?${query}`;

    await t.test('every condition case and graph scenario passes', async (t) => {
      const run = await runPage(browser.context, page('mode=vectors'));
      assert.deepEqual(problems(run), [], 'the page had errors');
      assert.equal(run.outcome.ok, true, run.outcome.error);
      const { failures, conditionsRun, scenariosRun, machinesRun, handoffsRun, ms } = run.outcome.value;
      assert.deepEqual(
        failures,
        [],
        `${failures.length} vector(s) failed in Chromium:\n${failures.map((f) => `  ${f.kind}: ${f.name}: ${f.message}`).join('\n')}`,
      );
      assert.equal(conditionsRun, conditions.length, 'condition cases run');
      assert.equal(scenariosRun, scenarios.length, 'graph scenarios run');
      assert.equal(machinesRun, machines.length, 'machine scenarios run');
      assert.equal(handoffsRun, handoffs.length, 'handoff scenarios run');
      assert.ok(conditionsRun > 0 && scenariosRun > 0, 'no vectors found');

      // Loaded as a user loads it: the ESM entry, and the .wasm beside it as application/wasm.
      assert.equal(responsesFor(run, '/js/browser.js').length, 1, 'js/browser.js not loaded');
      const wasm = responsesFor(run, '/dist/handoff-graph.wasm');
      assert.equal(wasm.length, 1, 'the .wasm was not fetched exactly once');
      assert.equal(wasm[0].contentType, 'application/wasm');
      assert.deepEqual(run.outcome.violations, []);
      t.diagnostic(`${conditionsRun} condition cases, ${scenariosRun} graph scenarios and ${machinesRun} machine scenarios and ${handoffsRun} handoff scenarios in Chromium, ${ms.toFixed(0)} ms`);
    });

    // The page must report failing vectors, by name: run it on deliberately wrong ones.
    await t.test('a failing vector is reported by name (canary)', async () => {
      const run = await runPage(
        browser.context,
        page('mode=vectors&conditions=/tests/browser/canary/conditions.json&graphs=/tests/browser/canary/graphs.json&machines=/tests/browser/canary/machines.json&handoffs=/tests/browser/canary/handoffs.json'),
      );
      assert.deepEqual(problems(run), []);
      assert.equal(run.outcome.ok, true, run.outcome.error);
      const { failures, conditionsRun, scenariosRun } = run.outcome.value;
      assert.equal(conditionsRun, 3);
      assert.equal(scenariosRun, 1);
      assert.deepEqual(
        failures.map((f) => `${f.kind}: ${f.name}`),
        ['condition: canary: wrong evaluation', 'condition: canary: wrong error index', 'graph: canary: wrong route', 'machine: canary: wrong reason', 'handoff: canary: wrong outcome'],
      );
      for (const f of failures) assert.match(f.message, /expected/);
    });
  });
});
