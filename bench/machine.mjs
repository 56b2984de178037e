// `npm run bench`: the per-step overhead of a bounded state machine with EMPTY synchronous
// handlers, in handoff-graph and in two popular JavaScript engines, on the same loop:
//
//   a -> b -> c -> a -> ...   c goes back to a while it has run fewer than LOOPS times, else ends,
//
// so every run is LOOPS × 3 = 300 steps (a step = one handler run + one routing decision). All
// engines run in this process, interleaved repetition by repetition after a warm-up; a result is
// the median (and min-max) over repetitions of (time of a batch of whole runs) / (steps run).
// Every engine is checked to run exactly the same steps, in the same order, before anything is timed.
// Usage: node bench/machine.mjs [--json results.json] [--quick]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { StateGraph, Annotation, START, END as LANGGRAPH_END } from '@langchain/langgraph';
import { END, StateMachine, init } from 'handoff-graph';
import { assign, createActor, createMachine } from 'xstate';

import { machine as host, printTable } from './harness.mjs';

const args = process.argv.slice(2);
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const quick = args.includes('--quick');
const options = quick
  ? { repetitions: 5, targetMs: 60, warmupMs: 300 }
  : { repetitions: 11, targetMs: 250, warmupMs: 1500 };

const LOOPS = 100;                 // visits of c
const STEPS = LOOPS * 3;           // steps per run
const BOUND = 1000;                // maxSteps / recursionLimit / maxIterations: well above STEPS
const TARGET_NS = 2000;            // the target: handoff-graph ≤ 2 µs per step in Node

await init();

// ---------------------------------------------------------------------------------------------
// The engines. `build(probe)` builds the machine once and returns `run()`, one whole run that
// resolves the number of steps the engine itself says it ran. With `probe === null` the handlers
// are empty (what is timed); with a probe, each handler first calls `probe(name)` (used only by
// the agreement check below, on a separate build of the same definition).

const handler = (probe, name, body) => (probe === null ? body : (arg) => {
  probe(name);
  return body(arg);
});
const nothing = () => {};

/** handoff-graph: the visit counter is built in, so every handler is empty. */
function handoffMachine(probe, extra = {}) {
  const m = new StateMachine({ name: 'loop', start: 'a', maxSteps: BOUND, ...extra });
  m.addState('a', handler(probe, 'a', nothing));
  m.addState('b', handler(probe, 'b', nothing));
  m.addState('c', handler(probe, 'c', nothing));
  m.addEdge('a', 'b');
  m.addEdge('b', 'c');
  m.addEdge('c', 'a', `$visits.c < ${LOOPS}`);
  m.addEdge('c', END);
  return m;
}

function handoffRun(probe, extra) {
  const m = handoffMachine(probe, extra);
  return {
    run: async () => {
      const run = await m.run({});
      if (run.reason !== 'end') throw new Error(`handoff-graph run() ended with '${run.reason}'`);
      return run.stepsRun;
    },
    trace: async () => (await m.run({})).steps.map((s) => s.state),
  };
}

const engines = [
  {
    // The documented one-call way, with default options: run to END, resolve
    // { reason, stepsRun, state, steps }. The ratios in the table are to this row.
    name: 'handoff-graph machine.run()',
    build: (probe) => handoffRun(probe),
  },
  {
    // The host-driven way (api.md: "for hosts that drive and persist runs themselves"): one
    // awaited exec.step() per step; the native execution is disposed at the end of the run.
    name: 'handoff-graph exec.step() loop',
    build(probe) {
      const m = handoffMachine(probe);
      const drive = async () => {
        const exec = m.start({});
        const states = [];
        while (!exec.done) states.push((await exec.step()).state);
        if (exec.reason !== 'end') throw new Error(`handoff-graph exec.step() ended with '${exec.reason}'`);
        exec.dispose();
        return states;
      };
      return {
        run: async () => {
          const exec = m.start({});
          let steps = 0;
          while (!exec.done) {
            await exec.step();
            steps++;
          }
          if (exec.reason !== 'end') throw new Error(`handoff-graph exec.step() ended with '${exec.reason}'`);
          exec.dispose();
          return steps;
        },
        trace: drive,
      };
    },
  },
  {
    // Not one of the compared engines: the same run() with feedbackOnRevisit: false. By default
    // every revisit (here 297 of the 300 steps) gets ctx.revision, whose `feedback` sentence is
    // built in WebAssembly and copied out on every such step whether the handler reads it or not.
    name: 'handoff-graph run(), feedbackOnRevisit: false',
    build: (probe) => handoffRun(probe, { feedbackOnRevisit: false }),
  },
  {
    // LangGraph.js: a StateGraph with nodes a, b, c, plain edges a -> b -> c and a conditional
    // edge out of c, compiled once; one run = one `await app.invoke(input, { recursionLimit })`,
    // the documented way to run a graph to completion (no checkpointer, no streaming). LangGraph
    // keeps no visit counts, so the counter is a state channel `n` and c returns the minimal
    // update { n: n + 1 } (a and b return nothing); the router reads it: n < LOOPS ? a : END.
    // Each node is one LangGraph super-step, so recursionLimit must exceed 300 (default 25).
    name: 'LangGraph.js StateGraph .invoke()',
    build(probe) {
      const State = Annotation.Root({ n: Annotation() });
      const app = new StateGraph(State)
        .addNode('a', handler(probe, 'a', nothing))
        .addNode('b', handler(probe, 'b', nothing))
        .addNode('c', handler(probe, 'c', (s) => ({ n: s.n + 1 })))
        .addEdge(START, 'a')
        .addEdge('a', 'b')
        .addEdge('b', 'c')
        .addConditionalEdges('c', (s) => (s.n < LOOPS ? 'a' : LANGGRAPH_END), ['a', LANGGRAPH_END])
        .compile();
      const config = { recursionLimit: BOUND };
      return {
        // c runs once per loop and a, b run before it (the trace check proves it): steps = 3n.
        run: async () => 3 * (await app.invoke({ n: 0 }, config)).n,
        // LangGraph's own count: streamMode 'updates' yields one chunk per node run.
        trace: async () => {
          const states = [];
          for await (const chunk of await app.stream({ n: 0 }, { ...config, streamMode: 'updates' })) states.push(...Object.keys(chunk));
          return states;
        },
      };
    },
  },
  {
    // XState v5: states a, b, c (+ a final `done`), each state's "handler" an empty entry action.
    // Nothing outside the machine feeds it events in this loop, so the idiomatic encoding is
    // eventless `always` transitions: a → b → c, and from c a guarded transition back to a,
    // otherwise to `done`. Starting the actor runs all 300 microsteps synchronously to the final
    // state (one macrostep), which is the XState equivalent of machine.run(). XState keeps no visit
    // counts either, so c's entry also does the minimal update assign(n + 1) that the guard reads.
    // options.maxIterations bounds the loop as maxSteps does (its default is Infinity).
    name: 'XState v5 actor, `always` transitions',
    build(probe) {
      const definition = createMachine({
        id: 'loop',
        initial: 'a',
        context: { n: 0 },
        options: { maxIterations: BOUND },
        states: {
          a: { entry: handler(probe, 'a', nothing), always: 'b' },
          b: { entry: handler(probe, 'b', nothing), always: 'c' },
          c: {
            entry: [assign({ n: ({ context }) => context.n + 1 }), handler(probe, 'c', nothing)],
            always: [{ guard: ({ context }) => context.n < LOOPS, target: 'a' }, { target: 'done' }],
          },
          done: { type: 'final' },
        },
      });
      return xstateRun(definition, (actor) => actor.start());
    },
  },
  {
    // XState v5 driven from outside, the counterpart of exec.step(): every state waits for a
    // NEXT event and the host sends one per step. Entering a on start is step 1's handler; each
    // send() leaves the current state (c's guard decides where to) and enters the next one, so
    // 300 sends run 300 handlers and make 300 routing decisions, the last one into `done`.
    name: 'XState v5 actor, send() per step',
    build(probe) {
      const definition = createMachine({
        id: 'loop',
        initial: 'a',
        context: { n: 0 },
        states: {
          a: { entry: handler(probe, 'a', nothing), on: { NEXT: 'b' } },
          b: { entry: handler(probe, 'b', nothing), on: { NEXT: 'c' } },
          c: {
            entry: [assign({ n: ({ context }) => context.n + 1 }), handler(probe, 'c', nothing)],
            on: { NEXT: [{ guard: ({ context }) => context.n < LOOPS, target: 'a' }, { target: 'done' }] },
          },
          done: { type: 'final' },
        },
      });
      const next = { type: 'NEXT' };
      return xstateRun(definition, (actor) => {
        actor.start();
        while (actor.getSnapshot().status === 'active') actor.send(next);
      });
    },
  },
];

// One XState run: a fresh actor per run (as machine.run() starts a fresh execution).
function xstateRun(definition, drive) {
  return {
    run: async () => {
      const actor = createActor(definition);
      drive(actor);
      const snapshot = actor.getSnapshot();
      if (snapshot.status !== 'done') throw new Error(`XState ended with status '${snapshot.status}'`);
      return 3 * snapshot.context.n;
    },
    // XState's own count: one microstep (a taken transition) per step, named by its source state.
    trace: async () => {
      const states = [];
      const inspect = (e) => {
        if (e.type === '@xstate.microstep') for (const t of e._transitions) states.push(t.source.key);
      };
      const actor = createActor(definition, { inspect });
      drive(actor);
      if (actor.getSnapshot().status !== 'done') throw new Error(`XState ended with status '${actor.getSnapshot().status}'`);
      return states;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Agreement: every engine runs exactly STEPS handlers, in the order a, b, c, a, …, and its own
// report of the run (step records, stream chunks, microsteps) matches; the empty-handler build
// that is timed reports STEPS too. Any mismatch throws before anything is timed.

const expected = Array.from({ length: STEPS }, (_, i) => 'abc'[i % 3]);
const same = (xs) => xs.length === expected.length && xs.every((x, i) => x === expected[i]);
for (const engine of engines) {
  const calls = [];
  const probed = engine.build((name) => calls.push(name));
  const ownTrace = await probed.trace();
  const ownSteps = await probed.run();
  const timed = engine.build(null);
  engine.run = timed.run;
  const timedSteps = await timed.run();
  const timedTrace = await timed.trace();
  const handlerRuns = calls.length / 2;  // trace() and run() each ran the machine once
  if (!same(calls.slice(0, calls.length / 2)) || !same(calls.slice(calls.length / 2))) {
    throw new Error(`${engine.name}: handlers ran ${handlerRuns} times per run (${calls.slice(0, 7).join(' ')} …), expected ${STEPS} (a b c a b c a …)`);
  }
  if (!same(ownTrace) || !same(timedTrace)) {
    throw new Error(`${engine.name}: the engine reports ${ownTrace.length} / ${timedTrace.length} steps (${ownTrace.slice(0, 7).join(' ')} …), expected ${STEPS}`);
  }
  if (ownSteps !== STEPS || timedSteps !== STEPS) {
    throw new Error(`${engine.name}: a run reports ${ownSteps} steps (${timedSteps} with empty handlers), expected ${STEPS}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Timing: whole runs, awaited one after the other; ns per step = batch time / steps run.

async function timeRuns(run, runs) {
  let steps = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) steps += await run();
  const ns = Number(process.hrtime.bigint() - start);
  if (steps !== runs * STEPS) throw new Error(`ran ${steps} steps in ${runs} runs, expected ${runs * STEPS}`);
  return { ns, perStep: ns / steps };
}

async function warmUpAndCalibrate(run) {
  const until = performance.now() + options.warmupMs;
  let runs = 0;
  while (runs < 5 || performance.now() < until) {
    await run();
    runs++;
  }
  let batch = 1;
  for (;;) {
    const { ns } = await timeRuns(run, batch);
    if (ns > (options.targetMs * 1e6) / 4 || batch >= 1 << 20) return Math.max(1, Math.round((batch * options.targetMs * 1e6) / ns));
    batch *= 4;
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const plans = [];
for (const engine of engines) plans.push({ engine, runs: await warmUpAndCalibrate(engine.run), samples: [] });
for (let r = 0; r < options.repetitions; r++) {
  // Interleaved, starting with a different engine each repetition so no engine always follows the same one.
  for (let k = 0; k < plans.length; k++) {
    const plan = plans[(r + k) % plans.length];
    plan.samples.push((await timeRuns(plan.engine.run, plan.runs)).perStep);
  }
}
const ours = median(plans[0].samples);
const rows = plans.map(({ engine, samples, runs }) => ({
  engine: engine.name,
  median: median(samples),
  min: Math.min(...samples),
  max: Math.max(...samples),
  ratio: median(samples) / ours,
  runsPerRepetition: runs,
  samples,
}));

printTable(`state machine, 3-state loop a → b → c → a, ${STEPS} steps per run, empty handlers: time per step`, rows);
const verdict = ours <= TARGET_NS ? 'met' : 'NOT met';
console.log(`\ntarget (handoff-graph ≤ ${TARGET_NS / 1000} µs per step): ${verdict}, median ${(ours / 1000).toFixed(2)} µs per step with machine.run()`);

if (jsonOut) {
  // route.mjs writes the same file with the host description under `machine` ({ cpu, cores, node,
  // platform }); these results go under that same key, beside those fields, so both survive.
  const previous = existsSync(jsonOut) ? JSON.parse(readFileSync(jsonOut, 'utf8')) : {};
  const results = {
    options,
    loop: 'a -> b -> c -> a, c -> END after its 100th visit',
    stepsPerRun: STEPS,
    unit: 'ns per step',
    targetNsPerStep: TARGET_NS,
    targetMet: ours <= TARGET_NS,
    engines: rows,
  };
  const hostInfo = typeof previous.machine === 'object' && previous.machine !== null ? previous.machine : {};
  writeFileSync(jsonOut, JSON.stringify({ ...previous, machine: { ...hostInfo, ...host(), ...results } }, null, 2));
  console.log(`\nwrote ${jsonOut} (key 'machine')`);
}
