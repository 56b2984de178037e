// The shortcuts route() takes while reading a state (js/marshal.js, issue 19) give exactly the
// answers of the general reader: strings with lone surrogates against graphs whose strings do or do
// not hold U+FFFD (the writer skips the lone-surrogate test while none does), paths of keys only,
// and reads split over one load site per slot. Each case is asked through route(), explain() (the
// general writer) and a standalone condition.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { init, HandoffGraph, compileCondition } from 'handoff-graph';

await init();

// route(), explain()'s winner and a compiled condition must agree on `when` over `state`.
function holds(when, state) {
  const g = new HandoffGraph().addEdge('a', 'yes', when).addEdge('a', 'no');
  const routed = g.route('a', state);
  assert.equal(g.explain('a', state).result, routed, `explain() and route() differ on ${when}`);
  const evaluated = compileCondition(when).evaluate(state);
  assert.equal(evaluated, routed === 'yes', `evaluate() and route() differ on ${when}`);
  g.dispose();
  return evaluated;
}

describe('lone surrogates, with and without U+FFFD among the known strings', () => {
  test('no known string holds U+FFFD: a lone surrogate equals none of them', () => {
    assert.equal(holds("x == 'a'", { x: '\uD800' }), false);
    assert.equal(holds("x in ['a', 'b']", { x: 'a\uDC00' }), false);
    assert.equal(holds("'a' in tags", { tags: ['\uD800', 'b'] }), false);
    assert.equal(holds("x != 'a'", { x: '\uD800' }), true);
    assert.equal(holds('x', { x: '\uD800' }), true);  // truthiness: one unit, not empty
    assert.equal(holds("'a' in tags", { tags: ['\uD800', 'a'] }), true);
  });

  test('a known string holds U+FFFD: a lone surrogate equals it, at the top and inside arrays', () => {
    assert.equal(holds("x == '\\uFFFD'", { x: '\uD800' }), true);
    assert.equal(holds("x == 'a\\uFFFD'", { x: 'a\uDFFF' }), true);
    assert.equal(holds("'\\uFFFD' in tags", { tags: ['b', '\uDBFF'] }), true);
    assert.equal(holds("x in ['\\uFFFD', 'z']", { x: '\uDC00' }), true);
    assert.equal(holds("x == 'ok' or '\\uFFFD' in tags", { x: 'no', tags: [1, '\uD800'] }), true);
  });

  test('a graph that learns a U+FFFD string later reads lone surrogates by it from then on', () => {
    const g = new HandoffGraph().addEdge('a', 'plain', "x == 'a'");
    const state = { x: '\uD800', y: '\uDC00' };
    assert.equal(g.route('a', state), null);
    g.addEdge('a', 'replaced', "x == '\\uFFFD'");
    assert.equal(g.route('a', state), 'replaced');
    g.addEdge('b', 'other', "y == '\\uFFFD'");  // another node of the same graph shares the table
    assert.equal(g.route('b', state), 'other');
    const rebuilt = HandoffGraph.fromJSON(g.toJSON());
    assert.equal(rebuilt.route('a', state), 'replaced');
    g.dispose();
    rebuilt.dispose();
  });

  test('a string that only contains U+FFFD itself matches as written, whatever the table holds', () => {
    assert.equal(holds("x == 'a'", { x: '\uFFFD' }), false);
    assert.equal(holds("x == '\\uFFFD'", { x: '\uFFFD' }), true);
  });
});

describe('paths of keys only (user.tier, a.b.c)', () => {
  const tierGold = "user.tier == 'gold'";

  test('each step reads own enumerable keys of non-array objects only', () => {
    assert.equal(holds(tierGold, { user: { tier: 'gold' } }), true);
    assert.equal(holds(tierGold, { user: Object.create({ tier: 'gold' }) }), false);
    assert.equal(holds(tierGold, Object.create({ user: { tier: 'gold' } })), false);
    assert.equal(holds(tierGold, { user: Object.defineProperty({}, 'tier', { value: 'gold', enumerable: false }) }), false);
    assert.equal(holds(tierGold, Object.defineProperty({}, 'user', { value: { tier: 'gold' }, enumerable: false })), false);
    const array = [];
    array.tier = 'gold';
    assert.equal(holds(tierGold, { user: array }), false);  // a key step on an array reads null
    assert.equal(holds('user.tier == null', { user: 'gold' }), true);
    assert.equal(holds('user.tier == null', null), true);
    assert.equal(holds("a.b.c == 1 and a.b.d == 'x'", { a: { b: { c: 1, d: 'x' } } }), true);
    assert.equal(holds('a.b.c == null', { a: { b: [1] } }), true);
  });

  test('getters on the way are called once each, and one that throws reads as null', () => {
    let calls = 0;
    const user = { get tier() { calls++; return 'gold'; } };
    const g = new HandoffGraph().addEdge('a', 'yes', tierGold).addEdge('a', 'no');
    assert.equal(g.route('a', { user }), 'yes');
    assert.equal(calls, 1);
    assert.equal(g.route('a', { user: { get tier() { throw new Error('getter'); } } }), 'no');
    assert.equal(g.route('a', { get user() { throw new Error('getter'); } }), 'no');
    g.dispose();
  });

  test('Proxies on the way are read through getOwnPropertyDescriptor and get, once each per step', () => {
    const traps = [];
    const user = new Proxy({ tier: 'gold' }, {
      getOwnPropertyDescriptor: (t, k) => (traps.push(`gopd ${String(k)}`), Reflect.getOwnPropertyDescriptor(t, k)),
      get: (t, k) => (traps.push(`get ${String(k)}`), t[k]),
    });
    assert.equal(holds(tierGold, { user }), true);
    traps.length = 0;
    const g = new HandoffGraph().addEdge('a', 'yes', tierGold).addEdge('a', 'no');
    assert.equal(g.route('a', { user }), 'yes');
    assert.deepEqual(traps, ['gopd tier', 'get tier']);
    assert.equal(g.route('a', { user: new Proxy({}, { getOwnPropertyDescriptor() { throw new Error('trap'); } }) }), 'no');
    const { proxy, revoke } = Proxy.revocable({ tier: 'gold' }, {});
    revoke();
    assert.equal(g.route('a', { user: proxy }), 'no');
    g.dispose();
  });
});

describe('one load site per slot', () => {
  test('nodes reading the same keys in different slot orders, and states of many shapes', () => {
    const g = new HandoffGraph()
      .addEdge('a', 'x', 'p == 1 and q == 2 and r == 3 and s == 4 and t == 5')
      .addEdge('b', 'y', 't == 5 and s == 4 and r == 3 and q == 2 and p == 1');
    const shapes = [
      { p: 1, q: 2, r: 3, s: 4, t: 5 },
      { t: 5, s: 4, r: 3, q: 2, p: 1 },
      Object.assign(Object.create(null), { p: 1, q: 2, r: 3, s: 4, t: 5 }),
      { extra: 0, p: 1, q: 2, r: 3, s: 4, t: 5 },
      new (class { constructor() { Object.assign(this, { p: 1, q: 2, r: 3, s: 4, t: 5 }); } })(),
    ];
    for (let round = 0; round < 200; round++) {
      for (const state of shapes) {
        assert.equal(g.route('a', state), 'x');
        assert.equal(g.route('b', state), 'y');
      }
      assert.equal(g.route('a', { ...shapes[0], t: 6 }), null);
      assert.equal(g.route('b', { ...shapes[0], p: Object.defineProperty({}, 'x', { value: 1 }) }), null);
      assert.equal(g.route('a', Object.defineProperty({ p: 1, q: 2, r: 3, s: 4 }, 't', { value: 5, enumerable: false })), null);
    }
    g.dispose();
  });
});
