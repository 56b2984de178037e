// tests/vectors/fanout.json in Chromium (page.js mode=fanout), the package loaded as a browser user
// loads it; the same scenarios run natively (tests/cpp/fanout_test.cpp) and in Node.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { launchBrowser, problems, runPage, using } from './harness.mjs';
import { start } from './server.mjs';

const { scenarios } = JSON.parse(readFileSync(new URL('../vectors/fanout.json', import.meta.url), 'utf8'));

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
    t.diagnostic(`${scenarios.length} fan-out scenarios in Chromium (${browser.version})`);
  });
});
