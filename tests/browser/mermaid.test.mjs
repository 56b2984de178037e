// Mermaid exports through mermaid's own parser and renderer, in Chromium: the npm package's ESM
// bundle is served from node_modules by the test server (no CDN), every golden Mermaid file and
// hundreds of random hostile graphs and machines (tests/golden/hostile.mjs) in both kinds must
// parse, and a few are rendered to SVG to prove the escaping shows the right characters.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { init, HandoffGraph, StateMachine, Swarm } from 'handoff-graph';

import { randomCase } from '../golden/hostile.mjs';
import { launchBrowser, problems, using } from './harness.mjs';
import { start } from './server.mjs';

await init();

const GOLDEN = new URL('../golden/', import.meta.url);
const golden = (file) => readFileSync(new URL(file, GOLDEN), 'utf8');
const GOLDEN_MERMAID = readdirSync(GOLDEN).filter((f) => f.endsWith('.mmd')).sort();
const MERMAID_VERSION = JSON.parse(readFileSync(new URL('../../node_modules/mermaid/package.json', import.meta.url), 'utf8')).version;

const RANDOM_SEED = 20_240_906;
const RANDOM_CASES = 300;  // graphs and machines alternate; each is parsed in both kinds
const DIRECTIONS = ['TD', 'TB', 'BT', 'LR', 'RL'];

// The page: page-setup.js (window.__done) and the page module; served by intercepting its URL,
// so the repository needs no HTML file for it.
const HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mermaid exports</title><link rel="icon" href="data:,">
<script src="/tests/browser/page-setup.js"></script>
<script type="module" src="/tests/browser/mermaid-page.js"></script>
</head><body></body></html>`;

function load(definition) {
  if (definition.format === 'handoff-graph') return HandoffGraph.fromJSON(definition);
  const reducers = {};
  for (const [key, reducer] of Object.entries(definition.reducers ?? {})) if (reducer === 'custom') reducers[key] = (_, update) => update;
  return StateMachine.fromJSON(definition, { reducers });
}

/**
 * A swarm's flowchart (swarm.toMermaid: rule, LLM, hybrid and continuation edges, the session's
 * active agent and handoffs marked), with its DAG model, for the renders below.
 */
function swarmMermaid() {
  const swarm = new Swarm({
    name: 'support',
    agents: [{ id: 'triage', entry: true, handoffs: 1, description: 'Sorts requests' }, { id: 'billing' }, { id: 'human', name: 'Human operator' }, { id: 'closer' }],
    edges: [
      { from: 'triage', to: 'billing', when: "category == 'billing'" },
      { from: 'triage', to: 'human' },
      { from: 'billing', to: 'human', when: 'amount > 100', offer: true },
      { from: 'triage', to: 'closer', continuation: true },
    ],
  });
  try {
    const session = swarm.createSession({ variables: { category: 'billing', amount: 500 } });
    swarm.applyRules(session);
    return { what: 'swarm flowchart', kind: 'flowchart', text: swarm.toMermaid({ session, direction: 'LR' }), dag: swarm.toDag({ session }) };
  } finally {
    swarm.dispose();
  }
}

/** Both Mermaid kinds of random case `index`, with its trace marked, and its DAG model. */
function randomMermaid(index) {
  const { definition, trace } = randomCase(RANDOM_SEED, index);
  const x = load(definition);
  try {
    const direction = DIRECTIONS[index % DIRECTIONS.length];
    return {
      what: `randomCase(${RANDOM_SEED}, ${index})`,
      dag: x.toDag({ highlight: trace }),
      flowchart: x.toMermaid({ kind: 'flowchart', direction, highlight: trace }),
      state: x.toMermaid({ kind: 'state', direction, highlight: trace }),
    };
  } finally {
    x.dispose();
  }
}

// What Mermaid shows for a label: the exporter writes control characters (but the newline, a
// line break), C1 controls and U+2028/U+2029 as spaces (docs/format.md); HTML collapses runs of
// white space, and Mermaid trims each line.
const shown = (s) => s.replace(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]/g, ' ');
const squash = (s) => s.replace(/[\s\u200b]+/gu, ' ').trim();

/** The label lines a drawing of `dag` must show, in the given kind. */
function expectedLines(dag, kind) {
  const labels = [];
  for (const n of dag.nodes) {
    if (kind === 'state' && n.type === 'end') continue;  // END is the [*] end marker there
    labels.push({ what: `node ${JSON.stringify(n.id)}`, text: n.type === 'end' ? 'END' : n.id });
  }
  for (const [i, e] of dag.edges.entries()) {
    let text = e.when ?? e.description ?? '';
    if (kind === 'state' && e.fired) text += `${text === '' ? '' : ' '}(fired ×${e.firedCount})`;
    if (text !== '') labels.push({ what: `edge ${i}`, text });
  }
  const lines = [];
  for (const { what, text } of labels) {
    for (const line of shown(text).split('\n')) if (squash(line) !== '') lines.push({ what, line: squash(line), multiline: text.includes('\n') });
  }
  return lines;
}

// Rendering problems found by these tests and reported to the core (exact inputs in the golden
// hostile-graph and hostile-machine files). A label line that is not shown and matches one of
// these is listed by that problem's TODO subtest instead of failing the run; any other is a failure.
// Fixed in the core ('$', '*', '_', '~' written as entity codes), so no longer listed here:
// '$$…$$' typeset as math, *x* / _x_ drawn as emphasis in state diagrams, and a backslash lost
// in a multi-line state name (written twice there).
const KNOWN = {
  backslashN: { title: 'a multi-line flowchart node label shows a backslash + n as written', fix: 'Mermaid breaks the line there, even for #92;#110;' },
};

function knownProblem(kind, m) {
  const node = m.what.startsWith('node');
  if (kind === 'flowchart' && node && m.multiline && m.line.includes('\\n')) return 'backslashN';
  return null;
}

test('Mermaid exports parse and render in Chromium with the mermaid package', { timeout: 60_000 }, async (t) => {
  await using(async (use) => {
    const server = use(await start());
    const browser = use(await launchBrowser());
    // Two pages (Chromium gives each its own renderer process), so parsing uses both cores.
    const log = { console: [], pageErrors: [], responses: [], failedRequests: [] };
    const url = `${server.url}tests/browser/mermaid.html`;
    let started = performance.now();
    const pages = await Promise.all([0, 1].map(async () => {
      const page = await browser.context.newPage();
      use({ close: () => page.close() });
      page.on('console', (m) => log.console.push({ type: m.type(), text: m.text() }));
      page.on('pageerror', (e) => log.pageErrors.push(String(e?.stack ?? e)));
      page.on('response', (r) => log.responses.push({ url: r.url(), status: r.status() }));
      page.on('requestfailed', (r) => log.failedRequests.push({ url: r.url(), error: r.failure()?.errorText }));
      await page.route(url, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: HTML }));
      await page.goto(url, { waitUntil: 'load' });
      const ready = await page.evaluate(() => window.__done);
      assert.equal(ready.ok, true, ready.error);
      return page;
    }));
    const bundle = log.responses.find((r) => new URL(r.url).pathname === '/node_modules/mermaid/dist/mermaid.esm.min.mjs');
    assert.equal(bundle?.status, 200, 'mermaid was not loaded from node_modules');
    assert.ok(log.responses.every((r) => r.url.startsWith(server.url)), 'a request left the test server');
    t.diagnostic(`chromium ${browser.version}, mermaid ${MERMAID_VERSION} loaded in ${(performance.now() - started).toFixed(0)} ms (2 pages)`);

    // Calls window.__mermaid[method] on the texts, shared out between the pages; results in order.
    const onPages = async (method, texts) => {
      const shares = await Promise.all(pages.map((page, p) =>
        page.evaluate(([m, list]) => window.__mermaid[m](list), [method, texts.filter((_, i) => i % pages.length === p)])));
      return texts.map((_, i) => shares[i % pages.length][Math.floor(i / pages.length)]);
    };
    const parseAll = (texts) => onPages('parseAll', texts);
    const renderAll = (texts) => onPages('renderAll', texts);

    await t.test(`every golden Mermaid file parses (${GOLDEN_MERMAID.length} files)`, async () => {
      assert.ok(GOLDEN_MERMAID.length >= 16, 'golden Mermaid files');
      const results = await parseAll(GOLDEN_MERMAID.map(golden));
      const failures = GOLDEN_MERMAID.flatMap((f, i) => (results[i].ok ? [] : [`${f}: ${results[i].error}`]));
      assert.deepEqual(failures, []);
      GOLDEN_MERMAID.forEach((f, i) => assert.equal(results[i].type, f.endsWith('.state.mmd') ? 'stateDiagram' : 'flowchart-v2', f));
    });

    const cases = Array.from({ length: RANDOM_CASES }, (_, i) => randomMermaid(i));
    await t.test(`${RANDOM_CASES} random hostile graphs and machines parse as flowcharts and as state diagrams`, async (t) => {
      started = performance.now();
      const texts = cases.flatMap((c) => [c.flowchart, c.state]);
      const results = await parseAll(texts);
      const failures = [];
      results.forEach((r, i) => {
        if (!r.ok) failures.push(`${cases[i >> 1].what} ${i % 2 ? 'state' : 'flowchart'}: ${r.error}\n${texts[i]}`);
      });
      t.diagnostic(`mermaid.parse: ${texts.length} texts (${cases.filter((c) => c.dag.kind === 'graph').length} graphs and ${cases.filter((c) => c.dag.kind === 'state-machine').length} machines, both kinds) in ${(performance.now() - started).toFixed(0)} ms`);
      assert.deepEqual(failures, [], `${failures.length} text(s) failed to parse`);
    });

    // Rendering: what the SVG shows must be the labels as written (entity codes decoded, nothing
    // eaten by Markdown or HTML, no generated id shown in place of a label).
    const renders = [
      ...['hostile-graph', 'hostile-machine', 'mermaid-keywords', 'tool-router'].flatMap((name) => [
        { what: `golden ${name} flowchart`, kind: 'flowchart', text: golden(`${name}.flowchart.mmd`), dag: JSON.parse(golden(`${name}.dag.json`)) },
        { what: `golden ${name} state`, kind: 'state', text: golden(`${name}.state.mmd`), dag: JSON.parse(golden(`${name}.dag.json`)) },
      ]),
      swarmMermaid(),
      ...cases.slice(0, 4).flatMap((c) => [
        { what: `${c.what} flowchart`, kind: 'flowchart', text: c.flowchart, dag: c.dag },
        { what: `${c.what} state`, kind: 'state', text: c.state, dag: c.dag },
      ]),
    ];
    let rendered;
    const known = Object.fromEntries(Object.keys(KNOWN).map((k) => [k, []]));
    await t.test(`${renders.length} renders show every label's text`, async (t) => {
      started = performance.now();
      rendered = await renderAll(renders.map((r) => r.text));
      t.diagnostic(`mermaid.render: ${renders.length} SVGs in ${(performance.now() - started).toFixed(0)} ms`);
      const failures = [];
      renders.forEach((r, i) => {
        if (!rendered[i].ok) return failures.push(`${r.what}: render failed: ${rendered[i].error}`);
        const visible = rendered[i].texts.map(squash).join('\n');
        const missing = expectedLines(r.dag, r.kind).filter(({ line }) => !visible.includes(line));
        for (const m of missing) {
          const where = `${r.what}: ${m.what} ${JSON.stringify(m.line)}`;
          const problem = knownProblem(r.kind, m);
          if (problem) known[problem].push(where);
          else failures.push(`${where} is not shown`);
        }
      });
      assert.deepEqual(failures, []);
    });

    // Each known problem is a TODO subtest that runs and lists its cases until the core fixes it.
    for (const [problem, description] of Object.entries(KNOWN)) {
      await t.test(`rendered labels: ${description.title}`, { todo: `reported to the core: ${description.fix}` }, () => {
        if (known[problem].length > 0) t.diagnostic(`${known[problem].length} label line(s), e.g. ${known[problem][0]}`);
        assert.deepEqual(known[problem], []);
      });
    }

    // A label that is nothing but white space (a graph node id ' ') is drawn by stateDiagram-v2
    // as its generated id (n0). Reported to the core; this TODO subtest lists every case.
    await t.test('no render shows a generated id (n0, n1, …) in place of a blank label', () => {
      const leaks = [];
      renders.forEach((r, i) => {
        if (!rendered?.[i]?.ok) return;
        const allowed = new Set(expectedLines(r.dag, r.kind).map((l) => l.line));
        const ids = rendered[i].texts.map(squash).filter((s) => /^n\d+$/.test(s) && !allowed.has(s));
        if (ids.length > 0) leaks.push(`${r.what}: shows ${ids.join(', ')}`);
      });
      assert.deepEqual(leaks, []);
    });

    assert.deepEqual(problems(log), [], 'the page had errors');
  });
});
