// The benchmark cases, written once as a small condition tree and translated to every engine's
// own language, so that every engine is asked exactly the same question. Also the seeded state
// generator used by the agreement check and for the timed states.
//
// bench/native_bench.cpp builds the same four cases in C++ (same conditions, same list); keep the
// two in step.

// ---------------------------------------------------------------------------------------------
// Condition trees. Paths are dotted ('user.tier'); values are strings or numbers.

export const eq = (path, value) => ({ op: 'eq', path, value });
export const gt = (path, value) => ({ op: 'gt', path, value });
export const ge = (path, value) => ({ op: 'ge', path, value });
/** `value` is an element of the array at `path`. */
export const contains = (path, value) => ({ op: 'contains', path, value });
/** The value at `path` is one of `list`. */
export const oneOf = (path, list) => ({ op: 'oneOf', path, list });
export const and = (...xs) => ({ op: 'and', xs });
export const or = (...xs) => ({ op: 'or', xs });

const COMPARE = { eq: ['==', 'equal'], gt: ['>', 'greaterThan'], ge: ['>=', 'greaterThanInclusive'] };

/** handoff-graph's condition language (docs/conditions.md). */
export function toOurs(c, parent = null) {
  const lit = (v) => (typeof v === 'string' ? `'${v}'` : String(v));
  switch (c.op) {
    case 'eq': case 'gt': case 'ge': return `${c.path} ${COMPARE[c.op][0]} ${lit(c.value)}`;
    case 'contains': return `${lit(c.value)} in ${c.path}`;
    case 'oneOf': return `${c.path} in [${c.list.map(lit).join(', ')}]`;
    case 'and': case 'or': {
      const text = c.xs.map((x) => toOurs(x, c.op)).join(` ${c.op} `);
      return parent !== null && parent !== c.op ? `(${text})` : text;
    }
  }
  throw new Error(`unknown op ${c.op}`);
}

/** CEL, as @marcbachmann/cel-js parses it. */
export function toCel(c, parent = null) {
  const lit = (v) => (typeof v === 'string' ? `'${v}'` : String(v));
  switch (c.op) {
    case 'eq': case 'gt': case 'ge': return `${c.path} ${COMPARE[c.op][0]} ${lit(c.value)}`;
    case 'contains': return `${lit(c.value)} in ${c.path}`;
    case 'oneOf': return `${c.path} in [${c.list.map(lit).join(', ')}]`;
    case 'and': case 'or': {
      const text = c.xs.map((x) => toCel(x, c.op)).join(c.op === 'and' ? ' && ' : ' || ');
      return parent !== null && parent !== c.op ? `(${text})` : text;
    }
  }
  throw new Error(`unknown op ${c.op}`);
}

/** filtrex 3: strings in double quotes, `a.b` is one name, so nested keys are `b of a`. */
export function toFiltrex(c, parent = null) {
  const lit = (v) => (typeof v === 'string' ? `"${v}"` : String(v));
  const path = (p) => p.split('.').reverse().join(' of ');
  switch (c.op) {
    case 'eq': case 'gt': case 'ge': return `${path(c.path)} ${COMPARE[c.op][0]} ${lit(c.value)}`;
    case 'contains': return `${lit(c.value)} in ${path(c.path)}`;
    case 'oneOf': return `${path(c.path)} in (${c.list.map(lit).join(', ')})`;
    case 'and': case 'or': {
      const text = c.xs.map((x) => toFiltrex(x, c.op)).join(` ${c.op} `);
      return parent !== null && parent !== c.op ? `(${text})` : text;
    }
  }
  throw new Error(`unknown op ${c.op}`);
}

/** JsonLogic (json-logic-js). */
export function toJsonLogic(c) {
  const v = (p) => ({ var: p });
  switch (c.op) {
    case 'eq': case 'gt': case 'ge': return { [COMPARE[c.op][0]]: [v(c.path), c.value] };
    case 'contains': return { in: [c.value, v(c.path)] };
    case 'oneOf': return { in: [v(c.path), c.list] };
    case 'and': case 'or': return { [c.op]: c.xs.map(toJsonLogic) };
  }
  throw new Error(`unknown op ${c.op}`);
}

/** json-rules-engine conditions: a top-level fact per state key, nested keys by JSONPath. */
export function toRules(c, top = true) {
  const fact = (p) => {
    const [first, ...rest] = p.split('.');
    return rest.length === 0 ? { fact: first } : { fact: first, path: `$.${rest.join('.')}` };
  };
  let out;
  switch (c.op) {
    case 'eq': case 'gt': case 'ge': out = { ...fact(c.path), operator: COMPARE[c.op][1], value: c.value }; break;
    case 'contains': out = { ...fact(c.path), operator: 'contains', value: c.value }; break;
    case 'oneOf': out = { ...fact(c.path), operator: 'in', value: c.list }; break;
    case 'and': return { all: c.xs.map((x) => toRules(x, false)) };
    case 'or': return { any: c.xs.map((x) => toRules(x, false)) };
    default: throw new Error(`unknown op ${c.op}`);
  }
  return top ? { all: [out] } : out;
}

// ---------------------------------------------------------------------------------------------
// States. A seeded generator (mulberry32), so every run checks and times the same states.

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

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** 100 two-letter codes 'aa' … 'dv'; the membership list is every other one (50). */
export const COUNTRIES = Array.from({ length: 100 }, (_, i) => LETTERS[Math.floor(i / 26)] + LETTERS[i % 26]);
export const COUNTRY_LIST = COUNTRIES.filter((_, i) => i % 2 === 0);
const CATEGORIES = ['billing', 'support', 'sales', 'other', 'Billing', ''];
const TIERS = ['gold', 'silver', 'bronze', 'Gold', 'platinum'];
const TAGS = ['vip', 'urgent', 'later', 'refund', 'bug'];
const LOCALES = ['en', 'fr', 'de', 'es'];
export const ROUTER_EDGES = 50;

/** A 10-key ticket. Priority is mostly an integer 0-9, sometimes a half (3.5). */
export function randomState(r, id) {
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const priority = Math.floor(r() * 10) + (r() < 0.15 ? 0.5 : 0);
  return {
    id,
    category: pick(CATEGORIES),
    intent: `i${Math.floor(r() * 60)}`,          // i0 … i59: the 50-edge router knows i0 … i49
    priority,
    tags: TAGS.filter(() => r() < 0.3),
    user: { tier: pick(TIERS), name: `user ${id}` },
    country: pick(COUNTRIES),
    locale: pick(LOCALES),
    createdAt: '2026-11-22T10:00:00Z',
    subject: 'Question about my invoice',
  };
}

/** 5,000 chat messages, about 1 MB of JSON, for the "1 MB state" variant of every case. */
export const MESSAGES = Array.from({ length: 5000 }, (_, i) => ({
  role: i % 2 ? 'assistant' : 'user',
  content: `message ${i}: ${'lorem ipsum dolor sit amet '.repeat(6)}`,
  at: 1_700_000_000 + i,
}));

// ---------------------------------------------------------------------------------------------
// The cases. `edges`: [to, condition tree | null (unconditional)], tried in order; the decision is
// the `to` of the first edge whose condition holds, or null. `floor` and `ownChecks` are the same
// decision hand-written in JavaScript. `timed(r, i)` makes the states that are timed.

const ownGet = (o, k) => (o !== null && typeof o === 'object' && Object.hasOwn(o, k) ? o[k] : null);
const countrySet = new Set(COUNTRY_LIST);
const intents = Array.from({ length: ROUTER_EDGES }, (_, k) => `i${k}`);
const routerTargets = Array.from({ length: ROUTER_EDGES }, (_, k) => `r${k}`);

export const cases = [
  {
    id: 'triage',
    name: 'triage (3 edges, seed)',
    edges: [['billing', eq('category', 'billing')], ['support', eq('category', 'support')], ['human', null]],
    floor: (s) => (s.category === 'billing' ? 'billing' : s.category === 'support' ? 'support' : 'human'),
    ownChecks: (s) => {
      const c = ownGet(s, 'category');
      return c === 'billing' ? 'billing' : c === 'support' ? 'support' : 'human';
    },
    timed: randomState,
  },
  {
    id: 'escalation',
    name: 'escalation rule (seed)',
    seed: "user.tier == 'gold' or (priority > 3 and 'urgent' in tags)",
    edges: [['escalate', or(eq('user.tier', 'gold'), and(gt('priority', 3), contains('tags', 'urgent')))], ['queue', null]],
    floor: (s) => (s.user.tier === 'gold' || (s.priority > 3 && s.tags.includes('urgent')) ? 'escalate' : 'queue'),
    ownChecks: (s) => {
      const tier = ownGet(ownGet(s, 'user'), 'tier');
      const priority = ownGet(s, 'priority');
      const tags = ownGet(s, 'tags');
      return tier === 'gold' || (typeof priority === 'number' && priority > 3 && Array.isArray(tags) && tags.includes('urgent'))
        ? 'escalate' : 'queue';
    },
    timed: randomState,
  },
  {
    id: 'membership',
    name: 'membership in a 50-element list',
    edges: [['domestic', oneOf('country', COUNTRY_LIST)], ['international', null]],
    floor: (s) => (countrySet.has(s.country) ? 'domestic' : 'international'),
    ownChecks: (s) => {
      const c = ownGet(s, 'country');
      return typeof c === 'string' && countrySet.has(c) ? 'domestic' : 'international';
    },
    timed: randomState,
  },
  {
    id: 'router50',
    name: '50-edge router, match on the last edge',
    edges: intents.map((intent, k) => [routerTargets[k], and(eq('intent', intent), ge('priority', k % 4))]),
    floor: (s) => {
      for (let k = 0; k < ROUTER_EDGES; k++) if (s.intent === intents[k] && s.priority >= k % 4) return routerTargets[k];
      return null;
    },
    ownChecks: (s) => {
      const intent = ownGet(s, 'intent');
      const priority = ownGet(s, 'priority');
      for (let k = 0; k < ROUTER_EDGES; k++) {
        if (intent === intents[k] && typeof priority === 'number' && priority >= k % 4) return routerTargets[k];
      }
      return null;
    },
    // Every timed state is decided by the last edge: the 49 before it are tried and fail.
    timed: (r, i) => ({ ...randomState(r, i), intent: `i${ROUTER_EDGES - 1}`, priority: 1 + Math.floor(r() * 9) }),
  },
];

for (const c of cases) {
  if (c.seed !== undefined && toOurs(c.edges[0][1]) !== c.seed) throw new Error(`${c.id}: ${toOurs(c.edges[0][1])} is not the seed rule`);
}

// ---------------------------------------------------------------------------------------------
// The compile benchmark's mix (bench/route.mjs): every condition of the cases above (the seed
// rules among them, and the 50-edge router's small ones), then small seeded random conditions over
// the ticket's keys, as rules are written: one to three comparisons, `in` a tag or a short list.

/** `count` condition trees, all distinct; translate each with toOurs / toCel. */
export function compileMix(count = 200) {
  const trees = cases.flatMap((c) => c.edges.map(([, when]) => when).filter((when) => when !== null));
  const r = rng(0xc0de);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const leaf = () => {
    switch (Math.floor(r() * 6)) {
      case 0: return eq('category', pick(CATEGORIES.filter(Boolean)));
      case 1: return gt('priority', Math.floor(r() * 9));
      case 2: return contains('tags', pick(TAGS));
      case 3: return eq('user.tier', pick(TIERS));
      case 4: return oneOf('locale', LOCALES.filter(() => r() < 0.6).concat('en'));
      default: return ge('priority', Math.floor(r() * 9));
    }
  };
  const seen = new Set(trees.map((t) => toOurs(t)));
  while (trees.length < count) {
    const n = 1 + Math.floor(r() * 3);
    const xs = Array.from({ length: n }, leaf);
    const tree = n === 1 ? xs[0] : r() < 0.6 ? and(...xs) : or(...xs);
    const text = toOurs(tree);
    if (seen.has(text)) continue;
    seen.add(text);
    trees.push(tree);
  }
  return trees.slice(0, count);
}
