// Leaks (issue 9): a million routes, and a hundred thousand graphs and machines created and
// disposed, leave the WebAssembly heap where it started; forgotten objects are freed by the
// FinalizationRegistry once they are collected.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

import { init, HandoffGraph, StateMachine, END, compileCondition, heapUsed } from 'handoff-graph';

await init();

test('1,000,000 routes leave the heap where it started', () => {
  const g = new HandoffGraph()
    .addEdge('triage', 'billing', "category == 'billing' and user.tier in ['gold', 'silver']")
    .addEdge('triage', 'human');
  const states = [{ category: 'billing', user: { tier: 'gold' } }, { category: 'other', user: { tier: 'x'.repeat(40) } }, {}];
  for (let i = 0; i < 1000; i++) g.route('triage', states[i % 3]);
  const before = heapUsed();
  let billing = 0;
  for (let i = 0; i < 1_000_000; i++) if (g.route('triage', states[i % 3]) === 'billing') billing++;
  assert.equal(billing, 333_334);
  assert.equal(heapUsed(), before);
  g.dispose();
});

test('100,000 graphs and 100,000 machines created, used and disposed leave the heap where it started', async () => {
  const graphCycle = () => {
    const g = new HandoffGraph().addEdge('a', 'b', 'x > 1').addEdge('a', 'c');
    g.route('a', { x: 2 });
    g.dispose();
  };
  const machineCycle = async () => {
    const m = new StateMachine({ name: 'm', start: 'a', maxSteps: 3 }).addState('a', () => ({ n: 1 })).addEdge('a', 'a', '$visits.a < 2').addEdge('a', END);
    await m.run({});
    m.dispose();
  };
  for (let i = 0; i < 100; i++) {
    graphCycle();
    await machineCycle();
  }
  const before = heapUsed();
  for (let i = 0; i < 100_000; i++) graphCycle();
  for (let i = 0; i < 100_000; i++) await machineCycle();
  assert.equal(heapUsed(), before);
});

test('the FinalizationRegistry frees graphs, machines and conditions nobody disposed (node --expose-gc)', () => {
  const script = `
    import { init, HandoffGraph, StateMachine, compileCondition, heapUsed } from 'handoff-graph';
    await init();
    const make = () => {
      for (let i = 0; i < 2000; i++) {
        new HandoffGraph().addEdge('a', 'b', 'x == ' + i).route('a', { x: i });
        new StateMachine({ start: 'a' }).addState('a').addEdge('a', '__end__', 'y');
        compileCondition('z > ' + i).evaluate({ z: 1 });
      }
    };
    const collect = async (rounds) => { for (let i = 0; i < rounds; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 10)); } };
    make();  // warm up: the first round grows the transfer area and the allocator's pools
    await collect(5);
    const before = heapUsed();
    make();
    const forgotten = heapUsed() - before;
    await collect(20);
    const afterN = heapUsed() - before;
    make();
    await collect(20);
    console.log(JSON.stringify({ forgotten, afterN, after2N: heapUsed() - before }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' }));
  assert.ok(out.forgotten > 1_000_000, `6,000 undisposed objects hold WebAssembly memory (${out.forgotten} bytes)`);
  // heapUsed() is what emmalloc's regions in use add up to (wasm/heap.cpp). Objects freed in the
  // collector's order leave the free space cut differently, and emmalloc may hand a live region a
  // few bytes more or less (a remainder too small to split, an alignment step: 8 bytes after the
  // first round here), however many rounds ran. A leak grows with the rounds instead: a region is
  // at least 16 bytes, so a leaked object per iteration adds 32,000 bytes or more from round 1 to
  // round 2; the test allows less than one byte per iteration.
  assert.ok(out.after2N - out.afterN < 2000, `a second round of 2,000 iterations left ${out.after2N - out.afterN} bytes more (${out.afterN} after the first)`);
});

// A machine keeps a list of its executions alive (dispose() frees them too), and it must not keep
// the executions themselves: a WeakRef to each did, until the job that made it ended, which a
// loop of awaited runs never does (each branch of a fan-out is an execution: 1,000 branches a run
// held about 300 KB a run, and `npm run bench`'s fan-out ran out of memory).
test('a loop of awaited fan-out runs in one job holds no execution after it (node --expose-gc)', () => {
  const script = `
    import { init, StateMachine, END } from 'handoff-graph';
    await init();
    const names = Array.from({ length: 1000 }, (_, i) => 'b' + i);
    const m = new StateMachine({ name: 'fan', start: 'fan', feedbackOnRevisit: false }).addFanOut('fan', names).addEdge('fan', END);
    for (const name of names) m.addState(name, () => {});
    for (let i = 0; i < 20; i++) await m.run({});
    globalThis.gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 200; i++) await m.run({});
    globalThis.gc();
    console.log(process.memoryUsage().heapUsed - before);`;
  const grown = Number(execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' }));
  assert.ok(grown < 10_000_000, `200 runs of 1,000 branches left ${grown} bytes of JavaScript heap behind`);
});
