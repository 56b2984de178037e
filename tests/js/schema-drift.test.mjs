// The definition formats have two descriptions: the core's readers (what HandoffGraph.fromJSON,
// StateMachine.fromJSON and new Swarm() accept) and schema/definition.schema.json. This test keeps
// them from drifting apart: it mutates valid definitions at random (a member or item removed, an
// unknown member added, a value replaced by one of a pool of typical values) and loads each
// mutant both ways. Every mutant the readers accept must validate; every mutant the schema
// accepts and a reader refuses must be refused for a reason no JSON Schema can state (a
// condition's syntax, a duplicate, a reference to what is not there, a cycle), each listed below.
// A key the readers learn and the schema lacks (or the other way round) fails here.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import Ajv2020 from 'ajv/dist/2020.js';
import { DefinitionError, GraphValidationError, HandoffGraph, init, StateMachine, Swarm } from 'handoff-graph';

import { rng } from '../golden/hostile.mjs';

await init();

const schema = JSON.parse(readFileSync(new URL('../../schema/definition.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv2020({ allErrors: true }).compile(schema);

// What a reader may refuse that a schema cannot say, by the message it refuses with.
const SEMANTIC = [
  /at column \d+/, // a condition's syntax (also in a subgraph's edges)
  /duplicate|is declared twice/i, // ids and names are unique
  /^(invalid-subgraph: .*: )?unknown-(from|to|start|branch|no-feedback-state):|which is not a declared state|is not (an|a declared) (agent|state)/i, // a reference to what is not there
  /cycle/i, // onCycle: 'error'
  /exactly one agent needs "entry": true/, // a count over the agents
  /^(invalid-subgraph: .*: )?no-outgoing-edge:/, // every state routes on, unless only a fan-out's branch
  /never run out|would never be taken/, // a continuation edge of an agent without a handoffs limit
  /lists itself as a branch|cannot hand off to itself/, // a branch, a handoff's target: another state, agent
  /cannot map over/, // a map's `over` is a path, written as conditions write it
  /context policy .* is neither full, last-user, none nor given in options\.contexts/, // custom policies are code
  // Documented as optional in the document (docs/format.md), required by validate() to run.
  /^(invalid-subgraph: .*: )?no-start:/,
];

function seeds() {
  const out = [];
  const golden = new URL('../golden/', import.meta.url);
  for (const file of readdirSync(golden).filter((f) => f.endsWith('.definition.json'))) {
    out.push(JSON.parse(readFileSync(new URL(file, golden), 'utf8')));
  }
  for (const scenario of JSON.parse(readFileSync(new URL('../vectors/handoffs.json', import.meta.url), 'utf8')).scenarios) {
    if (scenario.definition && typeof scenario.definition === 'object') out.push({ format: 'handoff-graph/swarm', version: 1, ...scenario.definition });
  }
  for (const scenario of JSON.parse(readFileSync(new URL('../vectors/check.json', import.meta.url), 'utf8')).scenarios) out.push(scenario.definition);
  return out;
}

/**
 * The readers' verdict: null when the definition loads (and, for a machine, validates: the schema
 * states what validate() checks too), else the problems' messages.
 */
function read(doc) {
  let loaded = null;
  try {
    if (doc?.format === 'handoff-graph') loaded = HandoffGraph.fromJSON(doc);
    else if (doc?.format === 'handoff-graph/state-machine') (loaded = StateMachine.fromJSON(doc)).validate();
    else loaded = new Swarm(doc);
  } catch (error) {
    if (error instanceof DefinitionError) return error.problems.map((p) => `${p.pointer}: ${p.message}`);
    if (error instanceof GraphValidationError) return error.problems.map((p) => `${p.code}: ${p.message}`);
    if (error instanceof TypeError || error instanceof RangeError) return [error.message];
    throw error;
  } finally {
    loaded?.dispose();
  }
  return null;
}

// new Swarm() fills in a swarm's format and version when they are left out (docs/format.md); the
// schema describes the complete document, so a mutant that lost either is not compared.
const lenient = (doc) => doc?.format !== 'handoff-graph' && doc?.format !== 'handoff-graph/state-machine' && (doc?.format === undefined || doc?.version === undefined);

const POOL = [null, true, false, 0, -1, 1.5, 3, 2 ** 40, '', 'x', 'a', '__end__', 'x == 1', 'x ==', 'append', 'full', [], {}, ['a'], [{}], { a: 1 }];

/** Every place in `doc`: [container, key] pairs, the root's members included. */
function places(doc) {
  const out = [];
  const walk = (value, depth) => {
    if (value === null || typeof value !== 'object' || depth > 12) return;
    for (const key of Object.keys(value)) {
      out.push([value, Array.isArray(value) ? Number(key) : key]);
      walk(value[key], depth + 1);
    }
  };
  walk(doc, 0);
  return out;
}

/**
 * A mutant of `doc`, and, when the mutation set an object's member to null, the same mutant without
 * that member (the readers read null as absent in optional members, docs/format.md).
 */
function mutate(doc, next) {
  const copy = structuredClone(doc);
  const all = places(copy);
  if (all.length === 0) return { doc: copy, absent: null };
  const [container, key] = all[Math.floor(next() * all.length)];
  const pick = next();
  if (pick < 0.25) {
    if (Array.isArray(container)) container.splice(key, 1);
    else delete container[key];
  } else if (pick < 0.4 && !Array.isArray(container[key]) && container[key] !== null && typeof container[key] === 'object') {
    container[key].zz = 1;
  } else {
    container[key] = structuredClone(POOL[Math.floor(next() * POOL.length)]);
    if (container[key] === null && !Array.isArray(container)) {
      const absent = structuredClone(copy);
      const at = places(absent).find(([, k], i) => k === key && places(copy)[i][0] === container);
      if (at) delete at[0][at[1]];
      return { doc: copy, absent };
    }
  }
  return { doc: copy, absent: null };
}

test('schema and readers agree on mutants of every golden and vector definition', () => {
  const next = rng(20261129);  // seeded, so a failure names a mutant that can be rebuilt
  const stricter = [];
  const unexplained = new Map();
  let mutants = 0;
  let refused = 0;
  // Seeds that need host functions to load (a custom reducer) are left out.
  const loadable = seeds().filter((seed) => read(seed) === null);
  assert.ok(loadable.length > 20, `${loadable.length} seeds`);
  for (const seed of loadable) {
    assert.ok(validate(seed), `a seed validates: ${JSON.stringify(validate.errors)}`);
    for (let i = 0; i < 60; i++) {
      const { doc, absent } = mutate(seed, next);
      if (lenient(doc)) continue;
      mutants++;
      const problems = read(doc);
      const valid = validate(doc);
      if (problems === null && !valid && !(absent !== null && validate(absent))) stricter.push(`${JSON.stringify(doc).slice(0, 300)}\n  schema: ${JSON.stringify(validate.errors.slice(0, 3))}`);
      if (problems !== null) refused++;
      if (problems !== null && valid) {
        for (const message of problems) {
          if (!SEMANTIC.some((pattern) => pattern.test(message))) unexplained.set(message, JSON.stringify(doc).slice(0, 300));
        }
      }
    }
  }
  assert.deepEqual(stricter, [], `${stricter.length} mutant(s) load but do not validate (the schema is stricter than the readers)`);
  assert.deepEqual(
    [...unexplained].map(([message, doc]) => `${message}\n  in ${doc}`),
    [],
    'mutants the schema accepts and a reader refuses, for a reason a schema could state',
  );
  assert.ok(mutants > 1000 && refused > mutants / 4, `${mutants} mutants, ${refused} refused`);
});
