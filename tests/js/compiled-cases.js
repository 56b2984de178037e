// The compiled forms behind fast routing (issue 19) give the answers of the plain ones, from
// JavaScript, on either module (compiled.test.mjs: the full one; router-compiled.test.mjs: the
// routing module of handoff-graph/router): a node's hash switch against explain() (which tries
// every edge in order), key sets for long constant lists against the same list as an `or` of
// `==`, strings the core does not know (sent as bytes, or marked as unknown), conditions compiled through the raw exports, and a
// route whose state reading runs code that compiles, routes or grows WebAssembly memory.
import assert from 'node:assert/strict';
import { test } from 'node:test';

function rng(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const LITERALS = ["'a'", "'b'", "'c'", "'d'", "'e'", "'f'", "'g'", "'h'", "'i'", "'é'", "''", '0', '-0', '1', '2.5', 'true', 'false', 'null', "'1'"];
const VALUES = ['a', 'b', 'c', 'h', 'i', 'é', 'zzz', 'e\uD800', '', 0, -0, 1, 2.5, true, false, null, undefined, '1', ['a'], { a: 1 }];

function list(r) {
  return `[${Array.from({ length: r(14) }, () => LITERALS[r(LITERALS.length)]).join(', ')}]`;
}

function test1(r) {
  const path = ['x', 'x', 'y', 'u.v'][r(4)];
  switch (r(7)) {
    case 0: case 1: return `${path} == ${LITERALS[r(LITERALS.length)]}`;
    case 2: return `${LITERALS[r(LITERALS.length)]} == ${path}`;
    case 3: case 4: return `${path} in ${list(r)}`;
    case 5: return `${path} != ${LITERALS[r(LITERALS.length)]}`;
    default: return `${path} > 0`;
  }
}

function condition(r) {
  switch (r(5)) {
    case 0: return `${test1(r)} and ${test1(r)}`;
    case 1: return `${test1(r)} or ${test1(r)}`;
    default: return test1(r);
  }
}

/** The double after `x` (positive and finite). */
function nextDouble(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) + 1n);
  return view.getFloat64(0);
}

/** Registers the tests on `api`, an initialized entry (`entry` names it in the test titles). */
export function compiledTests(api, entry) {
  const { HandoffGraph, compileCondition, evaluateCondition } = api;

  test(`${entry}: route() answers as explain(), which tries every edge in order, on random switch-heavy nodes`, () => {
    const r = rng(19);
    let routed = 0;
    for (let round = 0; round < 150; round++) {
      const g = new HandoffGraph();
      const edges = 1 + r(30);
      for (let e = 0; e < edges; e++) g.addEdge('n', `t${e}`, r(12) === 0 ? undefined : condition(r));
      for (let s = 0; s < 40; s++) {
        const state = {};
        if (r(8) !== 0) state.x = VALUES[r(VALUES.length)];
        if (r(4) !== 0) state.y = VALUES[r(VALUES.length)];
        if (r(3) === 0) state.u = { v: VALUES[r(VALUES.length)] };
        const got = g.route('n', state);
        assert.equal(got, g.explain('n', state).result, JSON.stringify({ edges: g.edges('n'), state }));
        if (got !== null) routed++;
      }
      g.dispose();
    }
    assert.ok(routed > 1000);
  });

  test(`${entry}: \`x in [long list]\` (a key set) answers as the same list written as an or of ==`, () => {
    const r = rng(7);
    for (let round = 0; round < 200; round++) {
      const items = Array.from({ length: 8 + r(30) }, () => LITERALS[r(LITERALS.length)]);
      const set = compileCondition(`x in [${items.join(', ')}]`);
      const chain = compileCondition(items.map((item) => `x == ${item}`).join(' or '));
      for (const x of VALUES) assert.equal(set.evaluate({ x }), chain.evaluate({ x }), `${items} ${String(x)}`);
      set.dispose();
      chain.dispose();
    }
  });

  test(`${entry}: strings the core does not know still compare by content where the core needs their bytes`, () => {
    const g = new HandoffGraph()
      .addEdge('n', 'before', "x < 'm'")
      .addEdge('n', 'same', 'x == y')
      .addEdge('n', 'inside', "'ell' in x")
      .addEdge('n', 'key', 'x in o')
      .addEdge('n', 'other');
    assert.equal(g.route('n', { x: 'apple' }), 'before');
    assert.equal(g.route('n', { x: 'zebra', y: 'zebra' }), 'same');
    assert.equal(g.route('n', { x: 'yellow', y: 'zebra' }), 'inside');
    assert.equal(g.route('n', { x: 'zz', o: { zz: 1 } }), 'key');
    assert.equal(g.route('n', { x: 'zz', o: { zy: 1 } }), 'other');
    assert.equal(g.route('n', { x: 'z\uD800', y: 'z\uFFFD' }), 'same');  // a lone surrogate reads as U+FFFD
    assert.equal(evaluateCondition("x == '\uFFFD'", { x: '\uDC00' }), true);
    // Where no comparison reads their text, unknown strings travel without it: truthiness, ids.
    const cases = [
      ["x and not y", { x: 'zz', y: '' }, true],
      ["x and not y", { x: '', y: 'zz' }, false],
      ["x == 'a' or x", { x: 'élan' }, true],
      ["x in ['a', 'b'] or x == ['zz', 'a']", { x: ['zz', 'a'] }, true],
      ["x in ['a', 'b'] or x == ['zz', 'a']", { x: ['zy', 'a'] }, false],
      ["x == ['a', 'b']", { x: ['a', 'b'] }, true],
      ["x == ['a', 'b']", { x: ['a', 'zz'] }, false],
      ["'a' in x and 'zz' not in x", { x: ['a', 'zz'] }, false],
      ["'a' in x", { x: 'xxaxx' }, true],
      ["'k' in o and o.k == 'zz' and 'zz' not in o", { o: { k: 'zz', zz: 1 } }, false],
      ["x < 'm' and y == 'a'", { x: 'lemon', y: 'a' }, true],
      ["x in y", { x: 'zz', y: ['a', 'zz'] }, true],
      ["x in y", { x: 'zz', y: { zz: 1 } }, true],
      ["x in y", { x: 'é\uD800', y: ['é\uFFFD'] }, true],
    ];
    for (const [source, state, expected] of cases) {
      assert.equal(evaluateCondition(source, state), expected, `${source} on ${JSON.stringify(state)}`);
      const graph = new HandoffGraph().addEdge('n', 'yes', source).addEdge('n', 'no');
      assert.equal(graph.route('n', state), expected ? 'yes' : 'no', `route: ${source}`);
      graph.dispose();
    }
  });

  test(`${entry}: compileCondition through the raw exports: errors, paths (even after dispose), non-ASCII sources`, () => {
    assert.throws(() => compileCondition("tier = 'gold'"), (e) => e.name === 'ConditionSyntaxError' && e.index === 5 &&
      e.reason === "expected '==' (single '=' is not valid) at column 6");
    assert.throws(() => compileCondition("née == 'x' and"), (e) => e.index === 14);
    const c = compileCondition("user.tier == 'gold' or (priority > 3 and 'urgent' in tags)");
    c.dispose();
    assert.deepEqual(c.paths, ['priority', 'tags', 'user.tier']);
    assert.throws(() => c.evaluate({}), /disposed/);
    const accents = compileCondition("prénom == 'Zoë' and ville['code postal'] == '75001'");
    assert.deepEqual(accents.paths, ["prénom", "ville['code postal']"]);
    assert.equal(accents.evaluate({ prénom: 'Zoë', ville: { 'code postal': '75001' } }), true);
    assert.equal(accents.evaluate({ prénom: 'Zoe', ville: { 'code postal': '75001' } }), false);
    accents.dispose();
  });

  test(`${entry}: a getter that compiles, routes or grows memory mid-route leaves the route its answer`, () => {
    const g = new HandoffGraph().addEdge('n', 'low', "a < 'm' and b == 'qq'").addEdge('n', 'high');
    const made = [];
    const state = {
      a: 'apple',  // not a string of the graph: its bytes are in the transfer area
      get b() {
        made.push(compileCondition(`z${'q'.repeat(200)} == 'x${made.length}'`));  // compiles a long source
        assert.equal(evaluateCondition("p < 'b'", { p: 'again' }), true);         // routes meanwhile
        const big = new HandoffGraph();                                          // grows memory
        for (let i = 0; i < 20_000; i++) big.addEdge(`m${i}`, `m${i + 1}`, `v == ${i}`);
        big.dispose();
        return 'qq';
      },
    };
    assert.equal(g.route('n', state), 'low');
    assert.equal(g.route('n', { ...state, a: 'zoo' }), 'high');
    for (const c of made) c.dispose();
  });

  // Both modules read numbers with the C library's strtod (the condition scanner, nlohmann's lexer)
  // and write them with nlohmann's shortest-digits writer: exactly what JavaScript reads and writes.
  test(`${entry}: number literals read as JavaScript reads them; definitions escape control characters as JSON does`, () => {
    const literals = ['0.1', '0.30000000000000004', '1e308', '1.7976931348623157e308', '2.2250738585072014e-308', '5e-324',
      '4.9e-324', '2e-324', '9007199254740993', '123456789012345678901234567890', '1.5e-7', '100.0', '0.000001', '1E5', '7e+2'];
    for (const text of literals) {
      const value = Number(text);
      assert.equal(evaluateCondition(`x == ${text}`, { x: value }), true, text);
      assert.equal(evaluateCondition(`x == ${text}`, { x: nextDouble(value) }), false, `${text}, the next double`);
    }
    assert.throws(() => compileCondition('x == 1e400'), (e) => e.reason === 'number out of range at column 6');
    const description = 'tab\there \u0001 \u001f "quoted" \\ \u007f é \u2028';
    const g = new HandoffGraph().addNode('a', { description }).addEdge('a', 'b', { when: 'n > 2.5e-3', description: '\u0000' });
    const json = g.toJSON();
    assert.equal(json.nodes.find((n) => n.id === 'a').description, description);
    const again = HandoffGraph.fromJSON(JSON.parse(JSON.stringify(json)));
    assert.deepEqual(again.toJSON(), json);
    assert.equal(again.route('a', { n: 0.0026 }), 'b');
    assert.equal(again.route('a', { n: 0.0025 }), null);
    g.dispose();
    again.dispose();
  });

  test(`${entry}: a one-key node reads its key once, even when the getter routes, compiles and grows memory meanwhile`, () => {
    const g = new HandoffGraph().addEdge('n', 'yes', "k == 'v'").addEdge('n', 'no');
    let reads = 0;
    const state = {
      get k() {
        reads++;
        assert.equal(g.route('n', { k: 'v' }), 'yes');                   // the same node, meanwhile
        assert.equal(evaluateCondition("p == 'q'", { p: 'q' }), true);  // another one-key reader
        const big = new HandoffGraph();                                  // grows memory
        for (let i = 0; i < 20_000; i++) big.addEdge(`m${i}`, `m${i + 1}`, `v == ${i}`);
        big.dispose();
        return 'v';
      },
    };
    assert.equal(g.route('n', state), 'yes');
    assert.equal(reads, 1);
    assert.equal(g.route('n', { k: 'w' }), 'no');
    assert.equal(g.route('n', Object.defineProperty({}, 'k', { value: 'v', enumerable: false })), 'no');
    assert.equal(g.route('n', Object.create({ k: 'v' })), 'no');
    assert.equal(g.route('n', ['v']), 'no');
    g.dispose();
  });
}
