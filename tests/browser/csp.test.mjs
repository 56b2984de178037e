// The package under a strict Content-Security-Policy, as a site that forbids eval serves it:
// script-src 'self' 'wasm-unsafe-eval' (no 'unsafe-eval', no inline script).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { launchBrowser, problems, runPage, using } from './harness.mjs';
import { start } from './server.mjs';

const STRICT = "script-src 'self' 'wasm-unsafe-eval'";
const isCspMessage = (m) => /content.security.policy|refused to/i.test(m.text);

test('Content-Security-Policy in Chromium', { timeout: 30_000 }, async (t) => {
  await using(async (use) => {
    const strict = use(await start({ csp: STRICT }));
    const browser = use(await launchBrowser());
    const page = (server, mode) => `${server.url}tests/browser/page.html?mode=${mode}`;

    await t.test(`${STRICT}: init() and route the triage example with no violation`, async () => {
      const run = await runPage(browser.context, page(strict, 'triage'));
      assert.equal(run.documentHeaders['content-security-policy'], STRICT, 'the page was not served with the CSP');
      assert.deepEqual(run.outcome.violations, [], 'securitypolicyviolation events');
      assert.deepEqual(run.console.filter(isCspMessage), [], 'CSP console messages');
      assert.deepEqual(problems(run), []);
      assert.equal(run.outcome.ok, true, run.outcome.error);
      assert.deepEqual(run.outcome.value.routes, { billing: 'billing', other: 'human', empty: 'human' });
    });

    // The control: the same page and header refuse eval and report it, so the test above would
    // see a violation if the package (or its Emscripten glue) evaluated a string.
    await t.test('control: the policy is enforced and its violations are seen', async () => {
      const run = await runPage(browser.context, page(strict, 'cspProbe'));
      assert.equal(run.outcome.ok, true, run.outcome.error);
      assert.equal(run.outcome.value.evalAllowed, false, 'new Function() ran under the CSP');
      assert.equal(run.outcome.value.error.name, 'EvalError');
      assert.ok(run.outcome.violations.some((v) => v.directive === 'script-src'), JSON.stringify(run.outcome.violations));
    });

    // Documents why 'wasm-unsafe-eval' is needed: without it init() rejects (it must not hang),
    // saying what to allow.
    await t.test("without 'wasm-unsafe-eval' init() rejects", async () => {
      const bare = use(await start({ csp: "script-src 'self'" }));
      const run = await runPage(browser.context, page(bare, 'triage'));
      assert.equal(run.outcome.ok, false, 'init() succeeded without wasm-unsafe-eval');
      assert.match(run.outcome.error, /CompileError|WebAssembly/);
      // The advice that works there (not init({ wasm }) or handoff-graph/inline, which compile too).
      assert.match(run.outcome.error, /Content-Security-Policy refuses to compile WebAssembly: allow it with script-src 'wasm-unsafe-eval'/);
      assert.ok(run.outcome.violations.some((v) => v.directive === 'script-src' || v.directive === 'wasm-eval'));
    });
  });
});
