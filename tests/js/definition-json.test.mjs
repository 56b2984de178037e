// Definitions given as objects are checked as JSON before they cross into the core (issue 30,
// js/definition-json.js): every value JSON cannot hold is a DefinitionError at its JSON pointer,
// for graph, machine and swarm definitions alike, where JSON.stringify used to write it as null or
// leave it out (`handoffs: NaN` read as "no handoffs"). Valid definitions load as they did. And the
// builder reports a fan-out's or map's concurrency as the definition format does (bad-concurrency).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import {
  init, HandoffGraph, StateMachine, Swarm, END, DefinitionError, GraphValidationError,
} from 'handoff-graph';
import * as router from 'handoff-graph/router';

await init();
await router.init();

// The three kinds of definition, each a valid document and how to load one.
const KINDS = {
  graph: {
    valid: () => ({ format: 'handoff-graph', version: 1, nodes: [{ id: 'a' }], edges: [{ from: 'a', to: 'b', when: "x == 'y'" }] }),
    load: (definition) => HandoffGraph.fromJSON(definition),
  },
  machine: {
    valid: () => ({ format: 'handoff-graph/state-machine', version: 1, start: 'a', states: [{ name: 'a' }], edges: [{ from: 'a', to: END }], reducers: {} }),
    load: (definition) => StateMachine.fromJSON(definition),
  },
  swarm: {
    valid: () => ({ agents: [{ id: 'a', entry: true, handoffs: 2 }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }] }),
    load: (definition) => new Swarm(definition),
  },
};

// `definition` refused with exactly these `[pointer, message pattern]` problems.
function refused(load, definition, expected) {
  assert.throws(() => load(definition), (error) => {
    assert.ok(error instanceof DefinitionError, `not a DefinitionError: ${error}`);
    assert.equal(error.name, 'DefinitionError');
    assert.deepEqual(error.problems.map((p) => p.pointer), expected.map(([pointer]) => pointer));
    for (const [i, [pointer, pattern]] of expected.entries()) {
      assert.match(error.problems[i].message, pattern);
      assert.ok(error.message.includes(`\n${pointer === '' ? '(root)' : pointer}: ${error.problems[i].message}`), error.message);
    }
    return true;
  });
}

// A copy of the valid document of `kind` with `value` put at `where` (a member name of its first
// item, in the member or array named by `into`).
function withValue(kind, into, value) {
  const definition = KINDS[kind].valid();
  const list = definition[into];
  list[0].extra = value;
  return definition;
}
const INTO = { graph: 'edges', machine: 'states', swarm: 'agents' };

describe('values JSON cannot hold are a DefinitionError at their pointer', () => {
  const CASES = [
    ['NaN', NaN, /^NaN is not a JSON number \(JSON\.stringify would write null\)$/],
    ['Infinity', Infinity, /^Infinity is not a JSON number/],
    ['-Infinity', -Infinity, /^-Infinity is not a JSON number/],
    ['undefined as a member', undefined, /^undefined is not a JSON value \(JSON\.stringify would drop the member\): leave the member out$/],
    ['a function', () => true, /^a function is not a JSON value: a definition holds data only; functions .* go in the options$/],
    ['a symbol', Symbol('tag'), /^a symbol \(Symbol\(tag\)\) is not a JSON value$/],
    ['a BigInt', 5n, /^a BigInt \(5n\) is not a JSON value: give a number$/],
    ['a Date', new Date(0), /^an instance of Date is not plain data: give its JSON value/],
    ['a Map', new Map([['k', 1]]), /^an instance of Map is not plain data/],
    ['a class instance', new (class Limits { max = 3; })(), /^an instance of Limits is not plain data/],
    ['a boxed number', Object(3), /^an instance of Number is not plain data/],
  ];
  for (const kind of Object.keys(KINDS)) {
    for (const [what, value, pattern] of CASES) {
      test(`${kind}: ${what}`, () => {
        refused(KINDS[kind].load, withValue(kind, INTO[kind], value), [[`/${INTO[kind]}/0/extra`, pattern]]);
      });
    }

    test(`${kind}: undefined, NaN and ±Infinity as array items, and a hole`, () => {
      const definition = KINDS[kind].valid();
      const list = definition[INTO[kind]];
      const first = list.length;
      list.push(undefined, NaN, Infinity, -Infinity);
      list.length += 1;  // a hole at the end
      const at = (i) => `/${INTO[kind]}/${first + i}`;
      refused(KINDS[kind].load, definition, [
        [at(0), /^undefined is not a JSON value \(JSON\.stringify would write null\)$/],
        [at(1), /^NaN is not a JSON number/],
        [at(2), /^Infinity is not a JSON number/],
        [at(3), /^-Infinity is not a JSON number/],
        [at(4), /^undefined is not a JSON value \(JSON\.stringify would write null\)$/],
      ]);
    });

    test(`${kind}: a member keyed by a symbol`, () => {
      const definition = KINDS[kind].valid();
      definition[INTO[kind]][0][Symbol('hidden')] = 1;
      refused(KINDS[kind].load, definition, [[`/${INTO[kind]}/0`, /^a member keyed by Symbol\(hidden\): JSON keys are strings$/]]);
    });

    test(`${kind}: a cycle, at the member that closes it`, () => {
      const definition = KINDS[kind].valid();
      definition[INTO[kind]][0].extra = { back: definition };
      refused(KINDS[kind].load, definition, [[`/${INTO[kind]}/0/extra/back`, /^a cycle: the object at \(root\) contains itself here$/]]);
      const list = KINDS[kind].valid();
      list[INTO[kind]][0].extra = [list[INTO[kind]]];
      refused(KINDS[kind].load, list, [[`/${INTO[kind]}/0/extra/0`, new RegExp(`^a cycle: the array at /${INTO[kind]} contains itself here$`)]]);
    });

    test(`${kind}: 512 levels of arrays and objects get past the check, 513 and a million do not`, () => {
      // The document is level 1, its list 2, the list's first item 3; `extra` nests the rest.
      const nested = (levels) => {
        const definition = KINDS[kind].valid();
        let inner = [];
        for (let i = 4; i < levels; i++) inner = [inner];
        definition[INTO[kind]][0].extra = inner;
        return definition;
      };
      // 512 levels: the check passes, and the core reports the unknown member (a swarm agent's
      // unknown member is a problem too), not the depth.
      assert.throws(() => KINDS[kind].load(nested(512)), (e) => e instanceof DefinitionError && !/nested more than/.test(e.message) && e.problems[0].pointer === `/${INTO[kind]}/0/extra`);
      const deepest = `/${INTO[kind]}/0/extra${'/0'.repeat(513 - 4)}`;
      refused(KINDS[kind].load, nested(513), [[deepest, /^arrays and objects nested more than 512 levels deep$/]]);
      refused(KINDS[kind].load, nested(1_000_000), [[deepest, /^arrays and objects nested more than 512 levels deep$/]]);
    });

    test(`${kind}: an own __proto__ member is data: the core reports it, no prototype changes`, () => {
      const definition = KINDS[kind].valid();
      const first = definition[INTO[kind]][0];
      Object.defineProperty(first, '__proto__', { value: { polluted: NaN }, enumerable: true, writable: true, configurable: true });
      // Checked like any member: the NaN inside is found, at its pointer.
      refused(KINDS[kind].load, definition, [[`/${INTO[kind]}/0/__proto__/polluted`, /^NaN is not a JSON number/]]);
      first.__proto__ = { polluted: true };  // the own data property, set again
      assert.equal(Object.getPrototypeOf(first), Object.prototype);
      refused(KINDS[kind].load, definition, [[`/${INTO[kind]}/0/__proto__`, /^unknown property '__proto__'$/]]);
      assert.equal(/** @type {any} */ ({}).polluted, undefined);
    });

    test(`${kind}: every problem at once, in document order`, () => {
      const definition = KINDS[kind].valid();
      definition.a = NaN;
      definition.b = { c: [1, undefined, 2n] };
      refused(KINDS[kind].load, definition, [
        ['/a', /^NaN is not a JSON number/],
        ['/b/c/1', /^undefined is not a JSON value/],
        ['/b/c/2', /^a BigInt/],
      ]);
    });

    test(`${kind}: pointers escape ~ and / in keys (RFC 6901)`, () => {
      const definition = KINDS[kind].valid();
      definition['a/b~c'] = Infinity;
      refused(KINDS[kind].load, definition, [['/a~1b~0c', /^Infinity is not a JSON number/]]);
    });

    test(`${kind}: the root itself`, () => {
      refused(KINDS[kind].load, new Map(), [['', /^an instance of Map is not plain data/]]);
    });
  }

  test("the issue's case: an agent's handoffs: NaN is no longer read as null (no transfer tools)", () => {
    refused((d) => new Swarm(d), { agents: [{ id: 'a', entry: true, handoffs: NaN }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }] },
      [['/agents/0/handoffs', /^NaN is not a JSON number \(JSON\.stringify would write null\)$/]]);
  });

  test('what JSON.stringify would have turned into a valid document is refused too', () => {
    // An edge's `when: undefined` used to be left out, making the edge unconditional.
    refused((d) => HandoffGraph.fromJSON(d), { format: 'handoff-graph', version: 1, edges: [{ from: 'a', to: 'b', when: undefined }] },
      [['/edges/0/when', /^undefined is not a JSON value/]]);
    // maxSteps: Infinity used to read as null.
    refused((d) => StateMachine.fromJSON(d), { ...KINDS.machine.valid(), maxSteps: Infinity }, [['/maxSteps', /^Infinity is not a JSON number/]]);
    // A state's concurrency given as NaN used to be null.
    const fanOut = { ...KINDS.machine.valid(), states: [{ name: 'a', branches: ['b'], concurrency: NaN }, { name: 'b' }] };
    refused((d) => StateMachine.fromJSON(d), fanOut, [['/states/0/concurrency', /^NaN is not a JSON number/]]);
  });

  test('a subgraph inside a machine definition is checked with its pointer', () => {
    const child = { ...KINDS.machine.valid(), name: 'child', maxSteps: NaN };
    const parent = { ...KINDS.machine.valid(), states: [{ name: 'a', subgraph: child }] };
    refused((d) => StateMachine.fromJSON(d), parent, [['/states/0/subgraph/maxSteps', /^NaN is not a JSON number/]]);
  });

  test('the routing entry checks graph definitions the same way', () => {
    refused((d) => router.HandoffGraph.fromJSON(d), withValue('graph', 'edges', -Infinity), [['/edges/0/extra', /^-Infinity is not a JSON number/]]);
    assert.equal(router.HandoffGraph.fromJSON(KINDS.graph.valid()).route('a', { x: 'y' }), 'b');
  });

  test('a wrong root argument is still a TypeError', () => {
    for (const load of [KINDS.graph.load, KINDS.machine.load]) {
      assert.throws(() => load(undefined), /fromJSON takes a definition object or JSON text, got undefined/);
      assert.throws(() => load(() => ({})), TypeError);
      assert.throws(() => load(Symbol('x')), TypeError);
    }
    assert.throws(() => new Swarm(7), /a swarm definition must be an object, got number 7/);
  });

  test('getters and Proxy traps run once; what they throw is thrown', () => {
    let reads = 0;
    const definition = KINDS.graph.valid();
    Object.defineProperty(definition.edges[0], 'when', { enumerable: true, get: () => { reads++; return "x == 'y'"; } });
    const graph = HandoffGraph.fromJSON(definition);
    assert.equal(reads, 1);
    assert.equal(graph.route('a', { x: 'y' }), 'b');
    const trap = new Proxy(KINDS.graph.valid(), { ownKeys() { throw new Error('trap'); } });
    assert.throws(() => HandoffGraph.fromJSON(trap), /^Error: trap$/);
  });
});

describe('valid definitions load as before', () => {
  const golden = new URL('../golden/', import.meta.url);
  const customReducers = (document) => Object.fromEntries(Object.entries(document.reducers ?? {}).filter(([, r]) => r === 'custom').map(([key]) => [key, (a, b) => b]));
  for (const file of readdirSync(golden).filter((name) => name.endsWith('.definition.json'))) {
    test(`${file}: the object loads to the same definition as its text`, () => {
      const text = readFileSync(new URL(file, golden), 'utf8');
      const document = JSON.parse(text);
      const load = {
        'handoff-graph': (d) => HandoffGraph.fromJSON(d),
        'handoff-graph/state-machine': (d) => StateMachine.fromJSON(d, { reducers: customReducers(document) }),
        'handoff-graph/swarm': (d) => new Swarm(d),
      }[document.format];
      const fromText = load(text);
      const fromObject = load(document);
      assert.deepEqual(fromObject.toJSON(), fromText.toJSON());
      fromText.dispose();
      fromObject.dispose();
    });
  }

  test('shared (not cyclic) references, null-prototype objects, own __proto__ reducer keys and arrays with extra members', () => {
    const edge = { from: 'a', to: 'b' };
    const shared = HandoffGraph.fromJSON({ format: 'handoff-graph', version: 1, edges: [edge, edge] });
    assert.equal(shared.edges('a').length, 2);
    const bare = Object.assign(Object.create(null), KINDS.graph.valid());
    assert.equal(HandoffGraph.fromJSON(bare).route('a', { x: 'y' }), 'b');
    const machine = { ...KINDS.machine.valid(), reducers: JSON.parse('{"__proto__": "append", "constructor": "sum"}') };
    assert.deepEqual(Object.entries(StateMachine.fromJSON(machine).toJSON().reducers), [['__proto__', 'append'], ['constructor', 'sum']]);
    // An array is its items 0 to length - 1: other members (which JSON cannot write) are not items.
    const states = Object.assign([{ name: 'a' }], { note: NaN, [Symbol('s')]: 1 });
    assert.equal(StateMachine.fromJSON({ ...KINDS.machine.valid(), states }).toJSON().states.length, 1);
  });

  test('a swarm definition without format and version still gets them filled in', () => {
    const saved = new Swarm(KINDS.swarm.valid()).toJSON();
    assert.equal(saved.format, 'handoff-graph/swarm');
    assert.equal(saved.version, 1);
    assert.equal(saved.agents[0].handoffs, 2);
  });
});

describe('the builder reports concurrency as the definition format does', () => {
  const base = () => new StateMachine({ start: 'fan' }).addState('web');
  const builders = {
    addFanOut: (m, concurrency) => m.addFanOut('fan', ['web'], { concurrency }),
    addMap: (m, concurrency) => m.addMap('fan', 'web', { over: 'docs', concurrency }),
  };
  for (const [name, build] of Object.entries(builders)) {
    const kind = name === 'addFanOut' ? 'fan-out' : 'map';
    test(`${name}: 1.5, 0, -1, 1,000,001, NaN and Infinity are GraphValidationError bad-concurrency (was: TypeError for 1.5)`, () => {
      for (const [concurrency, shown] of [[1.5, '1.5'], [0, '0'], [-1, '-1'], [1_000_001, '1000001'], [NaN, 'a non-finite number'], [Infinity, 'a non-finite number']]) {
        assert.throws(() => build(base(), concurrency), (error) => {
          assert.ok(error instanceof GraphValidationError, `${concurrency}: ${error}`);
          assert.deepEqual(error.problems, [{
            code: 'bad-concurrency',
            message: `${kind} state 'fan': concurrency must be an integer from 1 to 1000000, got ${shown}`,
            pointer: '/states/1/concurrency',
          }]);
          return true;
        });
      }
    });

    test(`${name}: the same problem as fromJSON gives for the same document`, () => {
      const document = base();
      build(document, 2);
      const definition = document.toJSON();
      definition.states[1].concurrency = 1.5;
      assert.throws(() => StateMachine.fromJSON(definition), (error) => {
        assert.ok(error instanceof DefinitionError);
        assert.deepEqual(error.problems, [{ pointer: '/states/1/concurrency', message: `${kind} state 'fan': concurrency must be an integer from 1 to 1000000, got 1.5` }]);
        return true;
      });
    });

    test(`${name}: 1 and 1,000,000 are accepted; a concurrency that is not a number is a TypeError`, () => {
      assert.equal(build(base(), 1).toJSON().states[1].concurrency, 1);
      assert.equal(build(base(), 1_000_000).toJSON().states[1].concurrency, 1_000_000);
      assert.equal(build(base(), undefined).toJSON().states[1].concurrency, undefined);
      assert.throws(() => build(base(), '2'), { name: 'TypeError', message: `the concurrency of ${kind} state 'fan' must be a number, got string 2` });
    });
  }
});

describe("the builder reports a state's handoffs as docs/state-machine.md says", () => {
  test('1.5, -1, 1,000,001, NaN and Infinity are GraphValidationError bad-handoffs at /states/I/handoffs', () => {
    for (const handoffs of [1.5, -1, 1_000_001, NaN, Infinity]) {
      assert.throws(() => new StateMachine({ start: 'a' }).addState('web').addState('a', null, { handoffs }), (error) => {
        assert.ok(error instanceof GraphValidationError, `${handoffs}: ${error}`);
        assert.deepEqual(error.problems, [{
          code: 'bad-handoffs',
          message: "the handoffs of state 'a' must be an integer from 0 to 1000000",
          pointer: '/states/1/handoffs',
        }]);
        return true;
      });
    }
  });

  test('0 and 1,000,000 are accepted', () => {
    assert.equal(new StateMachine({ start: 'a' }).addState('a', null, { handoffs: 0 }).toJSON().states[0].handoffs, 0);
    assert.equal(new StateMachine({ start: 'a' }).addState('a', null, { handoffs: 1_000_000 }).toJSON().states[0].handoffs, 1_000_000);
  });
});
