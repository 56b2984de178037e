// JavaScript-specific behaviour: loading, errors, disposal, exotic states, memory.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import * as api from 'handoff-graph';

const {
  init, HandoffGraph, compileCondition, evaluateCondition, heapUsed,
  ConditionSyntaxError, CycleError, DefinitionError,
} = api;

const initPromise = init();
await initPromise;

function triage() {
  return new HandoffGraph()
    .addEdge('triage', 'billing', "category == 'billing'")
    .addEdge('triage', 'support', { when: "category == 'support'", description: 'Support questions' })
    .addEdge('triage', 'human');
}

describe('loading', () => {
  test('init() returns the same promise every time', () => {
    assert.equal(init(), initPromise);
    assert.equal(init({ wasm: new Uint8Array(1) }), initPromise);  // options ignored once loaded
  });

  test('using the API before init() throws an Error that says to await init()', () => {
    const script = `import { HandoffGraph, compileCondition } from 'handoff-graph';
      for (const f of [() => new HandoffGraph(), () => compileCondition('x')]) {
        try { f(); console.log('no error'); } catch (e) { console.log(e.constructor.name + ': ' + e.message); }
      }`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.match(out, /^Error: .*await init\(\)/m);
    assert.doesNotMatch(out, /no error/);
  });

  test('init() rejects bad wasm and a later init() can retry', () => {
    const script = `import { init, HandoffGraph } from 'handoff-graph';
      try { await init({ wasm: new Uint8Array([0, 1, 2]) }); console.log('loaded'); } catch (e) { console.log('rejected ' + e.constructor.name); }
      await init();
      console.log(new HandoffGraph().addEdge('a', 'b').route('a', {}));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(out.trim(), 'rejected CompileError\nb');
  });

  test('init({ wasm }) accepts bytes, an ArrayBuffer, a URL, a path and a WebAssembly.Module', () => {
    const wasmUrl = new URL('../../dist/handoff-graph.wasm', import.meta.url);
    const forms = {
      bytes: 'readFileSync(url)',
      arrayBuffer: 'readFileSync(url).buffer.slice(0)',
      url: 'url',
      urlString: 'url.href',
      path: 'fileURLToPath(url)',
      module: 'new WebAssembly.Module(readFileSync(url))',
    };
    for (const [name, expression] of Object.entries(forms)) {
      const script = `import { readFileSync } from 'node:fs'; import { fileURLToPath } from 'node:url';
        import { init, HandoffGraph } from 'handoff-graph';
        const url = new URL(${JSON.stringify(wasmUrl.href)});
        await init({ wasm: ${expression} });
        console.log(new HandoffGraph().addEdge('a', 'b', 'x').route('a', { x: 1 }));`;
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      assert.equal(out.trim(), 'b', name);
    }
  });

  test('init({ wasm }) takes a module, bytes or an ArrayBuffer made in another realm, and a Response', () => {
    const wasmUrl = new URL('../../dist/handoff-graph.wasm', import.meta.url);
    // vm contexts stand for an edge runtime's host, an iframe: their classes are not this realm's.
    const forms = {
      foreignModule: "vm.runInNewContext('new WebAssembly.Module(bytes)', { bytes: readFileSync(url) })",
      foreignBytes: "vm.runInNewContext('const b = new Uint8Array(bytes.length); b.set(bytes); b', { bytes: readFileSync(url) })",
      foreignArrayBuffer: "vm.runInNewContext('const b = new Uint8Array(bytes.length); b.set(bytes); b.buffer', { bytes: readFileSync(url) })",
      response: "new Response(readFileSync(url), { headers: { 'content-type': 'application/wasm' } })",
      responseNotStreamable: 'new Response(readFileSync(url))',
    };
    for (const [name, expression] of Object.entries(forms)) {
      const script = `import { readFileSync } from 'node:fs'; import vm from 'node:vm';
        import { init, HandoffGraph } from 'handoff-graph';
        const url = new URL(${JSON.stringify(wasmUrl.href)});
        const wasm = ${expression};
        console.log(wasm instanceof WebAssembly.Module || wasm instanceof Uint8Array || wasm instanceof ArrayBuffer || wasm instanceof Response);
        await init({ wasm });
        console.log(new HandoffGraph().addEdge('a', 'b', 'x').route('a', { x: 1 }));`;
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      assert.equal(out.trim(), `${name.startsWith('foreign') ? 'false' : 'true'}\nb`, name);
    }
    const refused = `import { init } from 'handoff-graph';
      try { await init({ wasm: new Response('gone', { status: 404 }) }); } catch (e) { console.log(e.message); }
      try { await init({ wasm: { byteLength: 8 } }); } catch (e) { console.log(e.constructor.name + ': ' + e.message); }`;
    const [notOk, notASource] = execFileSync(process.execPath, ['--input-type=module', '-e', refused], { encoding: 'utf8' }).trim().split('\n');
    assert.match(notOk, /could not load its WebAssembly module from init\(\{ wasm \}\): the response \(HTTP 404\)/);
    assert.equal(notASource, 'TypeError: init({ wasm }) takes a URL, a string, an ArrayBuffer, a Uint8Array, a Response or a WebAssembly.Module');
  });

  // A Cloudflare Worker refuses random values in its global scope, where `await init()` belongs:
  // init() draws none; the hash key is drawn by the first call that needs the runtime, and a
  // refused draw says what to do and leaves the next call to draw it.
  test('init() draws no random value; the first graph draws the hash key, and a refused draw is retried', () => {
    for (const entry of ['handoff-graph', 'handoff-graph/router']) {
      const script = `import { init, HandoffGraph } from '${entry}';
        const draw = crypto.getRandomValues.bind(crypto);
        let draws = 0;
        crypto.getRandomValues = () => { draws++; throw new Error('Disallowed operation called within global scope'); };
        await init();
        console.log(draws);
        try { new HandoffGraph(); } catch (e) { console.log(e.message); }
        crypto.getRandomValues = (array) => { draws++; return draw(array); };
        console.log(new HandoffGraph().addEdge('a', 'b').route('a', {}), new HandoffGraph().addEdge('c', 'd').route('c', {}), draws);`;
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim().split('\n');
      assert.equal(out[0], '0', `${entry}: init() drew a random value`);
      assert.match(out[1], /needs a random key .* refused to draw one here \(crypto\.getRandomValues: Disallowed operation called within global scope\): create it inside a request handler/, entry);
      assert.equal(out[2], 'b d 2', `${entry}: the refused draw and one more, then no other`);
    }
  });

  test('require() and import give the same API', () => {
    const cjs = createRequire(import.meta.url)('handoff-graph');
    assert.deepEqual(Object.keys(cjs).sort(), Object.keys(api).filter((k) => k !== 'default').sort());
    const script = `const hg = require('handoff-graph');
      hg.init().then(() => console.log(new hg.HandoffGraph().addEdge('a', 'b', "x == 'y'").route('a', { x: 'y' })));`;
    assert.equal(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim(), 'b');
  });
});

describe('HandoffGraph', () => {
  test('the seed triage example', () => {
    const g = triage();
    assert.equal(g.route('triage', { category: 'billing' }), 'billing');
    assert.equal(g.route('triage', { category: 'support' }), 'support');
    assert.equal(g.route('triage', { category: 'other' }), 'human');
    assert.equal(g.route('triage'), 'human');
    assert.equal(g.route('nowhere', {}), null);
  });

  test('onCycle is validated and read-only', () => {
    assert.throws(() => new HandoffGraph({ onCycle: 'sometimes' }), TypeError);
    assert.throws(() => new HandoffGraph(null), TypeError);
    const g = new HandoffGraph({ onCycle: 'allow' });
    assert.equal(g.onCycle, 'allow');
    assert.throws(() => {
      'use strict';
      g.onCycle = 'error';
    }, TypeError);
  });

  test('wrong argument types are TypeErrors that name the argument', () => {
    const g = triage();
    assert.throws(() => g.addEdge(1, 'b'), { name: 'TypeError', message: /addEdge\(from\) must be a string node id, got number 1/ });
    assert.throws(() => g.addEdge('a', {}), { name: 'TypeError', message: /to\) must be a string/ });
    assert.throws(() => g.addEdge('a', 'b', 42), { name: 'TypeError', message: /condition must be a string/ });
    assert.throws(() => g.route(7, {}), { name: 'TypeError', message: /route\(node\)/ });
    assert.throws(() => g.addNode(''), { name: 'TypeError', message: /non-empty/ });
    assert.throws(() => g.addEdge('', 'b'), { name: 'TypeError', message: 'addEdge("", "b"): a node id must be a non-empty string' });
    assert.equal(g.size, 4);
  });

  test('ConditionSyntaxError carries the condition and a UTF-16 index', () => {
    const g = new HandoffGraph();
    const source = "名前 == '😀' and x = 1";
    const error = assert.throws(() => g.addEdge('a', 'b', source), ConditionSyntaxError) ?? null;
    try {
      g.addEdge('a', 'b', source);
    } catch (e) {
      assert.ok(e instanceof SyntaxError);
      assert.equal(e.condition, source);
      assert.equal(source.slice(e.index), '= 1');
      assert.match(e.message.split('\n')[0], new RegExp(`^a → b: expected '==' .* at column ${e.index + 1}$`));
    }
    assert.equal(error, null);
    assert.equal(g.size, 0);
  });

  test('CycleError names the cycle and leaves the graph as it was', () => {
    const g = new HandoffGraph().addEdge('a', 'b').addEdge('b', 'c');
    const before = JSON.stringify(g.toJSON());
    assert.throws(() => g.addEdge('c', 'a'), (e) => {
      assert.ok(e instanceof CycleError);
      assert.deepEqual([e.from, e.to, e.cycle], ['c', 'a', ['c', 'a', 'b', 'c']]);
      assert.equal(e.message, "adding edge 'c' -> 'a' would create a cycle");
      return true;
    });
    assert.equal(JSON.stringify(g.toJSON()), before);
  });

  test('routing follows edges added after an earlier route', () => {
    const g = new HandoffGraph().addEdge('a', 'b', 'x == 1');
    assert.equal(g.route('a', { x: 2 }), null);
    g.addEdge('a', 'c', "y == 'new'");
    assert.equal(g.route('a', { y: 'new' }), 'c');
    assert.equal(g.route('z', {}), null);
    g.addEdge('z', 'a');
    assert.equal(g.route('z', {}), 'a');
  });

  test('fromJSON reports every problem with its pointer and never pollutes prototypes', () => {
    const bad = JSON.parse(`{"format": "handoff-graph", "version": 1, "__proto__": {"polluted": true},
      "edges": [{"from": "a", "to": "b", "when": "x = 1"}, {"from": "a", "to": "c", "constructor": {"prototype": {"polluted": true}}}]}`);
    assert.throws(() => HandoffGraph.fromJSON(bad), (e) => {
      assert.ok(e instanceof DefinitionError);
      assert.deepEqual(e.problems.map((p) => p.pointer), ['/__proto__', '/edges/0/when', '/edges/1/constructor']);
      assert.match(e.message, /\/edges\/0\/when: a → b: expected '==' \(single '=' is not valid\) at column 3/);
      return true;
    });
    assert.equal({}.polluted, undefined);
    assert.equal(Object.prototype.polluted, undefined);
    assert.throws(() => HandoffGraph.fromJSON('{'), DefinitionError);
    // The whole document's pointer is "" ("/" would name a key ""), shown as (root).
    assert.throws(() => HandoffGraph.fromJSON('[1]'), (e) => e instanceof DefinitionError
      && e.problems[0].pointer === '' && e.message === 'invalid definition:\n(root): expected an object');
  });

  test('node ids that are Object.prototype names are ordinary ids', () => {
    const g = new HandoffGraph().addEdge('__proto__', 'constructor', 'toString').addEdge('constructor', 'hasOwnProperty');
    assert.deepEqual(g.nodes(), ['__proto__', 'constructor', 'hasOwnProperty']);
    assert.equal(g.route('__proto__', { toString: 1 }), 'constructor');
    assert.equal(g.route('__proto__', {}), null);
    assert.equal(g.route('constructor', {}), 'hasOwnProperty');
    assert.equal(g.route('toString', {}), null);
  });
});

describe('disposal', () => {
  test('dispose is idempotent, Symbol.dispose works, and use after dispose throws', () => {
    const g = triage();
    g.dispose();
    g.dispose();
    for (const use of [() => g.route('triage', {}), () => g.addEdge('a', 'b'), () => g.nodes(), () => g.size, () => g.toJSON()]) {
      assert.throws(use, { name: 'Error', message: /disposed/ });
    }
    const c = compileCondition('x');
    c[Symbol.dispose]();
    c.dispose();
    assert.throws(() => c.evaluate({}), /disposed/);
  });

  test('100,000 create/route/dispose cycles leave the WebAssembly heap where it started', () => {
    const cycle = () => {
      const g = triage();
      g.route('triage', { category: 'support', padding: 'x'.repeat(100) });
      g.dispose();
      const c = compileCondition("name == 'gold' and 'b' in tags");
      c.evaluate({ name: 'gold', tags: ['a', 'b'] });
      c.dispose();
    };
    for (let i = 0; i < 100; i++) cycle();  // warm up: the transfer area reaches its size
    const before = heapUsed();
    for (let i = 0; i < 100_000; i++) cycle();
    assert.equal(heapUsed(), before);
  });

  test('evaluateCondition keeps a bounded cache', () => {
    // Same-sized conditions, so that the allocator's pattern repeats exactly.
    for (let i = 1000; i < 1300; i++) assert.equal(evaluateCondition(`x == ${i}`, { x: i }), true);
    const before = heapUsed();
    for (let i = 1300; i < 9300; i++) assert.equal(evaluateCondition(`x == ${i}`, { x: i }), true);
    // 8,000 distinct conditions went through; an unbounded cache would hold megabytes more. What
    // is live is 256 conditions either way; the allocator's bookkeeping varies by a few hundred bytes.
    assert.ok(heapUsed() - before < 4096, `heap grew by ${heapUsed() - before} bytes`);
  });
});

describe('exotic states', () => {
  const read = (source, state) => evaluateCondition(source, state);

  test('nothing is read through the prototype chain', () => {
    for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'prototype']) {
      assert.equal(read(`${key} == null`, {}), true, key);
      assert.equal(read(`a.${key} == null`, { a: {} }), true, key);
    }
    assert.equal(read("x['__proto__'] == null", { x: [] }), true);
    assert.equal(read('x[0] == null', { x: Object.create({ 0: 'inherited' }) }), true);
    Array.prototype[1] = 'polluted';
    try {
      assert.equal(read('x[1] == null', { x: [1, , 3] }), true);  // a hole stays a hole
      assert.equal(read("'polluted' in x", { x: [1, , 3] }), false);
    } finally {
      delete Array.prototype[1];
    }
    const own = JSON.parse('{"__proto__": {"role": "admin"}}');
    assert.equal(read("__proto__.role == 'admin'", own), true);  // an own key named __proto__ is data
  });

  test('undefined, functions and symbols read as null; bigint as a number', () => {
    assert.equal(read('x == null', { x: undefined }), true);
    assert.equal(read('x == null', { x: () => 1 }), true);
    assert.equal(read('x == null', { x: Symbol('s') }), true);
    assert.equal(read('x.length == null', { x: function f(a) {} }), true);
    assert.equal(read('x == 5', { x: 5n }), true);
    assert.equal(read('x > 1e18', { x: 10n ** 19n }), true);
  });

  test('NaN, -0 and infinities', () => {
    assert.equal(read('x == x', { x: NaN }), false);
    assert.equal(read('x != x', { x: NaN }), true);
    assert.equal(read('x', { x: NaN }), false);
    assert.equal(read('x == 0', { x: -0 }), true);
    assert.equal(read('x', { x: -0 }), false);
    assert.equal(read('x > 1e308', { x: Infinity }), true);
    assert.equal(read('[1, 2] == x', { x: [1, 2] }), true);
  });

  test('getters are called; a getter that throws reads as null', () => {
    const state = {
      get ok() { return 'yes'; },
      get bad() { throw new Error('boom'); },
      nested: { get bad() { throw new Error('boom'); }, fine: 1 },
    };
    assert.equal(read("ok == 'yes'", state), true);
    assert.equal(read('bad == null', state), true);
    assert.equal(read('nested.bad == null and nested.fine == 1', state), true);
    assert.equal(read("'bad' in nested", state), true);  // the key exists; its value is null
    state.x = { bad: null, fine: 1 };
    assert.equal(read('nested == x', state), true);
  });

  test('a Proxy is read through its traps; if a trap throws, the Proxy reads as null', () => {
    const plain = new Proxy({ a: 1 }, {});
    assert.equal(read('p.a == 1', { p: plain }), true);
    const throwing = new Proxy({ a: 1 }, { get() { throw new Error('trap'); } });
    assert.equal(read('p.a == null', { p: throwing }), true);
    assert.equal(read('p == null', { p: throwing }), true);
    const keysThrow = new Proxy({ a: 1 }, { ownKeys() { throw new Error('trap'); } });
    assert.equal(read('p == null', { p: keysThrow }), true);
    const revocable = Proxy.revocable({ a: 1 }, {});
    revocable.revoke();
    assert.equal(read('p.a == null and p == null', { p: revocable.proxy }), true);
    const root = new Proxy({}, { getOwnPropertyDescriptor() { throw new Error('trap'); } });
    assert.equal(read('x == null', root), true);
  });

  test('cyclic states are fine, and so is comparing them', () => {
    const a = { name: 'a' };
    a.self = a;
    assert.equal(read("self.self.self.name == 'a'", a), true);
    assert.equal(read('self == self', a), false);  // deeper than the comparison limit: unequal
    assert.equal(read('self', a), true);
  });

  test('shared references cannot blow up the marshalled size', { timeout: 60_000 }, () => {
    let v = { leaf: 1 };
    for (let i = 0; i < 64; i++) v = { x: v, y: v };  // 2^64 paths if expanded
    assert.equal(read('v == v', { v }), false);
    assert.equal(read('v', { v }), true);
  });

  test('a value over the cell budget keeps only its size and does not affect other paths', () => {
    const big = new Array((1 << 20) + 10).fill(0);
    const state = { big, small: [1], name: 'n' };
    assert.equal(read("big and name == 'n'", state), true);
    assert.equal(read("big == big or (small == [1] and name == 'n')", state), true);
    assert.equal(read('big == big', state), false);
    const object = Object.fromEntries(Array.from({ length: 20000 }, (_, i) => [`k${i}`, i]));
    const repeated = Array.from({ length: 300 }, (_, i) => `'k${19999 - i}' in o`).join(' and ');
    assert.equal(read(repeated, { o: object }), true);
  });

  test('non-array objects read as their own enumerable string keys', () => {
    class Ticket {
      constructor() { this.category = 'billing'; }
      get computed() { return 'not own'; }
    }
    assert.equal(read("t.category == 'billing'", { t: new Ticket() }), true);
    assert.equal(read('t.computed == null', { t: new Ticket() }), true);
    assert.equal(read("'a' in m", { m: new Map([['a', 1]]) }), false);
    assert.equal(read('d and d == e', { d: new Date(), e: new Date(0) }), false);  // {} is falsy, and {} == {}
    assert.equal(read('d == e', { d: new Date(), e: new Map() }), true);
    assert.throws(() => compileCondition('d == {}'), ConditionSyntaxError);
    assert.equal(read('t[1] == 20 and t.length == null', { t: new Uint8Array([10, 20]) }), true);
    const hidden = Object.defineProperty({}, 'secret', { value: 1, enumerable: false });
    assert.equal(read('secret == null', hidden), true);
    assert.equal(read("x.a == 1", { x: Object.freeze(Object.assign(Object.create(null), { a: 1 })) }), true);
    assert.equal(read('s == null', { [Symbol('s')]: 1 }), true);
  });

  test('lone surrogates compare as U+FFFD; NUL is an ordinary character', () => {
    assert.equal(read("x == 'a\\uFFFDb'", { x: 'a\uD800b' }), true);
    assert.equal(read("x == 'a\\uFFFD'", { x: 'a\uDC00' }), true);
    assert.equal(read("x == 'a\\0b'", { x: 'a\0b' }), true);
    assert.equal(read("x == 'ab'", { x: 'a\0b' }), false);
    assert.equal(read("'\\uFFFD' in x", { x: ['\uD83D'] }), true);
    assert.equal(read("x['k\\uFFFD'] == 1", { x: { 'k\uDFFF': 1 } }), false);  // keys are not rewritten
  });

  test('route never throws, whatever the state', () => {
    const g = new HandoffGraph().addEdge('a', 'b', "x.y == 1 or 'k' in z or w[-1] > 2").addEdge('a', 'c');
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const states = [undefined, null, 0, 'str', [], [1, 2], Symbol('s'), () => {}, 10n, revoked.proxy,
      new Proxy({}, { get() { throw new Error(); }, ownKeys() { throw new Error(); }, getOwnPropertyDescriptor() { throw new Error(); } }),
      { x: revoked.proxy, z: revoked.proxy, w: revoked.proxy }];
    for (const state of states) assert.equal(g.route('a', state), 'c');
  });

  test('a large state costs nothing extra: only routed paths are read', () => {
    let reads = 0;
    const messages = new Proxy([], { get(target, key) { reads++; return target[key]; } });
    const g = triage();
    assert.equal(g.route('triage', { category: 'billing', messages }), 'billing');
    assert.equal(reads, 0);
  });

  test('strings longer than the inline fast path, and non-ASCII ones', () => {
    const long = 'é'.repeat(10_000) + 'x';
    assert.equal(read(`x == '${long}'`, { x: long }), true);
    assert.equal(read("'x' in y", { y: long }), true);
    assert.equal(read("y > 'é'", { y: long }), true);
    const ascii = 'a'.repeat(100);
    assert.equal(read(`x == '${ascii}'`, { x: ascii }), true);
  });

  test('growing WebAssembly memory mid-write keeps results right', () => {
    const big = Array.from({ length: 200_000 }, (_, i) => `item-${i}`);
    assert.equal(read("'item-199999' in big", { big }), true);
    assert.equal(read('big == other', { big, other: [...big] }), true);
    assert.equal(read("x == 'after'", { x: 'after' }), true);
  });
});

describe('conditions', () => {
  test('compileCondition exposes source and sorted paths, and evaluates repeatedly', () => {
    const c = compileCondition("user.tier == 'gold' or (priority > 3 and 'urgent' in tags)");
    assert.equal(c.source, "user.tier == 'gold' or (priority > 3 and 'urgent' in tags)");
    assert.deepEqual(c.paths, ['priority', 'tags', 'user.tier']);
    assert.equal(c.evaluate({ user: { tier: 'gold' } }), true);
    assert.equal(c.evaluate({ priority: 4, tags: ['urgent'] }), true);
    assert.equal(c.evaluate({ priority: 4, tags: ['later'] }), false);
    assert.equal(c.evaluate(), false);
    assert.throws(() => compileCondition(5), TypeError);
    assert.throws(() => compileCondition(''), { name: 'ConditionSyntaxError', message: /empty condition/ });
  });
});

test('typings cover every export', () => {
  // The published declarations (dist/index.d.ts, emitted by scripts/typings.mjs), read by tsc:
  // each value the package exports is declared as a value, and nothing else is.
  const ts = createRequire(import.meta.url)('typescript');
  const entry = fileURLToPath(new URL('../../dist/index.d.ts', import.meta.url));
  const program = ts.createProgram([entry], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  const declared = checker
    .getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)))
    .filter((symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol).flags & ts.SymbolFlags.Value)
    .map((symbol) => symbol.name);
  assert.deepEqual(declared.sort(), Object.keys(api).sort());
});
