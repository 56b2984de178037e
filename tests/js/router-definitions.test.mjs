// Definitions on the routing module: it links its own build of the core's definition reader and
// writer (src/export/definition.cpp, nlohmann's ordered_json), so its HandoffGraph.fromJSON must
// accept exactly the texts the full module accepts, to the same graphs, and report the same
// problems with the same messages; toJSON must give the same documents. Each text below is run on both
// modules (the full one in a child process: a process holds one runtime) and the answers compared.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import * as router from 'handoff-graph/router';

const graph = (extra) => JSON.stringify({ format: 'handoff-graph', version: 1, nodes: [], edges: [], ...extra });
const withVersion = (text) => `{"format":"handoff-graph","version":${text},"nodes":[],"edges":[]}`;
const deep = (depth, open, close, inner = '1') => open.repeat(depth) + inner + close.repeat(depth);
const wide = (members) =>
  Array.from({ length: members + members / 10 }, (_, i) => (i < members ? `"k${i}":${i}` : `"k${(i - members) * 10}":-1`)).join(',');

/** Definition texts: JSON that is not quite JSON, odd numbers, strings, nesting, and faulty documents. */
const TEXTS = [
  '', ' ', 'nul', 'null', 'true', '1', '"x"', '[]', '{', '}', '{}', '{} {}', '[1,]', '{"a":1,}', '{"a" 1}', '{a:1}', "{'a':1}",
  '01', '-', '-0', '1.', '.5', '1e', '1e+', '+1', 'NaN', 'Infinity', '1e400', '-1e400', '1e-400', '0x10',
  '"\u0001"', '"\u007f"', '"\\ud800"', '"\\udc00"', '"\\ud800\\u0041"', '"\\ud800x"', '"\\x"', '"\\u12"', '"\\u12G4"', '"abc',
  '\ufeff{}', `\ufeff${graph({})}`, '\ufeff', `${graph({})}\u0000`, `${graph({})} \n\t\r`, ` \n${graph({})}`, `${graph({})}\u00a0`,
  ...['1', '1.0', '1e0', '10e-1', '-0', '0', '2', '-1', '"1"', 'true', 'null', '[1]', '{"a":1}', '[]', '{}',
    '9223372036854775807', '9223372036854775808', '18446744073709551615', '18446744073709551616', '18446744073709551617',
    '-9223372036854775808', '-9223372036854775809', '1.5', '1e100', '1E+100', '1e-7', '1.5e-7', '0.0001', '0.00001', '0.1', '-2.5e-10',
    '123456789012345678', '1e15', '1e16', '1e17', '123456789012345.6', '5e-324', '1.7976931348623157e308', '4.35', '0.3',
    '100000000000000000000000', '1.0000000000000002'].map(withVersion),
  graph({ extra: 1 }), graph({ 'a/b~c': 1 }), graph({ nodes: {} }), graph({ edges: 'x' }), graph({ nodes: [1, null, [], {}] }),
  graph({ nodes: [{ id: 'a' }, { id: 'a' }, { id: '' }, { id: 1 }, { id: 'b', description: null }, { id: 'c', description: 2 }, { id: 'd', x: 1 }] }),
  graph({ nodes: [{ id: '' }, { id: 'a' }, { id: '' }, { id: 'a', description: 'x' }, { id: 'toString' }, { id: 'toString' }] }),
  graph({ edges: [1, {}, { from: 'a' }, { from: 'a', to: 'b', when: 'x ==' }, { from: 'a', to: 'b', when: null }, { from: 'b', to: 'a' }, { from: 'a', to: 'b', transfer: true }] }),
  graph({ onCycle: 'sometimes' }), graph({ onCycle: null }), graph({ onCycle: 'allow', edges: [{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }] }),
  graph({ format: 'handoff-graph/state-machine' }), graph({ format: 1 }),
  '{"format":"x","format":"handoff-graph","version":1,"version":1,"nodes":[],"nodes":[{"id":"a"}]}',
  '{"version":1,"format":"handoff-graph","edges":[{"to":"b","from":"a","from":"c"}]}',
  '{"format":"handoff-graph","version":1,"nodes":[{"id":"\\u00e9\\ud83d\\ude00\\/\\b\\f\\n\\r\\t\\"\\\\","description":"x\\u0000y\\u001fz\\u2028"}]}',
  graph({ nodes: [{ id: 'é😀\u2028\u007f', description: 'tab\there "quoted" back\\slash \u0001' }], edges: [{ from: 'é😀\u2028\u007f', to: 'z', when: "x == 'ü' and y > 1.5" }] }),
  withVersion(deep(100_000, '[', ']')), withVersion(deep(100_000, '{"a":', '}')), withVersion(deep(100_000, '[', ']', '')),
  `{"format":"handoff-graph","version":1,"nodes":[{"id":"a","description":${deep(50_000, '[', ']')}}],"deep":${deep(50_000, '{"k":', '}')}}`,
  `{"format":"handoff-graph","version":1,"nodes":[{"id":"a","description":${deep(50_000, '[', ']')}]}`,
  `{"format":"handoff-graph","version":1,"nodes":${deep(20, '[', ']', '{"id":"a"}')}}`,
  // 50,000 members, every tenth key again: read in time linear in the text (src/core/json.h), where
  // nlohmann's own parser compares each key with the members before it (25 s for 40,000).
  `{"format":"handoff-graph","version":1,"nodes":[],"edges":[],"wide":{${wide(50_000)}}}`,
];

/** What fromJSON(text) gives on `api`: the graph's definition, or the problems. */
function answer(api, text) {
  try {
    const g = api.HandoffGraph.fromJSON(text);
    const definition = g.toJSON();
    g.dispose();
    return { definition };
  } catch (error) {
    return { name: error.name, message: error.message, problems: error.problems };
  }
}

export { TEXTS, answer };

if (process.env.HANDOFF_DEFINITIONS_CHILD !== '1') {
  const full = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', `
    import * as api from 'handoff-graph';
    import { writeSync } from 'node:fs';
    const { TEXTS, answer } = await import(${JSON.stringify(`${fileURLToPath(import.meta.url)}?child`)});
    await api.init();
    writeSync(1, JSON.stringify(TEXTS.map((t) => answer(api, t))));
  `], { encoding: 'utf8', maxBuffer: 256 << 20, env: { ...process.env, HANDOFF_DEFINITIONS_CHILD: '1' } }));
  await router.init();
  for (const [i, text] of TEXTS.entries()) {
    const shown = text.length > 80 ? `${text.slice(0, 60)}… (${text.length} chars)` : text;
    test(`router fromJSON = full fromJSON: ${JSON.stringify(shown)}`, () => {
      assert.deepEqual(answer(router, text), full[i]);
    });
  }

  test('the texts exercise both outcomes', () => {
    assert.ok(full.filter((a) => a.definition).length >= 5);
    assert.ok(full.filter((a) => a.problems?.some((p) => p.message === 'not valid JSON')).length >= 20);
  });
}
