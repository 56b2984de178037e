// One init() of handoff-graph/router on a fresh page, for bench/router-init.mjs: the entry is
// imported first (its JavaScript is not what is timed), then init() fetches the routing module
// (served with no-store, so never from a cache), compiles and instantiates it; one route proves
// it ran. Settles window.__done with { ok, value: { initMs, route } | error, violations }.
async function run() {
  const api = await import('/js/router.js');
  const started = performance.now();
  await api.init();
  const initMs = performance.now() - started;
  const g = new api.HandoffGraph().addEdge('triage', 'billing', "category == 'billing'").addEdge('triage', 'human');
  const route = g.route('triage', { category: 'billing' });
  g.dispose();
  return { initMs, route };
}

run()
  .then(
    (value) => ({ ok: true, value }),
    (e) => ({ ok: false, error: String(e?.stack ?? e) }),
  )
  .then((outcome) => window.__finish({ ...outcome, violations: window.__violations.slice() }));
