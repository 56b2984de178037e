// bench/swarm.mjs compares a swarm turn across handoff-graph, OpenAI Agents JS and LangGraph.js
// with one scripted model; its figures mean something only if the engines do the same work. This
// runs every case on every engine, twice (a built engine is reused for every timed turn), and
// checks the answer, the agent that gave it and the number of model calls.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { init } from 'handoff-graph';

import { CASES, checkEngine, ENGINES, reply } from '../../bench/swarm-engines.mjs';

await init();

const expected = CASES.map((c) => ({ case: c.id, agent: c.agent, text: `${c.agent} answers '${c.input}'`, modelCalls: c.modelCalls }));

for (const [name, make] of Object.entries(ENGINES)) {
  test(`${name}: every case gives the same answer, from the same agent, after the same model calls, turn after turn`, async () => {
    const turn = make();
    assert.deepEqual(await checkEngine(name, turn), expected);
    assert.deepEqual(await checkEngine(name, turn), expected);
  });
}

test('the script hands off only from triage, only right after the user said handoff', () => {
  assert.deepEqual(reply('triage', 'handoff', true), { handoffTo: 'human' });
  assert.deepEqual(reply('triage', 'handoff', false), { text: "triage answers 'handoff'" });
  assert.deepEqual(reply('human', 'handoff', true), { text: "human answers 'handoff'" });
  assert.deepEqual(reply('triage', 'answer', true), { text: "triage answers 'answer'" });
});

test('checkEngine rejects a turn that reports the wrong agent, or that skips the model', async () => {
  const turn = Object.values(ENGINES)[0]();
  const wrongAgent = async (c) => ({ ...(await turn(c)), agent: 'triage' });
  await assert.rejects(checkEngine('wrong agent', wrongAgent), /wrong agent, handoff: triage said "human answers 'handoff'" after 2 model calls/);
  const noModel = async (c) => ({ agent: c.agent, text: `${c.agent} answers '${c.input}'` });
  await assert.rejects(checkEngine('no model', noModel), /no model, answer: .* after 0 model calls/);
});
