// Random graphs and state machines with hostile ids, labels and conditions, for the export tests
// (tests/js/export.test.mjs: DOT through Graphviz, definitions through the JSON Schema;
// tests/browser/mermaid.test.mjs: Mermaid through mermaid's parser in Chromium). Seeded, so a
// failure names a seed and index that reproduce it:
//
//   import { randomCase } from './tests/golden/hostile.mjs';
//   const { definition, trace } = randomCase(SEED, INDEX);

/** mulberry32: a small seeded PRNG; returns floats in [0, 1). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Characters that are syntax somewhere (DOT, Mermaid flowchart or state diagram, HTML, XML, the
// condition language), white space and control characters, and non-ASCII up to emoji sequences.
export const HOSTILE_CHARS = [
  "'", '"', '|', '<', '>', '[', ']', '#', ';', '\n', '\\', '{', '}', '(', ')', '&', ':', '%', '`', ' ', ' ',
  '\t', '\r', '-', '=', '*', '/', '~', ',', '.', '$', '@', '!', '?', '+', '^', '_',
  'a', 'b', 'x', 'Z', '0', '7',
  'é', 'ß', 'Ω', '日本', 'ﬁ', 'e\u0301', '\u00a0', '\u200b', '\u200d', '\u202e', '\u2028', '\u0085', '\u3000',
  '🚀', '👩‍👩‍👧', '🏳️‍🌈', '\u{10FFFD}',
];

// Whole tokens that mean something to a renderer or a parser.
export const HOSTILE_TOKENS = [
  'end', 'graph', 'subgraph', 'flowchart', 'stateDiagram-v2', 'state', 'note', 'direction', 'class', 'classDef',
  'style', 'linkStyle', 'click', 'call', 'href', 'default', 'digraph', 'strict', 'node', 'edge',
  '-->', '-.->', '---', '==>', '--x', '<-->', ':::', '%%', '%%{init: {}}%%', '[*]', '[[', ']]', '((', '))',
  '&amp;', '&lt;', '&#60;', '&#x3c;', '&quot;', '&nbsp;', '#quot;', '#35;', '#60;', '#amp;', '<br>', '<br/>',
  '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '\\n', '\\N', '\\G', '\\E', '\\l', '\\"',
  '__end__', '__proto__', 'constructor', 'START', 'END', 'n0', 'start',
];

function pick(rand, list) {
  return list[Math.floor(rand() * list.length)];
}

function int(rand, lo, hi) {
  return lo + Math.floor(rand() * (hi - lo + 1));
}

/** A random hostile string of 1 to `max` pieces (characters or tokens). */
export function hostileString(rand, max = 10) {
  let s = '';
  const n = int(rand, 1, max);
  for (let i = 0; i < n; i++) s += rand() < 0.25 ? pick(rand, HOSTILE_TOKENS) : pick(rand, HOSTILE_CHARS);
  return s;
}

// Blank by the machine's rule (Unicode White_Space only), which a state name must not be.
const blank = (s) => /^[\s\u0085]*$/u.test(s);

// A string literal of the condition language that stands for `s` exactly.
export function literal(s) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const c of s) {
    if (c === '\\') out += '\\\\';
    else if (c === quote) out += `\\${quote}`;
    else if (c === '\r') out += '\\r';
    else if (c === '\0') out += '\\0';
    else out += c;
  }
  return out + quote;
}

/** A random valid condition whose string literals and bracketed keys are hostile. */
export function hostileCondition(rand, depth = 0) {
  const r = rand();
  if (depth < 2 && r < 0.15) return `${hostileCondition(rand, depth + 1)} and ${hostileCondition(rand, depth + 1)}`;
  if (depth < 2 && r < 0.25) return `(${hostileCondition(rand, depth + 1)}) or not ${hostileCondition(rand, depth + 1)}`;
  const path = pick(rand, ['category', 'user.tier', 'messages[-1].role', `meta[${literal(hostileString(rand, 4))}]`, '$state', '$visits.a']);
  switch (int(rand, 0, 4)) {
    case 0: return `${path} == ${literal(hostileString(rand))}`;
    case 1: return `${path} != ${literal(hostileString(rand))}`;
    case 2: return `${literal(hostileString(rand))} in ${path}`;
    case 3: return `${path} in [${literal(hostileString(rand, 4))}, ${literal(hostileString(rand, 4))}, 3, null, true]`;
    default: return `${path} >= ${int(rand, -5, 5)}`;
  }
}

function distinctNames(rand, count, ok) {
  const names = new Set();
  while (names.size < count) {
    const s = hostileString(rand, 8);
    if (ok(s)) names.add(s);
  }
  return [...names];
}

/** A random graph definition (format handoff-graph) and a routing trace over it. */
export function randomGraph(rand) {
  const allow = rand() < 0.6;
  const ids = distinctNames(rand, int(rand, 1, 7), (s) => s.length > 0);
  const nodes = ids.filter(() => rand() < 0.4).map((id) => (rand() < 0.5 ? { id, description: hostileString(rand) } : { id }));
  const edges = [];
  const out = new Map(ids.map((id) => [id, []]));
  const count = int(rand, 0, 10);
  for (let i = 0; i < count && ids.length > 1; i++) {
    let a = int(rand, 0, ids.length - 1);
    let b = int(rand, 0, ids.length - 1);
    if (!allow) {
      if (a === b) continue;
      if (a > b) [a, b] = [b, a];  // edges from lower to higher index: never a cycle
    }
    const edge = { from: ids[a], to: ids[b] };
    if (rand() < 0.7) edge.when = hostileCondition(rand);
    if (rand() < 0.4) edge.description = hostileString(rand);
    out.get(ids[a]).push(edges.length);
    edges.push(edge);
  }
  // Routing hops ({ node, edge }) through the edges, as a walk would take them.
  const trace = [];
  let at = ids[0];
  for (let hop = 0; hop < 6; hop++) {
    const mine = out.get(at);
    if (mine.length === 0) break;
    const position = int(rand, 0, mine.length - 1);
    trace.push({ node: at, edge: position });
    at = edges[mine[position]].to;
  }
  return { definition: { format: 'handoff-graph', version: 1, onCycle: allow ? 'allow' : 'error', nodes, edges }, trace };
}

/** A random state machine definition and a run over it. */
export function randomMachine(rand) {
  const END = '__end__';
  const names = distinctNames(rand, int(rand, 1, 6), (s) => !blank(s) && s !== END);
  const states = names.map((name) => (rand() < 0.2 ? { name, feedbackOnRevisit: false } : { name }));
  const edges = [];
  const out = new Map(names.map((n) => [n, []]));
  for (const from of names) {
    for (let k = int(rand, 1, 3); k > 0; k--) {
      const to = rand() < 0.3 ? END : pick(rand, names);
      const edge = { from, to };
      if (rand() < 0.6) edge.when = hostileCondition(rand);
      if (rand() < 0.3) edge.description = hostileString(rand);
      out.get(from).push(edges.length);
      edges.push(edge);
    }
  }
  const reducers = {};
  for (let k = int(rand, 0, 2); k > 0; k--) reducers[hostileString(rand, 4)] = pick(rand, ['replace', 'append', 'merge', 'sum', 'custom']);
  const start = pick(rand, names);
  // A machine's name must not be blank either (validate() refuses it); prefixing keeps the draws.
  const drawn = hostileString(rand);
  const definition = {
    format: 'handoff-graph/state-machine', version: 1, name: blank(drawn) ? `m${drawn}` : drawn, start,
    maxSteps: int(rand, 1, 12), onMaxSteps: pick(rand, ['return', 'throw']), feedbackOnRevisit: rand() < 0.8,
    states, edges, reducers,
  };
  // A run: each step picks one of the state's edges, until END or maxSteps; some stall instead.
  const steps = [];
  let at = start;
  let reason = 'max-steps';
  const visits = new Map();
  for (let step = 1; step <= definition.maxSteps; step++) {
    const visit = (visits.get(at) ?? 0) + 1;
    visits.set(at, visit);
    if (rand() < 0.08) {
      steps.push({ step, state: at, visit, next: null, edge: null });
      reason = 'no-edge-matched';
      break;
    }
    const mine = out.get(at);
    const position = int(rand, 0, mine.length - 1);
    const next = edges[mine[position]].to;
    steps.push({ step, state: at, visit, next, edge: position });
    if (next === END) {
      reason = 'end';
      break;
    }
    at = next;
  }
  return { definition, trace: { reason, stepsRun: steps.length, steps } };
}

/** Case `index` of the series `seed` (each case has its own generator): graphs and machines alternate. */
export function randomCase(seed, index) {
  const rand = rng((Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
  return index % 2 === 0 ? randomGraph(rand) : randomMachine(rand);
}
