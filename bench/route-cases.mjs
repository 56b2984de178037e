// The route cases of bench/route.mjs on any runtime with performance.now(): the package's
// route() against the hand-written floors, json-logic-js, @marcbachmann/cel-js and filtrex, on the
// same cases and states, with the same agreement check first. bench/browser.mjs runs it in
// Chromium; bench/router-node.mjs runs it in Node on handoff-graph/router (a process holds one
// runtime, so the routing module is measured in a process of its own).
import { parse as celParse } from '@marcbachmann/cel-js';
import { compileExpression } from 'filtrex';
import jsonLogic from 'json-logic-js';

import { MESSAGES, cases, randomState, rng, toCel, toFiltrex, toJsonLogic, toOurs } from './cases.mjs';

const TIMED_STATES = 64;

function timeOnce(fn, iterations) {
  let sink = 0;
  const start = performance.now();
  for (let i = 0; i < iterations; i++) if (fn(i) !== null) sink++;
  const ms = performance.now() - start;
  if (sink === -1) console.log('unreachable');
  return (ms * 1e6) / iterations;
}

// As bench/harness.mjs measureAll: warm-up, calibration, then repetitions interleaved, starting
// from a different engine each time. performance.now() is coarse in browsers (tens of µs), so a
// repetition lasts targetMs.
function measureAll(engines, options) {
  const plans = engines.map((engine) => {
    for (let batch = 1, done = 0; done < 2000; batch = Math.min(batch * 2, 2000 - done)) {
      timeOnce(engine.run, batch);
      done += batch;
    }
    let iterations = 1;
    for (;;) {
      const ns = timeOnce(engine.run, iterations) * iterations;
      if (ns > (options.targetMs * 1e6) / 4 || iterations >= 1 << 26) {
        iterations = Math.max(1, Math.round((iterations * options.targetMs * 1e6) / Math.max(ns, 1)));
        break;
      }
      iterations *= 4;
    }
    return { engine, iterations, samples: [] };
  });
  for (let r = 0; r < options.repetitions; r++) {
    for (let k = 0; k < plans.length; k++) {
      const plan = plans[(r + k) % plans.length];
      plan.samples.push(timeOnce(plan.engine.run, plan.iterations));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ours = median(plans[0].samples);
  return plans.map(({ engine, samples }) => ({
    engine: engine.name, median: median(samples), min: Math.min(...samples), max: Math.max(...samples), ratio: median(samples) / ours,
  }));
}

function enginesFor(c, HandoffGraph) {
  const targets = c.edges.map(([to]) => to);
  const graph = new HandoffGraph();
  for (const [to, when] of c.edges) graph.addEdge('start', to, when && toOurs(when));
  const firstTrue = (tests) => (s) => {
    for (let k = 0; k < tests.length; k++) if (tests[k] === null || tests[k](s)) return targets[k];
    return null;
  };
  const logic = c.edges.map(([, when]) => when && toJsonLogic(when));
  const cel = c.edges.map(([, when]) => when && celParse(toCel(when)));
  const filtrex = c.edges.map(([, when]) => when && compileExpression(toFiltrex(when)));
  return {
    graph,
    engines: [
      { name: 'handoff-graph route()', decide: (s) => graph.route('start', s) },
      { name: 'hand-written JS if chain (the floor)', decide: c.floor },
      { name: 'hand-written JS, own-property checks', decide: c.ownChecks },
      { name: 'json-logic-js', decide: firstTrue(logic.map((rule) => rule && ((s) => jsonLogic.truthy(jsonLogic.apply(rule, s))))) },
      { name: '@marcbachmann/cel-js', decide: firstTrue(cel.map((f) => f && ((s) => f(s) === true))) },
      {
        name: 'filtrex',
        decide: firstTrue(filtrex.map((f) => f && ((s) => {
          const v = f(s);
          if (v instanceof Error) throw v;
          return v === true;
        }))),
      },
    ],
  };
}

/**
 * Runs every case: agreement on `agreementStates` random states, then the timed states (10-key and
 * 1 MB) for every engine, interleaved. `api` is an initialized entry (handoff-graph or
 * handoff-graph/router). Resolves { agreement, routes }.
 */
export function runRouteCases(api, { repetitions = 7, targetMs = 100, agreementStates = 2000 } = {}) {
  const options = { repetitions, targetMs };
  const AGREEMENT = agreementStates;
  const withMessages = (s) => ({ ...s, messages: MESSAGES });
  const routes = [];
  const agreement = [];
  for (const c of cases) {
    const { graph, engines } = enginesFor(c, api.HandoffGraph);
    // Agreement first: every engine decides the same random states as route().
    const r = rng(0x5eed + c.id.length);
    let checked = 0;
    for (let i = 0; i < AGREEMENT; i++) {
      const base = i % 2 === 0 ? randomState(r, i) : c.timed(r, i);
      for (const s of i < AGREEMENT / 20 ? [base, withMessages(base)] : [base]) {
        const expected = engines[0].decide(s);
        for (const e of engines.slice(1)) {
          const got = e.decide(s);
          if (got !== expected) throw new Error(`${c.name}: ${e.name} decided ${got}, route() ${expected} on ${JSON.stringify(base)}`);
        }
        checked++;
      }
    }
    agreement.push({ case: c.name, states: checked });
    const timedRng = rng(0x7ed + c.id.length);  // the states Node times (bench/route.mjs)
    const timed = Array.from({ length: TIMED_STATES }, (_, i) => c.timed(timedRng, i));
    for (const [stateName, variant] of [['10-key', (s) => s], ['1 MB', withMessages]]) {
      const states = timed.map(variant);
      const rows = measureAll(engines.map((e) => ({ name: e.name, run: (i) => e.decide(states[i % TIMED_STATES]) })), options);
      for (const row of rows) routes.push({ case: c.name, caseId: c.id, state: stateName, ...row });
    }
    graph.dispose();
  }
  return { options, agreement, routes };
}
