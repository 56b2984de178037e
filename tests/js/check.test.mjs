// check(): the shared vectors (tests/vectors/check.json, also run natively and in Chromium), the
// targets it takes, its errors, and the `handoff-graph check` command.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import { check, DefinitionError, END, HandoffGraph, init, StateMachine, Swarm } from '../../js/node.js';
import { runCheckScenario } from './check-runner.js';

await init();
const { scenarios } = JSON.parse(readFileSync(new URL('../vectors/check.json', import.meta.url), 'utf8'));
const cli = new URL('../../js/cli.js', import.meta.url).pathname;
const run = promisify(execFile);

test('the check vectors', async (t) => {
  assert.ok(scenarios.length >= 10);
  for (const scenario of scenarios) await t.test(scenario.name, () => runCheckScenario({ check, HandoffGraph }, scenario));
});

test('check() takes graphs, machines and swarms, and their definitions as objects or text', () => {
  const g = new HandoffGraph().addEdge('triage', 'billing', "category == 'billing'").addEdge('triage', 'vip', 'priority > 3').addEdge('triage', 'vip', 'priority > 5');
  const report = check(g);
  assert.deepEqual(check(g.toJSON()), report);
  assert.deepEqual(check(JSON.stringify(g.toJSON())), report);
  assert.deepEqual(report.findings.map((f) => f.code), ['shadowed-edge', 'no-match']);
  assert.deepEqual(report.findings[0].shadowedBy, [1]);
  g.dispose();

  // A machine with a host function: its edge is decided by the function, so nothing is claimed of it.
  const m = new StateMachine({ start: 'a' })
    .addState('a', () => ({}))
    .addState('b', () => ({}))
    .addEdge('a', 'b', 'x == 1')
    .addEdge('a', END, 'x != 1')
    .addEdge('b', END, () => true);
  const mr = check(m);
  assert.equal(mr.ok, true);
  assert.deepEqual(
    mr.cases.map((c) => [c.edge, c.state]),
    [
      [0, { x: 1 }],
      [1, {}],
    ],
  );
  m.dispose();

  const s = new Swarm({ agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b', when: "topic == 'b'" }] });
  assert.deepEqual(check(s).cases, [{ node: 'a', edge: 0, to: 'b', state: { topic: 'b' }, pointer: '/edges/0' }]);
  // A swarm definition may leave its format out, as new Swarm() allows.
  assert.deepEqual(check({ agents: [{ id: 'a', entry: true }], edges: [] }), { ok: true, findings: [], cases: [] });
  s.dispose();
});

test('check() decides comparisons between two paths, and says where it does not', () => {
  const g = new HandoffGraph()
    .addEdge('order', 'approve', 'amount <= limit')
    .addEdge('order', 'escalate', 'amount > limit and limit >= 1000')
    .addEdge('order', 'reject', 'amount > limit and limit > 5000')
    .addEdge('rank', 'same', 'a == b and b == c and a != c')
    .addEdge('rank', 'cycle', 'a < b and b < c and c < a')
    .addEdge('rank', 'chain', 'a < b and b < c')
    .addEdge('rank', 'review', 'a == b');
  const report = check(g);
  assert.deepEqual(
    report.findings.map((f) => `${f.code}@${f.pointer}`),
    ['shadowed-edge@/edges/2', 'unsatisfiable-condition@/edges/3', 'unsatisfiable-condition@/edges/4', 'no-match@/nodes/4', 'no-match@/nodes/5'],
  );
  assert.deepEqual(report.findings[0].shadowedBy, [1]);
  assert.equal(report.cases.length, 4);
  for (const c of report.cases) assert.equal(g.route(c.node, c.state), c.to, JSON.stringify(c));
  for (const f of report.findings.slice(3)) assert.equal(g.route(f.node, f.witness), null);
  g.dispose();

  // A swarm rule comparing two variables, and a tool offered only while they differ.
  const s = new Swarm({
    agents: [{ id: 'a', entry: true }, { id: 'b' }],
    edges: [
      { from: 'a', to: 'b', when: 'spent > budget' },
      { from: 'a', to: 'b', when: 'spent > budget and budget > 10' },
      { from: 'a', to: 'b', when: 'owner != requester', offer: true },
    ],
  });
  const sr = check(s);
  assert.deepEqual(sr.findings.map((f) => `${f.code}@${f.pointer}`), ['shadowed-edge@/edges/1']);
  assert.deepEqual(sr.cases.map((c) => c.state), [{ spent: -1, budget: -2 }]);
  s.dispose();

  // `in` between two paths is not decided: the rules that read them say so, the others are decided.
  const u = new HandoffGraph().addEdge('n', 'x', 'n > 3').addEdge('n', 'y', 'n > 5').addEdge('n', 'z', 'tag in tags').addEdge('n', 'w', 'tag in tags');
  const ur = check(u);
  assert.deepEqual(
    ur.findings.map((f) => `${f.code}@${f.pointer}`),
    ['shadowed-edge@/edges/1', 'undecided@/edges/3', 'no-match@/nodes/0'],
  );
  assert.match(ur.findings[1].message, /path `tag`: it looks for one path's value in another's/);
  u.dispose();
});

test('check() says what is wrong with what it cannot check', () => {
  assert.throws(() => check(42), { name: 'TypeError', message: /takes a HandoffGraph, StateMachine or Swarm/ });
  assert.throws(() => check(null), TypeError);
  assert.throws(() => check([]), TypeError);
  assert.throws(() => check('{'), (e) => e instanceof DefinitionError && e.problems[0].message === 'not valid JSON');
  assert.throws(() => check({ nodes: [] }), (e) => e instanceof DefinitionError && e.problems[0].pointer === '/format');
  assert.throws(() => check({ format: 'nope' }), (e) => e instanceof DefinitionError && /unknown format "nope"/.test(e.problems[0].message));
  assert.throws(() => check({ format: 'handoff-graph', version: 1, nodes: [], edges: [{ from: 'a', to: 'b', when: 'x ==' }] }), DefinitionError);
  assert.throws(() => check({ format: 'handoff-graph', version: 1, nodes: [], edges: [], extra: NaN }), DefinitionError);
  // An own __proto__ is a member, never the prototype.
  assert.throws(() => check(JSON.parse('{"__proto__": {"format": "handoff-graph"}}')), DefinitionError);
});

test('handoff-graph check: one line per finding, exit 1 on errors (--strict: warnings), --json', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hg-check-'));
  const graph = path.join(dir, 'graph.json');
  const machine = path.join(dir, 'machine.json');
  const broken = path.join(dir, 'broken.json');
  writeFileSync(graph, JSON.stringify(scenarios.find((s) => s.name.startsWith('a narrower')).definition));
  writeFileSync(machine, JSON.stringify(scenarios.find((s) => s.name.startsWith('machine: a gap')).definition));
  writeFileSync(broken, '{');

  const ok = await run(process.execPath, [cli, 'check', graph]);
  assert.equal(
    ok.stdout,
    `${graph}:/edges/1: warning shadowed-edge: edge 1 (n -> b when \`priority > 5\`) is never taken: every state that satisfies it also satisfies the earlier edge 0, tried first\n` +
      `${graph}:/nodes/4: warning no-match: some states match no edge from node 'n' (route() gives null), for example {}\n` +
      '  witness: {}\n' +
      '1 file checked, 2 findings\n',
  );
  await assert.rejects(run(process.execPath, [cli, 'check', graph, '--strict']), { code: 1 });
  const failed = await run(process.execPath, [cli, 'check', machine, graph]).catch((e) => e);
  assert.equal(failed.code, 1);
  assert.match(failed.stdout, /machine\.json:\/states\/0: error no-match:/);
  const json = await run(process.execPath, [cli, 'check', '--json', graph, broken]).catch((e) => e);
  assert.equal(json.code, 1);
  const reports = JSON.parse(json.stdout);
  assert.deepEqual(reports.map((r) => [path.basename(r.file), r.ok ?? r.error]), [
    ['graph.json', true],
    ['broken.json', 'invalid definition:\n(root): not valid JSON'],
  ]);
  const usage = await run(process.execPath, [cli, 'check']).catch((e) => e);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /check needs at least one definition file/);
});

test("docs/check.md's command example is what the command prints", async () => {
  const doc = readFileSync(new URL('../../docs/check.md', import.meta.url), 'utf8');
  const block = doc.match(/```text\n\$ npx handoff-graph check triage\.json\n([\s\S]*?)```/);
  assert.ok(block, 'the example is in docs/check.md');
  const dir = mkdtempSync(path.join(tmpdir(), 'hg-check-doc-'));
  // The graph of the document's first snippet.
  const g = new HandoffGraph()
    .addEdge('triage', 'billing', "category == 'billing'")
    .addEdge('triage', 'urgent', 'priority > 3')
    .addEdge('triage', 'urgent', 'priority > 5')
    .addEdge('triage', 'vip', "tier == 'gold' and tier == 'silver'");
  writeFileSync(path.join(dir, 'triage.json'), JSON.stringify(g.toJSON()));
  g.dispose();
  const { stdout } = await run(process.execPath, [cli, 'check', 'triage.json'], { cwd: dir });
  assert.equal(stdout, block[1]);
});
