// Seeded random conditions and states, runtime-neutral: Node, Chromium and the native tool
// (tests/cpp/evaluate_cases.cpp, fed the same cases as JSON) must give the same answers.

function rng(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const KEYS = ['a', 'b', 'tier', 'tags', 'n', 'user', 'é', 'x y'];
const STRINGS = ['', 'gold', 'Gold', 'silver', 'urgent', 'é', '😀', 'a"b', "it's", '10', '9'];

function value(r, depth) {
  switch (r(depth > 2 ? 5 : 8)) {
    case 0: return null;
    case 1: return r(2) === 0;
    case 2: return [0, 1, -1, 2.5, 1e21, -0.5, 3][r(7)];
    case 3: case 4: return STRINGS[r(STRINGS.length)];
    case 5: return Array.from({ length: r(4) }, () => value(r, depth + 1));
    default: {
      const o = {};
      for (let i = r(4); i > 0; i--) o[KEYS[r(KEYS.length)]] = value(r, depth + 1);
      return o;
    }
  }
}

function literal(r) {
  switch (r(5)) {
    case 0: return ['null', 'true', 'false'][r(3)];
    case 1: return String([0, 1, -1, 2.5, 10, 3][r(6)]);
    case 2: return `'${['gold', 'urgent', '', 'é', '10', '9'][r(6)]}'`;
    case 3: return `[${Array.from({ length: r(3) }, () => `'${['gold', 'a', 'é'][r(3)]}'`).join(', ')}]`;
    default: return String(r(5));
  }
}

function path(r) {
  const first = ['a', 'b', 'tier', 'tags', 'n', 'user'][r(6)];
  const steps = [first];
  for (let i = r(3); i > 0; i--) steps.push([`.${['a', 'b', 'tier', 'n'][r(4)]}`, `[${r(3) - 1}]`, "['x y']", "['é']"][r(4)]);
  return steps.join('');
}

function operand(r) {
  return r(3) === 0 ? literal(r) : path(r);
}

function condition(r, depth = 0) {
  const k = depth > 2 ? r(2) : r(5);
  if (k === 0) return `${operand(r)} ${['==', '!=', '<', '<=', '>', '>=', 'in', 'not in'][r(8)]} ${operand(r)}`;
  if (k === 1) return operand(r);
  if (k === 2) return `not ${condition(r, depth + 1)}`;
  if (k === 3) return `(${condition(r, depth + 1)}) ${['and', 'or'][r(2)]} (${condition(r, depth + 1)})`;
  return `${condition(r, depth + 1)} ${['and', 'or'][r(2)]} ${condition(r, depth + 1)}`;
}

/** `count` cases { condition, state } from `seed`. */
export function randomCases(seed, count) {
  const r = rng(seed);
  return Array.from({ length: count }, () => {
    const state = {};
    for (let i = r(6); i > 0; i--) state[KEYS[r(KEYS.length)]] = value(r, 0);
    return { condition: condition(r), state };
  });
}

/** What the package answers: true / false, or "error <index>" for a syntax error. */
export function answers(api, cases) {
  return cases.map(({ condition, state }) => {
    try {
      return api.evaluateCondition(condition, state);
    } catch (error) {
      if (error instanceof api.ConditionSyntaxError) return `error ${error.index}`;
      throw error;
    }
  });
}
