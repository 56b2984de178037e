// Doubles through every reader and writer of the full module (tests/js/number-text-cases.js says
// why): condition literals, definitions, the preview of what a state read, a definition's error
// message, and the DAG export's JSON. The routing module runs the same reading cases
// (number-text-router.test.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import * as api from 'handoff-graph';
import { definitionsRoundTrip, LITERALS, literalsReadExactly } from './number-text-cases.js';

await api.init();
const { DefinitionError, END, NoEdgeMatchedError, StateMachine } = api;

// nlohmann's shortest digits, as the native build writes them (and as the modules must).
const WRITTEN = [
  [0.1, '0.1'], [1.5, '1.5'], [1e-7, '1e-07'], [1e21, '1e+21'], [5e-324, '5e-324'], [0.30000000000000004, '0.30000000000000004'],
  [1.7976931348623157e308, '1.7976931348623157e+308'], [2.2250738585072014e-308, '2.2250738585072014e-308'], [-4.35, '-4.35'],
];

test('condition literals read as exactly the double JavaScript reads', () => literalsReadExactly(api));

test('graph definitions with those literals round-trip through JSON text', () => definitionsRoundTrip(api));

test('what a state read is previewed as String(value) shows it', async () => {
  for (const [value] of WRITTEN) {
    const m = new StateMachine({ name: 'n', start: 'a' }).addState('a').addEdge('a', END, 'x == "never"');
    await assert.rejects(m.run({ x: value }), (error) => {
      assert.ok(error instanceof NoEdgeMatchedError);
      assert.equal(error.read.x, String(value));
      return true;
    });
    m.dispose();
  }
});

test("a definition's numbers are read exactly and shown in its problems with the shortest digits", () => {
  for (const [value, text] of WRITTEN.filter(([v]) => v > 0)) {
    const definition = `{"version":1,"name":"n","start":"f","states":[{"name":"f","branches":["a","b"],"concurrency":${value}},` +
      '{"name":"a"},{"name":"b"}],"edges":[]}';
    assert.throws(() => StateMachine.fromJSON(definition), (error) => {
      assert.ok(error instanceof DefinitionError);
      assert.match(error.message, new RegExp(`got ${text.replace(/[.+]/g, '\\$&')}`));
      return true;
    });
  }
});

test('exports keep the literals as written', () => {
  const g = new api.HandoffGraph();
  LITERALS.forEach((literal, i) => g.addEdge('start', `n${i}`, `x == ${literal}`));
  const dag = g.toDag();
  const whens = JSON.stringify(dag);
  for (const literal of LITERALS) assert.ok(whens.includes(`x == ${literal}`), literal);
  const mermaid = g.toMermaid();
  const dot = g.toDot();
  for (const literal of LITERALS) {
    assert.ok(mermaid.includes(literal), `mermaid: ${literal}`);
    assert.ok(dot.includes(literal), `dot: ${literal}`);
  }
  g.dispose();
});
