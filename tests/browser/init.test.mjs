// init() in Chromium: from bytes the page fetched itself, and the error a user gets for
// forgetting `await init()`. Each runs in a fresh page: the module is loaded once per page.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { launchBrowser, problems, responsesFor, runPage, using } from './harness.mjs';
import { start } from './server.mjs';

const ROUTES = { billing: 'billing', other: 'human', empty: 'human' };

test('init in Chromium', { timeout: 30_000 }, async (t) => {
  await using(async (use) => {
    const server = use(await start());
    const browser = use(await launchBrowser());
    const page = (mode) => `${server.url}tests/browser/page.html?mode=${mode}`;

    await t.test('init({ wasm: ArrayBuffer }) uses the bytes and fetches nothing itself', async () => {
      const run = await runPage(browser.context, page('buffer'));
      assert.deepEqual(problems(run), []);
      assert.equal(run.outcome.ok, true, run.outcome.error);
      const { isArrayBuffer, byteLength, routes } = run.outcome.value;
      assert.equal(isArrayBuffer, true);
      assert.ok(byteLength > 0);
      assert.deepEqual(routes, ROUTES);
      // The page fetched the bytes as /dist/handoff-graph.wasm?fetched-by=page; the package must
      // not have fetched its default URL as well.
      const wasm = responsesFor(run, '/dist/handoff-graph.wasm').map((r) => new URL(r.url).search);
      assert.deepEqual(wasm, ['?fetched-by=page']);
    });

    await t.test('new HandoffGraph() before init() throws an Error that says `await init()`', async () => {
      const run = await runPage(browser.context, page('beforeInit'));
      assert.deepEqual(problems(run), []);
      assert.equal(run.outcome.ok, true, run.outcome.error);
      const { graphError, conditionError, routes } = run.outcome.value;
      assert.ok(graphError, 'new HandoffGraph() before init() did not throw');
      assert.equal(graphError.isError, true);
      assert.match(graphError.message, /await init\(\)/);
      assert.ok(conditionError, 'compileCondition() before init() did not throw');
      assert.match(conditionError.message, /await init\(\)/);
      assert.deepEqual(routes, ROUTES, 'after init() the same page routes');
    });
  });
});
