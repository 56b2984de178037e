// init() of handoff-graph/router in Chromium (issue 21): the time from calling init() to its
// promise settling (fetching dist/handoff-graph-router.wasm from a local server with no-store,
// compiling and instantiating it), on fresh page loads in Debian's Chromium (playwright-core, as
// tests/browser/harness.mjs drives it), under the strict CSP of the other pages. The median of
// the loads is what scripts/size-report.mjs publishes. Each load is a new Chromium on a new profile
// (V8 keeps compiled modules in memory per process: a second page of the same browser compiles
// nothing), and the server sends Cache-Control: no-store.
//
//   node bench/router-init.mjs [--loads N]
import { launchBrowser, problems, runPage, using } from '../tests/browser/harness.mjs';
import { start } from '../tests/browser/server.mjs';

/** { medianMs, minMs, maxMs, loads, browser }: init() of the router entry over `loads` fresh pages. */
export async function measureRouterInit({ loads = 15 } = {}) {
  return using(async (use) => {
    const server = use(await start({ csp: "script-src 'self' 'wasm-unsafe-eval'" }));
    const times = [];
    let version = 'unknown';
    for (let i = 0; i < loads; i++) {
      const browser = await launchBrowser();
      let run;
      try {
        version = browser.version;
        run = await runPage(browser.context, `${server.url}tests/browser/router-init-page.html`);
      } finally {
        await browser.close();
      }
      const trouble = problems(run);
      if (trouble.length > 0 || !run.outcome.ok || run.outcome.value.route !== 'billing') {
        throw new Error(`router init page failed: ${run.outcome.error ?? JSON.stringify(trouble.length > 0 ? trouble : run.outcome.value)}`);
      }
      times.push(run.outcome.value.initMs);
    }
    times.sort((a, b) => a - b);
    const medianMs = loads % 2 === 1 ? times[(loads - 1) / 2] : (times[loads / 2 - 1] + times[loads / 2]) / 2;
    return { medianMs, minMs: times[0], maxMs: times.at(-1), loads, browser: version };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--loads');
  const result = await measureRouterInit({ loads: at > 0 ? Number(process.argv[at + 1]) : 15 });
  console.log(`handoff-graph/router init() in Chromium ${result.browser}: median ${result.medianMs.toFixed(1)} ms (min ${result.minMs.toFixed(1)}, max ${result.maxMs.toFixed(1)}) over ${result.loads} fresh page loads`);
}
