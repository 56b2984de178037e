// The router page's module: loads handoff-graph/router as a browser user does (/js/router.js, the
// routing module fetched beside the package), times init(), runs the shared condition and graph
// vectors, and settles window.__done with { ok, value | error, violations }.
async function getJSON(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return response.json();
}

async function run() {
  const api = await import('/js/router.js');
  const started = performance.now();
  await api.init();
  const initMs = performance.now() - started;
  const { runConditionCase, runGraphScenario } = await import('/tests/js/vector-runner.js');
  const [conditions, graphs] = await Promise.all([getJSON('/tests/vectors/conditions.json'), getJSON('/tests/vectors/graphs.json')]);
  const failures = [];
  for (const c of conditions.cases) {
    try {
      runConditionCase(api, c);
    } catch (e) {
      failures.push({ kind: 'condition', name: c.name, message: String(e?.message ?? e) });
    }
  }
  for (const scenario of graphs.scenarios) {
    try {
      runGraphScenario(api, scenario);
    } catch (e) {
      failures.push({ kind: 'graph', name: scenario.name, message: String(e?.message ?? e) });
    }
  }
  return { initMs, failures, conditionsRun: conditions.cases.length, scenariosRun: graphs.scenarios.length };
}

run()
  .then(
    (value) => ({ ok: true, value }),
    (e) => ({ ok: false, error: String(e?.stack ?? e) }),
  )
  .then(async (outcome) => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    window.__finish({ ...outcome, violations: window.__violations.slice() });
  });
