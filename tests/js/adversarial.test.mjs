// Adversarial inputs (issue 9): conditions, states, definitions, machine states and tool calls
// built to break the library. Each case expects the documented error or the spec's answer; none may
// crash, hang, throw from route(), or change a built-in prototype (checked after every test).
// What tests/js/api.test.mjs already covers (prototype-chain paths, getters and Proxy traps that
// throw on reading, cyclic objects, shared references, the cell budget's effect) is not repeated.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';

import {
  init, HandoffGraph, StateMachine, Swarm, END, compileCondition, evaluateCondition,
  ConditionSyntaxError, CycleError, DefinitionError, GraphValidationError,
} from 'handoff-graph';

await init();

// ---------------------------------------------------------------------------------------------
// Built-in prototypes must come out of every test exactly as they went in.

const builtins = { Object, Array, Function, String, Number, Boolean, Symbol, BigInt, Map, Set, Promise, Error, RegExp, JSON };
function prototypeState() {
  const out = new Map();
  for (const [name, ctor] of Object.entries(builtins)) {
    const target = name === 'JSON' ? ctor : ctor.prototype;
    for (const key of Reflect.ownKeys(target)) {
      const d = Reflect.getOwnPropertyDescriptor(target, key);
      out.set(`${name}.${String(key)}`, [d.value, d.get, d.set, d.writable, d.enumerable]);
    }
    out.set(`${name}:proto`, Object.getPrototypeOf(target));
  }
  return out;
}
const pristine = prototypeState();
afterEach(() => {
  const now = prototypeState();
  const changed = [...new Set([...pristine.keys(), ...now.keys()])].filter((k) => {
    const [a, b] = [pristine.get(k), now.get(k)];
    return a === undefined || b === undefined || (Array.isArray(a) ? a.some((v, i) => v !== b[i]) : a !== b);
  });
  assert.deepEqual(changed, [], 'a built-in prototype changed');
  assert.equal({}.polluted, undefined);
});

const read = (source, state) => evaluateCondition(source, state);
const bytes = (s) => Buffer.byteLength(s, 'utf8');

function syntaxError(source, message, index) {
  assert.throws(() => compileCondition(source), (e) => {
    assert.ok(e instanceof ConditionSyntaxError, `${e}`);
    assert.equal(e.message.split('\n')[0], `${message} at column ${index + 1}`);
    assert.equal(e.index, index);
    return true;
  });
}

// A graph whose route() must answer for any state: 'b' when `when` holds, else 'c'.
function router(when) {
  return new HandoffGraph().addEdge('a', 'b', when).addEdge('a', 'c');
}

// ---------------------------------------------------------------------------------------------

describe('hostile conditions', () => {
  // The condition vectors check these sources' errors; here they arrive through every API that
  // takes a condition, which must refuse them quickly and stay as it was.
  test('100,000 parentheses, 10,000 `not`, 100,000 brackets: refused by graphs, machines and swarms', () => {
    const deep = [
      [`${'('.repeat(100_000)}x${')'.repeat(100_000)}`, 128],
      [`${'not '.repeat(10_000)}x`, 512],
      [`x in ${'['.repeat(100_000)}${']'.repeat(100_000)}`, 133],
      [`${'(not '.repeat(50_000)}x`, 320],
    ];
    for (const [source, index] of deep) {
      syntaxError(source, 'nested too deeply', index);
      const g = new HandoffGraph().addEdge('a', 'b');
      const before = JSON.stringify(g.toJSON());
      assert.throws(() => g.addEdge('a', 'c', source), (e) => e instanceof ConditionSyntaxError && e.index === index);
      assert.equal(JSON.stringify(g.toJSON()), before);
      const m = new StateMachine({ start: 'a' }).addState('a').addEdge('a', END);
      assert.throws(() => m.addEdge('a', END, source), ConditionSyntaxError);
      assert.deepEqual(m.toJSON().edges, [{ from: 'a', to: END }]);
      assert.throws(() => new Swarm({ agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b', when: source }] }), (e) => {
        assert.ok(e instanceof DefinitionError);
        assert.deepEqual(e.problems.map((p) => [p.pointer, p.message]), [['/edges/0/when', `nested too deeply at column ${index + 1}`]]);
        return true;
      });
    }
    assert.equal(read(`${'not '.repeat(128)}x`, { x: 'yes' }), true);  // 128 of them parse and cancel out
  });

  test('a 1 MiB condition (an `or` chain of 80,000+ comparisons) compiles, routes and evaluates', () => {
    const LIMIT = 1 << 20;
    let source = Array.from({ length: 90_000 }, (_, i) => `x == ${i}`).join(' or ');
    source = source.slice(0, source.lastIndexOf(' or ', LIMIT - 16));
    const last = Number(source.slice(source.lastIndexOf(' ') + 1));
    source += ' '.repeat(LIMIT - bytes(source));
    assert.equal(bytes(source), LIMIT);
    const g = router(source);
    assert.equal(g.route('a', { x: last }), 'b');
    assert.equal(g.route('a', { x: last + 1 }), 'c');
    assert.equal(g.route('a', { x: 0 }), 'b');
    syntaxError(`${source} `, 'condition too long', 0);
  });

  test('the length limit counts UTF-8 bytes: 349,525 three-byte characters always fit', () => {
    const fits = `x == '${'日'.repeat(349_525 - 7)}'`;
    assert.ok(bytes(fits) <= 1 << 20);
    assert.equal(read(fits, { x: '日'.repeat(349_518) }), true);
    const over = `x == '${'日'.repeat(349_526)}'`;
    assert.ok(over.length < 1 << 20 && bytes(over) > 1 << 20);
    syntaxError(over, 'condition too long', 0);
  });

  test('a list literal of 100,000 items: list too long at the 65,537th; 65,536 items work', () => {
    syntaxError(`x in [${'0,'.repeat(100_000)}]`, 'list too long', 6 + 65_536 * 2);
    const items = Array.from({ length: 65_536 }, (_, i) => i);
    const c = compileCondition(`x in [${items.join(',')}]`);
    assert.equal(c.evaluate({ x: 65_535 }), true);
    assert.equal(c.evaluate({ x: 65_536 }), false);
  });

  test('NUL bytes: an error outside strings; ordinary characters in strings, keys and node ids', () => {
    syntaxError('x ==\u0000 1', 'unexpected character U+0000', 4);
    assert.equal(read("x == 'a\u0000b'", { x: 'a\0b' }), true);  // a raw NUL inside quotes
    assert.equal(read("x == 'a\\0b'", { x: 'a\0b' }), true);
    assert.equal(read("x == 'a'", { x: 'a\0' }), false);
    assert.equal(read("m['k\\0'] == 1 and m['k'] == 2", { m: { 'k\0': 1, k: 2 } }), true);
    assert.equal(read("'\\0' in s", { s: 'a\0b' }), true);
    const g = new HandoffGraph().addEdge('a\0', 'b\0c', "x == '\\0'").addEdge('a', 'd');
    assert.deepEqual(g.nodes(), ['a', 'a\0', 'b\0c', 'd']);
    assert.equal(g.route('a\0', { x: '\0' }), 'b\0c');
    assert.equal(g.route('a', { x: '\0' }), 'd');
    const copy = HandoffGraph.fromJSON(JSON.stringify(g.toJSON()));
    assert.deepEqual(copy.toJSON(), g.toJSON());
    assert.match(g.toMermaid(), /flowchart/);
    assert.match(g.toDot(), /digraph/);
  });

  test('lone surrogates: U+FFFD in the source, in state strings and in ids, one for one', () => {
    assert.equal(read("x == '\uD800'", { x: '\uDFFF' }), true);  // both sides become U+FFFD
    assert.equal(read("x == '\uFFFD'", { x: '\uD83D' }), true);
    assert.equal(read("x['\uDC00'] == 1", { x: { '\uFFFD': 1 } }), true);
    syntaxError('\uD800 == 1', "unexpected character '\uFFFD'", 0);
    syntaxError("x == '\\uD800'", 'lone surrogate', 6);  // an escape must name a whole code point
    const g = new HandoffGraph().addEdge('n\uD800', 'm', "x == '\uDBFF'");
    assert.deepEqual(g.nodes(), ['m', 'n\uFFFD']);
    assert.equal(g.route('n\uFFFD', { x: '\uDFFF' }), 'm');
    assert.equal(g.explain('n\uDFFF', { x: '\uDFFF' }).result, 'm');
  });

  test('lone surrogates in definition text and in a tool call: U+FFFD one for one, nothing after them lost', () => {
    const text = '{"format":"handoff-graph","version":1,"nodes":[{"id":"a\uD800b"}],"edges":[]}';
    assert.deepEqual(HandoffGraph.fromJSON(text).toJSON().nodes, [{ id: 'a\uFFFDb' }]);
    const machine = StateMachine.fromJSON(`{"format":"handoff-graph/state-machine","version":1,"start":"s\uDC00t","states":[{"name":"s\uDC00t"}],"edges":[{"from":"s\uDC00t","to":"__end__"}]}`);
    assert.equal(machine.toJSON().start, 's\uFFFDt');
    const swarm = new Swarm({ agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }] });
    const outcome = swarm.applyToolCall(swarm.createSession(), { name: 'nope\uD800x', arguments: '{}' });
    assert.deepEqual(outcome, { type: 'rejected', reason: "'nope\uFFFDx' is not a tool of agent 'a'" });
  });

  test('huge and tiny numbers, and -0, in literals', () => {
    syntaxError('x == 1e309', 'number out of range', 5);
    syntaxError(`x == ${'9'.repeat(400)}`, 'number out of range', 5);
    assert.equal(read('x == 1.7976931348623157e308', { x: Number.MAX_VALUE }), true);
    assert.equal(read('x > 0 and x < 1e-323', { x: Number.MIN_VALUE }), true);
    assert.equal(read('x == 9007199254740993', { x: 2 ** 53 }), true);  // the literal rounds to 2^53
    assert.equal(read('[-0] == [0] and -0 in [0] and -0 == 0', {}), true);
    assert.equal(read('x[-0] == 5', { x: [5] }), true);
    assert.equal(read("x[-0] == 5 and x['-0'] == 6", { x: { 0: 5, '-0': 6 } }), true);
    // Index steps past 2^63 saturate: no array is that long, and on an object the key is the text.
    assert.equal(read('x[9223372036854775808] == null and x[-99999999999999999999] == null', { x: [1, 2] }), true);
    assert.equal(read('x[9223372036854775808] == 1 and x[-009223372036854775809] == 2', { x: { '9223372036854775808': 1, '-9223372036854775809': 2 } }), true);
  });
});

// ---------------------------------------------------------------------------------------------

describe('hostile states', () => {
  // Every trap of this Proxy throws, whatever the operation.
  const throwsEverywhere = () => new Proxy({}, new Proxy({}, { get: () => () => { throw new Error('trap'); } }));

  test('a Proxy every one of whose traps throws reads as null: as the root, a member, an element', () => {
    const g = router("x == null and p == null and l == [1, null, 3] and 'k' in o and o.k == null");
    assert.equal(g.route('a', throwsEverywhere()), 'c');  // the root is null: `'k' in o` is false
    const state = { p: throwsEverywhere(), l: [1, throwsEverywhere(), 3], o: { k: throwsEverywhere() } };
    assert.equal(g.route('a', state), 'b');
    assert.deepEqual(g.explain('a', state).edges.map((e) => e.matched), [true, false]);
  });

  test('Proxies that break their invariants or invent keys', () => {
    const duplicateKeys = new Proxy({ a: 1 }, { ownKeys: () => ['a', 'a'] });  // TypeError inside Object.keys
    assert.equal(read('p == null and p.a == 1', { p: duplicateKeys }), true);
    const ghost = new Proxy({ a: 1 }, {
      ownKeys: () => ['a', 'ghost'],
      getOwnPropertyDescriptor: (t, k) => (k === 'ghost' ? { value: 2, enumerable: true, configurable: true } : Reflect.getOwnPropertyDescriptor(t, k)),
    });
    // Keys are what ownKeys and the descriptors say; values are read through `get`, which has none.
    assert.equal(read("'ghost' in p and p.ghost == null and p.a == 1", { p: ghost }), true);
    let calls = 0;
    const flaky = new Proxy({ v: 1 }, { get: (t, k) => (calls++ % 2 === 0 ? t[k] : undefined) });
    assert.equal(typeof read('p.v == 1', { p: flaky }), 'boolean');
  });

  test('getters that throw inside compared containers read as null', () => {
    const list = [1];
    Object.defineProperty(list, 1, { enumerable: true, get() { throw new Error('getter'); } });
    const object = Object.defineProperty({ a: 1 }, 'b', { enumerable: true, get() { throw new Error('getter'); } });
    assert.equal(read('x == [1, null] and null in x', { x: list }), true);
    assert.equal(read("'b' in o and o.b == null and o == p", { o: object, p: { a: 1, b: null } }), true);
  });

  test('getters that grow, shrink or rewrite the state while it is read', () => {
    const grow = [1, 2];
    Object.defineProperty(grow, 0, { enumerable: true, configurable: true, get() { grow.push(9); return 1; } });
    assert.equal(read('x == [1, 2]', { x: grow }), true);  // the length read first is the one used
    const shrink = [1, 2, 3];
    Object.defineProperty(shrink, 0, { enumerable: true, configurable: true, get() { shrink.length = 1; return 1; } });
    assert.equal(read('x == [1, null, null]', { x: shrink }), true);  // what disappeared reads as null
    // Paths are read in the order the evaluation reaches them (docs/conditions.md): read first,
    // `o` is a copy from before its getter rewrote it; read after `o.a`, it has `c` and no `b`.
    const rewriting = () => {
      const object = { get a() { delete object.b; object.c = 3; return 1; }, b: 2 };
      return object;
    };
    assert.equal(read("'c' not in o and 'b' not in o and o.a == 1", { o: rewriting() }), true);
    assert.equal(read("o.a == 1 and 'c' in o and 'b' not in o", { o: rewriting() }), true);
    const g = router('x == [1, 2] or o.a == 1');
    assert.equal(g.route('a', { x: grow, o: { a: 1 } }), 'b');
  });

  test('cyclic arrays and cycles through Proxies', () => {
    const a = [];
    a.push(a, 'tail');
    assert.equal(read("a and a[0][0][0][1] == 'tail'", { a }), true);
    assert.equal(read("a == a or 'x' in a", { a }), false);  // deeper than the comparison limit
    const loop = new Proxy({}, { ownKeys: () => ['self'], getOwnPropertyDescriptor: () => ({ value: loop, enumerable: true, configurable: true }), get: () => loop });
    assert.equal(read('p.self.self.self == p', { p: loop }), false);
    assert.equal(router('p == q').route('a', { p: loop, q: loop }), 'c');
  });

  test('Object.create(null), frozen, sealed and non-extensible states', () => {
    const root = Object.assign(Object.create(null), { tier: 'gold', tags: Object.freeze(['vip']), nested: Object.seal({ n: 1 }) });
    assert.equal(router("tier == 'gold' and 'vip' in tags and nested.n == 1").route('a', root), 'b');
    assert.equal(read('toString == null and constructor == null', root), true);
    const frozen = Object.freeze({ x: Object.freeze([Object.preventExtensions({ y: 1 })]) });
    assert.equal(read('x[0].y == 1 and x[0] == p', Object.freeze({ ...frozen, p: { y: 1 } })), true);
    const a = Object.create(null);
    const b = Object.create(null);
    a.k = b.k = [1];
    assert.equal(read('a == b', { a, b }), true);
  });

  test('typed arrays, DataView and ArrayBuffer read as objects of their own indexed keys', () => {
    const state = {
      f: new Float64Array([NaN, -0, Infinity]), i: new Int32Array([0, 0]), b: new BigInt64Array([0n, 0n]),
      dv: new DataView(new ArrayBuffer(4)), ab: new ArrayBuffer(8),
    };
    assert.equal(read('i == b', state), true);  // { '0': 0, '1': 0 } either way
    assert.equal(read("'0' in i and 0 not in i", state), true);  // `in` an object looks for a string key
    assert.equal(read('f[1] == 0 and f[2] > 1e308 and not f[0] and f != f', state), true);  // NaN is in f
    assert.equal(read('dv or ab', state), false);  // no own enumerable keys: {}
  });

  test('huge numbers and bigints in the state', () => {
    assert.equal(read('x > 1e308 and y < -1e308', { x: 10n ** 400n, y: -(10n ** 400n) }), true);  // ±Infinity
    assert.equal(read('x == y', { x: 2n ** 53n + 1n, y: 2 ** 53 }), true);
    assert.equal(read('x == 0 and not x and x in [0]', { x: -0 }), true);
    assert.equal(read('x[0] == 0', { x: [-0] }), true);
  });

  test('route never throws and gives the spec answer for all of these at once', () => {
    const g = router("x.y == 1 or 'k' in z or w[-1] > 2 or __proto__.polluted or constructor.name == 'Object'");
    const hostile = [
      throwsEverywhere(), Object.create(null), Object.freeze({ x: { y: 2 } }), new Float64Array(4), 10n,
      { __proto__: { x: { y: 1 } } }, JSON.parse('{"__proto__": {"x": 1}}'), { constructor: { name: 'Object' } },
    ];
    const answers = hostile.map((state) => g.route('a', state));
    assert.deepEqual(answers, ['c', 'c', 'c', 'c', 'c', 'c', 'c', 'b']);
  });
});

// ---------------------------------------------------------------------------------------------

describe('definitions with polluting keys and hostile text', () => {
  const machineDefinition = (extra = {}) => ({
    format: 'handoff-graph/state-machine', version: 1, name: 'm', start: 'a',
    states: [{ name: 'a' }], edges: [{ from: 'a', to: END }], ...extra,
  });

  test('StateMachine.fromJSON reports polluting keys as unknown properties', () => {
    const text = JSON.stringify(machineDefinition({ states: [{ name: 'a', constructor: { prototype: { polluted: true } } }] }))
      .replace('{"format"', '{"__proto__": {"polluted": true}, "format"')
      .replace('"edges":[{', '"edges":[{"__proto__": {"polluted": true}, ');
    assert.throws(() => StateMachine.fromJSON(text), (e) => {
      assert.ok(e instanceof DefinitionError);
      assert.deepEqual(e.problems.map((p) => p.pointer), ['/__proto__', '/states/0/constructor', '/edges/0/__proto__']);
      return true;
    });
    assert.throws(() => StateMachine.fromJSON(JSON.parse(text)), DefinitionError);
  });

  test('names that are Object.prototype members are ordinary names in machines', async () => {
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype'];
    const definition = machineDefinition({
      start: '__proto__',
      states: names.map((name) => ({ name })),
      edges: [
        ...names.slice(0, -1).map((name, i) => ({ from: name, to: names[i + 1], when: `$visits.${name} == 1 and $visits.toString < 2` })),
        { from: 'prototype', to: END },
      ],
      reducers: JSON.parse('{"__proto__": "append", "constructor": "sum"}'),
    });
    const seen = [];
    const handlers = Object.fromEntries(names.map((name) => [name, () => { seen.push(name); return JSON.parse('{"__proto__": 1, "constructor": 2}'); }]));
    const m = StateMachine.fromJSON(JSON.stringify(definition), { handlers });
    const run = await m.run({});
    assert.equal(run.reason, 'end');
    assert.deepEqual(seen, names);
    assert.deepEqual(Object.keys(run.state), ['__proto__', 'constructor']);
    assert.deepEqual(run.state.__proto__, [1, 1, 1, 1, 1]);  // own data, appended five times
    assert.equal(run.state.constructor, 10);
    assert.equal(Object.getPrototypeOf(run.state), Object.prototype);
    assert.deepEqual(m.toJSON().reducers, definition.reducers);
  });

  test('Swarm definitions: polluting keys are unknown properties; such agent ids are ordinary ids', () => {
    const text = '{"__proto__": {"polluted": true}, "agents": [{"id": "a", "entry": true, "constructor": {}}], "edges": []}';
    assert.throws(() => new Swarm(text), (e) => {
      assert.ok(e instanceof DefinitionError);
      assert.deepEqual(e.problems.map((p) => p.pointer), ['/__proto__', '/agents/0/constructor']);
      return true;
    });
    const swarm = new Swarm({
      agents: [{ id: '__proto__', entry: true }, { id: 'constructor' }, { id: 'toString' }],
      edges: [{ from: '__proto__', to: 'constructor' }, { from: 'constructor', to: 'toString', when: "__proto__.role == 'admin'" }],
    });
    const session = swarm.createSession({ variables: JSON.parse('{"__proto__": {"role": "admin"}}') });
    assert.equal(swarm.applyToolCall(session, { name: 'transfer_to_constructor' }).type, 'handoff');
    assert.equal(swarm.applyRules(session)?.to, 'toString');  // the own key __proto__ is data
    assert.equal(session.active, 'toString');
    assert.equal(Object.getPrototypeOf(session.histories), Object.prototype);
    assert.ok(Object.hasOwn(session.histories, '__proto__'));
  });

  test("an agent tool whose parameters' type is not a string is a DefinitionError, not an abort", () => {
    for (const type of [1, null, ['object'], { object: true }]) {
      assert.throws(() => new Swarm({ agents: [{ id: 'a', entry: true, tools: [{ name: 't', description: 'd', parameters: { type } }] }] }), (e) => {
        assert.ok(e instanceof DefinitionError, `${e}`);
        assert.deepEqual(e.problems.map((p) => p.pointer), ['/agents/0/tools/0/parameters']);
        return true;
      });
    }
    assert.equal(router('x').route('a', { x: 1 }), 'b');
  });

  test('definition text nested a million levels deep is a DefinitionError, not a stack overflow', () => {
    const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
    for (const load of [(t) => HandoffGraph.fromJSON(t), (t) => StateMachine.fromJSON(t)]) {
      const format = load.toString().includes('Graph') ? 'handoff-graph' : 'handoff-graph/state-machine';
      assert.throws(() => load(`{"format": "${format}", "version": ${deep}}`), (e) => {
        assert.ok(e instanceof DefinitionError, `${e}`);
        assert.match(e.message, /\/version: unsupported version an array/);
        return true;
      });
      assert.throws(() => load(`{"format": "${format}", "version": 1, "nodes": ${deep}, "states": ${deep}, "edges": [${deep}]}`), DefinitionError);
    }
    assert.equal(router('x').route('a', { x: 1 }), 'b');
  });

  test('export traces with wrong types are errors or ignored, never a crash', () => {
    const g = new HandoffGraph().addEdge('a', 'b', 'x').addEdge('a', 'c');
    assert.match(g.toDot({ highlight: [{ node: 'a', edges: [{ matched: 1, index: 0 }, { matched: 'yes', index: 1 }] }] }), /digraph/);
    assert.match(g.toMermaid({ highlight: [{ node: 'a', edges: [{ matched: true, index: 0 }] }] }), /flowchart/);
    assert.throws(() => g.toDot({ highlight: [{ node: 'a', edge: -1 }] }), TypeError);
    assert.throws(() => g.toDot({ highlight: [{ node: 'zz', edge: 0 }] }), TypeError);
    assert.throws(() => g.toDot({ highlight: { steps: [{ state: 7 }] } }), TypeError);
    assert.throws(() => g.toDot({ highlight: 'trace' }), TypeError);
  });
});

// ---------------------------------------------------------------------------------------------

describe('state machines: hostile states, updates and snapshots', () => {
  const loop = () => new StateMachine({ start: 'a', maxSteps: 10 })
    .addState('a', ({ state }) => ({ n: (state.n ?? 0) + 1 }))
    .addEdge('a', 'a', "n < 3 and 'k' not in p")
    .addEdge('a', END);

  test('routing reads hostile states as the spec says; the run goes on', async () => {
    const p = new Proxy({}, { ownKeys() { throw new Error('trap'); } });
    const run = await loop().run({ p });
    assert.equal(run.reason, 'end');
    assert.equal(run.stepsRun, 3);
    const frozen = Object.freeze({ p: Object.freeze({}) });
    const again = await loop().run(frozen);
    assert.equal(again.stepsRun, 3);
    assert.deepEqual(frozen, { p: {} });  // the initial state is not written to
  });

  test('an update whose getter throws rejects the run with that error', async () => {
    const m = new StateMachine({ start: 'a' }).addState('a', () => ({ get x() { throw new RangeError('hostile update'); } })).addEdge('a', END);
    await assert.rejects(m.run({}), RangeError);
  });

  test('resume() refuses hostile snapshots with an Error that says why', async () => {
    const m = loop();
    const exec = m.start({ p: {} });
    await exec.step();
    const good = exec.snapshot();
    const variants = {
      'status an object': { status: {} },
      'status nested deep': { status: JSON.parse('['.repeat(3000) + ']'.repeat(3000)) },
      'step huge': { step: 1e300 },
      'step negative': { step: -1 },
      'visits polluting': { visits: JSON.parse('{"__proto__": 1}') },
      'steps missing': { steps: [] },
      'current unknown': { current: 'constructor' },
      'definition changed': { definition: 'x' },
    };
    for (const [name, change] of Object.entries(variants)) {
      assert.throws(() => m.resume({ ...good, ...change }), (e) => e instanceof Error && /cannot resume/.test(e.message), name);
    }
    const resumed = m.resume(JSON.stringify(good));
    assert.equal((await resumed.run()).stepsRun, 3);
  });
});

// ---------------------------------------------------------------------------------------------

describe('swarms: hostile variables and tool-call arguments', () => {
  const definition = () => ({
    agents: [{ id: 'triage', entry: true }, { id: 'billing' }, { id: 'human' }],
    edges: [
      { from: 'triage', to: 'billing', when: "category == 'billing'" },
      { from: 'triage', to: 'human', requires: [{ name: 'urgency', from: 'model', type: 'integer' }] },
    ],
  });
  // What a refused call must leave as it was (checkpoints record every outcome, refusals too).
  const core = ({ active, hops, selections, variables, histories }) => JSON.parse(JSON.stringify({ active, hops, selections, variables, histories }));
  const unchanged = (session, before) => assert.deepEqual(core(session), core(before));

  test('variables that cannot be JSON are refused before anything changes', () => {
    const swarm = new Swarm(definition());
    const cyclic = {};
    cyclic.self = cyclic;
    assert.throws(() => swarm.createSession({ variables: { cyclic } }), TypeError);
    const session = swarm.createSession({ variables: { keep: 1 } });
    const before = JSON.parse(JSON.stringify(session));
    const throwing = { get boom() { throw new Error('getter'); } };
    assert.throws(() => swarm.updateState(session, { category: 'billing', cyclic }), TypeError);
    assert.throws(() => swarm.updateState(session, { category: 'billing', throwing }), /getter/);
    assert.throws(() => swarm.updateState(session, new Proxy({}, { ownKeys() { throw new Error('trap'); } })), /trap/);
    unchanged(session, before);
    assert.equal(swarm.updateState(session, { category: 'billing', big: 10n ** 3n === 1000n })?.to, 'billing');
  });

  test('variables with prototype names and NUL are data', () => {
    const swarm = new Swarm({
      agents: [{ id: 'a', entry: true }, { id: 'b' }],
      edges: [{ from: 'a', to: 'b', when: "constructor == 'x\\0' and toString == 'é' and hasOwnProperty == null" }],
    });
    const session = swarm.createSession();
    assert.equal(swarm.updateState(session, { toString: 'é' }), null);
    assert.equal(swarm.updateState(session, { constructor: 'x\0' })?.to, 'b');
  });

  test('hostile tool-call arguments are rejected and change nothing', () => {
    const swarm = new Swarm(definition());
    const session = swarm.createSession();
    const before = JSON.parse(JSON.stringify(session));
    const call = (args) => swarm.applyToolCall(session, { name: 'transfer_to_human', arguments: args });
    const cases = [
      ['{"urgency": 1, "__proto__": {"polluted": true}}', /has no argument '__proto__'/],
      [{ urgency: 1, constructor: 1 }, /has no argument 'constructor'/],
      ['{"urgency": 1', /not valid JSON/],
      ['[1]', /must be a JSON object/],
      ['"x"', /must be a JSON object/],
      [`{"urgency": 1, "reason": ${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`, /nest deeper than 512 levels/],
      [{ urgency: 1, reason: { toString: 'x' } }, /'reason' .* must be a string/],
      [{ urgency: 1, reason: 'x'.repeat(1 << 20), extra: '\0' }, /has no argument 'extra'/],
    ];
    for (const [args, reason] of cases) {
      const outcome = call(args);
      assert.equal(outcome.type, 'rejected', JSON.stringify(outcome).slice(0, 200));
      assert.match(outcome.reason, reason);
    }
    const blocked = [[{ urgency: 1.5 }], [{ urgency: '1' }], [{ urgency: null }], ['{"urgency": 1e308.5}'], [{ urgency: [1] }]];
    for (const [args] of blocked) assert.ok(['handoff_blocked', 'rejected'].includes(call(args).type), JSON.stringify(args));
    assert.throws(() => call(new Proxy({}, { ownKeys() { throw new Error('trap'); } })), /trap/);
    assert.throws(() => swarm.applyToolCall(session, new Proxy({}, { get() { throw new Error('trap'); } })), /trap/);
    for (const name of ['__proto__', 'constructor', 'toString', 'x'.repeat(1 << 20), '\0']) {
      assert.equal(swarm.applyToolCall(session, { name, arguments: {} }).type, 'rejected', name.slice(0, 20));
    }
    unchanged(session, before);
    const ok = call('{"urgency": 1e308, "reason": "a\\u0000b"}');  // NUL in a string is fine
    assert.equal(ok.type, 'handoff');
    assert.equal(ok.reason, 'a\0b');
  });
});

// ---------------------------------------------------------------------------------------------

describe('graphs at scale (there is no graph size limit)', () => {
  test('a 100,000-node chain: a closing edge is a CycleError naming all of it, and nothing changes', () => {
    const g = new HandoffGraph();
    const N = 100_000;
    for (let i = 0; i < N - 1; i++) g.addEdge(`n${i}`, `n${i + 1}`, i % 2 === 0 ? `x > ${i}` : undefined);
    assert.equal(g.size, N);
    assert.equal(g.isDag(), true);
    assert.throws(() => g.addEdge(`n${N - 1}`, 'n0'), (e) => {
      assert.ok(e instanceof CycleError);
      assert.equal(e.cycle.length, N + 1);
      assert.deepEqual([e.cycle[0], e.cycle[1], e.cycle.at(-1)], [`n${N - 1}`, 'n0', `n${N - 1}`]);
      return true;
    });
    assert.equal(g.size, N);
    assert.equal(g.isDag(), true);
    assert.equal(g.route('n0', { x: 0 }), null);
    assert.equal(g.route('n0', { x: 1 }), 'n1');
    // Added backwards, every new edge must reorder nothing: still fast.
    const back = new HandoffGraph();
    for (let i = N - 1; i > 0; i--) back.addEdge(`n${i - 1}`, `n${i}`);
    assert.equal(back.isDag(), true);
  });

  test('100,000 parallel edges from one node, and 1 MiB node ids', () => {
    const g = new HandoffGraph({ onCycle: 'allow' });
    for (let i = 0; i < 100_000; i++) g.addEdge('hub', `t${i % 10}`, `x == ${i}`);
    assert.equal(g.route('hub', { x: 99_999 }), 't9');
    assert.equal(g.explain('hub', { x: 5 }).edges.filter((e) => e.evaluated).length, 6);
    const id = 'é'.repeat(1 << 19);
    g.addEdge(id, id);
    assert.equal(g.route(id, {}), id);
    assert.equal(g.isDag(), false);
  });
});

// ---------------------------------------------------------------------------------------------
// Every limit of docs/limits.md that the condition vectors do not already test at the limit and
// one past it (tests/vectors/conditions.json has nesting, length, path steps and list items).

describe('limits, at the limit and one past it', () => {
  const nest = (depth, inner = 1) => {
    let v = inner;
    for (let i = 0; i < depth; i++) v = [v];
    return v;
  };

  test('deep comparison depth: 64 levels compare, 65 are unequal', () => {
    assert.equal(read('x == y', { x: nest(64), y: nest(64) }), true);
    assert.equal(read('x == y', { x: nest(65), y: nest(65) }), false);
    assert.equal(read('x != y and x and x[0] == y[0]', { x: nest(65), y: nest(65) }), true);
  });

  test('state cells: 1,048,576 for one path are read in full, one more keeps only the size', () => {
    const at = new Array((1 << 20) - 1).fill(0);  // the array cell + 1,048,575 numbers
    const past = new Array(1 << 20).fill(0);
    assert.equal(read('x == x', { x: at }), true);
    assert.equal(read('x == x', { x: past }), false);
    assert.equal(read('x and x[5] == 0 and 0 not in x', { x: past }), true);
  });

  test('marshal work: 8,388,608 cells per evaluation are read in full, one more cuts the next container', () => {
    // Eight paths of exactly 1,048,576 cells each: the budget to the cell.
    const full = new Array((1 << 20) - 1).fill(1);
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const state = Object.fromEntries(names.map((n) => [n, full]));
    const all = names.map((n) => `${n} == ${n}`).join(' and ');
    assert.equal(read(all, state), true);
    // One more cell (a number before them, at path `_`, sorted first) and the last array is cut.
    assert.equal(read(`_ == 1 and ${all}`, { ...state, _: 1 }), false);
    assert.equal(read(`_ == 1 and ${names.slice(0, 7).map((n) => `${n} == ${n}`).join(' and ')} and h and h != h`, { ...state, _: 1 }), true);
  });

  test('compare work: 67,108,864 visits per evaluation compare, one more comparison is false', () => {
    const x = new Array(1 << 19).fill(1);  // each x == y visits 524,288 elements: 128 of them are 2^26
    const y = [...x];
    const repeat = (n) => Array.from({ length: n }, () => 'x == y').join(' and ');
    assert.equal(read(repeat(128), { x, y }), true);
    assert.equal(read(repeat(129), { x, y }), false);
    assert.equal(read(`${repeat(128)} and x != y`, { x, y }), true);  // past the budget, != is true
  });

  test('maxSteps: 1,000,000 runs every step; 1,000,001 (and 0, 1.5, NaN, Infinity) is a validation error', async () => {
    const m = new StateMachine({ start: 'a', maxSteps: 1_000_000 }).addState('a').addEdge('a', 'a', '$step > 0').addEdge('a', END);
    const run = await m.run({});
    assert.equal(run.reason, 'max-steps');
    assert.equal(run.stepsRun, 1_000_000);
    for (const maxSteps of [1_000_001, 0, 1.5, NaN, Infinity, -1]) {
      const bad = new StateMachine({ start: 'a', maxSteps }).addState('a').addEdge('a', END);
      assert.throws(() => bad.validate(), (e) => e instanceof GraphValidationError && e.problems[0].code === 'max-steps', String(maxSteps));
    }
    const loaded = StateMachine.fromJSON({ format: 'handoff-graph/state-machine', version: 1, start: 'a', maxSteps: 1_000_001, states: [{ name: 'a' }], edges: [{ from: 'a', to: END }] });
    await assert.rejects(loaded.run({}), GraphValidationError);
  });

  test('swarm maxHops and handoffs: 1,000,000 is accepted and enforced, 1,000,001 is a DefinitionError', () => {
    const swarm = new Swarm({
      maxHops: 1_000_000,
      agents: [{ id: 'a', entry: true, handoffs: 1_000_000 }, { id: 'b' }],
      edges: [{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }],
    });
    const session = swarm.createSession();
    session.hops = 999_999;
    assert.equal(swarm.applyToolCall(session, { name: 'transfer_to_b' }).type, 'handoff');
    assert.equal(session.hops, 1_000_000);
    assert.deepEqual(swarm.offered(session), []);
    assert.match(swarm.applyToolCall(session, { name: 'transfer_to_a' }).reason, /used its 1000000 handoffs/);
    const selections = swarm.createSession();
    selections.selections = { a: 999_999 };
    assert.equal(swarm.applyToolCall(selections, { name: 'transfer_to_b' }).type, 'handoff');
    selections.active = 'a';
    assert.match(swarm.applyToolCall(selections, { name: 'transfer_to_b' }).reason, /used all its handoffs/);
    for (const [where, extra] of [['/maxHops', { maxHops: 1_000_001 }], ['/agents/0/handoffs', { agents: [{ id: 'a', entry: true, handoffs: 1_000_001 }] }]]) {
      assert.throws(() => new Swarm({ agents: [{ id: 'a', entry: true }], ...extra }), (e) => e instanceof DefinitionError && e.problems.some((p) => p.pointer === where), where);
    }
  });

  test('tool-call arguments: 512 levels of nesting are read, 513 are rejected', () => {
    const swarm = new Swarm({ agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }] });
    const session = swarm.createSession();
    const text = (levels) => `{"reason": ${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;  // the object is a level
    assert.match(swarm.applyToolCall(session, { name: 'transfer_to_b', arguments: text(512) }).reason, /'reason' .*must be a string/);
    assert.match(swarm.applyToolCall(session, { name: 'transfer_to_b', arguments: text(513) }).reason, /nest deeper than 512 levels/);
  });
});

// ---------------------------------------------------------------------------------------------
// Problems this suite found on the JavaScript side, fixed in js/: kept as regression tests.

describe('JavaScript-side problems found here (fixed)', () => {
  test('a getter that evaluates another condition while the state is read does not change the answer', () => {
    const c = compileCondition("x == 'zzz' or 'a' in x or x == [1]");
    let entered = 0;
    const x = new Array(5000).fill(7);
    Object.defineProperty(x, 0, { enumerable: true, get() { if (entered++ === 0) evaluateCondition("s == 'q' and t", { s: 'q', t: 'qq' }); return 1; } });
    assert.equal(c.evaluate({ x }), false);
  });

  test("a swarm context named like an Object.prototype member ('toString') is a DefinitionError", () => {
    assert.throws(() => new Swarm({ context: 'toString', agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }] }), DefinitionError);
  });

  test("a 'custom' reducer named like an Object.prototype member must be supplied", () => {
    const definition = { format: 'handoff-graph/state-machine', version: 1, start: 'a', states: [{ name: 'a' }], edges: [{ from: 'a', to: END }], reducers: { constructor: 'custom' } };
    assert.throws(() => StateMachine.fromJSON(definition), DefinitionError);
  });

  test('NoEdgeMatchedError shows $visits of a state named constructor as routing saw it (0)', async () => {
    const m = new StateMachine({ start: 'a' }).addState('a').addState('constructor').addEdge('a', 'constructor', '$visits.constructor == 1').addEdge('constructor', END);
    await assert.rejects(m.run({}), (e) => e.read['$visits.constructor'] === '0');
  });

  test('a session variable or a tool-call argument with a lone surrogate reads as U+FFFD', () => {
    const swarm = new Swarm({ agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b', when: "x == '\uFFFD'" }] });
    const session = swarm.createSession();
    assert.equal(swarm.updateState(session, { x: '\uD800' })?.to, 'b');  // was: TypeError 'a session must be an object'
    const llm = new Swarm({ agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b', requires: [{ name: 'note', from: 'model' }] }] });
    const other = llm.createSession();
    const outcome = llm.applyToolCall(other, { name: 'transfer_to_b', arguments: { reason: '\uD800', note: 'n\uDC00' } });
    assert.equal(outcome.type, 'handoff');
    assert.equal(outcome.reason, '\uFFFD');
    assert.equal(llm.applyToolCall(llm.createSession(), { name: 'transfer_to_b', arguments: '{"note": "\\ud800"}' }).type, 'handoff');
  });

  test('route() finds a node whose id has a lone surrogate, as explain() and hasNode() do', () => {
    const g = new HandoffGraph().addEdge('n\uD800', 'm');
    assert.equal(g.hasNode('n\uDFFF'), true);
    assert.equal(g.explain('n\uDFFF', {}).result, 'm');
    assert.equal(g.route('n\uDFFF', {}), 'm');  // was: null
  });

  test('a deeply nested Swarm definition text is a DefinitionError', () => {
    assert.throws(() => new Swarm(`{"agents": [{"id": "a", "entry": true}], "name": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`), DefinitionError);
  });
});
