// Runs one scenario of tests/vectors/check.json against the package `api` (Node or a browser):
// check() on the definition must report exactly the scenario's findings, witnesses and cases.
// Throws an Error saying what differs.

const text = (value) => JSON.stringify(value);

/** @param {any} api @param {any} scenario */
export function runCheckScenario(api, scenario) {
  const report = api.check(scenario.definition);
  const got = {
    ok: report.ok,
    findings: report.findings.map((f) => `${f.code}@${f.pointer}`),
    witnesses: Object.fromEntries(report.findings.filter((f) => f.witness !== undefined).map((f) => [f.pointer, f.witness])),
    cases: Object.fromEntries(report.cases.map((c) => [c.pointer, c.state])),
  };
  for (const key of ['ok', 'findings', 'witnesses', 'cases']) {
    if (text(got[key]) !== text(scenario[key])) throw new Error(`${key}: expected ${text(scenario[key])}, got ${text(got[key])}`);
  }
  // Every witness and case does what it says, routed by the package itself where the target is a graph.
  if (scenario.definition.format === 'handoff-graph') {
    const graph = api.HandoffGraph.fromJSON(scenario.definition);
    try {
      for (const c of report.cases) {
        const routed = graph.route(c.node, c.state);
        if (routed !== c.to) throw new Error(`case ${c.pointer}: route(${text(c.node)}, ${text(c.state)}) gave ${text(routed)}, not ${text(c.to)}`);
      }
      for (const f of report.findings) {
        if (f.code === 'no-match' && graph.route(f.node, f.witness) !== null) throw new Error(`the witness of ${f.pointer} matches an edge`);
      }
    } finally {
      graph.dispose();
    }
  }
}
