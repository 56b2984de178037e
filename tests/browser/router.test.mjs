// handoff-graph/router in Chromium: the shared vectors on the routing module, loaded as a browser
// user loads it (/js/router.js, dist/handoff-graph-router.wasm fetched beside it, never the full
// module), under the strict CSP the other pages use. init()'s time is printed, not asserted.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { launchBrowser, problems, responsesFor, runPage, using } from './harness.mjs';
import { start } from './server.mjs';

const load = (file) => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8'));

test('handoff-graph/router in Chromium: the vectors pass on the routing module', { timeout: 30_000 }, async (t) => {
  await using(async (use) => {
    const server = use(await start({ csp: "script-src 'self' 'wasm-unsafe-eval'" }));
    const browser = use(await launchBrowser());
    const run = await runPage(browser.context, `${server.url}tests/browser/router-page.html`);
    assert.deepEqual(problems(run), [], 'the page had errors');
    assert.equal(run.outcome.ok, true, run.outcome.error);
    const { failures, conditionsRun, scenariosRun, initMs } = run.outcome.value;
    assert.deepEqual(failures, [], failures.map((f) => `${f.kind}: ${f.name}: ${f.message}`).join('\n'));
    assert.equal(conditionsRun, load('../vectors/conditions.json').cases.length);
    assert.equal(scenariosRun, load('../vectors/graphs.json').scenarios.length);
    const wasm = responsesFor(run, '/dist/handoff-graph-router.wasm');
    assert.equal(wasm.length, 1, 'the routing module was not fetched exactly once');
    assert.equal(wasm[0].contentType, 'application/wasm');
    assert.equal(responsesFor(run, '/dist/handoff-graph.wasm').length, 0, 'the full module was fetched');
    assert.equal(responsesFor(run, '/dist/handoff-graph.mjs').length, 0, 'the full glue was fetched');
    assert.deepEqual(run.outcome.violations, []);
    t.diagnostic(`chromium ${browser.version}: router init() ${initMs.toFixed(1)} ms; ${conditionsRun} condition cases, ${scenariosRun} graph scenarios`);
  });
});
