// Writes the committed seed corpus, fuzz/corpus/<target>/, from the test vectors and the golden
// definitions: `node fuzz/seed.mjs`. Each seed is named by a hash of its bytes, so regenerating is
// idempotent. Seeds over MAX_BYTES are skipped (the fuzzers run with -max_len near that size).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const read = (path) => JSON.parse(readFileSync(new URL(path, root), 'utf8'));
const MAX_BYTES = 4096;

const corpus = { parser: new Set(), evaluator: new Set(), graph_ops: new Set(), definition: new Set(), json: new Set() };
const add = (target, text) => {
  if (Buffer.byteLength(text) <= MAX_BYTES) corpus[target].add(text);
};

// Conditions: every vector's source (repeat-built ones too, when small), each check's state.
const conditions = read('tests/vectors/conditions.json');
for (const c of conditions.cases) {
  const source = c.condition ?? c.conditionRepeat.map(([part, n]) => part.repeat(n)).join('');
  add('parser', source);
  for (const [state] of c.checks ?? []) add('evaluator', `${source}\0${JSON.stringify(state)}`);
  if (!c.checks) add('evaluator', `${source}\0{}`);
}

// Graph operation scripts (graph_ops_fuzz.cpp's line format) from the graph scenarios.
const field = (s) => String(s).replace(/[\t\n]/g, ' ');
for (const scenario of read('tests/vectors/graphs.json').scenarios) {
  const lines = [scenario.onCycle ?? 'error'];
  for (const op of scenario.ops) {
    if (op.op === 'addNode') lines.push(['N', op.id, op.description ?? ''].map(field).join('\t'));
    else if (op.op === 'addEdge') {
      const parts = ['E', op.from, op.to];
      if (op.when !== undefined && op.when !== null) parts.push(op.when, op.description ?? '');
      lines.push(parts.map(field).join('\t'));
    } else if (op.op === 'route' || op.op === 'explain') lines.push(['R', op.node, JSON.stringify(op.state ?? null)].map(field).join('\t'));
    else if (op.op === 'isDag') lines.push('D');
    else if (op.op === 'roundTrip') lines.push('J');
  }
  lines.push('D', 'J');
  add('graph_ops', lines.join('\n'));
}

// Definitions: golden graphs and machines, the machine vectors, and a few swarms; some carry an
// `extra` document (a state, a snapshot, a trace, a session, tool arguments) after a NUL.
for (const name of readdirSync(new URL('tests/golden/', root))) {
  if (!name.endsWith('.definition.json')) continue;
  const text = readFileSync(new URL(`tests/golden/${name}`, root), 'utf8');
  add('definition', JSON.stringify(JSON.parse(text)));
  const input = name.replace('.definition.json', '.input.json');
  try {
    add('definition', `${JSON.stringify(JSON.parse(text))}\0${JSON.stringify({ trace: read(`tests/golden/${input}`).trace ?? null })}`);
  } catch {
    // no input file
  }
}
for (const scenario of read('tests/vectors/machines.json').scenarios) {
  const definition = { format: 'handoff-graph/state-machine', version: 1, ...scenario.machine };
  for (const key of Object.keys(definition)) if (typeof definition[key] === 'function') delete definition[key];
  add('definition', `${JSON.stringify(definition)}\0${JSON.stringify({ state: scenario.initialState ?? {} })}`);
}
const swarm = {
  format: 'handoff-graph/swarm', version: 1, name: 'support', maxHops: 4,
  agents: [
    { id: 'triage', name: 'Triage', instructions: 'You triage.', entry: true, handoffs: 2 },
    { id: 'billing', name: 'Billing' },
    { id: 'human', name: 'Human operator', description: 'A person' },
  ],
  edges: [
    { from: 'triage', to: 'billing', when: "category == 'billing'" },
    { from: 'triage', to: 'human', description: 'The user needs a human', requires: ['ticketId', { name: 'urgency', from: 'model', type: 'integer', description: '1 to 5' }] },
    { from: 'billing', to: 'human', offer: true, when: 'amount > 100', toolName: 'escalate', context: 'last-user', includeSystem: true },
    { from: 'billing', to: 'triage', context: 'none' },
  ],
};
add('definition', JSON.stringify(swarm));
const withTools = {
  ...swarm,
  agents: [
    { ...swarm.agents[0], tools: [{ name: 'lookup', description: 'Find an order', parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } }] },
    ...swarm.agents.slice(1),
  ],
};
add('definition', `${JSON.stringify(withTools)}\0${JSON.stringify({ name: 'lookup', arguments: { id: 'A-1' } })}`);
for (const extra of [
  { session: { active: 'triage', hops: 0, selections: {}, variables: { category: 'billing' } } },
  { session: { active: 'triage', variables: { ticketId: 'T-1' } }, name: 'transfer_to_human', arguments: { urgency: 3, reason: 'angry' } },
  { session: { active: 'triage', hops: 1, selections: { triage: 2 } }, name: 'transfer_to_human', arguments: { urgency: 2.5 } },
  { session: { active: 'billing', variables: { amount: 250 } }, name: 'escalate', arguments: null },
]) add('definition', `${JSON.stringify(swarm)}\0${JSON.stringify(extra)}`);

// Inputs that crashed the definition target once (fixed): kept as regression seeds.
const machine = { format: 'handoff-graph/state-machine', version: 1, name: 'm', start: 'a', maxSteps: 3, states: [{ name: 'a' }], edges: [{ from: 'a', to: '__end__' }] };
const pair = { format: 'handoff-graph/swarm', version: 1, agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }] };
for (const [definition, extra] of [
  // apply_trace: a non-boolean `matched` (nlohmann's value() threw, which -fno-exceptions turns into abort)
  [{ format: 'handoff-graph', version: 1, nodes: [{ id: 'a' }], edges: [{ from: 'a', to: 'b' }] }, [{ node: 'a', edges: [{ matched: 1, index: 0 }] }]],
  // Execution::restore: a non-string `format` (value() again), and a nested `status` (dump() recursed)
  [machine, { snapshot: { format: 1 } }],
  [machine, { snapshot: { format: 'handoff-graph/execution', version: 1, machine: 'm', status: [[[]]] } }],
  // apply_tool_call_text: nested arguments (copying recursed; now refused past 512 levels)
  [pair, { name: 'transfer_to_b', arguments: { reason: [[[[[]]]]] } }],
]) add('definition', `${JSON.stringify(definition)}\0${JSON.stringify(extra)}`);
// Condition::compile: an index step just past INT64_MAX overflowed while saturating (UBSan)
for (const source of ['x[9223372036854775808] == 1', 'x[-9223372036854775808] == 1', 'x[9223372036854775807] == null']) {
  add('parser', source);
  add('evaluator', `${source}\0{"x": [1, 2]}`);
}
// Swarm::from_json: a tool's `parameters.type` that is not a string (value() again)
add('definition', JSON.stringify({ ...pair, agents: [{ id: 'a', entry: true, tools: [{ name: 't', description: 'd', parameters: { type: 1 } }] }, { id: 'b' }] }));
// graph_from_json: a nested `version` was printed into the message by a recursive dump()
add('definition', `{"format":"handoff-graph","version":${'['.repeat(1000)}${']'.repeat(1000)}}`);

// JSON texts for the readers' comparison: every definition seed's documents, and the shapes where
// readers differ (duplicate keys, big numbers, escapes, a byte order mark, deep nesting).
for (const seed of corpus.definition) for (const part of seed.split('\0')) add('json', part);
for (const text of [
  '{"a":1,"b":2,"a":{"c":[1,2]}}', '[18446744073709551615,-9223372036854775809,1e400,-0,0.1e-400]',
  '"\\ud83d\\ude00\\u0000\\/"', '\ufeff{"bom":true}', `{${Array.from({ length: 40 }, (_, i) => `"k${i % 35}":${i}`).join(',')}}`,
  `${'['.repeat(7)}{"x":1}${']'.repeat(7)}`, '{"a":[{"b":{"c":{"d":{"e":{"f":{"g":{"h":1}}}}}}}]}',
]) add('json', text);

for (const [target, seeds] of Object.entries(corpus)) {
  const dir = new URL(`fuzz/corpus/${target}/`, root);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const seed of seeds) writeFileSync(new URL(createHash('sha1').update(seed).digest('hex'), dir), seed);
  console.log(`${target}: ${seeds.size} seeds`);
}
