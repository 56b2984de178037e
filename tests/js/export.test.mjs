// Exports in Node (the WebAssembly build): the golden files byte for byte (the native suite,
// tests/cpp/export_test.cpp, holds the C++ build to the same files), every DOT export through
// Debian's Graphviz (`dot -Tsvg`) with its labels found in the SVG, and every definition through
// the JSON Schema (schema/definition.schema.json, `handoff-graph/schema.json`) with ajv.
// Mermaid's parser runs in Chromium: tests/browser/mermaid.test.mjs.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import Ajv2020 from 'ajv/dist/2020.js';
import { init, DefinitionError, HandoffGraph, StateMachine, Swarm } from 'handoff-graph';

import { randomCase } from '../golden/hostile.mjs';

await init();
const run = promisify(execFile);

const GOLDEN = fileURLToPath(new URL('../golden/', import.meta.url));
const HANDOFF_VECTORS = JSON.parse(readFileSync(new URL('../vectors/handoffs.json', import.meta.url), 'utf8'));
const SUFFIXES = ['.definition.json', '.dag.json', '.flowchart.mmd', '.state.mmd', '.dot'];
const NAMES = readdirSync(GOLDEN).filter((f) => f.endsWith('.input.json')).map((f) => f.slice(0, -'.input.json'.length)).sort();
const golden = (file) => readFileSync(path.join(GOLDEN, file), 'utf8');
const inputOf = (name) => JSON.parse(golden(`${name}.input.json`));

const RANDOM_SEED = 20_240_905;
const RANDOM_DOT = 500;
const RANDOM_SCHEMA = 500;

/** A graph, machine or swarm from a definition; machines get a stand-in for every 'custom' reducer. */
function load(definition) {
  if (definition.format === 'handoff-graph') return HandoffGraph.fromJSON(definition);
  if (definition.format === 'handoff-graph/swarm') return new Swarm(definition);
  const reducers = {};
  for (const [key, reducer] of Object.entries(definition.reducers ?? {})) if (reducer === 'custom') reducers[key] = (_, update) => update;
  return StateMachine.fromJSON(definition, { reducers });
}

// The generatedAt of the golden AgentEnsemble exports unless an input sets its own (export_golden.h).
const GENERATED_AT = '1970-01-01T00:00:00Z';
const AGENTENSEMBLE = '.agentensemble.json';

/** Every export of a golden input, keyed by golden file suffix (as tests/cpp/export_golden.h). */
function render(input) {
  const x = load(input.definition);
  try {
    // A swarm's marks are a session's (its active agent and handoffs); the others', a run or trace.
    const marks = x instanceof Swarm ? ('session' in input ? { session: input.session } : {}) : 'trace' in input ? { highlight: input.trace } : {};
    const out = {
      '.definition.json': `${JSON.stringify(x.toJSON(), null, 2)}\n`,
      '.dag.json': `${JSON.stringify(x.toDag(marks), null, 2)}\n`,
      '.flowchart.mmd': x.toMermaid({ kind: 'flowchart', ...input.flowchart, ...marks }),
      '.state.mmd': x.toMermaid({ kind: 'state', ...input.state, ...marks }),
      '.dot': x.toDot(marks),
    };
    if (x instanceof StateMachine) {
      const generatedAt = input.agentensemble?.generatedAt ?? GENERATED_AT;
      out[AGENTENSEMBLE] = `${JSON.stringify(x.toDag({ format: 'agentensemble', generatedAt, ...marks }), null, 2)}\n`;
    }
    return out;
  } finally {
    x.dispose();
  }
}

function firstDifference(expected, actual) {
  const a = expected.split('\n');
  const b = actual.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}:\n  golden: ${JSON.stringify(a[i])}\n  actual: ${JSON.stringify(b[i])}`;
  }
  return 'no difference';
}

test('golden exports: the WebAssembly build matches tests/golden byte for byte', async (t) => {
  assert.ok(NAMES.length >= 8, `only ${NAMES.length} golden inputs`);
  let files = 0;
  for (const name of NAMES) {
    await t.test(name, () => {
      const rendered = render(inputOf(name));
      assert.ok(SUFFIXES.every((suffix) => suffix in rendered));
      for (const [suffix, actual] of Object.entries(rendered)) {
        const expected = golden(name + suffix);
        assert.ok(actual === expected, `${name}${suffix} differs from the golden file; ${firstDifference(expected, actual)}`);
        files++;
      }
    });
  }
  assert.ok(files > NAMES.length * SUFFIXES.length, 'the machines have AgentEnsemble exports too');
  t.diagnostic(`${NAMES.length} inputs, ${files} golden files`);
});

// The traces stored in the inputs are real: replaying each one's states and scripted handlers
// gives the same trace, and an Execution's own toDag() gives the golden DAG.
test('golden traces are what the library really produces', async (t) => {
  for (const name of NAMES) {
    const input = inputOf(name);
    if (!input.replay) continue;
    await t.test(name, async () => {
      const { definition, replay, trace } = input;
      if (definition.format === 'handoff-graph') {
        const g = HandoffGraph.fromJSON(definition);
        try {
          let hops;
          if (replay.explain) {
            hops = replay.explain.map(({ node, state }) => g.explain(node, state));
          } else {
            hops = [];
            let node = replay.walk.node;
            for (const state of replay.walk.states) {
              const explained = g.explain(node, state);
              const hit = explained.edges.find((e) => e.matched);
              if (!hit) break;
              hops.push({ node, edge: hit.index });
              node = explained.result;
            }
          }
          assert.deepEqual(hops, trace);
        } finally {
          g.dispose();
        }
        return;
      }
      const handlers = {};
      for (const [state, updates] of Object.entries(replay.script)) {
        let i = 0;
        handlers[state] = () => updates[i++];
      }
      const reducers = {};
      for (const [key, reducer] of Object.entries(definition.reducers ?? {})) if (reducer === 'custom') reducers[key] = (_, update) => update;
      const m = StateMachine.fromJSON(definition, { handlers, reducers });
      const execution = m.start(replay.initialState);
      try {
        await execution.run().catch((error) => assert.equal(trace.reason, 'no-edge-matched', String(error)));
        const result = execution.result();
        assert.equal(result.reason, trace.reason);
        assert.deepEqual(result.steps.map(({ step, state, visit, next, edge }) => ({ step, state, visit, next, edge })), trace.steps);
        assert.equal(`${JSON.stringify(execution.toDag(), null, 2)}\n`, golden(`${name}.dag.json`), 'Execution#toDag');
        const generatedAt = input.agentensemble?.generatedAt ?? GENERATED_AT;
        assert.equal(`${JSON.stringify(execution.toDag({ format: 'agentensemble', generatedAt }), null, 2)}\n`, golden(`${name}${AGENTENSEMBLE}`), 'Execution#toDag agentensemble');
      } finally {
        execution.dispose();
        m.dispose();
      }
    });
  }
});

// docs/format.md pastes golden files (<!-- golden: FILE --> before a fenced block) and lines of
// them (<!-- golden-lines: FILE -->); they must stay the real output.
test('docs/format.md: its examples are the golden files', () => {
  const doc = readFileSync(new URL('../../docs/format.md', import.meta.url), 'utf8');
  const whole = [...doc.matchAll(/<!-- golden: (\S+) -->\n```\w*\n([^]*?)```/g)];
  assert.ok(whole.length >= 6, 'golden examples in docs/format.md');
  for (const [, file, text] of whole) assert.ok(text === golden(file), `docs/format.md: the example of ${file} is stale; ${firstDifference(golden(file), text)}`);
  const excerpts = [...doc.matchAll(/<!-- golden-lines: (\S+) -->\n```\w*\n([^]*?)```/g)];
  assert.ok(excerpts.length >= 1);
  for (const [, file, text] of excerpts) {
    const lines = golden(file).split('\n');
    for (const line of text.split('\n').filter(Boolean)) assert.ok(lines.includes(line), `docs/format.md: not a line of ${file}: ${line}`);
  }
});

// ---------------------------------------------------------------------------------------------
// Graphviz

// The text Graphviz shows for a label line: the exporter writes control characters other than
// the newline as spaces (docs/format.md).
const dotShown = (s) => s.replace(/[\x00-\x09\x0b-\x1f\x7f]/g, ' ');
const XML_ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/y;
// An HTML entity or character reference in a label, which Graphviz decodes unless toDot writes
// '&' as '&amp;' (it does).
const ENTITY_LIKE = /&(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);/;

// How Graphviz would show a label whose HTML entities were not escaped (to explain a failure).
const graphvizDecoded = (s) =>
  s.replace(/&(?:(amp|lt|gt|quot|apos|nbsp)|#(\d+)|#[xX]([0-9a-fA-F]+));/g, (whole, name, dec, hex) =>
    name ? { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }[name] : String.fromCodePoint(Number(dec ?? parseInt(hex, 16))));

/** The contents of every <text> element of an SVG, XML-decoded; throws on bad escaping. */
function svgTexts(svg) {
  const texts = [];
  for (const [, raw] of svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)) {
    for (let i = raw.indexOf('&'); i >= 0; i = raw.indexOf('&', i + 1)) {
      XML_ENTITY.lastIndex = i;
      if (!XML_ENTITY.test(raw)) throw new Error(`unescaped '&' in SVG text: ${JSON.stringify(raw)}`);
    }
    texts.push(
      raw.replace(/&(amp|lt|gt|quot|apos|#(\d+)|#x([0-9a-fA-F]+));/g, (_, name, dec, hex) =>
        dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[name]),
    );
  }
  return texts;
}

/** What each drawn element must show, from the DAG model: node labels, edge labels, fired counts. */
function shownLabels(dag) {
  const labels = dag.nodes.map((n) => ({ what: `node ${JSON.stringify(n.id)}`, text: n.type === 'end' ? 'END' : n.id }));
  // A swarm's edge shows how it is taken: its tool, its tool and condition, or 'continuation'.
  const swarmLabel = (e) => ({ llm: e.tool, hybrid: `${e.tool} when ${e.when}`, continuation: e.when === null ? 'continuation' : `continuation when ${e.when}` })[e.via];
  for (const [i, e] of dag.edges.entries()) {
    const text = (dag.kind === 'swarm' ? swarmLabel(e) : undefined) ?? e.when ?? e.description ?? '';
    if (text !== '') labels.push({ what: `edge ${i} label`, text });
    if (e.fired) labels.push({ what: `edge ${i} fired count`, text: `×${e.firedCount}` });
  }
  return labels;
}

/**
 * The label lines missing from the SVG's texts. toDot leaves out labels that are only white space
 * (Graphviz 2.43 aborts on an edge label of line breaks beside an xlabel), so blank lines are not
 * looked for.
 */
function missingLabels(svg, dag) {
  const norm = (s) => s.replaceAll('\u00a0', ' ');  // Graphviz writes runs of spaces as &#160;
  const shown = new Set(svgTexts(svg).map(norm));
  const missing = [];
  for (const { what, text } of shownLabels(dag)) {
    for (const line of dotShown(text).split('\n')) {
      if (line.trim() === '' || shown.has(norm(line))) continue;
      const hint = ENTITY_LIKE.test(line) && shown.has(norm(graphvizDecoded(line))) ? ' (drawn with its HTML entities decoded)' : '';
      missing.push(`${what}: ${JSON.stringify(line)}${hint}`);
    }
  }
  return missing;
}

/**
 * Runs `dot -Tsvg -O` over the files (in two processes, one per core). Returns { svgs: { file: svg },
 * failures: [{ file, message }] }; a process that fails is rerun file by file to name the culprits.
 */
async function graphviz(dir, files) {
  const halves = [files.filter((_, i) => i % 2 === 0), files.filter((_, i) => i % 2 === 1)].filter((h) => h.length > 0);
  const failures = [];
  await Promise.all(halves.map(async (half) => {
    try {
      await run('dot', ['-Tsvg', '-O', ...half], { cwd: dir, maxBuffer: 64 << 20 });
    } catch {
      for (const file of half) {
        try {
          await run('dot', ['-Tsvg', '-O', file], { cwd: dir });
        } catch (error) {
          failures.push({ file, message: `${error.signal ?? `exit ${error.code}`}: ${String(error.stderr).trim()}` });
        }
      }
    }
  }));
  const failed = new Set(failures.map((f) => f.file));
  const svgs = {};
  for (const file of files) if (!failed.has(file)) svgs[file] = await readFile(path.join(dir, `${file}.svg`), 'utf8');
  return { svgs, failures };
}

function randomCases(count, seed = RANDOM_SEED) {
  return Array.from({ length: count }, (_, i) => ({ seed, index: i, ...randomCase(seed, i) }));
}

test(`DOT: every golden file and ${RANDOM_DOT} random hostile graphs and machines pass dot -Tsvg, labels intact`, { timeout: 60_000 }, async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'handoff-graph-dot-'));
  try {
    const started = performance.now();
    const jobs = [];  // { file, dag, what }
    for (const name of NAMES) {
      const input = inputOf(name);
      jobs.push({ file: `golden-${name}.dot`, text: golden(`${name}.dot`), dag: JSON.parse(golden(`${name}.dag.json`)), what: `golden ${name}` });
    }
    for (const c of randomCases(RANDOM_DOT)) {
      const x = load(c.definition);
      try {
        const marks = { highlight: c.trace };
        jobs.push({ file: `random-${c.index}.dot`, text: x.toDot(marks), dag: x.toDag(marks), what: `randomCase(${c.seed}, ${c.index})` });
      } finally {
        x.dispose();
      }
    }
    await Promise.all(jobs.map((j) => writeFile(path.join(dir, j.file), j.text)));
    const generated = performance.now();
    const { svgs, failures } = await graphviz(dir, jobs.map((j) => j.file));
    const drawn = performance.now();
    const byFile = new Map(jobs.map((j) => [j.file, j]));
    const rejected = failures.map((f) => `${byFile.get(f.file).what} (${f.file}): ${f.message}\n${byFile.get(f.file).text}`);
    assert.deepEqual(rejected, [], `dot -Tsvg rejected ${rejected.length} file(s)`);

    const missing = [];
    for (const j of jobs) {
      const svg = svgs[j.file];
      assert.match(svg, /^<\?xml[^]*<svg[^]*<\/svg>\s*$/, `${j.what}: not an SVG`);
      const lines = missingLabels(svg, j.dag);
      if (lines.length > 0) missing.push(`${j.what}:\n    ${lines.join('\n    ')}`);
    }
    const random = jobs.filter((j) => j.file.startsWith('random-'));
    t.diagnostic(`dot -Tsvg: ${jobs.length - random.length} golden + ${random.length} random files (${random.filter((j) => j.dag.kind === 'graph').length} graphs, ${random.filter((j) => j.dag.kind === 'state-machine').length} machines); export ${(generated - started).toFixed(0)} ms, graphviz ${(drawn - generated).toFixed(0)} ms`);
    assert.deepEqual(missing, [], `labels missing from the SVG in ${missing.length} file(s)`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('DOT: drawing conventions (END cap, start marker, dashed unconditional edges, fired highlights)', () => {
  const dot = golden('tool-router.dot');
  assert.match(dot, /^digraph "router" \{\n/);
  assert.match(dot, /n0 \[label="END", shape=doublecircle/);
  assert.match(dot, /start \[shape=point[^\]]*\];\n {2}start -> n1;/);
  assert.match(dot, /n2 -> n1 \[style=dashed, color="#e4572e", penwidth=2.5, xlabel="×2"\]/);
  assert.match(dot, /n1 -> n3 \[label="decision == 'B'", color="#e4572e", penwidth=2.5, xlabel="×1"\]/);
  const unfired = golden('support-desk.dot');
  assert.doesNotMatch(unfired, /e4572e/, 'nothing is highlighted without a run');
  assert.match(unfired, /n1 -> n0 \[style=dashed\];/);
});

// ---------------------------------------------------------------------------------------------
// JSON Schema

const schemaFile = fileURLToPath(import.meta.resolve('handoff-graph/schema.json'));
const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
const ajv = new Ajv2020({ allErrors: true });
const validate = ajv.compile(schema);

const pointerOf = (e) => {
  const extra = e.params?.additionalProperty ?? e.params?.missingProperty;
  return extra === undefined ? e.instancePath : `${e.instancePath}/${extra.replaceAll('~', '~0').replaceAll('/', '~1')}`;
};

test('schema: handoff-graph/schema.json resolves to schema/definition.schema.json, draft 2020-12', () => {
  assert.equal(path.relative(fileURLToPath(new URL('../../', import.meta.url)), schemaFile), path.join('schema', 'definition.schema.json'));
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.deepEqual(schema.oneOf.map((s) => s.$ref), ['#/$defs/graph', '#/$defs/machine', '#/$defs/swarm']);
  assert.deepEqual(schema.properties.format.enum, ['handoff-graph', 'handoff-graph/state-machine', 'handoff-graph/swarm']);
});

test(`schema: every golden definition and ${RANDOM_SCHEMA} random toJSON() outputs validate`, () => {
  const bad = [];
  for (const name of NAMES) {
    for (const [what, doc] of [[`${name}.input.json definition`, inputOf(name).definition], [`${name}.definition.json`, JSON.parse(golden(`${name}.definition.json`))]]) {
      if (!validate(doc)) bad.push(`${what}: ${ajv.errorsText(validate.errors)}`);
    }
  }
  let graphs = 0;
  for (const c of randomCases(RANDOM_SCHEMA, RANDOM_SEED + 1)) {
    const x = load(c.definition);
    try {
      const doc = x.toJSON();
      if (doc.format === 'handoff-graph') graphs++;
      if (!validate(doc)) bad.push(`randomCase(${c.seed}, ${c.index}): ${ajv.errorsText(validate.errors)}`);
      if (!validate(c.definition)) bad.push(`randomCase(${c.seed}, ${c.index}) input: ${ajv.errorsText(validate.errors)}`);
      // and the document rebuilds the same thing
      const again = load(doc);
      try {
        assert.deepEqual(again.toJSON(), doc);
        assert.equal(again.toDot({ highlight: c.trace }), x.toDot({ highlight: c.trace }));
      } finally {
        again.dispose();
      }
    } finally {
      x.dispose();
    }
  }
  assert.deepEqual(bad, []);
  assert.ok(graphs > 0 && graphs < RANDOM_SCHEMA, 'both formats');
});

const graphDoc = (extra = {}) => ({ format: 'handoff-graph', version: 1, nodes: [{ id: 'a' }], edges: [{ from: 'a', to: 'b', when: 'x == 1' }], ...extra });
const machineDoc = (extra = {}) => ({
  format: 'handoff-graph/state-machine', version: 1, name: 'm', start: 'a', maxSteps: 5,
  states: [{ name: 'a' }], edges: [{ from: 'a', to: '__end__' }], reducers: { log: 'append' }, ...extra,
});

// Invalid documents: the schema rejects each, pointing where the loader points (`loader: true`:
// fromJSON refuses it too, at that pointer; the others load, but cannot run or are not canonical).
const INVALID = [
  ['no format', { version: 1 }, '/format', true],
  ['unknown format', { format: 'handoff-graph/v2', version: 1 }, '/format', true],
  ['graph: version 2', graphDoc({ version: 2 }), '/version', true],
  ['graph: version "1"', graphDoc({ version: '1' }), '/version', true],
  ['graph: no version', { format: 'handoff-graph' }, '/version', true],
  ['graph: unknown top-level property', graphDoc({ states: [] }), '/states', true],
  ['graph: __proto__ key', JSON.parse('{"format":"handoff-graph","version":1,"__proto__":{"polluted":true}}'), '/__proto__', true],
  ['graph: onCycle maybe', graphDoc({ onCycle: 'maybe' }), '/onCycle', true],
  ['graph: nodes not an array', graphDoc({ nodes: { a: {} } }), '/nodes', true],
  ['graph: node without id', graphDoc({ nodes: [{ description: 'x' }] }), '/nodes/0/id', true],
  ['graph: empty node id', graphDoc({ nodes: [{ id: '' }] }), '/nodes/0/id', true],
  ['graph: node id a number', graphDoc({ nodes: [{ id: 7 }] }), '/nodes/0/id', true],
  ['graph: misspelt when', graphDoc({ edges: [{ from: 'a', to: 'b', wen: 'x == 1' }] }), '/edges/0/wen', true],
  ['graph: edge without to', graphDoc({ edges: [{ from: 'a' }] }), '/edges/0/to', true],
  ['graph: empty condition', graphDoc({ edges: [{ from: 'a', to: 'b', when: '' }] }), '/edges/0/when', true],
  ['graph: condition a boolean', graphDoc({ edges: [{ from: 'a', to: 'b', when: true }] }), '/edges/0/when', true],
  ['graph: description a number', graphDoc({ edges: [{ from: 'a', to: 'b', description: 1 }] }), '/edges/0/description', true],
  ['machine: version 0', machineDoc({ version: 0 }), '/version', true],
  ['machine: graph property', machineDoc({ onCycle: 'allow' }), '/onCycle', true],
  ['machine: maxSteps a string', machineDoc({ maxSteps: '5' }), '/maxSteps', true],
  ['machine: onMaxSteps wrong', machineDoc({ onMaxSteps: 'stop' }), '/onMaxSteps', true],
  ['machine: feedbackOnRevisit a string', machineDoc({ feedbackOnRevisit: 'yes' }), '/feedbackOnRevisit', true],
  ['machine: state without name', machineDoc({ states: [{}] }), '/states/0/name', true],
  ['machine: blank state name', machineDoc({ states: [{ name: ' \t' }] }), '/states/0/name', true],
  ['machine: state named __end__', machineDoc({ states: [{ name: 'a' }, { name: '__end__' }] }), '/states/1/name', true],
  ['machine: unknown state property', machineDoc({ states: [{ name: 'a', handler: 'f' }] }), '/states/0/handler', true],
  ['machine: unknown edge property', machineDoc({ edges: [{ from: 'a', to: '__end__', guard: 'x' }] }), '/edges/0/guard', true],
  ['machine: reducer unknown', machineDoc({ reducers: { log: 'concat' } }), '/reducers/log', true],
  ['machine: reducer key with / and ~', machineDoc({ reducers: { 'a/b~c': 7 } }), '/reducers/a~1b~0c', true],
  ['machine: onMaxSteps in AgentEnsemble spelling', machineDoc({ onMaxSteps: 'RETURN_WITH_FLAG' }), '/onMaxSteps', true],
  ['machine: noFeedbackStates not an array', machineDoc({ noFeedbackStates: 'a' }), '/noFeedbackStates', true],
  ['machine: noFeedbackStates with a number', machineDoc({ noFeedbackStates: ['a', 7] }), '/noFeedbackStates/1', true],
  ['machine: task a number', machineDoc({ states: [{ name: 'a', task: 7 }] }), '/states/0/task', true],
  ['machine: task with a lone }', machineDoc({ states: [{ name: 'a', task: 'x } y' }] }), '/states/0/task', true],
  ['machine: task with an unclosed {', machineDoc({ states: [{ name: 'a', task: 'x {topic' }] }), '/states/0/task', true],
  ['machine: task with a blank placeholder', machineDoc({ states: [{ name: 'a', task: 'x { } y' }] }), '/states/0/task', true],
  ['machine: an edge function (toJSON never writes one)', machineDoc({ edges: [{ from: 'a', to: '__end__', predicate: true }] }), '/edges/0/predicate', true],
  ['machine: blank name (loads; validate() refuses to run it)', machineDoc({ name: ' ' }), '/name', false],
  ['machine: maxSteps 0 (loads; validate() refuses to run it)', machineDoc({ maxSteps: 0 }), '/maxSteps', false],
  ['machine: maxSteps 2.5 (loads; validate() refuses to run it)', machineDoc({ maxSteps: 2.5 }), '/maxSteps', false],
  ['machine: blank start (loads; validate() refuses to run it)', machineDoc({ start: ' ' }), '/start', false],
];

test(`schema: ${INVALID.length} hand-made invalid documents are rejected where the loader rejects them`, async (t) => {
  assert.ok(validate(graphDoc()) && validate(machineDoc()), 'the templates themselves are valid');
  for (const [what, doc, pointer, loaderRejects] of INVALID) {
    await t.test(what, () => {
      assert.equal(validate(doc), false, 'the schema accepted it');
      const pointers = validate.errors.map(pointerOf);
      assert.ok(pointers.includes(pointer), `no schema error at ${pointer}: ${JSON.stringify(validate.errors.map((e) => `${pointerOf(e)} ${e.message}`))}`);
      if (!loaderRejects) return;
      let thrown;
      try {
        load(doc).dispose();
      } catch (error) {
        thrown = error;
      }
      assert.ok(thrown instanceof DefinitionError, `fromJSON accepted it (${thrown})`);
      assert.ok(thrown.problems.some((p) => p.pointer === pointer), `no loader problem at ${pointer}: ${JSON.stringify(thrown.problems)}`);
    });
  }
  assert.equal({}.polluted, undefined, 'a __proto__ key polluted Object.prototype');
});

// ---------------------------------------------------------------------------------------------
// JSON Schema: swarms (format "handoff-graph/swarm")

// A vector's definition as new Swarm() reads it: format and version filled in when left out.
const asDocument = (definition) => ({ format: 'handoff-graph/swarm', version: 1, ...definition });

test('schema: every swarm of tests/vectors/handoffs.json that loads validates, as written and as toJSON() writes it', async (t) => {
  let loaded = 0;
  let refused = 0;
  for (const scenario of HANDOFF_VECTORS.scenarios) {
    const input = asDocument(scenario.swarm);
    let swarm;
    try {
      swarm = new Swarm(scenario.swarm);
    } catch (error) {
      assert.ok(error instanceof DefinitionError && scenario.problems, `${scenario.name}: ${error}`);
      refused++;
      continue;
    }
    await t.test(scenario.name, () => {
      try {
        const doc = swarm.toJSON();
        assert.ok(validate(doc), `toJSON(): ${ajv.errorsText(validate.errors)}`);
        assert.ok(validate(input), `the vector's definition: ${ajv.errorsText(validate.errors)}`);
        // and the document rebuilds the same swarm
        const again = new Swarm(doc);
        try {
          assert.deepEqual(again.toJSON(), doc);
        } finally {
          again.dispose();
        }
      } finally {
        swarm.dispose();
      }
    });
    loaded++;
  }
  assert.ok(loaded >= 10 && refused >= 3, `${loaded} swarms loaded, ${refused} refused`);
  t.diagnostic(`${loaded} swarms validated, ${refused} invalid vectors skipped`);
});

// A small valid swarm with every field; the invalid ones below are variations of it.
const swarmDoc = (extra = {}, edge = {}) => ({
  format: 'handoff-graph/swarm', version: 1, name: 's', maxHops: 3, context: 'last-user', includeSystem: true,
  agents: [
    { id: 'a', name: 'A', description: 'first', instructions: 'Route.', entry: true, handoffs: 2, tools: [{ name: 'lookup', description: 'Look up', parameters: { type: 'object', properties: {} } }] },
    { id: 'b' },
  ],
  edges: [
    { from: 'a', to: 'b', description: 'To b', toolName: 'go_b', requires: ['ticket', { name: 'n', from: 'model', type: 'integer', description: '1 to 5' }], context: 'none', includeSystem: false, ...edge },
    { from: 'b', to: 'a', when: 'done == true' },
  ],
  ...extra,
});
const withAgent = (agent) => swarmDoc({ agents: [{ id: 'a', entry: true, ...agent }, { id: 'b' }] });

// [what, document, where the schema points, where the loader points (default: the same)]
const INVALID_SWARMS = [
  ['unknown top-level property', swarmDoc({ onCycle: 'allow' }), '/onCycle'],
  ['unknown agent property', withAgent({ model: 'gpt' }), '/agents/0/model'],
  ['unknown tool property', withAgent({ tools: [{ name: 't', description: 'd', strict: true }] }), '/agents/0/tools/0/strict'],
  ['unknown edge property', swarmDoc({}, { guard: 'x' }), '/edges/0/guard'],
  ['unknown requires property', swarmDoc({}, { requires: [{ name: 'v', required: true }] }), '/edges/0/requires/0/required'],
  ['version 2', swarmDoc({ version: 2 }), '/version'],
  ['no agents', swarmDoc({ agents: undefined }), '/agents'],
  ['empty agents', swarmDoc({ agents: [] }), '/agents'],
  ['maxHops negative', swarmDoc({ maxHops: -1 }), '/maxHops'],
  ['maxHops above 1,000,000', swarmDoc({ maxHops: 1_000_001 }), '/maxHops'],
  ['maxHops 2.5', swarmDoc({ maxHops: 2.5 }), '/maxHops'],
  ['includeSystem a string', swarmDoc({ includeSystem: 'yes' }), '/includeSystem'],
  ['empty agent id', withAgent({ id: '' }), '/agents/0/id'],
  ['handoffs negative', withAgent({ handoffs: -2 }), '/agents/0/handoffs'],
  ['entry a string', withAgent({ entry: 'yes' }), '/agents/0/entry'],
  ['bad tool name (space)', withAgent({ tools: [{ name: 'look up', description: 'd' }] }), '/agents/0/tools/0/name'],
  ['tool without description', withAgent({ tools: [{ name: 't' }] }), '/agents/0/tools/0/description'],
  ['tool with an empty description', withAgent({ tools: [{ name: 't', description: '' }] }), '/agents/0/tools/0/description'],
  ['tool parameters not of type object', withAgent({ tools: [{ name: 't', description: 'd', parameters: { type: 'array' } }] }), '/agents/0/tools/0/parameters/type', '/agents/0/tools/0/parameters'],
  ['bad toolName (!)', swarmDoc({}, { toolName: 'bad name!' }), '/edges/0/toolName'],
  ['toolName of 65 characters', swarmDoc({}, { toolName: 'x'.repeat(65) }), '/edges/0/toolName'],
  ['empty toolName', swarmDoc({}, { toolName: '' }), '/edges/0/toolName'],
  ['edge without to', swarmDoc({}, { to: undefined }), '/edges/0/to'],
  ['empty condition', swarmDoc({}, { when: '', offer: true }), '/edges/0/when'],
  ['offer a string', swarmDoc({}, { offer: 'yes' }), '/edges/0/offer'],
  ['offer false without when', swarmDoc({}, { offer: false }), '/edges/0/when', '/edges/0/offer'],
  ['toolName on a rule edge', swarmDoc({}, { when: 'x', requires: [] }), '/edges/0/offer', '/edges/0/toolName'],
  ['requires not an array', swarmDoc({}, { requires: 'ticket' }), '/edges/0/requires'],
  ['requires a number', swarmDoc({}, { requires: [7] }), '/edges/0/requires/0'],
  ['requires an empty name', swarmDoc({}, { requires: [''] }), '/edges/0/requires/0'],
  ['requires reason', swarmDoc({}, { requires: ['reason'] }), '/edges/0/requires/0'],
  ['requires.from not model or state', swarmDoc({}, { requires: [{ name: 'v', from: 'agent' }] }), '/edges/0/requires/0/from'],
  ['requires.type object', swarmDoc({}, { requires: [{ name: 'v', type: 'object' }] }), '/edges/0/requires/0/type'],
  ['requires object without name', swarmDoc({}, { requires: [{ from: 'state' }] }), '/edges/0/requires/0/name', '/edges/0/requires/0'],
];

test(`schema: ${INVALID_SWARMS.length} hand-made invalid swarms are rejected, and new Swarm() refuses them too`, async (t) => {
  // Without edges: left out, since a member whose value is undefined is refused (js/definition-json.js).
  const withoutEdges = Object.fromEntries(Object.entries(swarmDoc({ name: null, context: null })).filter(([key]) => key !== 'edges'));
  for (const doc of [swarmDoc(), withAgent({}), withoutEdges, swarmDoc({}, { toolName: null, description: null, when: null })]) {
    assert.ok(validate(doc), `a template: ${ajv.errorsText(validate.errors)}`);
    new Swarm(doc).dispose();
  }
  for (const [what, doc, pointer, loaderPointer = pointer] of INVALID_SWARMS) {
    await t.test(what, () => {
      assert.equal(validate(doc), false, 'the schema accepted it');
      const pointers = validate.errors.map(pointerOf);
      assert.ok(pointers.includes(pointer), `no schema error at ${pointer}: ${JSON.stringify(validate.errors.map((e) => `${pointerOf(e)} ${e.message}`))}`);
      let thrown;
      try {
        new Swarm(doc).dispose();
      } catch (error) {
        thrown = error;
      }
      assert.ok(thrown instanceof DefinitionError, `new Swarm() accepted it (${thrown})`);
      assert.ok(thrown.problems.some((p) => p.pointer === loaderPointer), `no loader problem at ${loaderPointer}: ${JSON.stringify(thrown.problems)}`);
    });
  }
});

// docs/format.md's swarm example: the definition (<!-- swarm-example: input -->) and what
// new Swarm(definition).toJSON() gives (<!-- swarm-example: toJSON -->) must stay the real output.
test('docs/format.md: the swarm example is what new Swarm(definition).toJSON() writes, and validates', () => {
  const doc = readFileSync(new URL('../../docs/format.md', import.meta.url), 'utf8');
  const block = (label) => {
    const found = [...doc.matchAll(new RegExp(`<!-- swarm-example: ${label} -->\\n\`\`\`json\\n([^]*?)\`\`\``, 'g'))];
    assert.equal(found.length, 1, `one <!-- swarm-example: ${label} --> block in docs/format.md`);
    return found[0][1];
  };
  const input = JSON.parse(block('input'));
  const shown = block('toJSON');
  assert.equal(input.format, undefined, 'the example shows the constructor filling in format and version');
  const swarm = new Swarm(input);
  try {
    const written = `${JSON.stringify(swarm.toJSON(), null, 2)}\n`;
    assert.ok(shown === written, `docs/format.md: the swarm toJSON() example is stale; ${firstDifference(written, shown)}`);
    assert.ok(validate(swarm.toJSON()), ajv.errorsText(validate.errors));
    assert.ok(validate(asDocument(input)), ajv.errorsText(validate.errors));
  } finally {
    swarm.dispose();
  }
});
