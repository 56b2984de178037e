// The web demo (web-demo/) in Chromium: built by Vite into a temporary folder (or DEMO_DIST, a build
// to reuse), served by server.mjs, driven through its data-testid attributes. Every example loads;
// typing a state changes the route; a bad condition is marked at its column; a machine steps to
// END, to maxSteps and to "no edge matched"; the share link restores graph and state in a fresh
// page; each download holds what the package itself exports; the Handoffs panel shows exactly what
// Swarm.tools() returns in each format, a blocked call, a handoff and a rule handoff; the Conversation
// panel streams a turn's events, draws the handoff on the picture and restores the session when
// stopped; the Trace viewer opens a recording (the sample, a file, a drop), shows its rule and model
// decisions and the swarm at an event, and marks where an edit of the rules makes it diverge. Screenshots go
// to DEMO_SCREENSHOTS (default: a folder in the OS temp dir, printed as a diagnostic).
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { HandoffGraph, Swarm, init } from 'handoff-graph';

import { launchBrowser, problems, using } from './harness.mjs';
import { start } from './server.mjs';

const DEMO = fileURLToPath(new URL('../../web-demo/', import.meta.url));
const SHOTS = process.env.DEMO_SCREENSHOTS ?? path.join(tmpdir(), 'handoff-graph-demo-screenshots');

await init();

/** Builds the demo into a fresh temporary folder; `close()` deletes it. */
async function buildDemo() {
  if (process.env.DEMO_DIST) return { dir: path.resolve(process.env.DEMO_DIST), close: async () => {} };
  const { build } = await import('vite');
  const dir = await mkdtemp(path.join(tmpdir(), 'handoff-graph-demo-'));
  await build({ configFile: path.join(DEMO, 'vite.config.js'), logLevel: 'error', build: { outDir: dir, emptyOutDir: true } });
  return { dir, close: () => rm(dir, { recursive: true, force: true }) };
}

/** A page whose console errors, uncaught errors and failed requests are collected. */
async function openPage(context, url) {
  const page = await context.newPage();
  const log = { console: [], pageErrors: [], responses: [], failedRequests: [] };
  page.on('console', (m) => log.console.push({ type: m.type(), text: m.text() }));
  page.on('pageerror', (e) => log.pageErrors.push(String(e?.stack ?? e)));
  page.on('response', (r) => log.responses.push({ url: r.url(), status: r.status(), contentType: r.headers()['content-type'] ?? null }));
  page.on('requestfailed', (r) => log.failedRequests.push({ url: r.url(), error: r.failure()?.errorText }));
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('html[data-ready="true"]', { timeout: 10_000 });
  return { page, log };
}

const byId = (page, id) => page.getByTestId(id);
const text = async (page, id) => (await byId(page, id).textContent()).trim();
const svgText = (page) => page.locator('[data-testid="graph-svg"]').evaluate((svg) => svg.textContent);

async function shot(page, name) {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Clicks an export button and returns the downloaded file's name and text. */
async function download(page, id) {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 5_000 }), byId(page, id).click()]);
  return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
}

test('web demo in Chromium', { timeout: 60_000 }, async (t) => {
  await using(async (use) => {
    const built = use(await buildDemo());
    const server = use(await start({ root: built.dir }));
    const browser = use(await launchBrowser());
    const { page, log } = await openPage(browser.context, server.url);
    use({ close: () => page.close() });
    t.diagnostic(`screenshots in ${SHOTS}`);

    await t.test('the .wasm is a hashed asset served as application/wasm', () => {
      const wasm = log.responses.filter((r) => /\/assets\/handoff-graph-[\w-]+\.wasm$/.test(new URL(r.url).pathname));
      assert.equal(wasm.length, 1, JSON.stringify(log.responses.map((r) => r.url)));
      assert.equal(wasm[0].contentType, 'application/wasm');
      assert.ok(log.responses.every((r) => r.url.startsWith(server.url) || r.url.startsWith('data:') || r.url.startsWith('blob:')), 'a request left the server (CDN?)');
    });

    await t.test('every example loads with one click', async () => {
      const graphs = { triage: ['triage', 'billing', ['billing', 'support', 'human']], escalation: ['intake', 'escalations', ['intake', 'escalations', 'queue', 'on-call']] };
      for (const [name, [node, winner, labels]] of Object.entries(graphs)) {
        await byId(page, `example-${name}`).click();
        assert.equal(await byId(page, 'node-select').inputValue(), node);
        assert.equal(await text(page, 'route-winner'), winner, name);
        const svg = await svgText(page);
        for (const label of labels) assert.ok(svg.includes(label), `${name}: the picture lacks '${label}'`);
        assert.equal(await page.locator('[data-testid="graph-svg"] path.edge.fired').count(), 1, `${name}: the route taken is marked`);
        assert.equal(await byId(page, 'error').isHidden(), true);
      }
      await shot(page, 'rules-triage');
      const machines = { 'tool-router': ['analyze', 'toolA', 'toolB', 'END'], critique: ['write', 'critique', 'publish', 'END'] };
      for (const [name, labels] of Object.entries(machines)) {
        await byId(page, `example-${name}`).click();
        assert.equal(await byId(page, 'picture-machine').getAttribute('aria-pressed'), 'true');
        assert.equal(await byId(page, 'outcome').getAttribute('data-reason'), 'ready');
        const svg = await svgText(page);
        for (const label of labels) assert.ok(svg.includes(label), `${name}: the picture lacks '${label}'`);
        assert.equal(await byId(page, 'machine-error').isHidden(), true);
      }
    });

    await t.test('typing a state changes the route; explain shows every edge', async () => {
      await byId(page, 'example-triage').click();
      await byId(page, 'state-editor').fill('{"category": "support"}');
      assert.equal(await text(page, 'route-winner'), 'support');
      const rows = await page.locator('[data-testid="route-result"] tbody tr').evaluateAll((trs) =>
        trs.map((tr) => [tr.dataset.to, tr.dataset.evaluated, tr.dataset.matched]));
      assert.deepEqual(rows, [['billing', 'true', 'false'], ['support', 'true', 'true'], ['human', 'false', 'false']]);
      // Typed key by key, as a person would.
      await byId(page, 'state-editor').click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.type('{"category": "other"}');
      assert.equal(await text(page, 'route-winner'), 'human');
      assert.equal(await page.locator('[data-testid="graph-svg"] path.edge.fired').getAttribute('data-to'), 'human');
      assert.match(await text(page, 'picture-caption'), /route\('triage', state\) → human, by edge #2/);
    });

    await t.test('a condition that does not parse is marked at its column', async () => {
      await byId(page, 'example-triage').click();
      const definition = JSON.parse(await byId(page, 'graph-editor').inputValue());
      definition.edges[1].when = "category = 'support'";
      definition.edges[2].wen = 'x';
      await byId(page, 'graph-editor').fill(JSON.stringify(definition, null, 2));
      const error = byId(page, 'error');
      assert.equal(await error.isVisible(), true);
      const items = await error.locator('li.problem').evaluateAll((lis) => lis.map((li) => ({ ...li.dataset, text: li.textContent })));
      assert.equal(items.length, 2, JSON.stringify(items));
      assert.equal(items[0].pointer, '/edges/1/when');
      assert.equal(items[0].column, '10');  // ConditionSyntaxError.index 9: the '='
      assert.match(items[0].text, /expected '==' \(single '=' is not valid\) at column 10/);
      assert.equal(await error.locator('li.problem').first().locator('.snippet mark').textContent(), '=');
      assert.equal(items[1].pointer, '/edges/2/wen');
      assert.match(items[1].text, /unknown property 'wen'/);
      // In the editor, the mark sits on the very '=' of the condition.
      const marked = await page.locator('.editor-backdrop mark').allTextContents();
      assert.equal(marked[0], '=');
      assert.match(await text(page, 'route-result'), /Fix the problems/);
      await shot(page, 'rules-syntax-error');
      // Fixed: the error goes away and routing resumes.
      await byId(page, 'example-triage').click();
      assert.equal(await error.isHidden(), true);
      // The add-edge form checks its condition as it is typed.
      await byId(page, 'edge-from').fill('triage');
      await byId(page, 'edge-to').fill('vip');
      await byId(page, 'edge-when').fill("tier == 'gold' and");
      const whenError = byId(page, 'edge-when-error');
      assert.equal(await whenError.getAttribute('data-column'), '19');
      assert.match(await whenError.textContent(), /expected a value, found end of condition at column 19/);
      assert.equal(await byId(page, 'add-edge').isDisabled(), true);
      // A valid one is added, then moved to the front of triage's edges.
      await byId(page, 'edge-when').fill("tier == 'gold'");
      assert.equal(await whenError.isHidden(), true);
      await byId(page, 'add-edge').click();
      await byId(page, 'state-editor').fill('{"category": "billing", "tier": "gold"}');
      assert.equal(await text(page, 'route-winner'), 'billing');
      for (const i of [3, 2, 1]) await byId(page, `edge-up-${i}`).click();
      assert.equal(await text(page, 'route-winner'), 'vip');
      assert.deepEqual(JSON.parse(await byId(page, 'graph-editor').inputValue()).edges[0], { from: 'triage', to: 'vip', when: "tier == 'gold'" });
    });

    await t.test('check() runs as you type: findings beside their edges, and a state that takes each edge', async () => {
      await byId(page, 'example-triage').click();
      assert.match(await text(page, 'check-summary'), /No findings/);
      const cases = await page.locator('[data-testid="check-cases"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.edge));
      assert.deepEqual(cases, ['0', '1', '2']);
      // A case's state, loaded into the route panel, takes its edge.
      await byId(page, 'load-case-1').click();
      assert.equal(await text(page, 'route-winner'), 'support');
      // An edge after the unconditional one is never taken, and is flagged beside it.
      const definition = JSON.parse(await byId(page, 'graph-editor').inputValue());
      definition.edges.push({ from: 'triage', to: 'vip', when: "tier == 'gold'" });
      await byId(page, 'graph-editor').fill(JSON.stringify(definition, null, 2));
      assert.equal(await byId(page, 'edge-finding-3').getAttribute('data-code'), 'shadowed-edge');
      assert.match(await text(page, 'edge-finding-3'), /never taken: every state that satisfies it also satisfies the earlier edge 2, tried first/);
      assert.match(await text(page, 'check-summary'), /^1 finding \(1 beside the edges above\)/);
      await shot(page, 'rules-check');
      // Without the default, some states match nothing: a witness to load.
      definition.edges.splice(2, 2);
      await byId(page, 'graph-editor').fill(JSON.stringify(definition, null, 2));
      assert.equal(await byId(page, 'node-finding').getAttribute('data-code'), 'no-match');
      await byId(page, 'load-witness').click();
      assert.equal(await text(page, 'route-winner'), 'null');
    });

    await t.test('a machine steps to END, with the trace growing step by step', async () => {
      await byId(page, 'example-tool-router').click();
      await byId(page, 'speed').selectOption('0');
      const trace = () => page.locator('[data-testid="trace"] li.trace-step').evaluateAll((lis) => lis.map((li) => `${li.dataset.state}->${li.dataset.next}`));
      await byId(page, 'step').click();
      await page.waitForSelector('[data-testid="trace"][data-steps="1"]');
      assert.deepEqual(await trace(), ['analyze->toolA']);
      await byId(page, 'step').click();
      await page.waitForSelector('[data-testid="trace"][data-steps="2"]');
      assert.deepEqual(await trace(), ['analyze->toolA', 'toolA->analyze']);
      assert.equal(await byId(page, 'outcome').getAttribute('data-reason'), 'running');
      await byId(page, 'run').click();
      await page.waitForSelector('[data-testid="outcome"][data-reason="end"]');
      assert.deepEqual(await trace(), ['analyze->toolA', 'toolA->analyze', 'analyze->toolB', 'toolB->analyze', 'analyze->__end__']);
      assert.match(await text(page, 'outcome'), /Reached END after 5 steps/);
      const fired = await page.locator('[data-testid="graph-svg"] path.edge.fired').evaluateAll((ps) => ps.map((p) => `${p.dataset.from}->${p.dataset.to}×${p.dataset.count}`).sort());
      assert.deepEqual(fired, ['analyze->__end__×1', 'analyze->toolA×1', 'analyze->toolB×1', 'toolA->analyze×1', 'toolB->analyze×1']);
      assert.match(await svgText(page), /visits 3/);
      assert.deepEqual(JSON.parse(await text(page, 'machine-state')).results.map((r) => r.tool), ['toolA', 'toolB']);
      await shot(page, 'machine-end');
      await byId(page, 'reset').click();
      assert.equal(await page.locator('[data-testid="trace"] li.trace-step').count(), 0);
      assert.equal(await byId(page, 'outcome').getAttribute('data-reason'), 'ready');
    });

    await t.test('a fan-out example shows its branches side by side in the trace and linked in the picture', async () => {
      await byId(page, 'example-research-fan-out').click();
      await byId(page, 'speed').selectOption('0');
      assert.equal(await page.locator('[data-testid="graph-svg"] path.edge.branch').count(), 4, 'one link per branch: three searches and the map');
      await byId(page, 'run').click();
      await page.waitForSelector('[data-testid="outcome"][data-reason="end"]');
      const branches = await page.locator('[data-testid="trace"] li.trace-step').evaluateAll((lis) =>
        lis.map((li) => [...li.querySelectorAll('.step-branches .branch')].map((b) => `${b.dataset.state}#${b.dataset.visit}:${b.querySelector('code')?.textContent ?? ''}`)));
      assert.deepEqual(branches, [
        ['web#1:{"found":"web: 3 pages"}', 'docs#1:{"found":"docs: 1 page"}', 'papers#1:{"found":"papers: 2 papers"}'],
        ['summarizeOne#1:{"summaries":"web, in short"}', 'summarizeOne#2:{"summaries":"docs, in short"}', 'summarizeOne#3:{"summaries":"papers, in short"}'],
        [],
      ]);
      assert.match(await svgText(page), /each in found/);
      assert.deepEqual(JSON.parse(await text(page, 'machine-state')).summaries, ['web, in short', 'docs, in short', 'papers, in short']);
      await shot(page, 'machine-fan-out');
    });

    await t.test('a machine stops at maxSteps, and fails when no edge matches', async () => {
      await byId(page, 'example-critique').click();
      await byId(page, 'speed').selectOption('0');
      await byId(page, 'max-steps').fill('3');
      assert.equal(JSON.parse(await byId(page, 'machine-editor').inputValue()).maxSteps, 3);
      await byId(page, 'run').click();
      await page.waitForSelector('[data-testid="outcome"][data-reason="max-steps"]');
      assert.equal(await page.locator('[data-testid="trace"] li.trace-step').count(), 3);
      assert.match(await text(page, 'outcome'), /3 steps ran \(maxSteps is 3\) without reaching END; the next state would have been 'critique'/);
      await shot(page, 'machine-max-steps');

      await byId(page, 'example-tool-router').click();
      await byId(page, 'speed').selectOption('0');
      const definition = JSON.parse(await byId(page, 'machine-editor').inputValue());
      definition.edges[2] = { from: 'analyze', to: '__end__', when: "decision == 'done'" };
      assert.match(await text(page, 'machine-check-summary'), /no findings/);
      await byId(page, 'machine-editor').fill(JSON.stringify(definition, null, 2));
      // check() saw the gap before the run: a decision that is none of the three.
      const finding = byId(page, 'machine-finding');
      assert.equal(await finding.getAttribute('data-code'), 'no-match');
      assert.equal(await finding.getAttribute('data-pointer'), '/states/0');
      assert.match(await finding.textContent(), /NoEdgeMatchedError/);
      await byId(page, 'scripts-editor').fill('{"analyze": [{"decision": "A"}, {"decision": "C"}]}');
      await byId(page, 'run').click();
      await page.waitForSelector('[data-testid="outcome"][data-reason="no-edge-matched"]');
      const outcome = await text(page, 'outcome');
      assert.match(outcome, /No edge matched/);
      assert.match(outcome, /none of the outgoing edges of 'analyze' held/);
      assert.match(outcome, /decision = "C"/);
      assert.equal(await page.locator('[data-testid="trace"] li.trace-step.failed').getAttribute('data-state'), 'analyze');
      await shot(page, 'machine-no-edge');

      // A condition that does not parse in a machine: marked at its column too.
      definition.edges[0].when = "decision == 'A' or";
      await byId(page, 'machine-editor').fill(JSON.stringify(definition, null, 2));
      const problem = byId(page, 'machine-error').locator('li.problem').first();
      assert.equal(await problem.getAttribute('data-pointer'), '/edges/0/when');
      assert.equal(await problem.getAttribute('data-column'), '19');
      assert.equal(await byId(page, 'run').isDisabled(), true);
      // An edge to a state that does not exist: a validation problem, pointed at.
      definition.edges[0] = { from: 'analyze', to: 'toolZ', when: "decision == 'A'" };
      await byId(page, 'machine-editor').fill(JSON.stringify(definition, null, 2));
      assert.equal(await problem.getAttribute('data-pointer'), '/edges/0/to');
      assert.match(await problem.textContent(), /unknown-to/);
    });

    await t.test('exports download what the package exports', async () => {
      await byId(page, 'example-triage').click();
      await byId(page, 'state-editor').fill('{"category": "support"}');
      await byId(page, 'picture-graph').click();
      const definition = JSON.parse(await byId(page, 'graph-editor').inputValue());
      const graph = HandoffGraph.fromJSON(definition);
      const trace = [graph.explain('triage', { category: 'support' })];
      const json = await download(page, 'export-json');
      assert.equal(json.name, 'handoff-graph.json');
      assert.deepEqual(JSON.parse(json.text), graph.toJSON());
      const dag = await download(page, 'export-dag');
      assert.equal(dag.name, 'handoff-graph.dag.json');
      assert.deepEqual(JSON.parse(dag.text), graph.toDag({ trace }));
      const mermaid = await download(page, 'export-mermaid');
      assert.equal(mermaid.name, 'handoff-graph.mmd');
      assert.equal(mermaid.text, graph.toMermaid({ trace }));
      const dot = await download(page, 'export-dot');
      assert.equal(dot.name, 'handoff-graph.dot');
      assert.equal(dot.text, graph.toDot({ trace }));
      const svg = await download(page, 'export-svg');
      assert.equal(svg.name, 'handoff-graph.svg');
      assert.match(svg.text, /^<\?xml[^>]*>\s*<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      for (const label of ['triage', 'billing', 'support', 'human', "category == 'support'"]) assert.ok(svg.text.includes(label), label);
      graph.dispose();

      // The machine after a run: its fired edges are in the DAG, Mermaid and DOT.
      await byId(page, 'example-critique').click();
      await byId(page, 'speed').selectOption('0');
      await byId(page, 'run').click();
      await page.waitForSelector('[data-testid="outcome"][data-reason="end"]');
      const machineJson = await download(page, 'export-json');
      assert.equal(machineJson.name, 'critique-loop.json');
      assert.equal(JSON.parse(machineJson.text).format, 'handoff-graph/state-machine');
      const machineDag = JSON.parse((await download(page, 'export-dag')).text);
      assert.deepEqual(machineDag.run, { reason: 'end', stepsRun: 7, lastState: 'publish' });
      assert.deepEqual(machineDag.edges.map((e) => e.firedCount), [3, 2, 1, 1]);
      assert.match((await download(page, 'export-mermaid')).text, /^stateDiagram-v2\n[\s\S]*fired ×3/);
      assert.match((await download(page, 'export-dot')).text, /^digraph "critique-loop" \{[\s\S]*xlabel="×2"/);
      assert.match((await download(page, 'export-svg')).text, /×3/);
    });

    await t.test('the share link restores graph and state in a fresh page', async () => {
      await byId(page, 'example-escalation').click();
      const definition = JSON.parse(await byId(page, 'graph-editor').inputValue());
      definition.edges.splice(1, 0, { from: 'intake', to: 'vip-desk', when: "user.tier == 'platinum'", description: 'é ✓ unicode' });
      await byId(page, 'graph-editor').fill(JSON.stringify(definition, null, 2));
      await byId(page, 'state-editor').fill('{"user": {"tier": "platinum"}, "priority": 1, "tags": []}');
      assert.equal(await text(page, 'route-winner'), 'vip-desk');
      await byId(page, 'copy-link').click();
      const link = await byId(page, 'share-url').inputValue();
      assert.match(link, /#s=[\w-]+$/);
      assert.equal(page.url(), link, 'the address bar holds the link too');

      const fresh = await openPage(browser.context, link);
      try {
        assert.deepEqual(JSON.parse(await byId(fresh.page, 'graph-editor').inputValue()), definition);
        assert.deepEqual(JSON.parse(await byId(fresh.page, 'state-editor').inputValue()), { user: { tier: 'platinum' }, priority: 1, tags: [] });
        assert.equal(await byId(fresh.page, 'node-select').inputValue(), 'intake');
        assert.equal(await text(fresh.page, 'route-winner'), 'vip-desk');
        assert.ok((await svgText(fresh.page)).includes('vip-desk'));
        assert.match(await text(fresh.page, 'notice'), /Restored/);
        assert.deepEqual(problems(fresh.log), []);
      } finally {
        await fresh.page.close();
      }
      // A broken link says so on the page and falls back to the examples.
      const broken = await openPage(browser.context, `${server.url}#s=bm90LWpzb24`);
      try {
        assert.match(await text(broken.page, 'notice'), /could not be restored/);
        assert.equal(await text(broken.page, 'route-winner'), 'billing');
      } finally {
        await broken.page.close();
      }
    });

    await t.test('the Handoffs panel: tools in each format, blocked / handoff / rules, bad definitions', async () => {
      await byId(page, 'example-hybrid-swarm').click();
      assert.equal(await byId(page, 'swarm-active').getAttribute('data-agent'), 'triage');
      const swarmDefinition = JSON.parse(await byId(page, 'swarm-editor').inputValue());
      assert.deepEqual(swarmDefinition.edges.map((e) => [e.from, e.to, e.when ?? null, e.offer ?? false]), [
        ['triage', 'billing', "category == 'billing'", false],
        ['triage', 'human', null, false],
        ['billing', 'human', 'amount > 100', true],
        ['billing', 'triage', null, false],
        ['human', 'triage', null, false],
      ]);

      // The tools pane is exactly swarm.tools(session, format), in each of the four formats.
      const reference = new Swarm(swarmDefinition);
      const fresh = reference.createSession({ variables: { category: 'general', amount: 250 } });
      for (const format of ['openai-responses', 'openai-chat', 'anthropic', 'ai-sdk']) {
        await byId(page, 'swarm-format').selectOption(format);
        assert.deepEqual(JSON.parse(await byId(page, 'swarm-tools').textContent()), reference.tools(fresh, format), format);
      }
      reference.dispose();
      await byId(page, 'swarm-format').selectOption('anthropic');
      const anthropic = JSON.parse(await byId(page, 'swarm-tools').textContent());
      assert.deepEqual(anthropic.map((tool) => tool.name), ['transfer_to_human']);
      assert.deepEqual(anthropic[0].input_schema.required, ['reason', 'ticketId']);
      assert.equal(anthropic[0].input_schema.properties.ticketId.type, 'string');

      // Without the ticket id the call is blocked, with a sentence for the model; the session stays.
      assert.equal(await byId(page, 'swarm-call-tool').inputValue(), 'transfer_to_human');
      await byId(page, 'swarm-call-args').fill('{"reason": "wants a person"}');
      await byId(page, 'swarm-call').click();
      assert.equal(await byId(page, 'swarm-outcome').getAttribute('data-type'), 'handoff_blocked');
      assert.match(await text(page, 'swarm-outcome-reason'), /^Cannot transfer to Human operator yet: missing ticketId/);
      assert.equal(await byId(page, 'swarm-active').getAttribute('data-agent'), 'triage');
      // An argument the tool does not have is rejected.
      await byId(page, 'swarm-call-args').fill('{"ticketId": "T-1", "priority": "high"}');
      await byId(page, 'swarm-call').click();
      assert.equal(await byId(page, 'swarm-outcome').getAttribute('data-type'), 'rejected');
      assert.match(await text(page, 'swarm-outcome-reason'), /has no argument 'priority'/);

      // With it, the handoff happens, and the model's variable joins the session's variables.
      await byId(page, 'swarm-call-args').fill('{"reason": null, "ticketId": "T-1042"}');
      await byId(page, 'swarm-call').click();
      assert.equal(await byId(page, 'swarm-outcome').getAttribute('data-type'), 'handoff');
      assert.equal(await text(page, 'swarm-outcome-from'), 'triage');
      assert.equal(await text(page, 'swarm-outcome-to'), 'human');
      assert.deepEqual(JSON.parse(await text(page, 'swarm-outcome-variables')), { ticketId: 'T-1042' });
      assert.equal(await byId(page, 'swarm-active').getAttribute('data-agent'), 'human');
      assert.equal(JSON.parse(await byId(page, 'swarm-variables').inputValue()).ticketId, 'T-1042');
      assert.deepEqual(JSON.parse(await byId(page, 'swarm-tools').textContent()).map((tool) => tool.name), ['transfer_to_triage']);
      await mkdir(SHOTS, { recursive: true });
      await page.locator('section[aria-labelledby="handoffs-title"]').screenshot({ path: path.join(SHOTS, 'handoffs.png') });

      // Reset, then category billing + rules: the rule edge moves the session to billing, where the
      // hybrid edge is offered while amount > 100 and withdrawn below it.
      await byId(page, 'swarm-reset').click();
      assert.equal(await byId(page, 'swarm-active').getAttribute('data-agent'), 'triage');
      await byId(page, 'swarm-variables').fill('{"category": "billing"}');
      assert.equal(await byId(page, 'swarm-active').getAttribute('data-agent'), 'triage', 'rules wait for the button');
      await byId(page, 'swarm-rules').click();
      assert.equal(await byId(page, 'swarm-outcome').getAttribute('data-type'), 'handoff');
      assert.match(await text(page, 'swarm-outcome'), /handoff by rule\s*triage → billing/);
      assert.equal(await byId(page, 'swarm-active').getAttribute('data-agent'), 'billing');
      const offeredNames = async () => page.locator('[data-testid="swarm-call-tool"] option').evaluateAll((os) => os.map((o) => o.value));
      assert.deepEqual(await offeredNames(), ['transfer_to_triage']);
      await byId(page, 'swarm-variables').fill('{"category": "billing", "amount": 250}');
      assert.deepEqual(await offeredNames(), ['transfer_to_human', 'transfer_to_triage']);
      await byId(page, 'swarm-rules').click();
      assert.match(await text(page, 'swarm-outcome'), /no rule edge of billing holds/);

      // A bad definition: each problem at its JSON pointer, inline, and marked in the editor.
      const bad = structuredClone(swarmDefinition);
      bad.edges[2].to = 'nobody';
      bad.edges[0].when = "category =='";
      await byId(page, 'swarm-editor').fill(JSON.stringify(bad, null, 2));
      assert.equal(await byId(page, 'swarm-error').isVisible(), true);
      const pointers = await page.locator('[data-testid="swarm-error"] li.problem').evaluateAll((lis) => lis.map((li) => li.dataset.pointer));
      assert.ok(pointers.includes('/edges/2/to'), JSON.stringify(pointers));
      assert.ok(pointers.includes('/edges/0/when'), JSON.stringify(pointers));
      assert.match(await text(page, 'swarm-error'), /'nobody' is not an agent/);
      assert.ok((await page.locator('.editor:has([data-testid="swarm-editor"]) mark').count()) >= 2);
      assert.equal(await byId(page, 'swarm-call').isDisabled(), true);
      await byId(page, 'swarm-editor').fill('{"agents": [');
      assert.match(await text(page, 'swarm-error'), /not valid JSON/);
      // Fixed again: a new session at the entry agent.
      await byId(page, 'swarm-editor').fill(JSON.stringify(swarmDefinition, null, 2));
      assert.equal(await byId(page, 'swarm-error').isHidden(), true);
      assert.equal(await byId(page, 'swarm-active').getAttribute('data-agent'), 'triage');
    });

    await t.test('the Conversation panel: a turn streams its events; the handoff is drawn; Stop restores the session', async () => {
      await byId(page, 'example-hybrid-swarm').click();
      assert.equal(await page.locator('[data-testid="conversation-log"] li').count(), 0, 'a new session, a new conversation');
      // Every change of the first agent bubble's text, recorded in the page as it happens.
      await page.evaluate(() => {
        window.__growth = [];
        const log = document.querySelector('[data-testid="conversation-log"]');
        new MutationObserver(() => {
          const first = log.querySelector('[data-testid="conversation-text"]');
          if (first && window.__growth.at(-1) !== first.textContent.length) window.__growth.push(first.textContent.length);
        }).observe(log, { childList: true, subtree: true, characterData: true });
      });
      await byId(page, 'conversation-send').click();
      await page.waitForSelector('[data-testid="conversation-status"][data-state="done"]', { timeout: 10_000 });
      const items = () => page.locator('[data-testid="conversation-log"] li').evaluateAll((lis) => lis.map((li) => [li.dataset.type, li.dataset.agent ?? null]));
      assert.deepEqual(await items(), [['user', null], ['agent', 'triage'], ['tool_use', null], ['handoff_blocked', null], ['agent', 'triage']]);
      const growth = await page.evaluate(() => window.__growth);
      assert.ok(growth.length >= 6, `the text grew chunk by chunk: ${growth}`);
      assert.equal(await page.locator('[data-testid="conversation-text"]').first().getAttribute('data-chunks'), '6', 'one chunk event per word');
      assert.match(await text(page, 'conversation-log'), /Cannot transfer to Human operator yet: missing ticketId/);
      assert.equal(await byId(page, 'swarm-active').getAttribute('data-agent'), 'triage');
      assert.equal(await byId(page, 'picture-swarm').getAttribute('aria-pressed'), 'true');
      assert.equal(await page.locator('[data-testid="graph-svg"] path.edge.fired').count(), 0);

      await byId(page, 'conversation-input').fill('It is T-1042.');
      await byId(page, 'conversation-send').click();
      await page.waitForSelector('[data-testid="conversation-status"][data-state="done"]', { timeout: 10_000 });
      assert.deepEqual((await items()).slice(5), [['user', null], ['tool_use', null], ['handoff', null], ['agent', 'human']]);
      assert.match(await text(page, 'conversation-log'), /Hi, this is Sam\. I have ticket T-1042 open/);
      assert.equal(await byId(page, 'swarm-active').getAttribute('data-agent'), 'human');
      const fired = page.locator('[data-testid="graph-svg"] path.edge.fired');
      assert.equal(await fired.count(), 1);
      assert.deepEqual([await fired.getAttribute('data-from'), await fired.getAttribute('data-to'), await fired.getAttribute('data-count')], ['triage', 'human', '1']);
      assert.equal(await page.locator('[data-testid="graph-svg"] g.node.selected').getAttribute('data-node'), 'human');
      assert.match(await text(page, 'picture-caption'), /human has the conversation; 1 handoff taken/);
      await shot(page, 'conversation');

      // Stop in the middle of the human's answer: the turn is aborted and the session is as it was.
      const before = await text(page, 'swarm-active');
      await byId(page, 'conversation-input').fill('Are you still there?');
      await byId(page, 'conversation-send').click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="conversation-log"] li[data-agent="human"]').length === 2);
      await byId(page, 'conversation-stop').click();
      await page.waitForSelector('[data-testid="conversation-status"][data-state="aborted"]', { timeout: 10_000 });
      assert.equal(await text(page, 'swarm-active'), before);
      assert.equal((await items()).at(-1)[0], 'aborted');
      assert.equal(await page.locator('[data-testid="graph-svg"] path.edge.fired').count(), 1);
    });

    await t.test('the share link carries the swarm', async () => {
      const definition = JSON.parse(await byId(page, 'swarm-editor').inputValue());
      definition.agents[2].name = 'Person ✓';
      await byId(page, 'swarm-editor').fill(JSON.stringify(definition, null, 2));
      await byId(page, 'swarm-variables').fill('{"category": "billing", "amount": 7}');
      await byId(page, 'copy-link').click();
      const fresh = await openPage(browser.context, await byId(page, 'share-url').inputValue());
      try {
        assert.deepEqual(JSON.parse(await byId(fresh.page, 'swarm-editor').inputValue()), definition);
        assert.deepEqual(JSON.parse(await byId(fresh.page, 'swarm-variables').inputValue()), { category: 'billing', amount: 7 });
        assert.equal(await byId(fresh.page, 'swarm-active').getAttribute('data-agent'), 'triage');
        assert.deepEqual(problems(fresh.log), []);
      } finally {
        await fresh.page.close();
      }
    });

    await t.test('the Trace viewer: a recording from the sample, a file or a drop; rule and model decisions; the swarm at an event; a rules edit marks the divergence', async () => {
      await byId(page, 'example-hybrid-swarm').click();
      await byId(page, 'trace-sample').click();
      await page.waitForSelector('[data-testid="trace-verdict"]:not([hidden])');
      assert.equal(await text(page, 'trace-verdict'), 'Replayed against the rules of the Handoffs panel: the same (3 turns, 18 decisions).');
      const events = () => page.locator('[data-testid="trace-timeline"] li.trace-event').evaluateAll((lis) => lis.map((li) => [li.dataset.type, li.querySelector('.badge')?.textContent ?? null]));
      const shown = await events();
      assert.deepEqual(shown.filter(([type]) => type === 'open').length, 3);
      assert.deepEqual(shown.filter(([, badge]) => badge === 'rule · 0 tokens').map(([type]) => type), ['update']);
      assert.deepEqual(shown.filter(([type]) => type === 'handoff').map(([, badge]) => badge), ['model', 'model', 'model']);
      assert.equal(shown.filter(([type]) => type === 'handoff_blocked').length, 1);
      assert.match(await text(page, 'trace-timeline'), /host: updateState \{"category":"billing","amount":250\}, rule triage → billing \(zero tokens\)/);
      // The last event is selected: billing handed the conversation to a person.
      assert.equal(await page.locator('[data-testid="trace-picture"] g.node.selected').getAttribute('data-node'), 'human');
      assert.match(await text(page, 'trace-caption'), /human has the conversation; 4 handoffs taken so far/);
      // The first turn's handoff: triage → human, the one handoff so far.
      await page.locator('[data-testid="trace-timeline"] li[data-type="handoff"]').first().click();
      assert.equal(await page.locator('[data-testid="trace-picture"] g.node.selected').getAttribute('data-node'), 'human');
      const fired = page.locator('[data-testid="trace-picture"] path.edge.fired');
      assert.deepEqual([await fired.count(), await fired.getAttribute('data-from'), await fired.getAttribute('data-to')], [1, 'triage', 'human']);
      await page.locator('#trace').scrollIntoViewIfNeeded();
      await shot(page, 'trace-viewer');

      // A file with two sessions, from the picker; then one dropped on the panel.
      const { SAMPLE_RECORDING } = await import('../../web-demo/src/sample-recording.js');
      const jsonl = (id) => SAMPLE_RECORDING.map((l) => JSON.stringify({ ...l, session: id })).join('\n');
      await byId(page, 'trace-file').setInputFiles({ name: 'log.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(`${jsonl('a')}\n${jsonl('b')}\n`) });
      await page.waitForFunction(() => document.querySelector('[data-testid="trace-status"]').textContent.startsWith('log.jsonl: 2 sessions'));
      assert.deepEqual(await byId(page, 'trace-session').locator('option').allTextContents(), ['a', 'b']);
      await page.evaluate((text) => {
        const data = new DataTransfer();
        data.items.add(new File([text], 'dropped.jsonl'));
        document.querySelector('#trace').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      }, jsonl('dropped'));
      await page.waitForFunction(() => document.querySelector('[data-testid="trace-status"]').textContent === 'dropped.jsonl: 1 session.');
      await page.waitForFunction(() => document.querySelector('[data-testid="trace-verdict"]').textContent.includes('the same'));

      // Refunds over 300 only: in turn 3, billing is no longer offered the transfer to a person.
      const definition = JSON.parse(await byId(page, 'swarm-editor').inputValue());
      definition.edges[2].when = 'amount > 300';
      await byId(page, 'swarm-editor').fill(JSON.stringify(definition, null, 2));
      await page.waitForFunction(() => document.querySelector('[data-testid="trace-verdict"]').textContent.includes('differs'));
      assert.match(await text(page, 'trace-verdict'), /differs at turn 3, decision 2 \(tools\): recorded \{"agent":"billing","tools":\["transfer_to_human","transfer_to_triage"\]\}, now \{"agent":"billing","tools":\["transfer_to_triage"\]\}/);
      const diverged = page.locator('[data-testid="trace-timeline"] li.diverged');
      assert.deepEqual([await diverged.count(), await diverged.getAttribute('data-type')], [1, 'model']);
      assert.match(await diverged.textContent(), /billing \(model, offered transfer_to_human, transfer_to_triage\).*diverges/);
      assert.equal(await page.locator('[data-testid="trace-timeline"] li.selected').getAttribute('data-testid'), await diverged.getAttribute('data-testid'));
      await byId(page, 'trace-verdict').scrollIntoViewIfNeeded();
      await shot(page, 'trace-viewer-diverged');
      // Undone, the recording is the same again.
      definition.edges[2].when = 'amount > 100';
      await byId(page, 'swarm-editor').fill(JSON.stringify(definition, null, 2));
      await page.waitForFunction(() => document.querySelector('[data-testid="trace-verdict"]').textContent.includes('the same'));
    });

    await t.test('no console errors, page errors or failed requests', () => {
      assert.deepEqual(problems(log), []);
    });
  });
});
