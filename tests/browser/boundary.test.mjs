// The boundary's promises (tests/js/boundary-cases.js) in Chromium: the same cases as in Node.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { boundaryCases } from '../js/boundary-cases.js';
import { launchBrowser, problems, runPage, using } from './harness.mjs';
import { start } from './server.mjs';

test('boundary cases in Chromium', { timeout: 30_000 }, async () => {
  await using(async (use) => {
    const server = use(await start());
    const browser = use(await launchBrowser());
    const run = await runPage(browser.context, `${server.url}tests/browser/page.html?mode=boundary`);
    assert.deepEqual(problems(run), [], 'the page had errors');
    assert.equal(run.outcome.ok, true, run.outcome.error);
    assert.deepEqual(run.outcome.value.failures, []);
    assert.equal(run.outcome.value.run, boundaryCases.length);
  });
});
