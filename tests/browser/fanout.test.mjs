// tests/vectors/fanout.json and subgraphs.json in Chromium (page.js mode=fanout), the package loaded
// as a browser user loads it; the same scenarios run natively (tests/cpp/fanout_test.cpp,
// subgraph_test.cpp) and in Node. Also: the Mermaid drawings of fan-outs and subgraphs parse.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { END, StateMachine, init } from 'handoff-graph';

import { launchBrowser, problems, runPage, using } from './harness.mjs';
import { start } from './server.mjs';

await init();

// The Mermaid page of tests/browser/mermaid.test.mjs, served by intercepting its URL.
const MERMAID_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mermaid exports</title><link rel="icon" href="data:,">
<script src="/tests/browser/page-setup.js"></script>
<script type="module" src="/tests/browser/mermaid-page.js"></script>
</head><body></body></html>`;

// A fan-out, a map and a subgraph (itself with a subgraph and a fan-out) with a run marked, in
// both Mermaid kinds.
async function fanOutDrawings() {
  const inner = new StateMachine({ name: 'inner team', start: 'fan' })
    .addFanOut('fan', ['x', 'y'])
    .addState('x')
    .addState('y')
    .addEdge('fan', END);
  const team = new StateMachine({ name: 'team "A"', start: 'work' })
    .addState('work')
    .addSubgraph('deeper', inner)
    .addEdge('work', 'deeper', 'go == true')
    .addEdge('work', END)
    .addEdge('deeper', END);
  const m = new StateMachine({ name: 'drawn', start: 'search' })
    .addFanOut('search', ['web', 'papers'])
    .addMap('each', 'one', { over: 'plan.docs' })
    .addSubgraph('delegate', team)
    .addState('web')
    .addState('papers')
    .addState('one')
    .addEdge('search', 'each')
    .addEdge('each', 'delegate')
    .addEdge('delegate', END);
  try {
    const run = await m.run({ plan: { docs: [1, 2] } });
    return [m.toMermaid({ highlight: run }), m.toMermaid({ kind: 'state', highlight: run })];
  } finally {
    m.dispose();
    team.dispose();
    inner.dispose();
  }
}

const { scenarios } = JSON.parse(readFileSync(new URL('../vectors/fanout.json', import.meta.url), 'utf8'));
const subgraphScenarios = JSON.parse(readFileSync(new URL('../vectors/subgraphs.json', import.meta.url), 'utf8')).scenarios;

test('fan-out vectors in Chromium', { timeout: 30_000 }, async (t) => {
  await using(async (use) => {
    const server = use(await start());
    const browser = use(await launchBrowser());
    const run = await runPage(browser.context, `${server.url}tests/browser/page.html?mode=fanout`);
    assert.deepEqual(problems(run), [], 'the page had errors');
    assert.equal(run.outcome.ok, true, run.outcome.error);
    const { failures } = run.outcome.value;
    assert.deepEqual(failures, [], `${failures.length} fan-out vector(s) failed in Chromium:\n${failures.map((f) => `  ${f.name}: ${f.message}`).join('\n')}`);
    assert.equal(run.outcome.value.run, scenarios.length, 'fan-out scenarios run');
    assert.equal(run.outcome.value.subgraphsRun, subgraphScenarios.length, 'subgraph scenarios run');
    t.diagnostic(`${scenarios.length} fan-out and ${subgraphScenarios.length} subgraph scenarios in Chromium (${browser.version})`);

    // The drawings of fan-outs parse in real Mermaid, as flowcharts and as state diagrams.
    const url = `${server.url}tests/browser/mermaid.html`;
    const page = await browser.context.newPage();
    use({ close: () => page.close() });
    await page.route(url, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: MERMAID_HTML }));
    await page.goto(url, { waitUntil: 'load' });
    const ready = await page.evaluate(() => window.__done);
    assert.equal(ready.ok, true, ready.error);
    const texts = await fanOutDrawings();
    const parsed = await page.evaluate((list) => window.__mermaid.parseAll(list), texts);
    assert.deepEqual(parsed.map((r) => r.ok), [true, true], JSON.stringify(parsed));
  });
});
