// The route cases of bench/route.mjs, in a browser page: the package against the hand-written
// floors, json-logic-js, @marcbachmann/cel-js and filtrex, on the same cases and states, with the
// same agreement check first. bench/route.mjs bundles this file with esbuild (the engines), serves
// the repository and drives Chromium (playwright-core, /usr/bin/chromium); the package itself is
// loaded unbundled, as a browser user's ES modules are: /js/browser.js (handoff-graph, the full
// module) or, with ?entry=router, /js/router.js (handoff-graph/router, the routing module). The
// page settles window.__done (tests/browser/page-setup.js) with the results.
// Query: ?repetitions=7&targetMs=100&agreement=2000&entry=full|router
import { runRouteCases } from './route-cases.mjs';

const query = new URLSearchParams(location.search);
const options = {
  repetitions: Number(query.get('repetitions') ?? 7),
  targetMs: Number(query.get('targetMs') ?? 100),
  agreementStates: Number(query.get('agreement') ?? 2000),
};
const ENTRY = query.get('entry') === 'router' ? '/js/router.js' : '/js/browser.js';

async function run() {
  // A computed specifier: esbuild leaves it to the browser, which loads the package's own files.
  const api = await import(ENTRY);
  const started = performance.now();
  await api.init();
  const initMs = performance.now() - started;
  return { userAgent: navigator.userAgent, entry: ENTRY, initMs, ...runRouteCases(api, options) };
}

run().then(
  (value) => window.__finish({ ok: true, value }),
  (error) => window.__finish({ ok: false, error: String(error?.stack ?? error) }),
);
