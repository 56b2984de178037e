// The page's module (page.html?mode=NAME). It loads the package the way a browser user does, from
// /js/browser.js with the .wasm fetched beside it, does what the mode says, and settles
// window.__done with { ok, value | error, violations }. Vector failures are collected, not thrown,
// so the Node side can report every one by name.
const params = new URLSearchParams(location.search);
const mode = params.get('mode');
const PACKAGE = '/js/browser.js';

async function getJSON(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return response.json();
}

/** The README's triage example, reduced: a conditional edge and a default. */
function triage(api) {
  const g = new api.HandoffGraph();
  try {
    g.addEdge('triage', 'billing', "category == 'billing'");
    g.addEdge('triage', 'human');
    return {
      billing: g.route('triage', { category: 'billing' }),
      other: g.route('triage', { category: 'other' }),
      empty: g.route('triage', {}),
    };
  } finally {
    g.dispose();
  }
}

function describeError(e) {
  return { isError: e instanceof Error, name: e?.name, message: e?.message ?? String(e) };
}

const modes = {
  async vectors() {
    const api = await import(PACKAGE);
    await api.init();
    const { runConditionCase, runGraphScenario } = await import('/tests/js/vector-runner.js');
    const { runMachineScenario } = await import('/tests/js/machine-runner.js');
    const { runHandoffScenario } = await import('/tests/js/handoff-runner.js');
    const [conditions, graphs, machines, handoffs] = await Promise.all([
      getJSON(params.get('conditions') ?? '/tests/vectors/conditions.json'),
      getJSON(params.get('graphs') ?? '/tests/vectors/graphs.json'),
      getJSON(params.get('machines') ?? '/tests/vectors/machines.json'),
      getJSON(params.get('handoffs') ?? '/tests/vectors/handoffs.json'),
    ]);
    const failures = [];
    const started = performance.now();
    let conditionsRun = 0;
    for (const c of conditions.cases) {
      try {
        runConditionCase(api, c);
      } catch (e) {
        failures.push({ kind: 'condition', name: c.name, message: String(e?.message ?? e) });
      }
      conditionsRun += 1;
    }
    let scenariosRun = 0;
    for (const scenario of graphs.scenarios) {
      try {
        runGraphScenario(api, scenario);
      } catch (e) {
        failures.push({ kind: 'graph', name: scenario.name, message: String(e?.message ?? e) });
      }
      scenariosRun += 1;
    }
    let machinesRun = 0;
    for (const scenario of machines.scenarios) {
      try {
        await runMachineScenario(api, scenario);
      } catch (e) {
        failures.push({ kind: 'machine', name: scenario.name, message: String(e?.message ?? e) });
      }
      machinesRun += 1;
    }
    let handoffsRun = 0;
    for (const scenario of handoffs.scenarios) {
      try {
        runHandoffScenario(api, scenario);
      } catch (e) {
        failures.push({ kind: 'handoff', name: scenario.name, message: String(e?.message ?? e) });
      }
      handoffsRun += 1;
    }
    return { conditionsRun, scenariosRun, machinesRun, handoffsRun, failures, ms: performance.now() - started };
  },

  // tests/vectors/check.json: check()'s findings, witnesses and cases, as natively and in Node.
  async check() {
    const api = await import(PACKAGE);
    await api.init();
    const { runCheckScenario } = await import('/tests/js/check-runner.js');
    const { scenarios } = await getJSON('/tests/vectors/check.json');
    const failures = [];
    for (const scenario of scenarios) {
      try {
        runCheckScenario(api, scenario);
      } catch (e) {
        failures.push({ name: scenario.name, message: String(e?.message ?? e) });
      }
    }
    return { run: scenarios.length, failures };
  },

  // tests/vectors/fanout.json and subgraphs.json: branches run concurrently in the browser's
  // event loop too, subgraphs nest.
  async fanout() {
    const api = await import(PACKAGE);
    await api.init();
    const { runFanOutScenario } = await import('/tests/js/fanout-runner.js');
    const { runSubgraphScenario } = await import('/tests/js/subgraph-runner.js');
    const fanOuts = (await getJSON('/tests/vectors/fanout.json')).scenarios;
    const subgraphs = (await getJSON('/tests/vectors/subgraphs.json')).scenarios;
    const failures = [];
    for (const [scenarios, runScenario] of [[fanOuts, runFanOutScenario], [subgraphs, runSubgraphScenario]]) {
      for (const scenario of scenarios) {
        try {
          await runScenario(api, scenario);
        } catch (e) {
          failures.push({ name: scenario.name, message: String(e?.message ?? e) });
        }
      }
    }
    return { run: fanOuts.length, subgraphsRun: subgraphs.length, failures };
  },

  // The boundary's promises (tests/js/boundary-cases.js), the same cases Node runs.
  async boundary() {
    const api = await import(PACKAGE);
    await api.init();
    const { boundaryCases } = await import('/tests/js/boundary-cases.js');
    const failures = [];
    for (const c of boundaryCases) {
      try {
        await c.run(api);
      } catch (e) {
        failures.push({ name: c.name, message: String(e?.message ?? e) });
      }
    }
    return { run: boundaryCases.length, failures };
  },

  // The seeded random cases of tests/js/random-cases.js, answered in the page.
  async random() {
    const api = await import(PACKAGE);
    await api.init();
    const { randomCases, answers } = await import('/tests/js/random-cases.js');
    return answers(api, randomCases(Number(params.get('seed')), Number(params.get('count'))));
  },

  async triage() {
    const api = await import(PACKAGE);
    await api.init();
    return { routes: triage(api) };
  },

  // init({ wasm: ArrayBuffer }): the bytes come from a URL the package never uses by itself
  // (the query string), so the Node side can tell that the package fetched nothing.
  async buffer() {
    const response = await fetch('/dist/handoff-graph.wasm?fetched-by=page');
    if (!response.ok) throw new Error(`wasm: HTTP ${response.status}`);
    const bytes = await response.arrayBuffer();
    const api = await import(PACKAGE);
    await api.init({ wasm: bytes });
    return { isArrayBuffer: bytes instanceof ArrayBuffer, byteLength: bytes.byteLength, routes: triage(api) };
  },

  async beforeInit() {
    const api = await import(PACKAGE);
    const attempt = (fn) => {
      try {
        fn();
        return null;
      } catch (e) {
        return describeError(e);
      }
    };
    const graphError = attempt(() => new api.HandoffGraph());
    const conditionError = attempt(() => api.compileCondition("category == 'billing'"));
    await api.init();
    return { graphError, conditionError, routes: triage(api) };
  },

  // The control for the CSP test: string evaluation must be refused and reported, which shows
  // that the header is enforced and that page-setup.js sees violations.
  async cspProbe() {
    try {
      // eslint-disable-next-line no-new-func
      return { evalAllowed: new Function('return 1')() === 1 };
    } catch (e) {
      return { evalAllowed: false, error: describeError(e) };
    }
  },
};

(async () => {
  if (!Object.hasOwn(modes, mode)) throw new Error(`unknown mode ${JSON.stringify(mode)}`);
  return modes[mode]();
})()
  .then(
    (value) => ({ ok: true, value }),
    (e) => ({ ok: false, error: String(e?.stack ?? e) }),
  )
  .then(async (outcome) => {
    // securitypolicyviolation events are queued as tasks: let them arrive before reporting.
    await new Promise((resolve) => setTimeout(resolve, 50));
    window.__finish({ ...outcome, violations: window.__violations.slice() });
  });
