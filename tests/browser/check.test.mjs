// tests/vectors/check.json in Chromium (page.js mode=check): check() gives the same findings,
// witnesses and cases as natively and in Node.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { launchBrowser, problems, runPage, using } from './harness.mjs';
import { start } from './server.mjs';

const { scenarios } = JSON.parse(readFileSync(new URL('../vectors/check.json', import.meta.url), 'utf8'));

test('check vectors in Chromium', { timeout: 30_000 }, async (t) => {
  await using(async (use) => {
    const server = use(await start());
    const browser = use(await launchBrowser());
    const run = await runPage(browser.context, `${server.url}tests/browser/page.html?mode=check`);
    assert.deepEqual(problems(run), [], 'the page had errors');
    assert.equal(run.outcome.ok, true, run.outcome.error);
    const { failures } = run.outcome.value;
    assert.deepEqual(failures, [], `${failures.length} check vector(s) failed in Chromium:\n${failures.map((f) => `  ${f.name}: ${f.message}`).join('\n')}`);
    assert.equal(run.outcome.value.run, scenarios.length, 'check scenarios run');
    t.diagnostic(`${scenarios.length} check scenarios in Chromium (${browser.version})`);
  });
});
