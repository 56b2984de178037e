// The shortcuts route() takes while reading a state (js/paths.js and js/state-writer.js, issue 19)
// give exactly the answers of the general reader: strings with lone surrogates against graphs whose
// strings do or do not hold U+FFFD (the writer skips the lone-surrogate test while none does), paths of keys only,
// and reads split over one load site per slot. Each case is asked through route(), explain() (the
// general writer) and a standalone condition.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { init, HandoffGraph, compileCondition, evaluateCondition } from 'handoff-graph';

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

// A state whose every read is logged: each key of `values` is an own enumerable getter.
function logged(values, log, prefix = '') {
  const state = {};
  for (const [key, value] of Object.entries(values)) {
    Object.defineProperty(state, key, {
      enumerable: true,
      get() {
        log.push(prefix + key);
        return value !== null && typeof value === 'object' && !Array.isArray(value) ? logged(value, log, `${prefix}${key}.`) : value;
      },
    });
  }
  return state;
}

describe('lazy reading: a route reads a path when the decision first needs it', () => {
  const escalation = "user.tier == 'gold' or (priority > 3 and 'urgent' in tags)";

  // What route() and a compiled condition read of `values` for `when`, and their answers.
  function reads(when, values) {
    const g = new HandoffGraph().addEdge('a', 'yes', when).addEdge('a', 'no');
    const condition = compileCondition(when);
    const routed = [];
    const evaluated = [];
    const answer = g.route('a', logged(values, routed));
    assert.equal(condition.evaluate(logged(values, evaluated)), answer === 'yes');
    assert.deepEqual(evaluated, routed, 'route() and evaluate() read differently');
    g.dispose();
    condition.dispose();
    return { answer, read: routed };
  }

  test('`or` that holds on its first operand reads nothing more; `and` that fails stops', () => {
    assert.deepEqual(reads(escalation, { user: { tier: 'gold' }, priority: 9, tags: ['urgent'] }),
      { answer: 'yes', read: ['user', 'user.tier'] });
    assert.deepEqual(reads(escalation, { user: { tier: 'silver' }, priority: 2, tags: ['urgent'] }),
      { answer: 'no', read: ['user', 'user.tier', 'priority'] });
    assert.deepEqual(reads(escalation, { user: { tier: 'silver' }, priority: 5, tags: ['urgent'] }),
      { answer: 'yes', read: ['user', 'user.tier', 'priority', 'tags'] });
    assert.deepEqual(reads('not a or b', { a: 0, b: 1 }), { answer: 'yes', read: ['a'] });
  });

  test('paths are read in the order evaluation reaches them, not sorted, each once per route', () => {
    assert.deepEqual(reads('z == 1 and a == 1 and z != 2', { a: 1, z: 1 }), { answer: 'yes', read: ['z', 'a'] });
    assert.deepEqual(reads('x < y', { x: 1, y: 2 }), { answer: 'yes', read: ['x', 'y'] });
    assert.deepEqual(reads('y in x', { x: [2], y: 2 }), { answer: 'yes', read: ['y', 'x'] });
    const log = [];
    const g = new HandoffGraph().addEdge('a', 'one', 'k == 1').addEdge('a', 'two', 'k == 2 and m == 1').addEdge('a', 'three', 'm == 2');
    assert.equal(g.route('a', logged({ k: 3, m: 2 }, log)), 'three');
    assert.deepEqual(log, ['k', 'm']);  // `k` serves three tests and `m` two: one read each
    g.dispose();
  });

  test('an unconditional edge first, or a literal that decides, reads nothing', () => {
    const log = [];
    const g = new HandoffGraph().addEdge('a', 'always').addEdge('a', 'never', 'x == 1');
    assert.equal(g.route('a', logged({ x: 1 }, log)), 'always');
    assert.deepEqual(reads('true or x == 1', { x: 1 }), { answer: 'yes', read: [] });
    assert.deepEqual(log, []);
    g.dispose();
  });

  test('a switch reads its path first, then only what the candidate edge needs', () => {
    const g = new HandoffGraph();
    for (let k = 0; k < 20; k++) g.addEdge('a', `r${k}`, `intent == 'i${k}' and priority >= ${k % 4}`);
    const log = [];
    assert.equal(g.route('a', logged({ intent: 'i19', priority: 3, tags: [] }, log)), 'r19');
    assert.deepEqual(log, ['intent', 'priority']);
    log.length = 0;
    assert.equal(g.route('a', logged({ intent: 'none', priority: 3 }, log)), null);
    assert.deepEqual(log, ['intent']);
    g.dispose();
  });

  test('explain() reads every path of the node once, and agrees with route()', () => {
    const g = new HandoffGraph().addEdge('a', 'yes', escalation).addEdge('a', 'no');
    const log = [];
    const explained = g.explain('a', logged({ user: { tier: 'gold' }, priority: 9, tags: [] }, log));
    assert.equal(explained.result, 'yes');
    assert.deepEqual([...log].sort(), ['priority', 'tags', 'user', 'user.tier']);
    g.dispose();
  });

  test('a getter read lazily may route, evaluate and grow memory: the outer route keeps what it read', () => {
    const g = new HandoffGraph().addEdge('n', 'low', "a < 'm' and b == 'qq' and c == 'zz'").addEdge('n', 'other');
    let inner = 0;
    const state = {
      a: 'apple',  // not a string of the graph: its bytes are in the transfer area, written first
      get b() {
        inner++;
        assert.equal(g.route('n', { a: 'zebra', b: 'qq', c: 'zz' }), 'other');  // the same node, meanwhile
        assert.equal(g.route('n', { a: 'ant', get b() { return 'qq'; }, c: 'zz' }), 'low');
        assert.equal(compileCondition("p < 'b' or q").evaluate({ p: 'again' }), true);
        const big = new HandoffGraph();  // grows memory
        for (let i = 0; i < 20_000; i++) big.addEdge(`m${i}`, `m${i + 1}`, `v == ${i}`);
        big.dispose();
        return 'qq';
      },
      c: 'zz',
    };
    assert.equal(g.route('n', state), 'low');
    assert.equal(inner, 1);
    g.dispose();
  });
});

describe('a getter read while the core routes cannot pull the graph or condition from under it', () => {
  test('dispose() in a getter: the route or evaluation finishes, then the object is freed', () => {
    const g = new HandoffGraph().addEdge('a', 'yes', 'x == 1 and y == 2').addEdge('a', 'no');
    assert.equal(g.route('a', { x: 1, get y() { g.dispose(); return 2; } }), 'yes');
    assert.throws(() => g.route('a', {}), /disposed/);
    const c = compileCondition('x == 1 and y == 2');
    assert.equal(c.evaluate({ x: 1, get y() { c.dispose(); c.dispose(); return 2; } }), true);
    assert.throws(() => c.evaluate({}), /disposed/);
    // evaluateCondition's cache evicts (and disposes) the condition being evaluated meanwhile.
    const evicting = { x: 1, get y() { for (let i = 0; i < 300; i++) evaluateCondition(`e${i} == 1`, {}); return 2; } };
    assert.equal(evaluateCondition('x == 1 and y == 2', evicting), true);
    assert.equal(evaluateCondition('x == 1 and y == 2', { x: 1, y: 2 }), true);
  });

  test('addEdge and addNode in a getter are refused while that graph routes; other graphs are free', () => {
    const g = new HandoffGraph().addEdge('a', 'yes', 'x == 1 and y == 2').addEdge('a', 'no');
    const errors = [];
    const other = new HandoffGraph();
    const state = {
      x: 1,
      get y() {
        for (const change of [() => g.addEdge('a', 'late', 'z == 1'), () => g.addNode('b')]) {
          try {
            change();
          } catch (error) {
            errors.push(error.message);
          }
        }
        other.addEdge('p', 'q', 'r == 1');
        return 2;
      },
    };
    assert.equal(g.route('a', state), 'yes');
    assert.equal(errors.length, 2);
    assert.match(errors[0], /^addEdge: this graph is routing/);
    assert.deepEqual(other.nodes(), ['p', 'q']);
    assert.deepEqual(g.nodes(), ['a', 'no', 'yes']);
    g.addEdge('b', 'late', 'z == 1');  // after the route, as usual
    assert.equal(g.route('b', { z: 1 }), 'late');
    g.dispose();
    other.dispose();
  });

  test('explain() reads as route() does: a getter may not change the graph, and a dispose waits for it', () => {
    const g = new HandoffGraph().addEdge('a', 'yes', 'x == 1 and y == 2').addEdge('a', 'no');
    const errors = [];
    const inner = [];
    const state = {
      x: 1,
      get y() {
        try {
          g.addEdge('a', 'late', 'z == 1');
        } catch (error) {
          errors.push(error.message);
        }
        inner.push(g.explain('a', { x: 1, y: 3 }).result);  // nested, on the same node
        return 2;
      },
    };
    const explained = g.explain('a', state);
    assert.equal(explained.result, 'yes');
    assert.deepEqual(explained.edges.map((e) => [e.evaluated, e.matched]), [[true, true], [false, false]]);
    assert.deepEqual(inner, ['no']);
    assert.equal(errors.length, 1);
    assert.match(errors[0], /^addEdge: this graph is routing/);
    assert.deepEqual(g.nodes(), ['a', 'no', 'yes']);

    const disposing = { x: 1, get y() { g.dispose(); return 2; } };
    assert.equal(g.explain('a', disposing).result, 'yes');  // freed once explain() has returned
    assert.throws(() => g.explain('a', {}), /disposed/);
  });
});
