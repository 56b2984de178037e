// The boundary's promises (tests/js/boundary-cases.js) in Node; tests/browser/boundary.test.mjs
// runs the same cases in Chromium. Also what only Node shows: util.inspect of every class, and a
// module built from another contract refused by init().
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { inspect as nodeInspect } from 'node:util';

import * as api from 'handoff-graph';
import { checkContract } from '../../js/runtime.js';
import { FINGERPRINT } from '../../js/contract.js';
import { boundaryCases } from './boundary-cases.js';

await api.init();

for (const c of boundaryCases) test(c.name, () => c.run(api));

const inspect = (value) => nodeInspect(value, { breakLength: Infinity });

test('util.inspect shows what each object is, live or disposed', () => {
  const { HandoffGraph, StateMachine, END, compileCondition } = api;
  const g = new HandoffGraph().addEdge('triage', 'billing', "category == 'billing'").addEdge('triage', 'human');
  assert.equal(inspect(g), "HandoffGraph { nodes: [ 'billing', 'human', 'triage' ], edges: 2, onCycle: 'error' }");
  g.dispose();
  assert.equal(inspect(g), 'HandoffGraph <disposed>');
  const c = compileCondition("user.tier == 'gold'");
  assert.equal(inspect(c), `Condition "user.tier == 'gold'" { paths: [ 'user.tier' ], disposed: false }`);
  const m = new StateMachine({ name: 'router', start: 'a' }).addState('a').addEdge('a', END);
  assert.equal(inspect(m), "StateMachine 'router' { states: [ 'a' ], edges: 1, start: 'a', maxSteps: 50 }");
  const exec = m.start({});
  assert.equal(inspect(exec), "Execution of 'router' { stepsRun: 0, lastState: null, next: null, reason: null, failed: false }");
  m.dispose();
  assert.equal(inspect(exec), "Execution of 'router' <disposed>");
  assert.equal(inspect(m), "StateMachine 'router' <disposed>");
  const swarm = new api.Swarm({ name: 'support', agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b', when: 'x == 1' }, { from: 'b', to: 'a' }] });
  assert.equal(inspect(swarm), "Swarm 'support' { agents: [ 'a', 'b' ], edges: { rule: 1, llm: 1, hybrid: 0 } }");
  swarm.dispose();
  assert.equal(inspect(swarm), "Swarm 'support' <disposed>");
});

test('init() refuses a module built from another contract, saying what to do', () => {
  assert.doesNotThrow(() => checkContract({ _hg_contract_fingerprint: () => FINGERPRINT }));
  assert.throws(() => checkContract({ _hg_contract_fingerprint: () => FINGERPRINT ^ 1 }), /built with contract .* expects .*different versions/);
  assert.throws(() => checkContract({}), /has no contract fingerprint/);
  assert.throws(() => checkContract({}, 'router'), /Load the handoff-graph-router\.wasm shipped with this package/, "the routing module's own file");
});

test('js/contract.js is generated from src/core/contract.h and up to date', () => {
  const script = fileURLToPath(new URL('../../scripts/gen-contract.mjs', import.meta.url));
  assert.doesNotThrow(() => execFileSync(process.execPath, [script, '--check'], { stdio: 'pipe' }));
});

// src/core/string_index.h: node ids, JSON members and state keys are hashed under a key drawn at
// random (by the first call that needs the runtime: requireRuntime() here), so that nobody can
// choose keys whose hashes collide. Keyed once: a second key (which could be a known one) is
// refused, in both modules.
test('init() keys the string hashing of either module once, and a second key is refused', () => {
  const program = (entry) => `
    const api = await import(${JSON.stringify(entry)});
    await api.init();
    const { requireRuntime } = await import(${JSON.stringify(fileURLToPath(new URL('../../js/runtime.js', import.meta.url)))});
    console.log(requireRuntime().module._hg_seed_hashes(1, 2, 3, 4));`;
  for (const entry of ['handoff-graph', 'handoff-graph/router']) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', program(entry)], { encoding: 'utf8' });
    assert.equal(out.trim(), '0', entry);
  }
});
