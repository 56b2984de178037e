// Doubles read and written by the core, on either module, as JavaScript reads and writes them. The
// core reads a number with the C library's strtod where a grammar accepted it (a condition's
// literal; a JSON number in a definition or a session, through nlohmann's lexer) and writes every
// double through nlohmann's shortest-digits writer: these cases go through each of those paths with
// numbers that need every digit (subnormals, the largest double, halfway cases).
import assert from 'node:assert/strict';

/** Literals whose double needs exact decimal conversion, as a condition or JSON would spell them. */
export const LITERALS = [
  '0', '1', '0.1', '0.30000000000000004', '1.5', '4.35', '2.5e+3', '1e-7', '1E21', '123456789012345678901234567890',
  '9007199254740993', '5e-324', '2.2250738585072014e-308', '2.225073858507201e-308', '1.7976931348623157e308',
  '0.000001', '1e22', '1e23', '8.988465674311579e307',
];

/** The double after `x` (towards +infinity), for x >= 0. */
export function nextUp(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) + 1n);
  return view.getFloat64(0);
}

/** A condition's number literal reads as exactly the double JavaScript reads, and no neighbour. */
export function literalsReadExactly({ compileCondition }) {
  for (const literal of LITERALS) {
    const value = Number(literal);
    const c = compileCondition(`x == ${literal}`);
    assert.equal(c.evaluate({ x: value }), true, `${literal} == Number('${literal}')`);
    assert.equal(c.evaluate({ x: nextUp(value) }), false, `${literal} is not the double after it`);
    c.dispose();
  }
}

/** Conditions with those literals survive a definition's round trip through JSON text and route the same. */
export function definitionsRoundTrip({ HandoffGraph }) {
  const g = new HandoffGraph();
  LITERALS.forEach((literal, i) => g.addEdge('start', `n${i}`, `x == ${literal}`));
  const copy = HandoffGraph.fromJSON(JSON.stringify(g.toJSON()));
  assert.deepEqual(copy.toJSON(), g.toJSON());
  LITERALS.forEach((literal, i) => assert.equal(copy.route('start', { x: Number(literal) }), `n${i}`, literal));
  g.dispose();
  copy.dispose();
}
